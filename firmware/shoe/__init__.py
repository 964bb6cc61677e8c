"""Card-shoe firmware (RP2040 + MFRC522).  On the board this directory is copied as the
package ``shoe`` (``mpremote cp -r``); on the host it is ``firmware.shoe``.

Only ``main.py`` touches pins (``machine``); every other module is pure and host-testable.
"""

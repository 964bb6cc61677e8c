"""MicroPython firmware for the table's devices.  ``firmware.shoe`` is the card shoe.

The pure modules are written in the common subset of CPython 3.11 and MicroPython, so the
host (``hardware.shoe``) imports the very same framing and device logic the board runs.
"""

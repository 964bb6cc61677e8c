"""The RFID card shoe: protocol (:mod:`.protocol`), host client (:mod:`.client`), simulator
(:mod:`.simulator`), and :func:`make_shoe` choosing the backend from configuration.

The framing and the device logic are shared with the firmware (``firmware/shoe``), which is
written in the MicroPython/CPython common subset and imported here.
"""

from hardware.shoe.factory import ShoeConfig, make_shoe

__all__ = ["ShoeConfig", "make_shoe"]

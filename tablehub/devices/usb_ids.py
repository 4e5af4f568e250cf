"""USB ids of the dice tower boards (the udev rule in systemd/ and hardware/ use the same).

The reference dice tower is an OpenMV Cam H7 Plus (MicroPython camera board, USB id
1209:abd1 from pid.codes); the firmware also suits a Raspberry Pi Pico running MicroPython
(2e8a:0005).  ``systemd/99-tablehub-dice.rules`` names either ``/dev/tablehub-dice``; the dice
tower code (``tablehub/devices/dice_tower.py``, ``TOWER_USB_IDS``) looks for the same ids when
``dice_tower.port = "auto"`` and the udev name is absent.  Change them together.
"""

DICE_TOWER_USB_IDS: tuple[tuple[int, int], ...] = (
    (0x1209, 0xABD1),  # OpenMV Cam H7 (Plus), MicroPython: the reference tower
    (0x2E8A, 0x0005),  # Raspberry Pi Pico (RP2040), MicroPython
)
DICE_TOWER_UDEV_NAME = "/dev/tablehub-dice"

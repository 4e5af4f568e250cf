"""USB ids of the hub's devices (the udev rule in systemd/ and hardware/ use the same).

The reference dice tower is a Raspberry Pi Pico (RP2040) running MicroPython, whose USB CDC
serial port enumerates as 2e8a:0005.  The dice tower code finds the tower by these when
``dice_tower.port = "auto"`` and /dev/tablehub-dice (the udev rule) is absent.
"""

DICE_TOWER_USB_VID = 0x2E8A  # Raspberry Pi Ltd
DICE_TOWER_USB_PID = 0x0005  # MicroPython on RP2040 (Pico)
DICE_TOWER_UDEV_NAME = "/dev/tablehub-dice"

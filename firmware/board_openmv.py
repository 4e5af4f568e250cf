"""The thin hardware layer of the reference tower (OpenMV Cam H7 Plus, hardware/dice-tower.md).

Everything board-specific is here and nothing else is: the camera (``sensor``), the USB
virtual COM port (``pyb.USB_VCP``), the break-beam on P8 and the WS2812 LED ring on P7.
It only runs on the board; the logic it feeds (``tower/``) is tested on the host with a
fake board of the same shape (firmware/tests/fakes.py).
"""

import time

import machine
import neopixel
import pyb
import sensor
import urandom

RING_PIXELS = 12
SIDE_PX = 38  # die edge in pixels at QVGA with the camera 120 mm above the tray
# LAB thresholds per colour, in COLOURS order (tower/app.py); tune with the OpenMV IDE.
DIE_THRESHOLDS = [
    (70, 100, -12, 12, -12, 18),  # white
    (25, 75, -70, -15, -10, 50),  # green
    (15, 60, 12, 60, -70, -12),  # purple
    (20, 65, 30, 80, 10, 60),  # red
]
DARK_PIP = [(0, 32, -128, 127, -128, 127)]
LIGHT_PIP = [(78, 100, -15, 15, -15, 15)]


class Board:
    def __init__(self):
        sensor.reset()
        sensor.set_pixformat(sensor.RGB565)
        sensor.set_framesize(sensor.QVGA)
        sensor.skip_frames(time=1500)
        sensor.set_auto_gain(False)
        sensor.set_auto_whitebal(False)
        self.usb = pyb.USB_VCP()
        self.usb.setinterrupt(-1)  # a 0x03 byte in a frame must not raise KeyboardInterrupt
        self.beam = machine.Pin("P8", machine.Pin.IN, machine.Pin.PULL_UP)
        self.beam_latched = False
        self.beam.irq(trigger=machine.Pin.IRQ_FALLING, handler=self._beam_irq)
        self.ring = neopixel.NeoPixel(machine.Pin("P7", machine.Pin.OUT), RING_PIXELS)
        self.previous = None
        self.frame = None
        self.lights(1, 255, 255, 255)

    def _beam_irq(self, pin):
        self.beam_latched = True

    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def random_u16(self):
        return urandom.getrandbits(16)

    def usb_read(self):
        if not self.usb.any():
            return b""
        return self.usb.read() or b""

    def usb_write(self, data):
        if self.usb.isconnected():
            self.usb.write(data)

    def beam_broken(self):
        broken = self.beam_latched or self.beam.value() == 0
        self.beam_latched = False
        return broken

    def motion(self):
        self.frame = sensor.snapshot()
        grey = self.frame.to_grayscale(copy=True)
        if self.previous is None:
            self.previous = grey
            return 255.0
        diff = grey.copy().difference(self.previous)
        self.previous = grey
        return diff.get_statistics().mean()

    def blobs(self):
        img = self.frame or sensor.snapshot()
        area_min = int(SIDE_PX * SIDE_PX * 0.4)
        dice = []
        for blob in img.find_blobs(DIE_THRESHOLDS, area_threshold=area_min, merge=False):
            colour = 0
            code = blob.code()
            while code > 1:
                code >>= 1
                colour += 1
            dice.append((blob.cx(), blob.cy(), blob.pixels(), blob.elongation(), colour))
        pip_min = max(2, int(SIDE_PX * SIDE_PX * 0.004))
        pips = []
        for blob in img.find_blobs(DARK_PIP + LIGHT_PIP, area_threshold=pip_min, merge=False):
            pips.append((blob.cx(), blob.cy(), blob.pixels()))
        return dice, pips, SIDE_PX

    def lights(self, mode, red, green, blue):
        colour = (red, green, blue) if mode else (0, 0, 0)
        for i in range(RING_PIXELS):
            self.ring[i] = colour
        self.ring.write()

"""A fake board with the same methods as board_openmv.Board, scripted by the test."""


class FakeBoard:
    def __init__(self, side=40):
        self.now = 0
        self.rx = bytearray()
        self.tx = bytearray()
        self.beam_at = []  # times the beam is broken
        self.motion_until = -1  # motion is high until this time
        self.dice = []  # die blobs shown after the roll
        self.pips = []
        self.side = side
        self.light_calls = []

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms

    def random_u16(self):
        return 0x1234

    def usb_read(self):
        data = bytes(self.rx)
        self.rx = bytearray()
        return data

    def usb_write(self, data):
        self.tx.extend(data)

    def beam_broken(self):
        return self.now in self.beam_at

    def motion(self):
        return 40.0 if self.now <= self.motion_until else 0.5

    def blobs(self):
        return self.dice, self.pips, self.side

    def lights(self, mode, red, green, blue):
        self.light_calls.append((mode, red, green, blue))


def face(cx, cy, value, side=40, colour=0, angle_steps=0, offset=0.28):
    """A die blob and its pip blobs as the camera layer would report them."""
    import math

    layouts = {
        1: ((0, 0),),
        2: ((-1, -1), (1, 1)),
        3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
        5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
        6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
    }
    angle = angle_steps * math.pi / 12
    c, s = math.cos(angle), math.sin(angle)
    pips = []
    for x, y in layouts[value]:
        dx = x * offset * side
        dy = y * offset * side
        pips.append((cx + c * dx - s * dy, cy + s * dx + c * dy, side * side * 0.02))
    return (cx, cy, side * side, 0.05, colour), pips

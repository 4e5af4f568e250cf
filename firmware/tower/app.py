"""The tower's main loop, one ``step()`` at a time, over a board object (``board_openmv``
on the real tower, a fake in tests) so the whole of it runs on the host."""

from tower.pips import read_dice
from tower.rollstate import RollMachine

try:
    from tablehub.devices import dice_tower_engine as engine
    from tablehub.devices import dice_tower_wire as wire
except ImportError:  # on the board
    import dice_tower_engine as engine
    import dice_tower_wire as wire

FIRMWARE_VERSION = "tablehub-tower 1.0.0"
COLOURS = ["white", "green", "purple", "red"]  # the order of the board's colour thresholds
MAX_DICE = 16
CAPS = wire.CAP_CAMERA | wire.CAP_LIGHTS | wire.CAP_BEAM
IDENTIFY_BLINK_MS = 250


class TowerApp:
    def __init__(self, board, caps=CAPS):
        self.board = board
        self.link = engine.TowerLink(FIRMWARE_VERSION, COLOURS, MAX_DICE, caps, board.random_u16())
        self.roll = RollMachine()
        self.read = 1
        self.identify_until = 0
        self.lights = (wire.LIGHT_ON, 255, 255, 255)
        self.link.boot(board.ticks_ms())
        self.flush()

    def flush(self):
        data = self.link.take_output()
        if data:
            self.board.usb_write(data)

    def step(self):
        board = self.board
        now = board.ticks_ms()
        data = board.usb_read()
        if data:
            for command in self.link.feed(data, now):
                self.command(command, now)
        event = self.roll.update(now, board.beam_broken(), board.motion())
        if event == "throw":
            self.link.throw(self.roll.throw_id)
        elif event == "settled":
            self.link.settled(self.roll.throw_id, self.roll.settle_ms)
            self.read = 1
            self.report(now)
            self.roll.read_done()
        if self.roll.state != 0:
            self.link.state = self.roll.state
        self.blink(now)
        self.link.poll(now)
        self.flush()

    def report(self, now):
        dice_blobs, pip_blobs, side = self.board.blobs()
        readings = read_dice(dice_blobs, pip_blobs, side)
        if len(readings) > MAX_DICE:  # cannot report them all: report that, not a part
            readings = [(0, r[1], 2) for r in readings[:MAX_DICE]]
        dice = [wire.Die(v, c, s) for v, c, s in readings]
        self.link.result(self.roll.throw_id, self.read, dice, now)

    def command(self, command, now):
        if command.name == "lights":
            self.lights = command.args
            self.board.lights(*command.args)
        elif command.name == "reread":
            self.read += 1
            self.report(now)
        elif command.name == "identify":
            self.identify_until = now + 1000 * command.args[0]

    def blink(self, now):
        if not self.identify_until:
            return
        if now - self.identify_until >= 0:
            self.identify_until = 0
            self.board.lights(*self.lights)
            return
        on = (now // IDENTIFY_BLINK_MS) % 2 == 0
        self.board.lights(wire.LIGHT_ON, 0, 0, 255 if on else 0)

    def run_forever(self):
        while True:
            self.step()
            self.board.sleep_ms(5)

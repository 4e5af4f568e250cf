"""The roll state machine: idle -> rolling (break-beam or motion) -> settled -> read."""

from tower.settle import SettleDetector

IDLE = 0
ROLLING = 1
SETTLING = 2
READING = 3

START_MOTION = 12.0  # a motion level that starts a throw even without the beam


class RollMachine:
    def __init__(self, detector=None, first_throw_id=0):
        self.detector = detector or SettleDetector()
        self.state = IDLE
        self.throw_id = first_throw_id
        self.throw_ms = 0
        self.settle_ms = 0

    def update(self, now_ms, beam_broken, motion):
        """Advance; returns "throw", "settled" or None."""
        if self.state == IDLE:
            if beam_broken or motion >= START_MOTION:
                self.throw_id = (self.throw_id + 1) & 0xFFFF
                self.throw_ms = now_ms
                self.detector.start(now_ms)
                self.state = ROLLING
                return "throw"
            return None
        if self.state in (ROLLING, SETTLING):
            if beam_broken:  # more dice still falling: start the wait again
                self.detector.start(now_ms)
                self.state = ROLLING
                return None
            self.state = SETTLING
            if self.detector.update(now_ms, motion):
                self.settle_ms = now_ms - self.throw_ms
                self.state = READING
                return "settled"
        return None

    def read_done(self):
        self.state = IDLE

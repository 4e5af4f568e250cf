"""Settle detection: the dice have stopped when the tray camera sees (almost) no change
between frames for long enough.  Motion is the mean absolute difference of two frames."""


class SettleDetector:
    def __init__(self, quiet_level=2.0, quiet_ms=300, max_ms=6000):
        self.quiet_level = quiet_level  # mean grey-level change below this is "still"
        self.quiet_ms = quiet_ms  # still for this long is "settled"
        self.max_ms = max_ms  # give up waiting after this long (read anyway)
        self.start_ms = 0
        self.quiet_since = -1

    def start(self, now_ms):
        self.start_ms = now_ms
        self.quiet_since = -1

    def update(self, now_ms, motion):
        """True once settled (or timed out)."""
        if motion < self.quiet_level:
            if self.quiet_since < 0:
                self.quiet_since = now_ms
            if now_ms - self.quiet_since >= self.quiet_ms:
                return True
        else:
            self.quiet_since = -1
        return now_ms - self.start_ms >= self.max_ms

    def timed_out(self, now_ms):
        return now_ms - self.start_ms >= self.max_ms and self.quiet_since < 0

"""The tower's side of the link (firmware/PROTOCOL.md): handshake, heartbeat, results with
retransmission until acknowledged, host commands.  Pure: bytes in, bytes out, time passed
in as milliseconds, so the same code runs in the MicroPython firmware, in the virtual tower
and in the fuzz benchmark.  MicroPython-compatible like ``dice_tower_wire``.
"""

try:
    from tablehub.devices import dice_tower_wire as wire
except ImportError:  # on the board the module sits at the top level
    import dice_tower_wire as wire  # type: ignore[no-redef]

HEARTBEAT_MS = 1000
RETX_FIRST_MS = 250
RETX_MAX_MS = 2000

STATE_IDLE = 0
STATE_ROLLING = 1
STATE_SETTLING = 2
STATE_READING = 3


class Command:
    """What the host asked the tower's hardware to do."""

    __slots__ = ("args", "name")

    def __init__(self, name: str, args: tuple[int, ...] = ()) -> None:
        self.name = name  # "lights", "reread", "identify"
        self.args = args

    def __repr__(self) -> str:
        return "Command(" + self.name + ", " + repr(self.args) + ")"


class TowerLink:
    def __init__(
        self,
        firmware: str,
        colours: list[str],
        max_dice: int,
        caps: int,
        boot_id: int,
        major: int = wire.PROTOCOL_MAJOR,
        minor: int = wire.PROTOCOL_MINOR,
        retx_first_ms: int = RETX_FIRST_MS,
        retx_max_ms: int = RETX_MAX_MS,
    ) -> None:
        self.retx_first_ms = retx_first_ms
        self.retx_max_ms = retx_max_ms
        self.hello = wire.Hello(major, minor, boot_id, max_dice, caps, firmware, colours)
        self.decoder = wire.FrameDecoder()
        self.out = bytearray()
        self.seq = 0
        self.connected = False
        self.state = STATE_IDLE
        self.last_throw = 0
        self.last_result: wire.Result | None = None
        self.last_settled_ms = 0
        self.acked = True
        self.next_retx_ms = 0
        self.retx_interval = retx_first_ms
        self.next_heartbeat_ms = 0
        self.retransmits = 0
        self.host_seq = -1
        self.host_type = -1
        self.last_ack_status = 0

    # --- sending -----------------------------------------------------------------------

    def _send(self, msg_type: int, payload: bytes = b"") -> None:
        self.out.extend(wire.encode_frame(msg_type, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFF

    def take_output(self) -> bytes:
        data = bytes(self.out)
        self.out = bytearray()
        return data

    def boot(self, now_ms: int) -> None:
        """Announce ourselves at power-up: a host may already have the port open."""
        self._send(wire.HELLO, self.hello.encode())
        self.next_heartbeat_ms = now_ms + HEARTBEAT_MS

    def _send_result(self, now_ms: int, flags: int) -> None:
        result = self.last_result
        if result is None:
            return
        age = now_ms - self.last_settled_ms
        copy = wire.Result(result.throw_id, result.read, flags, age if age > 0 else 0, result.dice)
        self._send(wire.RESULT, copy.encode())

    # --- events from the roll logic ----------------------------------------------------

    def throw(self, throw_id: int) -> None:
        self.last_throw = throw_id
        self.state = STATE_ROLLING
        if self.connected:
            self._send(wire.THROW, wire.encode_u16(throw_id))

    def settled(self, throw_id: int, settle_ms: int) -> None:
        self.state = STATE_READING
        if self.connected:
            self._send(wire.SETTLED, wire.encode_settled(throw_id, settle_ms))

    def result(
        self, throw_id: int, read: int, dice: list[wire.Die], now_ms: int, settled_ms: int = -1
    ) -> None:
        """A new reading: it replaces any older one, and is sent until acknowledged.
        ``settled_ms``: when the dice stopped (default now), for the RESULT's age."""
        self.state = STATE_IDLE
        self.last_result = wire.Result(throw_id, read, 0, 0, dice)
        self.last_settled_ms = settled_ms if settled_ms >= 0 else now_ms
        self.acked = False
        self.retx_interval = self.retx_first_ms
        self.next_retx_ms = now_ms + self.retx_interval
        if self.connected:
            self._send_result(now_ms, 0)

    # --- time --------------------------------------------------------------------------

    def poll(self, now_ms: int) -> None:
        if now_ms - self.next_heartbeat_ms >= 0:
            self._send(wire.HEARTBEAT, wire.encode_heartbeat(now_ms, self.state, self.last_throw))
            self.next_heartbeat_ms = now_ms + HEARTBEAT_MS
        if self.connected and not self.acked and now_ms - self.next_retx_ms >= 0:
            self.retransmits += 1
            self._send_result(now_ms, 0)
            self.retx_interval = min(self.retx_interval * 2, self.retx_max_ms)
            self.next_retx_ms = now_ms + self.retx_interval

    # --- receiving ---------------------------------------------------------------------

    def feed(self, data: bytes, now_ms: int) -> list[Command]:
        commands: list[Command] = []
        for frame in self.decoder.feed(data):
            self._handle(frame, now_ms, commands)
        return commands

    def _ack(self, seq: int, status: int) -> None:
        self.last_ack_status = status
        self._send(wire.ACK, wire.encode_ack(seq, status))

    def _handle(self, frame: wire.Frame, now_ms: int, commands: list[Command]) -> None:
        kind = frame.msg_type
        if kind == wire.HOST_HELLO:
            self._host_hello(frame, now_ms)
            return
        if kind == wire.PING:
            self._send(wire.PONG, frame.payload)
            return
        if not self.connected:
            self._send(wire.ERROR, wire.encode_error(wire.ERR_NOT_READY, "say HOST_HELLO first"))
            return
        if kind == wire.RESULT_ACK:
            try:
                throw_id, read = wire.decode_result_ack(frame.payload)
            except wire.WireError:
                return
            last = self.last_result
            if last is not None and last.throw_id == throw_id and last.read == read:
                self.acked = True
            return
        duplicate = frame.seq == self.host_seq and kind == self.host_type
        self.host_seq = frame.seq
        self.host_type = kind
        if duplicate:  # the same command twice: acknowledge again, act once
            self._ack(frame.seq, self.last_ack_status)
            return
        try:
            if kind == wire.LIGHTS:
                commands.append(Command("lights", wire.decode_lights(frame.payload)))
            elif kind == wire.REREAD:
                if frame.payload:
                    raise wire.WireError("REREAD takes no payload")
                if self.last_result is None or self.state != STATE_IDLE:
                    self._ack(frame.seq, wire.ACK_BUSY)
                    return
                commands.append(Command("reread"))
            elif kind == wire.IDENTIFY:
                if len(frame.payload) != 1:
                    raise wire.WireError("IDENTIFY takes one byte")
                commands.append(Command("identify", (frame.payload[0],)))
            else:
                self._ack(frame.seq, wire.ACK_UNKNOWN)
                return
        except wire.WireError:
            self._ack(frame.seq, wire.ACK_BAD_ARGS)
            return
        self._ack(frame.seq, wire.ACK_OK)

    def _host_hello(self, frame: wire.Frame, now_ms: int) -> None:
        self._send(wire.HELLO, self.hello.encode())
        try:
            major, _minor = wire.decode_versions(frame.payload)
        except wire.WireError:
            self._send(wire.ERROR, wire.encode_error(wire.ERR_BAD_FRAME, "bad HOST_HELLO"))
            return
        if major != self.hello.major:
            self.connected = False
            text = "tower speaks protocol " + str(self.hello.major) + ", host " + str(major)
            self._send(wire.ERROR, wire.encode_error(wire.ERR_VERSION, text))
            return
        self.connected = True
        self.host_seq = -1
        self.host_type = -1
        if self.last_result is not None:
            flags = wire.FLAG_REPLAY | (wire.FLAG_ACKED if self.acked else 0)
            self._send_result(now_ms, flags)
            if not self.acked:
                self.retx_interval = self.retx_first_ms
                self.next_retx_ms = now_ms + self.retx_interval

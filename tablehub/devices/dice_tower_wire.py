"""The dice tower wire format (firmware/PROTOCOL.md, protocol 1): framing and messages.

This one file runs on both sides of the cable: on the host under CPython and on the tower
under MicroPython (it is copied to the board as ``dice_tower_wire.py``).  So it sticks to
the common subset: no ``__future__``, no dataclasses, no ``typing`` at run time, plain
classes and bytes.  Annotations are fine (MicroPython ignores them).

A frame on the wire is ``0x00 COBS(type seq len payload crc_hi crc_lo) 0x00``: COBS removes
every zero byte from the body, so 0x00 is a delimiter that never occurs inside a frame and
a receiver resynchronises at the next zero whatever garbage came before.  The CRC is
CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over type, seq, len and payload.
"""

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 0
MAX_PAYLOAD = 250
MAX_DICE_LIMIT = 32  # what a RESULT can carry (3 bytes per die)
MAX_ENCODED = MAX_PAYLOAD + 5 + 3  # COBS adds at most one byte per 254

# tower -> host
HELLO = 0x01
HEARTBEAT = 0x02
THROW = 0x03
SETTLED = 0x04
RESULT = 0x05
ACK = 0x06
PONG = 0x07
ERROR = 0x08
# host -> tower
HOST_HELLO = 0x81
RESULT_ACK = 0x82
LIGHTS = 0x83
REREAD = 0x84
IDENTIFY = 0x85
PING = 0x86

MESSAGE_NAMES = {
    HELLO: "HELLO",
    HEARTBEAT: "HEARTBEAT",
    THROW: "THROW",
    SETTLED: "SETTLED",
    RESULT: "RESULT",
    ACK: "ACK",
    PONG: "PONG",
    ERROR: "ERROR",
    HOST_HELLO: "HOST_HELLO",
    RESULT_ACK: "RESULT_ACK",
    LIGHTS: "LIGHTS",
    REREAD: "REREAD",
    IDENTIFY: "IDENTIFY",
    PING: "PING",
}

STATUS_STABLE = 0
STATUS_COCKED = 1
STATUS_UNREADABLE = 2
STATUS_NAMES = ("stable", "cocked", "unreadable")

# RESULT flags
FLAG_REPLAY = 0x01  # resent because the host (re)connected
FLAG_ACKED = 0x02  # the host acknowledged this result before (do not apply it again)

# HELLO capability flags
CAP_CAMERA = 0x01  # reads pips itself
CAP_LIGHTS = 0x02  # has an LED ring
CAP_BEAM = 0x04  # has a break-beam at the chute
CAP_SIMULATED = 0x80  # a virtual tower, never real dice

# ACK status
ACK_OK = 0
ACK_BAD_ARGS = 1
ACK_UNKNOWN = 2
ACK_BUSY = 3

# ERROR codes
ERR_VERSION = 1
ERR_BAD_FRAME = 2
ERR_NOT_READY = 3

LIGHT_OFF = 0
LIGHT_ON = 1
LIGHT_PULSE = 2


class WireError(ValueError):
    """A frame or payload that does not follow the protocol."""


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16_ccitt(data: bytes | bytearray, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (check value of b"123456789" is 0x29B1)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes | bytearray) -> bytes:
    out = bytearray()
    code_index = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_index] = code
            code_index = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_index] = code
                code_index = len(out)
                out.append(0)
                code = 1
    out[code_index] = code
    return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise WireError("zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise WireError("COBS block runs past the frame")
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type: int, seq: int, payload: bytes | bytearray = b"") -> bytes:
    """One frame, delimiters included, ready to write."""
    if len(payload) > MAX_PAYLOAD:
        raise WireError("payload too long")
    body = bytearray()
    body.append(msg_type & 0xFF)
    body.append(seq & 0xFF)
    body.append(len(payload))
    body.extend(payload)
    crc = crc16_ccitt(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return b"\x00" + cobs_encode(body) + b"\x00"


class Frame:
    __slots__ = ("msg_type", "payload", "seq")

    def __init__(self, msg_type: int, seq: int, payload: bytes) -> None:
        self.msg_type = msg_type
        self.seq = seq
        self.payload = payload

    def __repr__(self) -> str:
        name = MESSAGE_NAMES.get(self.msg_type, hex(self.msg_type))
        return "Frame(" + name + ", seq=" + str(self.seq) + ", " + repr(self.payload) + ")"


def decode_body(encoded: bytes | bytearray) -> Frame:
    """A frame from the bytes between two delimiters; ``WireError`` if damaged."""
    body = cobs_decode(encoded)
    if len(body) < 5:
        raise WireError("frame too short")
    length = body[2]
    if length != len(body) - 5:
        raise WireError("length field does not match")
    crc = (body[-2] << 8) | body[-1]
    if crc16_ccitt(body[:-2]) != crc:
        raise WireError("CRC mismatch")
    return Frame(body[0], body[1], bytes(body[3:-2]))


class FrameDecoder:
    """Turns a byte stream into frames, skipping garbage and counting what it skipped."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.frames_ok = 0
        self.frames_invalid = 0
        self.bytes_invalid = 0

    def feed(self, data: bytes | bytearray) -> list[Frame]:
        frames = []
        for byte in data:
            if byte != 0:
                if len(self._buf) < MAX_ENCODED:
                    self._buf.append(byte)
                else:
                    if not self._overflow:
                        self.frames_invalid += 1
                        self._overflow = True
                    self.bytes_invalid += 1
                continue
            if self._overflow:
                self.bytes_invalid += len(self._buf)
                self._buf = bytearray()
                self._overflow = False
                continue
            if not self._buf:
                continue  # idle delimiter
            encoded = self._buf
            self._buf = bytearray()
            try:
                frame = decode_body(encoded)
            except WireError:
                self.frames_invalid += 1
                self.bytes_invalid += len(encoded) + 1
                continue
            self.frames_ok += 1
            frames.append(frame)
        return frames


# --- payloads -------------------------------------------------------------------------


def _u16(value: int) -> bytes:
    return bytes(((value >> 8) & 0xFF, value & 0xFF))


def _u32(value: int) -> bytes:
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def _str8(text: str) -> bytes:
    raw = text.encode()
    if len(raw) > 255:
        raise WireError("string too long")
    return bytes((len(raw),)) + raw


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def u8(self) -> int:
        if self.pos >= len(self.data):
            raise WireError("payload too short")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def u16(self) -> int:
        return (self.u8() << 8) | self.u8()

    def u32(self) -> int:
        return (self.u16() << 16) | self.u16()

    def raw(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise WireError("payload too short")
        value = self.data[self.pos : self.pos + n]
        self.pos += n
        return value

    def str8(self) -> str:
        n = self.u8()
        try:
            return self.raw(n).decode()
        except UnicodeError:
            raise WireError("string is not UTF-8") from None

    def end(self) -> None:
        if self.pos != len(self.data):
            raise WireError("payload too long")


class Hello:
    """The tower introduces itself: versions, boot id and what it can do."""

    __slots__ = ("boot_id", "caps", "colours", "firmware", "major", "max_dice", "minor")

    def __init__(
        self,
        major: int,
        minor: int,
        boot_id: int,
        max_dice: int,
        caps: int,
        firmware: str,
        colours: list[str],
    ) -> None:
        self.major = major
        self.minor = minor
        self.boot_id = boot_id
        self.max_dice = max_dice
        self.caps = caps
        self.firmware = firmware
        self.colours = colours

    def encode(self) -> bytes:
        out = bytearray((self.major, self.minor))
        out.extend(_u16(self.boot_id))
        out.append(self.max_dice)
        out.append(self.caps)
        out.extend(_str8(self.firmware))
        out.append(len(self.colours))
        for name in self.colours:
            out.extend(_str8(name))
        return bytes(out)

    @staticmethod
    def decode(payload: bytes) -> "Hello":
        r = _Reader(payload)
        major = r.u8()
        minor = r.u8()
        if major != PROTOCOL_MAJOR:
            # Only the version bytes are promised across majors; do not parse further.
            return Hello(major, minor, 0, 0, 0, "", [])
        boot_id = r.u16()
        max_dice = r.u8()
        caps = r.u8()
        firmware = r.str8()
        colours = [r.str8() for _ in range(r.u8())]
        r.end()
        if not 1 <= max_dice <= MAX_DICE_LIMIT:
            raise WireError("impossible maximum number of dice")
        if not colours:
            raise WireError("a tower must name at least one colour")
        return Hello(major, minor, boot_id, max_dice, caps, firmware, colours)


class Die:
    __slots__ = ("colour", "status", "value")

    def __init__(self, value: int, colour: int, status: int) -> None:
        self.value = value  # 0 unless stable
        self.colour = colour  # index into the HELLO's colour list
        self.status = status

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Die)
            and self.value == other.value
            and self.colour == other.colour
            and self.status == other.status
        )

    def __hash__(self) -> int:
        return hash((self.value, self.colour, self.status))

    def __repr__(self) -> str:
        return "Die(" + str(self.value) + ", " + str(self.colour) + ", " + str(self.status) + ")"


class Result:
    """One reading of one throw.  (boot_id, throw_id, read) names it uniquely."""

    __slots__ = ("age_ms", "dice", "flags", "read", "throw_id")

    def __init__(self, throw_id: int, read: int, flags: int, age_ms: int, dice: list[Die]) -> None:
        self.throw_id = throw_id
        self.read = read
        self.flags = flags
        self.age_ms = age_ms
        self.dice = dice

    def encode(self) -> bytes:
        out = bytearray(_u16(self.throw_id))
        out.append(self.read & 0xFF)
        out.append(self.flags & 0xFF)
        out.extend(_u32(min(self.age_ms, 0xFFFFFFFF)))
        out.append(len(self.dice))
        for die in self.dice:
            out.append(die.value)
            out.append(die.colour)
            out.append(die.status)
        return bytes(out)

    @staticmethod
    def decode(payload: bytes, n_colours: int, max_dice: int) -> "Result":
        """Parse and check: a value only on a stable die, 1-6, a known colour."""
        r = _Reader(payload)
        throw_id = r.u16()
        read = r.u8()
        flags = r.u8()
        age_ms = r.u32()
        n = r.u8()
        if n > max_dice:
            raise WireError("more dice than the tower said it can hold")
        dice = []
        for _ in range(n):
            value = r.u8()
            colour = r.u8()
            status = r.u8()
            if status > STATUS_UNREADABLE:
                raise WireError("unknown die status " + str(status))
            if status == STATUS_STABLE and not 1 <= value <= 6:
                raise WireError("impossible die value " + str(value))
            if status != STATUS_STABLE and value != 0:
                raise WireError("a value on a die that is not stable")
            if colour >= n_colours:
                raise WireError("unknown colour index " + str(colour))
            dice.append(Die(value, colour, status))
        r.end()
        return Result(throw_id, read, flags, age_ms, dice)


def encode_heartbeat(uptime_ms: int, state: int, last_throw: int) -> bytes:
    return _u32(uptime_ms & 0xFFFFFFFF) + bytes((state,)) + _u16(last_throw)


def decode_heartbeat(payload: bytes) -> tuple[int, int, int]:
    r = _Reader(payload)
    value = (r.u32(), r.u8(), r.u16())
    r.end()
    return value


def encode_u16(value: int) -> bytes:
    return _u16(value)


def decode_u16(payload: bytes) -> int:
    r = _Reader(payload)
    value = r.u16()
    r.end()
    return value


def encode_settled(throw_id: int, settle_ms: int) -> bytes:
    return _u16(throw_id) + _u16(min(settle_ms, 0xFFFF))


def decode_settled(payload: bytes) -> tuple[int, int]:
    r = _Reader(payload)
    value = (r.u16(), r.u16())
    r.end()
    return value


def encode_result_ack(throw_id: int, read: int) -> bytes:
    return _u16(throw_id) + bytes((read & 0xFF,))


def decode_result_ack(payload: bytes) -> tuple[int, int]:
    r = _Reader(payload)
    value = (r.u16(), r.u8())
    r.end()
    return value


def encode_ack(acked_seq: int, status: int) -> bytes:
    return bytes((acked_seq & 0xFF, status))


def decode_ack(payload: bytes) -> tuple[int, int]:
    r = _Reader(payload)
    value = (r.u8(), r.u8())
    r.end()
    return value


def encode_error(code: int, text: str) -> bytes:
    return bytes((code,)) + _str8(text[:200])


def decode_error(payload: bytes) -> tuple[int, str]:
    r = _Reader(payload)
    value = (r.u8(), r.str8())
    r.end()
    return value


def encode_versions(major: int, minor: int) -> bytes:
    return bytes((major, minor))


def decode_versions(payload: bytes) -> tuple[int, int]:
    r = _Reader(payload)
    major = r.u8()
    minor = r.u8()
    # later minors may append fields: ignore the rest
    return major, minor


def encode_lights(mode: int, red: int, green: int, blue: int) -> bytes:
    return bytes((mode, red, green, blue))


def decode_lights(payload: bytes) -> tuple[int, int, int, int]:
    r = _Reader(payload)
    value = (r.u8(), r.u8(), r.u8(), r.u8())
    r.end()
    if value[0] > LIGHT_PULSE:
        raise WireError("unknown light mode")
    return value

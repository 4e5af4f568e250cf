"""The tower's link logic: handshake, retransmission until acknowledged, replay on reconnect,
commands acted on once."""

from tablehub.devices import dice_tower_engine as engine
from tablehub.devices import dice_tower_wire as wire

COLOURS = ["white", "green", "purple", "red"]


class Host:
    """A minimal host side for driving the engine."""

    def __init__(self) -> None:
        self.decoder = wire.FrameDecoder()
        self.seq = 0

    def frame(self, msg_type: int, payload: bytes = b"", seq: int | None = None) -> bytes:
        if seq is None:
            seq = self.seq
            self.seq += 1
        return wire.encode_frame(msg_type, seq, payload)

    def read(self, link: engine.TowerLink) -> list[wire.Frame]:
        return self.decoder.feed(link.take_output())


def connected() -> tuple[engine.TowerLink, Host]:
    link = engine.TowerLink("test", COLOURS, 12, 0, boot_id=77)
    link.boot(0)
    host = Host()
    link.feed(host.frame(wire.HOST_HELLO, wire.encode_versions(1, 0)), 0)
    frames = host.read(link)
    assert [f.msg_type for f in frames] == [wire.HELLO, wire.HELLO]
    return link, host


def test_no_results_before_handshake_but_kept_for_it() -> None:
    link = engine.TowerLink("test", COLOURS, 12, 0, boot_id=1)
    host = Host()
    link.result(5, 1, [wire.Die(3, 1, 0)], now_ms=100)
    link.poll(5000)
    assert all(f.msg_type != wire.RESULT for f in host.read(link))
    link.feed(host.frame(wire.HOST_HELLO, wire.encode_versions(1, 0)), 6000)
    results = [f for f in host.read(link) if f.msg_type == wire.RESULT]
    assert len(results) == 1
    result = wire.Result.decode(results[0].payload, 4, 12)
    assert result.flags == wire.FLAG_REPLAY and result.age_ms == 5900


def test_result_retransmitted_until_acknowledged() -> None:
    link, host = connected()
    link.result(1, 1, [wire.Die(6, 0, 0)], now_ms=1000)
    assert [f.msg_type for f in host.read(link)] == [wire.RESULT]
    link.poll(1249)
    assert all(f.msg_type != wire.RESULT for f in host.read(link))
    link.poll(1250)
    assert [f.msg_type for f in host.read(link) if f.msg_type == wire.RESULT] == [wire.RESULT]
    link.feed(host.frame(wire.RESULT_ACK, wire.encode_result_ack(1, 1)), 1300)
    link.poll(10_000)
    assert all(f.msg_type != wire.RESULT for f in host.read(link))
    assert link.retransmits == 1


def test_ack_for_another_reading_does_not_stop_retransmission() -> None:
    link, host = connected()
    link.result(2, 1, [wire.Die(6, 0, 0)], now_ms=0)
    link.feed(host.frame(wire.RESULT_ACK, wire.encode_result_ack(2, 2)), 10)
    link.poll(300)
    assert any(f.msg_type == wire.RESULT for f in host.read(link))


def test_replay_after_ack_is_flagged_acked() -> None:
    link, host = connected()
    link.result(3, 1, [wire.Die(1, 2, 0)], now_ms=0)
    link.feed(host.frame(wire.RESULT_ACK, wire.encode_result_ack(3, 1)), 10)
    host.read(link)
    link.feed(host.frame(wire.HOST_HELLO, wire.encode_versions(1, 0)), 20)
    (result_frame,) = [f for f in host.read(link) if f.msg_type == wire.RESULT]
    flags = wire.Result.decode(result_frame.payload, 4, 12).flags
    assert flags == wire.FLAG_REPLAY | wire.FLAG_ACKED


def test_version_mismatch_answered_with_hello_and_error() -> None:
    link = engine.TowerLink("test", COLOURS, 12, 0, boot_id=1)
    host = Host()
    link.result(5, 1, [wire.Die(3, 1, 0)], now_ms=0)
    link.feed(host.frame(wire.HOST_HELLO, wire.encode_versions(2, 0)), 0)
    frames = host.read(link)
    assert [f.msg_type for f in frames] == [wire.HELLO, wire.ERROR]
    assert wire.decode_error(frames[1].payload)[0] == wire.ERR_VERSION
    assert not link.connected


def test_commands_are_acknowledged_and_duplicates_act_once() -> None:
    link, host = connected()
    link.result(1, 1, [wire.Die(2, 0, 0)], now_ms=0)
    host.read(link)
    frame = host.frame(wire.REREAD)
    first = link.feed(frame, 10)
    again = link.feed(frame, 20)
    assert [c.name for c in first] == ["reread"] and again == []
    acks = [wire.decode_ack(f.payload) for f in host.read(link) if f.msg_type == wire.ACK]
    assert len(acks) == 2 and all(status == wire.ACK_OK for _, status in acks)


def test_bad_and_unknown_commands() -> None:
    link, host = connected()
    link.feed(host.frame(wire.LIGHTS, b"\x09\x00\x00\x00"), 0)
    link.feed(host.frame(0x99, b""), 0)
    link.feed(host.frame(wire.REREAD), 0)  # nothing to re-read yet
    statuses = [wire.decode_ack(f.payload)[1] for f in host.read(link)]
    assert statuses == [wire.ACK_BAD_ARGS, wire.ACK_UNKNOWN, wire.ACK_BUSY]


def test_ping_and_heartbeat() -> None:
    link, host = connected()
    link.feed(host.frame(wire.PING, b"\x00\x00\x00\x2a"), 0)
    link.poll(1000)
    frames = host.read(link)
    assert [f.msg_type for f in frames] == [wire.PONG, wire.HEARTBEAT]
    assert frames[0].payload == b"\x00\x00\x00\x2a"

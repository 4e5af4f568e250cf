"""Framing, CRC and payload codecs of the dice tower protocol (firmware/PROTOCOL.md)."""

import random

import pytest

from tablehub.devices import dice_tower_wire as wire


def test_crc_check_value() -> None:
    assert wire.crc16_ccitt(b"123456789") == 0x29B1


@pytest.mark.parametrize("size", [0, 1, 253, 254, 255, 256, 600])
def test_cobs_round_trip_and_no_zero(size: int) -> None:
    rng = random.Random(size)
    data = bytes(rng.choice([0, rng.randrange(256)]) for _ in range(size))
    encoded = wire.cobs_encode(data)
    assert 0 not in encoded
    assert wire.cobs_decode(encoded) == data


def test_frame_round_trip() -> None:
    frame = wire.encode_frame(wire.RESULT, 7, b"\x00\x01\x00\x02")
    assert frame[0] == 0 and frame[-1] == 0 and 0 not in frame[1:-1]
    (decoded,) = wire.FrameDecoder().feed(frame)
    assert (decoded.msg_type, decoded.seq, decoded.payload) == (wire.RESULT, 7, b"\x00\x01\x00\x02")


def test_decoder_resynchronises_after_garbage_and_counts_it() -> None:
    decoder = wire.FrameDecoder()
    good = wire.encode_frame(wire.HEARTBEAT, 1, wire.encode_heartbeat(5, 0, 0))
    stream = b"\xff\x13garbage" + good[1:] + b"noise\x00" + good
    frames = decoder.feed(stream)
    assert [f.msg_type for f in frames] == [wire.HEARTBEAT]
    assert decoder.frames_invalid == 2  # garbage+first frame glued together, and "noise"
    assert decoder.bytes_invalid > 0


def test_decoder_handles_split_feeds() -> None:
    decoder = wire.FrameDecoder()
    frame = wire.encode_frame(wire.THROW, 3, wire.encode_u16(12))
    got = []
    for byte in frame:
        got += decoder.feed(bytes([byte]))
    assert len(got) == 1 and wire.decode_u16(got[0].payload) == 12


def test_every_single_byte_corruption_is_caught() -> None:
    result = wire.Result(9, 1, 0, 10, [wire.Die(6, 1, 0), wire.Die(2, 0, 0)])
    frame = wire.encode_frame(wire.RESULT, 4, result.encode())
    for i in range(1, len(frame) - 1):
        for flip in (0x01, 0x80, 0xFF):
            damaged = bytearray(frame)
            damaged[i] ^= flip
            frames = wire.FrameDecoder().feed(bytes(damaged))
            assert all(f.payload == result.encode() for f in frames), (i, flip)


def test_endless_garbage_does_not_grow_the_buffer() -> None:
    decoder = wire.FrameDecoder()
    decoder.feed(b"\x01" * 10_000)
    assert len(decoder._buf) <= wire.MAX_ENCODED
    frames = decoder.feed(b"\x00" + wire.encode_frame(wire.PING, 1, b"abcd"))
    assert [f.msg_type for f in frames] == [wire.PING]


def test_hello_round_trip() -> None:
    hello = wire.Hello(1, 0, 0xBEEF, 12, wire.CAP_CAMERA, "fw 1.2", ["white", "green"])
    back = wire.Hello.decode(hello.encode())
    assert (back.boot_id, back.max_dice, back.firmware, back.colours) == (
        0xBEEF,
        12,
        "fw 1.2",
        ["white", "green"],
    )


def test_hello_of_another_major_parses_only_versions() -> None:
    back = wire.Hello.decode(bytes([2, 5]) + b"anything at all")
    assert (back.major, back.minor) == (2, 5)


@pytest.mark.parametrize(
    "die",
    [(7, 0, 0), (0, 0, 0), (3, 0, 1), (0, 5, 2), (1, 0, 3)],
    ids=["seven", "stable-zero", "cocked-with-value", "unknown-colour", "unknown-status"],
)
def test_impossible_readings_are_refused(die: tuple[int, int, int]) -> None:
    payload = wire.Result(1, 1, 0, 0, [wire.Die(*die)]).encode()
    with pytest.raises(wire.WireError):
        wire.Result.decode(payload, n_colours=4, max_dice=12)


def test_too_many_dice_refused() -> None:
    payload = wire.Result(1, 1, 0, 0, [wire.Die(1, 0, 0)] * 5).encode()
    with pytest.raises(wire.WireError):
        wire.Result.decode(payload, n_colours=4, max_dice=4)


def test_truncated_and_padded_payloads_refused() -> None:
    payload = wire.Result(1, 1, 0, 0, [wire.Die(4, 0, 0)]).encode()
    for bad in (payload[:-1], payload + b"\x00"):
        with pytest.raises(wire.WireError):
            wire.Result.decode(bad, n_colours=4, max_dice=12)

"""Firmware logic tests; run by run_tests.py under MicroPython and under CPython."""

from fakes import FakeBoard, face
from tower.app import TowerApp
from tower.pips import COCKED, STABLE, UNREADABLE, read_dice
from tower.rollstate import RollMachine
from tower.settle import SettleDetector

try:
    from tablehub.devices import dice_tower_wire as wire
except ImportError:
    import dice_tower_wire as wire


def test_every_face_at_every_rotation():
    for value in range(1, 7):
        for steps in range(6):
            die, pips = face(100, 100, value, angle_steps=steps)
            assert read_dice([die], pips, 40) == [(value, 0, STABLE)], (value, steps)


def test_pips_go_to_their_own_die():
    a, pa = face(100, 100, 5, colour=1)
    b, pb = face(150, 100, 2, colour=2)
    assert read_dice([a, b], pa + pb, 40) == [(5, 1, STABLE), (2, 2, STABLE)]


def test_cocked_by_shape_and_by_area():
    die, pips = face(100, 100, 4)
    tall = (die[0], die[1], die[2], 0.5, die[4])
    big = (die[0], die[1], die[2] * 1.4, 0.1, die[4])
    assert read_dice([tall], pips, 40) == [(0, 0, COCKED)]
    assert read_dice([big], pips, 40) == [(0, 0, COCKED)]


def test_touching_dice_are_unreadable():
    die, pips = face(100, 100, 3)
    merged = (die[0], die[1], die[2] * 2.0, 0.4, die[4])
    assert read_dice([merged], pips, 40) == [(0, 0, UNREADABLE)]


def test_wrong_layouts_are_not_guessed():
    die, pips = face(100, 100, 6)
    assert read_dice([die], pips[:5], 40) == [(0, 0, UNREADABLE)]  # a pip hidden by glare
    assert read_dice([die], [], 40) == [(0, 0, UNREADABLE)]
    odd_size = [(p[0], p[1], p[2] * (4 if i == 0 else 1)) for i, p in enumerate(pips)]
    assert read_dice([die], odd_size, 40) == [(0, 0, UNREADABLE)]
    shifted = [(p[0] + 9, p[1], p[2]) for p in face(100, 100, 1)[1]]
    assert read_dice([die], shifted, 40) == [(0, 0, UNREADABLE)]


def test_settle_needs_quiet_for_long_enough():
    d = SettleDetector(quiet_level=2, quiet_ms=300, max_ms=6000)
    d.start(0)
    assert not d.update(100, 1.0)
    assert not d.update(300, 5.0)  # moved again
    assert not d.update(350, 1.0)
    assert d.update(650, 1.0)


def test_settle_gives_up_after_max():
    d = SettleDetector(max_ms=1000)
    d.start(0)
    assert d.update(1000, 50.0)
    assert d.timed_out(1000)


def test_roll_machine_sequence():
    m = RollMachine(SettleDetector(quiet_ms=100))
    assert m.update(0, False, 0.0) is None
    assert m.update(10, True, 0.0) == "throw"
    assert m.update(20, False, 30.0) is None
    assert m.update(30, False, 0.5) is None
    assert m.update(130, False, 0.5) == "settled"
    assert m.settle_ms == 120 and m.throw_id == 1
    m.read_done()
    assert m.update(140, False, 20.0) == "throw" and m.throw_id == 2


def _frames(board):
    decoder = wire.FrameDecoder()
    frames = decoder.feed(bytes(board.tx))
    board.tx = bytearray()
    return frames


def test_whole_tower_reports_a_throw_after_handshake():
    board = FakeBoard()
    app = TowerApp(board)
    assert [f.msg_type for f in _frames(board)] == [wire.HELLO]
    board.rx.extend(wire.encode_frame(wire.HOST_HELLO, 0, wire.encode_versions(1, 0)))
    d1, p1 = face(100, 100, 6, colour=1)
    d2, p2 = face(160, 100, 3, colour=2)
    board.dice = [d1, d2]
    board.pips = p1 + p2
    board.beam_at = [100]
    board.motion_until = 600
    while board.now < 1200:
        app.step()
        board.sleep_ms(10)
    frames = _frames(board)
    kinds = [f.msg_type for f in frames]
    for kind in (wire.HELLO, wire.THROW, wire.SETTLED, wire.RESULT):
        assert kind in kinds, kind
    results = [f for f in frames if f.msg_type == wire.RESULT]
    result = wire.Result.decode(results[0].payload, 4, 16)
    assert result.dice == [wire.Die(6, 1, 0), wire.Die(3, 2, 0)]
    assert result.throw_id == 1 and result.read == 1


def test_reread_and_identify_commands():
    board = FakeBoard()
    app = TowerApp(board)
    board.rx.extend(wire.encode_frame(wire.HOST_HELLO, 0, wire.encode_versions(1, 0)))
    d1, p1 = face(100, 100, 2)
    board.dice, board.pips = [d1], p1
    board.beam_at = [50]
    board.motion_until = 100
    while board.now < 800:
        app.step()
        board.sleep_ms(10)
    _frames(board)
    board.rx.extend(wire.encode_frame(wire.REREAD, 1))
    board.rx.extend(wire.encode_frame(wire.IDENTIFY, 2, b"\x01"))
    app.step()
    results = [f for f in _frames(board) if f.msg_type == wire.RESULT]
    assert len(results) == 1
    result = wire.Result.decode(results[0].payload, 4, 16)
    assert result.read == 2 and result.dice == [wire.Die(2, 0, 0)]
    for _ in range(120):
        board.sleep_ms(10)
        app.step()
    blue = [c for c in board.light_calls if c[3] == 255 and c[1] == 0]
    assert blue and board.light_calls[-1] == (1, 255, 255, 255)

"""The engine conformance suite every rules engine must pass.

Each game's ``tests/games/<game>/test_conformance.py`` calls these for every player count
and option set in its ``GameInfo``:

* ``check_random_playouts``: seeded uniformly random games all reach a terminal state, and
  the returns are well formed;
* ``check_round_trip``: ``to_json``/``from_json`` (through real JSON text) rebuilds an equal
  state, with equal legal moves and views, at every step;
* ``check_illegal_moves``: malformed moves, moves by the wrong seat and out-of-range
  values are refused with a reason, and refusing changes nothing;
* ``check_no_view_leaks``: re-drawing one player's hidden information leaves every other
  player's view and the public view unchanged (so no view can depend on it).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from tablehub.games.base import (
    CHANCE,
    TERMINAL,
    Game,
    GameState,
    IllegalMove,
    Move,
)


def _text_round_trip(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def _walk(
    game: Game, players: int, options: Mapping[str, Any], seed: int
) -> Iterator[tuple[GameState, Move | None]]:
    """Yield (state, move about to be applied) along one random playout, then (end, None)."""
    rng = random.Random(seed)
    state = game.new_initial_state(players, options)
    steps = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        assert moves, f"seed {seed}: no legal moves at step {steps} for {state.current_player()}"
        move = rng.choice(moves)
        yield state, move
        state.apply(move)
        steps += 1
        assert steps < 200_000, f"seed {seed}: no end after {steps} moves"
    yield state, None


def check_random_playouts(
    game: Game, players: int, options: Mapping[str, Any], playouts: int, seed: int = 0
) -> dict[str, float]:
    """``playouts`` random games end cleanly; returns simple figures (mean moves)."""
    total_moves = 0
    for i in range(playouts):
        final: GameState | None = None
        for state, move in _walk(game, players, options, seed + i):
            if move is None:
                final = state
            else:
                total_moves += 1
                assert state.current_player() != TERMINAL
        assert final is not None and final.is_terminal()
        returns = final.returns()
        assert len(returns) == players, f"seed {seed + i}: returns has {len(returns)} entries"
        assert all(0.0 <= r <= 1.0 for r in returns), f"seed {seed + i}: returns {returns}"
        assert final.legal_moves() == [], "a terminal state offers moves"
    return {"mean_moves": total_moves / max(1, playouts)}


def check_round_trip(
    game: Game, players: int, options: Mapping[str, Any], playouts: int, seed: int = 0
) -> None:
    """Serialise/deserialise through JSON text at every step: an equal state comes back."""
    for i in range(playouts):
        for state, _move in _walk(game, players, options, seed + i):
            data = _text_round_trip(state.to_json())
            copy_ = game.state_from_json(data)
            assert copy_ == state, f"seed {seed + i}: round trip changed the state"
            assert copy_.to_json() == data
            assert copy_.current_player() == state.current_player()
            assert copy_.legal_moves() == state.legal_moves()
            assert copy_.public_view() == state.public_view()
            assert copy_.dealer_view() == state.dealer_view()
            for p in range(players):
                assert copy_.player_view(p) == state.player_view(p)
            # Views and moves must be JSON too (they go to the web page and the journal).
            _text_round_trip(state.public_view())
            _text_round_trip(state.legal_moves())


def _bad_variants(state: GameState, move: Move, rng: random.Random) -> list[Move]:
    """Moves derived from a legal one that the rules must refuse."""
    bad: list[Move] = [
        {},
        {"kind": "no-such-move", "player": move.get("player", 0)},
        {"player": move.get("player", 0)},
    ]
    actor = state.current_player()
    if actor >= 0:
        wrong = copy.deepcopy(move)
        wrong["player"] = (actor + 1 + rng.randrange(state.num_players() - 1)) % (
            state.num_players()
        )
        if wrong not in state.legal_moves():
            bad.append(wrong)
        bad.append({**move, "player": CHANCE})
    else:
        bad.append({**move, "player": 0})
    for key in move:
        if key in ("kind", "player"):
            continue
        for junk in (-7, 10_000, "garbage", None, [1, 2, 3]):
            candidate = {**move, key: junk}
            if candidate not in state.legal_moves():
                bad.append(candidate)
    return bad


def check_illegal_moves(
    game: Game,
    players: int,
    options: Mapping[str, Any],
    playouts: int,
    seed: int = 0,
    sample_every: int = 7,
) -> int:
    """Illegal moves get a reason and change nothing; returns how many were tried."""
    rng = random.Random(seed ^ 0x5EED)
    tried = 0
    for i in range(playouts):
        for step, (state, move) in enumerate(_walk(game, players, options, seed + i)):
            if move is None:
                bad_moves: list[Move] = [{"kind": "anything", "player": 0}]
            elif step % sample_every:
                continue
            else:
                bad_moves = _bad_variants(state, move, rng)
            before = state.to_json()
            for bad in bad_moves:
                reason = state.check(bad)
                assert isinstance(reason, str) and reason.strip(), (
                    f"seed {seed + i} step {step}: {bad!r} was not refused"
                )
                try:
                    state.apply(bad)
                except IllegalMove as err:
                    assert err.reason
                else:
                    raise AssertionError(f"apply accepted illegal move {bad!r}")
                assert state.to_json() == before, f"refusing {bad!r} changed the state"
                tried += 1
    return tried


def check_no_view_leaks(
    game: Game,
    players: int,
    options: Mapping[str, Any],
    playouts: int,
    seed: int = 0,
    require_hidden: bool = True,
) -> int:
    """Re-draw each player's secrets; nobody else's view may move.  Returns #changes seen."""
    rng = random.Random(seed ^ 0x1EA4)
    changed = 0
    for i in range(playouts):
        for state, _move in _walk(game, players, options, seed + i):
            before = state.to_json()
            public = state.public_view()
            views = [state.player_view(p) for p in range(players)]
            for p in range(players):
                other = state.resample_hidden(p, rng)
                assert state.to_json() == before, "resample_hidden changed the original"
                assert other.public_view() == public, (
                    f"seed {seed + i}: the public view depends on player {p}'s secrets"
                )
                for q in range(players):
                    if q != p:
                        assert other.player_view(q) == views[q], (
                            f"seed {seed + i}: player {q}'s view depends on player {p}'s secrets"
                        )
                if other.player_view(p) != views[p] or other.dealer_view() != state.dealer_view():
                    changed += 1
    if require_hidden:
        assert changed > 0, "resample_hidden never changed anything: the leak test proves nothing"
    return changed

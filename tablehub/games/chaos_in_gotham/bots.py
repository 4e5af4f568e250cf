"""Simple rule-following players, for simulations and the demo table.

A bot looks only at what its seat may know (its ``player_view`` and its legal moves).  It
wants a trick when the location's chaos points outweigh the Batman symbols it would bring
home (location and cards in the trick); then it plays the cheapest card that wins so far,
otherwise it gets rid of its highest card that loses.  Villain abilities are used by the
same measure (The Joker when he cannot win otherwise, The Penguin picks the better place,
Catwoman swaps her low cards, The Riddler hides odd cards half the time).
"""

from __future__ import annotations

import random
from typing import Any

from tablehub.games.base import Move
from tablehub.games.chaos_in_gotham.state import ChaosState
from tablehub.games.chaos_in_gotham.tricks import Play, resolve_trick

BATMAN_WEIGHT = 2  # chaos points a bot would give up to avoid one Batman symbol


def location_worth(state: ChaosState, location: str | None) -> int:
    if location is None:
        return 0
    card = state.data.locations[location]
    return card.chaos - BATMAN_WEIGHT * card.batman


def _wins(state: ChaosState, trick: list[dict[str, Any]], move: Move) -> tuple[bool, int]:
    """Would ``move`` win the trick as it stands?  Also its effective value."""
    seat = move["player"]
    plays = [Play(p["seat"], p["card"], p["swap"]) for p in trick if p["card"] is not None]
    mine = Play(seat, move["card"], bool(move.get("swap", False)))
    plays.append(mine)
    trump = state.trump_colour() or ""
    # A face-down lead hides the led colour: judge as if our card led.
    if trick and trick[0]["card"] is None:
        plays = [mine, *plays[:-1]]
    outcome = resolve_trick(state.data, plays, trump, state.minimums())
    value = outcome.values[plays.index(mine)]
    return outcome.winner == seat, value


def choose_move(state: ChaosState, rng: random.Random) -> Move:
    """A legal move for the seat to move (which must be a player, not chance)."""
    seat = state.current_player()
    moves = state.legal_moves()
    step = state.steps[0]["step"]
    if step == "catwoman":
        return _catwoman(state, seat, moves)
    if step == "penguin":
        return max(moves, key=lambda m: location_worth(state, m["card"]))
    return _play(state, seat, moves, rng)


def _catwoman(state: ChaosState, seat: int, moves: list[Move]) -> Move:
    low = [c for c in state.hands[seat] if state.data.trick_cards[c].value <= 3]
    wanted = sorted(low)[:3]
    for move in moves:
        if move["discard"] == wanted:
            return move
    return min(moves, key=lambda m: len(m["discard"]))  # hidden hands: keep the hand


def _play(state: ChaosState, seat: int, moves: list[Move], rng: random.Random) -> Move:
    # What this seat can see of the trick: others' face-down cards are unknown.
    trick: list[dict[str, Any]] = [
        p if not p["face_down"] or p["seat"] == seat else dict(p, card=None) for p in state.trick
    ]
    plays = [m for m in moves if m["kind"] == "play" and m["card"] is not None]
    if not plays:
        return moves[0]
    in_trick = [p["card"] for p in trick if p["card"] is not None]
    trick_symbols = sum(state.data.trick_cards[c].batman_symbols for c in in_trick)
    judged = []
    for move in plays:
        card = state.data.trick_cards[move["card"]]
        wins, value = _wins(state, trick, move)
        worth = location_worth(state, state.location) - BATMAN_WEIGHT * (
            trick_symbols + card.batman_symbols
        )
        judged.append((move, wins, value, worth))
    winners = [j for j in judged if j[1] and j[3] > 0]
    if winners:
        choice = min(winners, key=lambda j: (j[2], j[0]["card"]))[0]
    else:
        new_trump = [m for m in moves if m["kind"] == "new-trump"]
        if new_trump and location_worth(state, state.location) > 2 and rng.random() < 0.5:
            return new_trump[0]
        losers = [j for j in judged if not j[1]]
        pool = losers or judged
        choice = (
            max(pool, key=lambda j: (j[2], j[0]["card"]))[0]
            if losers
            else min(pool, key=lambda j: (j[2], j[0]["card"]))[0]
        )
    hidden = dict(choice, face_down=True)
    if hidden in moves and rng.random() < 0.5:
        return hidden
    return choice

"""Rule-following bots: they build their role's hand, reveal it when they can, pick
targets, accuse, second and vote — from their own player view only.

Not strong players, but honest ones: every decision reads ``player_view(seat)`` (the
public table, the bot's own role, hand and private answers) and picks one of
``legal_moves()``.  Suspicion is simple: a Telepathic thumbs up makes a player a prime
suspect, thumbs down clears them, everyone else is equally suspect; Batman and Catwoman
accuse and vote to get Villains Subdued.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tablehub.games.almost_got_im.hands import HandRequirement
from tablehub.games.almost_got_im.rules import Rules, default_rules
from tablehub.games.almost_got_im.state import AgiState
from tablehub.games.base import Move, View

USE_ABILITY = 0.35  # chance a bot uses a Character ability when it costs its hand nothing
ACCUSE_UNKNOWN = 0.5  # chance a Villain Brains accuses someone it knows nothing about
GUILTY_ERROR = 0.5  # suspicion added per Guilty vote that Subdued a non-Batman


class Bot:
    """One seat's decisions.  Stateless: everything comes from the player view."""

    def __init__(self, seat: int, rng: random.Random, rules: Rules | None = None) -> None:
        self.seat = seat
        self.rng = rng
        self.rules = rules or default_rules()

    # ------------------------------------------------------------------ entry point
    def choose(self, state: AgiState) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        view = state.player_view(self.seat)
        kinds = {m["kind"] for m in moves}
        if "draw" in kinds:
            return self._take(view, moves)
        if kinds & {"ability", "discard", "end_turn"}:
            return self._act(view, moves)
        if "ras_take" in kinds:
            return self._best_gain(view, moves)
        if "give" in kinds:
            return self._least_useful(view, moves)
        if kinds & {"activate", "pass"}:
            return self._blackout(view, moves)
        if kinds & {"accuse", "no_accusation"}:
            return self._accuse(view, moves)
        if kinds & {"second", "no_second"}:
            return self._second(view, moves)
        if "vote" in kinds:
            return self._vote(view, moves)
        if "reveal" in kinds:
            return next(m for m in moves if m["kind"] == "reveal")
        return self.rng.choice(moves)

    # ------------------------------------------------------------------ hands
    def _need(self, view: View) -> HandRequirement:
        return self.rules.roles[view["role"]].hand

    def _after_discard(self, view: View, hand: Sequence[str]) -> int:
        """Cards still needed once the least useful card of ``hand`` is discarded."""
        need = self._need(view)
        if len(hand) <= 5:
            return need.needed(hand)
        return min(need.needed([c for c in hand if c != drop]) for drop in hand)

    def _take(self, view: View, moves: list[Move]) -> Move:
        hand = view["hand"]
        best = self._after_discard(view, hand)
        choice: Move | None = None
        for move in moves:
            if move["kind"] != "take":
                continue
            top = view["discard_tops"][move["pile"]]
            after = self._after_discard(view, [*hand, top])
            if after < best:
                best, choice = after, move
        return choice or next(m for m in moves if m["kind"] == "draw")

    def _act(self, view: View, moves: list[Move]) -> Move:
        abilities = [m for m in moves if m["kind"] == "ability"]
        hand = view["hand"]
        if abilities and self.rng.random() < USE_ABILITY:
            now = self._after_discard(view, hand)
            cheap = [
                m
                for m in abilities
                if self._after_discard(view, [c for c in hand if c != m["card"]]) <= now
            ]
            if cheap:
                return self._aim(view, self.rng.choice(cheap), cheap)
        discards = [m for m in moves if m["kind"] == "discard"]
        if discards:
            return self._least_useful(view, discards)
        return next(m for m in moves if m["kind"] == "end_turn")

    def _aim(self, view: View, move: Move, options: list[Move]) -> Move:
        """Scarecrow: deny the prime suspect (a Villain) or a random player."""
        if "target" not in move:
            return move
        same = [m for m in options if m["character"] == move["character"]]
        suspect = self._suspect(view, [m["target"] for m in same])
        return next((m for m in same if m["target"] == suspect), move)

    def _least_useful(self, view: View, moves: list[Move]) -> Move:
        """The discard/give that leaves the hand closest to its target (ties: random)."""
        hand = view["hand"]
        need = self._need(view)
        scored: dict[str, int] = {}
        for card in {m["card"] for m in moves}:
            scored[card] = need.needed([c for c in hand if c != card])
        low = min(scored.values())
        best = [m for m in moves if scored[m["card"]] == low]
        return self.rng.choice(best)

    def _best_gain(self, view: View, moves: list[Move]) -> Move:
        hand = view["hand"]
        scored = [(self._after_discard(view, [*hand, m["card"]]), i) for i, m in enumerate(moves)]
        low = min(score for score, _i in scored)
        return moves[self.rng.choice([i for score, i in scored if score == low])]

    # ------------------------------------------------------------------ suspicion
    def _suspicion(self, view: View) -> dict[int, float]:
        """How likely each other seat is Batman, as far as this bot knows."""
        if view["role"] in ("batman", "catwoman"):
            return {s: 1.0 for s in range(view["players"]) if s != self.seat}
        score = {s: 1.0 for s in range(view["players"]) if s != self.seat}
        for vote in view["votes"]:
            if vote["guilty"]:  # the accused was not Batman: the Guilty voters erred
                for seat, guilty in vote["votes"]:
                    if guilty and seat in score:
                        score[seat] += GUILTY_ERROR
        for event in view["private"]:
            if event["kind"] == "telepathy":
                score[event["target"]] = 3.0 if event["thumbs_up"] else 0.0
        return score

    def _suspect(self, view: View, candidates: list[int]) -> int:
        score = self._suspicion(view)
        top = max(score.get(c, 0.0) for c in candidates)
        return self.rng.choice([c for c in candidates if score.get(c, 0.0) == top])

    # ------------------------------------------------------------------ Blackout
    def _blackout(self, view: View, moves: list[Move]) -> Move:
        acts = [m for m in moves if m["kind"] == "activate"]
        if not acts:
            return moves[0]
        role = view["role"]
        targets = [m["target"] for m in acts if "target" in m]
        if not targets:
            return acts[0]
        if role in ("homicidal", "saboteur"):
            pick = self._suspect(view, targets)
            if self._suspicion(view).get(pick, 0.0) < 1.0:
                return next(m for m in moves if m["kind"] == "pass")
        elif role == "telepathic":
            probed = {e["target"] for e in view["private"] if e["kind"] == "telepathy"}
            fresh = [t for t in targets if t not in probed]
            if not fresh:
                return next(m for m in moves if m["kind"] == "pass")
            pick = self.rng.choice(fresh)
        elif role == "watchful":
            cleared = [t for t in targets if self._suspicion(view).get(t, 1.0) == 0.0]
            pick = self.rng.choice(cleared or targets)
        else:  # batman, healer
            pick = self.rng.choice(targets)
        return next(m for m in acts if m.get("target") == pick)

    # ------------------------------------------------------------------ the Vote
    def _accuse(self, view: View, moves: list[Move]) -> Move:
        accusations = [m for m in moves if m["kind"] == "accuse"]
        decline = next(m for m in moves if m["kind"] == "no_accusation")
        if not accusations:
            return decline
        targets = [m["target"] for m in accusations]
        if view["role"] in ("batman", "catwoman"):
            return self.rng.choice(accusations)
        pick = self._suspect(view, targets)
        level = self._suspicion(view)[pick]
        if level == 0.0 or (level <= 1.0 and self.rng.random() > ACCUSE_UNKNOWN):
            return decline
        return next(m for m in accusations if m["target"] == pick)

    def _second(self, view: View, moves: list[Move]) -> Move:
        yes = next(m for m in moves if m["kind"] == "second")
        no = next(m for m in moves if m["kind"] == "no_second")
        return yes if self._guilty(view) else no

    def _vote(self, view: View, moves: list[Move]) -> Move:
        guilty = self._guilty(view)
        return next(m for m in moves if m["guilty"] is guilty)

    def _guilty(self, view: View) -> bool:
        """Batman wants Villains Subdued; a Villain says Guilty as often as the accused is
        likely to be Batman (1 in the uncleared others, or sure after a thumbs up)."""
        accused = (view["accusation"] or {}).get("accused")
        if view["role"] == "batman":
            return True
        if accused is None:
            return False
        score = self._suspicion(view)
        level = score.get(accused, 1.0)
        if view["role"] == "catwoman":
            return self.rng.random() < 0.5
        if level != 1.0:
            return level > 1.0
        uncleared = sum(1 for s in score.values() if s > 0.0)
        return self.rng.random() < 1.0 / max(1, uncleared)


def play_game(players: int, rng: random.Random, options: dict[str, Any] | None = None) -> AgiState:
    """One whole game between bots; chance moves are uniform draws."""
    state = AgiState(players, options)
    bots = [Bot(seat, rng, state.rules) for seat in range(players)]
    while not state.is_terminal():
        actor = state.current_player()
        if actor < 0:
            state.apply(rng.choice(state.legal_moves()))
        else:
            state.apply(bots[actor].choose(state))
    return state

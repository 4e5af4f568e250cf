"""Rule-following Get Adler! players for the simulator and the demo table.

A bot sees only what its seat may know: its player view, the legal moves offered to it,
and the events addressed to everyone or to it.  Heroes keep a suspicion score per seat
(what a magnifier showed, what was discarded, who was cleared by an unjust arrest) and
arrest the prime suspect from four o'clock; villains hoard reactions and documents, bluff
a document now and then, and react disguise > bomb > escape/pistol.  Questions are table
talk the engine does not model, so bots only discard question cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tablehub.games.base import PUBLIC, Event, Move, View
from tablehub.games.get_adler.data import load

# What a hero throws away first (bombs and disguises are useless to heroes and say "hero"),
# and what a villain throws away first (arrests are useless to him).
HERO_DISCARD = (
    "bomb",
    "disguise",
    "question",
    "document",
    "binoculars",
    "magnifier",
    "arrest",
    "escape",
    "pistol",
)
VILLAIN_DISCARD = (
    "arrest",
    "question",
    "magnifier",
    "binoculars",
    "escape",
    "pistol",
    "document",
    "bomb",
    "disguise",
)
REACTION_ORDER = ("disguise", "bomb", "escape", "pistol")


class AdlerBot:
    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.kinds = {card.id: card.kind for card in load().cards}
        self.variants = {card.id: card.variant for card in load().cards}
        self.suspicion: dict[int, float] = {}
        self.cleared: set[int] = set()
        self.inspected: set[int] = set()

    # --- learning ------------------------------------------------------------------------------
    def observe(self, events: Sequence[Event]) -> None:
        for event in events:
            audience = event["audience"]
            if audience != PUBLIC and audience != self.seat:
                continue
            self._learn(event)

    def _bump(self, seat: int, amount: float) -> None:
        if seat != self.seat:
            self.suspicion[seat] = self.suspicion.get(seat, 0.0) + amount

    def _learn(self, event: Event) -> None:
        kind = event["kind"]
        if kind == "hand-seen":
            self.inspected.add(event["seat"])
            cards = [self.kinds.get(c, "") for c in event["cards"]]
            score = 2.0 * (cards.count("bomb") + cards.count("disguise"))
            score += 0.6 * cards.count("document") - 0.4 * cards.count("arrest")
            self._bump(event["seat"], score - 0.5)
        elif kind == "discard" and event["card_kind"] in ("bomb", "disguise", "document"):
            self._bump(event["seat"], -1.2 if event["card_kind"] != "document" else -0.8)
        elif kind == "unjust-arrest":
            self.cleared.add(event["target"])
            self._bump(event["seat"], -0.3)

    # --- choosing ------------------------------------------------------------------------------
    def choose(self, view: View, legal: list[Move]) -> Move:
        phase = view["phase"]
        chooser = getattr(self, "_" + phase.replace("-", "_"), None)
        move = chooser(view, legal) if chooser else None
        return move if move is not None else legal[0]

    def _villain(self, view: View) -> bool:
        return bool(view["character"] in ("adler", "collins"))

    def _kind(self, move: Move) -> str:
        return self.kinds.get(move.get("card", ""), "")

    def _worst(self, view: View, moves: list[Move]) -> Move | None:
        order = VILLAIN_DISCARD if self._villain(view) else HERO_DISCARD
        if not moves:
            return None
        mission = view["mission"]
        useful = [c for c in view["hand"] if self._useful_document(c, mission)]

        def rank(move: Move) -> tuple[int, float]:
            kind = self._kind(move)
            position = order.index(kind) if kind in order else len(order)
            if self._villain(view) and kind == "document":
                if not self._useful_document(move["card"], mission):
                    position = 1  # not the mission's branch: worthless but for a bluff
                elif len(useful) >= 2 and self.rng.random() < 0.3:
                    position = 1  # a bluff: heroes discard documents too
            return position, self.rng.random()

        return min(moves, key=rank)

    def _useful_document(self, card: str, mission: str | None) -> bool:
        if self.kinds.get(card) != "document":
            return False
        return mission is None or self.variants.get(card) == mission

    def _play(self, view: View, legal: list[Move]) -> Move | None:
        plays = [m for m in legal if m["kind"] == "play"]
        by_kind: dict[str, list[Move]] = {}
        for move in plays:
            by_kind.setdefault(self._kind(move), []).append(move)
        passes = [m for m in legal if m["kind"] == "pass-card"]
        if passes:
            helpful = [
                m for m in passes if self._kind(m) in ("pistol", "escape", "disguise", "bomb")
            ]
            if helpful:
                return helpful[0]
        turn = self._villain_turn if self._villain(view) else self._hero_turn
        chosen = turn(view, by_kind)
        if chosen is not None:
            return chosen
        return self._worst(view, [m for m in legal if m["kind"] == "discard"])

    def _hero_turn(self, view: View, by_kind: dict[str, list[Move]]) -> Move | None:
        arrests = by_kind.get("arrest", [])
        if arrests:
            target = self._suspect(view)
            if view["revealed"] or (target is not None and self._sure_enough(view, target)):
                chosen = [m for m in arrests if m["target"] == target]
                if chosen:
                    return chosen[0]
                if view["revealed"]:
                    return arrests[0]
        if not view["revealed"]:
            for move in by_kind.get("magnifier", []):
                if move["target"] not in self.inspected | self.cleared:
                    return move
        elif by_kind.get("binoculars"):
            villains = [s for s, c in enumerate(view["characters"]) if c in ("adler", "collins")]
            for move in by_kind["binoculars"]:
                if move["target"] in villains:
                    return move
        return None

    def _villain_turn(self, view: View, by_kind: dict[str, list[Move]]) -> Move | None:
        for move in by_kind.get("binoculars", []):
            character = view["characters"][move["target"]]
            if character not in ("adler", "collins"):
                return move
        return None

    def _suspect(self, view: View) -> int | None:
        if view["revealed"]:
            villains = [s for s, c in enumerate(view["characters"]) if c in ("adler", "collins")]
            villains = [s for s in villains if view["out"][s] is None]
            return villains[0] if villains else None
        candidates = [
            s
            for s in range(view["players"])
            if s != self.seat and s not in self.cleared and view["out"][s] is None
        ]
        if not candidates:
            return None
        return max(candidates, key=lambda s: (self.suspicion.get(s, 0.0), -s))

    def _sure_enough(self, view: View, target: int) -> bool:
        score = self.suspicion.get(target, 0.0)
        late = view["hour"] >= 6
        return score >= 1.5 or (late and score >= 0.0) or view["hour"] >= 7

    def _give(self, view: View, legal: list[Move]) -> Move | None:
        return self._worst(view, legal)

    def _collins_return(self, view: View, legal: list[Move]) -> Move | None:
        return self._worst(view, legal)

    def _answer_arrest(self, view: View, legal: list[Move]) -> Move | None:
        honest = [m for m in legal if m["right"] == self._villain(view)]
        return honest[0] if honest else None

    def _react(self, view: View, legal: list[Move]) -> Move | None:
        reactions = [m for m in legal if m["kind"] == "react"]
        pistols = sum(1 for m in reactions if self._kind(m) == "pistol")
        order = list(REACTION_ORDER)
        if pistols >= 3:
            order.remove("pistol")
            order.insert(2, "pistol")
        for kind in order:
            for move in reactions:
                if self._kind(move) == kind:
                    return move
        return None

    def _escape_answer(self, view: View, legal: list[Move]) -> Move | None:
        escapes = [m for m in legal if m["kind"] == "escape"]
        return escapes[0] if escapes else None

    def _gunfight(self, view: View, legal: list[Move]) -> Move | None:
        shots = [m for m in legal if m["kind"] == "shoot"]
        return shots[0] if shots else None

    def _loot(self, view: View, legal: list[Move]) -> Move | None:
        return max(legal, key=lambda m: int(m["count"]))

    def _show_documents(self, view: View, legal: list[Move]) -> Move | None:
        return max(legal, key=lambda m: len(m["cards"]))


def describe(bot: AdlerBot) -> dict[str, Any]:
    """What a bot believes (for debugging and the demo transcript)."""
    return {"seat": bot.seat, "suspicion": dict(bot.suspicion), "cleared": sorted(bot.cleared)}

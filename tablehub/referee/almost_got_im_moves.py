"""What the camera sees during the turns, as Almost Got 'Im engine moves.

The hub sees no hand, so its engine runs in partial information (see the engine's
``state`` module): every card drawn face down is ``"unknown"``, dealt by the referee itself
(``settle``).  Turns go from the Brains clockwise, so a card event belongs to the player
whose turn it is; what it means follows from the turn's stage:

* a card leaving the top of a discard pile before the player has taken one: ``take``;
* a card appearing on a discard pile: a ``discard`` — preceded by an inferred ``draw`` when
  the player had not taken a card yet (deck draws are face down: the camera cannot see
  them, the discard proves one happened); after a declared Character ability (the knob
  pressed on the player's turn) it is that ability's trigger card instead;
* a player whose hand is back at five with nothing left to do has ended the turn: a pile
  event then belongs to the next player (``end_turn`` first);
* the card under a taken one, now on top, is a known card coming back into view (nothing),
  unless the engine did not know it (after Ra's al Ghul): then it is the pile's top.

Zones (the card-vision layout): ``discard-1..3`` (the engine's piles 0..2), ``reveal``,
``seat-N`` (the physical seat N's area, 0-based).  Card ids from the camera pass through the
engine's ``from_vision_id``.  Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablehub.games.almost_got_im.cards import (
    RANK_OF,
    UNKNOWN,
    character_from_card_id,
    from_vision_id,
    is_card,
)
from tablehub.games.almost_got_im.state import AgiState
from tablehub.games.base import CHANCE, Event, IllegalMove, Move
from tablehub.observations import CardEvent

REVEAL = "reveal"
# Engine pending chance that the referee supplies itself (cards nobody sees).
UNSEEN_CHANCE = ("hand", "buffer")


def pile_of(zone: str) -> int | None:
    """``"discard-2"`` -> 1."""
    head, _, number = zone.partition("-")
    if head == "discard" and number in ("1", "2", "3"):
        return int(number) - 1
    return None


def seat_of(zone: str) -> int | None:
    """``"seat-3"`` -> 3 (the physical seat)."""
    head, _, number = zone.partition("-")
    return int(number) if head == "seat" and number.isdigit() else None


def engine_card(event: CardEvent) -> str | None:
    """The engine's id of a face-up card event, or None (face down, unreadable)."""
    if not event.face_up or event.card_id is None:
        return None
    return from_vision_id(event.card_id)


def poker_card(card_id: str | None) -> str | None:
    card = from_vision_id(card_id) if card_id else None
    return card if card is not None and is_card(card) else None


def character_card(card_id: str | None) -> str | None:
    return character_from_card_id(card_id) if card_id else None


def split(event: CardEvent) -> list[tuple[str, str]]:
    """An event as (change, zone) steps: "appeared"/"removed"; a move is both."""
    if event.change == "moved":
        steps = [("removed", event.previous_zone)] if event.previous_zone else []
        return [*steps, ("appeared", event.zone)]
    if event.change == "flipped":
        return [("appeared" if event.face_up else "removed", event.zone)]
    return [(event.change, event.zone)]


# --- driving the engine ------------------------------------------------------------------


def settle(engine: AgiState) -> tuple[list[Move], list[Event]]:
    """Deal every card nobody sees (``"unknown"``) and the roles looked at unseen, until a
    player's move or an observation is needed."""
    moves: list[Move] = []
    events: list[Event] = []
    while engine.current_player() == CHANCE and engine.pending:
        where = engine.pending[0][0]
        if where in UNSEEN_CHANCE:
            move: Move = {"kind": "deal", "player": CHANCE, "card": UNKNOWN}
        elif where == "peek":
            move = {"kind": "peek_unused", "player": CHANCE, "role": UNKNOWN}
        else:  # "top" or "gain": the camera must show it
            break
        moves.append(move)
        events += engine.apply(move)
    return moves, events


def run(engine: AgiState, moves: list[Move]) -> list[Event]:
    """Apply ``moves`` (settling unseen chance after each); ``IllegalMove`` on the first
    that does not fit (the engine is then left part-way: use ``trial`` first)."""
    events: list[Event] = []
    for move in moves:
        events += engine.apply(move)
        events += settle(engine)[1]
    return events


def trial(engine: AgiState, moves: list[Move]) -> str | None:
    """Why ``moves`` cannot be played now (None if they can), on a copy."""
    copy = engine.clone()
    for move in moves:
        reason = copy.check(move)
        if reason is not None:
            return reason
        try:
            run(copy, [move])
        except IllegalMove as err:  # pragma: no cover - check said yes
            return str(err)
    return None


# --- card events in the turn phase ---------------------------------------------------------


@dataclass
class Reading:
    """What a card event means: ``moves`` to play, or ``reason`` it fits nothing (for the
    journal), or neither (it means nothing: a card coming back into view).  ``ability``:
    an ability move still waiting for its target (The Scarecrow)."""

    moves: list[Move] = field(default_factory=list)
    reason: str | None = None
    ability: Move | None = None


def ability_move(engine: AgiState, card: str, pile: int) -> Move | None:
    """The ability the active player uses by discarding ``card`` (None if none fits)."""
    seat = engine.turn
    for key in engine.usable_powers(seat):
        character = engine.rules.characters[key]
        if RANK_OF[card] == 0 or RANK_OF[card] in character.trigger:
            return {"kind": "ability", "player": seat, "character": key, "card": card, "pile": pile}
    return None


def _turn_over(engine: AgiState) -> bool:
    """The active player has nothing left to do (hand at five or fewer, no ability now)."""
    return (
        engine.phase == "turn"
        and engine.stage == "act"
        and len(engine.hands[engine.turn]) <= engine.rules.hand_size
    )


def read_pile_event(engine: AgiState, change: str, pile: int, card: str, declared: bool) -> Reading:
    """The meaning of ``card`` appearing on / leaving discard pile ``pile`` in the turns."""
    if engine.pending and engine.pending[0] == ["top", pile]:
        if change == "appeared":
            return Reading([{"kind": "deal", "player": CHANCE, "card": card}])
        return Reading()
    copy = engine.clone()
    moves: list[Move] = []
    for _ in range(2):  # this player's action, or the next player's once this turn is over
        if copy.phase != "turn" or copy.stage not in ("take", "act", "adjust"):
            return Reading(reason=f"a card on discard pile {pile + 1} fits no move now")
        seat = copy.turn
        top = copy.piles[pile][-1] if copy.piles[pile] else None
        if change == "removed":
            if card != top:
                return Reading()  # not the top: covered, or a re-read
            if copy.stage == "take":
                return Reading([*moves, {"kind": "take", "player": seat, "pile": pile}])
            if _turn_over(copy) and not declared:
                moves.append(_end_turn(copy))
                continue
            return Reading(reason=f"{copy.name(seat)} takes only one card per turn")
        if card == top:
            return Reading()  # the top card seen again
        step: list[Move] = []
        if copy.stage == "take":
            step.append({"kind": "draw", "player": seat})  # inferred: deck draws are unseen
        if declared:
            probe = copy.clone()
            run(probe, step)
            ability = ability_move(probe, card, pile)
            if ability is None:
                return Reading(reason=f"{card} triggers no ability of {copy.name(seat)}")
            effect = copy.rules.characters[ability["character"]].effect
            if effect == "deny_role":
                return Reading([*moves, *step], ability=ability)
            return Reading([*moves, *step, ability])
        if step or len(copy.hands[seat]) > copy.rules.hand_size:
            return Reading([*moves, *step, {"kind": "discard", "player": seat, "card": card,
                                            "pile": pile}])  # fmt: skip
        if _turn_over(copy):
            moves.append(_end_turn(copy))
            declared = False
            continue
        return Reading(reason=f"{copy.name(seat)} has no card to discard now")
    return Reading(reason="two turns in one card event")


def _end_turn(engine: AgiState) -> Move:
    move: Move = {"kind": "end_turn", "player": engine.turn}
    run(engine, [move])
    return move

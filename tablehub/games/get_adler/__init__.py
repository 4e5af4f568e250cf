"""Get Adler!: the rules engine (rulebook: ../shared/rules/get-adler.txt).

Four to six secret agents, one of them the traitor Adler (with 5+ players also his
accomplice Kate Collins), play seven rounds ("hours").  Every number and every reading of
the rulebook that is not printed in it lives in ``data.toml`` with its default and why.

Moves (JSON dicts, ``player`` is the seat; chance moves have ``player`` -1)
---------------------------------------------------------------------------
Setup, by chance: ``character`` (one per seat), ``mission`` (the Ultimate Mission's
document, expert rules only), ``draw`` (seven cards each), ``start-player``.
A turn: a chance ``draw`` for the player, then ``discard`` (any card, no effect) or ``play``
(question, magnifier, binoculars, arrest; with a ``target`` seat; question and magnifier
may omit it when the hub did not see whom).  Binoculars: chance ``draw`` from the target,
then ``give`` back.  Collins (once revealed) may first ``pass-card`` to Adler, who answers
with ``pass-card``.
An arrest before the reveal: the accused ``answer-arrest`` (``right`` true/false).
Confrontations: the villain ``react``s (escape, disguise, bomb, pistol) or gives
``no-reaction``; after an escape each hero in seat order from the hero in the confrontation
answers ``escape`` or ``pass``; in a gunfight the side to shoot ``shoot``s or ``hold``s;
after a death the survivor says how many cards to ``loot`` from the dead hand; then chance
``draw``s refill everyone involved to seven.

Out-of-turn answers keep the one-current-player shape: ``current_player()`` is always the
single seat whose answer is awaited (the accused, the villain, the hero being asked, the
shooter), so a referee asks one player at a time and the panel says who answers.

What the hub cannot see (partial information)
---------------------------------------------
The same engine serves a simulator, which knows everything, and the hub at a real table,
which sees only cards laid face up (plays, reactions, the discard pile) and characters
once they are turned over.  Every chance move accepts ``"unknown"`` as well as a card id or
character: a card drawn face down is ``{"kind": "draw", "player": -1, "card": "unknown"}``.
The ``CardBook`` keeps each hand as known cards plus a count of unknown ones and a pool of
every card whose place is unknown (deck, unknown hand slots, unseen part of the discard
pile).  A card later laid face up from a hand with unknown slots is accepted if it is still
unseen anywhere, and then leaves the pool; a card already on the discard pile is refused
("a duplicate card").  Hidden characters are ``None``: an arrest is then judged by the
accused's ``answer-arrest`` (the simulator allows only the true answer), a right arrest asks
for each character card as it is turned over (chance ``reveal``), and at seven o'clock the
characters are revealed the same way and each villain with unseen cards shows their
top-secret documents (``show-documents``).  With full knowledge these steps are skipped or
forced.  Views: the public view holds only what the table saw (hand sizes, the discard
pile, revealed characters, the confrontation); a player's view adds their own hand and
character; nothing anyone learnt privately (a magnifier, binoculars) stays in a view -- it
is told once by an event addressed to that seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablehub.games.base import JSON, Game, GameInfo
from tablehub.games.get_adler.state import INFO, UNKNOWN, AdlerState, hour_words


class GetAdler(Game):
    info = INFO

    def new_initial_state(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> AdlerState:
        return AdlerState(players, options)

    def state_from_json(self, data: JSON) -> AdlerState:
        return AdlerState.from_json(data)


GAME = GetAdler()

__all__ = ["GAME", "INFO", "UNKNOWN", "AdlerState", "GameInfo", "GetAdler", "hour_words"]

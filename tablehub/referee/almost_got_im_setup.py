"""Set-up at the hub: the Characters read in the seat areas, the eyes-closed roles check,
the engine's set-up (roles, Batman's unseen look, Characters, the first Brains).

The Secret Roles are learnt one per slot of the roles check, each answered on the private
light of the awake player only; the unused roles never come near the camera.  A card not
read is checked again for that player; roles that do not add up are dealt again.
"""

from __future__ import annotations

import random

from tablehub.games.almost_got_im import GAME
from tablehub.games.almost_got_im.cards import UNKNOWN, role_from_card_id
from tablehub.games.almost_got_im.rules import default_rules
from tablehub.games.base import CHANCE, Move
from tablehub.observations import CardEvent
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.almost_got_im_blackout import (
    roles_plan,
)
from tablehub.referee.almost_got_im_core import AgiCore
from tablehub.referee.almost_got_im_moves import (
    REVEAL,
    character_card,
    run,
    seat_of,
    trial,
)
from tablehub.referee.base import (
    Output,
    PrivateLight,
    Record,
    Say,
)


class SetupSteps(AgiCore):
    def _decide_setup(self, event: CardEvent, change: str, zone: str) -> list[Record]:
        """Character cards in the seat areas; a Secret Role card at the reveal spot."""
        if self.phase == "characters":
            seat = seat_of(zone)
            character = character_card(event.card_id) if event.face_up else None
            if seat is None or seat >= len(self.setup.seats) or character is None:
                return []
            if character not in default_rules().characters:
                return []
            return [{"kind": "character", "seat": seat,
                     "character": character if change == "appeared" else None}]  # fmt: skip
        if zone != REVEAL or self.slot is None or change != "appeared":
            return []
        role = role_from_card_id(event.card_id or "") if event.face_up else None
        if role is None:
            return []
        return [{"kind": "role_seen", "player": self.slot["player"], "role": role}]

    def _on_begin(self, record: Record) -> list[Output]:
        self.phase = "characters"
        return [Say(words.WELCOME), *self._wait("characters")]

    def _on_character(self, record: Record) -> list[Output]:
        seat, character = int(record["seat"]), record["character"]
        self.seen_chars = {s: c for s, c in self.seen_chars.items() if c != character}
        if character is None:
            self.seen_chars.pop(seat, None)
        else:
            self.seen_chars[seat] = str(character)
        return []

    def _on_role_seen(self, record: Record) -> list[Output]:
        player, role = int(record["player"]), str(record["role"])
        self.roles_seen[player] = role
        colour = "magenta" if role == "batman" else "white"
        return [PrivateLight(colour, self.timing.slot, self.seat(player))]

    def _characters_done(self) -> list[Output]:
        chars = self.seen_chars
        if not 4 <= len(chars) <= 7:
            return [Say(words.CHARACTERS_WRONG.format(count=len(chars))), *self._wait("characters")]
        self.places = sorted(chars)
        self.engine = GAME.new_initial_state(len(self.places), self.engine_options)
        rules = self.engine.rules
        names = [rules.characters[chars[s]].name for s in self.places]
        self.phase = "deal_roles"
        players = words.PLAYERS.format(count=len(names), names=words.listing(names))
        return [Say(players), Say(words.deal_roles(len(names))), *self._wait("roles")]

    def _start_roles_check(self, only: list[int] | None = None) -> list[Output]:
        e = self.e
        rules = e.rules
        chars = [self.seen_chars[s] for s in self.places]
        players = only if only is not None else list(range(e.n))
        if only is None:
            self.roles_seen = {}
        self.attempt += 1
        plan = roles_plan([(p, rules.characters[chars[p]].name) for p in players], self.attempt)
        before: list[Output] = [Say(words.ROLES_CHECK)] if only is None else []
        return self._start_night(plan, before, "roles_check")

    def _roles_done(self) -> list[Output]:
        e = self.e
        missing = [p for p in range(e.n) if p not in self.roles_seen]
        if missing:
            chars = [
                default_rules().characters[self.seen_chars[self.places[p]]].name for p in missing
            ]
            said = Say(words.ROLES_UNREAD.format(names=words.listing(chars)))
            return [said, *self._start_roles_check(missing)]
        roles = [self.roles_seen[p] for p in range(e.n)]
        moves = self._setup_moves(roles)
        if moves is None:
            self.phase = "deal_roles"
            self.roles_seen = {}
            return [Say(words.ROLES_WRONG), *self._wait("roles")]
        run(e, moves)
        self.phase = "dealing"
        brains = self.name(e.brains)
        return [Say(words.BRAINS_FIRST.format(name=brains)), *self._wait("dealt")]

    def _setup_moves(self, roles: list[str]) -> list[Move] | None:
        """The engine's set-up for these roles, or None if they do not add up."""
        e = self.e
        if roles.count("batman") != 1:
            return None
        moves: list[Move] = [
            {"kind": "batman_seat", "player": CHANCE, "seat": roles.index("batman")}
        ]
        for p, role in enumerate(roles):
            if role != "batman":
                moves.append({"kind": "deal_role", "player": CHANCE, "seat": p, "role": role})
        moves.append({"kind": "peek_unused", "player": CHANCE, "role": UNKNOWN})
        for p in range(e.n):
            character = self.seen_chars[self.places[p]]
            moves.append({"kind": "deal_character", "player": CHANCE, "seat": p,
                          "character": character})  # fmt: skip
        first = random.Random(f"{self.setup.seed}:brains").randrange(e.n)
        moves.append({"kind": "first_brains", "player": CHANCE, "seat": first})
        return None if trial(e, moves) is not None else moves

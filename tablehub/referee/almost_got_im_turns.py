"""Turns at the hub: card events on the discard piles (``almost_got_im_moves``), and the
Character abilities — declared with the knob on one's turn, the trigger card seen on a
pile, then what the ability needs: a target with the knob (The Scarecrow), a Character card
in the seat area (Clayface), Jokers laid in front of their owners (The Joker), "next" once
done (Ra's al Ghul, Harley Quinn, or a turn that ends at five cards).
"""

from __future__ import annotations

from typing import Any

from tablehub.games.almost_got_im.cards import UNKNOWN, is_joker
from tablehub.games.almost_got_im.turns import pile_list, ras_piles
from tablehub.games.base import CHANCE, Move
from tablehub.observations import CardEvent
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.almost_got_im_core import AgiCore
from tablehub.referee.almost_got_im_moves import (
    REVEAL,
    character_card,
    pile_of,
    poker_card,
    read_pile_event,
    seat_of,
    trial,
)
from tablehub.referee.base import (
    ChooseSeat,
    Output,
    Record,
    RecordError,
    Reread,
    Say,
    SeatLights,
)


class TurnSteps(AgiCore):
    def _decide_declared(self) -> list[Record]:
        if self.phase != "play" or self.engine is None or self.declared:
            return []
        e = self.engine
        if e.phase != "turn" or e.stage not in ("take", "act") or e.pending:
            return []
        if not e.usable_powers(e.turn):
            return []
        return [{"kind": "declared", "player": e.turn}]

    def _decide_play(self, event: CardEvent, change: str, zone: str) -> list[Record]:
        e = self.e
        if zone == REVEAL:
            if e.phase == "verdict":
                return self._reveal_record(event, change)
            return []
        seat = seat_of(zone)
        if seat is not None:
            return self._seat_card(event, change, seat)
        pile = pile_of(zone)
        card = poker_card(event.card_id) if event.face_up else None
        if pile is None or card is None or e.phase != "turn" or self.ability is not None:
            return []
        if e.stage == "ras":  # Ra's al Ghul picks piles up and puts them back
            back = card if change == "appeared" else None
            return [{"kind": "lifted", "pile": pile, "back": back}]
        if e.stage not in ("take", "act", "adjust") and not (
            e.pending and e.pending[0][0] == "top"
        ):
            return []
        reading = read_pile_event(e, change, pile, card, self.declared)
        if reading.reason is not None:
            return self.reject(event, reading.reason, words.CARD_NOT_PLACED, "pile", zone=zone)
        if reading.ability is not None:
            problem = trial(e, reading.moves)
            if problem is not None:
                return self.reject(event, problem, words.CARD_NOT_PLACED, "pile", zone=zone)
            return [{"kind": "ability_card", "moves": reading.moves, "ability": reading.ability}]
        if not reading.moves:
            return []
        return self._moves(event, reading.moves, zone)

    def _seat_card(self, event: CardEvent, change: str, seat: int) -> list[Record]:
        e = self.e
        player = self.player_at(seat)
        if player is None or change != "appeared" or not event.face_up:
            return []
        character = character_card(event.card_id)
        if e.pending and e.pending[0] == ["gain", e.turn] and character is not None:
            if player != e.turn:
                return []
            move: Move = {"kind": "gain_character", "player": CHANCE, "character": character}
            return self._moves(event, [move], f"seat-{seat + 1}")
        card = poker_card(event.card_id)
        shown = self.jokers.get(player, [])
        if e.stage == "jokers" and card is not None and is_joker(card) and player in e.queue:
            return [] if card in shown else [{"kind": "joker", "player": player, "card": card}]
        return []

    def _turn_prompt(self, previous: list[Any]) -> list[Output]:
        e = self.e
        outputs: list[Output] = []
        new_turn = previous[:3] != ["turn", e.round, e.turn_no]
        if new_turn:
            self.declared = False
            self.ability = None
            if e.turn_no == 0:
                if e.round > 1:
                    outputs.append(Say(words.PASS_BRAINS.format(name=self.name(e.brains))))
                outputs.append(Say(words.ROUND.format(round=e.round, name=self.name(e.brains))))
            outputs.append(SeatLights((self.seat(e.turn),)))
        if e.stage == "jokers":
            self.jokers = {}
            outputs += [Say(words.SHOW_JOKERS), *self._wait("jokers")]
        elif e.stage == "ras":
            self.lifted, self.ras_between = [], []
            outputs += [Say(words.RAS.format(name=self.name(e.turn))), *self._wait("ras")]
        elif e.stage == "harley_in":
            outputs += [Say(words.HARLEY.format(name=self.name(e.turn))), *self._wait("harley")]
        return outputs

    def _target(self) -> ChooseSeat:
        e = self.e
        others = [p for p in range(e.n) if p != e.turn]
        return self._choose("target", others, self.times["choose_seconds"])

    def _on_declared(self, record: Record) -> list[Output]:
        self.declared = True
        return [Say(words.ABILITY.format(name=self.name(int(record["player"]))))]

    def _on_ability_card(self, record: Record) -> list[Output]:
        outputs = self._play(list(record["moves"]))
        self.ability = dict(record["ability"])
        self.declared = False
        return [*outputs, Say(words.ABILITY_TARGET.format(name=self.name(self.e.turn))),
                self._target()]  # fmt: skip

    def _on_joker(self, record: Record) -> list[Output]:
        self.jokers.setdefault(int(record["player"]), []).append(str(record["card"]))
        return []

    def _on_lifted(self, record: Record) -> list[Output]:
        pile, back = int(record["pile"]), record["back"]
        if back is None:
            self.lifted.append([pile, None])
        elif self.lifted and self.lifted[-1][0] == pile:
            self.lifted[-1][1] = str(back)
        return []

    def _on_reask(self, record: Record) -> list[Output]:
        if self.ability is None:
            return []
        return [Say(words.ABILITY_TARGET.format(name=self.name(self.e.turn))), self._target()]

    def _ras_done(self) -> list[Output]:
        """Ra's al Ghul is done.  The camera sees which piles he lifted and what came back on
        top, not which pile a card left from under: a pile whose top did not come back gave
        its top; else the card came from under one of the piles he lifted, and the engine
        keeps those with a card under the top.  If that leaves more than one, he is asked to
        lift the pile he took from once more (the camera sees it) and press next."""
        e = self.e
        lifted = list(dict.fromkeys(int(pile) for pile, _ in self.lifted))
        if self.ras_between:  # asked which: the piles lifted again, among those
            lifted = [p for p in lifted if p in self.ras_between] or list(self.ras_between)
        if not lifted:
            return [Say(words.RAS.format(name=self.name(e.turn))), *self._wait("ras")]
        gone = [int(p) for p, back in self.lifted if e.piles[int(p)] and back != e.piles[p][-1]]
        move: Move
        if gone and not self.ras_between:  # the top he lifted did not come back
            pile = gone[-1]
            move = {"kind": "ras_take", "player": e.turn, "pile": pile, "card": e.piles[pile][-1]}
        else:
            move = {"kind": "ras_take", "player": e.turn, "piles": lifted, "card": UNKNOWN}
        fits = ras_piles(e, move)
        if isinstance(fits, list) and len(fits) > 1:
            self.ras_between, self.lifted = fits, []
            which = words.RAS_WHICH.format(name=self.name(e.turn), piles=pile_list(fits))
            return [Say(which), *self._wait("ras")]
        self.ras_between = []
        outputs = self._play([move], public_on_fail=words.CARD_NOT_PLACED)
        piles = fits if isinstance(fits, list) else lifted
        # a card left from under a pile: what the camera remembers there is out of date
        return [
            *outputs,
            *(Reread("camera", f"discard-{p + 1}", "Ra's al Ghul took a card") for p in piles),
        ]

    def _harley_done(self) -> list[Output]:
        e = self.e
        others = e.clockwise(e.turn)[1:]
        moves: list[Move] = [{"kind": "give", "player": p, "card": UNKNOWN} for p in others]
        moves += [{"kind": "give", "player": e.turn, "to": p, "card": UNKNOWN} for p in others]
        return self._play(moves, public_on_fail=words.CARD_NOT_PLACED)

    def _turn_next(self, what: str) -> list[Output] | None:
        """ "next" for a turn's request; None if it is not one."""
        e = self.e
        if what == "jokers":
            shows = [
                {"kind": "reveal_jokers", "player": p, "cards": self.jokers.get(p, [])}
                for p in e.queue
            ]
            return self._play(shows, public_on_fail=words.CARD_NOT_PLACED)
        if what == "ras":
            return self._ras_done()
        if what == "harley":
            return self._harley_done()
        if what == "endturn":
            return self._play([{"kind": "end_turn", "player": e.turn}])
        return None

    def _turn_choice(self, what: str, player: int) -> list[Output] | None:
        """The ability's target chosen with the knob; None if the request is not one."""
        if what != "target":
            return None
        e = self.e
        if self.ability is None:
            raise RecordError("no ability waits for a target")
        move = {**self.ability, "target": player}
        if trial(e, [move]) is not None:
            return [Say(words.ABILITY_TARGET.format(name=self.name(e.turn))), self._target()]
        self.ability = None
        return self._play([move])

"""The Almost Got 'Im game state: fields, chance, views, persistence, move dispatch.

Full and partial information
----------------------------
One engine serves both the simulator (it knows every card) and the hub as Dealer (it sees
only what is face up, plus the Secret Roles from the roles check).  Cards are tracked as
*slots*: a hand, a discard pile or the Blackout's replacement buffer holds card ids or the
literal ``"unknown"``.  ``unseen`` is the pool of cards whose place the engine does not
know — the deck plus every ``"unknown"`` slot — and ``deck_count`` is the size of the deck.
Invariant: ``len(unseen) == deck_count + number of "unknown" slots``.

* A chance draw (``{"kind": "deal", "card": ...}``) may be a card id (the simulator's
  draw; it must be in ``unseen``) or ``"unknown"`` (a card the hub saw go face down into a
  hand).  ``legal_moves`` offers the simulator every unseen card, each once; ``check``
  also accepts ``"unknown"``.
* A card becomes known when it shows face up: discarded, taken from a discard pile,
  revealed at the reveal spot (a Blackout activation, Catwoman's Full House), a Joker shown
  to The Joker.  ``check`` accepts it from a hand only if it is a known card of that hand,
  or the hand has an ``"unknown"`` slot and the card is unseen — so a card on top of a
  discard pile, or known in another hand, or shown twice, is refused as a duplicate.
* A revealed hand (``"hand": [...]`` on ``activate``/``reveal``) is checked against the
  role's requirement, Jokers wild, after it is matched with what is known.
* A card passed face down where the hub cannot see it (Harley Quinn) may be
  ``"unknown"``; the giver's known cards then go back to ``unseen`` (the hub no longer
  knows which one left).  When Ra's al Ghul takes an unseen card from under a pile, that
  pile's under-cards become unknown too; a pile top that turns out unknown is asked for as
  a chance move (``{"kind": "deal", "card": ...}`` for the ``top`` of that pile).

In full information no slot is ever ``"unknown"`` and ``unseen`` is exactly the deck, a
multiset whose draws are the chance moves (shuffling is implicit: every unseen card is
equally likely).  ``legal_moves`` lists only moves whose cards the engine knows; the hub
builds the rest from what it observes and calls ``check``/``apply``.

Separately from the engine's knowledge, ``public`` lists per hand the cards *everyone*
knows are there (taken face up from a discard pile, shown Jokers).  It is cleared at
each Blackout (any hand may be turned in, unseen) and when a hand passes a card face down.

Views and secrets
-----------------
``public_view`` holds what the whole table knows; during a Blackout the deck count is the
count at its start and nothing about who acts changes until "Everyone open your eyes".
``player_view`` adds the seat's role, hand and private answers; ``dealer_view`` is all.
Events carry an audience: ``"public"`` (the Dealer's lines and open play), a seat (a
private answer: Telepathic's thumbs, Sneaky's look, the Saboteur's victim's swap, a card
drawn) or ``"dealer"`` (who acted, whom a Watchful player saved).

Termination: a real game cannot loop forever only because people stop; random play can,
so the option ``max_rounds`` (default 50; 0 = no limit) ends the game as a draw (all
returns 0) once that many rounds have been played.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self

from tablehub.games.almost_got_im import blackout, council, setup, turns
from tablehub.games.almost_got_im.cards import DECK, UNKNOWN, describe, is_card
from tablehub.games.almost_got_im.rules import Rules, RulesError, rules_with
from tablehub.games.base import (
    CHANCE,
    DEALER,
    JSON,
    PUBLIC,
    TERMINAL,
    Event,
    GameInfo,
    GameState,
    Move,
    View,
)

INFO = GameInfo(
    name="almost-got-im",
    title="Almost Got 'Im",
    min_players=4,
    max_players=7,
    option_sets=({}, {"advanced": True}),
)
DEFAULT_MAX_ROUNDS = 50
OPTION_KEYS = ("advanced", "max_rounds", "card_data")

# Field names saved by to_json, in order.  Lists are copied one level (or two for the
# nested ones) so a clone shares nothing with its original.
_SCALARS = (
    "n",
    "advanced",
    "max_rounds",
    "phase",
    "step",
    "setup_seat",
    "peeked",
    "deck_count",
    "then",
    "brains",
    "round",
    "turn",
    "turn_no",
    "stage",
    "accused",
    "seconder",
    "awake",
    "frozen_deck",
    "victim",
    "no_vote",
    "freeze",
    "last_subdue_round",
    "free",
    "outcome",
)
_LISTS = (
    "roles",
    "unused",
    "characters",
    "box",
    "subdued",
    "by_batman",
    "activated",
    "probed",
    "unseen",
    "buffer",
    "queue",
    "poll",
    "voters",
    "ballots",
    "order",
    "denied",
    "denied_next",
    "bane",
    "seen_unused",
    "winners",
    "batch",
)
_NESTED = ("powers", "spent", "hands", "public", "piles", "pending", "acts", "said")
# Dealer lines that are the Blackout's script, not announcements: spoken (as events) but
# not kept in the announcement log.  The Vote's script (``vote_rules``, ``vote_count``,
# ``vote_hold`` in the data file) is not the engine's to speak at all: the Vote is called
# when the defence is over, which only the Dealer (the referee) knows, so the referee says
# those lines, worded by the data file, and the engine emits only ``seconded`` and
# ``vote_result``.
SCRIPT = frozenset(("close_eyes", "open_eyes_player", "close_eyes_player", "open_eyes"))
_PRIVATE = "private"


class AgiState(GameState):
    """One game of Almost Got 'Im (see the module docstring for the information model)."""

    info: ClassVar[GameInfo] = INFO

    # ----------------------------------------------------------------- construction
    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            known = ", ".join(OPTION_KEYS)
            raise ValueError(f"unknown option(s) {', '.join(unknown)}; known: {known}")
        if isinstance(players, bool) or not isinstance(players, int) or not 4 <= players <= 7:
            raise ValueError(f"Almost Got 'Im is for 4 to 7 players, not {players!r}")
        advanced = options.get("advanced", False)
        if not isinstance(advanced, bool):
            raise ValueError(f"option advanced must be true or false, not {advanced!r}")
        max_rounds = options.get("max_rounds", DEFAULT_MAX_ROUNDS)
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 0:
            raise ValueError(f"option max_rounds must be a whole number >= 0, not {max_rounds!r}")
        card_data = options.get("card_data") or {}
        if not isinstance(card_data, Mapping):
            raise ValueError(f"option card_data must be a table of corrections, not {card_data!r}")
        try:
            self.rules: Rules = rules_with(card_data)
        except RulesError as err:
            raise ValueError(f"option card_data: {err}") from None
        self.card_data: dict[str, Any] = json.loads(json.dumps(card_data))
        n = players
        self.n = n
        self.advanced = advanced
        self.max_rounds = max_rounds
        self.phase = "setup"
        self.step = "batman"  # setup: batman, roles, peek, characters, brains, deal
        self.setup_seat = 0
        self.roles: list[str | None] = [None] * n
        self.unused: list[str] = []
        self.peeked: str | None = None
        self.characters: list[str | None] = [None] * n
        self.box: list[str] = list(self.rules.character_order)
        self.powers: list[list[str]] = [[] for _ in range(n)]  # own Character, then gained
        self.spent: list[list[str]] = [[] for _ in range(n)]  # abilities used
        self.subdued = [False] * n
        self.by_batman = [False] * n  # Subdued by Batman in a Blackout (Catwoman's rescue)
        self.activated = [False] * n  # ever used a Secret Role ability (dealer knowledge)
        self.probed = [False] * n  # ever the target of a Telepathic answer
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.public: list[list[str]] = [[] for _ in range(n)]
        self.unseen: list[str] = list(DECK)
        self.deck_count = len(self.unseen)
        self.piles: list[list[str]] = [[], [], []]
        self.pending: list[list[Any]] = []  # chance items: [where, seat or pile]
        self.then: str | None = None  # what to do when pending empties
        self.buffer: list[str] = []  # replacement cards being dealt in a Blackout
        self.batch: list[str] = []  # unused roles already shown in the current peek
        self.brains = 0
        self.round = 0
        self.turn = 0
        self.turn_no = 0
        self.stage = "take"  # take, act, adjust, ras, jokers, harley_in, harley_out
        self.queue: list[int] = []  # seats still to act in an ability (jokers, harley)
        self.accused: int | None = None
        self.seconder: int | None = None
        self.poll: list[int] = []
        self.voters: list[int] = []
        self.ballots: list[bool] = []
        self.order: list[int] = []  # Blackout: awake seats in order
        self.awake = 0  # index into order
        self.acts: list[list[Any]] = []  # Blackout activations: [seat, role, target]
        self.frozen_deck = 0
        self.victim: int | None = None
        self.denied: list[int] = []  # Scarecrow: no Secret Role in this Blackout
        self.denied_next: list[int] = []
        self.bane: list[int] = []  # protected in this round's Blackout
        self.no_vote = False
        self.freeze = False
        self.last_subdue_round = 0
        self.free = 0
        self.seen_unused: list[str] = []  # unused roles Sneaky has seen
        self.said: list[list[Any]] = []  # [round, text] of every public Dealer line
        self.history: list[dict[str, Any]] = []  # completed Votes
        self.private: list[list[Event]] = [[] for _ in range(n)]
        self.outcome: str | None = None
        self.winners: list[int] = []
        self._events: list[Event] = []
        self._public_view: View | None = None  # cache, dropped by every apply

    # ----------------------------------------------------------------- small helpers
    def num_players(self) -> int:
        return self.n

    def clockwise(self, start: int) -> list[int]:
        return [(start + i) % self.n for i in range(self.n)]

    def name(self, seat: int) -> str:
        character = self.characters[seat]
        return self.rules.characters[character].name if character else f"Seat {seat + 1}"

    def tally(self) -> int:
        """Batman's Subdues: Subdued players now, plus Advanced Mode's free ones."""
        return sum(self.subdued) + self.free

    def needed(self) -> int:
        return self.rules.subdues_needed[self.n]

    def emit(self, kind: str, audience: str | int, **fields: Any) -> None:
        """Record an event; a private one is also kept for the seat's view."""
        event: Event = {"kind": kind, "audience": audience, **fields}
        self._events.append(event)
        if audience != PUBLIC and audience != DEALER:
            self.private[int(audience)].append(dict(event))

    def tell(self, kind: str, seat: int, **fields: Any) -> None:
        """A private event not worth keeping in the view (a drawn card: the hand shows it)."""
        self._events.append({"kind": kind, "audience": seat, **fields})

    def say(self, key: str, **names: Any) -> None:
        """A public Dealer line, worded by the data file (announcements are logged)."""
        text = self.rules.say[key].format(**names)
        if key not in SCRIPT:
            self.said.append([self.round, text])
        self._events.append({"kind": "say", "audience": PUBLIC, "key": key, "text": text})

    def usable_powers(self, seat: int) -> list[str]:
        """Character abilities ``seat`` may still use (public: no card knowledge needed)."""
        if self.subdued[seat]:
            return []
        spent = self.spent[seat]
        return [c for c in self.powers[seat] if c not in spent]

    def legal_piles(self) -> list[int]:
        """Where a discard may go: an empty slot while there is one, else any pile."""
        empty = [i for i, pile in enumerate(self.piles) if not pile]
        return empty or [0, 1, 2]

    # ----------------------------------------------------------------- card knowledge
    def where(self, card: str) -> str:
        """Words for where a card is known to be (for duplicate / impossible readings)."""
        for i, pile in enumerate(self.piles):
            if pile and pile[-1] == card:
                return f"it is on top of discard pile {i + 1}"
            if card in pile:
                return f"it is in discard pile {i + 1}"
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"it is in {self.name(seat)}'s hand"
        if card in self.buffer:
            return "it was just dealt in the Blackout"
        return "it is not in play"

    def hand_card_problem(self, seat: int, card: object) -> str | None:
        """Why ``card`` cannot be a card of ``seat``'s hand shown face up (None if it can)."""
        if not is_card(card):
            return f"{card!r} is not a card of this deck"
        assert isinstance(card, str)
        hand = self.hands[seat]
        if card in hand:
            return None
        if UNKNOWN in hand and card in self.unseen:
            return None
        if UNKNOWN not in hand:
            return f"{describe(card)} is not in {self.name(seat)}'s hand"
        return f"{describe(card)} cannot be in {self.name(seat)}'s hand: {self.where(card)}"

    def hand_problem(self, seat: int, cards: object) -> str | None:
        """Why ``cards`` cannot be ``seat``'s whole hand, shown face up (None if it can)."""
        hand = self.hands[seat]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return "a shown hand must be a list of card ids"
        if len(cards) != len(hand):
            return f"{self.name(seat)} holds {len(hand)} cards, not {len(cards)}"
        if len(set(cards)) != len(cards):
            return "the same card is shown twice (a duplicate card?)"
        for card in hand:
            if card != UNKNOWN and card not in cards:
                return f"{describe(card)} is known to be in {self.name(seat)}'s hand"
        for card in cards:
            if card not in hand:
                problem = self.hand_card_problem(seat, card)
                if problem:
                    return problem
        return None

    def learn_hand(self, seat: int, cards: list[str]) -> None:
        """``seat`` showed ``cards`` (already checked): fill its unknown slots with them."""
        hand = self.hands[seat]
        if UNKNOWN not in hand:
            return
        for card in cards:
            if card not in hand:
                self.unseen.remove(card)
        self.hands[seat] = list(cards)

    def take_from_hand(self, seat: int, card: str) -> None:
        """Remove a (checked) card from ``seat``'s hand; an unseen card uses an unknown slot."""
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
        else:
            hand.remove(UNKNOWN)
            self.unseen.remove(card)
        if card in self.public[seat]:
            self.public[seat].remove(card)

    def forget_hand(self, seat: int) -> None:
        """A card left ``seat``'s hand unseen: its known cards are no longer placed."""
        hand = self.hands[seat]
        for card in hand:
            if card != UNKNOWN:
                self.unseen.append(card)
        self.hands[seat] = [UNKNOWN] * len(hand)

    def to_deck(self, cards: list[str]) -> None:
        """Cards go (face down) to the deck; unknown ones are already in ``unseen``."""
        for card in cards:
            if card != UNKNOWN:
                self.unseen.append(card)
        self.deck_count += len(cards)

    def refill(self) -> None:
        """Shuffle every card under the top of each discard pile back into the deck."""
        moved: list[str] = []
        for pile in self.piles:
            if len(pile) > 1:
                moved.extend(pile[:-1])
                del pile[:-1]
        if moved:
            self.to_deck(moved)
            self.say("refill")

    # ----------------------------------------------------------------- chance & flow
    def deal(self, where: str, arg: int, count: int = 1) -> None:
        self.pending.extend([where, arg] for _ in range(count))

    def settle(self) -> None:
        """Run automatic steps until a player or a chance outcome is needed."""
        while True:
            if self.phase == "over":
                self.pending.clear()
                self.then = None
                return
            if self.pending:
                where = self.pending[0][0]
                if where in ("hand", "buffer"):
                    if self.deck_count == 0 and self.phase != "blackout":
                        self.refill()
                    if self.deck_count > 0:
                        return
                elif where == "gain":
                    if self.box:
                        return
                elif where == "peek":
                    if any(r not in self.batch for r in self.unused):
                        return
                else:  # "top"
                    return
                self.pending.pop(0)  # cannot be dealt: the deck (or box) is empty
                continue
            self.batch = []
            if self.then is None:
                return
            then, self.then = self.then, None
            _THEN[then](self)

    def start_round(self) -> None:
        self.round += 1
        # The view keeps this and the last round's announcements (the journal keeps all).
        self.said = [line for line in self.said if line[0] >= self.round - 1]
        if self.max_rounds and self.round > self.max_rounds:
            self.say("draw_game")
            self.end_game("draw", [])
            return
        self.phase = "turn"
        self.turn_no = 0
        self.turn = self.brains
        self.stage = "take"

    def end_round(self) -> None:
        """After the Blackout (or instead of it): Advanced Mode, then the Brains passes."""
        self.phase = "round_end"
        if self.deck_count < self.rules.refill_below:
            self.refill()
        every = self.rules.advanced_rounds
        if (
            self.advanced
            and self.round % every == 0
            and self.last_subdue_round <= self.round - every
        ):
            self.free += 1
            self.say("free_subdue")
            self.emit("free_subdue", PUBLIC, tally=self.tally())
            if self.tally() >= self.needed():
                self.batman_wins()
                return
        self.brains = (self.brains + 1) % self.n
        self.bane = []
        self.no_vote = False
        self.freeze = False
        self.start_round()

    def batman_wins(self) -> None:
        batman = self.roles.index("batman")
        winners = [batman]
        catwoman = self.roles.index("catwoman") if "catwoman" in self.roles else -1
        if catwoman >= 0 and self.subdued[catwoman] and self.by_batman[catwoman]:
            winners.append(catwoman)
            self.say("batman_and_catwoman_win")
        else:
            self.say("batman_wins")
        self.end_game("batman", winners)

    def villains_win(self) -> None:
        villains = [
            s for s, role in enumerate(self.roles) if self.rules.roles[str(role)].team == "villain"
        ]
        self.end_game("villains", villains)

    def end_game(self, outcome: str, winners: list[int]) -> None:
        self.phase = "over"
        self.outcome = outcome
        self.winners = sorted(winners)
        self.pending.clear()
        self.then = None
        self.emit(
            "game_over", PUBLIC, outcome=outcome, winners=list(self.winners), roles=list(self.roles)
        )

    # ----------------------------------------------------------------- the engine API
    def current_player(self) -> int:
        if self.pending:
            return CHANCE
        phase = self.phase
        if phase == "turn":
            if self.stage in ("jokers", "harley_in"):
                return self.queue[0]
            return self.turn
        if phase == "blackout":
            return self.order[self.awake]
        if phase == "vote":
            return self.voters[len(self.ballots)]
        if phase == "second":
            return self.poll[0]
        if phase == "accuse":
            return self.brains
        if phase == "verdict":
            assert self.accused is not None
            return self.accused
        if phase == "setup":
            return CHANCE
        return TERMINAL

    def legal_moves(self) -> list[Move]:
        if self.phase == "over":
            return []
        if self.pending:
            return self._chance_moves()
        return _LEGAL[self.phase](self)

    def check(self, move: Move) -> str | None:
        if not isinstance(move, dict):
            return "a move must be a JSON object"
        if self.phase == "over":
            return "the game is over"
        kind = move.get("kind")
        if not isinstance(kind, str):
            return "a move needs a 'kind'"
        entry = _MOVES.get(kind)
        if entry is None:
            return f"there is no move called {kind!r} in Almost Got 'Im"
        player = move.get("player")
        actor = self.current_player()
        if player != actor or isinstance(player, bool):
            if actor == CHANCE:
                return "the next step is a card or role dealt, not a player's move"
            who = self.name(actor) if actor >= 0 else "nobody"
            return f"it is {who}'s move, not {_who(self, player)}'s"
        return entry[0](self, move)

    def _apply(self, move: Move) -> list[Event]:
        self._events = []
        self._public_view = None
        _MOVES[move["kind"]][1](self, move)
        self.settle()
        events, self._events = self._events, []
        return events

    def returns(self) -> list[float]:
        return [1.0 if seat in self.winners else 0.0 for seat in range(self.n)]

    # ----------------------------------------------------------------- chance moves
    def _chance_moves(self) -> list[Move]:
        where = self.pending[0][0]
        if where in ("hand", "buffer", "top"):
            return [{"kind": "deal", "player": CHANCE, "card": c} for c in self.unseen]
        if where == "gain":
            return [{"kind": "gain_character", "player": CHANCE, "character": c} for c in self.box]
        return [
            {"kind": "peek_unused", "player": CHANCE, "role": r}
            for r in self.unused
            if r not in self.batch
        ]

    # ----------------------------------------------------------------- views
    def active_seat(self) -> int | None:
        """Whose move it is as the table sees it (the awake seat in a Blackout)."""
        phase = self.phase
        if phase == "blackout":
            return self.order[self.awake] if self.awake < len(self.order) else None
        if phase == "turn":
            return self.queue[0] if self.stage in ("jokers", "harley_in") else self.turn
        if phase in ("setup", "over", "round_end"):
            return None
        actor = self.current_player()
        return actor if actor >= 0 else None

    def public_view(self) -> View:
        """What the whole table knows.  Views are read-only snapshots: nested values are
        shared between the views of one position (built once per position)."""
        if self._public_view is None:
            self._public_view = self._build_public_view()
        return dict(self._public_view)

    def _build_public_view(self) -> View:
        blackout_now = self.phase == "blackout"
        seats = []
        for seat in range(self.n):
            seats.append(
                {
                    "seat": seat,
                    "character": self.characters[seat],
                    "name": self.name(seat),
                    "subdued": self.subdued[seat],
                    "ability_used": bool(self.powers[seat])
                    and self.powers[seat][0] in self.spent[seat],
                    "abilities": [[c, c in self.spent[seat]] for c in self.powers[seat]],
                    "hand_count": len(self.hands[seat]),
                    "known_cards": list(self.public[seat]),
                }
            )
        view: View = {
            "game": INFO.name,
            "players": self.n,
            "advanced": self.advanced,
            "phase": "setup" if self.phase == "setup" else self.phase,
            "round": self.round,
            "brains": self.brains if self.phase != "setup" or self.step == "deal" else None,
            "active": self.active_seat(),
            "seats": seats,
            "subdues": self.tally(),
            "subdues_needed": self.needed(),
            "free_subdues": self.free,
            "discard_tops": [pile[-1] if pile else None for pile in self.piles],
            "pile_sizes": [len(pile) for pile in self.piles],
            "deck_count": self.frozen_deck if blackout_now else self.deck_count,
            "accusation": self._accusation_view(),
            "votes": [_copy_vote(v) for v in self.history],
            "protected": list(self.bane),
            "denied": list(self.denied_next) + (list(self.denied) if blackout_now else []),
            "no_vote": self.no_vote,
            "skip_blackout": self.freeze,
            "announcements": [list(s) for s in self.said],
            "unused_role_count": len(self.unused),
            # Who is woken, in order (public: the Brains and the Subdued flags decide it).
            "wake_order": list(self.order) if blackout_now else None,
        }
        if self.phase == "over":
            view["outcome"] = self.outcome
            view["winners"] = list(self.winners)
            view["roles"] = list(self.roles)
        return view

    def _accusation_view(self) -> dict[str, Any] | None:
        if self.phase not in ("second", "vote", "verdict"):
            return None
        return {
            "accused": self.accused,
            "seconder": self.seconder,
            "votes_cast": len(self.ballots) if self.phase == "vote" else None,
        }

    def player_view(self, player: int) -> View:
        view = self.public_view()
        view["seat"] = player
        view["role"] = self.roles[player]
        view["hand"] = list(self.hands[player])
        view["private"] = list(self.private[player])
        if self.phase == "vote" and player in self.voters[: len(self.ballots)]:
            view["my_vote"] = self.ballots[self.voters.index(player)]
        return view

    def dealer_view(self) -> View:
        view = self.public_view()
        view["deck_count"] = self.deck_count
        view["dealer"] = self.to_json()
        return view

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> JSON:
        own = self.__dict__
        data: dict[str, Any] = {"game": INFO.name}
        for key in _SCALARS:
            data[key] = own[key]
        for key in _LISTS:
            data[key] = own[key][:]
        for key in _NESTED:
            data[key] = [x[:] for x in own[key]]
        data["history"] = [_copy_vote(v) for v in self.history]
        data[_PRIVATE] = [[dict(e) for e in events] for events in self.private]
        data["card_data"] = _copy(self.card_data)
        return data

    @classmethod
    def from_json(cls, data: JSON) -> Self:
        if not isinstance(data, dict) or data.get("game") != INFO.name:
            raise ValueError("not a saved Almost Got 'Im state")
        state = cls.__new__(cls)
        own = state.__dict__
        try:
            for key in _SCALARS:
                own[key] = data[key]
            for key in _LISTS:
                own[key] = list(data[key])
            for key in _NESTED:
                own[key] = [list(x) for x in data[key]]
            state.history = [_copy_vote(v) for v in data["history"]]
            state.private = [[dict(e) for e in events] for events in data[_PRIVATE]]
        except (KeyError, TypeError) as err:
            raise ValueError(f"saved Almost Got 'Im state is damaged: {err!r}") from None
        card_data = data.get("card_data") or {}
        try:
            state.rules = rules_with(card_data)
        except RulesError as err:
            raise ValueError(f"saved state's card_data: {err}") from None
        state.card_data = _copy(card_data)
        state._events = []
        state._public_view = None
        return state

    def clone(self) -> Self:
        """A deep copy (the same as a JSON round trip, in one pass)."""
        other = type(self).__new__(type(self))
        own, theirs = self.__dict__, other.__dict__
        for key in _SCALARS:
            theirs[key] = own[key]
        for key in _LISTS:
            theirs[key] = own[key][:]
        for key in _NESTED:
            theirs[key] = [x[:] for x in own[key]]
        other.history = [_copy_vote(v) for v in self.history]
        other.private = [events[:] for events in self.private]  # events are never changed
        other.rules = self.rules
        other.card_data = self.card_data
        other._events = []
        other._public_view = None
        return other

    # ----------------------------------------------------------------- leak test support
    def resample_hidden(self, player: int, rng: random.Random) -> Self:
        """Re-draw ``player``'s secrets: hidden hand cards, role, a pending vote.

        Hand cards nobody else has seen swap with deck cards.  The role swaps with an
        unused role only when nothing public or private to others depends on it: not
        Batman, never activated, not a role someone saw among the unused ones, the same
        Telepathic answer if probed, and not after the game (roles are then shown).
        """
        other = self.clone()
        hand = other.hands[player]
        shown = other.public[player]
        pool = other.unseen
        if other.deck_count == len(pool):  # full information: the pool is the deck
            for i, card in enumerate(hand):
                if card != UNKNOWN and card not in shown and pool and rng.random() < 0.5:
                    j = rng.randrange(len(pool))
                    hand[i], pool[j] = pool[j], card
        role = other.roles[player]
        if (
            role is not None
            and role != "batman"
            and other.phase != "over"
            and not other.activated[player]
        ):
            up = other.rules.telepathic_thumbs_up
            seen = set(other.seen_unused) | {other.peeked}
            choices = [
                r
                for r in other.unused
                if r not in seen and (not other.probed[player] or ((r in up) == (role in up)))
            ]
            if choices and rng.random() < 0.5:
                new = rng.choice(choices)
                other.unused[other.unused.index(new)] = role
                other.roles[player] = new
        if other.phase == "vote" and player in other.voters[: len(other.ballots)]:
            i = other.voters.index(player)
            other.ballots[i] = rng.random() < 0.5
        return other


def _copy_vote(vote: dict[str, Any]) -> dict[str, Any]:
    return {**vote, "votes": [list(pair) for pair in vote["votes"]]}


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _who(state: AgiState, player: object) -> str:
    if player == CHANCE:
        return "the deal"
    if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < state.n:
        return state.name(player)
    return f"player {player!r}"


_Check = Callable[[AgiState, Move], str | None]
_Apply = Callable[[AgiState, Move], None]

_MOVES: dict[str, tuple[_Check, _Apply]] = {
    **setup.MOVES,
    **turns.MOVES,
    **council.MOVES,
    **blackout.MOVES,
}
_LEGAL: dict[str, Callable[[AgiState], list[Move]]] = {
    "setup": setup.legal,
    "turn": turns.legal,
    "accuse": council.legal,
    "second": council.legal,
    "vote": council.legal,
    "verdict": council.legal,
    "blackout": blackout.legal,
}
_THEN: dict[str, Callable[[AgiState], None]] = {
    **setup.THEN,
    **turns.THEN,
    **blackout.THEN,
}

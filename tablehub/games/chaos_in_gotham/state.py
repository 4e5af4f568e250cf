"""The Chaos in Gotham City rules engine (pure; see ``tablehub.games.base``).

One game is as many rounds as players; the round's first player moves one seat clockwise
(seat numbers grow clockwise) each round.  A round is a queue of *steps*, each a chance
outcome or one seat's decision:

    villain x players -> deal x cards -> [catwoman -> draw...] -> trump
    then per trick: location (x2 and a penguin choice with The Penguin) -> play x players
    (-> reveal, for a face-down card the hub could not see) -> the trick is decided.

A location card that changes trump (Wayne Tower, Robinson Park) or The Joker's ability puts
a ``trump`` step (the bottom card of the deck onto the trump pile) at the front of the
queue; with an empty deck the trump stays as it is.  The location deck, when it runs out
(The Penguin uses two cards a trick), is made again from the set-aside location cards.

Two ways to know the cards (option ``hands_seen``):

* ``True`` (simulations, bots, the hub as a dealer): every card is named as it is dealt,
  the deck is known as a set, follow-suit is enforced.
* ``False`` (the camera referee): the hub never sees a hand or the deck.  Deals, Catwoman's
  exchange and face-down Riddler cards carry ``"card": None``; a card becomes known when it
  is played face up, turned onto the trump pile, or revealed.  A played card must be one
  that nobody has been seen to have (the "pool": all cards minus those seen).  Follow-suit
  cannot be enforced, so a revoke is detected afterwards from the public history
  (``revoke.find_revokes``) and reported in a public ``revoke`` event with the evidence.

Rule decisions where the rulebook is silent (documented in docs/games/chaos-in-gotham.md):

* Villain cards lie face up: their passive abilities decide tricks, so the table knows them.
* Catwoman exchanges right after the deal, before the trump card is turned; her discards are
  set aside face down for the round (she knows them, nobody else does).
* The Joker uses his ability on his own turn, before he plays a card.
* The Riddler's face-down card is revealed once everyone has played to the trick, before it
  is decided.  A trick he leads face down has no visible colour to follow: everyone may play
  any card, and the hidden card's colour is still the led colour when the trick is decided.
  His face-down card as a follower must follow suit like any other card.
* With The Penguin both drawn location cards are revealed, so either one that changes the
  trump changes it, whichever he chooses.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping
from typing import Any, Self

from tablehub.games.base import (
    CHANCE,
    JSON,
    PUBLIC,
    TERMINAL,
    Event,
    Game,
    GameInfo,
    GameState,
    Move,
    View,
)
from tablehub.games.chaos_in_gotham.cards import CardData, CardDataError, Villain, load_card_data
from tablehub.games.chaos_in_gotham.revoke import find_revokes
from tablehub.games.chaos_in_gotham.scoring import score_round, winners
from tablehub.games.chaos_in_gotham.tricks import Play, resolve_trick

HAND_SIZES = {2: 10, 3: 9, 4: 8, 5: 7, 6: 6}  # rulebook, Setup
CHANCE_STEPS = frozenset({"villain", "deal", "draw", "trump", "location", "reveal"})
OPTION_KEYS = ("first_player", "hands_seen", "card_data")

INFO = GameInfo(
    name="chaos-in-gotham",
    title="Chaos in Gotham City",
    min_players=2,
    max_players=6,
    option_sets=(
        {},
        {"hands_seen": False},
        {"first_player": 1, "card_data": {"rules": {"equal_values_winner": "last-played"}}},
    ),
)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def normalise_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Checked options with defaults filled in (``ValueError`` naming the bad option)."""
    if not _is_int(players) or not INFO.min_players <= players <= INFO.max_players:
        raise ValueError(f"Chaos in Gotham City is for 2 to 6 players, not {players!r}")
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r} (known: {', '.join(OPTION_KEYS)})")
    first = options.get("first_player", 0)
    if not _is_int(first) or not 0 <= first < players:
        raise ValueError(f"option first_player = {first!r}: expected a seat 0..{players - 1}")
    seen = options.get("hands_seen", True)
    if not isinstance(seen, bool):
        raise ValueError(f"option hands_seen = {seen!r}: expected true or false")
    card_data = options.get("card_data", {})
    if not isinstance(card_data, Mapping):
        raise ValueError(f"option card_data = {card_data!r}: expected a table of corrections")
    try:
        data = load_card_data(card_data)
    except CardDataError as err:
        raise ValueError(f"option card_data: {err}") from None
    if len(data.villains) < players:
        raise ValueError(f"{players} players need {players} villain cards, the data has fewer")
    return {"first_player": first, "hands_seen": seen, "card_data": dict(card_data)}


class ChaosState(GameState):
    info = INFO

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.options = normalise_options(players, options)
        self.data: CardData = load_card_data(self.options["card_data"])
        self.seen: bool = self.options["hands_seen"]
        self.players = players
        self.round = 0
        self.totals = [0] * players
        self.results: list[dict[str, Any]] = []
        self.winners: list[int] | None = None
        self._reset_round()

    # --- round set-up ----------------------------------------------------------------
    def _reset_round(self) -> None:
        n = self.players
        self.starter = (self.options["first_player"] + self.round) % n
        self.leader = self.starter
        self.villains: list[str | None] = [None] * n
        self.villains_left = sorted(self.data.villains)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.hidden = [0] * n  # cards in hand the hub has not seen
        self.deck: list[str] = sorted(self.data.trick_ids) if self.seen else []
        self.deck_hidden = 0 if self.seen else len(self.data.trick_ids)
        self.discards: list[str] = []  # Catwoman's, face down
        self.discards_hidden = 0
        self.trump_pile: list[str] = []
        self.trump_uses = 0
        self.loc_deck = sorted(self.data.locations)
        self.loc_aside: list[str] = []
        self.loc_options: list[str] = []
        self.location: str | None = None
        self.trick: list[dict[str, Any]] = []  # {"seat", "card", "face_down", "swap"}
        self.history: list[dict[str, Any]] = []  # this round's decided tricks (public)
        self.won_cards: list[list[str]] = [[] for _ in range(n)]
        self.won_locations: list[list[str]] = [[] for _ in range(n)]
        self.set_aside: list[str] = []
        size = HAND_SIZES[n]
        self.steps: list[dict[str, Any]] = [{"step": "villain", "seat": s} for s in range(n)]
        self.steps += [
            {"step": "deal", "seat": (self.starter + i) % n} for _ in range(size) for i in range(n)
        ]
        self.steps.append({"step": "trump", "reason": "start"})

    # --- small lookups ----------------------------------------------------------------
    def ability_seat(self, ability: str) -> int | None:
        for seat, villain in enumerate(self.villains):
            if villain is not None and self.data.villains[villain].ability == ability:
                return seat
        return None

    def _ability(self, seat: int) -> str | None:
        villain = self.villains[seat]
        return None if villain is None else self.data.villains[villain].ability

    def villain_card(self, seat: int) -> Villain:
        villain = self.villains[seat]
        assert villain is not None
        return self.data.villains[villain]

    def minimums(self) -> dict[int, int]:
        """Seat -> the lowest value its cards count (Clayface), for deciding tricks."""
        clay = self.ability_seat("minimum-value")
        return {} if clay is None else {clay: self.villain_card(clay).minimum}

    def trump_colour(self) -> str | None:
        return self.data.colour(self.trump_pile[-1]) if self.trump_pile else None

    def deck_count(self) -> int:
        return len(self.deck) + self.deck_hidden

    def hand_count(self, seat: int) -> int:
        return len(self.hands[seat]) + self.hidden[seat]

    def _led_colour_to_follow(self) -> str | None:
        """The colour players must follow now (None: no card yet, or led face down)."""
        if not self.trick or self.trick[0]["face_down"]:
            return None
        card = self.trick[0]["card"]
        return None if card is None else self.data.colour(card)

    def _pool(self) -> list[str]:
        """Hidden mode: cards not seen anywhere (in some hand, the deck or the discards)."""
        seen: set[str] = set(self.trump_pile) | set(self.set_aside)
        for cards in self.won_cards:
            seen.update(cards)
        seen.update(p["card"] for p in self.trick if p["card"] is not None)
        return [c for c in self.data.trick_ids if c not in seen]

    def _reserved(self, pool: list[str]) -> set[str]:
        """Cards a simulator must not use up: the last odd card a hidden face-down needs."""
        if any(p["card"] is None for p in self.trick):
            odd = [c for c in pool if self.data.trick_cards[c].value % 2 == 1]
            if len(odd) == 1:
                return set(odd)
        return set()

    # --- the API ----------------------------------------------------------------------
    def num_players(self) -> int:
        return self.players

    def current_player(self) -> int:
        if self.winners is not None or not self.steps:
            return TERMINAL
        step = self.steps[0]
        if step["step"] in CHANCE_STEPS:
            return CHANCE
        seat: int = step["seat"]
        return seat

    def returns(self) -> list[float]:
        if self.winners is None:
            return [0.0] * self.players
        return [1.0 if s in self.winners else 0.0 for s in range(self.players)]

    def legal_moves(self) -> list[Move]:
        if self.winners is not None or not self.steps:
            return []
        step = self.steps[0]
        kind = step["step"]
        if kind == "villain":
            return [
                {"kind": "villain", "player": CHANCE, "seat": step["seat"], "villain": v}
                for v in self.villains_left
            ]
        if kind in ("deal", "draw"):
            cards: list[str | None] = list(self.deck) if self.seen else [None]
            return [
                {"kind": kind, "player": CHANCE, "seat": step["seat"], "card": c} for c in cards
            ]
        if kind == "trump":
            if self.seen:
                options = list(self.deck)
            else:
                pool = self._pool()
                reserved = self._reserved(pool)
                options = [c for c in pool if c not in reserved]
            return [{"kind": "trump", "player": CHANCE, "card": c} for c in options]
        if kind == "location":
            return [{"kind": "location", "player": CHANCE, "card": c} for c in self.loc_deck]
        if kind == "reveal":
            pool = self._pool()
            return [
                {"kind": "reveal", "player": CHANCE, "seat": step["seat"], "card": c}
                for c in pool
                if self.data.trick_cards[c].value % 2 == 1
            ]
        if kind == "penguin":
            return [
                {"kind": "penguin", "player": step["seat"], "card": c} for c in self.loc_options
            ]
        if kind == "catwoman":
            return self._catwoman_moves(step["seat"])
        return self._play_moves(step["seat"])

    def _catwoman_moves(self, seat: int) -> list[Move]:
        limit = min(self.villain_card(seat).max_discard, self.deck_count(), self.hand_count(seat))
        moves: list[Move] = []
        for k in range(limit + 1):
            if self.seen:
                for combo in itertools.combinations(self.hands[seat], k):
                    moves.append({"kind": "catwoman", "player": seat, "discard": list(combo)})
            else:
                moves.append({"kind": "catwoman", "player": seat, "discard": [None] * k})
        return moves

    def _play_moves(self, seat: int) -> list[Move]:
        ability = self._ability(seat)
        if self.seen:
            led = self._led_colour_to_follow()
            hand = self.hands[seat]
            follow = [c for c in hand if led is not None and self.data.colour(c) == led]
            playable = follow or hand
        else:
            pool = self._pool()
            reserved = self._reserved(pool)
            playable = [c for c in pool if c not in reserved]
        moves: list[Move] = []
        for card in playable:
            moves.append({"kind": "play", "player": seat, "card": card})
            value = self.data.trick_cards[card].value
            if ability == "swap-one-ten" and value in (self.data.lowest, self.data.highest):
                moves.append({"kind": "play", "player": seat, "card": card, "swap": True})
            if ability == "face-down-odd" and value % 2 == 1 and self.seen:
                moves.append({"kind": "play", "player": seat, "card": card, "face_down": True})
        if ability == "face-down-odd" and not self.seen:
            pool = self._pool()
            if any(self.data.trick_cards[c].value % 2 == 1 for c in pool):
                moves.append({"kind": "play", "player": seat, "card": None, "face_down": True})
        if self._joker_can_act(seat):
            moves.append({"kind": "new-trump", "player": seat})
        return moves

    def _joker_can_act(self, seat: int) -> bool:
        return (
            self._ability(seat) == "new-trump"
            and self.trump_uses < self.villain_card(seat).uses_per_round
            and self.deck_count() > 0
        )

    # --- checking ---------------------------------------------------------------------
    def check(self, move: Move) -> str | None:
        if not isinstance(move, dict):
            return "a move must be a table with a kind and a player"
        kind = move.get("kind")
        player = move.get("player")
        if not isinstance(kind, str):
            return "the move has no kind"
        if type(player) is not int:
            return "the move does not say whose it is (player)"
        if self.winners is not None or not self.steps:
            return "the game is over"
        step = self.steps[0]
        expected = step["step"]
        if expected in CHANCE_STEPS:
            if player != CHANCE:
                return f"waiting for a {expected} from the table, not a move by seat {player}"
            if kind != expected:
                return f"waiting for a {expected}, not a {kind}"
            return self._check_chance(step, move)
        seat = step["seat"]
        if player != seat:
            return f"it is seat {seat}'s turn, not seat {player}'s"
        if expected == "catwoman":
            if kind != "catwoman":
                return f"seat {seat} (Catwoman) first chooses which cards to exchange"
            return self._check_catwoman(seat, move)
        if expected == "penguin":
            if kind != "penguin":
                return f"seat {seat} (The Penguin) first chooses the location card"
            card = move.get("card")
            if not isinstance(card, str) or card not in self.loc_options:
                return f"The Penguin must choose one of {', '.join(self.loc_options)}"
            return None
        if kind == "new-trump":
            if self._ability(seat) != "new-trump":
                return f"seat {seat} is not The Joker"
            if not self._joker_can_act(seat):
                if self.deck_count() == 0:
                    return "the trick card deck is empty: there is no card for a new trump"
                return "The Joker has already revealed a new trump this round"
            return None
        if kind != "play":
            return f"seat {seat} must play a trick card now, not {kind}"
        return self._check_play(seat, move)

    def _check_chance(self, step: dict[str, Any], move: Move) -> str | None:
        kind = step["step"]
        if "seat" in step and move.get("seat") != step["seat"]:
            return f"the {kind} is for seat {step['seat']}, not {move.get('seat')!r}"
        if kind == "villain":
            villain = move.get("villain")
            if not isinstance(villain, str) or villain not in self.villains_left:
                return f"{villain!r} is not a villain card left to deal"
            return None
        card = move.get("card")
        if kind == "location":
            if not isinstance(card, str) or card not in self.data.locations:
                return f"{card!r} is not a location card"
            if card not in self.loc_deck:
                return f"the location card {card} is not in the location deck"
            return None
        if kind in ("deal", "draw"):
            if not self.seen:
                return None if card is None else "the hub cannot see dealt cards: card must be null"
            return self._check_from_deck(card)
        if kind == "trump":
            if self.seen:
                return self._check_from_deck(card)
            return self._check_from_pool(card)
        # reveal (hidden mode only)
        reason = self._check_from_pool(card)
        if reason is None and isinstance(card, str) and self.data.trick_cards[card].value % 2 == 0:
            return f"{card} is even: The Riddler may only play odd cards face down"
        return reason

    def _check_from_deck(self, card: Any) -> str | None:
        if not isinstance(card, str) or card not in self.data.trick_cards:
            return f"{card!r} is not a trick card"
        if card not in self.deck:
            return f"{card} is not in the trick card deck"
        return None

    def _check_from_pool(self, card: Any) -> str | None:
        if not isinstance(card, str) or card not in self.data.trick_cards:
            return f"{card!r} is not a trick card"
        if card not in self._pool():
            return f"{card} has already been seen elsewhere: a card cannot be in two places"
        return None

    def _check_catwoman(self, seat: int, move: Move) -> str | None:
        discard = move.get("discard")
        if not isinstance(discard, list):
            return "Catwoman's exchange needs the list of discarded cards"
        limit = min(self.villain_card(seat).max_discard, self.deck_count())
        if len(discard) > limit:
            return f"Catwoman may discard at most {limit} trick cards now"
        if not self.seen:
            if any(c is not None for c in discard):
                return "the hub cannot see Catwoman's discards: list them as null"
            if len(discard) > self.hidden[seat]:
                return "Catwoman cannot discard more cards than she holds"
            return None
        if len(set(map(repr, discard))) != len(discard):
            return "each discarded card may be named only once"
        for card in discard:
            if not isinstance(card, str) or card not in self.hands[seat]:
                return f"Catwoman does not hold {card!r}"
        return None

    def _check_play(self, seat: int, move: Move) -> str | None:
        card = move.get("card")
        face_down = move.get("face_down", False)
        swap = move.get("swap", False)
        if not isinstance(face_down, bool) or not isinstance(swap, bool):
            return "face_down and swap must be true or false"
        ability = self._ability(seat)
        if face_down and ability != "face-down-odd":
            return f"seat {seat} is not The Riddler: cards are played face up"
        if swap and ability != "swap-one-ten":
            return f"seat {seat} is not Two-Face: only Two-Face swaps 1 and 10"
        if face_down and not self.seen:
            if card is not None:
                return "the hub cannot see a face-down card: card must be null until revealed"
            if self.hand_count(seat) == 0:
                return f"seat {seat} has no card left"
            return None
        if not isinstance(card, str) or card not in self.data.trick_cards:
            return f"{card!r} is not a trick card"
        value = self.data.trick_cards[card].value
        if face_down and value % 2 == 0:
            return f"{card} is even: The Riddler may only play odd cards face down"
        if swap and value not in (self.data.lowest, self.data.highest):
            return f"Two-Face can swap only a {self.data.lowest} or a {self.data.highest}"
        if not self.seen:
            if self.hand_count(seat) == 0:
                return f"seat {seat} has no card left"
            return self._check_from_pool(card)
        if card not in self.hands[seat]:
            return f"seat {seat} does not hold {card}"
        led = self._led_colour_to_follow()
        if (
            led is not None
            and self.data.colour(card) != led
            and any(self.data.colour(c) == led for c in self.hands[seat])
        ):
            return f"{led} was led: seat {seat} must follow {led}"
        return None

    # --- applying ---------------------------------------------------------------------
    def _apply(self, move: Move) -> list[Event]:
        step = self.steps.pop(0)
        kind = step["step"]
        events: list[Event]
        if move["kind"] == "new-trump":
            self.steps.insert(0, step)  # the Joker still plays after the new trump
            self.steps.insert(0, {"step": "trump", "reason": "joker"})
            self.trump_uses += 1
            events = [{"kind": "new-trump", "audience": PUBLIC, "seat": step["seat"]}]
        elif kind == "villain":
            events = self._apply_villain(step["seat"], move["villain"])
        elif kind in ("deal", "draw"):
            events = self._apply_deal(kind, step["seat"], move["card"])
        elif kind == "catwoman":
            events = self._apply_catwoman(step["seat"], move["discard"])
        elif kind == "trump":
            events = self._apply_trump(move["card"], step["reason"])
        elif kind == "location":
            events = self._apply_location(move["card"], step["penguin"])
        elif kind == "penguin":
            events = self._apply_penguin(step["seat"], move["card"])
        elif kind == "reveal":
            events = self._apply_reveal(step["seat"], move["card"])
        else:
            events = self._apply_play(step["seat"], move)
        self._settle(events)
        return events

    def _apply_villain(self, seat: int, villain: str) -> list[Event]:
        self.villains[seat] = villain
        self.villains_left.remove(villain)
        if self.data.villains[villain].ability == "new-hand":
            index = next(i for i, s in enumerate(self.steps) if s["step"] == "trump")
            self.steps.insert(index, {"step": "catwoman", "seat": seat})
        name = self.data.villains[villain].name
        return [
            {"kind": "villain", "audience": PUBLIC, "seat": seat, "villain": villain, "name": name}
        ]

    def _take_from_deck(self, card: str | None) -> None:
        if card is None or not self.seen:
            self.deck_hidden -= 1
        else:
            self.deck.remove(card)

    def _apply_deal(self, kind: str, seat: int, card: str | None) -> list[Event]:
        self._take_from_deck(card)
        if card is None:
            self.hidden[seat] += 1
            return []
        self.hands[seat].append(card)
        self.hands[seat].sort()
        return [{"kind": "dealt" if kind == "deal" else "drew", "audience": seat, "card": card}]

    def _apply_catwoman(self, seat: int, discard: list[str | None]) -> list[Event]:
        for card in discard:
            if card is None:
                self.hidden[seat] -= 1
                self.discards_hidden += 1
            else:
                self.hands[seat].remove(card)
                self.discards.append(card)
        self.discards.sort()
        for _ in discard:
            self.steps.insert(0, {"step": "draw", "seat": seat})
        events: list[Event] = [
            {"kind": "catwoman", "audience": PUBLIC, "seat": seat, "discarded": len(discard)}
        ]
        if self.seen and discard:
            events.append(
                {"kind": "discarded", "audience": seat, "cards": sorted(map(str, discard))}
            )
        return events

    def _apply_trump(self, card: str, reason: str) -> list[Event]:
        self._take_from_deck(card if self.seen else None)
        self.trump_pile.append(card)
        colour = self.data.colour(card)
        return [
            {"kind": "trump", "audience": PUBLIC, "card": card, "colour": colour, "reason": reason}
        ]

    def _apply_location(self, card: str, penguin: bool) -> list[Event]:
        self.loc_deck.remove(card)
        location = self.data.locations[card]
        if penguin:
            self.loc_options.append(card)
        else:
            self.location = card
        if location.trump_change:
            self.steps.insert(0, {"step": "trump", "reason": card})
        return [
            {
                "kind": "location",
                "audience": PUBLIC,
                "card": card,
                "name": location.name,
                "chaos": location.chaos,
                "batman": location.batman,
                "trump_change": location.trump_change,
                "penguin": penguin,
            }
        ]

    def _apply_penguin(self, seat: int, card: str) -> list[Event]:
        others = [c for c in self.loc_options if c != card]
        self.location = card
        self.loc_aside.extend(others)
        self.loc_aside.sort()
        self.loc_options = []
        return [
            {"kind": "penguin", "audience": PUBLIC, "seat": seat, "card": card, "set_aside": others}
        ]

    def _apply_play(self, seat: int, move: Move) -> list[Event]:
        card: str | None = move["card"]
        face_down = bool(move.get("face_down", False))
        swap = bool(move.get("swap", False))
        if self.seen and card is not None:
            self.hands[seat].remove(card)
        else:
            self.hidden[seat] -= 1
        self.trick.append({"seat": seat, "card": card, "face_down": face_down, "swap": swap})
        shown = None if face_down else card
        events: list[Event] = [
            {
                "kind": "play",
                "audience": PUBLIC,
                "seat": seat,
                "card": shown,
                "face_down": face_down,
                "swap": swap,
            }
        ]
        if face_down and card is not None:
            events.append({"kind": "played-face-down", "audience": seat, "card": card})
        if not self.seen and card is not None:
            events += self._new_revokes(seat, card)
        return events

    def _apply_reveal(self, seat: int, card: str) -> list[Event]:
        for play in self.trick:
            if play["seat"] == seat and play["card"] is None:
                play["card"] = card
        events: list[Event] = [{"kind": "revealed", "audience": PUBLIC, "seat": seat, "card": card}]
        return events + self._new_revokes(seat, card)

    def _new_revokes(self, seat: int, card: str) -> list[Event]:
        tricks = [*self.history, {"plays": self.trick}]
        index = len(self.history)
        return [
            {"kind": "revoke", "audience": PUBLIC, **r.evidence()}
            for r in find_revokes(self.data, tricks)
            if r.trick == index and r.seat == seat and r.card == card
        ]

    # --- automatic steps --------------------------------------------------------------
    def _settle(self, events: list[Event]) -> None:
        """Run what needs no input (trick decided, round scored, next trick) until it does."""
        while self.winners is None:
            if self.steps:
                head = self.steps[0]
                if head["step"] not in ("trump", "location"):
                    return  # the common case: a seat or the dealer is due
                if head["step"] == "trump" and self.deck_count() == 0:
                    self.steps.pop(0)
                    events.append(
                        {
                            "kind": "trump-unchanged",
                            "audience": PUBLIC,
                            "reason": head["reason"],
                            "colour": self.trump_colour(),
                        }
                    )
                    continue
                if head["step"] == "location" and not self.loc_deck:
                    self.loc_deck = self.loc_aside
                    self.loc_aside = []
                    events.append(
                        {
                            "kind": "locations-reshuffled",
                            "audience": PUBLIC,
                            "count": len(self.loc_deck),
                        }
                    )
                    if not self.loc_deck:
                        self.steps.pop(0)
                    continue
                return
            if len(self.trick) == self.players:
                hidden = [p for p in self.trick if p["card"] is None]
                if hidden:
                    self.steps.append({"step": "reveal", "seat": hidden[0]["seat"]})
                    continue
                events += self._decide_trick()
                continue
            if all(self.hand_count(s) == 0 for s in range(self.players)):
                events += self._end_round()
                continue
            self._start_trick()

    def _start_trick(self) -> None:
        penguin = self.ability_seat("choose-location")
        if penguin is None:
            self.steps.append({"step": "location", "penguin": False})
        else:
            draw = self.villain_card(penguin).draw
            self.steps += [{"step": "location", "penguin": True}] * draw
            self.steps.append({"step": "penguin", "seat": penguin})
        self.steps += [
            {"step": "play", "seat": (self.leader + i) % self.players} for i in range(self.players)
        ]

    def _decide_trick(self) -> list[Event]:
        events: list[Event] = [
            {"kind": "revealed", "audience": PUBLIC, "seat": p["seat"], "card": p["card"]}
            for p in self.trick
            if p["face_down"] and self.seen
        ]
        plays = [Play(p["seat"], p["card"], p["swap"]) for p in self.trick]
        trump = self.trump_colour()
        assert trump is not None
        outcome = resolve_trick(self.data, plays, trump, self.minimums())
        cards = [p.card for p in plays]
        if outcome.set_aside:
            self.set_aside.extend(cards)
        else:
            self.won_cards[outcome.winner].extend(cards)
        if self.location is not None:
            self.won_locations[outcome.winner].append(self.location)
        record = {
            "leader": self.trick[0]["seat"],
            "plays": [dict(p) for p in self.trick],
            "winner": outcome.winner,
            "location": self.location,
            "set_aside": outcome.set_aside,
        }
        self.history.append(record)
        events.append(
            {
                "kind": "trick",
                "audience": PUBLIC,
                "number": len(self.history),
                "winner": outcome.winner,
                "card": outcome.winning_card,
                "by": outcome.by,
                "led": outcome.led,
                "trump": outcome.trump,
                "values": list(outcome.values),
                "cards": cards,
                "location": self.location,
                "set_aside": outcome.set_aside,
                "bruce_wayne": list(outcome.bruce_wayne),
                "batman": list(outcome.batman),
            }
        )
        self.trick = []
        self.location = None
        self.leader = outcome.winner
        return events

    def _end_round(self) -> list[Event]:
        score = score_round(self.data, self.won_cards, self.won_locations, self.villains)
        for seat, points in enumerate(score.scored):
            self.totals[seat] += points
        result = {"round": self.round, "villains": list(self.villains), **score.to_json()}
        result["totals"] = list(self.totals)
        self.results.append(result)
        events: list[Event] = [{"kind": "round-end", "audience": PUBLIC, **result}]
        if self.round + 1 >= self.players:
            self.winners = winners(self.totals)
            events.append(
                {
                    "kind": "game-over",
                    "audience": PUBLIC,
                    "winners": list(self.winners),
                    "totals": list(self.totals),
                }
            )
        else:
            self.round += 1
            self._reset_round()
            events.append(
                {
                    "kind": "round-start",
                    "audience": PUBLIC,
                    "round": self.round,
                    "starter": self.starter,
                }
            )
        return events

    # --- views --------------------------------------------------------------------------
    def public_view(self) -> View:
        trick = [
            {
                "seat": p["seat"],
                "card": None if p["face_down"] else p["card"],
                "face_down": p["face_down"],
                "swap": p["swap"],
            }
            for p in self.trick
        ]
        step = dict(self.steps[0]) if self.steps and self.winners is None else None
        return {
            "game": INFO.name,
            "players": self.players,
            "round": self.round,
            "rounds": self.players,
            "starter": self.starter,
            "step": step,
            "villains": list(self.villains),
            "trump": self.trump_colour(),
            "trump_pile": list(self.trump_pile),
            "trump_uses": self.trump_uses,
            "deck_count": self.deck_count(),
            "discard_count": len(self.discards) + self.discards_hidden,
            "hand_counts": [self.hand_count(s) for s in range(self.players)],
            "location": self.location,
            "location_options": list(self.loc_options),
            "locations_left": len(self.loc_deck),
            "locations_aside": list(self.loc_aside),
            "leader": self.leader,
            "led": self._led_colour_to_follow(),
            "trick": trick,
            "tricks": [dict(t, plays=[dict(p) for p in t["plays"]]) for t in self.history],
            "won_cards": [list(c) for c in self.won_cards],
            "won_locations": [list(c) for c in self.won_locations],
            "set_aside": list(self.set_aside),
            "totals": list(self.totals),
            "results": [dict(r) for r in self.results],
            "winners": None if self.winners is None else list(self.winners),
        }

    def player_view(self, player: int) -> View:
        view = self.public_view()
        view["seat"] = player
        view["hand"] = list(self.hands[player])
        view["hand_unseen"] = self.hidden[player]
        catwoman = self.ability_seat("new-hand")
        view["discarded"] = list(self.discards) if catwoman == player else []
        view["trick"] = [
            dict(v, card=p["card"]) if p["seat"] == player else v
            for v, p in zip(view["trick"], self.trick, strict=True)
        ]
        return view

    def dealer_view(self) -> View:
        view = self.public_view()
        view["hands"] = [list(h) for h in self.hands]
        view["hands_unseen"] = list(self.hidden)
        view["deck"] = list(self.deck)
        view["discards"] = list(self.discards)
        view["trick"] = [dict(p) for p in self.trick]
        return view

    def resample_hidden(self, player: int, rng: random.Random) -> Self:
        other = self.clone()
        hand = other.hands[player]
        if not hand or not other.deck:
            return other
        k = rng.randint(1, min(len(hand), len(other.deck)))
        give = rng.sample(hand, k)
        take = rng.sample(other.deck, k)
        for g, t in zip(give, take, strict=True):
            hand.remove(g)
            hand.append(t)
            other.deck.remove(t)
            other.deck.append(g)
        hand.sort()
        other.deck.sort()
        return other

    # --- persistence --------------------------------------------------------------------
    # Copies are written out by hand: clones and JSON round trips happen at every step of
    # the conformance suite and a generic deep copy (or JSON text) is several times slower.
    _FLAT: tuple[str, ...] = ("round", "starter", "leader", "deck_hidden", "discards_hidden")
    _FLAT += ("trump_uses", "location")
    _LISTS: tuple[str, ...] = ("totals", "villains", "villains_left", "hidden", "deck", "discards")
    _LISTS += ("trump_pile", "loc_deck", "loc_aside", "loc_options", "set_aside")
    _NESTED = ("hands", "won_cards", "won_locations")
    _RECORDS = ("trick", "steps")

    def _copy_fields(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(self, name) for name in self._FLAT}
        for name in self._LISTS:
            data[name] = list(getattr(self, name))
        for name in self._NESTED:
            data[name] = [list(x) for x in getattr(self, name)]
        for name in self._RECORDS:
            data[name] = [dict(x) for x in getattr(self, name)]
        data["history"] = [dict(t, plays=[dict(p) for p in t["plays"]]) for t in self.history]
        data["results"] = [
            {k: list(v) if isinstance(v, list) else v for k, v in r.items()} for r in self.results
        ]
        data["winners"] = None if self.winners is None else list(self.winners)
        data["players"] = self.players
        data["options"] = self.options
        return data

    def to_json(self) -> JSON:
        data = self._copy_fields()
        data["options"] = json.loads(json.dumps(self.options))
        return data

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> Self:
        state = cls.__new__(cls)
        state.players = data["players"]
        state.options = data["options"]
        state.data = load_card_data(state.options["card_data"])
        state.seen = state.options["hands_seen"]
        for name in (*cls._FLAT, *cls._LISTS, *cls._NESTED, *cls._RECORDS):
            setattr(state, name, data[name])
        state.history = data["history"]
        state.results = data["results"]
        state.winners = data["winners"]
        return state

    @classmethod
    def from_json(cls, data: JSON) -> Self:
        """Rebuild a state from ``to_json`` output (``ValueError`` if it is not one)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("options"), Mapping):
            raise ValueError("not a Chaos in Gotham City state")
        copied = json.loads(json.dumps(data))
        copied["options"] = normalise_options(copied.get("players"), copied["options"])
        try:
            return cls._from_fields(copied)
        except KeyError as err:
            raise ValueError(f"not a Chaos in Gotham City state: {err} is missing") from None

    def clone(self) -> Self:
        return self._from_fields(self._copy_fields())


class ChaosGame(Game):
    info = INFO

    def new_initial_state(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> ChaosState:
        return ChaosState(players, options or {})

    def state_from_json(self, data: JSON) -> ChaosState:
        return ChaosState.from_json(data)


__all__ = ["HAND_SIZES", "INFO", "ChaosGame", "ChaosState"]

"""Simulated Almost Got 'Im players: people at a ``SimTable`` who follow the rules.

They know what a player at the table knows — their own cards and Secret Role, what lies
face up, what the hub says, the private light when it is theirs — and act through the
table (cards the camera sees) and the panel's mock pins (knob, "next").  Decisions are
simple and rule-following: build the hand the role needs (take a discard that helps, else
draw; discard the least useful card), use a simple Character ability now and then, reveal
the hand in the Blackout when it counts and point at someone, accuse and vote with a
little suspicion.  Everything is seeded: the same seed plays the same game.

They react after each observation the hub has handled (``Hub.after_handle``) and to each
output (``Hub.output_watchers``), one visible action at a time: after a card moves they
wait for the hub to journal something before deciding again.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablehub.games.almost_got_im.cards import RANK_OF, SUIT_OF, describe, is_joker
from tablehub.games.almost_got_im.rules import default_rules
from tablehub.referee.almost_got_im_blackout import parse_mark
from tablehub.referee.base import ChooseSeat, Output, PrivateLight, Say, WaitNext
from tablehub.service.almost_got_im_table import SimTable

if TYPE_CHECKING:
    from tablehub.devices.panel import PanelHands
    from tablehub.referee.almost_got_im import AgiReferee
    from tablehub.service.app import Hub

RULES = default_rules()
# The Character abilities the simulated players use (the others need more table play).
SIMPLE = ("two-face", "killer-croc", "penguin", "bane", "scarecrow", "riddler", "poison-ivy")
ABILITY_CHANCE = 0.35
WAIT_LIMIT = 30.0  # virtual seconds without a new record before deciding again


def score(cards: list[str], role: str) -> float:
    """How close ``cards`` are to the hand ``role`` needs (higher is closer)."""
    hand = RULES.roles[role].hand
    jokers = sum(1 for c in cards if is_joker(c))
    ranks = Counter(RANK_OF[c] for c in cards if not is_joker(c) and RANK_OF[c] <= hand.max_rank)
    counts = [*sorted(ranks.values(), reverse=True), 0, 0]
    pattern = hand.pattern
    if pattern == "two_pair":
        value = min(counts[0], 2) + min(counts[1], 2)
    elif pattern == "three_of_a_kind":
        value = counts[0]
    elif pattern == "full_house":
        value = min(counts[0], 3) + min(counts[1], 2)
    elif pattern == "flush":
        suits = Counter(SUIT_OF[c] for c in cards if not is_joker(c))
        value = max(suits.values(), default=0)
    else:  # straight: most distinct ranks in a window of five (Ace high or low)
        have = {RANK_OF[c] for c in cards if not is_joker(c)}
        have |= {1} if 14 in have else set()
        value = max(len(have & set(range(lo, lo + 5))) for lo in range(1, 11))
    return value + jokers + (1.0 if hand.met(cards) else 0.0)


def worst(cards: list[str], role: str, rng: random.Random) -> str:
    """The card whose loss hurts the hand least."""
    best = max(score([c for c in cards if c != card], role) for card in cards)
    choices = [card for card in cards if score([c for c in cards if c != card], role) == best]
    return rng.choice(sorted(choices))


class SimPlayers:
    """Everyone at the table (see the module docstring)."""

    def __init__(
        self,
        table: SimTable,
        hands: PanelHands,
        names: tuple[str, ...],
        seed: int,
        say: Callable[[str], None],
        pace: float = 1.5,
    ) -> None:
        self.table = table
        self.panel = hands
        self.names = names
        self.rng = random.Random(f"{seed}:players")
        self.say = say
        self.pace = pace
        self.hub: Hub | None = None
        self._step_handle: asyncio.TimerHandle | None = None
        self._waiting: tuple[int, float] | None = None  # (records seen, since when)
        self._seen_records = 0
        self._turn: dict[str, Any] = {}  # the active player's plan for this turn
        self._done: set[str] = set()  # one-off steps taken (per prompt or mark)
        self._votes: list[int] | None = None
        self.thumbs: dict[int, dict[int, bool]] = {}  # Telepathic answers, by asker
        self._aim: dict[int, int] = {}  # Blackout targets, by player

    # --- wiring -----------------------------------------------------------------------
    def attach(self, hub: Hub) -> None:
        self.hub = hub
        hub.after_handle.append(self._handled)
        hub.output_watchers.append(self._output)

    @property
    def referee(self) -> AgiReferee:
        assert self.hub is not None
        referee: AgiReferee = self.hub.referee  # type: ignore[assignment]
        return referee

    def who(self, player: int) -> str:
        seat = self.referee.places[player]
        character = RULES.characters[self.table.characters[seat][0]].name
        return f"{self.names[seat]} ({character})"

    def _later(self, delay: float, action: Callable[[], None]) -> None:
        assert self.hub is not None
        self.hub.loop.call_later(delay, self._guard, action)

    def _guard(self, action: Callable[[], None]) -> None:
        if not self.referee.is_finished():
            action()

    def _poke(self, delay: float | None = None) -> None:
        if self._step_handle is None and self.hub is not None:
            self._step_handle = self.hub.loop.call_later(
                self.pace if delay is None else delay, self._step
            )

    def _visible(self) -> None:
        """A card moved or a button was pressed: wait for the hub before the next step."""
        assert self.hub is not None
        self._waiting = (len(self.referee.history), self.hub.loop.time())

    def _handled(self, hub: Hub) -> None:
        history = self.referee.history
        for _, record in history[self._seen_records :]:
            if record["kind"] == "timer":
                self._mark(str(record["name"]))
        self._seen_records = len(history)
        if self._waiting is not None and len(history) > self._waiting[0]:
            self._waiting = None
        self._poke()

    def _output(self, output: Output) -> None:
        if isinstance(output, Say):
            self._heard(output.text)
        elif isinstance(output, PrivateLight) and output.colour != "off":
            player = self.referee.player_at(output.seat)
            if player is not None:
                self._later(1.0, lambda: self._light(player, output.colour))

    # --- the prompts ---------------------------------------------------------------------
    def _prompt(self, prefix: str) -> ChooseSeat | WaitNext | None:
        for output in reversed(self.referee.prompts):
            if isinstance(output, ChooseSeat | WaitNext) and output.request.startswith(prefix):
                return output
        return None

    def _press_next(self, prefix: str, why: str = "") -> bool:
        prompt = self._prompt(prefix)
        if prompt is None or prompt.request in self._done:
            return False
        self._done.add(prompt.request)
        if why:
            self.say(f"[table] {why}")
        self.say("[table] someone presses next")
        self.panel.press_next()
        self._visible()
        return True

    def _knob(self, prefix: str, player: int, why: str) -> bool:
        prompt = self._prompt(prefix)
        if not isinstance(prompt, ChooseSeat):
            return False
        seat = self.referee.places[player]
        if seat not in prompt.seats:
            return False
        self.say(f"[table] {why}: knob to {self.names[seat]}'s seat, press")
        self.panel.turn(prompt.seats.index(seat))
        self.panel.press_knob()
        self._visible()
        return True

    # --- stepping ------------------------------------------------------------------------
    def _step(self) -> None:
        self._step_handle = None
        r = self.referee
        if r.is_finished() or self.hub is None:
            return
        if self._waiting is not None:
            if self.hub.loop.time() - self._waiting[1] < WAIT_LIMIT:
                return
            self._waiting = None
        phase = r.phase
        if phase == "characters":
            self._sit()
        elif phase == "deal_roles":
            self._deal_roles()
        elif phase == "dealing":
            self._deal()
        elif phase == "play":
            self._play()

    def _sit(self) -> None:
        t = self.table
        free = [s for s in range(t.seats) if not t.characters[s]]
        if free:
            taken = {c for chars in t.characters for c in chars}
            box = [k for k in RULES.character_order if k not in taken]
            seat, key = free[0], self.rng.choice(box)
            t.characters[seat].append(key)
            t.changed()
            character = RULES.characters[key].name
            self.say(f"[table] {self.names[seat]} takes {character} and puts it face up")
            self._visible()
            return
        self._press_next("characters")

    def _deal_roles(self) -> None:
        t = self.table
        if not t.roles:
            pool = [r for r in RULES.roles_for(t.seats) if r != "batman"]
            self.rng.shuffle(pool)
            dealt = ["batman", *pool[: t.seats - 1]]
            self.rng.shuffle(dealt)
            t.roles, t.unused_roles = dealt, pool[t.seats - 1 :]
            self.say(
                f"[table] the Secret Roles are shuffled and dealt; {len(t.unused_roles)} "
                "lie face down to the side"
            )
        self._press_next("roles")

    def _deal(self) -> None:
        t = self.table
        r = self.referee
        if not any(t.hands):
            t.new_deck()
            t.deal(r.e.brains)
            self.say("[table] the Poker deck is shuffled and five cards dealt to each player")
        self._press_next("dealt")

    def _play(self) -> None:
        e = self.referee.e
        if e.phase == "turn":
            self._turn_step()
        elif e.phase == "accuse":
            self._accuse()
        elif e.phase == "second":
            self._second()
        elif e.phase == "vote":
            self._vote()
        elif e.phase == "verdict":
            self._verdict()

    # --- a turn ------------------------------------------------------------------------
    def _turn_step(self) -> None:
        r, t = self.referee, self.table
        e = r.e
        p = e.turn
        key = f"{e.round}:{e.turn_no}"
        if self._turn.get("key") != key:
            self._turn = {"key": key, "took": False, "ability": None, "declared": False}
        plan = self._turn
        role = t.roles[p]
        hand = t.hands[p]
        if self._prompt("target") is not None:
            self._knob("target", self._target_for(p, "scarecrow"), f"{self.who(p)} points")
            return
        if not plan["took"]:
            plan["took"] = True
            pile = self._best_pile(hand, role)
            if pile is not None:
                card = t.take(p, pile)
                self.say(f"[table] {self.who(p)} takes the {describe(card)} from pile {pile + 1}")
                plan["ability"] = self._choose_ability(p)
                self._visible()
                return
            t.draw(p)
            self.say(f"[table] {self.who(p)} draws from the deck")
            plan["ability"] = self._choose_ability(p)
        ability = plan["ability"]
        if ability is not None and not plan["declared"]:
            plan["declared"] = True
            self.say(f"[table] {self.who(p)} presses the knob to use a Character ability")
            self.panel.press_knob()
            self._visible()
            return
        if ability is not None and ability["card"] in hand:
            self._discard(p, ability["card"], "for the ability")
            count = RULES.characters[ability["key"]].count
            if RULES.characters[ability["key"]].effect == "draw":
                t.draw(p, count)
                self.say(f"[table] {self.who(p)} draws {count} cards from the deck")
            return
        if len(hand) > RULES.hand_size:
            self._discard(p, worst(hand, role, self.rng))
            return
        self._press_next("endturn")

    def _best_pile(self, hand: list[str], role: str) -> int | None:
        """A discard pile whose top improves the hand (after the discard that follows)."""
        now = score(hand, role)
        best, choice = now, None
        for k, pile in enumerate(self.table.piles):
            if not pile:
                continue
            cards = [*hand, pile[-1]]
            after = score([c for c in cards if c != worst(cards, role, self.rng)], role)
            if after > best:
                best, choice = after, k
        return choice

    def _choose_ability(self, p: int) -> dict[str, str] | None:
        e, hand = self.referee.e, self.table.hands[p]
        for key in e.usable_powers(p):
            if key not in SIMPLE or self.rng.random() > ABILITY_CHANCE:
                continue
            trigger = RULES.characters[key].trigger
            cards = [c for c in hand if RANK_OF[c] in trigger]
            if cards:
                return {"key": key, "card": cards[0]}
        return None

    def _discard(self, p: int, card: str, why: str = "") -> None:
        t = self.table
        empty = [k for k, pile in enumerate(t.piles) if not pile]
        pile = empty[0] if empty else self.rng.randrange(3)
        t.discard(p, card, pile)
        extra = f" {why}" if why else ""
        self.say(f"[table] {self.who(p)} discards the {describe(card)} on pile {pile + 1}{extra}")
        self._visible()

    def _target_for(self, p: int, role: str) -> int:
        """Whom ``p`` points at (public facts and their own knowledge only)."""
        e = self.referee.e
        view = self.referee.frozen or e.public_view()
        subdued = [s["subdued"] for s in view["seats"]]
        others = [q for q in range(e.n) if q != p]
        if role == "healer":
            return self.rng.choice([q for q in others if subdued[q]] or others)
        if role in ("batman", "homicidal"):
            known = [q for q, up in self.thumbs.get(p, {}).items() if up and not subdued[q]]
            return self.rng.choice(known or [q for q in others if not subdued[q]] or others)
        if role == "telepathic":
            asked = self.thumbs.get(p, {})
            return self.rng.choice([q for q in others if q not in asked] or others)
        return self.rng.choice(others)

    # --- accusation, seconding, the Vote ----------------------------------------------------
    def _suspect(self, p: int) -> int | None:
        """Whom ``p`` suspects of being Batman (None: nobody in particular)."""
        e = self.referee.e
        candidates = [q for q in range(e.n) if q != p and not e.subdued[q]]
        up = [q for q, yes in self.thumbs.get(p, {}).items() if yes and q in candidates]
        if up:
            return up[0]
        if self.table.roles[p] == "batman":  # Batman points at a Villain to win Subdues
            return self.rng.choice(candidates) if candidates else None
        return self.rng.choice(candidates) if candidates and self.rng.random() < 0.6 else None

    def _accuse(self) -> None:
        e = self.referee.e
        prompt = self._prompt("accuse")
        if prompt is None or prompt.request in self._done:
            return
        self._done.add(prompt.request)
        suspect = self._suspect(e.brains)
        if suspect is None:
            if self.rng.random() < 0.5:
                self.say(f"[table] {self.who(e.brains)} keeps thinking (the countdown will run)")
                return
            self._press_next("noaccuse", f"{self.who(e.brains)} makes no accusation")
            return
        self._knob("accuse", suspect, f"{self.who(e.brains)} accuses {self.who(suspect)}")

    def _second(self) -> None:
        e = self.referee.e
        prompt = self._prompt("second")
        if prompt is None or prompt.request in self._done:
            return
        self._done.add(prompt.request)
        accused = e.accused
        for p in e.poll:
            agrees = self._suspect(p) == accused or self.rng.random() < 0.3
            if agrees:
                self._knob("second", p, f"{self.who(p)} says: I agree!")
                return
        self.say("[table] nobody seconds (the countdown will run)")

    def _vote(self) -> None:
        r = self.referee
        e = r.e
        if r.council == "defence":
            assert e.accused is not None
            self._press_next("defence", f"{self.who(e.accused)} makes a defence")
            return
        if r.council != "entry":
            return
        if self._votes is None:
            accused = e.accused
            guilty = []
            for p in e.voters:
                role = self.table.roles[p]
                known = self.thumbs.get(p, {}).get(accused) if accused is not None else None
                chance = 0.8 if role == "batman" else (0.9 if known else 0.5)
                if self.rng.random() < chance:
                    guilty.append(p)
            thumbs = ", ".join(("up" if p in guilty else "down") for p in e.voters)
            self.say(f"[table] thumbs: {thumbs}")
            self._votes = guilty
        if self._votes:
            p = self._votes.pop(0)
            self._knob("guilty", p, f"the count: {self.who(p)} voted Guilty")
            return
        self._votes = None
        self._press_next("votes", "every Vote is entered")

    def _verdict(self) -> None:
        e, t = self.referee.e, self.table
        accused = e.accused
        if accused is None:
            return
        hand = t.hands[accused]
        if t.roles[accused] == "catwoman" and RULES.roles["catwoman"].hand.met(hand):
            if not t.reveal:
                t.lay(accused, list(hand), face_up=True)
                self.say(f"[table] {self.who(accused)} lays a Full House face up!")
                self._visible()
            return
        self._press_next("verdict", f"{self.who(accused)} accepts the verdict")

    # --- nights ----------------------------------------------------------------------------
    def _mark(self, name: str) -> None:
        parsed = parse_mark(name)
        night = self.referee.night
        if parsed is None or night is None or parsed[0] != night.tag:
            return
        _, kind, index = parsed
        if index is None:
            return
        if kind == "wake":
            player = night.awake[index].player
            if night.kind == "roles":
                self._later(1.0, lambda: self._show_role(player))
            else:
                self._later(1.0, lambda: self._wake(player))
        elif kind == "shut" and self.table.reveal:
            player = night.awake[index].player
            self.table.pick_up(player)  # whatever is left, back in hand

    def _show_role(self, p: int) -> None:
        role = self.table.roles[p]
        card = f"agi:role-{role}"
        self.table.show(p, card)
        self.say(f"[table] (eyes closed) {self.who(p)} shows a Secret Role card")
        self._later(4.0, lambda: self.table.hide(p, card))

    def _wake(self, p: int) -> None:
        t = self.table
        role, hand = t.roles[p], t.hands[p]
        view = self.referee.frozen or self.referee.e.public_view()
        denied = p in view["denied"]
        subdued = [s["subdued"] for s in view["seats"]]
        able = (
            role != "catwoman"
            and not denied
            and RULES.roles[role].hand.met(hand)
            and (role != "healer" or any(subdued))
        )
        if able and self.rng.random() < 0.9:
            shown = list(hand)
            t.lay(p, shown, face_up=True)
            self.say(f"[table] (eyes closed) {self.who(p)} lays the hand face up: {_cards(shown)}")
            return
        cards = list(hand)
        t.lay(p, cards, face_up=False)
        self.say(f"[table] (eyes closed) {self.who(p)} lays the hand face down and picks it up")
        self._later(2.0, lambda: t.pick_up(p) if t.reveal else None)

    def _light(self, p: int, colour: str) -> None:
        night = self.referee.night
        t = self.table
        if night is None or night.kind == "roles":
            return
        if colour == "yellow":
            aim = self._target_for(p, t.roles[p])
            self._aim[p] = aim
            tag = night.tag
            self._knob(f"{tag}:aim", aim, f"(eyes closed) {self.who(p)} points")
        elif colour in ("green", "cyan", "blue", "magenta"):
            if colour in ("cyan", "blue") and p in self._aim:
                self.thumbs.setdefault(p, {})[self._aim[p]] = colour == "cyan"
            t.turn_in(p)
            self.say(f"[table] (eyes closed) {self.who(p)} takes five new cards")
        elif colour == "red":
            t.pick_up(p)
        elif colour == "white":
            t.swap_hand(p)
            self.say(f"[table] (eyes closed) {self.who(p)} swaps the whole hand: sabotaged")

    def _heard(self, text: str) -> None:
        t = self.table
        if text == RULES.say["refill"]:
            t.refill()
            self.say("[table] the discard piles but their tops go back into the deck")
        elif text == RULES.say["crafty"]:
            for p in range(t.seats):
                t.draw(p)
            self.say("[table] everyone draws a card from the deck")


def _cards(cards: list[str]) -> str:
    return ", ".join(describe(c) for c in cards)

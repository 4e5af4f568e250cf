"""The Blackout: secret abilities, woken one at a time, resolved together.

From the Brains clockwise, every player who is not Subdued is woken ("<Character>, open
your eyes.") and either ``pass``es or ``activate``s their Secret Role by turning in a
hand that meets it (Jokers wild) and pointing at a target where the role needs one.  An
activating player then takes five new cards from the deck (chance moves) and the turned-in
hand goes to the bottom of the deck.  Immediate private answers: Telepathic's thumbs (up
for Batman, Catwoman or Homicidal — the data file's list) and Sneaky's look at the unused
roles.

After the last player, in this order: the Saboteur's victim's hand is replaced (after
every ability, so a hand already turned in this Blackout still worked); then Subdues
(Batman's, Homicidal's) unless the target is protected — Watchful protects itself and its
target whatever the order, Bane protects himself this round; a Homicidal hit on Batman
wins for the Villains even if Batman reaches his total in the same Blackout; the Healer
un-Subdues a player, which can cancel Batman's win; then "Everyone open your eyes." and the
rulebook's announcements, wins, and Crafty's "everyone draws a card".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tablehub.games.almost_got_im.cards import UNKNOWN
from tablehub.games.base import DEALER, PUBLIC, Move

if TYPE_CHECKING:
    from tablehub.games.almost_got_im.state import AgiState

TARGETING = ("batman", "homicidal", "watchful", "telepathic", "saboteur", "healer")
SUBDUERS = ("batman", "homicidal")


def start(state: AgiState) -> None:
    """Everyone closes their eyes (unless Mr. Freeze skipped this round's Blackout)."""
    if state.freeze:
        state.emit("blackout_skipped", PUBLIC)
        state.say("no_blackout")
        state.end_round()
        return
    if state.deck_count < state.rules.blackout_refill_per_player * state.n:
        state.refill()
    state.phase = "blackout"
    state.frozen_deck = state.deck_count
    state.public = [[] for _ in range(state.n)]  # any hand may be turned in unseen
    state.denied, state.denied_next = state.denied_next, []
    state.order = [s for s in state.clockwise(state.brains) if not state.subdued[s]]
    state.awake = 0
    state.acts = []
    state.victim = None
    state.say("close_eyes")
    state.say("open_eyes_player", name=state.name(state.order[0]))


def targets(state: AgiState, seat: int, role: str) -> list[int | None]:
    """Whom ``seat`` may point at when activating ``role`` ([None]: no target needed)."""
    if role not in TARGETING:
        return [None]
    others = [s for s in range(state.n) if s != seat]
    if role in SUBDUERS:
        return [s for s in others if not state.subdued[s]]
    if role == "healer":
        return [s for s in others if state.subdued[s]]
    return list(others)


def legal(state: AgiState) -> list[Move]:
    seat = state.order[state.awake]
    moves: list[Move] = [{"kind": "pass", "player": seat}]
    role = state.roles[seat]
    hand = state.hands[seat]
    if (
        role is None
        or role == "catwoman"
        or seat in state.denied
        or UNKNOWN in hand
        or not state.rules.roles[role].hand.met(hand)
    ):
        return moves
    for target in targets(state, seat, role):
        move: Move = {"kind": "activate", "player": seat}
        if target is not None:
            move["target"] = target
        moves.append(move)
    return moves


def check_pass(state: AgiState, move: Move) -> str | None:
    return None if state.phase == "blackout" else "passing is for the Blackout"


def apply_pass(state: AgiState, move: Move) -> None:
    state.emit("passed", DEALER, player=state.order[state.awake])
    advance(state)


def check_activate(state: AgiState, move: Move) -> str | None:
    if state.phase != "blackout":
        return "Secret Role abilities are used during the Blackout"
    seat = state.order[state.awake]
    role = state.roles[seat]
    if role is None:
        return "the Secret Roles are not dealt"
    if role == "catwoman":
        return "Catwoman's hand does nothing during the Blackout"
    if seat in state.denied:
        return "The Scarecrow denied this player's Secret Role for this Blackout"
    if "hand" in move:
        cards = move["hand"]
        problem = state.hand_problem(seat, cards)
        if problem:
            return problem
    else:
        cards = state.hands[seat]
        if UNKNOWN in cards:
            return "show the hand face up: the hub has not seen all of it"
    requirement = state.rules.roles[role].hand
    if not requirement.met(cards):
        return f"that hand is not {requirement.describe()}"
    allowed = targets(state, seat, role)
    target = move.get("target")
    if allowed == [None]:
        return None if target is None else "this Secret Role does not point at anyone"
    if target not in allowed or isinstance(target, bool):
        if role == "healer":
            return "point at a Subdued player"
        if role in SUBDUERS:
            return "point at another player who is not Subdued"
        return "point at another player"
    return None


def apply_activate(state: AgiState, move: Move) -> None:
    seat = state.order[state.awake]
    role = state.roles[seat]
    assert role is not None
    if "hand" in move:
        state.learn_hand(seat, move["hand"])
    target = move.get("target")
    state.activated[seat] = True
    state.acts.append([seat, role, target])
    state.emit(
        "activated", DEALER, player=seat, role=role, target=target, hand=list(state.hands[seat])
    )
    if role == "telepathic":
        assert isinstance(target, int)
        up = state.roles[target] in state.rules.telepathic_thumbs_up
        state.probed[target] = True
        text = state.rules.say["thumbs_up" if up else "thumbs_down"]
        state.emit("telepathy", seat, target=target, thumbs_up=up, text=text)
    elif role == "sneaky":
        count = state.rules.sneaky_unused_seen
        if count == 0 or count >= len(state.unused):
            state.seen_unused.extend(r for r in state.unused if r not in state.seen_unused)
            state.emit("unused_roles", seat, roles=list(state.unused))
        else:
            state.deal("peek", seat, count)
    state.deal("buffer", seat, state.rules.hand_size)
    state.then = "swap"


def _swap(state: AgiState) -> None:
    """The activating player's new five in hand; the turned-in hand to the deck."""
    seat = state.order[state.awake]
    old = state.hands[seat]
    state.hands[seat], state.buffer = state.buffer, []
    state.to_deck(old)
    advance(state)


def advance(state: AgiState) -> None:
    state.say("close_eyes_player", name=state.name(state.order[state.awake]))
    state.awake += 1
    if state.awake < len(state.order):
        state.say("open_eyes_player", name=state.name(state.order[state.awake]))
        return
    saboteur = next((a for a in state.acts if a[1] == "saboteur"), None)
    if saboteur is None:
        finish(state)
        return
    state.victim = saboteur[2]
    state.deal("buffer", saboteur[2], state.rules.hand_size)
    state.then = "sabotage"


def _sabotage(state: AgiState) -> None:
    victim = state.victim
    assert victim is not None
    old = state.hands[victim]
    state.hands[victim], state.buffer = state.buffer, []
    state.to_deck(old)
    state.emit("sabotaged", victim, text=state.rules.say["sabotaged"])
    finish(state)


def finish(state: AgiState) -> None:
    """Resolve Subdues and heals, open everyone's eyes, announce, check the wins."""
    protected = set(state.bane)
    for seat, role, target in state.acts:
        if role == "watchful":
            protected.update((seat, target))
    subdued_now: list[int] = []
    homicide = False
    for seat, role, target in state.acts:
        if role not in SUBDUERS:
            continue
        if target in protected:
            state.emit("subdue_prevented", DEALER, player=seat, target=target)
            continue
        if state.roles[target] == "batman":
            homicide = True
        if not state.subdued[target]:
            state.subdued[target] = True
            subdued_now.append(target)
        if role == "batman":
            state.by_batman[target] = True
    healed: list[int] = []
    for _seat, role, target in state.acts:
        if role == "healer" and state.subdued[target] and target not in subdued_now:
            state.subdued[target] = False
            state.by_batman[target] = False
            healed.append(target)
    if subdued_now:
        state.last_subdue_round = state.round
    state.phase = "round_end"
    state.say("open_eyes")
    rank = {s: i for i, s in enumerate(state.clockwise(state.brains))}
    for seat in sorted(subdued_now, key=rank.__getitem__):
        state.emit("subdued", PUBLIC, player=seat, by="blackout")
        state.say("subdued", name=state.name(seat))
    if not subdued_now:
        state.say("no_one_subdued")
    crafty = any(role == "crafty" for _s, role, _t in state.acts)
    over = homicide or state.tally() >= state.needed()
    if crafty and not over:
        state.say("crafty")
    for seat in sorted(healed, key=rank.__getitem__):
        state.emit("healed", PUBLIC, player=seat)
        state.say("healed", name=state.name(seat))
    state.acts = []
    if homicide:
        state.say("game_over_homicidal")
        state.villains_win()
    elif state.tally() >= state.needed():
        state.batman_wins()
    elif crafty:
        for seat in state.clockwise(state.brains):
            state.deal("hand", seat)
        state.then = "end_round"
    else:
        state.end_round()


def _end_round(state: AgiState) -> None:
    state.end_round()


MOVES: dict[str, Any] = {
    "pass": (check_pass, apply_pass),
    "activate": (check_activate, apply_activate),
}
THEN = {"swap": _swap, "sabotage": _sabotage, "end_round": _end_round}

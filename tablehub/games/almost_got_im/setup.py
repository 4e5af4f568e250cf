"""Set-up and dealing: the chance moves that put roles, Characters and cards in play.

Set-up runs in steps (``state.step``): ``batman_seat`` (Batman in Disguise is always in the
game), ``deal_role`` for every other seat from the roles the player count uses (the rest
form the unused pile; boxed cards do not exist), ``peek_unused`` (the unused role Batman
looks at), ``deal_character`` for every seat, ``first_brains``, then five cards each.
During play, ``deal`` resolves the pending chance items (``state.pending``): a card into a
hand or the Blackout's replacement buffer, or a pile top the hub must read;
``gain_character`` is Clayface's new Character.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablehub.games.almost_got_im.cards import UNKNOWN, describe, is_card
from tablehub.games.almost_got_im.rules import ROLE_KEYS
from tablehub.games.base import CHANCE, DEALER, PUBLIC, Move

if TYPE_CHECKING:
    from tablehub.games.almost_got_im.state import AgiState


def legal(state: AgiState) -> list[Move]:
    step = state.step
    if step == "batman":
        return [{"kind": "batman_seat", "player": CHANCE, "seat": s} for s in range(state.n)]
    if step == "roles":
        return [
            {"kind": "deal_role", "player": CHANCE, "seat": state.setup_seat, "role": r}
            for r in _role_pool(state)
        ]
    if step == "peek":
        return [{"kind": "peek_unused", "player": CHANCE, "role": r} for r in state.unused]
    if step == "characters":
        return [
            {"kind": "deal_character", "player": CHANCE, "seat": state.setup_seat, "character": c}
            for c in state.box
        ]
    return [{"kind": "first_brains", "player": CHANCE, "seat": s} for s in range(state.n)]


def _role_pool(state: AgiState) -> list[str]:
    dealt = set(state.roles)
    return [r for r in state.rules.roles_for(state.n) if r != "batman" and r not in dealt]


def _is_seat(state: AgiState, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < state.n


def _check_batman_seat(state: AgiState, move: Move) -> str | None:
    if state.phase != "setup" or state.step != "batman":
        return "Batman's seat is dealt first, at set-up"
    if not _is_seat(state, move.get("seat")):
        return f"seat must be 0..{state.n - 1}"
    return None


def _apply_batman_seat(state: AgiState, move: Move) -> None:
    seat = move["seat"]
    state.roles[seat] = "batman"
    state.emit("role_dealt", DEALER, seat=seat, role="batman")
    state.step = "roles"
    state.setup_seat = 1 if seat == 0 else 0


def _check_deal_role(state: AgiState, move: Move) -> str | None:
    if state.phase != "setup" or state.step != "roles":
        return "Secret Roles are dealt at set-up, after Batman's seat"
    seat = move.get("seat")
    if not _is_seat(state, seat) or seat != state.setup_seat:
        return f"the next role goes to seat {state.setup_seat}"
    role = move.get("role")
    if role not in ROLE_KEYS:
        return f"{role!r} is not a Secret Role ({', '.join(ROLE_KEYS)})"
    if role not in _role_pool(state):
        if role == "batman" or role in state.roles:
            return f"the {role} card is already dealt"
        return f"the {role} card is in the box with {state.n} players"
    return None


def _apply_deal_role(state: AgiState, move: Move) -> None:
    seat = move["seat"]
    state.roles[seat] = move["role"]
    state.emit("role_dealt", DEALER, seat=seat, role=move["role"])
    nxt = seat + 1
    while nxt < state.n and state.roles[nxt] is not None:
        nxt += 1
    if nxt < state.n:
        state.setup_seat = nxt
        return
    dealt = set(state.roles)
    state.unused = [r for r in state.rules.roles_for(state.n) if r not in dealt]
    state.setup_seat = 0
    state.step = "peek" if state.unused else "characters"


def _check_peek(state: AgiState, move: Move) -> str | None:
    role = move.get("role")
    if state.pending and state.pending[0][0] == "peek":
        if role == UNKNOWN:
            return None
        if role not in state.unused or role in state.batch:
            return f"{role!r} is not an unused Secret Role card left to look at"
        return None
    if state.phase != "setup" or state.step != "peek":
        return "no one is looking at an unused Secret Role card now"
    if role != UNKNOWN and role not in state.unused:
        return f"{role!r} is not one of the unused Secret Role cards"
    return None


def _apply_peek(state: AgiState, move: Move) -> None:
    role = move["role"]
    if state.pending:  # Sneaky looking at some of the unused roles
        _where, seat = state.pending.pop(0)
        state.batch.append(role)
        if role != UNKNOWN:
            state.seen_unused.append(role)
        state.emit("unused_role", seat, role=role)
        return
    batman = state.roles.index("batman")
    state.peeked = role
    state.emit("unused_role", batman, role=role)
    state.step = "characters"


def _check_deal_character(state: AgiState, move: Move) -> str | None:
    if state.phase != "setup" or state.step != "characters":
        return "Character cards are taken at set-up"
    seat = move.get("seat")
    if not _is_seat(state, seat) or seat != state.setup_seat:
        return f"the next Character card goes to seat {state.setup_seat}"
    character = move.get("character")
    if character not in state.box:
        return f"{character!r} is not a Character card still in the middle of the table"
    return None


def _apply_deal_character(state: AgiState, move: Move) -> None:
    seat, character = move["seat"], move["character"]
    state.characters[seat] = character
    state.powers[seat] = [character]
    state.box.remove(character)
    state.emit("character", PUBLIC, seat=seat, character=character)
    state.setup_seat += 1
    if state.setup_seat == state.n:
        state.step = "brains"


def _check_first_brains(state: AgiState, move: Move) -> str | None:
    if state.phase != "setup" or state.step != "brains":
        return "the Brains token is placed at set-up, after the Characters"
    if not _is_seat(state, move.get("seat")):
        return f"seat must be 0..{state.n - 1}"
    return None


def _apply_first_brains(state: AgiState, move: Move) -> None:
    state.brains = move["seat"]
    state.step = "deal"
    state.emit("brains", PUBLIC, seat=state.brains)
    for _ in range(state.rules.hand_size):
        for seat in state.clockwise(state.brains):
            state.deal("hand", seat)
    state.then = "start_game"


# ----------------------------------------------------------------- dealing cards
def _check_deal(state: AgiState, move: Move) -> str | None:
    if not state.pending or state.pending[0][0] not in ("hand", "buffer", "top"):
        return "no card is being dealt now"
    card = move.get("card")
    where = state.pending[0][0]
    if card == UNKNOWN:
        if where == "top":
            return "the top card of a discard pile is face up: say which card it is"
        return None
    if not is_card(card):
        return f"{card!r} is not a card of this deck"
    assert isinstance(card, str)
    if card not in state.unseen:
        return f"{describe(card)} cannot come from the deck: {state.where(card)}"
    if where == "top":
        pile = state.pending[0][1]
        if UNKNOWN not in state.piles[pile]:
            return "that pile holds no unseen card"
    return None


def _apply_deal(state: AgiState, move: Move) -> None:
    where, arg = state.pending.pop(0)
    card = move["card"]
    if where == "top":
        pile = state.piles[arg]
        pile[-1] = card
        state.unseen.remove(card)
        state.emit("pile_top", PUBLIC, pile=arg, card=card)
        return
    if card != UNKNOWN:
        state.unseen.remove(card)
    state.deck_count -= 1
    if where == "hand":
        state.hands[arg].append(card)
        if card != UNKNOWN:
            state.tell("drew_card", arg, card=card)
        if state.phase != "blackout" and state.deck_count < state.rules.refill_below:
            state.refill()
    else:
        state.buffer.append(card)


def _check_gain(state: AgiState, move: Move) -> str | None:
    if not state.pending or state.pending[0][0] != "gain":
        return "no Character card is being taken now"
    if move.get("character") not in state.box:
        return f"{move.get('character')!r} is not a Character card left in the box"
    return None


def _apply_gain(state: AgiState, move: Move) -> None:
    _where, seat = state.pending.pop(0)
    character = move["character"]
    state.box.remove(character)
    state.powers[seat].append(character)
    state.emit("gained", PUBLIC, player=seat, character=character)


def start_game(state: AgiState) -> None:
    state.start_round()


MOVES = {
    "batman_seat": (_check_batman_seat, _apply_batman_seat),
    "deal_role": (_check_deal_role, _apply_deal_role),
    "peek_unused": (_check_peek, _apply_peek),
    "deal_character": (_check_deal_character, _apply_deal_character),
    "first_brains": (_check_first_brains, _apply_first_brains),
    "deal": (_check_deal, _apply_deal),
    "gain_character": (_check_gain, _apply_gain),
}
THEN = {"start_game": start_game}

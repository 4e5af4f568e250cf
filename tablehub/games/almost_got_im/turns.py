"""A player's turn: take a card, maybe use a Character ability, draw/discard to five.

Stages of ``state.stage`` within the ``turn`` phase:

* ``take``: ``draw`` (top of the deck, a chance move follows) or ``take`` a discard top;
* ``act``: the optional once-per-game ``ability`` (Clayface's gained ability too), then a
  ``discard`` (down to five) or ``end_turn`` (at five, or fewer: the engine then deals
  from the deck up to five);
* ``adjust``: ``discard`` one card at a time until five; the turn then ends by itself;
* ability follow-ups: ``ras`` (Ra's al Ghul takes a card), ``jokers`` (each other player
  shows their Jokers to The Joker), ``harley_in``/``harley_out`` (Harley Quinn's swaps).

Whether the ``act`` stage is offered depends only on public facts (an unused ability, not
Subdued), never on the hand, so the hub and the simulator agree on whose move it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tablehub.games.almost_got_im import council
from tablehub.games.almost_got_im.cards import (
    RANK_NAMES,
    RANK_OF,
    RANKS,
    SUIT_NAMES,
    SUITS,
    UNKNOWN,
    describe,
    is_joker,
)
from tablehub.games.base import DEALER, PUBLIC, Move

if TYPE_CHECKING:
    from tablehub.games.almost_got_im.rules import Character
    from tablehub.games.almost_got_im.state import AgiState


# ----------------------------------------------------------------- flow
def normalize(state: AgiState) -> None:
    """After a turn move: skip an empty ``act`` stage, draw up to five, or end the turn."""
    if state.phase != "turn" or state.stage not in ("act", "adjust"):
        return
    seat = state.turn
    if state.stage == "act" and not state.usable_powers(seat):
        state.stage = "adjust"
    if state.stage == "act":
        return
    held = len(state.hands[seat])
    size = state.rules.hand_size
    if held > size:
        return
    if held < size:
        if state.deck_count == 0:
            state.refill()
        if state.deck_count > 0:
            state.deal("hand", seat, size - held)
            state.then = "turn"
            return
    end_turn(state)


def end_turn(state: AgiState) -> None:
    if state.deck_count < state.rules.refill_below:
        state.refill()
    state.turn_no += 1
    if state.turn_no == state.n:
        council.after_turns(state)
        return
    state.turn = (state.brains + state.turn_no) % state.n
    state.stage = "take"


# ----------------------------------------------------------------- legal moves
def legal(state: AgiState) -> list[Move]:
    seat = state.turn
    stage = state.stage
    hand = state.hands[seat]
    if stage == "take":
        moves: list[Move] = [{"kind": "draw", "player": seat}]
        moves += [
            {"kind": "take", "player": seat, "pile": i} for i, p in enumerate(state.piles) if p
        ]
        return moves
    if stage in ("act", "adjust"):
        moves = []
        size = state.rules.hand_size
        if stage == "act":
            moves += _ability_moves(state, seat)
            if len(hand) <= size:
                moves.append({"kind": "end_turn", "player": seat})
        if len(hand) > size:
            piles = state.legal_piles()
            moves += [
                {"kind": "discard", "player": seat, "card": c, "pile": k}
                for c in hand
                if c != UNKNOWN
                for k in piles
            ]
        return moves
    if stage == "ras":
        return [
            {"kind": "ras_take", "player": seat, "pile": k, "card": c}
            for k, pile in enumerate(state.piles)
            for c in pile
            if c != UNKNOWN
        ]
    if stage == "jokers":
        shower = state.queue[0]
        held = state.hands[shower]
        if UNKNOWN in held:
            return []  # the hub cannot know: it supplies what it sees
        return [
            {"kind": "reveal_jokers", "player": shower, "cards": [c for c in held if is_joker(c)]}
        ]
    if stage == "harley_in":
        giver = state.queue[0]
        return [
            {"kind": "give", "player": giver, "card": c} for c in state.hands[giver] if c != UNKNOWN
        ]
    # harley_out
    return [
        {"kind": "give", "player": seat, "to": state.queue[0], "card": c}
        for c in hand
        if c != UNKNOWN
    ]


def _triggers(state: AgiState, seat: int, character: Character) -> list[str]:
    return [
        c
        for c in state.hands[seat]
        if c != UNKNOWN and (RANK_OF[c] in character.trigger or RANK_OF[c] == 0)
    ]


def _ability_moves(state: AgiState, seat: int) -> list[Move]:
    moves: list[Move] = []
    piles = state.legal_piles()
    for key in state.usable_powers(seat):
        character = state.rules.characters[key]
        cards = _triggers(state, seat, character)
        if not cards:
            continue
        for extra in _params(state, seat, character.effect):
            for card in cards:
                for pile in piles:
                    moves.append(
                        {
                            "kind": "ability",
                            "player": seat,
                            "character": key,
                            "card": card,
                            "pile": pile,
                            **extra,
                        }
                    )
    return moves


def _params(state: AgiState, seat: int, effect: str) -> list[dict[str, Any]]:
    if effect == "deny_role":
        return [{"target": t} for t in range(state.n) if t != seat]
    if effect == "ask_rank":
        return [{"rank": r} for r in RANKS]
    if effect == "ask_suit":
        return [{"suit": s} for s in SUITS]
    return [{}]


# ----------------------------------------------------------------- take a card
def _check_stage(state: AgiState, stages: tuple[str, ...], what: str) -> str | None:
    if state.phase != "turn" or state.stage not in stages:
        return f"{what} is not possible now"
    return None


def _pile_index(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 3:
        return value
    return None


def check_draw(state: AgiState, move: Move) -> str | None:
    return _check_stage(state, ("take",), "drawing from the deck as your take")


def apply_draw(state: AgiState, move: Move) -> None:
    seat = state.turn
    state.emit("drew", PUBLIC, player=seat)
    state.deal("hand", seat)
    state.stage = "act"
    state.then = "turn"


def check_take(state: AgiState, move: Move) -> str | None:
    problem = _check_stage(state, ("take",), "taking a discard")
    if problem:
        return problem
    pile = _pile_index(move.get("pile"))
    if pile is None:
        return "pile must be 0, 1 or 2"
    if not state.piles[pile]:
        return f"discard pile {pile + 1} is empty"
    return None


def apply_take(state: AgiState, move: Move) -> None:
    seat, index = state.turn, move["pile"]
    pile = state.piles[index]
    card = pile.pop()
    state.hands[seat].append(card)
    state.public[seat].append(card)
    state.emit("took", PUBLIC, player=seat, pile=index, card=card)
    _reveal_top_if_unknown(state, index)
    state.stage = "act"
    state.then = "turn"


def _reveal_top_if_unknown(state: AgiState, index: int) -> None:
    pile = state.piles[index]
    if pile and pile[-1] == UNKNOWN:
        state.pending.insert(0, ["top", index])


# ----------------------------------------------------------------- discard / end
def check_discard(state: AgiState, move: Move) -> str | None:
    problem = _check_stage(state, ("act", "adjust"), "discarding")
    if problem:
        return problem
    seat = state.turn
    if len(state.hands[seat]) <= state.rules.hand_size:
        return f"{state.name(seat)} holds {len(state.hands[seat])} cards: no discard is needed"
    return _card_and_pile(state, seat, move)


def _card_and_pile(state: AgiState, seat: int, move: Move) -> str | None:
    problem = state.hand_card_problem(seat, move.get("card"))
    if problem:
        return problem
    pile = _pile_index(move.get("pile"))
    if pile is None:
        return "pile must be 0, 1 or 2"
    if pile not in state.legal_piles():
        return "discard into an empty slot while there are fewer than three piles"
    return None


def apply_discard(state: AgiState, move: Move) -> None:
    seat, card, pile = state.turn, move["card"], move["pile"]
    state.take_from_hand(seat, card)
    state.piles[pile].append(card)
    state.emit("discarded", PUBLIC, player=seat, card=card, pile=pile)
    state.stage = "adjust"
    state.then = "turn"


def check_end_turn(state: AgiState, move: Move) -> str | None:
    problem = _check_stage(state, ("act",), "ending the turn")
    if problem:
        return problem
    held = len(state.hands[state.turn])
    if held > state.rules.hand_size:
        return f"discard down to five first ({held} cards in hand)"
    return None


def apply_end_turn(state: AgiState, move: Move) -> None:
    state.stage = "adjust"
    state.then = "turn"


# ----------------------------------------------------------------- Character abilities
def check_ability(state: AgiState, move: Move) -> str | None:
    problem = _check_stage(state, ("act",), "using a Character ability (after taking a card)")
    if problem:
        return problem
    seat = state.turn
    key = move.get("character")
    if not isinstance(key, str) or key not in state.powers[seat]:
        return f"{state.name(seat)} has no ability called {key!r}"
    if state.subdued[seat]:
        return "a Subdued player has lost their Character ability"
    if key in state.spent[seat]:
        return f"{state.rules.characters[key].name}'s ability is used (once per game)"
    character = state.rules.characters[key]
    problem = _card_and_pile(state, seat, move)
    if problem:
        return problem
    card = move["card"]
    if RANK_OF[card] not in character.trigger and not is_joker(card):
        ranks = " or ".join(sorted(RANK_NAMES[RANKS[r - 2]] for r in character.trigger))
        return f"{character.name}'s ability needs a {ranks} (or a Joker), not {describe(card)}"
    effect = character.effect
    if effect == "deny_role":
        target = move.get("target")
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < state.n:
            return f"target must be a seat 0..{state.n - 1}"
        if target == seat:
            return "choose another player"
    # The rank or suit may be left out: named out loud at the table (the hub hears none).
    if effect == "ask_rank" and "rank" in move and move["rank"] not in RANKS:
        return "name a rank: 2..10, j, q, k or a (not Joker)"
    if effect == "ask_suit" and "suit" in move and move["suit"] not in SUITS:
        return f"name a suit: {', '.join(SUITS)}"
    return None


def apply_ability(state: AgiState, move: Move) -> None:
    seat, key, card, pile = state.turn, move["character"], move["card"], move["pile"]
    character = state.rules.characters[key]
    state.take_from_hand(seat, card)
    state.piles[pile].append(card)
    state.spent[seat].append(key)
    details = {k: move[k] for k in ("target", "rank", "suit") if k in move}
    state.emit(
        "ability",
        PUBLIC,
        player=seat,
        character=key,
        card=card,
        pile=pile,
        effect=character.effect,
        **details,
    )
    state.stage = "act"
    state.then = "turn"
    effect = character.effect
    if effect == "draw":
        state.deal("hand", seat, character.count)
    elif effect == "skip_blackout":
        state.freeze = True
    elif effect == "protect_self":
        state.bane.append(seat)
    elif effect == "deny_role":
        state.denied_next.append(details["target"])
    elif effect == "ask_rank" and "rank" in details:
        rank = RANK_NAMES[details["rank"]]
        state.emit("question", PUBLIC, player=seat, rank=details["rank"], text=f"How many {rank}s?")
    elif effect == "ask_suit" and "suit" in details:
        suit = SUIT_NAMES[details["suit"]]
        state.emit("question", PUBLIC, player=seat, suit=details["suit"], text=f"How many {suit}?")
    elif effect == "gain_character":
        state.deal("gain", seat)
    elif effect == "reveal_jokers":
        state.stage = "jokers"
        state.queue = state.clockwise(seat)[1:]
    elif effect == "no_vote":
        state.no_vote = True
    elif effect == "take_discard":
        state.stage = "ras"
    elif effect == "harley":
        state.stage = "harley_in"
        state.queue = state.clockwise(seat)[1:]


# ----------------------------------------------------------------- ability follow-ups
def ras_piles(state: AgiState, move: Move) -> list[int] | str:
    """The piles a ``ras_take`` may have come from: its ``pile``, or those of its candidate
    ``piles`` that fit the card (a named card: the pile holding it; ``unknown``, a card
    from under a top: the piles with a card under their top).  Words if the move is bad.

    The camera sees Ra's al Ghul lift piles and put them back but not which one a card came
    from under, so the referee may name every pile he lifted; the engine keeps those that
    fit.  More than one left is for the table to settle (``check_ras_take`` says so)."""
    if "piles" in move and "pile" not in move:
        given = move["piles"]
        if not isinstance(given, list) or not given:
            return "piles must be a non-empty list of 0, 1 and 2"
        indices = [_pile_index(k) for k in given]
        if None in indices or len(set(indices)) != len(indices):
            return "piles must be a non-empty list of different piles 0, 1 and 2"
        candidates = [k for k in indices if k is not None]
    else:
        index = _pile_index(move.get("pile"))
        if index is None:
            return "pile must be 0, 1 or 2"
        candidates = [index]
    card = move.get("card")
    if card == UNKNOWN:
        fits = [k for k in candidates if len(state.piles[k]) > 1]
    elif isinstance(card, str):
        fits = [k for k in candidates if card in state.piles[k]]
    else:
        return f"{card!r} is not a card"
    if fits:
        return fits
    k = candidates[0]
    if len(candidates) > 1:
        named = "a card from under a top" if card == UNKNOWN else repr(card)
        return f"none of discard piles {pile_list(candidates)} can give {named}"
    if not state.piles[k]:
        return f"discard pile {k + 1} is empty"
    if card == UNKNOWN:
        return "the only card of that pile is its top: name it"
    return f"{card!r} is not a card of discard pile {k + 1}"


def pile_list(piles: list[int]) -> str:
    """[0, 2] -> "1 or 3" (piles as the table numbers them)."""
    numbers = [str(k + 1) for k in piles]
    return ", ".join(numbers[:-1]) + f" or {numbers[-1]}" if len(numbers) > 1 else numbers[0]


def check_ras_take(state: AgiState, move: Move) -> str | None:
    problem = _check_stage(state, ("ras",), "taking a card from the discard piles")
    if problem:
        return problem
    piles = ras_piles(state, move)
    if isinstance(piles, str):
        return piles
    if len(piles) > 1:
        return f"ambiguous: Ra's al Ghul may have taken it from discard pile {pile_list(piles)}"
    return None


def apply_ras_take(state: AgiState, move: Move) -> None:
    piles = ras_piles(state, move)
    assert isinstance(piles, list)
    seat, index, card = state.turn, piles[0], move["card"]
    pile = state.piles[index]
    if card == UNKNOWN:  # from under the top, unseen by the hub
        under = pile[:-1]
        state.unseen.extend(c for c in under if c != UNKNOWN)
        pile[:-1] = [UNKNOWN] * (len(under) - 1)
        state.hands[seat].append(UNKNOWN)
        state.emit("ras_took", PUBLIC, player=seat, pile=index, card=None)
    else:
        was_top = pile[-1] == card
        pile.remove(card)
        state.hands[seat].append(card)
        if was_top:
            state.public[seat].append(card)
        state.emit("ras_took", PUBLIC, player=seat, pile=index, card=card if was_top else None)
        state.emit("ras_took_card", DEALER, player=seat, pile=index, card=card)
        if was_top:
            _reveal_top_if_unknown(state, index)
    state.stage = "act"
    state.then = "turn"


def check_reveal_jokers(state: AgiState, move: Move) -> str | None:
    problem = _check_stage(state, ("jokers",), "showing Jokers")
    if problem:
        return problem
    shower = state.queue[0]
    cards = move.get("cards")
    if not isinstance(cards, list) or len(set(map(str, cards))) != len(cards):
        return "cards must be a list of different Joker card ids"
    hand = state.hands[shower]
    for card in cards:
        if not isinstance(card, str) or not is_joker(card):
            return f"{card!r} is not a Joker: only Jokers are shown"
        problem = state.hand_card_problem(shower, card)
        if problem:
            return problem
    missing = [c for c in hand if is_joker(c) and c not in cards]
    if missing:
        return f"{state.name(shower)} holds {describe(missing[0])} and must show it"
    if sum(1 for c in cards if c not in hand) > hand.count(UNKNOWN):
        return "more Jokers shown than unseen cards in that hand"
    return None


def apply_reveal_jokers(state: AgiState, move: Move) -> None:
    shower = state.queue.pop(0)
    hand = state.hands[shower]
    for card in move["cards"]:
        if card not in hand:
            hand.remove(UNKNOWN)
            hand.append(card)
            state.unseen.remove(card)
        if card not in state.public[shower]:
            state.public[shower].append(card)
    state.emit("jokers_shown", PUBLIC, player=shower, cards=list(move["cards"]))
    if not state.queue:
        state.stage = "act"
        state.then = "turn"


def check_give(state: AgiState, move: Move) -> str | None:
    problem = _check_stage(state, ("harley_in", "harley_out"), "handing Harley Quinn a card")
    if problem:
        return problem
    if state.stage == "harley_out":
        giver = state.turn
        if move.get("to") != state.queue[0]:
            return f"Harley Quinn's next card goes to {state.name(state.queue[0])}"
    else:
        giver = state.queue[0]
        if "to" in move:
            return "this card goes to Harley Quinn: leave out 'to'"
    card = move.get("card")
    if card == UNKNOWN:
        return None if state.hands[giver] else f"{state.name(giver)} has no card to give"
    return state.hand_card_problem(giver, card)


def apply_give(state: AgiState, move: Move) -> None:
    if state.stage == "harley_out":
        giver, receiver = state.turn, state.queue.pop(0)
    else:
        giver, receiver = state.queue.pop(0), state.turn
    card = move["card"]
    if card == UNKNOWN:
        state.forget_hand(giver)
        state.hands[giver].remove(UNKNOWN)
    else:
        state.take_from_hand(giver, card)
        state.emit("received", receiver, card=card, giver=giver)
    state.hands[receiver].append(card)
    state.public[giver] = []  # nobody saw which card went
    state.emit("gave", PUBLIC, player=giver, to=receiver)
    if state.queue:
        return
    if state.stage == "harley_in":
        state.stage = "harley_out"
        state.queue = state.clockwise(state.turn)[1:]
    else:
        state.stage = "act"
        state.then = "turn"


MOVES = {
    "draw": (check_draw, apply_draw),
    "take": (check_take, apply_take),
    "discard": (check_discard, apply_discard),
    "end_turn": (check_end_turn, apply_end_turn),
    "ability": (check_ability, apply_ability),
    "ras_take": (check_ras_take, apply_ras_take),
    "reveal_jokers": (check_reveal_jokers, apply_reveal_jokers),
    "give": (check_give, apply_give),
}
THEN = {"turn": normalize}

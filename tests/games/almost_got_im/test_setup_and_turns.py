"""Set-up and turns, from the rulebook's statements."""

from __future__ import annotations

import random

import pytest

from tablehub.games.almost_got_im import GAME
from tablehub.games.almost_got_im.state import AgiState
from tablehub.games.base import CHANCE, IllegalMove
from tests.games.almost_got_im.table import cards, deal_chance, new_game, quiet_turn, quiet_turns


def _random_setup(players: int, seed: int) -> AgiState:
    rng = random.Random(seed)
    state = GAME.new_initial_state(players)
    while state.phase == "setup":
        state.apply(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_setup_deals_batman_plus_random_roles_and_keeps_the_rest_aside(players: int) -> None:
    # "in a 5-player game, one of the cards will be Batman in Disguise, and there will be
    # four other random Secret Role Cards on top of it."
    in_game = 7 + (players >= 6) + (players >= 7)
    seen_roles: set[str] = set()
    for seed in range(60):
        state = _random_setup(players, seed)
        assert state.roles.count("batman") == 1
        assert len(set(state.roles)) == players
        assert len(state.unused) == in_game - players
        assert set(state.unused).isdisjoint(state.roles)
        seen_roles.update(state.roles)
        assert ("healer" in seen_roles | set(state.unused)) == (players >= 6)
        assert ("homicidal" in seen_roles | set(state.unused)) == (players == 7)
        assert all(len(hand) == 5 for hand in state.hands)
        assert state.deck_count == 54 - 5 * players == len(state.unseen)
        assert len(set(state.characters)) == players
        assert state.phase == "turn" and state.round == 1 and state.turn == state.brains
    assert "batman" in seen_roles and "catwoman" in seen_roles


def test_box_cards_do_not_exist_for_the_game() -> None:
    state = AgiState(5)
    state.apply({"kind": "batman_seat", "player": CHANCE, "seat": 2})
    pool = {m["role"] for m in state.legal_moves()}
    assert pool == {"catwoman", "crafty", "saboteur", "sneaky", "telepathic", "watchful"}
    reason = state.check({"kind": "deal_role", "player": CHANCE, "seat": 0, "role": "healer"})
    assert reason is not None and "box" in reason
    reason = state.check({"kind": "deal_role", "player": CHANCE, "seat": 0, "role": "batman"})
    assert reason is not None and "already" in reason


def test_batman_looks_at_an_unused_role_privately() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"])
    peeks = [e for e in state.private[1] if e["kind"] == "unused_role"]
    assert len(peeks) == 1 and peeks[0]["role"] in state.unused
    assert not any(state.private[s] for s in (0, 2, 3, 4))
    assert state.player_view(1)["private"][0]["role"] == state.peeked
    assert "peeked" not in state.public_view()


def test_turns_go_clockwise_from_the_brains() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"], brains=3)
    order = []
    while state.phase == "turn":
        order.append(state.turn)
        quiet_turn(state)
    assert order == [3, 4, 0, 1, 2]


def test_take_a_discard_top_then_discard_to_five_one_at_a_time() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"])
    # Seat 0 draws and discards into the first empty slot.
    quiet_turn(state)
    top = state.piles[0][-1]
    # Seat 1 takes that top card: everyone saw it, so it is publicly in seat 1's hand.
    state.apply({"kind": "take", "player": 1, "pile": 0})
    assert top in state.hands[1] and state.public_view()["seats"][1]["known_cards"] == [top]
    assert state.public_view()["discard_tops"][0] is None
    # The take left no pile: a discard must start a new pile in an empty slot.
    assert state.legal_piles() == [0, 1, 2]
    state.apply({"kind": "discard", "player": 1, "card": state.hands[1][0], "pile": 2})
    assert state.turn == 2 and len(state.hands[1]) == 5


def test_discard_into_an_empty_slot_while_fewer_than_three_piles() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"])
    quiet_turn(state)  # pile 0 now has a card
    state.apply({"kind": "draw", "player": 1})
    deal_chance(state)
    card = state.hands[1][0]
    reason = state.check({"kind": "discard", "player": 1, "card": card, "pile": 0})
    assert reason == "discard into an empty slot while there are fewer than three piles"
    state.apply({"kind": "discard", "player": 1, "card": card, "pile": 1})
    quiet_turn(state)  # the third pile
    assert all(state.piles)
    state.apply({"kind": "draw", "player": 3})
    deal_chance(state)
    move = {"kind": "discard", "player": 3, "card": state.hands[3][0], "pile": 0}
    assert state.check(move) is None


def test_a_player_may_discard_the_card_just_taken() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"])
    before = list(state.hands[0])
    quiet_turn(state)
    assert state.hands[0] == before


def test_hand_of_five_rule_and_wrong_moves_are_refused() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"])
    reason = state.check({"kind": "draw", "player": 1})
    assert reason == "it is The Riddler's move, not The Scarecrow's"
    assert state.check({"kind": "take", "player": 0, "pile": 0}) == "discard pile 1 is empty"
    assert state.check({"kind": "end_turn", "player": 0}) == "ending the turn is not possible now"
    state.apply({"kind": "draw", "player": 0})
    deal_chance(state)
    assert len(state.hands[0]) == 6
    reason = state.check({"kind": "end_turn", "player": 0})
    assert reason == "discard down to five first (6 cards in hand)"
    not_mine = state.hands[1][0]
    reason = state.check({"kind": "discard", "player": 0, "card": not_mine, "pile": 0})
    assert reason is not None and "not in The Riddler's hand" in reason
    before = state.to_json()
    with pytest.raises(IllegalMove):
        state.apply({"kind": "discard", "player": 0, "card": not_mine, "pile": 0})
    assert state.to_json() == before


def test_deck_refills_when_it_has_fewer_than_15_cards() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"])
    # 54 - 25 = 29 in the deck.  Fifteen quiet turns bury 15 cards under the tops.
    refills = []
    while state.round < 4:
        if state.phase == "turn":
            refills += [e for e in quiet_turn(state) if e.get("key") == "refill"]
        elif state.phase == "accuse":
            state.apply({"kind": "no_accusation", "player": state.brains})
        else:
            while state.phase == "blackout":
                state.apply({"kind": "pass", "player": state.current_player()})
    assert refills, "the deck should have been refilled"
    assert refills[0]["text"] == (
        "Shuffle all but the top card of each discard pile back into the deck."
    )
    assert all(len(pile) <= 3 for pile in state.piles)
    assert state.deck_count >= 14
    assert state.deck_count + sum(map(len, state.hands)) + sum(map(len, state.piles)) == 54


def test_blackout_refills_below_three_cards_per_player() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic", "healer", "saboteur"])
    while state.turn_no < 6:
        quiet_turn(state)
    # 19 cards are outside the hands: put 2 on discard pile 1 and 17 in the deck.  The
    # last turn's draw leaves 16, not below 15, but below 3 x 7 = 21 at the Blackout.
    outside = [c for pile in state.piles for c in pile] + state.unseen
    state.piles = [outside[:2], [], []]
    state.unseen = outside[2:]
    state.deck_count = len(state.unseen)
    assert state.deck_count == 17
    events = quiet_turn(state)
    assert state.phase == "blackout"
    assert [e["key"] for e in events if e["kind"] == "say"][:2] == ["refill", "close_eyes"]
    assert len(state.piles[0]) == 1 and state.deck_count == 17
    assert state.public_view()["deck_count"] == state.deck_count


def test_brains_passes_left_each_round() -> None:
    state = new_game(["watchful", "batman", "crafty", "sneaky", "telepathic"], brains=4)
    quiet_turns(state)
    while state.phase == "blackout":
        state.apply({"kind": "pass", "player": state.current_player()})
    assert state.round == 2 and state.brains == 0 and state.turn == 0


def test_public_and_player_views_keep_roles_and_hands_secret() -> None:
    state = new_game(
        ["watchful", "batman", "crafty", "sneaky", "telepathic"],
        hands={1: cards("6b 6h qd qr 2b")},
    )
    public = state.public_view()
    text = repr(public)
    assert "batman" not in text and "agi:bats-6" not in text
    assert public["seats"][1]["hand_count"] == 5
    mine = state.player_view(1)
    assert mine["role"] == "batman" and "agi:bats-6" in mine["hand"]
    theirs = state.player_view(0)
    assert theirs["role"] == "watchful" and "agi:bats-6" not in repr(theirs)
    assert state.dealer_view()["dealer"]["roles"][1] == "batman"


def test_bad_options_and_player_counts_are_refused() -> None:
    for players in (3, 8, "5", True):
        with pytest.raises(ValueError, match="4 to 7 players"):
            AgiState(players)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown option"):
        AgiState(5, {"turbo": True})
    with pytest.raises(ValueError, match="advanced"):
        AgiState(5, {"advanced": "yes"})
    with pytest.raises(ValueError, match="max_rounds"):
        AgiState(5, {"max_rounds": -1})
    with pytest.raises(ValueError, match="not a saved Almost Got 'Im state"):
        AgiState.from_json({"game": "chess"})
    with pytest.raises(ValueError, match="damaged"):
        AgiState.from_json({"game": "almost-got-im", "n": 5})


def test_setup_refuses_booleans_for_seats() -> None:
    state = AgiState(5)
    state.apply({"kind": "batman_seat", "player": CHANCE, "seat": 0})
    assert state.setup_seat == 1
    reason = state.check({"kind": "deal_role", "player": CHANCE, "seat": True, "role": "crafty"})
    assert reason == "the next role goes to seat 1"

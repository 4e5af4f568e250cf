"""Character once-per-game abilities (effects as far as the rulebook gives them; trigger
ranks and counts from data.toml)."""

from __future__ import annotations

from typing import Any

import pytest

from tablehub.games.almost_got_im.cards import JOKERS, UNKNOWN
from tablehub.games.almost_got_im.state import AgiState
from tablehub.games.base import PUBLIC
from tests.games.almost_got_im.table import (
    blackout,
    cards,
    deal_chance,
    new_game,
    quiet_turn,
    quiet_turns,
    said,
)

FIVE = ["watchful", "batman", "crafty", "catwoman", "telepathic"]


def game(first: str, hand: str = "2b 3h 4d 5r 6b", others: tuple[str, ...] = ()) -> AgiState:
    """Seat 0 (the Brains) is ``first``; its hand holds every low trigger rank."""
    characters = [first, *others]
    pool = ["bane", "riddler", "penguin", "poison-ivy", "killer-croc", "mr-freeze", "joker"]
    characters += [c for c in pool if c not in characters][: 5 - len(characters)]
    return new_game(FIVE, characters=characters, hands={0: cards(hand)})


def take_card(state: AgiState, card: str | None = None) -> None:
    """The player whose turn it is draws ``card`` (default: some unseen card) from the deck."""
    state.apply({"kind": "draw", "player": state.turn})
    deal_chance(state, card or state.unseen[-1])


def use(state: AgiState, character: str, card: str, **extra: Any) -> list[dict[str, Any]]:
    seat = state.turn
    move = {"kind": "ability", "player": seat, "character": character, "card": card}
    move |= {"pile": state.legal_piles()[0], **extra}
    return state.apply(move)


def finish_turn(state: AgiState, seat: int = 0) -> None:
    """Discard down to five (or end the turn) until ``seat``'s turn is over."""
    while state.phase == "turn" and state.turn == seat and state.stage in ("act", "adjust"):
        hand = state.hands[seat]
        if len(hand) > 5:
            state.apply(
                {
                    "kind": "discard",
                    "player": seat,
                    "card": hand[-1],
                    "pile": state.legal_piles()[0],
                }
            )
        else:
            state.apply({"kind": "end_turn", "player": seat})
        deal_chance(state)


def test_ability_needs_its_trigger_rank_or_a_joker_and_is_once_per_game() -> None:
    state = game("two-face")
    take_card(state)
    reason = state.check(
        {"kind": "ability", "player": 0, "character": "two-face", "card": cards("3h")[0], "pile": 0}
    )
    assert reason == "Two-Face's ability needs a 2 (or a Joker), not 3 of Harley-Hearts"
    assert use(state, "two-face", cards("2b")[0])[0]["kind"] == "ability"
    assert state.public_view()["seats"][0]["ability_used"] is True
    assert state.usable_powers(0) == []
    # Jokers are wild for a trigger too.
    state = game("two-face", hand="3b 3h 4d 5r 6b")
    take_card(state, JOKERS[0])
    assert (
        state.check(
            {"kind": "ability", "player": 0, "character": "two-face", "card": JOKERS[0], "pile": 0}
        )
        is None
    )


def test_ability_only_after_taking_a_card_and_before_discarding() -> None:
    state = game("two-face")
    move = {"kind": "ability", "player": 0, "character": "two-face", "card": cards("2b")[0]}
    move["pile"] = 0
    assert state.check(move) is not None  # before taking a card
    take_card(state)
    state.apply({"kind": "discard", "player": 0, "card": state.hands[0][-1], "pile": 0})
    assert state.phase == "turn" and state.turn == 1  # the turn ended at five cards


@pytest.mark.parametrize(
    ("character", "trigger", "count"),
    [
        ("two-face", "2b", 2),
        ("penguin", "9b", 3),
        ("killer-croc", "6b", 5),
    ],
)
def test_drawing_abilities_draw_from_the_deck(character: str, trigger: str, count: int) -> None:
    state = game(character, hand="2b 3h 4d 9r 6b".replace("9r", "9b" if trigger == "9b" else "9r"))
    take_card(state)
    deck = state.deck_count
    events = use(state, character, cards(trigger)[0])
    deal_chance(state)
    assert len(state.hands[0]) == 5 + count and state.deck_count == deck - count
    assert sum(e["kind"] == "drew_card" for e in events) == 0  # draws are chance moves
    finish_turn(state)
    assert len(state.hands[0]) == 5 and state.turn == 1


def test_mr_freeze_skips_the_blackout_after_the_vote() -> None:
    state = game("mr-freeze")
    take_card(state)
    use(state, "mr-freeze", cards("3h")[0])
    assert state.public_view()["skip_blackout"] is True
    finish_turn(state)
    events = []
    while state.round == 1:
        events += quiet_turn(state)
    assert state.phase == "turn" and state.round == 2 and state.brains == 1
    assert "Everyone close your eyes." not in said(events)
    assert any(e["kind"] == "blackout_skipped" for e in events)


def test_bane_is_protected_in_this_rounds_blackout() -> None:
    state = new_game(
        FIVE,
        characters=["riddler", "scarecrow", "bane", "penguin", "joker"],
        hands={1: cards("6b 6h qd qr 2b"), 2: cards("4b 3h 5d 7r 9b")},
    )
    quiet_turn(state)
    take_card(state)
    state.apply({"kind": "discard", "player": 1, "card": state.hands[1][-1], "pile": 1})
    take_card(state)
    use(state, "bane", cards("4b")[0])
    finish_turn(state, 2)
    assert state.public_view()["protected"] == [2]
    quiet_turns(state)
    events = blackout(state, {1: 2})
    assert "No one was Subdued." in said(events) and not state.subdued[2]
    assert state.public_view()["protected"] == []  # only this round


def test_scarecrow_denies_a_secret_role_in_the_next_blackout() -> None:
    state = new_game(
        FIVE,
        characters=["scarecrow", "riddler", "bane", "penguin", "joker"],
        hands={0: cards("5b 3h 4d 7r 9b"), 1: cards("6b 6h qd qr 2b")},
    )
    take_card(state)
    use(state, "scarecrow", cards("5b")[0], target=1)
    assert state.public_view()["denied"] == [1]
    finish_turn(state)
    quiet_turns(state)
    while state.current_player() != 1:
        state.apply({"kind": "pass", "player": state.current_player()})
    assert state.legal_moves() == [{"kind": "pass", "player": 1}]
    reason = state.check({"kind": "activate", "player": 1, "target": 2})
    assert reason == "The Scarecrow denied this player's Secret Role for this Blackout"


def test_riddler_and_ventriloquist_questions_are_recorded_as_table_talk() -> None:
    state = game("riddler", hand="7b 3h 4d 5r 6b")
    take_card(state)
    card = cards("7b")[0]
    bad = {"kind": "ability", "player": 0, "character": "riddler", "card": card, "pile": 0}
    assert state.check({**bad, "rank": "joker"}) == "name a rank: 2..10, j, q, k or a (not Joker)"
    events = use(state, "riddler", card, rank="q")
    question = [e for e in events if e["kind"] == "question"]
    assert question == [
        {
            "kind": "question",
            "audience": PUBLIC,
            "player": 0,
            "rank": "q",
            "text": "How many Queens?",
        }
    ]
    state = game("ventriloquist-scarface", hand="10b 3h 4d 5r 6b")
    take_card(state)
    events = use(state, "ventriloquist-scarface", cards("10b")[0], suit="riddles")
    assert [e["text"] for e in events if e["kind"] == "question"] == ["How many Riddles?"]


def test_the_question_may_be_named_out_loud_instead() -> None:
    """The hub hears no table talk: without a rank (or suit) the ability still counts."""
    state = game("riddler", hand="7b 3h 4d 5r 6b")
    take_card(state)
    events = use(state, "riddler", cards("7b")[0])
    assert [e["kind"] for e in events if e["kind"] in ("ability", "question")] == ["ability"]
    assert state.spent[0] == ["riddler"]


def test_clayface_gains_an_unused_character_and_may_use_it_now() -> None:
    state = game("clayface", hand="8b 2h 4d 5r 6b")
    take_card(state)
    use(state, "clayface", cards("8b")[0])
    assert state.current_player() == -1
    options = {m["character"] for m in state.legal_moves()}
    assert "two-face" in options and not options & set(state.characters)
    state.apply({"kind": "gain_character", "player": -1, "character": "two-face"})
    assert state.powers[0] == ["clayface", "two-face"]
    assert state.public_view()["seats"][0]["abilities"] == [["clayface", True], ["two-face", False]]
    use(state, "two-face", cards("2h")[0])  # now, in the same turn
    deal_chance(state)
    assert len(state.hands[0]) == 6


def test_the_joker_makes_everyone_show_their_jokers() -> None:
    state = new_game(
        FIVE,
        characters=["joker", "riddler", "bane", "penguin", "scarecrow"],
        hands={0: cards("jb 3h 4d 5r 6b"), 2: cards("J1 3b 4h 5d 6r")},
    )
    take_card(state)
    use(state, "joker", cards("jb")[0])
    assert state.current_player() == 1
    state.apply({"kind": "reveal_jokers", "player": 1, "cards": []})
    assert state.check({"kind": "reveal_jokers", "player": 2, "cards": []}) == (
        "Bane holds Joker and must show it"
    )
    events = state.apply({"kind": "reveal_jokers", "player": 2, "cards": [JOKERS[0]]})
    assert events[0]["audience"] == PUBLIC
    assert state.public_view()["seats"][2]["known_cards"] == [JOKERS[0]]
    for seat in (3, 4):
        state.apply({"kind": "reveal_jokers", "player": seat, "cards": []})
    assert state.turn == 1  # The Joker's hand was back at five: the turn is over


def test_poison_ivy_no_accusing_or_voting_this_round() -> None:
    state = game("poison-ivy", hand="qb 3h 4d 5r 6b")
    quiet_turns(state)
    blackout(state)
    assert state.brains == 1
    quiet_turn(state)  # seat 1
    quiet_turn(state)
    quiet_turn(state)
    quiet_turn(state)
    take_card(state)  # seat 0, last in round 2
    use(state, "poison-ivy", cards("qb")[0])
    finish_turn(state)
    assert state.phase == "blackout"  # no accusation this round
    blackout(state)
    quiet_turns(state)
    assert state.phase == "accuse"  # back next round


def test_ras_al_ghul_takes_any_card_from_the_discard_piles() -> None:
    state = game("ras-al-ghul", hand="kb 3h 4d 5r 6b")
    low, mid, top = state.unseen[:3]  # three deck cards, laid out as discard piles
    state.piles = [[low, mid], [top], []]
    del state.unseen[:3]
    state.deck_count -= 3
    take_card(state)
    use(state, "ras-al-ghul", cards("kb")[0])  # onto the empty third pile
    assert {(m["pile"], m["card"]) for m in state.legal_moves()} == {
        (0, low),
        (0, mid),
        (1, top),
        (2, cards("kb")[0]),
    }
    events = state.apply({"kind": "ras_take", "player": 0, "pile": 0, "card": low})
    assert state.piles[0] == [mid]  # the order of the piles is kept
    took = [e for e in events if e["kind"] == "ras_took"]
    assert took[0]["card"] is None  # nobody saw which card left the middle of a pile
    assert low not in state.public[0] and low in state.hands[0]


def test_harley_quinn_collects_a_card_from_everyone_and_hands_one_back() -> None:
    state = game("harley-quinn", hand="ab 3h 4d 5r 6b")
    take_card(state)
    use(state, "harley-quinn", cards("ab")[0])
    for seat in (1, 2, 3, 4):
        assert state.current_player() == seat
        state.apply({"kind": "give", "player": seat, "card": state.hands[seat][0]})
    assert len(state.hands[0]) == 9
    for seat in (1, 2, 3, 4):
        assert state.legal_moves()[0]["to"] == seat
        card = state.hands[0][-1]
        events = state.apply({"kind": "give", "player": 0, "to": seat, "card": card})
        assert card in state.hands[seat]
        assert [e["audience"] for e in events if e["kind"] == "received"] == [seat]
    assert [len(h) for h in state.hands] == [5] * 5
    assert state.turn == 1


def test_subdued_players_lose_their_character_ability() -> None:
    state = game("two-face")
    state.subdued[0] = True
    take_card(state)
    assert state.usable_powers(0) == []
    move = {"kind": "ability", "player": 0, "character": "two-face", "card": cards("2b")[0]}
    assert state.check({**move, "pile": 0}) is not None
    assert not any(m["kind"] == "ability" for m in state.legal_moves())


def test_partial_information_harley_card_passed_unseen() -> None:
    state = game("harley-quinn", hand="ab 3h 4d 5r 6b")
    take_card(state)
    use(state, "harley-quinn", cards("ab")[0])
    state.apply({"kind": "give", "player": 1, "card": UNKNOWN})
    assert UNKNOWN in state.hands[0] and all(c == UNKNOWN for c in state.hands[1])
    assert len(state.unseen) == state.deck_count + sum(h.count(UNKNOWN) for h in state.hands)


def _ras_ready(piles: list[list[str]]) -> AgiState:
    state = game("ras-al-ghul", hand="kb 3h 4d 5r 6b")
    count = sum(len(p) for p in piles)
    laid = state.unseen[:count]
    state.piles = [laid[: len(piles[0])], laid[len(piles[0]) : count - len(piles[2])], []]
    state.piles[2] = laid[count - len(piles[2]) :]
    del state.unseen[:count]
    state.deck_count -= count
    take_card(state)
    use(state, "ras-al-ghul", cards("kb")[0])  # onto pile 3
    return state


def test_ras_al_ghul_candidate_piles_the_engine_resolves() -> None:
    """The camera saw piles 1 and 2 lifted; only pile 1 has cards under its top."""
    state = _ras_ready([["x", "x", "x"], ["x"], []])
    move = {"kind": "ras_take", "player": 0, "piles": [0, 1], "card": UNKNOWN}
    assert state.check(move) is None
    events = state.apply(move)
    took = [e for e in events if e["kind"] == "ras_took"]
    assert took[0]["pile"] == 0 and len(state.piles[0]) == 2 and len(state.piles[1]) == 1


def test_ras_al_ghul_ambiguous_candidates_are_refused_naming_them() -> None:
    state = _ras_ready([["x", "x"], ["x", "x"], []])
    before = state.to_json()
    move = {"kind": "ras_take", "player": 0, "piles": [0, 1], "card": UNKNOWN}
    assert state.check(move) == "ambiguous: Ra's al Ghul may have taken it from discard pile 1 or 2"
    assert state.to_json() == before
    top = state.piles[1][-1]  # a named card settles it: the pile that holds it
    assert state.check({"kind": "ras_take", "player": 0, "piles": [0, 1], "card": top}) is None
    bad = {"kind": "ras_take", "player": 0, "piles": [0, 0], "card": UNKNOWN}
    assert "different piles" in str(state.check(bad))
    assert "none of discard piles" in str(
        state.check({"kind": "ras_take", "player": 0, "piles": [0, 1], "card": cards("3h")[0]})
    )


def test_the_vote_script_is_not_the_engines_and_mr_freezes_line_is_data() -> None:
    """The Vote's rulebook lines are the referee's to speak (it knows when the defence is
    over); Mr. Freeze's skipped Blackout is announced in the data file's words."""
    from tablehub.games.almost_got_im.rules import default_rules

    state = game("mr-freeze")
    take_card(state)
    use(state, "mr-freeze", cards("3h")[0])
    finish_turn(state)
    events: list[dict[str, Any]] = []
    while state.round == 1:
        events += quiet_turn(state)
    keys = [e["key"] for e in events if e["kind"] == "say"]
    assert "no_blackout" in keys
    assert default_rules().say["no_blackout"] in said(events)
    for script in ("vote_rules", "vote_count", "vote_hold"):
        assert script in default_rules().say  # the words stay in the data file
    state = new_game(FIVE)
    log: list[dict[str, Any]] = []
    rng = __import__("random").Random(3)
    while not state.is_terminal() and state.round < 4:
        log += state.apply(rng.choice(state.legal_moves()))
    assert any(e["kind"] == "seconded" for e in log)
    assert not {"vote_rules", "vote_count", "vote_hold"} & {
        e.get("key") for e in log if e["kind"] == "say"
    }

"""Rules of Chaos in Gotham City, the rulebook's worked examples first."""

from __future__ import annotations

import random

import pytest

from tablehub.games.base import CHANCE, TERMINAL, IllegalMove
from tablehub.games.chaos_in_gotham import GAME
from tablehub.games.chaos_in_gotham.cards import load_card_data
from tablehub.games.chaos_in_gotham.state import HAND_SIZES
from tests.games.chaos_in_gotham.helpers import (
    QUIET4,
    new_round,
    of_kind,
    play,
    reveal_location,
)

PAULA, MARIE, STEFAN, ALEX = 0, 1, 2, 3


# --- the rulebook's examples --------------------------------------------------------------
def test_example_highest_led_colour_wins_other_colours_play_no_role() -> None:
    """Red is trump; Paula leads green 3, Marie green 5, Stefan (no green) yellow 8, Alex
    green 2: Marie wins the trick and the open location card."""
    state = new_round(
        4,
        QUIET4,
        {PAULA: ["green-3"], MARIE: ["green-5"], STEFAN: ["yellow-8"], ALEX: ["green-2"]},
        trump="red-1",
        avoid={STEFAN: {"green"}},
    )
    reveal_location(state, "crime-alley")
    play(state, PAULA, "green-3")
    play(state, MARIE, "green-5")
    play(state, STEFAN, "yellow-8")
    events = play(state, ALEX, "green-2")
    (trick,) = of_kind(events, "trick")
    assert trick["winner"] == MARIE
    assert trick["by"] == "led" and trick["led"] == "green" and trick["trump"] == "red"
    assert state.won_locations[MARIE] == ["crime-alley"]
    assert sorted(state.won_cards[MARIE]) == ["green-2", "green-3", "green-5", "yellow-8"]
    assert state.current_player() == CHANCE  # next: the new location card
    assert state.leader == MARIE  # the winner leads the next trick


def test_example_highest_trump_wins() -> None:
    """Red is trump; Alex leads yellow 9, Paula (no yellow) red 3, Marie must follow with
    yellow 2, Stefan (no yellow) red 7: Stefan wins with the highest trump."""
    state = new_round(
        4,
        QUIET4,
        {ALEX: ["yellow-9"], PAULA: ["red-3"], MARIE: ["yellow-2", "red-4"], STEFAN: ["red-7"]},
        trump="red-1",
        options={"first_player": ALEX},
        avoid={PAULA: {"yellow"}, STEFAN: {"yellow"}},
    )
    reveal_location(state, "crime-alley")
    play(state, ALEX, "yellow-9")
    play(state, PAULA, "red-3")
    # Marie holds yellow: she must follow suit and may not trump.
    with pytest.raises(IllegalMove, match="must follow yellow"):
        play(state, MARIE, "red-4")
    play(state, MARIE, "yellow-2")
    events = play(state, STEFAN, "red-7")
    (trick,) = of_kind(events, "trick")
    assert trick["winner"] == STEFAN and trick["by"] == "trump"
    assert state.won_locations[STEFAN] == ["crime-alley"]


def test_gcpd_headquarters_is_the_rulebooks_card() -> None:
    data = load_card_data()
    gcpd = data.locations["gcpd-headquarters"]
    assert (gcpd.name, gcpd.batman, gcpd.chaos, gcpd.source) == (
        "G.C.P.D. Headquarters",
        2,
        6,
        "rulebook",
    )
    assert len(data.locations) == 15
    assert [loc.map_number for loc in data.locations.values()] == list(range(1, 16))
    assert {k for k, v in data.locations.items() if v.trump_change} == {
        "wayne-tower",
        "robinson-park",
    }


def test_forty_trick_cards_every_six_is_bruce_wayne() -> None:
    data = load_card_data()
    assert len(data.trick_cards) == 40
    assert sorted(c for c, card in data.trick_cards.items() if card.bruce_wayne) == [
        "blue-6",
        "green-6",
        "red-6",
        "yellow-6",
    ]
    assert len(data.villains) == 8


# --- setup ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 9), (4, 8), (5, 7), (6, 6)])
def test_deal_sizes(players: int, size: int) -> None:
    assert HAND_SIZES[players] == size
    state = GAME.new_initial_state(players)
    rng = random.Random(players)
    while state.steps[0]["step"] in ("villain", "deal"):
        state.apply(rng.choice(state.legal_moves()))
    assert [len(h) for h in state.hands] == [size] * players
    assert state.deck_count() == 40 - size * players


def test_bad_player_count_and_options_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        GAME.new_initial_state(7)
    with pytest.raises(ValueError, match="first_player"):
        GAME.new_initial_state(3, {"first_player": 3})
    with pytest.raises(ValueError, match="unknown option"):
        GAME.new_initial_state(3, {"colour": "red"})
    with pytest.raises(ValueError, match=r"locations\.crime-alley\.chaos"):
        GAME.new_initial_state(3, {"card_data": {"locations": {"crime-alley": {"chaos": "x"}}}})


# --- Bruce Wayne and Batman -----------------------------------------------------------------
BATMAN_TENS = {"trick_cards": {"batman_symbols": {"8": 0, "9": 0, "10": 2}}}


def test_bruce_wayne_meets_batman_trick_set_aside_location_still_won() -> None:
    state = new_round(
        4,
        QUIET4,
        {PAULA: ["green-6"], MARIE: ["green-10"], STEFAN: ["green-2"], ALEX: ["green-3"]},
        trump="red-1",
        options={"card_data": BATMAN_TENS},
    )
    reveal_location(state, "gcpd-headquarters")
    for seat, card in ((PAULA, "green-6"), (MARIE, "green-10"), (STEFAN, "green-2")):
        play(state, seat, card)
    (trick,) = of_kind(play(state, ALEX, "green-3"), "trick")
    assert trick["winner"] == MARIE and trick["set_aside"]
    assert trick["bruce_wayne"] == ["green-6"] and trick["batman"] == ["green-10"]
    assert state.won_cards[MARIE] == []
    assert sorted(state.set_aside) == ["green-10", "green-2", "green-3", "green-6"]
    assert state.won_locations[MARIE] == ["gcpd-headquarters"]


def test_bruce_wayne_without_batman_is_an_ordinary_trick() -> None:
    state = new_round(
        4,
        QUIET4,
        {PAULA: ["green-6"], MARIE: ["green-7"], STEFAN: ["green-2"], ALEX: ["green-3"]},
        trump="red-1",
        options={"card_data": BATMAN_TENS},
    )
    reveal_location(state, "crime-alley")
    for seat, card in ((PAULA, "green-6"), (MARIE, "green-7"), (STEFAN, "green-2")):
        play(state, seat, card)
    (trick,) = of_kind(play(state, ALEX, "green-3"), "trick")
    assert not trick["set_aside"] and len(state.won_cards[MARIE]) == 4


# --- trump changes ----------------------------------------------------------------------------
@pytest.mark.parametrize("location", ["wayne-tower", "robinson-park"])
def test_wayne_tower_and_robinson_park_put_the_bottom_card_on_the_trump_pile(
    location: str,
) -> None:
    state = new_round(4, QUIET4, {}, trump="red-1", keep=["yellow-4"])
    reveal_location(state, location)
    assert state.current_player() == CHANCE and state.steps[0] == {
        "step": "trump",
        "reason": location,
    }
    events = state.apply({"kind": "trump", "player": CHANCE, "card": "yellow-4"})
    assert of_kind(events, "trump")[0]["colour"] == "yellow"
    assert state.trump_pile == ["red-1", "yellow-4"] and state.trump_colour() == "yellow"
    assert state.current_player() == 0


def test_the_joker_reveals_a_new_trump_once_per_round_on_his_turn() -> None:
    villains = ["joker", "poison-ivy", "harley-quinn", "two-face"]
    state = new_round(
        4,
        villains,
        {0: ["green-3", "green-4"], 1: ["green-5"], 2: ["green-2"]},
        trump="red-1",
        keep=["blue-9"],
    )
    reveal_location(state, "crime-alley")
    assert {"kind": "new-trump", "player": 0} in state.legal_moves()
    state.apply({"kind": "new-trump", "player": 0})
    state.apply({"kind": "trump", "player": CHANCE, "card": "blue-9"})
    assert state.trump_colour() == "blue" and state.current_player() == 0
    reason = state.check({"kind": "new-trump", "player": 0})
    assert reason is not None and "already" in reason
    with pytest.raises(IllegalMove):
        state.apply({"kind": "new-trump", "player": 1})  # not The Joker (and not his turn)


def test_no_card_left_for_a_new_trump_keeps_the_trump() -> None:
    # 6 players: 36 cards dealt, 1 turned for trump, 3 left; Catwoman takes all 3.
    villains = ["catwoman", "poison-ivy", "harley-quinn", "two-face", "riddler", "clayface"]
    state = new_round(6, villains, {}, trump="red-1")
    assert state.steps[0]["step"] == "catwoman" and state.deck_count() == 4
    three = state.hands[0][:3]
    state.apply({"kind": "catwoman", "player": 0, "discard": three})
    for _ in range(3):
        state.apply(
            {"kind": "draw", "player": CHANCE, "seat": 0, "card": state.legal_moves()[0]["card"]}
        )
    state.apply({"kind": "trump", "player": CHANCE, "card": state.deck[0]})
    assert state.deck_count() == 0
    events = reveal_location(state, "wayne-tower")
    (unchanged,) = of_kind(events, "trump-unchanged")
    assert unchanged["colour"] == state.trump_colour()
    assert state.current_player() == 0  # play goes on


# --- villains ---------------------------------------------------------------------------------
def test_catwoman_exchanges_up_to_three_cards_right_after_the_deal() -> None:
    villains = ["catwoman", "poison-ivy", "harley-quinn", "two-face"]
    state = new_round(4, villains, {}, trump="red-1")
    assert state.current_player() == 0 and state.trump_pile == []  # before the trump card
    hand = list(state.hands[0])
    too_many = state.check({"kind": "catwoman", "player": 0, "discard": hand[:4]})
    assert too_many is not None and "at most 3" in too_many
    events = state.apply({"kind": "catwoman", "player": 0, "discard": hand[:2]})
    assert of_kind(events, "catwoman")[0]["discarded"] == 2
    assert of_kind(events, "discarded")[0]["audience"] == 0  # only she learns which
    assert [s["step"] for s in state.steps[:3]] == ["draw", "draw", "trump"]
    for _ in range(2):
        state.apply(
            {"kind": "draw", "player": CHANCE, "seat": 0, "card": state.legal_moves()[0]["card"]}
        )
    assert len(state.hands[0]) == 8 and not set(hand[:2]) & set(state.hands[0])
    assert state.public_view()["discard_count"] == 2


def test_the_riddler_plays_odd_cards_face_down_revealed_when_the_trick_is_complete() -> None:
    villains = ["riddler", "poison-ivy", "harley-quinn", "two-face"]
    state = new_round(
        4,
        villains,
        {0: ["green-4"], 1: ["green-5", "green-8"], 2: ["green-2"], 3: ["green-3"]},
        trump="red-1",
        options={"first_player": 1},
    )
    reveal_location(state, "crime-alley")
    play(state, 1, "green-5")
    play(state, 2, "green-2")
    play(state, 3, "green-3")
    even = state.check({"kind": "play", "player": 0, "card": "green-4", "face_down": True})
    assert even is not None and "odd" in even
    assert {"kind": "play", "player": 0, "card": "green-3", "face_down": True} not in (
        state.legal_moves()
    )  # not his card
    # Give him an odd green card to hide: replay with a hand that has one.
    state = new_round(
        4,
        villains,
        {0: ["green-7"], 1: ["green-5"], 2: ["green-2"], 3: ["green-3"]},
        trump="red-1",
        options={"first_player": 1},
    )
    reveal_location(state, "crime-alley")
    play(state, 1, "green-5")
    play(state, 2, "green-2")
    events = play(state, 3, "green-3")
    assert of_kind(events, "trick") == []
    events = play(state, 0, "green-7", face_down=True)
    public = [e for e in events if e["audience"] == "public"]
    assert public[0]["card"] is None and public[0]["face_down"]
    assert of_kind(events, "revealed")[0]["card"] == "green-7"
    assert of_kind(events, "trick")[0]["winner"] == 0


def test_a_face_down_lead_asks_nobody_to_follow() -> None:
    villains = ["riddler", "poison-ivy", "harley-quinn", "two-face"]
    state = new_round(
        4,
        villains,
        {0: ["green-7"], 1: ["green-5", "blue-2"], 2: ["green-2"], 3: ["green-3"]},
        trump="red-1",
    )
    reveal_location(state, "crime-alley")
    play(state, 0, "green-7", face_down=True)
    assert state.public_view()["led"] is None
    play(state, 1, "blue-2")  # would be a revoke after a face-up green lead
    play(state, 2, "green-2")
    (trick,) = of_kind(play(state, 3, "green-3"), "trick")
    assert trick["led"] == "green" and trick["winner"] == 0


def test_two_face_announced_swap_makes_his_one_a_ten() -> None:
    villains = ["two-face", "poison-ivy", "harley-quinn", "riddler"]
    state = new_round(
        4, villains, {0: ["green-1"], 1: ["green-9"], 2: ["green-2"], 3: ["green-3"]}, "red-1"
    )
    reveal_location(state, "crime-alley")
    assert state.check({"kind": "play", "player": 0, "card": "green-1", "swap": True}) is None
    events = play(state, 0, "green-1", swap=True)
    assert of_kind(events, "play")[0]["swap"] is True  # announced to the table
    play(state, 1, "green-9")
    play(state, 2, "green-2")
    (trick,) = of_kind(play(state, 3, "green-3"), "trick")
    assert trick["winner"] == 0 and trick["values"] == [10, 9, 2, 3]
    # Only Two-Face swaps, and only a 1 or a 10.
    state = new_round(4, villains, {0: ["green-5"], 1: ["green-10"]}, "red-1")
    reveal_location(state, "crime-alley")
    assert state.check({"kind": "play", "player": 0, "card": "green-5", "swap": True})
    play(state, 0, "green-5")
    reason = state.check({"kind": "play", "player": 1, "card": "green-10", "swap": True})
    assert reason is not None and "Two-Face" in reason


def test_two_face_swapping_his_ten_makes_it_a_one() -> None:
    villains = ["two-face", "poison-ivy", "harley-quinn", "riddler"]
    state = new_round(
        4,
        villains,
        {0: ["green-10"], 1: ["green-2"], 2: ["blue-2"], 3: ["blue-3"]},
        "red-1",
        avoid={2: {"green"}, 3: {"green"}},
    )
    reveal_location(state, "crime-alley")
    play(state, 0, "green-10", swap=True)
    play(state, 1, "green-2")
    play(state, 2, "blue-2")
    (trick,) = of_kind(play(state, 3, "blue-3"), "trick")
    assert trick["winner"] == 1 and trick["values"][0] == 1


def test_clayface_cards_count_at_least_six() -> None:
    villains = ["clayface", "poison-ivy", "harley-quinn", "riddler"]
    state = new_round(
        4, villains, {0: ["green-2"], 1: ["green-5"], 2: ["green-4"], 3: ["green-3"]}, "red-1"
    )
    reveal_location(state, "crime-alley")
    for seat, card in ((0, "green-2"), (1, "green-5"), (2, "green-4")):
        play(state, seat, card)
    (trick,) = of_kind(play(state, 3, "green-3"), "trick")
    assert trick["winner"] == 0 and trick["values"] == [6, 5, 4, 3]


@pytest.mark.parametrize(("rule", "winner"), [("first-played", 0), ("last-played", 1)])
def test_equal_values_follow_the_data_files_rule(rule: str, winner: int) -> None:
    """Clayface's 2 counts 6 and meets a real 6: the data file says which wins."""
    villains = ["clayface", "poison-ivy", "harley-quinn", "riddler"]
    state = new_round(
        4,
        villains,
        {0: ["green-2"], 1: ["green-6"], 2: ["green-4"], 3: ["green-3"]},
        "red-1",
        options={"card_data": {"rules": {"equal_values_winner": rule}}},
    )
    reveal_location(state, "crime-alley")
    for seat, card in ((0, "green-2"), (1, "green-6"), (2, "green-4")):
        play(state, seat, card)
    (trick,) = of_kind(play(state, 3, "green-3"), "trick")
    assert trick["winner"] == winner


def test_the_penguin_draws_two_location_cards_and_chooses() -> None:
    villains = ["penguin", "poison-ivy", "harley-quinn", "riddler"]
    state = new_round(4, villains, {}, "red-1")
    reveal_location(state, "crime-alley")
    reveal_location(state, "gcpd-headquarters")
    assert state.current_player() == 0 and state.steps[0]["step"] == "penguin"
    assert state.check({"kind": "penguin", "player": 0, "card": "city-hall"})
    events = state.apply({"kind": "penguin", "player": 0, "card": "crime-alley"})
    assert of_kind(events, "penguin")[0]["set_aside"] == ["gcpd-headquarters"]
    assert state.location == "crime-alley" and state.loc_aside == ["gcpd-headquarters"]


def test_penguin_location_deck_is_remade_from_the_set_aside_cards() -> None:
    state = GAME.new_initial_state(2, {})
    state.apply({"kind": "villain", "player": CHANCE, "seat": 0, "villain": "penguin"})
    rng = random.Random(5)
    reshuffles = 0
    locations = 0
    while state.round == 0:
        for event in state.apply(rng.choice(state.legal_moves())):
            reshuffles += event["kind"] == "locations-reshuffled"
            locations += event["kind"] == "trick" and event["location"] is not None
    assert reshuffles >= 1 and locations == 10  # 10 tricks, every one with a location


# --- scoring and the game -------------------------------------------------------------------
def _play_out(state_seed: int, players: int) -> list[dict[str, object]]:
    state = GAME.new_initial_state(players)
    rng = random.Random(state_seed)
    events: list[dict[str, object]] = []
    while not state.is_terminal():
        events += state.apply(rng.choice(state.legal_moves()))
    return events


@pytest.mark.parametrize("players", [2, 3, 5])
def test_as_many_rounds_as_players_and_the_starter_rotates(players: int) -> None:
    events = _play_out(players, players)
    ends = of_kind(events, "round-end")
    starts = of_kind(events, "round-start")
    assert len(ends) == players
    assert [e["starter"] for e in starts] == list(range(1, players))
    (over,) = of_kind(events, "game-over")
    assert over["totals"] == ends[-1]["totals"]


def test_shared_victory_on_a_tie() -> None:
    from tablehub.games.chaos_in_gotham.scoring import winners

    assert winners([5, 9, 9, 1]) == [1, 2]


def test_the_end_of_a_whole_game_returns_shared_wins() -> None:
    for seed in range(200):
        state = GAME.new_initial_state(2)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        assert state.current_player() == TERMINAL
        if state.totals[0] == state.totals[1]:
            assert state.returns() == [1.0, 1.0]
            return
        best = max(state.totals)
        assert state.returns() == [1.0 if t == best else 0.0 for t in state.totals]
    pytest.fail("no tied game in 200 seeds")

"""End-of-round scoring: Batman catches whoever has the most symbols; villains' passives."""

from __future__ import annotations

from tablehub.games.chaos_in_gotham.cards import load_card_data
from tablehub.games.chaos_in_gotham.scoring import score_round

DATA = load_card_data(
    {
        "trick_cards": {"batman_symbols": {"8": 1, "9": 1, "10": 2}},
        "locations": {
            "crime-alley": {"chaos": 3, "batman": 1},
            "clock-tower": {"chaos": 2, "batman": 0},
            "tricorner-yards": {"chaos": 1, "batman": 0},
        },
    }
)
NO_PASSIVES = [None, None, None]


def test_most_batman_symbols_on_trick_and_location_cards_scores_nothing() -> None:
    # Seat 0: G.C.P.D. (2 symbols, 6 chaos); seat 1: crime alley (1) + red-8 (1) = 2 -> tie.
    score = score_round(
        DATA,
        won_cards=[["red-2"], ["red-8"], ["red-9"]],
        won_locations=[["gcpd-headquarters"], ["crime-alley"], ["clock-tower"]],
        villains=NO_PASSIVES,
    )
    assert score.symbols == (2, 2, 1)
    assert score.caught == (0, 1)  # a tie: all involved drop out
    assert score.scored == (0, 0, 2)


def test_a_single_top_collector_drops_out() -> None:
    score = score_round(
        DATA,
        won_cards=[["red-10"], [], []],
        won_locations=[["clock-tower"], ["crime-alley"], ["tricorner-yards"]],
        villains=NO_PASSIVES,
    )
    assert score.symbols == (2, 1, 0) and score.caught == (0,)
    assert score.scored == (0, 3, 1)


def test_nobody_drops_out_without_batman_symbols() -> None:
    score = score_round(
        DATA,
        won_cards=[["red-2"], ["red-3"], []],
        won_locations=[["clock-tower"], ["tricorner-yards"], []],
        villains=NO_PASSIVES,
    )
    assert score.caught == () and score.scored == (2, 1, 0)


def test_everybody_can_be_caught() -> None:
    score = score_round(
        DATA,
        won_cards=[["red-8"], ["red-9"], ["blue-8"]],
        won_locations=[["clock-tower"], ["clock-tower"], ["tricorner-yards"]],
        villains=NO_PASSIVES,
    )
    assert score.caught == (0, 1, 2) and score.scored == (0, 0, 0)


def test_poison_ivy_default_bonus_only_when_she_scores() -> None:
    won_locations = [["clock-tower"], ["tricorner-yards"], []]
    ivy = score_round(DATA, [[], [], []], won_locations, ["poison-ivy", None, None])
    assert ivy.adjustments == (3, 0, 0) and ivy.scored == (5, 1, 0)
    caught = score_round(DATA, [["red-10"], [], []], won_locations, ["poison-ivy", None, None])
    assert caught.caught == (0,) and caught.scored == (0, 1, 0)


def test_harley_quinn_default_takes_from_her_neighbours() -> None:
    score = score_round(
        DATA, [[], [], []], [["clock-tower"], ["clock-tower"], []], [None, "harley-quinn", None]
    )
    assert score.adjustments == (-5, 0, -3)  # right neighbour -5, left neighbour -3


def test_villain_passives_are_configurable() -> None:
    data = load_card_data(
        {
            "villains": {
                "harley-quinn": {
                    "adjustments": [{"target": "others", "chaos": -1, "when": "if-scoring"}]
                }
            }
        }
    )
    score = score_round(
        data, [[], [], []], [["clock-tower"], ["clock-tower"], []], [None, "harley-quinn", None]
    )
    assert score.adjustments == (-1, 0, -1)

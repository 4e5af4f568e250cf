"""End of round: accusation, seconding, the Vote, verdicts, Subdues and Advanced Mode."""

from __future__ import annotations

from tablehub.games.almost_got_im.state import AgiState
from tests.games.almost_got_im.table import (
    accuse_and_vote,
    blackout,
    cards,
    new_game,
    quiet_turns,
    said,
    vote,
)

FIVE = ["watchful", "batman", "crafty", "catwoman", "telepathic"]
# Characters by seat: The Riddler, The Scarecrow, The Penguin, Poison Ivy, Bane.


def to_round(state: AgiState, round_: int) -> None:
    """Play quiet rounds (no accusation, everyone passes) until ``round_``'s accusation."""
    while True:
        quiet_turns(state)
        if state.round == round_ and state.phase == "accuse":
            return
        if state.phase == "accuse":
            state.apply({"kind": "no_accusation", "player": state.brains})
        blackout(state)


def test_no_accusation_in_the_first_round() -> None:
    state = new_game(FIVE)
    quiet_turns(state)
    assert state.round == 1 and state.phase == "blackout"
    blackout(state)
    quiet_turns(state)
    assert state.round == 2 and state.phase == "accuse" and state.current_player() == 1


def test_only_the_brains_accuses_once_per_round_and_never_a_subdued_player() -> None:
    state = new_game(FIVE)
    to_round(state, 2)
    brains = state.brains
    targets = {m.get("target") for m in state.legal_moves()}
    assert targets == {0, 2, 3, 4, None}  # None: declining
    assert state.check({"kind": "accuse", "player": brains, "target": brains}) is not None
    state.subdued[3] = True
    assert 3 not in {m.get("target") for m in state.legal_moves()}
    reason = state.check({"kind": "accuse", "player": brains, "target": 3})
    assert reason == "accusations may not be made against Subdued players"
    state.subdued[3] = False
    accuse_and_vote(state, 0, {})  # Innocent
    assert state.phase == "blackout"  # one accusation per round, whatever the outcome


def test_unseconded_accusation_goes_to_the_blackout() -> None:
    state = new_game(FIVE)
    to_round(state, 2)
    events = state.apply({"kind": "accuse", "player": 1, "target": 3})
    asked = []
    while state.phase == "second":
        asked.append(state.current_player())
        events += state.apply({"kind": "no_second", "player": state.current_player()})
    assert asked == [2, 4, 0]  # clockwise from the Brains, neither Brains nor accused
    assert "No one seconded the accusation." in said(events)
    assert state.phase == "blackout" and state.history == []


def test_the_accused_does_not_vote_and_a_tie_goes_the_brains_way() -> None:
    state = new_game(FIVE)
    to_round(state, 2)  # Brains: seat 1 (Batman)
    state.apply({"kind": "accuse", "player": 1, "target": 0})
    state.apply({"kind": "second", "player": 2})
    assert state.voters == [1, 2, 3, 4]  # everyone but the accused, from the Brains
    # 2 Guilty (Brains + 2) vs 2 Innocent: the Brains' Guilty breaks the tie.
    events = vote(state, {1: True, 2: True})
    assert state.history[-1]["guilty"] is True
    assert state.history[-1]["votes"] == [[1, True], [2, True], [3, False], [4, False]]
    assert "The Vote is Guilty." in said(events)


def test_tie_with_the_brains_innocent_is_innocent() -> None:
    state = new_game(FIVE)
    to_round(state, 2)
    events = accuse_and_vote(state, 0, {3: True, 4: True})
    assert state.history[-1]["guilty"] is False
    assert "The Vote is Innocent. The Riddler is not Subdued." in said(events)
    assert not state.subdued[0]


def test_guilty_batman_means_the_villains_win() -> None:
    state = new_game(FIVE, brains=2)
    to_round(state, 2)
    assert state.brains == 3
    events = accuse_and_vote(state, 1, {0: True, 2: True, 3: True, 4: True})
    assert state.is_terminal() and state.outcome == "villains"
    assert state.returns() == [1.0, 0.0, 1.0, 0.0, 1.0]  # Catwoman loses with Batman
    assert "The Vote is Guilty. The Scarecrow is Batman! The Villains win!" in said(events)
    assert state.public_view()["roles"] == FIVE


def test_guilty_villain_is_subdued_and_counts_for_batman() -> None:
    state = new_game(FIVE)
    to_round(state, 2)
    accuse_and_vote(state, 0, {1: True, 2: True, 3: True})
    assert state.phase == "verdict" and state.current_player() == 0
    assert [m["kind"] for m in state.legal_moves()] == ["accept"]
    events = state.apply({"kind": "accept", "player": 0})
    assert said(events)[0] == "The Riddler has been Subdued."
    assert state.subdued[0] and state.tally() == 1 and state.phase == "blackout"
    # Subdued players are skipped in the Blackout.
    assert 0 not in state.order


def test_batman_wins_with_two_subdues_in_five_players() -> None:
    state = new_game(FIVE)
    to_round(state, 2)
    accuse_and_vote(state, 0, {1: True, 2: True, 3: True})
    state.apply({"kind": "accept", "player": 0})
    blackout(state)
    quiet_turns(state)
    accuse_and_vote(state, 4, {1: True, 2: True, 3: True, 4: False})
    events = state.apply({"kind": "accept", "player": 4})
    assert state.outcome == "batman" and state.returns() == [0.0, 1.0, 0.0, 0.0, 0.0]
    assert said(events)[-1] == "Batman has Subdued enough Villains. Batman wins!"


def test_six_players_need_three_subdues() -> None:
    six = ["watchful", "batman", "crafty", "catwoman", "telepathic", "healer"]
    state = new_game(six)
    assert state.needed() == 3
    to_round(state, 2)
    for target in (0, 4):  # Brains: seat 1, then seat 2
        accuse_and_vote(state, target, dict.fromkeys(range(6), True))
        state.apply({"kind": "accept", "player": target})
        assert not state.is_terminal()
        blackout(state)
        quiet_turns(state)
    accuse_and_vote(state, 5, dict.fromkeys(range(6), True))
    state.apply({"kind": "accept", "player": 5})
    assert state.outcome == "batman"


def test_catwoman_voted_guilty_with_a_full_house_wins_alone() -> None:
    state = new_game(FIVE, hands={3: cards("4b 4h 4d jr jb")})
    to_round(state, 2)
    accuse_and_vote(state, 3, {1: True, 2: True, 4: True})
    assert {m["kind"] for m in state.legal_moves()} == {"accept", "reveal"}
    events = state.apply({"kind": "reveal", "player": 3})
    assert state.outcome == "catwoman" and state.returns() == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert said(events)[-1] == "Poison Ivy is Catwoman with a Full House. Catwoman wins alone!"


def test_catwoman_without_a_full_house_is_subdued_and_villains_cannot_reveal() -> None:
    state = new_game(FIVE, hands={3: cards("4b 4h 4d jr 2b")})
    to_round(state, 2)
    accuse_and_vote(state, 3, {1: True, 2: True, 4: True})
    assert state.check({"kind": "reveal", "player": 3}) == "that hand is not a Full House"
    state.apply({"kind": "accept", "player": 3})
    assert state.subdued[3] and not state.is_terminal()
    state2 = new_game(FIVE, hands={0: cards("4b 4h 4d jr jb")})
    to_round(state2, 2)
    accuse_and_vote(state2, 0, {1: True, 2: True, 4: True})
    reason = state2.check({"kind": "reveal", "player": 0})
    assert reason == "only Catwoman in Disguise wins by showing a Full House when Voted Guilty"


def test_advanced_mode_free_subdue_after_four_rounds_without_one() -> None:
    state = new_game(FIVE, options={"advanced": True})
    events = []
    while state.round <= 4:
        events += quiet_turns(state)
        if state.phase == "accuse":
            state.apply({"kind": "no_accusation", "player": state.brains})
        events += blackout(state)
    assert state.free == 1 and state.tally() == 1
    assert "No one has been Subdued in four rounds. Batman earns a free Subdue." in said(events)
    assert not any(state.subdued)
    # Four more quiet rounds: the second free Subdue wins for Batman (2 needed).
    while not state.is_terminal():
        quiet_turns(state)
        if state.phase == "accuse":
            state.apply({"kind": "no_accusation", "player": state.brains})
        blackout(state)
    assert state.round == 8 and state.outcome == "batman"


def test_advanced_mode_no_free_subdue_after_a_subdue() -> None:
    state = new_game(FIVE, options={"advanced": True})
    to_round(state, 2)
    accuse_and_vote(state, 0, {1: True, 2: True, 3: True})
    state.apply({"kind": "accept", "player": 0})
    blackout(state)
    while state.round <= 4:
        quiet_turns(state)
        if state.phase == "accuse":
            state.apply({"kind": "no_accusation", "player": state.brains})
        blackout(state)
    assert state.free == 0 and state.tally() == 1


def test_without_advanced_mode_no_free_subdue() -> None:
    state = new_game(FIVE)
    while state.round <= 8:
        quiet_turns(state)
        if state.phase == "accuse":
            state.apply({"kind": "no_accusation", "player": state.brains})
        blackout(state)
    assert state.free == 0 and not state.is_terminal()


def test_max_rounds_ends_a_game_that_could_go_on_forever_as_a_draw() -> None:
    state = new_game(FIVE, options={"max_rounds": 3})
    events = []
    while not state.is_terminal():
        events += quiet_turns(state)
        if state.phase == "accuse":
            state.apply({"kind": "no_accusation", "player": state.brains})
        events += blackout(state)
    assert state.outcome == "draw" and state.returns() == [0.0] * 5 and state.round == 4
    assert said(events)[-1] == "The round limit is reached. The game is a draw."

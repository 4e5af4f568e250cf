"""The Blackout, from the rulebook's role notes and the Dealer's notes."""

from __future__ import annotations

from tablehub.games.almost_got_im.state import AgiState
from tablehub.games.base import DEALER, PUBLIC
from tests.games.almost_got_im.table import (
    accuse_and_vote,
    blackout,
    cards,
    deal_chance,
    new_game,
    quiet_turns,
    said,
)

# Characters by seat (table.DEFAULT_CHARACTERS): 0 The Riddler, 1 The Scarecrow,
# 2 The Penguin, 3 Poison Ivy, 4 Bane, 5 Mr. Freeze, 6 Killer Croc.
HANDS = {
    "batman": cards("6b 6h qd qr 2b"),  # Two Pair
    "watchful": cards("9b 9h 9d 2r 5b"),  # Three of a Kind (default)
    "crafty": cards("8b 8h 8d 3r 5h"),  # Three of a Kind (default)
    "healer": cards("3h 7h jh kh ah"),  # Flush (default)
    "homicidal": cards("4b 4h 4d jr jb"),  # Full House (default)
    "saboteur": cards("10b jd qb kd ab"),  # Straight (default)
    "sneaky": cards("10h jd qh kb ad"),  # Straight (default)
    "telepathic": cards("2d 2h 3d 3b kr"),  # Two Pair of 9s or lower
    "catwoman": cards("5d 5r 7d 7b 7r"),  # Full House
}
SEVEN = ["watchful", "batman", "crafty", "healer", "homicidal", "saboteur", "telepathic"]
FIVE = ["watchful", "batman", "crafty", "catwoman", "telepathic"]


def game(roles: list[str], ready: tuple[str, ...] = (), **kw: object) -> AgiState:
    """A game in round 1's Blackout; roles in ``ready`` hold the hand they need."""
    hands = {roles.index(r): HANDS[r] for r in ready}
    state = new_game(roles, hands=hands, **kw)  # type: ignore[arg-type]
    quiet_turns(state)
    assert state.phase == "blackout"
    return state


def test_wake_order_and_the_dealers_exact_words() -> None:
    state = new_game(FIVE, brains=3)
    events = quiet_turns(state)
    events += blackout(state)
    lines = said(events)
    start = lines.index("Everyone close your eyes.")
    assert lines[start : start + 12] == [
        "Everyone close your eyes.",
        "Poison Ivy, open your eyes.",
        "Poison Ivy, close your eyes.",
        "Bane, open your eyes.",
        "Bane, close your eyes.",
        "The Riddler, open your eyes.",
        "The Riddler, close your eyes.",
        "The Scarecrow, open your eyes.",
        "The Scarecrow, close your eyes.",
        "The Penguin, open your eyes.",
        "The Penguin, close your eyes.",
        "Everyone open your eyes.",
    ]
    assert lines[start + 12] == "No one was Subdued."


def test_batman_subdues_with_two_pair_and_takes_five_new_cards() -> None:
    state = game(FIVE, ("batman",))
    turned_in = list(state.hands[1])
    events = blackout(state, {1: 2})
    assert "The Penguin has been Subdued." in said(events)
    assert state.subdued[2] and state.by_batman[2] and state.tally() == 1
    assert len(state.hands[1]) == 5 and not set(turned_in) & set(state.hands[1])
    assert set(turned_in) <= set(state.unseen)  # the turned-in hand is back in the deck
    activated = [e for e in events if e["kind"] == "activated"]
    assert activated and all(e["audience"] == DEALER for e in activated)
    public = [e for e in events if e["audience"] == PUBLIC]
    assert not any("batman" in repr(e) for e in public)


def test_activation_needs_the_hand_and_a_legal_target() -> None:
    state = game(FIVE)
    while state.current_player() != 1:
        state.apply({"kind": "pass", "player": state.current_player()})
    assert state.legal_moves() == [{"kind": "pass", "player": 1}]
    reason = state.check({"kind": "activate", "player": 1, "target": 2})
    assert reason == "that hand is not Two Pair"
    state = game(FIVE, ("batman",))
    while state.current_player() != 1:
        state.apply({"kind": "pass", "player": state.current_player()})
    assert state.check({"kind": "activate", "player": 1, "target": 1}) is not None
    assert state.check({"kind": "activate", "player": 1}) is not None
    assert state.check({"kind": "activate", "player": 1, "target": 3}) is None


def test_subdued_players_are_skipped_in_the_blackout() -> None:
    state = game(FIVE, ("batman",))
    blackout(state, {1: 2})
    quiet_turns(state)
    state.apply({"kind": "no_accusation", "player": state.brains})
    assert state.phase == "blackout" and 2 not in state.order
    assert state.order == [1, 3, 4, 0]


def test_watchful_protects_itself_and_its_target_whatever_the_order() -> None:
    # Batman (seat 1) is woken before the Watchful player (seat 2 here), who protects 3.
    roles = ["telepathic", "batman", "watchful", "crafty", "catwoman"]
    state = game(roles, ("batman", "watchful"))
    assert state.order.index(1) < state.order.index(2)
    events = blackout(state, {1: 3, 2: 3})
    assert "No one was Subdued." in said(events)
    assert not any(state.subdued)
    prevented = [e for e in events if e["kind"] == "subdue_prevented"]
    assert prevented == [{"kind": "subdue_prevented", "audience": DEALER, "player": 1, "target": 3}]
    # Watchful protects itself too.
    state = game(roles, ("batman", "watchful"))
    blackout(state, {1: 2, 2: 4})
    assert not any(state.subdued)


def test_healer_cancels_batmans_win_in_the_same_blackout() -> None:
    six = ["watchful", "batman", "crafty", "healer", "telepathic", "saboteur"]
    state = game(six, ("batman", "healer"))
    state.subdued[0] = state.subdued[2] = True  # two Subdues already, three needed
    state.order = [s for s in state.order if s not in (0, 2)]
    events = blackout(state, {1: 4, 3: 0})
    lines = said(events)
    assert "Mr. Freeze has been Subdued." not in lines  # (seat 5 untouched)
    assert "Bane has been Subdued." in lines
    assert "The Riddler is feeling much better and is no longer Subdued." in lines
    assert not state.is_terminal() and state.tally() == 2
    assert lines.index("Bane has been Subdued.") < lines.index(
        "The Riddler is feeling much better and is no longer Subdued."
    )


def test_without_the_healer_batman_wins_with_his_total() -> None:
    six = ["watchful", "batman", "crafty", "healer", "telepathic", "saboteur"]
    state = game(six, ("batman",))
    state.subdued[0] = state.subdued[2] = True
    state.order = [s for s in state.order if s not in (0, 2)]
    events = blackout(state, {1: 4})
    assert state.outcome == "batman"
    assert said(events)[-1] == "Batman has Subdued enough Villains. Batman wins!"


def test_homicidal_hitting_batman_wins_for_villains_even_if_batman_reaches_his_total() -> None:
    state = game(SEVEN, ("batman", "homicidal"))
    state.subdued[0] = state.subdued[2] = True  # Batman needs one more (3 in 7 players)
    state.order = [s for s in state.order if s not in (0, 2)]
    events = blackout(state, {1: 6, 4: 1})
    assert state.outcome == "villains"
    assert state.returns() == [1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    lines = said(events)
    assert "The Scarecrow has been Subdued." in lines and "Killer Croc has been Subdued." in lines
    assert lines[-1] == "The game is over. Batman has been Subdued. The Villains win!"


def test_homicidal_hitting_a_villain_helps_batman() -> None:
    state = game(SEVEN, ("homicidal",))
    blackout(state, {4: 6})
    assert state.subdued[6] and state.tally() == 1 and not state.by_batman[6]


def test_saboteur_does_not_stop_a_hand_already_made_in_the_same_blackout() -> None:
    # The Saboteur (seat 0) is woken before Batman (seat 1) and targets him.
    roles = ["saboteur", "batman", "crafty", "watchful", "telepathic"]
    state = game(roles, ("saboteur", "batman"))
    events = blackout(state, {0: 1, 1: 2})
    assert state.subdued[2]  # Batman's hand still worked
    swaps = [e for e in events if e["kind"] == "sabotaged"]
    assert len(swaps) == 1 and swaps[0]["audience"] == 1
    assert "bottom of the deck" in swaps[0]["text"]
    assert "Saboteur" not in repr([e for e in events if e["audience"] == PUBLIC])
    # The victim's hand was replaced after every ability was over.
    assert state.private[1][-1]["kind"] == "sabotaged"


def test_saboteur_replaces_the_victims_hand_after_the_blackout() -> None:
    roles = ["saboteur", "batman", "crafty", "watchful", "telepathic"]
    state = game(roles, ("saboteur",))
    before = list(state.hands[3])
    blackout(state, {0: 3})
    assert len(state.hands[3]) == 5 and not set(before) & set(state.hands[3])


def test_telepathic_answers_by_player_count() -> None:
    state = game(SEVEN, ("telepathic",))
    for target, up in ((1, True), (4, True), (0, False), (5, False)):
        trial = state.clone()
        events = blackout(trial, {6: target})
        answers = [e for e in events if e["kind"] == "telepathy"]
        assert len(answers) == 1
        assert answers[0]["audience"] == 6 and answers[0]["thumbs_up"] is up
        assert answers[0]["text"] == ("Thumbs up." if up else "Thumbs down.")
        assert trial.player_view(6)["private"][-1]["thumbs_up"] is up
        assert not any(e["kind"] == "telepathy" for e in trial.private[0])
    five = game(FIVE, ("telepathic",))
    events = blackout(five, {4: 3})  # Catwoman
    assert [e["thumbs_up"] for e in events if e["kind"] == "telepathy"] == [True]


def test_crafty_everyone_draws_a_card_from_the_poker_deck() -> None:
    state = game(FIVE, ("crafty",))
    deck = state.deck_count
    events = blackout(state, {2: None})
    assert "Everyone draw a card from the Poker deck." in said(events)
    assert [len(h) for h in state.hands] == [6] * 5 and state.deck_count == deck - 5
    # On their turn they take a card and discard down to five.
    state.apply({"kind": "draw", "player": state.turn})
    deal_chance(state)
    assert len(state.hands[state.turn]) == 7


def test_sneaky_looks_at_the_unused_roles() -> None:
    roles = ["sneaky", "batman", "crafty", "watchful", "telepathic"]
    state = game(roles, ("sneaky",))
    unused = list(state.unused)
    events = blackout(state, {0: None})
    looks = [e for e in events if e["kind"] == "unused_roles"]
    assert looks == [{"kind": "unused_roles", "audience": 0, "roles": unused}]


def test_catwoman_cannot_activate_and_shares_batmans_win_if_he_subdued_her() -> None:
    state = game(FIVE, ("batman", "catwoman"))
    while state.current_player() != 3:
        state.apply({"kind": "pass", "player": state.current_player()})
    reason = state.check({"kind": "activate", "player": 3})
    assert reason == "Catwoman's hand does nothing during the Blackout"
    state = game(FIVE, ("batman",))
    blackout(state, {1: 3})  # Batman Subdues Catwoman
    quiet_turns(state)
    accuse_and_vote(state, 4, {0: True, 1: True, 2: True})
    events = state.apply({"kind": "accept", "player": 4})
    assert state.outcome == "batman" and state.returns() == [0.0, 1.0, 0.0, 1.0, 0.0]
    assert said(events)[-1] == "Batman has Subdued enough Villains. Batman and Catwoman win!"


def test_catwoman_subdued_by_vote_does_not_share_the_win() -> None:
    state = game(FIVE, ("batman",))
    blackout(state, {1: 0})
    quiet_turns(state)
    accuse_and_vote(state, 3, {0: True, 1: True, 2: True})
    state.apply({"kind": "accept", "player": 3})
    assert state.outcome == "batman" and state.returns() == [0.0, 1.0, 0.0, 0.0, 0.0]


def test_catwoman_healed_is_no_longer_rescued() -> None:
    six = ["watchful", "batman", "crafty", "healer", "telepathic", "catwoman"]
    state = game(six, ("batman",))
    blackout(state, {1: 5})
    assert state.by_batman[5]
    quiet_turns(state)
    state.apply({"kind": "no_accusation", "player": state.brains})
    state.hands[3] = HANDS["healer"]
    blackout(state, {3: 5})
    assert not state.subdued[5] and not state.by_batman[5]


def test_public_view_during_the_blackout_does_not_depend_on_who_acts() -> None:
    acting = game(FIVE, ("batman",))
    passing = acting.clone()
    for state, act in ((acting, True), (passing, False)):
        while state.current_player() != 1:
            state.apply({"kind": "pass", "player": state.current_player()})
        if act:
            state.apply({"kind": "activate", "player": 1, "target": 2})
            deal_chance(state)
        else:
            state.apply({"kind": "pass", "player": 1})
    assert acting.public_view() == passing.public_view()
    for seat in (0, 2, 3, 4):
        assert acting.player_view(seat) == passing.player_view(seat)
    assert acting.player_view(1) != passing.player_view(1)


def test_public_view_shows_the_wake_order_and_the_awake_seat() -> None:
    state = game(FIVE, brains=2)
    view = state.public_view()
    assert view["wake_order"] == [2, 3, 4, 0, 1] and view["active"] == 2
    state.apply({"kind": "pass", "player": 2})
    assert state.public_view()["active"] == 3


def test_sneaky_sees_only_some_unused_roles_when_the_data_says_so() -> None:
    roles = ["sneaky", "batman", "crafty", "watchful", "telepathic"]
    options = {"card_data": {"roles": {"sneaky": {"unused_roles_seen": 1}}}}
    state = game(roles, ("sneaky",), options=options)
    assert len(state.unused) == 2
    state.apply({"kind": "activate", "player": 0})
    assert state.current_player() == -1
    peeks = [m for m in state.legal_moves() if m["kind"] == "peek_unused"]
    assert {m["role"] for m in peeks} == set(state.unused)
    events = state.apply(peeks[1])
    assert events == [{"kind": "unused_role", "audience": 0, "role": peeks[1]["role"]}]
    assert state.seen_unused == [peeks[1]["role"]]
    blackout(state)
    assert state.phase == "turn" and state.round == 2

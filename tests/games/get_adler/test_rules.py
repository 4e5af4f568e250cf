"""Get Adler! rules, each test from a statement or example in the rulebook (quoted)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tablehub.games.base import CHANCE, IllegalMove
from tablehub.games.get_adler import GAME
from tablehub.games.get_adler.data import load
from tests.games.get_adler.table import Table

# Seats in these tests: 0 Adler, 1 Gold, 2 Sharpe, 3 Townsend (4 Collins, 5 Tarasov).
ADLER, GOLD, SHARPE, TOWNSEND, COLLINS, TARASOV = range(6)


# --- setup ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "deck", "cast"),
    [
        (4, 64, {"adler", "gold", "sharpe", "townsend"}),
        (5, 77, {"adler", "gold", "sharpe", "townsend", "collins"}),
        (6, 90, {"adler", "gold", "sharpe", "townsend", "collins", "tarasov"}),
    ],
)
def test_setup_characters_and_deck_per_player_count(
    players: int, deck: int, cast: set[str]
) -> None:
    """'4 players: use all 64 unmarked cards; 5 players: add the 13 cards marked 5+;
    6 players: additionally add the 13 cards marked 6+' and the characters per count."""
    state = GAME.new_initial_state(players)
    assert len(state.book.pool) == deck
    assert {m["character"] for m in state.legal_moves()} == cast
    rng = random.Random(1)
    while state.phase != "start-player":
        state.apply(rng.choice(state.legal_moves()))
    assert [state.book.hand_size(s) for s in range(players)] == [7] * players  # seven each
    assert state.book.deck_size == deck - 7 * players


def test_contents_list_counts() -> None:
    """Contents: '64 action cards: 10 top-secret documents, 8 question marks, 8 magnifying
    glasses, 4 binoculars, 10 arrest cards, 10 escape cards, 12 pistols, 1 bomb, 1 disguise'
    and the 5+ list (13 action cards + Kate Collins = 14)."""
    data = load()
    base = Counter(data.cards[i].kind for i in data.deck_for(4))
    assert base == {
        "document": 10,
        "question": 8,
        "magnifier": 8,
        "binoculars": 4,
        "arrest": 10,
        "escape": 10,
        "pistol": 12,
        "bomb": 1,
        "disguise": 1,
    }
    five = Counter(data.cards[i].kind for i in data.deck_for(5)) - base
    assert five == {
        "document": 2,
        "question": 2,
        "magnifier": 1,
        "binoculars": 1,
        "arrest": 2,
        "pistol": 2,
        "escape": 2,
        "bomb": 1,
    }
    assert sorted(
        data.cards[i].variant
        for i in data.deck_for(5)
        if data.cards[i].set == "five" and data.cards[i].kind == "escape"
    ) == ["bicycle", "bus"]
    assert len(data.deck_for(6)) - len(data.deck_for(5)) == 13


def test_player_count_and_options_are_checked() -> None:
    with pytest.raises(ValueError, match="4 to 6"):
        GAME.new_initial_state(7)
    with pytest.raises(ValueError, match="unknown option"):
        GAME.new_initial_state(4, {"expert": True})
    with pytest.raises(ValueError, match="escape_must_match"):
        GAME.new_initial_state(4, {"rules": {"escape_must_match": "yes"}})


# --- the clock and turns ---------------------------------------------------------------
def test_rounds_turn_order_and_clock() -> None:
    """'In each of the seven rounds, every player takes one turn, beginning with the starting
    player and continuing clockwise ... at the end of round 1, place the 2 o'clock marker.'"""
    table = Table(4, start=2, hands={ADLER: ["document"]})
    for _ in range(4 * 7 - 1):
        table.turn()
    turns = [(e["hour"], e["seat"]) for e in table.kinds_of("turn")]
    assert turns[:5] == [(1, 2), (1, 3), (1, 0), (1, 1), (2, 2)]
    assert [e["hour"] for e in table.kinds_of("clock")] == [1, 2, 3, 4, 5, 6, 7]
    assert table.kinds_of("clock")[2]["words"] == "three o'clock"
    assert not table.state.is_terminal()
    table.turn()  # the last turn of the seventh hour ends the game
    assert table.state.is_terminal() and len(table.kinds_of("turn")) == 28


def test_draw_one_play_one_keeps_seven() -> None:
    """'On your turn, draw one card from the action card deck and place one card from your
    hand face up on the discard pile.'"""
    table = Table(4)
    table.draw()
    assert table.state.book.hand_size(0) == 8
    question = table.find("question", seat=0)
    table.move("discard", card=question)
    assert table.state.book.hand_size(0) == 7
    assert table.state.public_view()["discard"] == [question]  # face up for all to see
    assert table.to_move == CHANCE and table.state.turn == 1  # the next player draws


def test_reshuffle_when_the_deck_is_empty() -> None:
    """'if there are no action cards left, shuffle the discard pile to form a new action
    card deck and continue playing.'"""
    table = Table(4)
    book = table.state.book  # a position late in a long game: one card left in the deck
    book.discard.extend(book.pool[1:])
    del book.pool[1:]
    book.deck_size = 1
    assert not table.kinds_of("reshuffle")
    table.turn()  # draws the last card and discards one: 36 cards on the pile
    assert table.kinds_of("reshuffle")[-1]["deck_size"] == 36  # before the next draw
    assert book.discard == [] and book.deck_size == 36
    table.turn()
    assert book.deck_size == 35


# --- investigation cards -------------------------------------------------------------------
def test_magnifier_shows_the_hand_to_the_player_only() -> None:
    """'Magnifying glass: Look at all the action cards of a player of your choice.'"""
    table = Table(4, start=GOLD)
    events = table.turn("play", card="magnifier", target=ADLER)
    seen = [e for e in events if e["kind"] == "hand-seen"]
    assert len(seen) == 1 and seen[0]["audience"] == GOLD
    assert sorted(seen[0]["cards"]) == sorted(table.state.ids[c] for c in table.state.book.hands[0])


def test_binoculars_take_a_random_card_and_give_one_back() -> None:
    """'Take a random card from the hand of an opponent of your choice. Then give that player
    a card of your choice from your own hand in return.'"""
    table = Table(4, start=SHARPE, hands={ADLER: ["disguise"], SHARPE: ["binoculars"]})
    table.turn("play", card="binoculars", target=ADLER)
    assert table.to_move == CHANCE  # which card is random
    taken = table.find("disguise", seat=ADLER)
    table.apply({"kind": "draw", "player": CHANCE, "card": taken})
    assert table.to_move == SHARPE and table.state.phase == "give"
    table.move("give", card=table.find("question", seat=SHARPE))
    assert taken in [table.state.ids[c] for c in table.state.book.hands[SHARPE]]
    assert table.state.book.hand_size(ADLER) == 7 and table.state.book.hand_size(SHARPE) == 7


def test_question_only_discarded_after_the_reveal() -> None:
    """'once the identities have been revealed, a question mark card can only be discarded.'"""
    table = Table(4, start=GOLD, hands={GOLD: ["arrest", "question"], ADLER: ["disguise"]})
    table.draw()
    question = table.find("question", seat=GOLD)
    move = {"kind": "play", "player": GOLD, "card": question, "target": ADLER}
    assert table.state.check(move) is None  # before the reveal: ask away
    table.move("discard", card=table.last_drawn[GOLD])
    table.confront(GOLD)
    table.move("react", card="disguise")
    table.to_turn_of(GOLD)
    table.draw()
    reason = table.state.check(move)
    assert reason is not None and "only be discarded" in reason
    table.move("discard", card=question)


# --- arrests ----------------------------------------------------------------------------------
def test_no_arrest_in_rounds_one_to_three() -> None:
    """'Arrest ... (Note: cannot be played in rounds 1-3.)'"""
    table = Table(4, start=GOLD, hands={GOLD: ["arrest", "arrest", "arrest", "arrest"]})
    for hour in (1, 2, 3):
        table.to_turn_of(GOLD, hour)
        table.draw()
        arrest = table.find("arrest", seat=GOLD)
        move = {"kind": "play", "player": GOLD, "card": arrest, "target": ADLER}
        reason = table.state.check(move)
        assert reason is not None and "four o'clock" in reason
        with pytest.raises(IllegalMove):
            table.state.apply(move)
        table.move("discard", card=arrest)  # discarding an arrest card is fine
    table.to_turn_of(GOLD, 4)
    table.draw()
    table.move("play", card="arrest", target=ADLER)
    assert table.state.phase == "answer-arrest"


def test_unjust_arrest_both_lose_a_turn_and_nothing_is_revealed() -> None:
    """'If you are wrong, it is an unjust arrest. Both you and the accused player each lose
    one turn and sit out of the game. Do not reveal the characters yet.'"""
    table = Table(4, start=GOLD, hands={GOLD: ["arrest"]})
    table.to_turn_of(GOLD)
    table.draw()
    table.move("play", card="arrest", target=TOWNSEND)
    assert table.to_move == TOWNSEND
    with pytest.raises(IllegalMove, match="unjust"):  # the simulator knows the truth
        table.move("answer-arrest", right=True)
    table.move("answer-arrest", right=False)
    assert not table.state.revealed
    assert table.state.public_view()["characters"] == [None] * 4
    assert table.state.public_view()["skips"] == [0, 1, 0, 1]
    while table.state.round < 6:
        table.advance()
    # Sharpe plays, Townsend sits out, Adler plays; at five o'clock Gold sits out; no more.
    assert [e["seat"] for e in table.kinds_of("turn-skipped")] == [TOWNSEND, GOLD]
    played = [(e["hour"], e["seat"]) for e in table.kinds_of("turn") if e["hour"] in (4, 5)]
    assert played == [(4, GOLD), (4, SHARPE), (4, ADLER), (5, SHARPE), (5, TOWNSEND), (5, ADLER)]


def test_right_arrest_reveals_everyone_and_starts_a_confrontation() -> None:
    """'If you are right, all character cards are turned face up and a confrontation takes
    place between you and Adler. Adler may play a reaction card.'"""
    table = Table(4, start=SHARPE, hands={SHARPE: ["arrest"]})
    table.to_turn_of(SHARPE)
    table.draw()
    table.move("play", card="arrest", target=ADLER)
    events = table.move("answer-arrest", right=True)
    revealed = [e for e in events if e["kind"] == "characters-revealed"]
    assert revealed and revealed[0]["characters"] == ["adler", "gold", "sharpe", "townsend"]
    assert table.state.public_view()["characters"][0] == "adler"
    assert table.state.phase == "react" and table.to_move == ADLER


def test_no_reaction_means_arrested_and_heroes_win() -> None:
    """'If Adler cannot play a reaction card, he is arrested and the game is over.'"""
    table = Table(4, start=SHARPE, hands={SHARPE: ["arrest"]})
    table.to_turn_of(SHARPE)
    table.draw()
    table.move("play", card="arrest", target=ADLER)
    table.move("answer-arrest", right=True)
    assert [m["kind"] for m in table.state.legal_moves()] == ["no-reaction"]  # fillers only
    table.move("no-reaction")
    assert table.state.is_terminal()
    assert table.state.end_reason == "arrested"
    assert table.state.returns() == [0.0, 1.0, 1.0, 1.0]


def test_after_the_reveal_arrests_go_to_a_villain_only() -> None:
    """'After the identities have been revealed: ... place the arrest card in front of
    Adler.'"""
    table = Table(
        4,
        start=GOLD,
        hands={GOLD: ["arrest"], SHARPE: ["arrest", "arrest"], ADLER: ["disguise", "arrest"]},
    )
    table.confront(GOLD)
    table.move("react", card="disguise")
    while table.state.turn != SHARPE or table.state.phase != "play":
        table.advance()
    arrest = table.find("arrest", seat=SHARPE)
    reason = table.state.check({"kind": "play", "player": SHARPE, "card": arrest, "target": GOLD})
    assert reason is not None and "arrest a villain" in reason
    while table.state.turn != ADLER or table.state.phase != "play":
        table.advance()
    arrest = table.find("arrest", seat=ADLER)
    reason = table.state.check({"kind": "play", "player": ADLER, "card": arrest, "target": GOLD})
    assert reason is not None and "discard" in reason


# --- escapes ----------------------------------------------------------------------------------
def test_escape_must_be_answered_or_adler_escapes() -> None:
    """'If Adler plays an escape card, one of the heroes must also play one, otherwise Adler
    escapes ... If the players can no longer play (any) escape cards, Adler escapes.'"""
    table = Table(4, start=GOLD, hands={GOLD: ["arrest"], ADLER: ["escape"]})
    table.confront(GOLD)
    table.move("react", card="escape")
    asked = []
    while table.state.phase == "escape-answer":
        asked.append(table.to_move)
        table.move("pass")
    assert asked == [GOLD, SHARPE, TOWNSEND]  # from the hero in the confrontation, clockwise
    over = table.kinds_of("confrontation-over")[-1]
    assert over["result"] == "escape"


def test_escape_chain_and_the_answering_hero_continues() -> None:
    """'If another player also plays an escape card, Adler must then play another reaction
    card ... This does not have to be the same person who played the arrest card.'  The
    gunfight is then 'with the hero who is in a confrontation with him at that moment'."""
    table = Table(
        4,
        start=GOLD,
        hands={GOLD: ["arrest"], ADLER: ["escape", "pistol"], TOWNSEND: ["escape", "pistol"]},
    )
    table.confront(GOLD)
    table.move("react", card="escape")
    table.move("pass")  # Gold
    table.move("pass")  # Sharpe
    assert table.to_move == TOWNSEND
    table.move("escape", card="escape")
    assert table.state.phase == "react" and table.to_move == ADLER
    table.move("react", card="pistol")
    assert table.state.phase == "gunfight" and table.to_move == TOWNSEND
    assert table.state.conf is not None and table.state.conf.involved == [GOLD, ADLER, TOWNSEND]


def test_no_reaction_to_an_escape_card_means_arrest() -> None:
    """Heroes win 'if Adler has no reaction to an arrest card or an escape card.'"""
    table = Table(4, start=GOLD, hands={GOLD: ["arrest", "escape"], ADLER: ["escape"]})
    table.confront(GOLD)
    table.move("react", card="escape")
    table.move("escape", card="escape")
    table.move("no-reaction")
    assert table.state.winner == "heroes" and table.state.end_reason == "arrested"


def test_escape_must_match_house_rule_and_the_odd_third_card() -> None:
    """'in a 5- or 6-player game there is an odd number (3) of escape cards. If two heroes
    want to play ... the one who places the card ... first may play it.'  With the matching
    reading, the third bus lets a second hero answer."""
    options = {"rules": {"escape_must_match": True}}
    table = Table(
        5,
        start=GOLD,
        options=options,
        hands={
            GOLD: ["arrest", "escape:car"],
            ADLER: ["escape:bus"],
            SHARPE: ["escape:bus"],
            TOWNSEND: ["escape:bus"],
        },
    )
    table.confront(GOLD)
    table.move("react", card="escape:bus")
    car = table.find("escape:car", seat=GOLD)
    reason = table.state.check({"kind": "escape", "player": GOLD, "card": car})
    assert reason is not None and "same vehicle" in reason
    table.move("pass")
    assert table.to_move == SHARPE
    table.move("escape", card="escape:bus")  # first down wins: Townsend's bus stays in hand
    assert table.state.conf is not None and table.state.conf.hero == SHARPE
    assert "escape" in table.hand_kinds(TOWNSEND)


# --- bomb and disguise --------------------------------------------------------------------------
def test_bomb_knocks_out_every_hero_and_play_continues_left_of_the_arrester() -> None:
    """'Each hero is knocked unconscious and skips his next turn. The game continues to the
    left of the player who played the arrest card.'"""
    table = Table(4, start=GOLD, hands={SHARPE: ["arrest"], ADLER: ["bomb"]})
    table.confront(SHARPE)
    table.move("react", card="bomb")
    assert table.kinds_of("confrontation-over")[-1]["result"] == "bomb"
    assert table.state.skips == [[], ["bomb"], ["bomb"], ["bomb"]]
    while table.state.phase != "play":
        table.advance()
    assert table.state.turn == ADLER  # Townsend (left of Sharpe) is unconscious
    assert [e["seat"] for e in table.kinds_of("turn-skipped")] == [TOWNSEND]


def test_disguise_escapes_and_heroes_can_only_discard_it() -> None:
    """'When Adler plays a disguise card, he escapes ... The heroes cannot play the disguise
    card, they can only discard it.'"""
    table = Table(4, start=GOLD, hands={GOLD: ["disguise"]})
    table.draw()
    disguise = table.find("disguise", seat=GOLD)
    reason = table.state.check({"kind": "play", "player": GOLD, "card": disguise, "target": 0})
    assert reason is not None and "discard it" in reason
    table.move("discard", card=disguise)
    table = Table(4, start=GOLD, hands={GOLD: ["arrest"], ADLER: ["disguise"]})
    table.confront(GOLD)
    table.move("react", card="disguise")
    assert table.kinds_of("confrontation-over")[-1]["result"] == "disguise"
    assert not table.state.is_terminal() and table.state.out == [None] * 4


# --- the gunfight ------------------------------------------------------------------------------
def _gunfight(
    adler_pistols: int,
    hero_pistols: int,
    options: dict[str, object] | None = None,
    arrester: int = GOLD,
) -> Table:
    table = Table(
        4,
        start=GOLD,
        options=options,
        hands={arrester: ["arrest"] + ["pistol"] * hero_pistols, ADLER: ["pistol"] * adler_pistols},
    )
    table.confront(arrester)
    table.move("react", card="pistol")
    while table.state.phase == "gunfight":
        pistols = [m for m in table.state.legal_moves() if m["kind"] == "shoot"]
        table.apply(pistols[0] if pistols else {"kind": "hold", "player": table.to_move})
    return table


def test_gunfight_equal_shots_adler_still_free() -> None:
    """'If both players fired the same number of shots, Adler is still free.'"""
    table = _gunfight(2, 2)
    fight = table.kinds_of("gunfight")[-1]
    assert (fight["villain_shots"], fight["hero_shots"], fight["winner"]) == (2, 2, None)
    assert table.kinds_of("confrontation-over")[-1]["result"] == "gunfight-draw"
    assert table.state.out == [None] * 4


def test_gunfight_adler_fires_more_the_hero_dies() -> None:
    """'If Adler fired more shots, the hero involved in the gunfight has died and is removed
    from the game.'  The survivor 'may choose to draw cards from the eliminated player first'."""
    table = _gunfight(3, 1)
    assert table.state.out[GOLD] == "eliminated"
    assert table.state.phase == "loot" and table.to_move == ADLER
    most = max(m["count"] for m in table.state.legal_moves())
    assert most == 7 - table.state.book.hand_size(ADLER)
    table.move("loot", count=2)
    assert table.state.queue[:2] == [[ADLER, GOLD], [ADLER, GOLD]]
    while table.state.phase == "transfer":
        table.draw()
    assert table.state.book.hand_size(ADLER) == 7
    assert table.state.book.hand_size(GOLD) == 0  # the rest went under the discard pile
    bottom = table.kinds_of("cards-to-discard-bottom")[-1]
    assert bottom["cards"][0].startswith("arrest") and bottom["hidden"] > 0
    assert table.state.turn == SHARPE  # 'continues ... starting from the player who arrested'
    while table.state.round < 6:
        table.advance()
    assert [e["seat"] for e in table.kinds_of("seat-out")] == [GOLD, GOLD]  # hours 5 and 6
    assert GOLD not in [e["seat"] for e in table.kinds_of("turn") if e["hour"] == 5]


def test_gunfight_hero_fires_more_adler_dies() -> None:
    """'If the hero fired more shots than Adler, Adler has died and the game ends.'"""
    table = _gunfight(1, 3)
    assert table.state.is_terminal()
    assert (table.state.winner, table.state.end_reason) == ("heroes", "shot")


def test_gunfight_strict_alternation_house_rule() -> None:
    table = _gunfight(1, 3, {"rules": {"gunfight_continue_after_stop": False}})
    # Adler fires, Gold answers, Adler stops: the first stop ends it, one shot each.
    fight = table.kinds_of("gunfight")[-1]
    assert (fight["villain_shots"], fight["hero_shots"]) == (1, 1)
    assert not table.state.is_terminal()


def test_adler_wins_by_eliminating_every_hero() -> None:
    """Adler wins 'if he has eliminated all the other players.'"""
    table = Table(
        4,
        start=GOLD,
        hands={GOLD: ["arrest"], SHARPE: ["arrest"], TOWNSEND: ["arrest"], ADLER: ["pistol"] * 6},
    )
    for hero in (GOLD, SHARPE, TOWNSEND):
        table.confront(hero, hour=table.state.round if table.state.round >= 4 else 4)
        table.move("react", card="pistol")
        table.move("hold")
        table.move("hold")
        if table.state.phase == "loot":
            table.move("loot", count=0)
        while table.state.phase == "transfer":
            table.draw("pistol") if table.state.queue[0][0] == ADLER else table.draw()
    assert table.state.is_terminal()
    assert (table.state.winner, table.state.end_reason) == ("villains", "heroes-eliminated")
    assert table.state.returns() == [1.0, 0.0, 0.0, 0.0]


# --- seven o'clock -------------------------------------------------------------------------------
@pytest.mark.parametrize(("documents", "winner"), [(1, "villains"), (0, "heroes")])
def test_seven_oclock_documents_decide(documents: int, winner: str) -> None:
    """'Adler's goal is to survive until seven o'clock with at least one top-secret document
    in his possession.'"""
    table = Table(4, hands={ADLER: ["document"] * documents})
    while not table.state.is_terminal():
        table.advance()
    assert table.state.winner == winner
    assert table.state.end_reason == ("documents" if documents else "no-documents")
    assert table.state.revealed


# --- five and six players ------------------------------------------------------------------------
def test_collins_can_be_arrested_first_and_is_a_villain() -> None:
    """'The first time an arrest attempt is made ... The arrest may be used against either of
    them.'"""
    table = Table(5, start=GOLD, hands={GOLD: ["arrest"]})
    table.confront(GOLD, villain=COLLINS)
    assert table.state.revealed and table.to_move == COLLINS


def test_collins_passes_a_card_to_adler_and_gets_one_back() -> None:
    """'Once the identities have been revealed, Collins may, on her turn, take a card and then
    pass one of her face-down cards to Adler. Adler then passes a face-down card back.'"""
    table = Table(5, start=GOLD, hands={GOLD: ["arrest"], ADLER: ["disguise"], COLLINS: ["pistol"]})
    table.draw()
    pistol = table.find("pistol", seat=COLLINS)
    # before the reveal nobody may pass cards
    table.confront(GOLD)
    table.move("react", card="disguise")
    while table.state.turn != COLLINS or table.state.phase != "play":
        table.advance()
    events = table.move("pass-card", card=pistol)
    assert table.state.phase == "collins-return" and table.to_move == ADLER
    assert next(e for e in events if e["kind"] == "card-received")["audience"] == ADLER
    table.move("pass-card", card=table.find("question", seat=ADLER))
    assert table.to_move == COLLINS and table.state.phase == "play"
    assert not any(m["kind"] == "pass-card" for m in table.state.legal_moves())  # once a turn
    assert pistol in [table.state.ids[c] for c in table.state.book.hands[ADLER]]


def test_collins_fights_on_after_adler_is_shot() -> None:
    """'If Adler is eliminated, Collins may try to win the game herself.'"""
    table = Table(
        5,
        start=GOLD,
        hands={GOLD: ["arrest", "pistol", "pistol"], ADLER: ["pistol"], COLLINS: ["document"]},
    )
    table.confront(GOLD)
    table.move("react", card="pistol")
    table.move("shoot", card="pistol")
    table.move("hold")  # Adler has no more
    table.move("shoot", card="pistol")
    table.move("hold")
    assert table.state.out[ADLER] == "eliminated" and not table.state.is_terminal()
    while not table.state.is_terminal():
        table.advance()
    assert (table.state.winner, table.state.end_reason) == ("villains", "documents")
    assert table.state.returns() == [1.0, 0.0, 0.0, 0.0, 1.0]


def test_tarasov_is_a_hero_and_both_villains_must_fall() -> None:
    """'All rules that apply to the heroes also apply to Boris Tarasov.'  With Collins in the
    game, arresting Adler alone does not end it (data: heroes_need_every_villain)."""
    table = Table(6, start=TARASOV, hands={TARASOV: ["arrest", "arrest"]})
    table.confront(TARASOV)
    table.move("no-reaction")
    assert table.state.out[ADLER] == "arrested" and not table.state.is_terminal()
    assert table.state.book.hand_size(ADLER) == 0  # his cards went under the discard pile
    table.confront(TARASOV, villain=COLLINS, hour=5)
    table.move("no-reaction")
    assert table.state.end_reason == "arrested"
    assert table.state.returns() == [0.0, 1.0, 1.0, 1.0, 0.0, 1.0]


def test_arresting_adler_ends_the_game_with_the_other_reading() -> None:
    table = Table(
        5,
        start=GOLD,
        hands={GOLD: ["arrest"]},
        options={"rules": {"heroes_need_every_villain": False}},
    )
    table.confront(GOLD)
    table.move("no-reaction")
    assert table.state.winner == "heroes"


# --- extended rules -----------------------------------------------------------------------------
EXTENDED = {"extended": True}


def test_sharpe_adds_one_to_his_pistols() -> None:
    """'Sharpe ... if he has 2 pistol cards, they count as 3.'"""
    table = _gunfight(2, 2, EXTENDED, arrester=SHARPE)
    fight = table.kinds_of("gunfight")[-1]
    assert (fight["villain_shots"], fight["hero_shots"]) == (2, 3)
    assert table.state.winner == "heroes"
    plain = _gunfight(2, 2, None, arrester=SHARPE)
    assert plain.kinds_of("gunfight")[-1]["winner"] is None


def test_gold_takes_and_gives_two_with_binoculars() -> None:
    """'Gold ... By playing a binoculars card, he may take 2 cards from a player. He also
    gives back 2 cards.'"""
    table = Table(4, start=GOLD, options=EXTENDED, hands={GOLD: ["binoculars"]})
    table.turn("play", card="binoculars", target=SHARPE)
    assert table.state.queue == [[GOLD, SHARPE], [GOLD, SHARPE]]
    table.draw()
    table.draw()
    assert table.state.give_left == 2 and table.state.book.hand_size(GOLD) == 9
    table.move("give", card="question")
    table.move("give", card="question")
    assert table.state.book.hand_size(SHARPE) == 7 and table.state.book.hand_size(GOLD) == 7


def test_townsend_sees_through_disguises() -> None:
    """'Townsend ... Disguises do not work on him. The villain must therefore play a
    different card.'"""
    table = Table(
        4,
        start=TOWNSEND,
        options=EXTENDED,
        hands={TOWNSEND: ["arrest"], ADLER: ["disguise", "escape"]},
    )
    table.confront(TOWNSEND)
    disguise = table.find("disguise", seat=ADLER)
    with pytest.raises(IllegalMove, match="Townsend"):
        table.apply({"kind": "react", "player": ADLER, "card": disguise})
    table.move("react", card="escape")


def test_tarasov_defuses_bombs_against_him_and_shrugs_them_off_otherwise() -> None:
    """'Tarasov ... Bombs have no effect on him when they are played against a colleague. If
    they are played directly against him, the bomb is immediately defused.'"""
    table = Table(
        6,
        start=TARASOV,
        options=EXTENDED,
        hands={TARASOV: ["arrest"], ADLER: ["bomb", "escape"], GOLD: ["escape"]},
    )
    table.confront(TARASOV)
    bomb = table.find("bomb", seat=ADLER)
    reason = table.state.check({"kind": "react", "player": ADLER, "card": bomb})
    assert reason is not None and "Tarasov" in reason
    table.move("react", card="escape")
    table.move("pass")  # Tarasov
    assert table.to_move == GOLD
    table.move("escape", card="escape")
    table.move("react", card="bomb")  # now against Gold: allowed, Tarasov unaffected
    assert table.state.skips[TARASOV] == [] and table.state.skips[GOLD] == ["bomb"]


# --- expert: the Ultimate Mission ---------------------------------------------------------
def test_ultimate_mission_needs_a_document_of_that_branch() -> None:
    """'At the end of the game the villains must have a top-secret document from that
    branch (for example, the Royal Air Force).'"""
    options = {"ultimate_mission": True}
    wrong = Table(4, options=options, mission="Royal Air Force", hands={ADLER: ["document:MI5"]})
    assert wrong.state.mission == "Royal Air Force"
    assert wrong.state.book.deck_size == 64 - 28  # the mission card went back into the deck
    while not wrong.state.is_terminal():
        wrong.advance()
    assert wrong.state.winner == "heroes"
    right = Table(
        4, options=options, mission="Royal Air Force", hands={ADLER: ["document:Royal Air Force"]}
    )
    while not right.state.is_terminal():
        right.advance()
    assert right.state.winner == "villains"

"""Character abilities at the hub: declared with the knob, the trigger card seen on a
discard pile, then whatever the ability needs (a target, a card shown, "next")."""

from __future__ import annotations

from tablehub.games.almost_got_im.cards import card_id, character_card_id
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.base import ChooseSeat, PrivateLight, Say
from tests.games.almost_got_im.table import cards
from tests.referee.agi_table import AgiTable

FOUR = ["watchful", "batman", "crafty", "telepathic"]


def at_turn(characters: list[str], player: int, roles: list[str] = FOUR) -> AgiTable:
    """Set up, then quiet turns until ``player``'s turn (the Brains is player 2)."""
    t = AgiTable(roles, characters=characters)
    t.set_up()
    while t.e.turn != player:
        t.quiet_turn()
    return t


def trigger(rank: str) -> str:
    return card_id("riddles", rank)


def test_the_penguin_draws_three_then_discards_back_to_five() -> None:
    t = at_turn(["riddler", "scarecrow", "penguin", "poison-ivy"], 2)
    out = t.declare()
    assert out == [Say("The Penguin uses a Character ability.")]
    t.card("appeared", trigger("9"), t.pile())
    moves = t.table.records[-1]["moves"]
    assert [m["kind"] for m in moves] == ["draw", "ability"]
    assert len(t.e.hands[2]) == 8 and t.e.spent[2] == ["penguin"]
    for card in t.fresh(3):
        t.card("appeared", card, t.pile())
    assert t.e.turn == 3 and len(t.e.hands[2]) == 5


def test_the_scarecrow_points_with_the_knob_and_the_denied_player_cannot_act() -> None:
    t = at_turn(["riddler", "scarecrow", "penguin", "poison-ivy"], 1)
    t.declare()
    out = t.card("appeared", trigger("5"), "discard-1")
    assert Say(words.ABILITY_TARGET.format(name="The Scarecrow")) in out
    assert isinstance(out[-1], ChooseSeat) and out[-1].seats == (0, 2, 3)
    t.choose("target", 3)
    # no ability left and five cards: the turn (the round's last) is over
    assert t.referee.phase == "night" and t.e.denied == [3]
    start = len(t.outputs)
    t.blackout(acts={3: 1})  # Telepathic, denied: red, nothing happens
    assert PrivateLight("red", 3.0, 3) in t.outputs[start:]
    assert not [o for o in t.lights(start) if o.colour in ("cyan", "blue")]


def test_mr_freeze_skips_the_blackout() -> None:
    t = at_turn(["riddler", "mr-freeze", "penguin", "poison-ivy"], 1)
    t.declare()
    t.card("appeared", trigger("3"), t.pile())
    assert t.said()[-3:] == [
        words.NO_BLACKOUT,
        "Pass the Brains token to Poison Ivy.",
        "Round 2. Poison Ivy has the Brains and goes first.",
    ]
    assert t.referee.night is None and t.e.round == 2


def test_poison_ivy_means_no_accusation_this_round() -> None:
    t = AgiTable(FOUR, characters=["riddler", "scarecrow", "penguin", "poison-ivy"])
    t.set_up()
    t.quiet_turns()
    t.blackout()
    assert t.e.turn == 3  # round 2: Poison Ivy has the Brains
    t.declare()
    t.card("appeared", trigger("q"), t.pile())
    assert words.NO_VOTE in t.said()[-2:]
    t.quiet_turns()
    assert t.referee.phase == "night"  # straight to the Blackout


def test_the_riddler_names_a_rank_out_loud() -> None:
    t = at_turn(["riddler", "scarecrow", "penguin", "poison-ivy"], 0)
    t.declare()
    t.card("appeared", trigger("7"), t.pile())
    assert words.ASK_RANK.format(name="The Riddler") in t.said()
    assert t.e.spent[0] == ["riddler"]


def test_clayface_takes_a_character_card_the_camera_reads() -> None:
    t = at_turn(["riddler", "scarecrow", "clayface", "poison-ivy"], 2)
    t.declare()
    t.card("appeared", trigger("8"), t.pile())
    assert t.said()[-1] == words.GAIN_CHARACTER.format(name="Clayface")
    t.card("appeared", character_card_id("two-face"), "seat-2")  # not Clayface's seat
    assert t.e.powers[2] == ["clayface"]
    t.card("appeared", character_card_id("two-face"), "seat-3")
    assert t.e.powers[2] == ["clayface", "two-face"]
    # Two-Face's ability may be used now, or the turn ends with "next"
    assert t.said()[-1] == words.END_TURN.format(name="Clayface")
    t.next("endturn")
    assert t.e.turn == 3


def test_the_joker_sees_every_joker_in_front_of_its_owner() -> None:
    t = at_turn(["riddler", "scarecrow", "joker", "poison-ivy"], 2)
    t.declare()
    t.card("appeared", trigger("j"), t.pile())
    assert t.said()[-1] == words.SHOW_JOKERS
    t.card("appeared", "agi:joker-2", "seat-1")
    t.next("jokers")
    assert t.e.public[0] == ["agi:joker-2"] and t.e.turn == 3  # The Joker's turn is over


def test_harley_quinn_swaps_cards_unseen() -> None:
    t = at_turn(["riddler", "scarecrow", "harley-quinn", "poison-ivy"], 2)
    t.declare()
    t.card("appeared", trigger("a"), t.pile())
    assert t.said()[-1] == words.HARLEY.format(name="Harley Quinn")
    t.next("harley")
    assert [len(h) for h in t.e.hands] == [5, 5, 5, 5] and t.e.turn == 3
    assert all(h == ["unknown"] * 5 for h in t.e.hands)


def test_ras_al_ghul_takes_from_under_the_last_pile_he_lifted() -> None:
    t = AgiTable(FOUR, characters=["riddler", "scarecrow", "ras-al-ghul", "poison-ivy"])
    t.set_up()
    t.quiet_turns()  # discards on pile 1, 2, 3 then 1
    t.blackout()
    while t.e.turn != 2:
        t.quiet_turn()  # round 2: on pile 1
    assert len(t.e.piles[0]) == 5
    t.declare()
    t.card("appeared", trigger("k"), "discard-2")
    assert t.said()[-1] == words.RAS.format(name="Ra's al Ghul")
    top = t.e.piles[0][-1]
    t.card("removed", top, "discard-1")
    t.card("appeared", top, "discard-1")  # put back, same top
    t.next("ras")
    assert t.e.piles[0] == ["unknown"] * 3 + [top]  # one card fewer under the top
    assert t.e.hands[2].count("unknown") == 6


def test_a_card_that_triggers_nothing_is_refused() -> None:
    t = at_turn(["riddler", "scarecrow", "penguin", "poison-ivy"], 2)
    t.declare()
    out = t.card("appeared", cards("2b")[0], t.pile())
    assert out[0].__class__.__name__ == "Reread"
    assert t.e.spent[2] == []


def _ras_turn() -> tuple[AgiTable, list[str]]:
    t = AgiTable(FOUR, characters=["riddler", "scarecrow", "ras-al-ghul", "poison-ivy"])
    t.set_up()
    t.quiet_turns()  # discards on pile 1, 2, 3 then 1
    t.blackout()
    while t.e.turn != 2:
        t.quiet_turn()
    t.declare()
    t.card("appeared", trigger("k"), "discard-2")
    return t, [pile[-1] for pile in t.e.piles]


def test_ras_al_ghul_lifting_several_piles_the_engine_finds_the_one() -> None:
    """He lifts piles 1 and 3 and puts both back as they were; only pile 1 has cards under
    its top, so that is where his card came from."""
    t, tops = _ras_turn()
    assert [len(p) for p in t.e.piles] == [5, 2, 1]
    for pile in (0, 2):
        t.card("removed", tops[pile], f"discard-{pile + 1}")
        t.card("appeared", tops[pile], f"discard-{pile + 1}")
    t.next("ras")
    assert [len(p) for p in t.e.piles] == [4, 2, 1]
    assert t.e.hands[2].count("unknown") == 6


def test_ras_al_ghul_is_asked_which_pile_when_two_could_have_given_it() -> None:
    t, tops = _ras_turn()
    for pile in (0, 1):
        t.card("removed", tops[pile], f"discard-{pile + 1}")
        t.card("appeared", tops[pile], f"discard-{pile + 1}")
    t.next("ras")
    assert t.said()[-1] == words.RAS_WHICH.format(name="Ra's al Ghul", piles="1 or 2")
    assert [len(p) for p in t.e.piles] == [5, 2, 1]  # nothing taken yet
    t.card("removed", tops[1], "discard-2")  # he lifts pile 2 again
    t.card("appeared", tops[1], "discard-2")
    t.next("ras")
    assert [len(p) for p in t.e.piles] == [5, 1, 1]

"""Every sentence the hub says as the Almost Got 'Im Dealer, in one place.

Two sources: the engine's data file (``[say]`` in ``tablehub/games/almost_got_im/data.toml``)
holds the rulebook's own lines ("Everyone close your eyes.", "<Character>, open your eyes.",
"The Penguin has been Subdued.", the Vote script...) and the engine speaks them as events;
this module holds the lines the hub adds because it has no human Dealer (setup steps, panel
instructions, prompts), worded after the rulebook where it has words for the moment.

Every line is public: it goes to the speaker, everyone hears it.  Nothing here takes a
secret as input; the only names used are Character names (public) and counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablehub.games.almost_got_im.rules import default_rules

# --- the rulebook's lines (from the engine's data file) ------------------------------------


def rulebook(key: str, **names: str) -> str:
    """A line of the engine's ``[say]`` table ("close_eyes", "open_eyes_player"...)."""
    return default_rules().say[key].format(**names)


def close_eyes() -> str:
    return rulebook("close_eyes")


def open_eyes() -> str:
    return rulebook("open_eyes")


def wake(name: str) -> str:
    return rulebook("open_eyes_player", name=name)


def sleep(name: str) -> str:
    return rulebook("close_eyes_player", name=name)


# --- setup -------------------------------------------------------------------------------

WELCOME = (
    "Welcome to Almost Got 'Im. I am the Dealer. Everyone take a Character card and put it "
    "face up in front of you, then press next."
)
CHARACTERS_WRONG = (
    "I see {count} Character cards. Almost Got 'Im is for 4 to 7 players: one Character card "
    "face up in front of each player, then press next."
)
PLAYERS = "{count} players: {names}."


def deal_roles(players: int) -> str:
    """The rulebook's set-up of the Secret Role cards, for this many players."""
    boxed = []
    if players < 7:
        boxed.append("Homicidal")
    if players < 6:
        boxed.append("Healer")
    box = f"Put {' and '.join(boxed)} back in the box. " if boxed else ""
    return (
        f"Now the Secret Roles. {box}Put Batman in Disguise with {players - 1} other random "
        "Secret Role cards, shuffle them and deal one to each player. Put the others face down "
        "to the side, unseen. Look at your card, put it under your Character card, "
        "then press next."
    )


ROLES_CHECK = (
    "Roles check. When I call your Character, open your eyes and show your Secret Role card "
    "at the reveal spot. The light turns white when I have read it. Batman, for you it turns "
    "magenta: look at the top card of the unused Secret Roles and put it back."
)
ROLE_WAKE = "{name}, open your eyes and show your Secret Role card."
ROLE_SLEEP = "{name}, take your card back and close your eyes."
ROLES_UNREAD = "I could not read the Secret Role card of {names}. We check again."
ROLES_WRONG = (
    "The Secret Role cards do not add up. Collect them, deal them again as before, then press next."
)
BRAINS_FIRST = (
    "{name} takes the Brains token. Shuffle the Poker deck and deal five cards to each player. "
    "Put the deck in the middle of the table, then press next."
)

# --- rounds ------------------------------------------------------------------------------

ROUND = "Round {round}. {name} has the Brains and goes first."
PASS_BRAINS = "Pass the Brains token to {name}."
ABILITY = "{name} uses a Character ability."
ABILITY_TARGET = "{name}, turn the knob to the player you choose and press it."
ASK_RANK = "{name}, name a rank out loud. Everyone else, say how many cards of it you hold."
ASK_SUIT = "{name}, name a suit out loud. Everyone else, say how many cards of it you hold."
GAIN_CHARACTER = "{name}, take a random Character card from the box and put it in front of you."
SHOW_JOKERS = "Everyone with a Joker: put it face up in front of you. Press next when done."
RAS = (
    "{name}, look through the discard piles one at a time, take one card and put the piles "
    "back in order. Press next when done."
)
RAS_WHICH = (
    "{name}, which pile did you take your card from: {piles}? Lift that pile once more, put "
    "it back and press next."
)
HARLEY = (
    "Everyone hand {name} one card face down. Then {name} hands each of you one card face "
    "down. Press next when done."
)
END_TURN = "{name}, press next when your turn is over."
NO_BLACKOUT = rulebook("no_blackout")  # Mr. Freeze; the engine says it (data file)
NO_VOTE = "There is no accusing or Voting this round."
CARD_NOT_PLACED = "I could not place that card. Please check it."

# --- accusation, seconding, the Vote -------------------------------------------------------

ACCUSE = (
    "{name}, do you accuse anyone of being Batman? Turn the knob to the accused and press it, "
    "or press next for no accusation."
)
NO_ACCUSATION = "No accusation this round."
SECOND = "To second it, turn the knob to your own seat and press it."
DEFENCE = "Press next when the defence is over."
HURRY = "30 seconds before we move on!"  # the rulebook's Quick Dealer Notes
VOTE_ENTRY = (
    "Turn the knob to each player whose thumb is up and press it. Press next when every Vote is in."
)
VOTE_MARKED = "{name}: Guilty."
VOTE_UNMARKED = "{name}: Innocent."
VERDICT = (
    "{name}, if you are Catwoman in Disguise with a Full House, lay it face up at the reveal "
    "spot now. Otherwise press next."
)
NOT_A_WIN = "That hand does not win. Press next."

# --- the Blackout ------------------------------------------------------------------------

SWEEP = "Keep your eyes closed. Once more around the table: when I call you, look at the light."

# --- the end -------------------------------------------------------------------------------

ROLES_WERE = "The Secret Roles were: {roles}."
GAME_OVER = {
    "batman": "Game over: Batman wins.",
    "batman_and_catwoman": "Game over: Batman and Catwoman win.",
    "villains": "Game over: the Villains win.",
    "catwoman": "Game over: Catwoman wins.",
    "draw": "Game over: it is a draw.",
}


def listing(names: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


# --- the panel's private light (what each colour means; printed on the panel) -------------

PRIVATE_LIGHT: dict[str, str] = {
    "yellow": "Your hand counts: turn the knob to your target and press it.",
    "green": "Your ability is used: take five new cards from the deck, your old hand to the "
    "bottom of the deck.",
    "cyan": "Thumbs up (Batman, Catwoman or Homicidal). Take five new cards as for green.",
    "blue": "Thumbs down (a Villain). Take five new cards as for green.",
    "magenta": "Sneaky: look at the unused Secret Role cards, then take five new cards as for "
    "green. (Roles check: Batman, look at the top unused Secret Role card.)",
    "red": "That does not count: pick your cards back up.",
    "white": "Sabotaged: put your whole hand on the bottom of the deck and take five new cards. "
    "(Roles check: your card is read.)",
}

"""What the Get Adler! referee says for each public engine event (and only public ones)."""

from __future__ import annotations

from collections.abc import Callable

from tablehub.games.base import Event
from tablehub.games.get_adler import AdlerState
from tablehub.referee.get_adler_cards import a_card

REASONS = {
    "arrested": "the villain was arrested",
    "shot": "the villain was shot",
    "no-documents": "at seven o'clock the villains hold no top-secret document",
    "documents": "the villains kept a top-secret document until seven o'clock",
    "heroes-eliminated": "every hero is dead",
}


def words(event: Event, name: Callable[[int], str], engine: AdlerState) -> str | None:
    """The sentence for one public event, or ``None`` when nothing needs saying."""
    kind = event["kind"]
    n = name
    if kind == "start-player":
        return f"{n(event['seat'])} has the clock and starts."
    if kind == "clock":
        return f"It is {event['words']}."
    if kind == "turn":
        return f"{n(event['seat'])}, your turn."
    if kind == "seat-out":
        how = "arrested" if event["reason"] == "arrested" else "dead"
        return f"{n(event['seat'])} is {how}: no turn."
    if kind == "turn-skipped":
        why = "is knocked out" if event["reason"] == "bomb" else "sits out"
        return f"{n(event['seat'])} {why} and loses this turn."
    if kind == "discard":
        return f"{n(event['seat'])} discards {a_card(event['card'])}."
    if kind == "play":
        return _play_words(event, name)
    if kind == "unjust-arrest":
        return (
            f"An unjust arrest! {n(event['seat'])} and {n(event['target'])} each lose "
            "their next turn."
        )
    if kind == "arrest-right":
        return "The arrest is right!"
    if kind == "characters-revealed":
        names = [engine.names[c] for c in event["characters"]]
        return " ".join(f"{n(s)} is {name}." for s, name in enumerate(names))
    if kind == "mission":
        return f"The villains must keep a document of the {event['branch']}."
    if kind == "confrontation":
        return f"Confrontation: {n(event['hero'])} against {n(event['villain'])}."
    if kind == "react":
        return _reaction_words(event, name, engine)
    if kind == "escape":
        return f"{n(event['seat'])} gives chase with an escape card!"
    if kind == "shoot":
        return f"Bang! {n(event['seat'])} fires."
    if kind == "hold":
        return f"{n(event['seat'])} stops shooting."
    if kind == "gunfight":
        villain, hero = n(event["villain"]), n(event["hero"])
        score = f"{villain} fired {event['villain_shots']}, {hero} {event['hero_shots']}."
        if event["winner"] is None:
            return f"{score} Equal shots: {villain} is still free."
        loser = hero if event["winner"] == event["villain"] else villain
        return f"{score} {loser} is shot."
    if kind == "eliminated":
        return f"{n(event['seat'])} is out of the game."
    if kind == "arrested":
        return f"{n(event['seat'])} has no reaction and is arrested!"
    if kind == "confrontation-over":
        ending = {
            "escape": f"{n(event['villain'])} got away. ",
            "disguise": "",
            "bomb": "",
            "gunfight-draw": "",
            "shot": "",
            "arrested": "",
        }
        return (
            f"{ending.get(event['result'], '')}The confrontation is over. Everyone in it "
            "refills to seven cards; its cards go under the discard pile."
        )
    if kind == "reshuffle":
        return "The deck is empty: shuffle the discard pile to form a new deck."
    if kind == "seven-oclock":
        return "It is seven o'clock. Time is up!"
    if kind == "game-over":
        side = "heroes" if event["winner"] == "heroes" else "villains"
        return f"The {side} win: {REASONS.get(event['reason'], event['reason'])}."
    return None


def _play_words(event: Event, name: Callable[[int], str]) -> str:
    n = name
    who, card = n(event["seat"]), event["card_kind"]
    target = n(event["target"]) if event.get("target") is not None else "someone"
    if card == "question":
        return f"{who} asks a question."
    if card == "magnifier":
        return f"{who} looks through the magnifying glass."
    if card == "binoculars":
        return f"{who} watches {target} through binoculars: take at random, then give back as many."
    return f"{who} arrests {target}!"


def _reaction_words(event: Event, name: Callable[[int], str], engine: AdlerState) -> str:
    who, card = name(event["seat"]), event["card_kind"]
    if card == "escape":
        return f"{who} plays an escape card!"
    if card == "disguise":
        return f"{who} slips away in disguise."
    if card == "bomb":
        tarasov = engine.seat_of("tarasov")
        spared = " except Tarasov" if engine.extended and tarasov is not None else ""
        return f"A bomb! Every hero{spared} is knocked out and skips the next turn."
    return f"{who} draws a pistol: a gunfight with {name(event['hero'])}!"

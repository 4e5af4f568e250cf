"""What the Chaos in Gotham City referee says: engine events -> sentences (pure).

Only public events are put into words; the referee never passes a seat's private event
(a dealt card, Catwoman's discards) here.  Names are the seat names from the setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablehub.games.chaos_in_gotham.cards import CardData


def card_words(data: CardData, card: str) -> str:
    trick_card = data.trick_cards[card]
    return f"{trick_card.colour} {trick_card.value}"


def join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def location_words(data: CardData, location: str) -> str:
    card = data.locations[location]
    return (
        f"{card.name}: {plural(card.chaos, 'chaos point')}, {plural(card.batman, 'Batman symbol')}"
    )


def trump_words(event: Mapping[str, Any], data: CardData) -> str:
    colour = event["colour"]
    reason = event["reason"]
    if reason == "start":
        return f"{colour.capitalize()} is trump."
    if reason == "joker":
        return f"The Joker reveals a new trump: {colour} is trump now."
    return f"{data.locations[reason].name} changes the trump: {colour} is trump now."


def trick_words(
    event: Mapping[str, Any], data: CardData, names: Sequence[str], villains: Sequence[str | None]
) -> list[str]:
    """The winner and the reason, then what happens to the cards and the location."""
    winner = names[event["winner"]]
    card = event["card"]
    won_with = f"{winner} wins the trick with the {card_words(data, card)}"
    if event["by"] == "trump":
        sentence = f"{won_with}: {event['trump']} is trump."
    else:
        sentence = f"{won_with}, the highest {event['led']}; no trump was played."
    words = [sentence]
    notes = []
    for index, played in enumerate(event["cards"]):
        value = event["values"][index]
        printed = data.trick_cards[played].value
        if value != printed:
            notes.append(f"the {card_words(data, played)} counted {value}")
    if notes:
        words.append(join_names(notes).capitalize() + ".")
    location = event["location"]
    if event["set_aside"]:
        takes = f" {winner} still takes {data.locations[location].name}." if location else ""
        words.append(f"Bruce Wayne met Batman: the trick is set aside.{takes}")
    elif location:
        words.append(f"{winner} takes {data.locations[location].name}.")
    return words


def revoke_words(event: Mapping[str, Any], data: CardData, names: Sequence[str]) -> str:
    who = names[event["seat"]]
    return (
        f"Revoke! {who} did not follow {event['colour']} in trick {event['failed_trick'] + 1}, "
        f"when the {card_words(data, event['led_card'])} was led and they played the "
        f"{card_words(data, event['played_instead'])}, but now plays the "
        f"{card_words(data, event['card'])}."
    )


def round_words(event: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    round_number = event["round"] + 1
    words = [f"End of round {round_number}."]
    caught = list(event["caught"])
    symbols = event["symbols"]
    if not caught:
        words.append("Nobody collected Batman symbols: everybody scores.")
    else:
        who = join_names([names[s] for s in caught])
        each = " each" if len(caught) > 1 else ""
        words.append(
            f"Batman catches {who} with {plural(symbols[caught[0]], 'Batman symbol')}{each}: "
            "no chaos points this round."
        )
    scored = event["scored"]
    parts = [f"{names[s]} {scored[s]}" for s in range(len(names))]
    words.append("This round: " + ", ".join(parts) + ".")
    adjustments = event["adjustments"]
    if any(adjustments):
        changes = [f"{names[s]} {adjustments[s]:+d}" for s in range(len(names)) if adjustments[s]]
        words.append("Villain cards: " + ", ".join(changes) + ".")
    totals = event["totals"]
    words.append("Totals: " + ", ".join(f"{names[s]} {totals[s]}" for s in range(len(names))) + ".")
    return words


def game_over_words(event: Mapping[str, Any], names: Sequence[str]) -> str:
    winners = list(event["winners"])
    best = event["totals"][winners[0]]
    points = plural(best, "chaos point")
    if len(winners) == 1:
        winner = names[winners[0]]
        return f"Game over. {winner} wins with {points}: the greatest villain in Gotham City."
    who = join_names([names[s] for s in winners])
    return f"Game over. {who} share the victory with {points} each and rule Gotham City together."


def score_table(totals: Sequence[int], names: Sequence[str]) -> str:
    """The totals as a small text table for a screen."""
    width = max(len(n) for n in names)
    return "\n".join(f"{names[s]:<{width}}  {totals[s]:>4}" for s in range(len(names)))

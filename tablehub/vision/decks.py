"""The stand-in decks of the four card games: every card id and what is printed on it.

Engines and referees translate the ids that vision reports with this module; it is pure data
(no I/O, no OpenCV).  ``DECKS[name].cards`` lists ``CardSpec`` records in a fixed order.

Card-id scheme (stable, lowercase, ``<deck>:<card>``; the id names a *design*: identical
copies share one id and ``CardSpec.count`` says how many copies a full deck has):

* ``agi`` -- Almost Got 'Im
    - poker cards ``agi:<suit>-<rank>``, suit in ``bats | hearts | diamonds | riddles``
      (Bats, Harley-Hearts, Stolen Diamonds, Riddles), rank in ``2..10 | j | q | k | a``:
      ``agi:bats-7``, ``agi:hearts-10``, ``agi:riddles-a``.  Properties: ``suit``,
      ``suit_name``, ``rank`` (2..14, ace = 14), ``rank_label``, ``colour`` (red|black).
    - ``agi:joker-1``, ``agi:joker-2`` (wild; printed differently, so told apart).
    - secret roles ``agi:role-<name>``: ``agi:role-batman-in-disguise``,
      ``agi:role-catwoman-in-disguise``, ``agi:role-crafty``, ``agi:role-healer``,
      ``agi:role-homicidal``, ``agi:role-saboteur``, ``agi:role-sneaky``,
      ``agi:role-telepathic``, ``agi:role-watchful``.  (The poker hand each role needs is
      game data, not printed here: see the Almost Got 'Im engine's data file.)
    - characters (oversized) ``agi:char-<name>``: ``two-face, mr-freeze, bane, scarecrow,
      killer-croc, riddler, clayface, penguin, ventriloquist-scarface, joker, poison-ivy,
      ras-al-ghul, harley-quinn``.
* ``chaos`` -- Chaos in Gotham City
    - trick cards ``chaos:<colour>-<value>``, colour in ``red | green | yellow | blue``,
      value 1..10: ``chaos:red-6``.  Properties ``colour``, ``value``, ``bruce_wayne``
      (every 6), ``batman_symbols`` (from the Chaos engine's data file, the one source of
      which cards show Batman: the stand-in art prints what the engine scores).
    - villains ``chaos:villain-<name>``: ``catwoman, joker, riddler, two-face, poison-ivy,
      harley-quinn, penguin, clayface``.
    - locations ``chaos:loc-<name>``, the 15 of the rulebook's map list
      (``chaos:loc-wayne-tower``, ``chaos:loc-gcpd-headquarters`` ...,
      ``chaos:loc-gatham-city-bank`` as printed, ``chaos:loc-tricorner-yards``).
* ``adler`` -- Get Adler!
    - action cards ``adler:<kind>`` for the 64 unmarked cards (``question, magnifier,
      binoculars, arrest, escape, pistol, bomb, disguise``); documents carry their printed
      branch (``adler:document-royal-air-force``); cards marked 5+ / 6+ carry the mark in
      the id: ``adler:pistol-5p``, ``adler:escape-bus-5p``, ``adler:escape-underground-6p``,
      ``adler:document-mi5-6p``.  The designs and counts come from the Get Adler! engine's
      data file (13 marked cards per set as it reads the rulebook: the 6+ set's 13th card
      is a bomb, ``adler:bomb-6p``).  Properties ``kind``, ``players`` (4, 5 or 6: the
      smallest player count that uses it), ``vehicle`` for marked escape cards, ``branch``
      for documents.
    - characters ``adler:char-<name>``: ``adler, gold, sharpe, townsend, kate-collins,
      boris-tarasov``.
* ``rg`` -- Rogues Gallery
    - heroes ``rg:hero-<name>`` (``basic`` or ``advanced`` in ``tier``), the three
      ``rg:batman-1..3``, upgrades ``rg:upgrade-<name>``, accomplices
      ``rg:accomplice-<name>``, with the starting ``rg:upgrade-secret-lair``,
      ``rg:accomplice-stonegate-prisoner`` and ``rg:accomplice-arkham-inmate``.  The
      rulebook names only a few cards; the others are numbered placeholders
      (``rg:hero-basic-03``, ``rg:upgrade-05``, ``rg:accomplice-12``): stable ids a user can
      keep while the printed names go into the game's data file.  The components list's
      29 Upgrade and 37 Accomplice cards include the starting ones (5 Secret Lairs, 5
      Stonegate Prisoners, 5 Arkham Asylum Inmates: one of each per player, up to 5).

Every deck also has a card back, enrolled as ``back`` (not a card id: a back is reported as
``face_up = False`` with no id).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Property = str | int | bool

POKER_SIZE_MM = (63.0, 88.0)
OVERSIZED_MM = (88.0, 126.0)


@dataclass(frozen=True)
class CardSpec:
    """One card design: its id, the name printed on it, and its printed properties."""

    id: str
    name: str
    category: str  # "poker", "joker", "role", "character", "trick", "villain", ...
    properties: Mapping[str, Property] = field(default_factory=dict)
    count: int = 1  # copies of this design in a full deck
    size_mm: tuple[float, float] = POKER_SIZE_MM  # width, height (portrait)
    index: str = ""  # the short text printed in two corners (rank, value, code)


@dataclass(frozen=True)
class DeckSpec:
    name: str
    title: str
    cards: tuple[CardSpec, ...]
    back_colour: tuple[int, int, int]  # BGR of the stand-in back

    def card(self, card_id: str) -> CardSpec:
        for spec in self.cards:
            if spec.id == card_id:
                return spec
        raise KeyError(card_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(spec.id for spec in self.cards)


def _slug(text: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def _code(name: str) -> str:
    """A short corner code for named cards (initials, else first letters)."""
    words = [w for w in _slug(name).split("-") if w not in ("the", "of", "in", "and")]
    if len(words) >= 2:
        return "".join(w[0] for w in words[:3]).upper()
    return words[0][:3].upper() if words else "?"


# --- Almost Got 'Im -------------------------------------------------------------------------

AGI_SUITS: tuple[tuple[str, str, str], ...] = (
    ("bats", "Bats", "black"),
    ("hearts", "Harley-Hearts", "red"),
    ("diamonds", "Stolen Diamonds", "red"),
    ("riddles", "Riddles", "black"),
)
RANK_LABELS: dict[int, str] = {11: "J", 12: "Q", 13: "K", 14: "A"}
AGI_ROLES = (
    "Batman in Disguise",
    "Catwoman in Disguise",
    "Crafty",
    "Healer",
    "Homicidal",
    "Saboteur",
    "Sneaky",
    "Telepathic",
    "Watchful",
)
AGI_CHARACTERS = (
    "Two-Face",
    "Mr. Freeze",
    "Bane",
    "The Scarecrow",
    "Killer Croc",
    "The Riddler",
    "Clayface",
    "Penguin",
    "Ventriloquist & Scarface",
    "The Joker",
    "Poison Ivy",
    "Ra's al Ghul",
    "Harley Quinn",
)


def _char_slug(name: str) -> str:
    slug = _slug(name.replace("'", "").replace(".", ""))
    return slug.removeprefix("the-")


def _agi() -> DeckSpec:
    cards: list[CardSpec] = []
    for suit, suit_name, colour in AGI_SUITS:
        for rank in range(2, 15):
            label = RANK_LABELS.get(rank, str(rank))
            cards.append(
                CardSpec(
                    id=f"agi:{suit}-{label.lower()}",
                    name=f"{label} of {suit_name}",
                    category="poker",
                    properties={
                        "suit": suit,
                        "suit_name": suit_name,
                        "rank": rank,
                        "rank_label": label,
                        "colour": colour,
                    },
                    index=label,
                )
            )
    for n in (1, 2):
        cards.append(
            CardSpec(
                id=f"agi:joker-{n}",
                name="Joker",
                category="joker",
                properties={"wild": True, "colour": "red" if n == 1 else "black"},
                index="JK",
            )
        )
    for role in AGI_ROLES:
        cards.append(
            CardSpec(
                id=f"agi:role-{_slug(role)}",
                name=role,
                category="role",
                properties={"hero": role.endswith("in Disguise")},
                index=_code(role),
            )
        )
    for character in AGI_CHARACTERS:
        cards.append(
            CardSpec(
                id=f"agi:char-{_char_slug(character)}",
                name=character,
                category="character",
                size_mm=OVERSIZED_MM,
                index=_code(character),
            )
        )
    return DeckSpec("agi", "Almost Got 'Im", tuple(cards), back_colour=(60, 30, 120))


# --- Chaos in Gotham City --------------------------------------------------------------------

CHAOS_COLOURS = ("red", "green", "yellow", "blue")
BRUCE_WAYNE_VALUE = 6
CHAOS_VILLAINS = (
    "Catwoman",
    "The Joker",
    "The Riddler",
    "Two-Face",
    "Poison Ivy",
    "Harley Quinn",
    "The Penguin",
    "Clayface",
)
# The rulebook's map list, in its order (15 names; "Gatham" as printed on the poster).
CHAOS_LOCATIONS = (
    "Wayne Manor (Batcave)",
    "Gotham Train Station",
    "Crime Alley",
    "New Trigate Bridge",
    "Arkham Asylum",
    "Gotham Light & Power",
    "Gotham Water District Tunnel",
    "ACE Chemical",
    "Robinson Park",
    "Wayne Tower",
    "Clock Tower",
    "G.C.P.D. Headquarters",
    "City Hall",
    "Gatham City Bank",
    "Tricorner Yards",
)


def _location_slug(name: str) -> str:
    name = name.split(" (")[0].replace(".", "").replace("&", "and")
    return _slug(name)


def _chaos_batman_symbols() -> dict[str, int]:
    """How many Batman symbols each trick card shows (``"red-10"`` -> 2): the Chaos engine's
    data file is the one source (the rulebook does not say; see its DEFAULT), so the
    stand-in art prints exactly what the engine scores."""
    from tablehub.games.chaos_in_gotham.cards import load_card_data

    return {card.id: card.batman_symbols for card in load_card_data().trick_cards.values()}


def _chaos() -> DeckSpec:
    cards: list[CardSpec] = []
    symbols = _chaos_batman_symbols()
    for colour in CHAOS_COLOURS:
        for value in range(1, 11):
            cards.append(
                CardSpec(
                    id=f"chaos:{colour}-{value}",
                    name=f"{colour.title()} {value}",
                    category="trick",
                    properties={
                        "colour": colour,
                        "value": value,
                        "bruce_wayne": value == BRUCE_WAYNE_VALUE,
                        "batman_symbols": symbols[f"{colour}-{value}"],
                    },
                    index=str(value),
                )
            )
    for villain in CHAOS_VILLAINS:
        cards.append(
            CardSpec(
                id=f"chaos:villain-{_char_slug(villain)}",
                name=villain,
                category="villain",
                index=_code(villain),
            )
        )
    for place in CHAOS_LOCATIONS:
        cards.append(
            CardSpec(
                id=f"chaos:loc-{_location_slug(place)}",
                name=place,
                category="location",
                index=_code(_location_slug(place)),
            )
        )
    return DeckSpec("chaos", "Chaos in Gotham City", tuple(cards), back_colour=(40, 40, 40))


# --- Get Adler! ------------------------------------------------------------------------------

# kind -> printed title.  Which cards a deck has (kinds, sets, escape vehicles, document
# branches, counts) is the Get Adler! engine's data file: the one source (``_adler_designs``).
ADLER_KINDS: dict[str, str] = {
    "document": "Top Secret",
    "question": "Question",
    "magnifier": "Magnifying Glass",
    "binoculars": "Binoculars",
    "arrest": "Arrest",
    "escape": "Escape",
    "pistol": "Pistol",
    "bomb": "Bomb",
    "disguise": "Disguise",
}
ADLER_CHARACTERS: tuple[tuple[str, int], ...] = (
    ("Adler", 4),
    ("Gold", 4),
    ("Sharpe", 4),
    ("Townsend", 4),
    ("Kate Collins", 5),
    ("Boris Tarasov", 6),
)


def _adler_designs() -> list[tuple[str, str, dict[str, Property], int]]:
    """(id, printed name, properties, copies) of every action-card design, in the engine's
    card order, from its data file (``tablehub/games/get_adler/data.toml``): the sets (5+
    and 6+ cards carry the mark), the vehicle printed on marked escapes and the branch
    printed on every document (the Ultimate Mission tells them apart).  The referee's
    ``get_adler_cards.camera_id`` names each engine card with the same rule."""
    from tablehub.games.get_adler.data import SETS, load

    smallest = dict(SETS)
    designs: dict[str, tuple[str, dict[str, Property], int]] = {}
    for card in load().cards:
        mark = {"base": "", "five": "-5p", "six": "-6p"}[card.set]
        shown = card.kind == "document" or (card.kind == "escape" and card.set != "base")
        variant = _slug(card.variant) if shown and card.variant else ""
        design = f"adler:{card.kind}{'-' + variant if variant else ''}{mark}"
        if design in designs:
            seen_name, seen_props, count = designs[design]
            designs[design] = (seen_name, seen_props, count + 1)
            continue
        players = smallest[card.set]
        props: dict[str, Property] = {"kind": card.kind, "players": players}
        name = ADLER_KINDS[card.kind]
        if variant:
            props["vehicle" if card.kind == "escape" else "branch"] = card.variant
            name = f"{name} ({card.variant})"
        if card.set != "base":
            name = f"{name} {players}+"
        designs[design] = (name, props, 1)
    return [(design, name, props, count) for design, (name, props, count) in designs.items()]


def _adler() -> DeckSpec:
    cards: list[CardSpec] = []
    for card_id, name, props, count in _adler_designs():
        players = int(props["players"])
        title = ADLER_KINDS[str(props["kind"])]
        base_index = _code(title) if " " in title else title[:3].upper()
        cards.append(
            CardSpec(
                id=card_id,
                name=name,
                category="action",
                properties=props,
                count=count,
                index=base_index if players == 4 else f"{players}+",
            )
        )
    for name, players in ADLER_CHARACTERS:
        cards.append(
            CardSpec(
                id=f"adler:char-{_slug(name)}",
                name=name,
                category="character",
                properties={"players": players, "villain": name in ("Adler", "Kate Collins")},
                index=_code(name),
            )
        )
    return DeckSpec("adler", "Get Adler!", tuple(cards), back_colour=(90, 70, 20))


# --- Rogues Gallery --------------------------------------------------------------------------

# Names the rulebook gives (examples and setup); the rest are numbered placeholders.
RG_BASIC_HEROES = ("Beat Cop", "S.W.A.T.")
RG_ADVANCED_HEROES = ("The Grey Ghost",)  # DEFAULT: the rulebook does not say its tier
RG_UPGRADES = ("Giant Hammer",)
RG_ACCOMPLICES = ("Nitro",)
RG_COUNTS = {"basic": 16, "advanced": 8, "upgrade": 29, "accomplice": 37, "batman": 3}
RG_PLAYERS_MAX = 5
# The starting cards, one per player (setup step 1), are among the components' counts.
RG_STARTING = {"upgrade": 1, "accomplice": 2}


def _named_then_numbered(
    prefix: str, names: tuple[str, ...], total: int, numbered: str, label: str, code: str
) -> list[tuple[str, str, str]]:
    """(id, printed name, corner code): the named cards first, then numbered placeholders."""
    out = [
        (f"{prefix}-{_slug(n.replace('.', '')).removeprefix('the-')}", n, _code(n)) for n in names
    ]
    for i in range(len(names) + 1, total + 1):
        out.append((f"{prefix}-{numbered}{i:02d}", f"{label} {i}", f"{code}{i}"))
    return out


def _rg() -> DeckSpec:
    cards: list[CardSpec] = []
    for tier, names, code in (
        ("basic", RG_BASIC_HEROES, "H"),
        ("advanced", RG_ADVANCED_HEROES, "AH"),
    ):
        for card_id, name, index in _named_then_numbered(
            "rg:hero", names, RG_COUNTS[tier], f"{tier}-", f"{tier.title()} Hero", code
        ):
            cards.append(
                CardSpec(
                    id=card_id,
                    name=name,
                    category="hero",
                    properties={"tier": tier},
                    index=index,
                )
            )
    for n in range(1, RG_COUNTS["batman"] + 1):
        cards.append(
            CardSpec(id=f"rg:batman-{n}", name=f"The Batman {n}", category="batman", index=f"B{n}")
        )
    for card_id, name, index in _named_then_numbered(
        "rg:upgrade",
        RG_UPGRADES,
        RG_COUNTS["upgrade"] - RG_STARTING["upgrade"] * RG_PLAYERS_MAX,
        "",
        "Upgrade",
        "U",
    ):
        cards.append(CardSpec(id=card_id, name=name, category="upgrade", index=index))
    cards.append(
        CardSpec(
            id="rg:upgrade-secret-lair",
            name="Secret Lair",
            category="upgrade",
            properties={"starting": True},
            count=RG_PLAYERS_MAX,
            index="SL",
        )
    )
    for card_id, name, index in _named_then_numbered(
        "rg:accomplice",
        RG_ACCOMPLICES,
        RG_COUNTS["accomplice"] - RG_STARTING["accomplice"] * RG_PLAYERS_MAX,
        "",
        "Accomplice",
        "A",
    ):
        cards.append(CardSpec(id=card_id, name=name, category="accomplice", index=index))
    for card_id, name, index in (
        ("rg:accomplice-stonegate-prisoner", "Stonegate Prisoner", "SP"),
        ("rg:accomplice-arkham-inmate", "Arkham Asylum Inmate", "AAI"),
    ):
        cards.append(
            CardSpec(
                id=card_id,
                name=name,
                category="accomplice",
                properties={"starting": True},
                count=RG_PLAYERS_MAX,
                index=index,
            )
        )
    return DeckSpec("rg", "Rogues Gallery", tuple(cards), back_colour=(30, 90, 30))


DECKS: dict[str, DeckSpec] = {deck.name: deck for deck in (_agi(), _chaos(), _adler(), _rg())}


def card_spec(card_id: str) -> CardSpec:
    """The spec of any stand-in card id (``KeyError`` if no deck has it)."""
    deck_name = card_id.partition(":")[0]
    deck = DECKS.get(deck_name)
    if deck is None:
        raise KeyError(card_id)
    return deck.card(card_id)

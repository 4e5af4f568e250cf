"""The virtual tower's camera mode: each throw is rendered as a tray picture and read by
the real pip counter, so the tower reports what a camera would see (cocked and unreadable
dice included) instead of the generator's numbers."""

from __future__ import annotations

import random
from collections.abc import Callable

from tablehub.devices import dice_tower_wire as wire
from tablehub.vision.dice import count_dice
from tablehub.vision.dice_render import render_throw

COLOURS = ["white", "green", "purple", "red"]  # the virtual tower's colour list

Reader = Callable[[list[tuple[int, str]], random.Random], list[wire.Die]]


def camera_reader(seed: int, cocked: float = 0.0) -> Reader:
    render_rng = random.Random(seed + 7)

    def read(shown: list[tuple[int, str]], rng: random.Random) -> list[wire.Die]:
        image, _truth, camera = render_throw(shown, render_rng, cocked)
        dice = []
        for die in count_dice(image, camera)[: len(shown) + 4]:
            if die.colour not in COLOURS:
                dice.append(wire.Die(0, 0, wire.STATUS_UNREADABLE))  # colour unknown
                continue
            status = wire.STATUS_NAMES.index(die.status)
            value = die.value if die.status == "stable" and die.value else 0
            dice.append(wire.Die(value, COLOURS.index(die.colour), status))
        return dice

    return read

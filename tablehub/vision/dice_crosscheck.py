"""Tower and camera both read a throw: the two readings must say the same dice.  Pure
logic; the referees' ``DiceCheck`` (``tablehub.referee.dice_check``) uses it to accept a
throw only when they agree and to re-read, then ask the table, when they do not.
"""

from __future__ import annotations

from collections import Counter

from tablehub.observations import DiceEvent, DieReading


def _faces(event: DiceEvent) -> Counter[tuple[str, int | None, str]]:
    return Counter((d.colour, d.value, d.status) for d in event.dice)


def describe(dice: tuple[DieReading, ...]) -> str:
    """``"6 green, cocked purple"`` (for the log and the dealer view)."""
    return ", ".join(f"{d.value if d.status == 'stable' else d.status} {d.colour}" for d in dice)


def compare(tower: DiceEvent, camera: DiceEvent) -> str | None:
    """None when both say the same dice (the order of dice does not matter), else why not."""
    if any(d.status != "stable" for d in tower.dice + camera.dice):
        return "a die is cocked or unreadable"
    if len(tower.dice) != len(camera.dice):
        counts = f"{len(tower.dice)} dice, the {camera.source} {len(camera.dice)}"
        return f"the {tower.source} sees {counts}"
    if _faces(tower) != _faces(camera):
        return (
            f"the {tower.source} read {describe(tower.dice)}, "
            f"the {camera.source} {describe(camera.dice)}"
        )
    return None

"""Dice for a referee: a throw reaches the rules only when every source that reads dice
(the tower, the camera) has read it and they agree.

``DiceCheck.decide`` turns a ``DiceEvent`` into records, changing nothing:

* one source's reading while another's is still to come -> ``dice-reading`` (journaled, a
  *passive* kind: it does not reset the re-read count, see ``Referee.passive_kinds``);
* the last reading, agreeing with the others -> ``dice`` with the agreed dice: the only
  record a game's rules ever see;
* a cocked or unreadable die, no dice, or readings that disagree -> ``rejected`` (key
  ``"dice"``, source ``"dice"``): the base referee asks the tower and camera to read again
  (``Reread``), and after that asks the table to roll again (``AskTable``).  Never one of
  the two readings picked.

``DiceCheck.apply`` keeps the pending readings; the referee calls it from ``apply_record``
(for ``dice-reading`` and ``dice``) and ``on_rejected``, so a replay rebuilds them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from tablehub.observations import DiceEvent, observation_from_json, to_json
from tablehub.vision.dice_crosscheck import compare, describe

if TYPE_CHECKING:
    from tablehub.referee.base import Record, Referee

READING = "dice-reading"
THROW = "dice"
KEY = "dice"
ASK_UNREADABLE = "A die is cocked or hard to read. Please roll again."
ASK_DISAGREE = "The tower and the camera read the dice differently. Please roll again."
ASK_NOTHING = "I saw no dice. Please roll again."


class DiceCheck:
    """The readings of the current throw, one per source, until all sources agree."""

    def __init__(self, sources: Iterable[str] = ("tower", "camera")) -> None:
        self.sources = frozenset(sources)
        if not self.sources <= {"tower", "camera"}:
            raise ValueError(f"dice sources are tower and camera, not {sorted(self.sources)}")
        self.pending: dict[str, dict[str, Any]] = {}  # source -> its DiceEvent as JSON

    def decide(self, referee: Referee, event: DiceEvent) -> list[Record]:
        if event.source not in self.sources:
            return []  # a source this table does not cross-check with
        if not event.dice:
            why = f"the {event.source} saw no dice"
            return referee.reject(event, why, ASK_NOTHING, KEY, source="dice")
        if any(d.status != "stable" for d in event.dice):
            why = f"the {event.source} read {describe(event.dice)}"
            return referee.reject(event, why, ASK_UNREADABLE, KEY, source="dice")
        others = {s: r for s, r in self.pending.items() if s != event.source}
        if len(others) + 1 < len(self.sources):
            return [{"kind": READING, "source": event.source, "event": to_json(event)}]
        for data in others.values():
            other = observation_from_json(data)
            assert isinstance(other, DiceEvent)
            differ = compare(other, event)
            if differ is not None:
                return referee.reject(event, differ, ASK_DISAGREE, KEY, source="dice")
        return [
            {
                "kind": THROW,
                "dice": [[d.value, d.colour] for d in event.dice],
                "sources": sorted(self.sources),
                "throw_id": event.throw_id,
            }
        ]

    def apply(self, record: Record) -> None:
        """Follow a journaled record (any kind; the ones not about dice change nothing)."""
        kind = record.get("kind")
        if kind == READING:
            self.pending[str(record["source"])] = dict(record["event"])
        elif kind == THROW or (kind == "rejected" and record.get("key") == KEY):
            self.pending.clear()  # the throw is decided, or must be read (or rolled) again

    def snapshot(self) -> dict[str, Any]:
        return {"sources": sorted(self.sources), "pending": sorted(self.pending)}

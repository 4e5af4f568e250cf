"""``--option KEY=VALUE`` on the command line: one parser for ``run`` and ``simulate``."""

from __future__ import annotations

import json
from typing import Any


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["rounds=2", "name=Ann"]`` -> ``{"rounds": 2, "name": "Ann"}``: VALUE is JSON when
    it parses as JSON, else the plain string.  ``ValueError`` for a pair without ``=``."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option {pair!r}: expected KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options

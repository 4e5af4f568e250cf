"""Sub-commands of the ``tablehub`` CLI; each module has ``register(subparsers)``."""

from __future__ import annotations

import argparse
from typing import Any, TypeAlias

# argparse's sub-parser action is private; this alias keeps the signatures readable.
Subparsers: TypeAlias = "argparse._SubParsersAction[Any]"

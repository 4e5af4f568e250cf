"""Placeholder device demo until the foundation's device demo lands."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablehub.commands.demo import DemoOptions


def run_demo(options: DemoOptions) -> int:
    print("tablehub demo: the simulated device session is not built yet")
    return 1

"""A virtual clock for the asyncio loop: waits are skipped, everything else runs for real.

Simulations and tests of the hub need its timing (Blackout slots of 12 s, countdowns,
panel timeouts) without waiting for it.  ``VirtualClockLoop`` is an ordinary selector
event loop whose ``time()`` is a virtual clock: when the loop has nothing to do but wait
for a timer, it first gives the outside world (threads finishing a synthesis, file
copies, panel callbacks) a moment of real time (``idle_wait``), and if nothing comes,
moves the clock towards that timer, by at most ``max_jump`` at a time.  So a 2-minute
Blackout schedule "plays" in a fraction of a second of wall time, and every mark still
arrives in order at its exact virtual time; processing costs no virtual time at all.

Work in threads runs in real time while the clock keeps jumping, so a timeout that guards
a thread (the voice's watchdog) must be generous in virtual seconds: with the defaults,
each real millisecond of thread work is up to two virtual seconds.  Only public asyncio
APIs are used: the loop takes the wrapped selector, and ``time()`` is overridden.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine, Mapping
from typing import Any, TypeVar

T = TypeVar("T")


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0


class _SkippingSelector(selectors.BaseSelector):
    """The default selector; a wait that times out moves the virtual clock instead."""

    def __init__(self, clock: _Clock, idle_wait: float, max_jump: float) -> None:
        self._inner = selectors.DefaultSelector()
        self._clock = clock
        self._idle_wait = idle_wait
        self._max_jump = max_jump

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.register(fileobj, events, data)

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self._inner.unregister(fileobj)

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.modify(fileobj, events, data)

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None or timeout <= 0:
            return self._inner.select(timeout)
        ready = self._inner.select(min(timeout, self._idle_wait))
        if not ready:
            self._clock.now += min(timeout, self._max_jump)
        return ready

    def get_key(self, fileobj: Any) -> selectors.SelectorKey:
        return self._inner.get_key(fileobj)

    def get_map(self) -> Mapping[Any, selectors.SelectorKey]:
        return self._inner.get_map()

    def close(self) -> None:
        self._inner.close()


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop on virtual time (see the module docstring)."""

    def __init__(self, idle_wait: float = 0.0005, max_jump: float = 1.0) -> None:
        self._clock = _Clock()
        super().__init__(_SkippingSelector(self._clock, idle_wait, max_jump))

    def time(self) -> float:
        return self._clock.now


def run_virtual(
    coro: Coroutine[Any, Any, T], idle_wait: float = 0.0005, max_jump: float = 1.0
) -> T:
    """``asyncio.run`` on a ``VirtualClockLoop``."""
    with asyncio.Runner(loop_factory=lambda: VirtualClockLoop(idle_wait, max_jump)) as runner:
        return runner.run(coro)

"""The dealer panel on gpiozero's MockFactory: drive the pins, check LEDs and timing."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest

from tablehub.config import PanelConfig
from tablehub.devices.panel import Panel, PanelError, PanelHands, mock_pin_factory
from tablehub.observations import PanelEvent

T = TypeVar("T")
PINS = PanelConfig()


@pytest.fixture
def factory() -> Iterator[Any]:
    f = mock_pin_factory()
    yield f
    f.reset()  # every pin released and forgotten: tests never see each other's state


def run(factory: Any, body: Callable[[Panel, PanelHands], Awaitable[T]], seats: int = 5) -> T:
    async def main() -> T:
        panel = Panel(PINS, seats, pin_factory=factory, on_event=events.append)
        try:
            return await body(panel, PanelHands(panel))
        finally:
            panel.close()

    events: list[PanelEvent] = []
    run.events = events  # type: ignore[attr-defined]
    return asyncio.run(main())


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_choose_seat_turn_lights_the_seat_and_press_confirms(factory: Any) -> None:
    async def body(panel: Panel, hands: PanelHands) -> None:
        panel.light_seats([4])
        task = asyncio.create_task(panel.choose_seat([0, 2, 3], timeout=5))
        await settle()
        assert panel.lit_seats() == (0,)
        hands.turn(2)
        await settle()
        assert panel.lit_seats() == (3,)
        assert factory.pin(PINS.seat_leds[3]).state and not factory.pin(PINS.seat_leds[0]).state
        hands.turn(1)  # wraps around
        await settle()
        assert panel.lit_seats() == (0,)
        hands.turn(-2)
        await settle()
        assert panel.lit_seats() == (2,)
        hands.press_knob()
        assert await task == 2
        assert panel.lit_seats() == (4,)  # what was lit before is back

    run(factory, body)


def test_choose_seat_times_out(factory: Any) -> None:
    async def body(panel: Panel, hands: PanelHands) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert await panel.choose_seat([1, 2], timeout=0.1) is None
        assert 0.1 <= loop.time() - start < 0.5
        assert panel.lit_seats() == ()
        hands.press_knob()  # a press after the timeout is just a panel event
        await settle()

    run(factory, body)
    assert run.events == [PanelEvent("declared")]  # type: ignore[attr-defined]


def test_a_newer_choice_replaces_the_older(factory: Any) -> None:
    async def body(panel: Panel, hands: PanelHands) -> tuple[int | None, int | None]:
        first = asyncio.create_task(panel.choose_seat([0, 1], timeout=5))
        await settle()
        second = asyncio.create_task(panel.choose_seat([3, 4], timeout=5, start=4))
        await settle()
        hands.press_knob()
        return await first, await second

    assert run(factory, body) == (None, 4)


def test_wait_next(factory: Any) -> None:
    async def body(panel: Panel, hands: PanelHands) -> tuple[bool, bool]:
        task = asyncio.create_task(panel.wait_next(timeout=5))
        await settle()
        hands.press_next()
        pressed = await task
        timed_out = await panel.wait_next(timeout=0.05)
        hands.press_next()  # nobody waiting: an event for the service
        await settle()
        return pressed, timed_out

    assert run(factory, body) == (True, False)
    assert run.events == [PanelEvent("next")]  # type: ignore[attr-defined]


def test_private_colour_shows_for_its_time_then_goes_dark(factory: Any) -> None:
    async def body(panel: Panel, hands: PanelHands) -> None:
        task = asyncio.create_task(panel.show_private("green", 0.15))
        await settle()
        assert hands.private_colour() == (0.0, 1.0, 0.0)
        await task
        assert hands.private_colour() == (0.0, 0.0, 0.0)
        (_, initial), (on_at, on), (off_at, off) = hands.pin_history(PINS.rgb_green)
        assert (initial, on, off) == (0.0, 1.0, 0.0)
        assert off_at - on_at == pytest.approx(0.15, abs=0.05)
        # a new answer replaces one still showing; the light is never left on
        first = asyncio.create_task(panel.show_private("red", 5))
        await settle()
        second = asyncio.create_task(panel.show_private("blue", 0.05))
        await settle()
        assert hands.private_colour() == (0.0, 0.0, 1.0)
        await second
        assert first.cancelled() or first.done()
        assert hands.private_colour() == (0.0, 0.0, 0.0)
        with pytest.raises(ValueError, match="unknown colour"):
            await panel.show_private("purple-ish", 1)

    run(factory, body)


def test_countdown_ticks_then_buzzes(factory: Any) -> None:
    async def body(panel: Panel, hands: PanelHands) -> tuple[list[int], list[float]]:
        ticks: list[int] = []
        await panel.countdown(3, interval=0.1, on_tick=ticks.append)
        return ticks, hands.buzzer_on_times()

    ticks, on_times = run(factory, body)
    assert ticks == [3, 2, 1, 0]
    assert len(on_times) == 4
    gaps = [b - a for a, b in itertools.pairwise(on_times)]
    assert all(g == pytest.approx(0.1, abs=0.04) for g in gaps), gaps


def test_pins_in_use_are_a_clear_error(factory: Any) -> None:
    async def body(panel: Panel, hands: PanelHands) -> None:
        with pytest.raises(PanelError, match="cannot set up the panel pins"):
            Panel(PINS, 5, pin_factory=factory)

    run(factory, body)


def test_too_many_seats_for_the_leds() -> None:
    async def body() -> None:
        with pytest.raises(PanelError, match="7 seats but only 2"):
            Panel(PanelConfig(seat_leds=(5, 6)), 7, pin_factory=mock_pin_factory())

    asyncio.run(body())

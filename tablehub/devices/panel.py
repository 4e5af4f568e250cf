"""The dealer panel: rotary encoder with push switch, seat LEDs, private RGB light, "next"
button and buzzer, on GPIO through gpiozero.

The referee thinks in operations, not pins: *choose a seat* (turning the knob lights that
seat's LED, pressing confirms, with a timeout), *wait for next*, *show a private colour for
N seconds*, *count down with ticks*, *light these seats*.  All of them are coroutines that
never block the event loop: gpiozero calls back from its own threads and the callbacks are
handed to the loop with ``call_soon_threadsafe``.

gpiozero is imported inside ``Panel`` only.  Tests and the simulated hub pass gpiozero's
``MockFactory`` (``mock_pin_factory()``) and drive the pins with ``PanelHands``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tablehub.config import PanelConfig
from tablehub.observations import PanelEvent

log = logging.getLogger(__name__)

COLOURS: dict[str, tuple[float, float, float]] = {
    "off": (0.0, 0.0, 0.0),
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "yellow": (1.0, 0.6, 0.0),
    "magenta": (1.0, 0.0, 1.0),
    "cyan": (0.0, 1.0, 1.0),
    "white": (1.0, 1.0, 1.0),
}

TICK_SECONDS = 0.06  # one buzzer tick
FINAL_BUZZ_SECONDS = 0.5


class PanelError(RuntimeError):
    """The panel cannot be set up (pins in use, no GPIO access, bad pin numbers)."""


def mock_pin_factory() -> Any:
    """gpiozero's MockFactory with PWM-capable pins (the RGB LED dims)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


class Panel:
    """The panel's devices and high-level operations.  Create it inside the running loop."""

    def __init__(
        self,
        pins: PanelConfig,
        seats: int,
        pin_factory: Any = None,
        on_event: Callable[[PanelEvent], None] | None = None,
    ) -> None:
        if seats > len(pins.seat_leds):
            raise PanelError(f"{seats} seats but only {len(pins.seat_leds)} seat LED pins")
        try:
            from gpiozero import RGBLED, Button, Buzzer, LEDBoard, RotaryEncoder
            from gpiozero.exc import GPIOZeroError
        except ImportError as err:  # pragma: no cover - gpiozero is a dependency
            raise PanelError(f"gpiozero is not installed: {err}") from err
        self.pins = pins
        self.seats = seats
        self.pin_factory = pin_factory
        self.on_event = on_event
        self._loop = asyncio.get_running_loop()
        kw: dict[str, Any] = {"pin_factory": pin_factory}
        made: list[Any] = []
        try:
            self.encoder = RotaryEncoder(pins.encoder_a, pins.encoder_b, max_steps=0, **kw)
            made.append(self.encoder)
            self.knob = Button(pins.encoder_button, bounce_time=None, **kw)
            made.append(self.knob)
            self.next_button = Button(pins.next_button, bounce_time=None, **kw)
            made.append(self.next_button)
            self.buzzer = Buzzer(pins.buzzer, **kw)
            made.append(self.buzzer)
            self.rgb = RGBLED(pins.rgb_red, pins.rgb_green, pins.rgb_blue, **kw)
            made.append(self.rgb)
            self.leds = LEDBoard(*pins.seat_leds[:seats], **kw)
            made.append(self.leds)
        except (GPIOZeroError, OSError, RuntimeError) as err:
            for device in made:
                device.close()
            raise PanelError(f"cannot set up the panel pins: {err}") from err
        self._choice: asyncio.Future[int] | None = None
        self._choice_seats: tuple[int, ...] = ()
        self._cursor = 0
        self._next: asyncio.Future[None] | None = None
        self._private: asyncio.Task[Any] | None = None
        self.encoder.when_rotated_clockwise = lambda: self._from_thread(self._turned, 1)
        self.encoder.when_rotated_counter_clockwise = lambda: self._from_thread(self._turned, -1)
        self.knob.when_pressed = lambda: self._from_thread(self._knob_pressed)
        self.next_button.when_pressed = lambda: self._from_thread(self._next_pressed)

    def close(self) -> None:
        for device in (self.encoder, self.knob, self.next_button, self.buzzer, self.rgb, self.leds):
            device.close()

    # --- callbacks (gpiozero threads -> loop) -----------------------------------------
    def _from_thread(self, fn: Callable[..., None], *args: Any) -> None:
        self._loop.call_soon_threadsafe(fn, *args)

    def _turned(self, step: int) -> None:
        if self._choice is None or self._choice.done():
            return
        self._cursor = (self._cursor + step) % len(self._choice_seats)
        self._light_only(self._choice_seats[self._cursor])

    def _knob_pressed(self) -> None:
        if self._choice is not None and not self._choice.done():
            self._choice.set_result(self._choice_seats[self._cursor])
        elif self.on_event is not None:
            self.on_event(PanelEvent("declared"))

    def _next_pressed(self) -> None:
        if self._next is not None and not self._next.done():
            self._next.set_result(None)
        elif self.on_event is not None:
            self.on_event(PanelEvent("next"))

    # --- seat LEDs --------------------------------------------------------------------
    def light_seats(self, seats: Iterable[int]) -> None:
        """Exactly these seats' LEDs on."""
        wanted = set(seats)
        self.leds.value = tuple(1 if i in wanted else 0 for i in range(self.seats))

    def lit_seats(self) -> tuple[int, ...]:
        return tuple(i for i, v in enumerate(self.leds.value) if v)

    def _light_only(self, seat: int) -> None:
        self.light_seats((seat,))

    # --- operations -------------------------------------------------------------------
    async def choose_seat(
        self, seats: Sequence[int], timeout: float | None, start: int | None = None
    ) -> int | None:
        """Let the knob pick one of ``seats``; ``None`` on timeout.  The seat LEDs show the
        cursor while choosing and are restored afterwards.  A newer request replaces an
        older one (which then returns ``None``)."""
        if not seats:
            raise ValueError("choose_seat needs at least one seat")
        if self._choice is not None and not self._choice.done():
            self._choice.cancel()
        before = self.lit_seats()
        self._choice_seats = tuple(seats)
        self._cursor = self._choice_seats.index(start) if start in self._choice_seats else 0
        self._choice = self._loop.create_future()
        self._light_only(self._choice_seats[self._cursor])
        choice = self._choice
        try:
            return await asyncio.wait_for(asyncio.shield(choice), timeout)
        except TimeoutError:
            choice.cancel()
            return None
        except asyncio.CancelledError:
            if choice.cancelled() and not _being_cancelled():
                return None  # replaced by a newer request
            choice.cancel()
            raise
        finally:
            if self._choice is choice:
                self.light_seats(before)

    async def wait_next(self, timeout: float | None) -> bool:
        """True when "next" is pressed, False on timeout."""
        if self._next is not None and not self._next.done():
            self._next.cancel()
        waiting = self._loop.create_future()
        self._next = waiting
        try:
            await asyncio.wait_for(asyncio.shield(waiting), timeout)
            return True
        except TimeoutError:
            waiting.cancel()
            return False
        except asyncio.CancelledError:
            if waiting.cancelled() and not _being_cancelled():
                return False  # replaced by a newer request
            waiting.cancel()
            raise

    async def show_private(self, colour: str, seconds: float) -> None:
        """The RGB light shows ``colour`` for ``seconds`` then goes dark.  A new private
        colour replaces one still showing (never two answers at once)."""
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r}; known: {', '.join(COLOURS)}")
        if self._private is not None and not self._private.done():
            self._private.cancel()
        self._private = asyncio.current_task()
        self.rgb.color = COLOURS[colour]
        try:
            await asyncio.sleep(seconds)
        finally:
            if self._private is asyncio.current_task():
                self.rgb.off()

    async def beep(self, seconds: float) -> None:
        self.buzzer.on()
        try:
            await asyncio.sleep(seconds)
        finally:
            self.buzzer.off()

    async def countdown(
        self, seconds: int, interval: float = 1.0, on_tick: Callable[[int], None] | None = None
    ) -> None:
        """Tick the buzzer once per ``interval`` for ``seconds`` ticks, calling
        ``on_tick(left)`` (left = seconds, ..., 1), then a long buzz at 0."""
        loop = self._loop
        start = loop.time()
        for i in range(seconds):
            left = seconds - i
            if on_tick is not None:
                on_tick(left)
            await self.beep(min(TICK_SECONDS, interval / 2))
            await asyncio.sleep(max(0.0, start + (i + 1) * interval - loop.time()))
        if on_tick is not None:
            on_tick(0)
        await self.beep(min(FINAL_BUZZ_SECONDS, max(interval, TICK_SECONDS)))


def _being_cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class PanelHands:
    """Hands on a mock panel: turn the knob, press buttons (tests and the simulated hub)."""

    def __init__(self, panel: Panel) -> None:
        if panel.pin_factory is None:
            raise ValueError("PanelHands needs a panel built on a mock pin factory")
        factory = panel.pin_factory
        self.panel = panel
        self.a = factory.pin(panel.pins.encoder_a)
        self.b = factory.pin(panel.pins.encoder_b)
        self.knob = factory.pin(panel.pins.encoder_button)
        self.next = factory.pin(panel.pins.next_button)

    def turn(self, steps: int) -> None:
        """Turn the knob ``steps`` detents (negative: anticlockwise)."""
        sequence = (
            [(0, 1), (0, 0), (1, 0), (1, 1)] if steps > 0 else [(1, 0), (0, 0), (0, 1), (1, 1)]
        )
        for _ in range(abs(steps)):
            for a, b in sequence:
                self._set(self.a, a)
                self._set(self.b, b)

    def press_knob(self) -> None:
        self.knob.drive_low()
        self.knob.drive_high()

    def press_next(self) -> None:
        self.next.drive_low()
        self.next.drive_high()

    def private_colour(self) -> tuple[float, float, float]:
        r, g, b = self.panel.rgb.value
        return (float(r), float(g), float(b))

    def pin_history(self, pin_number: int) -> list[tuple[float, float]]:
        """(seconds since the pin was set up, state) for every change of a mock pin.

        gpiozero's MockPin records the time since the previous change; this adds them up.
        """
        t = 0.0
        history = []
        for change in self.panel.pin_factory.pin(pin_number).states:
            t += change.timestamp
            history.append((t, float(change.state)))
        return history

    def buzzer_on_times(self) -> list[float]:
        """When (seconds since set-up) the buzzer went on."""
        return [t for t, state in self.pin_history(self.panel.pins.buzzer)[1:] if state]

    @staticmethod
    def _set(pin: Any, value: int) -> None:
        if bool(pin.state) != bool(value):
            if value:
                pin.drive_high()
            else:
                pin.drive_low()

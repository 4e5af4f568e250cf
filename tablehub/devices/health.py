"""Device checks for ``tablehub doctor``: each device is tried for real, each problem comes
with how to fix it.

A *check provider* is a function ``(config, simulated) -> list[Check]``.  ``PROVIDERS``
maps a name to ``"module:function"`` (imported only when doctor runs).  Providers must
not raise: a check that cannot run is a failed ``Check`` that says why.

Hook for the dice tower: the dice code registers its provider by adding one line here,
``"dice tower": "tablehub.devices.dice_tower:doctor_checks"`` — with ``simulated`` it
checks the virtual tower (handshake over a pseudo-terminal), otherwise the configured port.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import tempfile
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from tablehub.config import Config

T = TypeVar("T")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


CheckProvider = Callable[[Config, bool], list[Check]]

PROVIDERS: dict[str, str] = {
    "journal": "tablehub.devices.health:journal_checks",
    "camera": "tablehub.devices.health:camera_checks",
    "panel": "tablehub.devices.health:panel_checks",
    "voice": "tablehub.devices.health:voice_checks",
    "dice tower": "tablehub.devices.dice_tower:doctor_checks",
}


def run_checks(config: Config, simulated: bool, only: list[str] | None = None) -> list[Check]:
    """Every registered provider's checks (or those named in ``only``), in order."""
    results: list[Check] = []
    for name, target in PROVIDERS.items():
        if only and name not in only:
            continue
        module_name, _, function = target.partition(":")
        try:
            provider: CheckProvider = getattr(importlib.import_module(module_name), function)
            results += provider(config, simulated)
        except Exception as err:  # a broken provider is a failed check, not a crash
            results.append(
                Check(
                    name,
                    False,
                    f"the check itself failed: {type(err).__name__}: {err}",
                    "this is a bug in tablehub; please report it with 'tablehub doctor -vv'",
                )
            )
    return results


def with_timeout(work: Callable[[], T], seconds: float) -> T:
    """Run blocking ``work`` in a daemon thread; ``TimeoutError`` if it hangs."""
    box: list[Any] = []
    done = threading.Event()

    def run() -> None:
        try:
            box.append((True, work()))
        except BaseException as err:
            box.append((False, err))
        done.set()

    threading.Thread(target=run, daemon=True, name="tablehub-doctor").start()
    if not done.wait(seconds):
        raise TimeoutError(f"no answer within {seconds:g} s")
    ok, value = box[0]
    if not ok:
        raise value
    result: T = value
    return result


# --- journal -------------------------------------------------------------------------------


def journal_checks(config: Config, simulated: bool) -> list[Check]:
    from tablehub.service.journal import Journal, JournalError

    path = config.journal_path
    try:
        with Journal(path) as journal:
            sessions = journal.sessions()
            unfinished = journal.last_unfinished()
    except JournalError as err:
        return [
            Check(
                "journal",
                False,
                str(err),
                f"make {path.parent} writable by the service user (ReadWritePaths= in the "
                "systemd unit), or set journal_path in the configuration",
            )
        ]
    resume = f"; will resume session {unfinished.id} ({unfinished.game})" if unfinished else ""
    return [Check("journal", True, f"{path} (WAL), {len(sessions)} session(s){resume}")]


# --- camera --------------------------------------------------------------------------------


def camera_checks(config: Config, simulated: bool) -> list[Check]:
    from tablehub.devices.camera import CameraError, make_camera

    name = "camera"
    cam = make_camera(config.camera, simulated=simulated)
    try:
        with_timeout(cam.open, 15.0)
        frame = with_timeout(cam.read, 10.0)
    except (CameraError, TimeoutError) as err:
        fix = {
            "picamera2": "check the ribbon cable (blue side to the Ethernet port on a Pi 4), "
            "run 'rpicam-hello --list-cameras', and install python3-picamera2",
            "opencv": "check 'ls /dev/video*', camera.device, and the 'video' group",
            "replay": "check camera.replay_path",
        }.get(config.camera.source, "")
        return [Check(name, False, f"{cam.description}: {err}", fix)]
    finally:
        with contextlib.suppress(Exception):  # closing must not hide the real problem
            cam.close()
    h, w = frame.shape[:2]
    brightness = float(np.mean(frame))
    detail = f"{cam.description}: got a {w}x{h} frame, mean brightness {brightness:.0f}/255"
    if brightness < 3.0:
        return [Check(name, False, detail + " (black)", "take off the lens cap; light the table")]
    if brightness > 252.0:
        return [Check(name, False, detail + " (white)", "too much light or exposure: shade it")]
    if not simulated and (w, h) != (config.camera.width, config.camera.height):
        detail += f" (asked for {config.camera.width}x{config.camera.height})"
    return [Check(name, True, detail)]


# --- panel ---------------------------------------------------------------------------------


def panel_checks(config: Config, simulated: bool) -> list[Check]:
    return asyncio.run(_panel_checks(config, simulated))


async def _panel_checks(config: Config, simulated: bool) -> list[Check]:
    from tablehub.devices.panel import Panel, PanelError, PanelHands, mock_pin_factory

    factory = mock_pin_factory() if simulated else None
    seats = config.seats.count
    try:
        with warnings.catch_warnings():  # gpiozero warns about each pin library it lacks
            warnings.simplefilter("ignore")
            panel = Panel(config.panel, seats, pin_factory=factory)
    except PanelError as err:
        return [
            Check(
                "panel",
                False,
                str(err),
                "on a Raspberry Pi: 'sudo apt install python3-lgpio' (venv with "
                "--system-site-packages), add the service user to the 'gpio' group, and check "
                "the [panel] pin numbers against hardware/wiring.md",
            )
        ]
    checks: list[Check] = []
    try:
        if simulated:
            hands = PanelHands(panel)
            target = seats - 1
            choosing = asyncio.ensure_future(panel.choose_seat(range(seats), timeout=2))
            await asyncio.sleep(0.01)
            hands.turn(-1)
            await asyncio.sleep(0.01)
            lit = panel.lit_seats()
            hands.press_knob()
            chosen = await choosing
            waiting = asyncio.ensure_future(panel.wait_next(timeout=2))
            await asyncio.sleep(0.01)
            hands.press_next()
            pressed = await waiting
            light = asyncio.ensure_future(panel.show_private("blue", 0.05))
            await asyncio.sleep(0.01)
            colour = hands.private_colour()
            await light
            await panel.beep(0.01)
            ok = chosen == target and lit == (target,) and pressed and colour == (0, 0, 1)
            detail = (
                f"mock pins: knob chose seat {chosen + 1 if chosen is not None else None} "
                f"(LED {lit}), next {'pressed' if pressed else 'missed'}, private light "
                f"{colour}, buzzer ticked"
            )
            checks.append(Check("panel", ok, detail, "" if ok else "a bug: report it"))
        else:
            stuck = [
                name
                for name, button in (
                    ("encoder button", panel.knob),
                    ("next button", panel.next_button),
                )
                if button.is_pressed
            ]
            for seat in range(seats):
                panel.light_seats([seat])
                await asyncio.sleep(0.15)
            panel.light_seats([])
            for name in ("red", "green", "blue"):
                await panel.show_private(name, 0.2)
            await panel.beep(0.1)
            if stuck:
                checks.append(
                    Check(
                        "panel",
                        False,
                        f"{', '.join(stuck)} reads as pressed at rest",
                        "a button should connect its pin to GND only while pressed; check "
                        "the wiring (hardware/wiring.md)",
                    )
                )
            else:
                checks.append(
                    Check(
                        "panel",
                        True,
                        f"{len(config.panel.named_pins())} pins claimed; seat LEDs 1-{seats}, the "
                        "RGB light (red, green, blue) and the buzzer were driven: did you "
                        "see and hear them?",
                    )
                )
    finally:
        panel.close()
    return checks


# --- voice ---------------------------------------------------------------------------------


def voice_checks(config: Config, simulated: bool) -> list[Check]:
    return asyncio.run(_voice_checks(config, simulated))


async def _voice_checks(config: Config, simulated: bool) -> list[Check]:
    from tablehub.devices.audio import detect_audio, play_blocking
    from tablehub.devices.voice import MemorySink, Voice, engine_factory

    engine = config.voice.engine
    checks: list[Check] = []
    with tempfile.TemporaryDirectory(prefix="tablehub-doctor-") as tmp:
        voice = Voice(
            engine_factory(engine, config.voice.rate, config.voice.volume, config.voice.voice),
            MemorySink(),
            Path(tmp),
            config.voice.timeout,
        )
        clip = await voice.render("This is the table hub. The voice works.")
        await voice.close()
        if clip.ok and clip.duration > 0.3:
            checks.append(
                Check("voice", True, f"{engine}: rendered a {clip.duration:.1f} s phrase")
            )
        else:
            fix = {
                "pyttsx3": "sudo apt-get install espeak-ng libespeak-ng1 (pyttsx3 uses its "
                'espeak driver); or set voice.engine = "espeak-ng"',
                "espeak-ng": "sudo apt-get install espeak-ng",
                "wav": "sudo apt-get install espeak-ng",
            }.get(engine, "")
            hung = " (it hung: abandoned by the watchdog)" if voice.abandoned else ""
            checks.append(Check("voice", False, f"{engine}: no speech was produced{hung}", fix))
            return checks
        wav_dir = config.voice_wav_dir
        if engine == "recording":
            checks.append(Check("audio output", True, "recording voice: nothing is played"))
        elif simulated or engine == "wav":
            why = "simulated" if simulated else 'voice.engine = "wav"'
            checks.append(
                Check("audio output", True, f"{why}: speech is written to WAV files in {wav_dir}")
            )
        else:
            status = detect_audio()
            if status.player is None:
                checks.append(
                    Check(
                        "audio output",
                        False,
                        f"{status.detail}; speech would go to WAV files in {wav_dir}",
                        "connect a speaker (Pi audio jack, USB or I2S) and check 'aplay -l'; "
                        "add the service user to the 'audio' group; or set voice.engine = "
                        '"wav" to write WAV files on purpose',
                    )
                )
            else:
                assert clip.path is not None
                try:
                    play_blocking(status.player, clip.path, clip.duration + 5)
                    checks.append(Check("audio output", True, f"played through {status.detail}"))
                except (RuntimeError, OSError, TimeoutError) as err:
                    checks.append(
                        Check(
                            "audio output",
                            False,
                            f"{status.detail}: {err}",
                            "check 'aplay -l' and the volume ('alsamixer'); the service user "
                            "needs the 'audio' group",
                        )
                    )
    return checks

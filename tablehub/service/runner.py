"""Putting a hub together from the configuration: journal, referee, devices, and run it.

``serve`` is what ``tablehub run`` (and the devices demo) call.  Real devices that fail to
start do not stop the service: the failure is printed (``tablehub doctor`` says how to fix
it) and the hub runs without that device, its outputs only written to the transcript.
Simulated devices are used when asked for, never silently instead of real ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import signal
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablehub.config import Config, ensure_data_dir
from tablehub.devices.camera import CameraError, SimulatedCamera, make_camera
from tablehub.devices.panel import Panel, PanelError, PanelHands, mock_pin_factory
from tablehub.devices.voice import make_voice
from tablehub.observations import Observation
from tablehub.referee import load_referee
from tablehub.referee.base import Setup
from tablehub.service.app import Devices, FrameReader, Hub, open_session
from tablehub.service.journal import Journal
from tablehub.service.web.board import DeviceProbe, DeviceState

if TYPE_CHECKING:
    from tablehub.service.web.server import WebServer as WebSite

log = logging.getLogger(__name__)

DEFAULT_GAME = "high-card"  # until a product game's referee is registered

Post = Callable[[Observation], None]
Feed = Callable[[Post], Coroutine[Any, Any, None]]
FeedMaker = Callable[[Config, bool, Callable[[str], None]], "Feed | None"]

# Extra observation sources, "name": "module:function".  The function gets (config,
# simulated, transcript) and returns a Feed — a coroutine function that puts observations
# on the hub's queue with ``post`` until cancelled — or None when not configured.  The dice
# tower registers here: "dice": "tablehub.devices.dice_tower:make_feed".
FEEDS: dict[str, str] = {
    "dice": "tablehub.devices.dice_tower:make_feed",
}

# ``tablehub run --simulated``: each game's simulated table (players, cards, the shared
# simulated camera), "game": "module:function".  The function gets (config, seed,
# transcript) and returns what ``RunOptions.simulation`` takes; the module may also have
# ``run_options(config)``: referee options the simulated table needs (a new session's).
# High Card uses the foundation's marker table instead (``sim_table``).
SIMULATIONS: dict[str, str] = {
    "almost-got-im": "tablehub.service.almost_got_im_demo:simulation",
    "chaos-in-gotham": "tablehub.service.chaos_demo:simulation",
    "dice-tray": "tablehub.service.dice_tray_sim:simulation",
    "get-adler": "tablehub.service.get_adler_demo:simulation",
}


@dataclass
class RunOptions:
    game: str | None = None  # None: resume the last unfinished session, else DEFAULT_GAME
    simulated: bool = False
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    fresh: bool = False  # abandon an unfinished session instead of resuming it
    wav_dir: Path | None = None
    force_wav: bool = False
    state_out: Path | None = None
    transcript: Callable[[str], None] = print
    pace: float = 0.05  # simulated players' reaction time
    save_frames: Path | None = None  # simulated: write the camera frames of each read card
    # simulated: a game's own simulated table (camera, card reader, players) for the hub
    simulation: Callable[[Hub, PanelHands | None], None] | None = None
    web: bool = False  # start the web page and control API ([web] in the config)


@dataclass
class Outcome:
    session_id: int
    resumed: bool
    finished: bool
    state: dict[str, Any]
    voice: str


def choose_game(journal: Journal, wanted: str | None) -> str:
    if wanted:
        return wanted
    unfinished = journal.last_unfinished()
    return unfinished.game if unfinished is not None else DEFAULT_GAME


async def serve(config: Config, opts: RunOptions) -> Outcome:
    """Run one session to its end (or until SIGTERM/SIGINT); resume it if unfinished."""
    data_dir = ensure_data_dir(config)
    say = opts.transcript
    journal = Journal(config.journal_path)
    try:
        game = choose_game(journal, opts.game)
        referee_cls = load_referee(game)
        if opts.simulated and opts.simulation is None and game in SIMULATIONS:
            opts = _with_simulation(config, opts, game)
        if opts.fresh:
            for info in journal.sessions():
                if info.finished_at is None and info.game == game:
                    journal.finish_session(info.id, {"abandoned": True})
        setup = Setup(
            game=game,
            seats=config.seats.names,
            options=dict(opts.options),
            seed=opts.seed,
            slot_seconds=config.blackout.slot_seconds,
            sweep_slot_seconds=config.blackout.sweep_slot_seconds,
            masking_sound=config.blackout.masking_sound,
        )
        referee, session_id, resumed = open_session(journal, referee_cls, setup)
        voice = make_voice(
            config.voice.engine,
            config.voice.rate,
            config.voice.volume,
            config.voice.voice,
            config.voice.timeout,
            opts.wav_dir or config.voice_wav_dir,
            config.data_dir / "cache",
            force_wav=opts.force_wav,
        )
        seats = ", ".join(referee.setup.seats)
        say(f"[hub] {referee.setup.game}: session {session_id}, seats {seats}")
        say(f"[hub] voice: {voice.description}")
        health = {"voice": _voice_state(config, voice.description)}
        devices = Devices(voice=voice, fps=config.camera.fps)
        probes: dict[str, DeviceProbe] = {}
        devices.feeds += _feeds(config, opts.simulated, say, health, probes)
        hub = Hub(journal, referee, session_id, devices, say)
        hands = _attach_panel(config, opts, hub, len(referee.setup.seats), health)
        _attach_camera(config, opts, hub, game, hands, health)
        site = await _start_web(config, data_dir, hub, health, say, probes) if opts.web else None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, hub.stop)
        try:
            await hub.run(resumed)
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.remove_signal_handler(sig)
            if site is not None:
                await site.stop()
            await hub.close()
            await voice.close()
            if devices.panel is not None:
                devices.panel.close()
        state = referee.state()
        if opts.state_out is not None:
            opts.state_out.write_text(json.dumps(state, indent=1, sort_keys=True))
        return Outcome(session_id, resumed, hub.finished, state, voice.description)
    finally:
        journal.close()


def _with_simulation(config: Config, opts: RunOptions, game: str) -> RunOptions:
    """``opts`` with the game's simulated table (and the referee options it needs)."""
    module_name, _, function = SIMULATIONS[game].partition(":")
    module = importlib.import_module(module_name)
    simulation = getattr(module, function)(config, opts.seed, opts.transcript)
    needed = getattr(module, "run_options", None)
    options = {**(needed(config) if needed is not None else {}), **opts.options}
    return replace(opts, simulation=simulation, options=options)


def _feeds(
    config: Config,
    simulated: bool,
    say: Callable[[str], None],
    health: dict[str, DeviceState] | None = None,
    probes: dict[str, DeviceProbe] | None = None,
) -> list[Feed]:
    """The configured feeds; their state at start into ``health``, and into ``probes`` a
    way to ask it again for those that report it (``device_state()``: the tower)."""
    feeds: list[Feed] = []
    states = health if health is not None else {}
    states["tower"] = DeviceState("not in use", "no dice tower feed installed")
    for name, target in FEEDS.items():
        key = "tower" if name == "dice" else name
        module_name, _, function = target.partition(":")
        try:
            maker: FeedMaker = getattr(importlib.import_module(module_name), function)
            feed = maker(config, simulated, say)
        except Exception as err:  # a broken source must not stop the hub
            say(f"[hub] {name} not available: {err} (see 'tablehub doctor')")
            states[key] = DeviceState("failed", str(err))
            continue
        if feed is None:
            states[key] = DeviceState("not in use", "not configured")
            continue
        feeds.append(feed)
        sim = simulated or (name == "dice" and config.dice_tower.port == "sim")
        detail = config.dice_tower.port if name == "dice" else ""
        states[key] = DeviceState("SIMULATED" if sim else "ok", detail)
        live = getattr(feed, "device_state", None)
        if probes is not None and callable(live):
            probes[key] = _probe(live)
    return feeds


def _probe(live: Callable[[], tuple[str, str]]) -> DeviceProbe:
    return lambda: DeviceState(*live())


def _voice_state(config: Config, description: str) -> DeviceState:
    if config.voice.engine == "recording":
        return DeviceState("SIMULATED", description)
    return DeviceState("ok", description)


async def _start_web(
    config: Config,
    data_dir: Path,
    hub: Hub,
    health: dict[str, DeviceState],
    say: Callable[[str], None],
    probes: dict[str, DeviceProbe] | None = None,
) -> WebSite | None:
    """The web page and control API on ``web.bind``; a failure is printed, not fatal."""
    if not config.web.enabled:
        say("[web] off (web.enabled = false)")
        return None
    from tablehub.service.web.board import PublicBoard
    from tablehub.service.web.server import WebServer
    from tablehub.service.web.token import TokenError, ensure_token, token_path

    try:
        token, made = ensure_token(data_dir)
    except TokenError as err:
        say(f"[web] not started: {err}")
        return None
    try:
        server = WebServer(hub, PublicBoard(hub, health, probes), token_path(data_dir))
        addresses = await server.start(config.web.host, config.web.port)
    except OSError as err:
        say(
            f"[web] not started: cannot listen on {config.web.bind}: {err.strerror or err} "
            "(change web.bind, or set web.enabled = false)"
        )
        return None
    except Exception as err:  # the page must never stop the referee
        log.exception("the web server could not start")
        say(f"[web] not started: {err}")
        return None
    for host, port in addresses:
        shown = f"[{host}]" if ":" in host else host
        everywhere = " (every address of this machine)" if host in ("0.0.0.0", "::") else ""
        say(f"[web] status page on http://{shown}:{port}/{everywhere}")
    if made:
        say(f"[web] control token (new; shown once, 'tablehub token' shows it again): {token}")
    else:
        say(f"[web] control token in {token_path(data_dir)} ('tablehub token' shows it)")
    return server


def _attach_panel(
    config: Config,
    opts: RunOptions,
    hub: Hub,
    seats: int,
    health: dict[str, DeviceState] | None = None,
) -> PanelHands | None:
    states = health if health is not None else {}
    factory = mock_pin_factory() if opts.simulated else None
    try:
        panel = Panel(config.panel, seats, pin_factory=factory, on_event=hub.post)
    except PanelError as err:
        hub.transcript(f"[hub] panel not available: {err} (see 'tablehub doctor')")
        states["panel"] = DeviceState("failed", str(err))
        return None
    hub.devices.panel = panel
    kind = "simulated (gpiozero mock pins)" if opts.simulated else "GPIO"
    hub.transcript("[hub] panel: " + kind)
    states["panel"] = DeviceState("SIMULATED" if opts.simulated else "ok", kind)
    return PanelHands(panel) if opts.simulated else None


def _attach_camera(
    config: Config,
    opts: RunOptions,
    hub: Hub,
    game: str,
    hands: PanelHands | None,
    health: dict[str, DeviceState] | None = None,
) -> None:
    states = health if health is not None else {}
    reader: FrameReader | None = None
    if opts.simulated and opts.simulation is not None:
        opts.simulation(hub, hands)
        states["camera"] = DeviceState("SIMULATED", "the game's simulated table")
        tower = getattr(opts.simulation, "tower_state", None)  # a dice table's own tower
        if isinstance(tower, DeviceState):
            states["tower"] = tower
        return
    if opts.simulated and game == "high-card":
        from tablehub.service.sim_table import (
            MarkerCardReader,
            Scene,
            SceneRenderer,
            SimulatedPlayers,
        )

        scene = Scene()
        renderer = SceneRenderer(scene, opts.seed)
        camera = SimulatedCamera(640, 360, renderer, in_loop=True)
        on_read = hub.transcript
        if opts.save_frames is not None:
            on_read = _frame_saver(opts.save_frames, camera, renderer, hub.transcript)
        reader = MarkerCardReader(on_read=on_read)
        if hands is not None:
            players = SimulatedPlayers(scene, hands, opts.seed, opts.pace, hub.transcript)
            hub.after_handle.append(players)
        hub.devices.camera, hub.devices.reader = camera, reader
        hub.transcript("[hub] camera: simulated table scene (640x360), cards read by marker")
        states["camera"] = DeviceState("SIMULATED", "table scene 640x360, cards read by marker")
        return
    try:
        reader = _vision_reader(config, game)
    except Exception as err:  # not set up yet (or broken): the hub runs without the camera
        hub.transcript(f"[hub] camera not started: {err}")
        states["camera"] = DeviceState("failed", str(err))
        return
    if reader is None:
        hub.transcript("[hub] camera: no card reader for this game yet; camera not started")
        states["camera"] = DeviceState("not in use", "no card reader for this game yet")
        return
    try:
        hub.devices.camera = make_camera(config.camera, simulated=opts.simulated)
        hub.devices.reader = reader
    except CameraError as err:
        hub.transcript(f"[hub] camera not available: {err}")
        states["camera"] = DeviceState("failed", str(err))
        return
    simulated = opts.simulated or config.camera.source == "simulated"
    size = f"{config.camera.source} {config.camera.width}x{config.camera.height}"
    states["camera"] = DeviceState("SIMULATED" if simulated else "ok", size)


# games whose camera watches the dice tray (pip counting) instead of reading cards
DICE_CAMERA_GAMES = frozenset({"dice-tray"})


def _vision_reader(config: Config, game: str) -> FrameReader | None:
    """The card-vision hook: ``tablehub.vision.reader.make_frame_reader(config, game)``
    (raises ``ReaderUnavailable`` naming the command to run when the table is not set up);
    for a dice game, the pip counter over the tray."""
    if game in DICE_CAMERA_GAMES:
        from tablehub.vision.dice_reader import DiceFrameReader

        return DiceFrameReader()
    from tablehub.vision.reader import make_frame_reader

    return make_frame_reader(config, game)


def _frame_saver(
    folder: Path, camera: SimulatedCamera, renderer: Any, transcript: Callable[[str], None]
) -> Callable[[str], None]:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)

    def on_read(line: str) -> None:
        path = folder / f"frame-{camera.frames_read:04d}.png"
        cv2.imwrite(str(path), renderer(camera.frames_read))
        transcript(f"{line} -> {path}")

    return on_read

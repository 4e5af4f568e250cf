"""The hub's configuration: TOML in, frozen dataclasses out, every problem named.

Where it comes from: ``--config PATH``, else ``/etc/tablehub/config.toml`` when it exists,
else the built-in defaults (which match the wiring in ``hardware/``).  ``TABLEHUB_DATA_DIR``
overrides ``data_dir``.  A bad file never half-loads: ``load_config`` collects one message
per problem (naming the key, the value and what is expected) and raises ``ConfigError``
with all of them, so a person fixes everything in one go.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, TypeVar

from tablehub.paths import ENV_DATA_DIR
from tablehub.paths import data_dir as resolve_data_dir

DEFAULT_CONFIG_PATH = Path("/etc/tablehub/config.toml")
MAX_SEATS = 7  # the panel has at most seven seat LEDs
MIN_SEATS = 2

CAMERA_SOURCES = ("picamera2", "opencv", "replay", "simulated")
VOICE_ENGINES = ("pyttsx3", "espeak-ng", "recording", "wav")


class ConfigError(Exception):
    """The configuration has problems; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str], source: str) -> None:
        self.problems = problems
        self.source = source
        super().__init__(f"{source}: " + "; ".join(problems))


@dataclass(frozen=True)
class SeatsConfig:
    names: tuple[str, ...] = tuple(f"Seat {i}" for i in range(1, 6))

    @property
    def count(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class CameraConfig:
    source: str = "picamera2"
    width: int = 2304
    height: int = 1296
    device: int | str = 0  # OpenCV: a camera index or a device path such as /dev/video0
    replay_path: str = ""  # replay: a folder of images or a video file
    fps: float = 5.0


@dataclass(frozen=True)
class DiceTowerConfig:
    port: str = "auto"  # "auto" (udev name, then USB VID/PID), a device path, or "sim"
    baud: int = 115200


@dataclass(frozen=True)
class PanelConfig:
    """BCM GPIO numbers; the defaults are the wiring in hardware/wiring.md."""

    encoder_a: int = 17
    encoder_b: int = 27
    encoder_button: int = 22
    next_button: int = 23
    buzzer: int = 24
    rgb_red: int = 12
    rgb_green: int = 13
    rgb_blue: int = 16
    seat_leds: tuple[int, ...] = (5, 6, 25, 26, 4, 9, 10)

    def named_pins(self) -> list[tuple[str, int]]:
        pins = [
            ("encoder_a", self.encoder_a),
            ("encoder_b", self.encoder_b),
            ("encoder_button", self.encoder_button),
            ("next_button", self.next_button),
            ("buzzer", self.buzzer),
            ("rgb_red", self.rgb_red),
            ("rgb_green", self.rgb_green),
            ("rgb_blue", self.rgb_blue),
        ]
        pins += [(f"seat_leds[{i}]", pin) for i, pin in enumerate(self.seat_leds)]
        return pins


@dataclass(frozen=True)
class VoiceConfig:
    engine: str = "pyttsx3"
    rate: int = 165  # words per minute
    volume: float = 1.0  # 0.0 - 1.0
    voice: str = ""  # engine voice id/name; "" = the engine's default (espeak-ng: "en")
    timeout: float = 8.0  # watchdog: seconds one utterance may take to synthesise
    wav_dir: str = ""  # where speech goes as WAV files; "" = <data_dir>/voice


@dataclass(frozen=True)
class WebConfig:
    bind: str = "127.0.0.1:8080"
    enabled: bool = True  # false: `tablehub run` starts no web server at all

    @property
    def host(self) -> str:
        return self.bind.rpartition(":")[0].strip("[]")

    @property
    def port(self) -> int:
        return int(self.bind.rpartition(":")[2])


@dataclass(frozen=True)
class ZoneOverride:
    name: str
    polygon: tuple[tuple[float, float], ...]  # table millimetres


@dataclass(frozen=True)
class TableConfig:
    width_mm: float = 900.0
    depth_mm: float = 600.0
    zones: tuple[ZoneOverride, ...] = ()  # empty: the vision defaults (tablehub/vision/zones.py)


@dataclass(frozen=True)
class BlackoutConfig:
    slot_seconds: float = 12.0
    sweep_slot_seconds: float = 6.0
    masking_sound: bool = True


@dataclass(frozen=True)
class Config:
    seats: SeatsConfig = field(default_factory=SeatsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    dice_tower: DiceTowerConfig = field(default_factory=DiceTowerConfig)
    panel: PanelConfig = field(default_factory=PanelConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    web: WebConfig = field(default_factory=WebConfig)
    table: TableConfig = field(default_factory=TableConfig)
    blackout: BlackoutConfig = field(default_factory=BlackoutConfig)
    data_dir: Path = Path("~/.local/share/tablehub")
    journal_path: Path = Path("~/.local/share/tablehub/journal.sqlite3")
    source: str = "built-in defaults"  # where this configuration came from

    @property
    def voice_wav_dir(self) -> Path:
        return (
            Path(self.voice.wav_dir).expanduser() if self.voice.wav_dir else self.data_dir / "voice"
        )


# --- loading ----------------------------------------------------------------------------


def config_path(explicit: str | os.PathLike[str] | None) -> Path | None:
    """The file to read: the explicit one, else the system one if present, else none."""
    if explicit is not None:
        return Path(explicit)
    return DEFAULT_CONFIG_PATH if DEFAULT_CONFIG_PATH.is_file() else None


def load_config(
    path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> Config:
    """Read and check the configuration (see the module docstring for the search order)."""
    env = os.environ if env is None else env
    chosen = config_path(path)
    if chosen is None:
        return parse_config({}, source="built-in defaults", env=env)
    try:
        text = chosen.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(["the file does not exist"], str(chosen)) from None
    except OSError as err:
        raise ConfigError([f"cannot be read: {err.strerror}"], str(chosen)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError([f"is not valid TOML: {err}"], str(chosen)) from None
    return parse_config(data, source=str(chosen), env=env)


def parse_config(
    data: Mapping[str, Any], source: str = "<config>", env: Mapping[str, str] | None = None
) -> Config:
    """Build a ``Config`` from parsed TOML; raise ``ConfigError`` listing every problem."""
    env = os.environ if env is None else env
    c = _Checker()
    top = c.section(data, "", _TOP_KEYS)
    seats = _seats(c, c.table(top, "seats", {"count", "names"}))
    camera = _camera(c, c.table(top, "camera", _keys(CameraConfig)))
    tower = _dice_tower(c, c.table(top, "dice_tower", _keys(DiceTowerConfig)))
    panel = _panel(c, c.table(top, "panel", _keys(PanelConfig)), seats.count)
    voice = _voice(c, c.table(top, "voice", _keys(VoiceConfig)))
    web = _web(c, c.table(top, "web", _keys(WebConfig)))
    table = _table(c, c.table(top, "table", _keys(TableConfig)))
    blackout = _blackout(c, c.table(top, "blackout", _keys(BlackoutConfig)))
    data_dir_raw = c.string(top, "data_dir", "")
    journal_raw = c.string(top, "journal_path", "")
    if c.problems:
        raise ConfigError(c.problems, source)
    chosen_dir = env.get(ENV_DATA_DIR) or data_dir_raw or None
    if chosen_dir:
        base = Path(chosen_dir).expanduser()
    else:
        home = Path(env["HOME"]) if env.get("HOME") else Path.home()
        xdg = env.get("XDG_DATA_HOME") or str(home / ".local" / "share")
        base = Path(xdg) / "tablehub"
    journal = Path(journal_raw).expanduser() if journal_raw else base / "journal.sqlite3"
    return Config(
        seats=seats,
        camera=camera,
        dice_tower=tower,
        panel=panel,
        voice=voice,
        web=web,
        table=table,
        blackout=blackout,
        data_dir=base,
        journal_path=journal,
        source=source,
    )


def ensure_data_dir(config: Config) -> Path:
    """Create the data directory (and the journal's folder) when the service needs them."""
    path = resolve_data_dir(config.data_dir)
    config.journal_path.parent.mkdir(parents=True, exist_ok=True)
    return path


_TOP_KEYS = {
    "seats",
    "camera",
    "dice_tower",
    "panel",
    "voice",
    "web",
    "table",
    "blackout",
    "data_dir",
    "journal_path",
}


def _keys(cls: type[Any]) -> set[str]:
    return {f.name for f in fields(cls)}


T = TypeVar("T")


class _Checker:
    """Reads values out of TOML tables, noting one message per problem."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def bad(self, key: str, value: Any, expected: str) -> None:
        self.problems.append(f"{key} = {_show(value)}: expected {expected}")

    def section(self, data: Mapping[str, Any], prefix: str, allowed: set[str]) -> dict[str, Any]:
        for key in data:
            if key not in allowed:
                name = f"{prefix}.{key}" if prefix else key
                self.problems.append(
                    f"{name}: unknown key (known here: {', '.join(sorted(allowed))})"
                )
        return {k: v for k, v in data.items() if k in allowed}

    def table(self, top: Mapping[str, Any], name: str, allowed: set[str]) -> dict[str, Any]:
        raw = top.get(name, {})
        if not isinstance(raw, dict):
            self.bad(name, raw, f"a table ([{name}])")
            return {"__prefix__": name}
        result = self.section(raw, name, allowed)
        result["__prefix__"] = name
        return result

    def _get(self, table: Mapping[str, Any], key: str) -> tuple[str, Any, bool]:
        prefix = table.get("__prefix__", "")
        name = f"{prefix}.{key}" if prefix else key
        return name, table.get(key), key in table

    def value(
        self,
        table: Mapping[str, Any],
        key: str,
        default: T,
        convert: Callable[[Any], T | None],
        expected: str,
    ) -> T:
        name, raw, present = self._get(table, key)
        if not present:
            return default
        result = convert(raw)
        if result is None:
            self.bad(name, raw, expected)
            return default
        return result

    def string(self, table: Mapping[str, Any], key: str, default: str) -> str:
        return self.value(table, key, default, _as_str, "a string")

    def choice(
        self, table: Mapping[str, Any], key: str, default: str, options: tuple[str, ...]
    ) -> str:
        expected = "one of " + ", ".join(f'"{o}"' for o in options)
        return self.value(table, key, default, lambda v: v if v in options else None, expected)

    def integer(self, table: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
        return self.value(
            table, key, default, lambda v: _as_int(v, lo, hi), f"a whole number from {lo} to {hi}"
        )

    def number(
        self, table: Mapping[str, Any], key: str, default: float, lo: float, hi: float
    ) -> float:
        return self.value(
            table, key, default, lambda v: _as_float(v, lo, hi), f"a number from {lo:g} to {hi:g}"
        )

    def boolean(self, table: Mapping[str, Any], key: str, default: bool) -> bool:
        return self.value(
            table, key, default, lambda v: v if isinstance(v, bool) else None, "true or false"
        )


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{...}"
    return repr(value)


def _as_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _as_int(value: Any, lo: int, hi: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if lo <= value <= hi else None


def _as_float(value: Any, lo: float, hi: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and lo <= number <= hi else None


def _seats(c: _Checker, t: dict[str, Any]) -> SeatsConfig:
    expected_count = f"a whole number from {MIN_SEATS} to {MAX_SEATS}"
    count = c.value(t, "count", 0, lambda v: _as_int(v, MIN_SEATS, MAX_SEATS), expected_count)
    if "names" not in t:
        if count:
            return SeatsConfig(tuple(f"Seat {i}" for i in range(1, count + 1)))
        return SeatsConfig()
    names = t["names"]
    ok = (
        isinstance(names, list)
        and MIN_SEATS <= len(names) <= MAX_SEATS
        and all(isinstance(n, str) and n.strip() for n in names)
    )
    if not ok:
        c.bad("seats.names", names, f"a list of {MIN_SEATS} to {MAX_SEATS} non-empty names")
        return SeatsConfig()
    if len(set(names)) != len(names):
        c.bad("seats.names", names, "every name different")
    if count and count != len(names):
        c.problems.append(
            f"seats.count = {count} but seats.names has {len(names)} names: "
            "expected them to agree (or give only one of them)"
        )
    return SeatsConfig(tuple(n.strip() for n in names))


def _camera(c: _Checker, t: dict[str, Any]) -> CameraConfig:
    d = CameraConfig()
    source = c.choice(t, "source", d.source, CAMERA_SOURCES)
    device = c.value(
        t,
        "device",
        d.device,
        lambda v: v if (_as_int(v, 0, 63) is not None or (isinstance(v, str) and v)) else None,
        "a camera index from 0 to 63 or a device path such as /dev/video0",
    )
    replay = c.string(t, "replay_path", d.replay_path)
    if source == "replay" and not replay:
        c.problems.append(
            'camera.replay_path = "": expected a folder of images or a video file '
            'when camera.source = "replay"'
        )
    return CameraConfig(
        source=source,
        width=c.integer(t, "width", d.width, 160, 4656),
        height=c.integer(t, "height", d.height, 120, 3496),
        device=device,
        replay_path=replay,
        fps=c.number(t, "fps", d.fps, 0.5, 60.0),
    )


def _dice_tower(c: _Checker, t: dict[str, Any]) -> DiceTowerConfig:
    d = DiceTowerConfig()
    port = c.value(
        t,
        "port",
        d.port,
        lambda v: v if isinstance(v, str) and (v in ("auto", "sim") or v.startswith("/")) else None,
        '"auto", "sim" or a device path such as /dev/tablehub-dice',
    )
    bauds = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
    baud = c.value(
        t,
        "baud",
        d.baud,
        lambda v: v if _as_int(v, 1, 10_000_000) in bauds else None,
        "one of " + ", ".join(map(str, bauds)),
    )
    return DiceTowerConfig(port=port, baud=baud)


def _pin(value: Any) -> int | None:
    return _as_int(value, 0, 27)


def _panel(c: _Checker, t: dict[str, Any], seat_count: int) -> PanelConfig:
    d = PanelConfig()
    single = {
        name: c.value(t, name, getattr(d, name), _pin, "a BCM GPIO number from 0 to 27")
        for name in (f.name for f in fields(PanelConfig))
        if name != "seat_leds"
    }
    leds = c.value(
        t,
        "seat_leds",
        d.seat_leds,
        lambda v: (
            tuple(v)
            if isinstance(v, list)
            and 1 <= len(v) <= MAX_SEATS
            and all(_pin(p) is not None for p in v)
            else None
        ),
        f"a list of 1 to {MAX_SEATS} BCM GPIO numbers from 0 to 27",
    )
    panel = PanelConfig(seat_leds=leds, **single)
    if len(leds) < seat_count:
        c.problems.append(
            f"panel.seat_leds = {list(leds)!r} has {len(leds)} pins but there are "
            f"{seat_count} seats: expected one LED pin per seat"
        )
    seen: dict[int, str] = {}
    for name, pin in panel.named_pins():
        if pin in seen:
            c.problems.append(
                f"panel.{name} = {pin}: GPIO{pin} is already used by panel.{seen[pin]}; "
                "expected every panel pin different"
            )
        seen.setdefault(pin, name)
    return panel


def _voice(c: _Checker, t: dict[str, Any]) -> VoiceConfig:
    d = VoiceConfig()
    return VoiceConfig(
        engine=c.choice(t, "engine", d.engine, VOICE_ENGINES),
        rate=c.integer(t, "rate", d.rate, 80, 450),
        volume=c.number(t, "volume", d.volume, 0.0, 1.0),
        voice=c.string(t, "voice", d.voice),
        timeout=c.number(t, "timeout", d.timeout, 0.5, 120.0),
        wav_dir=c.string(t, "wav_dir", d.wav_dir),
    )


def _bind(value: Any) -> str | None:
    if not isinstance(value, str) or ":" not in value:
        return None
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        return None
    return value


def _web(c: _Checker, t: dict[str, Any]) -> WebConfig:
    bind = c.value(t, "bind", WebConfig().bind, _bind, 'HOST:PORT such as "127.0.0.1:8080"')
    return WebConfig(bind=bind, enabled=c.boolean(t, "enabled", WebConfig().enabled))


def _table(c: _Checker, t: dict[str, Any]) -> TableConfig:
    d = TableConfig()
    width = c.number(t, "width_mm", d.width_mm, 200.0, 5000.0)
    depth = c.number(t, "depth_mm", d.depth_mm, 200.0, 5000.0)
    raw = t.get("zones", [])
    zones: list[ZoneOverride] = []
    if not isinstance(raw, list):
        c.bad("table.zones", raw, "a list of [[table.zones]] tables")
        raw = []
    names: set[str] = set()
    for i, zone in enumerate(raw):
        key = f"table.zones[{i}]"
        if not isinstance(zone, dict):
            c.bad(key, zone, "a table with name and polygon")
            continue
        zt = c.section(zone, key, {"name", "polygon"})
        zt["__prefix__"] = key
        name = c.value(zt, "name", "", lambda v: v if isinstance(v, str) and v else None, "a name")
        if "name" not in zt:
            c.problems.append(f'{key}.name: missing; expected the zone\'s name such as "reveal"')
        elif name in names:
            c.bad(f"{key}.name", name, "a name not used by another zone")
        names.add(name)
        no_points: tuple[tuple[float, float], ...] = ()
        polygon = c.value(
            zt, "polygon", no_points, _polygon, "a list of at least 3 [x, y] points in mm"
        )
        if "polygon" not in zt:
            c.problems.append(f"{key}.polygon: missing; expected at least 3 [x, y] points in mm")
        elif polygon and not all(0 <= x <= width and 0 <= y <= depth for x, y in polygon):
            c.problems.append(
                f"{key}.polygon = {[list(p) for p in polygon]!r}: expected every point on the "
                f"table (0 <= x <= {width:g}, 0 <= y <= {depth:g} mm)"
            )
        if name and polygon:
            zones.append(ZoneOverride(name=name, polygon=polygon))
    return TableConfig(width_mm=width, depth_mm=depth, zones=tuple(zones))


def _polygon(value: Any) -> tuple[tuple[float, float], ...] | None:
    if not isinstance(value, list) or len(value) < 3:
        return None
    points: list[tuple[float, float]] = []
    for point in value:
        if not (isinstance(point, list) and len(point) == 2):
            return None
        x, y = (_as_float(v, -1e6, 1e6) for v in point)
        if x is None or y is None:
            return None
        points.append((x, y))
    return tuple(points)


def _blackout(c: _Checker, t: dict[str, Any]) -> BlackoutConfig:
    d = BlackoutConfig()
    return BlackoutConfig(
        slot_seconds=c.number(t, "slot_seconds", d.slot_seconds, 4.0, 120.0),
        sweep_slot_seconds=c.number(t, "sweep_slot_seconds", d.sweep_slot_seconds, 2.0, 60.0),
        masking_sound=c.boolean(t, "masking_sound", d.masking_sound),
    )


# --- showing ----------------------------------------------------------------------------


def to_toml(config: Config) -> str:
    """The effective configuration as TOML (what ``tablehub config show`` prints)."""
    lines = [f"# effective configuration (from {config.source})"]
    lines.append(f"data_dir = {_toml_value(str(config.data_dir))}")
    lines.append(f"journal_path = {_toml_value(str(config.journal_path))}")
    sections: list[tuple[str, Any]] = [
        ("seats", config.seats),
        ("camera", config.camera),
        ("dice_tower", config.dice_tower),
        ("panel", config.panel),
        ("voice", config.voice),
        ("web", config.web),
        ("table", config.table),
        ("blackout", config.blackout),
    ]
    for name, section in sections:
        lines.append("")
        lines.append(f"[{name}]")
        zones: tuple[ZoneOverride, ...] = ()
        for f in fields(section):
            value = getattr(section, f.name)
            if f.name == "zones":
                zones = value
                continue
            lines.append(f"{f.name} = {_toml_value(value)}")
        for zone in zones:
            lines.append("")
            lines.append("[[table.zones]]")
            lines.append(f"name = {_toml_value(zone.name)}")
            lines.append(f"polygon = {_toml_value(zone.polygon)}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str | Path):
        text = str(value).replace("\\", "\\\\").replace('"', '\\"')
        return f'"{text}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if is_dataclass(value):
        raise TypeError("nested tables are written by to_toml")
    raise TypeError(f"cannot write {value!r} as TOML")

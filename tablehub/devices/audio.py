"""Audio plumbing: WAV files in and out, mixing, and finding a way to play sound.

Everything the voice plays is a WAV file, so the same clips go to the speaker or, on a
machine without a sound card (CI, a Pi with no speaker yet), into a folder.  Samples are
mono float32 in [-1, 1] at ``RATE`` (espeak-ng's native 22050 Hz).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

RATE = 22050
Samples = npt.NDArray[np.float32]


def read_wav(path: str | os.PathLike[str]) -> Samples:
    """Mono float32 samples at ``RATE`` (stereo is averaged, other rates resampled)."""
    with wave.open(str(path), "rb") as w:
        channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
        raw = w.readframes(w.getnframes())
    if width == 2:
        data = np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0
    elif width == 1:
        data = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width == 4:
        data = np.frombuffer(raw, dtype="<i4").astype(np.float32) / 2147483648.0
    else:
        raise ValueError(f"{path}: {8 * width}-bit WAV is not supported")
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1)
    if rate != RATE and len(data):
        n = round(len(data) * RATE / rate)
        data = np.interp(np.linspace(0, len(data) - 1, n), np.arange(len(data)), data)
    return np.asarray(data, dtype=np.float32)


def write_wav(path: str | os.PathLike[str], samples: Samples) -> None:
    """Write 16-bit mono PCM at ``RATE`` (atomically: a reader never sees half a file)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    pcm = (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2")
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    with wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    os.replace(tmp, target)


def wav_duration(path: str | os.PathLike[str]) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


def silence(seconds: float) -> Samples:
    return np.zeros(max(0, round(seconds * RATE)), dtype=np.float32)


def fit(samples: Samples, seconds: float, fade: float = 0.05) -> Samples:
    """Exactly ``seconds`` long: padded with silence, or cut with a short fade-out."""
    n = max(0, round(seconds * RATE))
    if len(samples) >= n:
        out = samples[:n].copy()
        k = min(n, round(fade * RATE))
        if k and len(samples) > n:
            out[n - k :] *= np.linspace(1.0, 0.0, k, dtype=np.float32)
        return out
    return np.concatenate([samples, np.zeros(n - len(samples), dtype=np.float32)])


def loop_to(samples: Samples, seconds: float) -> Samples:
    """Repeat ``samples`` to fill exactly ``seconds`` (for the masking bed)."""
    n = max(0, round(seconds * RATE))
    if not len(samples) or not n:
        return np.zeros(n, dtype=np.float32)
    reps = -(-n // len(samples))
    return np.tile(samples, reps)[:n].astype(np.float32)


# --- where sound can go ------------------------------------------------------------------


@dataclass(frozen=True)
class AudioStatus:
    """Whether this machine can play sound, and with which command."""

    player: tuple[str, ...] | None  # argv prefix, the WAV path is appended
    detail: str

    @property
    def available(self) -> bool:
        return self.player is not None


def alsa_cards(proc_file: Path = Path("/proc/asound/cards")) -> list[str]:
    """Names of the ALSA sound cards the kernel knows (empty: no sound card)."""
    try:
        text = proc_file.read_text()
    except OSError:
        return []
    cards = []
    for line in text.splitlines():
        parts = line.split("]:", 1)
        if len(parts) == 2 and line.strip()[:1].isdigit():
            cards.append(parts[1].strip())
    return cards


def detect_audio(env: dict[str, str] | None = None) -> AudioStatus:
    """Pick a player: PipeWire (pw-play), PulseAudio (paplay), else ALSA (aplay); or none."""
    env = dict(os.environ) if env is None else env
    runtime = Path(env.get("XDG_RUNTIME_DIR", f"/run/user/{os.getuid()}"))
    cards = alsa_cards()
    if (runtime / "pipewire-0").exists() and shutil.which("pw-play"):
        return AudioStatus(("pw-play",), "PipeWire (pw-play)")
    if (runtime / "pulse" / "native").exists() and shutil.which("paplay"):
        return AudioStatus(("paplay",), "PulseAudio (paplay)")
    if cards and shutil.which("aplay"):
        return AudioStatus(("aplay", "-q"), f"ALSA (aplay) on {cards[0]}")
    if cards:
        return AudioStatus(
            None, f"sound card {cards[0]} found but no aplay: apt install alsa-utils"
        )
    return AudioStatus(None, "no sound card (no ALSA card in /proc/asound/cards)")


def play_blocking(player: tuple[str, ...], path: Path, timeout: float) -> None:
    """Play a WAV with ``player`` and wait (used by doctor); raises on failure or timeout."""
    result = subprocess.run(
        [*player, str(path)], capture_output=True, text=True, timeout=timeout, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip() or f"{player[0]} exited {result.returncode}")

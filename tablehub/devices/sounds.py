"""The hub's own sounds, generated with numpy (no third-party audio to license).

``shuffle`` is the Blackout's masking bed: riffle shuffles of a card deck (bursts of
short card "flaps" whose rate rises and falls, then the cascade of the bridge), so the
rustle of a player laying down or swapping cards disappears in it.  ``tick`` is the
countdown tick, ``chime`` an attention sound, ``buzz`` a time-is-up buzz.

Sounds are deterministic (seeded) so a schedule renders to the same audio every time.
"""

from __future__ import annotations

import functools

import numpy as np

from tablehub.devices.audio import RATE, Samples, fit, loop_to

SHUFFLE_SEED = 20240


def _flap(rng: np.random.Generator, length: float) -> Samples:
    """One card flicking off the thumb: a band-limited, fast-decaying noise burst."""
    n = max(8, int(length * RATE))
    noise = rng.standard_normal(n).astype(np.float32)
    noise = np.diff(noise, prepend=0.0).astype(np.float32)  # tilt towards the highs
    kernel = np.ones(3, dtype=np.float32) / 3.0  # and cut the very top
    noise = np.convolve(noise, kernel, mode="same").astype(np.float32)
    env = np.exp(-np.linspace(0.0, 7.0, n)).astype(np.float32)
    return noise * env


def riffle(rng: np.random.Generator) -> Samples:
    """One riffle shuffle plus bridge, about 2 seconds."""
    cards = int(rng.integers(44, 56))
    span = float(rng.uniform(0.9, 1.3))
    out = np.zeros(int((span + 1.2) * RATE), dtype=np.float32)
    # flaps bunch up in the middle of the riffle (thumbs release fastest there)
    u = np.sort(rng.beta(2.2, 2.2, size=cards)) * span + 0.05
    for t in u:
        flap = _flap(rng, float(rng.uniform(0.004, 0.012))) * float(rng.uniform(0.4, 1.0))
        i = int(t * RATE)
        out[i : i + len(flap)] += flap[: len(out) - i]
    # the bridge: cards cascading down, a soft swell of filtered noise
    b0, blen = int((span + 0.15) * RATE), int(0.5 * RATE)
    swell = rng.standard_normal(blen).astype(np.float32)
    swell = np.convolve(swell, np.ones(6, dtype=np.float32) / 6.0, mode="same")
    swell *= np.sin(np.linspace(0.0, np.pi, blen)).astype(np.float32) * 0.5
    out[b0 : b0 + blen] += swell[: len(out) - b0]
    peak = float(np.max(np.abs(out))) or 1.0
    return (out / peak * 0.8).astype(np.float32)


def shuffle(seconds: float, seed: int = SHUFFLE_SEED) -> Samples:
    """The masking bed: riffles back to back, exactly ``seconds`` long."""
    rng = np.random.default_rng(seed)
    parts: list[Samples] = []
    total = 0
    while total < seconds * RATE:
        part = riffle(rng)
        parts.append(part)
        total += len(part)
    return loop_to(np.concatenate(parts) if parts else np.zeros(0, np.float32), seconds)


def tone(freqs: tuple[float, ...], seconds: float, decay: float) -> Samples:
    t = np.arange(int(seconds * RATE), dtype=np.float32) / RATE
    wave = np.zeros_like(t)
    for f in freqs:
        wave += np.sin(2 * np.pi * f * t).astype(np.float32) / len(freqs)
    env = np.exp(-t * decay) * np.minimum(1.0, t / 0.005)
    result: Samples = (wave * env * 0.7).astype(np.float32)
    return result


@functools.lru_cache(maxsize=16)
def sound(name: str, seconds: float) -> Samples:
    """Sound ``name`` exactly ``seconds`` long (looped or cut).  Cached: treat as read-only."""
    if name == "shuffle":
        return shuffle(seconds)
    if name == "tick":
        return fit(tone((1000.0,), 0.05, 60.0), seconds)  # one tick, then silence
    if name == "chime":
        return loop_to(tone((880.0, 1320.0), 0.8, 5.0), seconds)
    if name == "buzz":
        square = np.sign(tone((400.0,), 0.4, 0.0)) * 0.4
        return loop_to(square.astype(np.float32), seconds)
    raise ValueError(f"unknown sound {name!r}")

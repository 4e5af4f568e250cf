"""The hub's voice: speech that never blocks the service and never stalls the night.

Three parts, each replaceable:

* a ``SpeechEngine`` turns text into a WAV file (blocking): espeak-ng, pyttsx3 (in a
  worker process), or the ``RecordingEngine`` for tests;
* an ``AudioSink`` plays a WAV: the speaker through ``aplay``/``paplay``/``pw-play``, a
  folder of numbered WAV files when there is no sound card, or memory (tests);
* ``Voice`` runs them off the event loop, one job at a time, with a **watchdog**: a
  synthesis that takes longer than ``timeout`` is abandoned (its engine aborted and
  replaced, its output file never read) and the next utterance still plays; a playback
  that overruns its clip's length is killed.

Phrases are rendered once and cached by (engine settings, text), so their durations are
known before they are needed; a ``Schedule`` (``tablehub.devices.schedule``) is
pre-rendered and mixed into one WAV — masking sound included — and played on a fixed
clock, its marks delivered at their times.  What the players hear, and when, is exactly
the schedule, whatever the engine does.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import json
import logging
import re
import shutil
import subprocess
import sys
import threading
import uuid
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TypeVar

import numpy as np

from tablehub.devices import sounds
from tablehub.devices.audio import (
    RATE,
    AudioStatus,
    detect_audio,
    fit,
    read_wav,
    silence,
    wav_duration,
    write_wav,
)
from tablehub.devices.schedule import Schedule

log = logging.getLogger(__name__)

MASKING_LEVEL = 0.3  # the shuffle bed under speech
T = TypeVar("T")


class SpeechError(RuntimeError):
    """The engine could not produce speech (missing program, bad voice name...)."""


# --- engines -----------------------------------------------------------------------------


class SpeechEngine(ABC):
    """Text -> WAV file, blocking.  Called from a worker thread, one call at a time."""

    name: str = "engine"

    @abstractmethod
    def synthesize(self, text: str, path: Path) -> None:
        """Write ``text`` as speech to the WAV file ``path``; raise ``SpeechError``."""

    def abort(self) -> None:  # noqa: B027 - most engines have nothing to stop
        """Stop a synthesis that hangs (called from another thread by the watchdog)."""

    def signature(self) -> str:
        """Everything that changes the audio (for the phrase cache)."""
        return self.name

    def close(self) -> None:
        self.abort()


class EspeakNgEngine(SpeechEngine):
    """The ``espeak-ng`` program (Debian package ``espeak-ng``), one process per phrase."""

    name = "espeak-ng"

    def __init__(self, rate: int = 165, volume: float = 1.0, voice: str = "") -> None:
        self.rate, self.volume, self.voice = rate, volume, voice or "en"
        self._proc: subprocess.Popen[bytes] | None = None

    def signature(self) -> str:
        return f"espeak-ng:{self.voice}:{self.rate}:{self.volume:.2f}"

    def synthesize(self, text: str, path: Path) -> None:
        exe = shutil.which("espeak-ng")
        if exe is None:
            raise SpeechError("espeak-ng is not installed (sudo apt-get install espeak-ng)")
        argv = [exe, "-w", str(path), "-s", str(self.rate), "-a", str(round(self.volume * 100))]
        argv += ["-v", self.voice, "--", text]
        self._proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = self._proc.communicate()
        code, self._proc = self._proc.returncode, None
        if code != 0:
            raise SpeechError(f"espeak-ng failed ({code}): {err.decode(errors='replace').strip()}")

    def abort(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()


class Pyttsx3Engine(SpeechEngine):
    """pyttsx3 (its espeak driver on Linux) in a worker process that the watchdog can kill."""

    name = "pyttsx3"

    def __init__(self, rate: int = 165, volume: float = 1.0, voice: str = "") -> None:
        self.rate, self.volume, self.voice = rate, volume, voice
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def signature(self) -> str:
        return f"pyttsx3:{self.voice}:{self.rate}:{self.volume:.2f}"

    def worker_argv(self) -> list[str]:
        return [sys.executable, "-m", "tablehub.devices.tts_worker"]

    def _worker(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                self.worker_argv(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        return self._proc

    def synthesize(self, text: str, path: Path) -> None:
        proc = self._worker()
        request = {
            "text": text,
            "path": str(path),
            "rate": self.rate,
            "volume": self.volume,
            "voice": self.voice,
        }
        stdin, stdout = _pipes(proc)
        try:
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            line = stdout.readline()
        except (BrokenPipeError, ValueError, OSError) as err:
            raise SpeechError(f"the pyttsx3 worker died: {err}") from err
        if not line:
            raise SpeechError("the pyttsx3 worker died (is pyttsx3 installed?)")
        answer = json.loads(line)
        if not answer.get("ok"):
            raise SpeechError(f"pyttsx3: {answer.get('error')}")

    def abort(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()


def _pipes(proc: subprocess.Popen[str]) -> tuple[IO[str], IO[str]]:
    assert proc.stdin is not None and proc.stdout is not None
    return proc.stdin, proc.stdout


class RecordingEngine(SpeechEngine):
    """For tests: remembers every text and writes a quiet tone whose length depends only
    on the text (0.3 s + 55 ms per character), so durations are known and repeatable."""

    name = "recording"

    def __init__(self) -> None:
        self.texts: list[str] = []

    @staticmethod
    def duration(text: str) -> float:
        return 0.3 + 0.055 * len(text)

    def synthesize(self, text: str, path: Path) -> None:
        self.texts.append(text)
        n = round(self.duration(text) * RATE)
        t = np.arange(n, dtype=np.float32) / RATE
        write_wav(path, (0.2 * np.sin(2 * np.pi * 220.0 * t)).astype(np.float32))


# --- sinks -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    label: str  # the text, or "schedule <name>", or "sound <name>"
    duration: float
    path: Path


class AudioSink(ABC):
    """Where finished audio goes."""

    description: str = "sink"

    @abstractmethod
    async def play(self, path: Path, duration: float, label: str) -> None:
        """Play (or file) the WAV at ``path``; must return within ``duration`` + a margin."""


class SpeakerSink(AudioSink):
    """A sound card, through a player command (aplay, paplay, pw-play)."""

    def __init__(self, player: tuple[str, ...], detail: str, margin: float = 2.0) -> None:
        self.player, self.margin = player, margin
        self.description = f"speaker via {detail}"

    async def play(self, path: Path, duration: float, label: str) -> None:
        proc = await asyncio.create_subprocess_exec(
            *self.player,
            str(path),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            _, err = await asyncio.wait_for(proc.communicate(), duration + self.margin)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            log.warning("playback of %s overran its %.1f s and was stopped", path.name, duration)
            return
        if proc.returncode:
            log.warning("%s failed: %s", self.player[0], err.decode(errors="replace").strip())


class WavFolderSink(AudioSink):
    """No sound card: each clip becomes ``NNNN-words.wav`` in ``folder``, listed in
    ``folder/transcript.txt`` with its length."""

    def __init__(self, folder: Path, reason: str = "") -> None:
        self.folder = folder
        self.reason = reason
        self.description = f"WAV files in {folder}" + (f" ({reason})" if reason else "")
        self._count = itertools.count(1)
        self.written: list[Path] = []

    async def play(self, path: Path, duration: float, label: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        number = next(self._count)
        slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")[:40] or "clip"
        target = self.folder / f"{number:04d}-{slug}.wav"
        await asyncio.to_thread(shutil.copyfile, path, target)
        with (self.folder / "transcript.txt").open("a", encoding="utf-8") as f:
            f.write(f"{target.name}\t{duration:.2f}s\t{label}\n")
        self.written.append(target)


class MemorySink(AudioSink):
    """For tests: remembers what would have been played."""

    description = "memory (test)"

    def __init__(self) -> None:
        self.played: list[Played] = []

    async def play(self, path: Path, duration: float, label: str) -> None:
        self.played.append(Played(label, duration, path))


# --- the voice ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Clip:
    """A rendered phrase.  ``ok`` False: synthesis failed or was abandoned (silence)."""

    text: str
    path: Path | None
    duration: float
    ok: bool


@dataclass
class ScheduleRun:
    """What happened when a schedule played."""

    schedule: Schedule
    path: Path
    started: float  # loop time
    cut: list[str] = field(default_factory=list)  # phrases longer than their slot (cut)
    skipped: list[str] = field(default_factory=list)  # phrases that failed (silence)
    marks: list[tuple[str, float]] = field(default_factory=list)  # (mark, loop time fired)


class Voice:
    """Speech and sound for the service: every method is safe to call from the event loop."""

    def __init__(
        self,
        engine_factory: Callable[[], SpeechEngine],
        sink: AudioSink,
        cache_dir: Path,
        timeout: float = 8.0,
    ) -> None:
        self.engine_factory = engine_factory
        self.sink = sink
        self.cache_dir = cache_dir
        self.timeout = timeout
        self._engine: SpeechEngine | None = None
        self._signature = engine_factory().signature()
        self._engine_lock: asyncio.Lock | None = None
        self._jobs: asyncio.Queue[Callable[[], Awaitable[None]]] | None = None
        self._runner: asyncio.Task[None] | None = None
        self.abandoned: list[str] = []  # texts whose synthesis the watchdog gave up on
        self.spoken: list[str] = []  # texts handed to the sink, in order

    @property
    def description(self) -> str:
        return f"{self._signature.split(':')[0]} -> {self.sink.description}"

    # --- rendering --------------------------------------------------------------------
    def _clip_path(self, text: str) -> Path:
        key = hashlib.sha1(f"{self._signature}\n{text}".encode()).hexdigest()
        return self.cache_dir / "phrases" / f"{key}.wav"

    async def render(self, text: str) -> Clip:
        """The phrase as a WAV (from the cache, or synthesised under the watchdog)."""
        target = self._clip_path(text)
        if target.exists():
            return Clip(text, target, wav_duration(target), True)
        if self._engine_lock is None:
            self._engine_lock = asyncio.Lock()
        async with self._engine_lock:
            if target.exists():
                return Clip(text, target, wav_duration(target), True)
            target.parent.mkdir(parents=True, exist_ok=True)
            for attempt in (1, 2):  # a failed phrase is tried once more, on a fresh engine
                # a fresh path per attempt: an abandoned engine may still write to its path
                scratch = target.with_name(f".{uuid.uuid4().hex}.wav")
                if self._engine is None:
                    self._engine = self.engine_factory()
                engine = self._engine
                try:
                    work = functools.partial(engine.synthesize, text, scratch)
                    await self._watch(work, self.timeout)
                    duration = wav_duration(scratch)
                    if duration <= 0.0 and text.strip():  # never cache a silent phrase
                        raise SpeechError("the engine wrote no audio")
                except TimeoutError:
                    self._engine = None  # a new engine for the next phrase
                    threading.Thread(target=engine.abort, daemon=True).start()
                    self.abandoned.append(text)
                    log.warning(
                        "speech engine hung on %r: abandoned after %.1f s", text, self.timeout
                    )
                    return Clip(text, None, 0.0, False)  # no second wait: the night goes on
                except Exception as err:  # the engine failed: once more, then silence
                    log.warning("speech engine failed on %r (try %d): %s", text, attempt, err)
                    scratch.unlink(missing_ok=True)
                    self._engine = None
                    with contextlib.suppress(Exception):
                        engine.close()
                    continue
                scratch.replace(target)
                return Clip(text, target, duration, True)
            return Clip(text, None, 0.0, False)

    async def prerender(self, texts: Iterable[str]) -> dict[str, Clip]:
        """Render phrases ahead of time; their durations are then known."""
        return {text: await self.render(text) for text in dict.fromkeys(texts)}

    @staticmethod
    async def _watch(work: Callable[[], T], timeout: float) -> T:
        """Run blocking ``work`` in its own daemon thread; give up after ``timeout``.

        A thread per job (not a pool) so a hung job never holds up the next one.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()

        def settle(result: T | None, error: BaseException | None) -> None:
            if done.done():
                return
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(result)  # type: ignore[arg-type]

        def run() -> None:
            try:
                outcome: tuple[T | None, BaseException | None] = (work(), None)
            except BaseException as err:
                outcome = (None, err)
            with contextlib.suppress(RuntimeError):  # the loop may be gone: abandoned
                loop.call_soon_threadsafe(settle, *outcome)

        threading.Thread(target=run, daemon=True, name="tablehub-voice").start()
        return await asyncio.wait_for(done, timeout)

    # --- the job queue: one sound at a time, in order ---------------------------------
    def _enqueue(self, job: Callable[[], Awaitable[None]]) -> None:
        if self._jobs is None:
            self._jobs = asyncio.Queue()
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run_jobs())
        self._jobs.put_nowait(job)

    async def _run_jobs(self) -> None:
        assert self._jobs is not None
        while True:
            job = await self._jobs.get()
            try:
                await job()
            except Exception:
                log.exception("voice job failed")
            finally:
                self._jobs.task_done()

    async def _submit(self, job: Callable[[], Awaitable[T]]) -> T:
        loop = asyncio.get_running_loop()
        result: asyncio.Future[T] = loop.create_future()

        async def wrapped() -> None:
            try:
                value = await job()
            except Exception as err:
                if not result.done():
                    result.set_exception(err)
            else:
                if not result.done():
                    result.set_result(value)

        self._enqueue(wrapped)
        return await result

    def speak(self, text: str) -> None:
        """Queue ``text`` and return at once (the service's way to talk)."""

        async def job() -> None:
            await self._say_now(text)

        self._enqueue(job)

    async def say(self, text: str) -> Clip:
        """Speak ``text`` after what is queued; return when it has been played."""

        async def job() -> Clip:
            return await self._say_now(text)

        return await self._submit(job)

    async def _say_now(self, text: str) -> Clip:
        clip = await self.render(text)
        if clip.ok and clip.path is not None:
            self.spoken.append(text)
            await self.sink.play(clip.path, clip.duration, text)
        return clip

    async def play_sound(self, name: str, seconds: float) -> None:
        """Play a named sound after what is queued; return when it has been played."""
        await self._submit(lambda: self._sound_now(name, seconds))

    def play_sound_nowait(self, name: str, seconds: float) -> None:
        self._enqueue(lambda: self._sound_now(name, seconds))

    async def _sound_now(self, name: str, seconds: float) -> None:
        path = self.cache_dir / "sounds" / f"{name}-{seconds:.2f}.wav"
        if not path.exists():
            write_wav(path, sounds.sound(name, seconds))
        await self.sink.play(path, seconds, f"sound {name}")

    async def drain(self) -> None:
        """Wait until everything queued has been played."""
        if self._jobs is not None:
            await self._jobs.join()

    # --- schedules --------------------------------------------------------------------
    async def mix(self, schedule: Schedule) -> ScheduleRun:
        """Pre-render every phrase and mix the whole schedule into one WAV."""
        clips = await self.prerender(schedule.texts())
        total = silence(schedule.length)
        run = ScheduleRun(schedule, Path(), 0.0)
        for cue in schedule.cues:
            i = round(cue.start * RATE)
            if cue.kind == "speech":
                clip = clips[cue.text]
                if not clip.ok or clip.path is None:
                    run.skipped.append(cue.text)
                    continue
                if clip.duration > cue.duration + 1e-3:
                    run.cut.append(cue.text)
                    log.warning(
                        "%r takes %.2f s but has %.2f s in the schedule: cut",
                        cue.text,
                        clip.duration,
                        cue.duration,
                    )
                audio = fit(read_wav(clip.path), cue.duration)
            elif cue.kind == "sound":
                level = MASKING_LEVEL if cue.text == "shuffle" else 0.8
                audio = sounds.sound(cue.text, cue.duration) * level
            else:
                continue
            total[i : i + len(audio)] += audio[: len(total) - i]
        digest = hashlib.sha1(total.tobytes()).hexdigest()[:16]
        run.path = self.cache_dir / "schedules" / f"{schedule.name or 'schedule'}-{digest}.wav"
        if not run.path.exists():
            write_wav(run.path, total)
        return run

    async def play_schedule(
        self, schedule: Schedule, on_mark: Callable[[str], None] | None = None
    ) -> ScheduleRun:
        """Play ``schedule`` after what is queued, on a fixed clock; call ``on_mark(name)``
        at each mark's time.  Returns when the schedule's ``length`` has passed."""

        async def job() -> ScheduleRun:
            run = await self.mix(schedule)
            loop = asyncio.get_running_loop()
            run.started = loop.time()

            def fire(name: str) -> None:
                run.marks.append((name, loop.time()))
                if on_mark is not None:
                    on_mark(name)

            handles = [loop.call_at(run.started + m.start, fire, m.text) for m in schedule.marks()]
            self.spoken += [c.text for c in schedule.speech() if c.text not in run.skipped]
            player = loop.create_task(
                self.sink.play(run.path, schedule.length, f"schedule {schedule.name}")
            )
            try:
                await asyncio.sleep(max(0.0, run.started + schedule.length - loop.time()))
                await asyncio.sleep(0)  # let marks due exactly at the end run first
                await asyncio.wait_for(player, 2.0)
            except TimeoutError:
                log.warning("schedule %s playback overran and was stopped", schedule.name)
            finally:
                for handle in handles:
                    handle.cancel()
            return run

        return await self._submit(job)

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        if self._engine is not None:
            self._engine.close()
            self._engine = None


# --- building a voice from the configuration -------------------------------------------


def engine_factory(engine: str, rate: int, volume: float, voice: str) -> Callable[[], SpeechEngine]:
    if engine == "pyttsx3":
        return lambda: Pyttsx3Engine(rate, volume, voice)
    if engine in ("espeak-ng", "wav"):
        return lambda: EspeakNgEngine(rate, volume, voice)
    if engine == "recording":
        shared = RecordingEngine()
        return lambda: shared
    raise ValueError(f"unknown voice engine {engine!r}")


def choose_sink(
    engine: str, wav_dir: Path, audio: AudioStatus | None = None, force_wav: bool = False
) -> AudioSink:
    """The speaker if there is one (and WAV files were not asked for), else WAV files."""
    if engine == "recording":
        return MemorySink()
    status = detect_audio() if audio is None else audio
    if force_wav or engine == "wav":
        return WavFolderSink(wav_dir, "as configured")
    if status.player is None:
        return WavFolderSink(wav_dir, status.detail)
    return SpeakerSink(status.player, status.detail)


def make_voice(
    engine: str,
    rate: int,
    volume: float,
    voice: str,
    timeout: float,
    wav_dir: Path,
    cache_dir: Path,
    force_wav: bool = False,
) -> Voice:
    """A ``Voice`` from configuration values; logs where the speech goes."""
    result = Voice(
        engine_factory(engine, rate, volume, voice),
        choose_sink(engine, wav_dir, force_wav=force_wav),
        cache_dir,
        timeout,
    )
    if isinstance(result.sink, WavFolderSink):
        log.warning("voice: no speaker in use; speech goes to %s", result.sink.description)
    return result

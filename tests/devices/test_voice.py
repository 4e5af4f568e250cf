"""The voice: watchdog against hanging engines, fixed-clock schedules, WAV output."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from tablehub.devices.audio import RATE, AudioStatus, alsa_cards, read_wav, wav_duration
from tablehub.devices.schedule import ScheduleBuilder, ScheduleError
from tablehub.devices.voice import (
    EspeakNgEngine,
    MemorySink,
    Pyttsx3Engine,
    RecordingEngine,
    SpeechEngine,
    Voice,
    WavFolderSink,
    choose_sink,
)


class HangingEngine(RecordingEngine):
    """Hangs forever on the texts in ``hang_on`` (like pyttsx3's runAndWait on a Pi 4)."""

    def __init__(self, hang_on: set[str]) -> None:
        super().__init__()
        self.hang_on = hang_on
        self.aborted = threading.Event()
        self.release = threading.Event()

    def synthesize(self, text: str, path: Path) -> None:
        if text in self.hang_on:
            self.release.wait()  # never set unless the test ends
            path.write_bytes(b"late garbage")  # what a zombie engine would do
            return
        super().synthesize(text, path)

    def abort(self) -> None:
        self.aborted.set()


def test_a_hanging_utterance_is_abandoned_and_the_next_still_plays(tmp_path: Path) -> None:
    engines: list[HangingEngine] = []

    def factory() -> SpeechEngine:
        engines.append(HangingEngine({"Joker, open your eyes."}))
        return engines[-1]

    sink = MemorySink()
    voice = Voice(factory, sink, tmp_path, timeout=0.3)

    async def scenario() -> tuple[float, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        tick_task = asyncio.create_task(ticker())
        start = time.monotonic()
        voice.speak("Joker, open your eyes.")
        clip = await voice.say("Joker, close your eyes.")
        elapsed = time.monotonic() - start
        assert clip.ok
        tick_task.cancel()
        await voice.close()
        return elapsed, ticks

    elapsed, ticks = asyncio.run(scenario())
    assert 0.3 <= elapsed < 1.5, elapsed  # bounded: one watchdog timeout, not forever
    assert ticks >= 15  # the event loop kept running during the hang
    assert [p.label for p in sink.played] == ["Joker, close your eyes."]
    assert voice.abandoned == ["Joker, open your eyes."]
    assert engines[1].aborted.is_set()  # the hung engine was told to stop ...
    assert len(engines) == 3  # ... and replaced (engines[0] only gave the signature)
    engines[1].release.set()


def test_a_failing_engine_gives_silence_and_the_voice_carries_on(tmp_path: Path) -> None:
    class Broken(RecordingEngine):
        def synthesize(self, text: str, path: Path) -> None:
            if "bad" in text:
                raise RuntimeError("no voice")
            super().synthesize(text, path)

    sink = MemorySink()
    voice = Voice(Broken, sink, tmp_path, timeout=2)

    async def scenario() -> None:
        bad = await voice.say("bad words")
        good = await voice.say("good words")
        assert not bad.ok and good.ok
        await voice.close()

    asyncio.run(scenario())
    assert [p.label for p in sink.played] == ["good words"]


def test_pyttsx3_worker_that_hangs_is_killed(tmp_path: Path) -> None:
    procs = []

    class StuckWorker(Pyttsx3Engine):
        def worker_argv(self) -> list[str]:
            return [sys.executable, "-c", "import time; time.sleep(60)"]

        def _worker(self):  # type: ignore[no-untyped-def]
            proc = super()._worker()
            procs.append(proc)
            return proc

    voice = Voice(StuckWorker, MemorySink(), tmp_path, timeout=0.5)

    async def scenario() -> None:
        clip = await voice.say("Everyone close your eyes.")
        assert not clip.ok
        await voice.close()

    asyncio.run(scenario())
    procs[0].wait(timeout=5)  # killed by the watchdog's abort
    assert procs[0].returncode is not None


def schedule():  # type: ignore[no-untyped-def]
    b = ScheduleBuilder("night").sound(0, "shuffle", 1.2)
    b.say(0.0, "Close", 0.5).mark(0.4, "slot-0").say(0.6, "Open your eyes now please", 0.5)
    b.mark(0.8, "slot-1")
    return b.build(length=1.2)


def test_schedule_plays_on_a_fixed_clock_with_marks(tmp_path: Path) -> None:
    sink = MemorySink()
    voice = Voice(RecordingEngine, sink, tmp_path, timeout=2)
    fired: list[str] = []

    async def scenario():  # type: ignore[no-untyped-def]
        run = await voice.play_schedule(schedule(), fired.append)
        await voice.close()
        return run

    run = asyncio.run(scenario())
    assert fired == ["slot-0", "slot-1"]
    offsets = [t - run.started for _, t in run.marks]
    assert offsets[0] == pytest.approx(0.4, abs=0.05)
    assert offsets[1] == pytest.approx(0.8, abs=0.05)
    # RecordingEngine: "Close" takes 0.575 s > 0.5 s allotted -> cut; the other longer still
    assert run.cut == ["Close", "Open your eyes now please"]
    samples = read_wav(run.path)
    assert len(samples) == round(1.2 * RATE)  # exactly the schedule, whatever the engine
    assert sink.played[0].label == "schedule night"


def test_equal_schedules_mix_to_identical_audio(tmp_path: Path) -> None:
    voice = Voice(RecordingEngine, MemorySink(), tmp_path, timeout=2)

    async def scenario():  # type: ignore[no-untyped-def]
        a = await voice.mix(schedule())
        b = await voice.mix(schedule())
        return a, b

    a, b = asyncio.run(scenario())
    assert a.path == b.path
    assert a.path.read_bytes() == b.path.read_bytes()
    # the masking bed really is there between the phrases
    samples = read_wav(a.path)
    gap = samples[round(0.55 * RATE) : round(0.6 * RATE)]
    assert float(np.abs(gap).max()) > 0.0


def test_schedule_rules() -> None:
    with pytest.raises(ScheduleError, match="overlaps"):
        ScheduleBuilder().say(0, "a", 2).say(1, "b", 1).build()
    with pytest.raises(ScheduleError, match="unique"):
        ScheduleBuilder().mark(1, "x").mark(2, "x").build()
    with pytest.raises(ScheduleError, match="ends at"):
        ScheduleBuilder().say(0, "a", 2).build(length=1)
    s = schedule()
    assert s.to_json() == type(s).from_json(s.to_json()).to_json()
    assert s.texts() == ["Close", "Open your eyes now please"]


def test_espeak_ng_renders_real_speech(tmp_path: Path) -> None:
    path = tmp_path / "a.wav"
    EspeakNgEngine(rate=165).synthesize("Everyone close your eyes.", path)
    assert 0.8 < wav_duration(path) < 4.0
    assert float(np.abs(read_wav(path)).max()) > 0.1


def test_pyttsx3_worker_renders_real_speech(tmp_path: Path) -> None:
    engine = Pyttsx3Engine(rate=165)
    try:
        engine.synthesize("Everyone open your eyes.", tmp_path / "a.wav")
        engine.synthesize("Joker, open your eyes.", tmp_path / "b.wav")  # second one too
    finally:
        engine.close()
    assert wav_duration(tmp_path / "a.wav") > 0.5
    assert wav_duration(tmp_path / "b.wav") > 0.5


def test_without_a_sound_card_speech_goes_to_wav_files(tmp_path: Path) -> None:
    sink = choose_sink("espeak-ng", tmp_path / "out", AudioStatus(None, "no sound card"))
    assert isinstance(sink, WavFolderSink)
    assert "no sound card" in sink.description
    voice = Voice(lambda: EspeakNgEngine(), sink, tmp_path / "cache", timeout=5)

    async def scenario() -> None:
        await voice.say("Welcome to the table.")
        await voice.play_sound("chime", 0.3)
        await voice.close()

    asyncio.run(scenario())
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["0001-welcome-to-the-table.wav", "0002-sound-chime.wav", "transcript.txt"]
    transcript = (tmp_path / "out" / "transcript.txt").read_text()
    assert "Welcome to the table." in transcript


def test_alsa_card_listing(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.write_text(
        " 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n"
        "                      bcm2835 Headphones\n"
    )
    assert alsa_cards(cards) == ["bcm2835_headpho - bcm2835 Headphones"]
    cards.write_text("--- no soundcards ---\n")
    assert alsa_cards(cards) == []


def test_pyttsx3_short_phrases_back_to_back_all_have_audio(tmp_path: Path) -> None:
    """pyttsx3's espeak driver wrote short phrases as a bare header (the audio of the last
    chunk was added after the file was saved) and answered before the file was there; the
    worker now collects every sample and answers when the file is complete."""
    engine = Pyttsx3Engine(rate=165)
    try:
        for n in range(1, 13):
            path = tmp_path / f"{n}.wav"
            engine.synthesize(f"It is {n} o'clock.", path)
            assert wav_duration(path) > 0.5, n  # complete when the worker answers
    finally:
        engine.close()


class FlakyEngine(RecordingEngine):
    """Writes a WAV with no audio for the first ``empty`` phrases it is asked for."""

    def __init__(self, empty: int) -> None:
        super().__init__()
        self.empty = empty
        self.closed = 0

    def synthesize(self, text: str, path: Path) -> None:
        if self.empty > 0:
            self.empty -= 1
            from tablehub.devices.audio import write_wav

            write_wav(path, np.zeros(0, np.float32))
            return
        super().synthesize(text, path)

    def close(self) -> None:
        self.closed += 1


def test_a_silent_rendering_is_tried_again_and_never_cached(tmp_path: Path) -> None:
    shared = FlakyEngine(empty=1)
    sink = MemorySink()
    voice = Voice(lambda: shared, sink, tmp_path, timeout=5)
    clip = asyncio.run(voice.say("It is one o'clock."))
    assert clip.ok and clip.duration > 0.3 and shared.closed == 1  # a fresh engine, then audio
    assert [p.label for p in sink.played] == ["It is one o'clock."]
    never = FlakyEngine(empty=10)
    voice = Voice(lambda: never, MemorySink(), tmp_path / "other", timeout=5)
    clip = asyncio.run(voice.say("It is two o'clock."))
    assert not clip.ok and not list((tmp_path / "other").rglob("*.wav"))  # nothing cached

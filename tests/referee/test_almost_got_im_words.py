"""The Dealer's words: rulebook lines where the rulebook has them, and every phrase of a
night fits the time the schedule gives it (spoken by espeak-ng at the default rate)."""

from __future__ import annotations

from pathlib import Path

from tablehub.config import VoiceConfig
from tablehub.devices.audio import wav_duration
from tablehub.devices.voice import EspeakNgEngine
from tablehub.games.almost_got_im.rules import default_rules
from tablehub.referee import almost_got_im_words as words
from tablehub.referee.almost_got_im_blackout import NightTiming

LONGEST = max((c.name for c in default_rules().characters.values()), key=len)


def test_the_rulebook_lines() -> None:
    assert words.close_eyes() == "Everyone close your eyes."
    assert words.wake("The Riddler") == "The Riddler, open your eyes."
    assert words.sleep("The Riddler") == "The Riddler, close your eyes."
    assert words.open_eyes() == "Everyone open your eyes."
    assert words.HURRY == "30 seconds before we move on!"
    assert words.deal_roles(7).startswith("Now the Secret Roles. Put Batman in Disguise with 6")
    assert "Homicidal" in words.deal_roles(6) and "Healer" not in words.deal_roles(6)


def test_every_night_phrase_fits_its_time(tmp_path: Path) -> None:
    voice = VoiceConfig()
    engine = EspeakNgEngine(voice.rate, voice.volume, voice.voice)
    timing = NightTiming()
    allotted = {
        words.close_eyes(): timing.everyone,
        words.open_eyes(): timing.everyone,
        words.wake(LONGEST): timing.call,
        words.sleep(LONGEST): timing.call,
        words.ROLE_WAKE.format(name=LONGEST): timing.role_call,
        words.ROLE_SLEEP.format(name=LONGEST): timing.role_call,
        words.SWEEP: timing.sweep_intro,
    }
    for i, (text, seconds) in enumerate(allotted.items()):
        path = tmp_path / f"{i}.wav"
        engine.synthesize(text, path)
        assert wav_duration(path) <= seconds, (text, wav_duration(path), seconds)

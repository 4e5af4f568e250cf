"""A pyttsx3 synthesis worker in its own process, so a hung engine can be killed.

pyttsx3's ``runAndWait`` is known to hang (on a Pi 4 after the first utterance), and its
espeak driver keeps writing into the last ``save_to_file`` path.  Running it in a child
process lets the voice's watchdog kill it and start a fresh one; giving every request its
own output path means a late write can never land in a clip that is being played.

Protocol: one JSON request per line on stdin ``{"text", "path", "rate", "volume",
"voice"}``; one JSON reply per line on the original stdout ``{"ok": true}`` or
``{"ok": false, "error": "..."}``.  Anything pyttsx3 prints goes to stderr.  The reply
comes only once the WAV file is complete.

pyttsx3 2.99's espeak driver (Linux) cannot be trusted with ``save_to_file``: its synthesis
callback writes the WAV *before* appending the audio of the chunk that ends the utterance
(a short phrase, delivered in one chunk, comes out as a header with no audio: about half of
"It is four o'clock." renders back to back), and ``runAndWait`` returns as soon as the
synthesis has started, so under load the reply came before the file existed (the voice
then dropped the phrase: a demo's 119 WAV files for 120 spoken lines).  With that driver
the worker keeps pyttsx3 for the voice settings but collects the samples itself
(``EspeakCapture``) and writes the file when espeak says the message is done.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import threading
import wave
from typing import Any

ESPEAK_RATE = 22050  # Hz: espeak-ng's output rate (pyttsx3's driver writes the same)
FINISH_SECONDS = 60.0  # espeak renders far faster than real time; the voice's watchdog
# gives up much sooner anyway


class EspeakCapture:
    """Synthesis to a WAV file through pyttsx3's espeak bindings, every sample kept."""

    def __init__(self, espeak: Any) -> None:
        self.espeak = espeak
        self.chunks: list[bytes] = []
        self.done = threading.Event()
        espeak.SetSynthCallback(self._on_synth)  # replaces the driver's callback

    def _on_synth(self, wav: Any, samples: int, events: Any) -> int:
        if samples > 0:  # the audio first: the chunk that ends the message has some too
            self.chunks.append(ctypes.string_at(wav, samples * ctypes.sizeof(ctypes.c_short)))
        i = 0
        while events[i].type != self.espeak.EVENT_LIST_TERMINATED:
            if events[i].type == self.espeak.EVENT_MSG_TERMINATED:
                self.done.set()
            i += 1
        return 0

    def save(self, text: str, path: str) -> None:
        self.chunks, self.done = [], threading.Event()
        flags = self.espeak.ENDPAUSE | self.espeak.CHARS_UTF8
        self.espeak.Synth(text.encode("utf-8"), flags=flags)
        if not self.done.wait(FINISH_SECONDS):
            raise RuntimeError("espeak did not finish the phrase")
        with wave.open(path, "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(ESPEAK_RATE)
            out.writeframes(b"".join(self.chunks))


def espeak_capture(engine: Any) -> EspeakCapture | None:
    """An ``EspeakCapture`` when ``engine`` runs pyttsx3's espeak driver, else None."""
    driver = getattr(getattr(engine, "proxy", None), "_driver", None)
    if type(driver).__name__ != "EspeakDriver":
        return None
    from pyttsx3.drivers import _espeak

    return EspeakCapture(_espeak)


def main() -> int:
    reply = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # pyttsx3 (and the C library under it) print to stdout: send it away
    sys.stdout = sys.stderr
    try:
        import pyttsx3
    except ImportError as err:
        reply.write(json.dumps({"ok": False, "error": f"pyttsx3 is not installed: {err}"}) + "\n")
        return 1
    engine: Any = None
    capture: EspeakCapture | None = None
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if engine is None:
                engine = pyttsx3.init()
                capture = espeak_capture(engine)
            engine.setProperty("rate", int(request["rate"]))
            engine.setProperty("volume", float(request["volume"]))
            if request.get("voice"):
                engine.setProperty("voice", _voice_id(engine, str(request["voice"])))
            if capture is not None:
                capture.save(str(request["text"]), str(request["path"]))
            else:
                engine.save_to_file(str(request["text"]), str(request["path"]))
                engine.runAndWait()
            answer: dict[str, Any] = {"ok": True}
        except Exception as err:  # report, keep serving
            answer = {"ok": False, "error": f"{type(err).__name__}: {err}"}
        reply.write(json.dumps(answer) + "\n")
    return 0


def _voice_id(engine: Any, wanted: str) -> str:
    """The id of the voice whose id or name matches ``wanted`` (case-insensitive)."""
    for voice in engine.getProperty("voices"):
        if wanted.lower() in (str(voice.id).lower(), str(voice.name).lower()):
            return str(voice.id)
    raise ValueError(f"no voice {wanted!r}")


if __name__ == "__main__":
    sys.exit(main())

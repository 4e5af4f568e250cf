"""A pyttsx3 synthesis worker in its own process, so a hung engine can be killed.

pyttsx3's ``runAndWait`` is known to hang (on a Pi 4 after the first utterance), and its
espeak driver keeps writing into the last ``save_to_file`` path.  Running it in a child
process lets the voice's watchdog kill it and start a fresh one; giving every request its
own output path means a late write can never land in a clip that is being played.

Protocol: one JSON request per line on stdin ``{"text", "path", "rate", "volume",
"voice"}``; one JSON reply per line on the original stdout ``{"ok": true}`` or
``{"ok": false, "error": "..."}``.  Anything pyttsx3 prints goes to stderr.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


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
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if engine is None:
                engine = pyttsx3.init()
            engine.setProperty("rate", int(request["rate"]))
            engine.setProperty("volume", float(request["volume"]))
            if request.get("voice"):
                engine.setProperty("voice", _voice_id(engine, str(request["voice"])))
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

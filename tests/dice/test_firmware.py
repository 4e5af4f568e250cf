"""The tower firmware's logic, run by its own runner under MicroPython and under CPython."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATHS = ["firmware", "firmware/tests", "tablehub/devices", "tablehub/vision"]


def _micropython() -> str:
    found = shutil.which("micropython", path=str(Path(sys.executable).parent))
    return found or shutil.which("micropython") or "micropython"


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_firmware_logic(interpreter: str) -> None:
    env = dict(os.environ)
    if interpreter == "micropython":
        command = [_micropython(), "firmware/tests/run_tests.py"]
        env["MICROPYPATH"] = ":".join(PATHS)
    else:
        command = [sys.executable, "firmware/tests/run_tests.py"]
        # The checkout itself too: the tests use this tablehub, not whichever is installed.
        env["PYTHONPATH"] = ":".join(["firmware", "firmware/tests", str(ROOT)])
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{interpreter}: " in done.stdout and " 0 failed" in done.stdout


def test_board_layer_compiles() -> None:
    for name in ("firmware/board_openmv.py", "firmware/main.py"):
        compile((ROOT / name).read_text(), name, "exec")

"""The command line's process-wide set-up."""

from __future__ import annotations

import os
import subprocess
import sys

# Loads the command line (and every command module, as ``tablehub`` does), then reports
# whether numpy was loaded before the thread limit was set and what the limit is.
PROBE = """
import os, sys
import tablehub.cli as cli
early = "numpy" in sys.modules
cli.build_parser()
print(early, "numpy" in sys.modules, os.environ["OPENBLAS_NUM_THREADS"])
"""


def probe(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS",)}
    result = subprocess.run(
        [sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return result.stdout.split()


def test_matrix_products_run_on_one_thread_before_numpy_loads() -> None:
    # A thread per core waits on itself when another job holds a core: a frame took 7x
    # as long. The limit only counts if set before numpy loads its matrix library.
    early, loaded, threads = probe()
    assert early == "False"
    assert loaded == "True"  # the commands did load numpy, after the limit
    assert threads == "1"


def test_a_thread_count_the_user_set_is_kept() -> None:
    assert probe(OPENBLAS_NUM_THREADS="3")[2] == "3"

"""Run every benchmark: ``python -m bench [--full] [NAME ...]`` (what ``make bench`` runs).

Each module ``bench/<name>.py`` is a script that prints its figures and accepts
``--quick`` (smaller runs for a first look); ``--full`` runs them at their full size.
"""

from __future__ import annotations

import argparse
import pkgutil
import subprocess
import sys
import time
from pathlib import Path


def bench_names() -> list[str]:
    here = Path(__file__).resolve().parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    names = bench_names()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"some of: {', '.join(names)}")
    parser.add_argument("--full", action="store_true", help="full-size runs (slow)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(names))
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(names)}")
    failed = []
    for name in args.names or names:
        command = [sys.executable, "-m", f"bench.{name}"] + ([] if args.full else ["--quick"])
        print(f"== bench.{name} ({'full' if args.full else 'quick'})", flush=True)
        started = time.monotonic()
        if subprocess.run(command, check=False).returncode != 0:
            failed.append(name)
        print(f"   ({time.monotonic() - started:.1f} s)\n", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

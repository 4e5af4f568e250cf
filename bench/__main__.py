"""Run every benchmark: ``python -m bench [--full] [NAME ...]`` (what ``make bench`` runs).

Each module ``bench/<name>.py`` is a script that prints its figures.  By default each runs
at its quick size: the module's ``QUICK_ARGS`` if it has them, else ``--quick``.
``--full`` runs every module with its own defaults (the sizes quoted in issue notes).
"""

from __future__ import annotations

import argparse
import ast
import pkgutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def bench_names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if not m.name.startswith("_"))


def quick_args(name: str) -> list[str]:
    """The module's ``QUICK_ARGS`` (read without importing it), else ``["--quick"]``."""
    tree = ast.parse((HERE / f"{name}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "QUICK_ARGS" for t in node.targets
        ):
            return [str(v) for v in ast.literal_eval(node.value)]
    return ["--quick"]


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
        extra = [] if args.full else quick_args(name)
        print(f"== bench.{name} {' '.join(extra)}", flush=True)
        started = time.monotonic()
        command = [sys.executable, "-m", f"bench.{name}", *extra]
        if subprocess.run(command, check=False).returncode != 0:
            failed.append(name)
        print(f"   ({time.monotonic() - started:.1f} s)\n", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

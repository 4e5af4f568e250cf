"""``python -m bench``: every benchmark module at its quick size (``QUICK_ARGS``).

Each module in this package with ``main(argv) -> int`` and ``QUICK_ARGS`` takes part; the
full-size runs are ``python -m bench.<name>`` with that module's own options.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def main() -> int:
    code = 0
    for info in pkgutil.iter_modules(bench.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        if hasattr(module, "main") and hasattr(module, "QUICK_ARGS"):
            print(f"== bench.{info.name} {' '.join(module.QUICK_ARGS)}")
            code = max(code, module.main(list(module.QUICK_ARGS)))
    return code


if __name__ == "__main__":
    sys.exit(main())

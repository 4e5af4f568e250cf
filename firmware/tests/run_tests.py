"""A tiny test runner that works under MicroPython (no pytest there) and CPython alike.

    MICROPYPATH=firmware:firmware/tests:tablehub/devices:tablehub/vision micropython \
        firmware/tests/run_tests.py
"""

import sys

import test_logic

MODULES = [test_logic]


def main():
    passed = 0
    failed = 0
    for module in MODULES:
        for name in sorted(dir(module)):
            if not name.startswith("test_"):
                continue
            try:
                getattr(module, name)()
                passed += 1
            except Exception as err:  # report every failure, keep going
                failed += 1
                print("FAIL", name, repr(err))
    impl = sys.implementation.name
    print(impl + ": " + str(passed) + " passed, " + str(failed) + " failed")
    sys.exit(1 if failed else 0)


main()

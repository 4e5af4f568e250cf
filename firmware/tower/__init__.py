"""The reference dice tower's logic: plain Python for MicroPython and CPython alike."""

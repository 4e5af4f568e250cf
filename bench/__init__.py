"""Benchmarks: ``python -m bench.<name>`` prints figures."""

"""Benchmarks: each `bench/bench_*.py` has a `main()` that runs its measurements and prints figures.

`python -m bench` runs them all; `python -m bench NAME ...` runs the named ones (`board`, `dice`, ...).
"""

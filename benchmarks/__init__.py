"""Benchmarks: each ``bench_*.py`` module has ``run() -> dict`` of figures."""

"""Benchmarks: stream generator and the side-by-side runner (see bench/README.md)."""

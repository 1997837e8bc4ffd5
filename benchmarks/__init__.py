"""Benchmark scripts, run by hand (see run_all.py); a package so they share report.py."""

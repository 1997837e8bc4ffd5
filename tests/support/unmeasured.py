"""Coverage paused for a stretch of a test that runs, many times over, code other tests cover.

Under `coverage run` (CI, the README's test command) every line a test runs is traced, which
triples the time of a long in-process sequence; outside it this does nothing. Coverage's
`stop` pauses every thread and `start` resumes this one and the threads started later: a
thread already running (none of ours outlives its test) stays unmeasured from then on.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def unmeasured() -> Iterator[None]:
    import coverage

    measuring = coverage.Coverage.current()
    if measuring is None:
        yield
        return
    measuring.stop()
    try:
        yield
    finally:
        measuring.start()

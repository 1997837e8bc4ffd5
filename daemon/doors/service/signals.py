"""Signal handlers that only set flags; the main loop acts on them.

Python runs handlers in the main thread between bytecodes, possibly while that thread
holds a lock the action would need: calling the scheduler's shutdown (or even setting a
`threading.Event`) from a handler can deadlock. A plain attribute write cannot.

`metaeng-daemon run` installs these handlers first thing (`daemon.launch`), before the
second of imports and the start-up work: with Python's defaults a SIGHUP there would
kill the process. `serve` then adopts the same flags (`installed`), so a SIGTERM or
SIGHUP that arrived during start-up is acted on once the daemon can.

This module imports nothing of ours, so installing it costs milliseconds.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType


@dataclass
class Flags:
    stop: str | None = None  # name of the signal that asked to stop
    reload: bool = False


class _Recorder:
    """A handler writing to `flags`: an object, so a later `installed()` can find its flags."""

    def __init__(self, flags: Flags, action: str) -> None:
        self.flags = flags
        self.action = action

    def __call__(self, signum: int, _frame: FrameType | None) -> None:
        if self.action == "stop":
            self.flags.stop = signal.Signals(signum).name
        else:
            self.flags.reload = True


def install(flags: Flags) -> Callable[[], None]:
    """Route SIGTERM/SIGINT to `flags.stop` and SIGHUP to `flags.reload`; return a restorer."""
    previous = {
        signal.SIGTERM: signal.signal(signal.SIGTERM, _Recorder(flags, "stop")),
        signal.SIGINT: signal.signal(signal.SIGINT, _Recorder(flags, "stop")),
        signal.SIGHUP: signal.signal(signal.SIGHUP, _Recorder(flags, "reload")),
    }

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    return restore


def installed() -> Flags | None:
    """The flags our handlers already write to (installed at launch), or None."""
    handler = signal.getsignal(signal.SIGTERM)
    return handler.flags if isinstance(handler, _Recorder) else None

"""Signal handlers that only set flags; the main loop acts on them.

Python runs handlers in the main thread between bytecodes, possibly while that thread
holds a lock the action would need: calling the scheduler's shutdown (or even setting a
`threading.Event`) from a handler can deadlock. A plain attribute write cannot.
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


def install(flags: Flags) -> Callable[[], None]:
    """Route SIGTERM/SIGINT to `flags.stop` and SIGHUP to `flags.reload`; return a restorer."""

    def on_stop(signum: int, _frame: FrameType | None) -> None:
        flags.stop = signal.Signals(signum).name

    def on_reload(_signum: int, _frame: FrameType | None) -> None:
        flags.reload = True

    previous = {
        signal.SIGTERM: signal.signal(signal.SIGTERM, on_stop),
        signal.SIGINT: signal.signal(signal.SIGINT, on_stop),
        signal.SIGHUP: signal.signal(signal.SIGHUP, on_reload),
    }

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    return restore

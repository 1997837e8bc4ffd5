"""The daemon's heartbeat in the fleet's hosts table, on a thread of its own.

Every `coordination.heartbeat_seconds` the running daemon writes its row (agents, pid,
time) so `status --fleet` can tell a live daemon from a dead one; on a clean stop it
marks the row stopped. A database that is down costs this thread a connect timeout,
never the scheduler or the main loop. Does nothing with the local backend.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.coordination.backends import coordination_for


class Heartbeat:
    def __init__(self, deployment: Callable[[], Deployment], clock: Callable[[], datetime]) -> None:
        self._deployment = deployment  # read at each beat: a reload changes the agents
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._deployment().coordination is None:
            return
        self._thread = threading.Thread(target=self._loop, name="fleet-heartbeat", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            deployment = self._deployment()
            coordination_for(deployment).heartbeat(list(deployment.agents), self._clock())
            settings = deployment.coordination.settings if deployment.coordination else None
            self._stop.wait(settings.heartbeat_seconds if settings else 30.0)

    def stop(self) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join(timeout=10)
        coordination_for(self._deployment()).stopped(self._clock())

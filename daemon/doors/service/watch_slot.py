"""The running service's transcript watcher: started once, restarted by a reload only when
what it watches changed (roots, globs, mode, debounce), and stopped with the service."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from daemon.config.resolve import Deployment
from daemon.doors.service.watch import TranscriptWatcher, watch_root

ARM_WAIT_SECONDS = 10.0
STEP_SECONDS = 0.2


class WatchSlot:
    def __init__(self, on_changes: Callable[..., None], on_tick: Callable[..., None]) -> None:
        self.watcher: TranscriptWatcher | None = None
        self._key: tuple[object, ...] | None = None
        self._on_changes = on_changes
        self._on_tick = on_tick

    @staticmethod
    def _key_of(deployment: Deployment, agents: Sequence[str]) -> tuple[object, ...] | None:
        """What the watcher depends on."""
        settings = deployment.config.service
        if settings.watch == "off" or not agents:
            return None
        roots = tuple(
            (name, root, root.is_dir(), deployment.agents[name].transcripts.glob)
            for name in sorted(agents)
            if (root := watch_root(deployment.agents[name]))
        )
        return (roots, settings.watch, settings.watch_debounce_seconds, settings.poll_interval_seconds)

    def follow(self, deployment: Deployment, agents: Sequence[str]) -> None:
        """Watch the transcripts of `agents` (those with a transcript job) as `deployment` says;
        a watcher already watching exactly that is left running."""
        key = self._key_of(deployment, agents)
        if self.watcher is not None and key == self._key:
            return
        self.stop()
        self._key = key
        if key is None:
            return
        settings = deployment.config.service
        self.watcher = TranscriptWatcher(
            {name: deployment.agents[name] for name in agents},
            polling=settings.watch == "polling",
            debounce_seconds=settings.watch_debounce_seconds,
            poll_interval_seconds=settings.poll_interval_seconds,
            on_changes=self._on_changes,
            on_tick=self._on_tick,
        ).start()

    def wait_armed(self, stopping: Callable[[], bool]) -> bool:
        """Wait up to ARM_WAIT_SECONDS for the watcher, in short steps so a stop is not kept waiting."""
        if self.watcher is None:
            return True
        deadline = time.monotonic() + ARM_WAIT_SECONDS
        while not stopping():
            if self.watcher.armed.wait(min(STEP_SECONDS, max(deadline - time.monotonic(), 0))):
                return True
            if time.monotonic() >= deadline:
                return False
        return False

    def mode(self) -> str:
        if self.watcher is None:
            return "off"
        return "polling" if self.watcher.force_polling else "auto"

    def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None

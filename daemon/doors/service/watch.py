"""Watching transcript folders (watchfiles) in a worker thread; events are hints only.

Two appends may arrive as one event and an event may be lost (NFS, a full queue), so an
event only names agents worth a look; the byte offsets decide what is new. The watcher
yields every `TICK_MS` even when nothing happens: the first yield tells the service the
watches are armed, and later ones drive the periodic reconciliation scan.

`auto` uses kernel notifications; if they cannot be set up (inotify missing, the watch
limit reached) it falls back to polling. `polling` always polls (network file systems).
"""

from __future__ import annotations

import fnmatch
import threading
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath

import structlog
from watchfiles import Change, watch

from daemon.kernel.globmatch import static_folder
from daemon.kernel.paths import META_DIR
from daemon.kernel.settings import AgentSettings

log = structlog.get_logger("metaeng.watch")
TICK_MS = 1000
RETRY_SECONDS = 30.0


def watch_root(agent: AgentSettings) -> Path:
    """The deepest folder of the agent's transcript glob that holds no wildcard, under its root."""
    return agent.transcript_root.joinpath(*static_folder(agent.transcripts.glob))


def _file_pattern(agent: AgentSettings) -> str:
    return PurePosixPath(agent.transcripts.glob).name


class TranscriptWatcher:
    """One watch over every agent's transcript folder; calls back with agents to look at."""

    def __init__(
        self,
        agents: Mapping[str, AgentSettings],
        *,
        polling: bool,
        debounce_seconds: float,
        poll_interval_seconds: float,
        on_changes: Callable[[set[str]], None],
        on_tick: Callable[[], None],
    ) -> None:
        self.roots: dict[Path, str] = {}
        self.patterns: dict[str, tuple[Path, str]] = {}
        self.missing: list[str] = []
        for agent in agents.values():
            root = watch_root(agent)
            if root.is_dir():
                self.roots[root] = agent.name
                self.patterns[agent.name] = (agent.home / META_DIR, _file_pattern(agent))
            else:
                self.missing.append(agent.name)
        self.force_polling = polling
        self.debounce_ms = max(1, int(debounce_seconds * 1000))
        self.poll_delay_ms = max(1, int(poll_interval_seconds * 1000))
        self.on_changes = on_changes
        self.on_tick = on_tick
        self.armed = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="metaeng-watch", daemon=True)

    @property
    def folders(self) -> frozenset[Path]:
        return frozenset(self.roots)

    def start(self) -> TranscriptWatcher:
        if self.missing:
            log.info("watch.folder_missing", agents=self.missing, note="cadence and rescans still apply")
        if not self.roots:
            self.armed.set()
            return self
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def agent_of(self, path: str) -> str | None:
        target = Path(path)
        for folder in (target, *target.parents):
            name = self.roots.get(folder)
            if name is not None:
                meta, pattern = self.patterns[name]
                if meta in target.parents or not fnmatch.fnmatch(target.name, pattern):
                    return None
                return name
        return None

    def _accept(self, _change: Change, path: str) -> bool:
        return self.agent_of(path) is not None

    def _run(self) -> None:
        polling = self.force_polling
        while not self._stop.is_set():
            try:
                for changes in watch(
                    *sorted(self.roots),
                    watch_filter=self._accept,
                    debounce=self.debounce_ms,
                    step=50,
                    stop_event=self._stop,
                    rust_timeout=TICK_MS,
                    yield_on_timeout=True,
                    force_polling=polling,
                    poll_delay_ms=self.poll_delay_ms,
                    raise_interrupt=False,
                    ignore_permission_denied=True,
                ):
                    if not self.armed.is_set():
                        log.info("watch.armed", folders=len(self.roots), polling=polling)
                        self.armed.set()
                    agents = {a for _c, p in changes if (a := self.agent_of(p)) is not None}
                    if agents:
                        self._call(self.on_changes, agents)
                    self._call(self.on_tick)
                return
            except OSError as exc:
                if not polling:
                    log.warning("watch.fallback_polling", error=str(exc))
                    polling = True
                    continue
                log.error("watch.failed", error=str(exc), retry_in_s=RETRY_SECONDS)
                self.armed.set()  # cadence and rescans go on without the watch
                polling = self.force_polling
                self._stop.wait(RETRY_SECONDS)

    def _call(self, callback: Callable[..., None], *args: object) -> None:
        try:
            callback(*args)
        except Exception:  # a bug in a callback must not end the watch
            log.exception("watch.callback_failed")

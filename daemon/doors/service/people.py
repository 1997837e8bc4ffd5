"""What `run` adds for people: the web console (when `console:` is set) and notifications (`notify:`).

Notifications: `Notices` owns the outbox (`<state>/notify-outbox.json`), the notifier of
the current config (rebuilt on reload) and the background sender, a thread that every
`notify.retry_seconds` (and right after the start) retries what jobs could not deliver
within their budget. It never holds an agent's job, and a stopping daemon does not wait
for it: what is still waiting is logged (`notify.abandoned`) and sent after the next start.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import structlog

from daemon.config.resolve import Deployment
from daemon.doors.service.notifier import notifier_for
from daemon.doors.service.notify import Notifier
from daemon.doors.service.outbox import Outbox, outbox_path
from daemon.kernel.errors import DaemonError

if TYPE_CHECKING:
    from daemon.doors.console.http_server import ConsoleThread

log = structlog.get_logger("metaeng.daemon")


class Notices:
    """The service's notifications: one outbox, the current notifier, the background sender."""

    def __init__(self, state_dir: Path, env: Mapping[str, str], clock: Callable[[], datetime]) -> None:
        self.env = env
        self.clock = clock
        self.outbox = Outbox(outbox_path(state_dir))
        self.notifier: Notifier | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def configure(self, deployment: Deployment) -> Notifier | None:
        """Build the notifier of `deployment` and start the sender (once); returns the notifier."""
        self.notifier = notifier_for(deployment, self.clock, self.env, self.outbox)
        self._wake.set()  # a new config (a webhook fixed?) is worth a round now
        if self._thread is None:
            self._thread = threading.Thread(target=self._send_late, name="notify-sender", daemon=True)
            self._thread.start()
        return self.notifier

    def _send_late(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            notifier = self.notifier
            if notifier is not None and self.outbox.pending():
                try:
                    notifier.retry_pending(self._stop)
                except Exception:  # the sender must outlive a bug in one round
                    log.exception("notify.sender_crashed")
            every = notifier.settings.retry_seconds if notifier is not None else 60.0
            self._wake.wait(every)

    def stop(self) -> None:
        """Stop the sender without waiting for it; log what is still waiting (sent after the next start)."""
        self._stop.set()
        self._wake.set()
        left = [x.id for x in self.outbox.pending()]
        if left:
            log.warning(
                "notify.abandoned",
                events=left,
                outbox=str(self.outbox.path) if self.outbox.path else None,
                note="the daemon is stopping; sent after the next start",
            )


def start_console(
    deployment: Callable[[], Deployment], env: Mapping[str, str], clock: Callable[[], datetime]
) -> ConsoleThread | None:
    """Serve the console in a thread if `console:` is configured; a console problem is logged, never fatal."""
    current = deployment()
    settings = current.config.console
    if settings is None:
        return None
    # Imported only here: Starlette, uvicorn and Jinja2 cost a daemon without a console half a second.
    from daemon.doors.console.http_server import ConsoleThread, listen_on, make_server

    try:
        listen = listen_on(settings.bind, settings.allow_remote)
        served = make_server(deployment, current.state_dir, settings, listen, env=env, clock=clock)
    except DaemonError as exc:
        log.error("console.not_started", error=str(exc))
        return None
    return ConsoleThread(served).start()

"""What `run` adds for people: the web console (when `console:` is set) and notifications (`notify:`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING

import structlog

from daemon.config.door_settings import ConsoleSettings
from daemon.config.resolve import Deployment
from daemon.doors.service.notify import Notifier
from daemon.kernel.errors import DaemonError

if TYPE_CHECKING:
    from daemon.doors.console.http_server import ConsoleThread

log = structlog.get_logger("metaeng.daemon")


def console_url(deployment: Deployment) -> str:
    """Where people open the console: `notify.console_url`, else http://<console.bind>."""
    notify = deployment.config.notify
    if notify is not None and notify.console_url:
        return notify.console_url
    settings = deployment.config.console or ConsoleSettings()
    return f"http://{settings.bind}"


def notifier_for(deployment: Deployment, clock: Callable[[], datetime]) -> Notifier | None:
    settings = deployment.config.notify
    return None if settings is None else Notifier(settings, console_url(deployment), clock)


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

"""The notifier a deployment's `notify:` section makes, and where its messages point people
(the console's address). Its own module: `run` (daemon.doors.service.people) and `impact`
(daemon.doors.impact_flags) both build one, and the second must not import what starts the
console."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from daemon.config.door_settings import ConsoleSettings
from daemon.config.resolve import Deployment
from daemon.doors.service.notify import Notifier
from daemon.doors.service.outbox import Outbox


def console_url(deployment: Deployment) -> str:
    """Where people open the console: `notify.console_url`, else http://<console.bind>."""
    notify = deployment.config.notify
    if notify is not None and notify.console_url:
        return notify.console_url
    settings = deployment.config.console or ConsoleSettings()
    return f"http://{settings.bind}"


def notifier_for(
    deployment: Deployment,
    clock: Callable[[], datetime],
    env: Mapping[str, str] | None = None,
    outbox: Outbox | None = None,
) -> Notifier | None:
    """The notifier of `deployment` (None without `notify:`); its command runs with PATH and the locale of `env` only."""
    settings = deployment.config.notify
    if settings is None:
        return None
    hidden = [*deployment.config.redact_env, *([deployment.model.api_key_env] if deployment.model else [])]
    return Notifier(
        settings, console_url(deployment), clock, env=env, outbox=outbox, hidden=[h for h in hidden if h]
    )

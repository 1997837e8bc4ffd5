"""Notifications: to systemd (sd_notify) and to people (`notify:` webhook and/or command).

People: a JSON document (docs/reference/json.md, "notification") POSTed to
`notify.webhook` — at most `1 + notify.retries` attempts, each taking at most
`notify.timeout_seconds` in all however slowly the receiver answers (`webhook.post`), a
4xx answer is not retried — and/or written to the stdin of
`notify.command` (argv, no shell, same timeout). The payload's `url` opens the console
page of the event. A failed delivery is logged (the URL masked, whole and its path and
query alone: webhook URLs carry secrets) and never stops the daemon nor the command.

systemd: the notify protocol (sd_notify(3)), owned here instead of a dependency.

One datagram of `KEY=value` lines to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a
path, or `@name` for an abstract socket). Outside systemd the variable is unset and
every call is a no-op. Failures are ignored, as the man page recommends: a daemon must
not stop because its supervisor went away.
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import time
import urllib.error
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import structlog

from daemon.config.door_settings import NotifySettings
from daemon.doors.service import webhook
from daemon.kernel import redact

log = structlog.get_logger("metaeng.notify")
PAYLOAD_VERSION = 1
RETRY_PAUSE_SECONDS = 0.5


def notify(env: Mapping[str, str], *lines: str) -> bool:
    """Send `lines` (e.g. "READY=1", "STATUS=...") as one datagram; True if it was sent."""
    address = env.get("NOTIFY_SOCKET", "")
    if not address or address[0] not in "/@":
        return False  # unset, or a transport we do not speak (vsock)
    if address[0] == "@":
        address = "\0" + address[1:]
    payload = "\n".join(line.replace("\n", " ") for line in lines).encode("utf-8")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(payload)
    except OSError:
        return False
    return True


def watchdog_seconds(env: Mapping[str, str], pid: int) -> float | None:
    """The watchdog interval systemd expects (`WatchdogSec=`), or None if not for this process."""
    usec = env.get("WATCHDOG_USEC", "")
    owner = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if owner and (not owner.isdigit() or int(owner) != pid):
        return None
    return int(usec) / 1_000_000


@dataclass(frozen=True)
class Event:
    """Something a person should look at: `kind` is one of NOTIFY_EVENTS; `page` a console path."""

    kind: str
    agent: str
    summary: str
    page: str
    details: Mapping[str, Any] = field(default_factory=dict)


def payload(event: Event, console_url: str, at: datetime) -> dict[str, Any]:
    return {
        "version": PAYLOAD_VERSION,
        "event": event.kind,
        "agent": event.agent,
        "summary": redact.redact(event.summary),
        "url": console_url.rstrip("/") + event.page,
        "at": at.isoformat(),
        "details": json.loads(redact.redact(json.dumps(dict(event.details)))),
    }


def register_webhook(url: str | None) -> None:
    """Register the webhook URL for redaction, whole and by the parts that carry its token.

    Tokens live in webhook URLs (Slack, Discord, ntfy), in the path or the query; an
    exception of http.client quotes the request line's path and query without the host,
    so those are secrets of their own.
    """
    if not url:
        return
    redact.register(url)
    parts = urlsplit(url)
    for part in (parts.path, parts.query, f"{parts.path}?{parts.query}" if parts.query else ""):
        redact.register(part)


class Notifier:
    """Delivers events to the configured webhook and/or command; never raises."""

    def __init__(
        self,
        settings: NotifySettings,
        console_url: str,
        clock: Callable[[], datetime],
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.console_url = console_url
        self.clock = clock
        self.sleep = sleep
        register_webhook(settings.webhook)

    def send(self, event: Event) -> bool:
        """Deliver `event` if its kind is wanted; True if every configured target took it."""
        if event.kind not in self.settings.events:
            return True
        body = json.dumps(payload(event, self.console_url, self.clock()), sort_keys=True).encode("utf-8")
        ok = True
        if self.settings.webhook:
            ok = self._post(self.settings.webhook, body, event) and ok
        if self.settings.command:
            ok = self._run(self.settings.command, body, event) and ok
        return ok

    def _post(self, url: str, body: bytes, event: Event) -> bool:
        attempts = 1 + self.settings.retries
        for attempt in range(1, attempts + 1):
            try:
                webhook.post(url, body, self.settings.timeout_seconds)
                log.info("notify.sent", target="webhook", notify_event=event.kind, agent=event.agent)
                return True
            except urllib.error.HTTPError as exc:
                error = f"HTTP {exc.code}"
                if 400 <= exc.code < 500 and exc.code not in (408, 429):
                    attempt = attempts  # the receiver refuses this payload: a retry would too
            except OSError as exc:  # a socket's error (refused, timed out, TLS) names no path
                error = f"{type(exc).__name__}: {exc}"
            except (ValueError, http.client.HTTPException) as exc:
                # InvalidURL and its kin quote the path, where the token lives: the type alone.
                error = type(exc).__name__
            log.warning(
                "notify.failed", target="webhook", notify_event=event.kind, attempt=attempt, error=error
            )
            if attempt >= attempts:
                return False
            self.sleep(RETRY_PAUSE_SECONDS * attempt)
        return False

    def _run(self, argv: list[str], body: bytes, event: Event) -> bool:
        try:
            done = subprocess.run(
                argv, input=body, capture_output=True, timeout=self.settings.timeout_seconds, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.warning("notify.failed", target="command", notify_event=event.kind, error=str(exc))
            return False
        if done.returncode != 0:
            stderr = done.stderr.decode("utf-8", "replace")[-300:]
            log.warning(
                "notify.failed", target="command", notify_event=event.kind, exit=done.returncode, stderr=stderr
            )
            return False
        log.info("notify.sent", target="command", notify_event=event.kind, agent=event.agent)
        return True

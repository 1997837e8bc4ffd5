"""Notifications: to systemd (sd_notify) and to people (`notify:` webhook and/or command).

People: a JSON document (docs/reference/json.md, "notification") POSTed to
`notify.webhook` — each attempt taking at most `notify.timeout_seconds` in all however
slowly the receiver answers (`webhook.post`), a 4xx answer is not retried — and/or
written to the stdin of `notify.command` (argv, no shell, same timeout, an environment
of PATH and the locale alone: never the model key nor a `redact_env` variable).

One budget per run's job: all of a run's notifications together take at most
`budget_seconds` — `(1 + retries) × timeout_seconds` plus the pauses between attempts.
Every event is kept in the outbox (`daemon.doors.service.outbox`) before its first
attempt; what does not fit the budget stays there (`notify.undelivered`, with the event
ids) for the background sender, which never holds a job. A stopping daemon waits for no
receiver: the job returns at once (`notify.abandoned`) and the events wait in the outbox
for the next start. The payload's `url` opens the console page of the event. A failed
delivery is logged (the URL masked, whole and its path and query alone: webhook URLs
carry secrets) and never stops the daemon nor the command.

systemd: the notify protocol (sd_notify(3)), owned here instead of a dependency.

One datagram of `KEY=value` lines to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a
path, or `@name` for an abstract socket). Outside systemd the variable is unset and
every call is a no-op. Failures are ignored, as the man page recommends: a daemon must
not stop because its supervisor went away.
"""

from __future__ import annotations

import http.client
import json
import secrets
import socket
import subprocess
import threading
import time
import urllib.error
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlsplit

import structlog

from daemon.config.door_settings import NotifySettings
from daemon.doors.service import webhook
from daemon.doors.service.outbox import Letter, Outbox
from daemon.kernel import redact
from daemon.kernel.json_contract import RawJson

log = structlog.get_logger("metaeng.notify")
PAYLOAD_VERSION = 1
RETRY_PAUSE_SECONDS = 0.5
GRACE_SECONDS = 0.5  # a job waits this much past its budget for the last attempt to wind up


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
    details: RawJson = field(default_factory=dict)  # the event's own fields, open by kind


def payload(event: Event, console_url: str, at: datetime, event_id: str) -> RawJson:
    return {
        "version": PAYLOAD_VERSION,
        "id": event_id,
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


def command_env(env: Mapping[str, str], hidden: Collection[str] = ()) -> dict[str, str]:
    """The notify command's environment: PATH and the locale (LANG, LC_*) of `env`, nothing else.

    A variable named in `hidden` (the model key's, `redact_env`'s) is left out even then.
    """
    return {
        k: v for k, v in env.items() if (k in ("PATH", "LANG") or k.startswith("LC_")) and k not in hidden
    }


def budget_seconds(settings: NotifySettings) -> float:
    """The most a run's notifications may hold its job: every attempt of one event, and the pauses."""
    retries = settings.retries
    return (1 + retries) * settings.timeout_seconds + RETRY_PAUSE_SECONDS * retries * (retries + 1) / 2


class Notifier:
    """Delivers events to the configured webhook and/or command through the outbox; never raises."""

    def __init__(
        self,
        settings: NotifySettings,
        console_url: str,
        clock: Callable[[], datetime],
        sleep: Callable[[float], None] = time.sleep,
        env: Mapping[str, str] | None = None,
        outbox: Outbox | None = None,
        hidden: Collection[str] = (),
    ) -> None:
        self.settings = settings
        self.console_url = console_url
        self.clock = clock
        self.sleep = sleep
        self.command_env = command_env(env or {}, hidden)
        self.outbox = outbox if outbox is not None else Outbox(None)
        register_webhook(settings.webhook)

    def _keep(self, events: Sequence[Event]) -> list[Letter]:
        """Letters for the wanted `events`, kept in the outbox (claimed) before any attempt."""
        letters = []
        for event in events:
            if event.kind not in self.settings.events:
                continue
            at = self.clock()
            event_id = f"{at.astimezone(UTC):%Y%m%dT%H%M%SZ}-{secrets.token_hex(4)}"
            targets = tuple(
                t for t, on in (("webhook", self.settings.webhook), ("command", self.settings.command)) if on
            )
            body = payload(event, self.console_url, at, event_id)
            letters.append(
                Letter(event_id, event.kind, event.agent, at.astimezone(UTC).isoformat(), body, targets)
            )
        if letters:
            self.outbox.add(letters, self.clock())
        return letters

    def send(self, event: Event) -> bool:
        """Deliver `event` now, in this thread, within one budget; True if every target took it (or it is not wanted)."""
        letters = self._keep([event])
        ok = self._attempts(letters, time.monotonic() + budget_seconds(self.settings))
        self._report([x.id for x in letters], abandoned=False)
        return ok

    def deliver(self, events: Sequence[Event], stopping: threading.Event) -> list[str]:
        """Deliver a run's wanted `events` within one budget in all; return the ids not delivered.

        The attempts run in a helper thread: the caller returns once they are done, the
        budget is spent, or `stopping` is set, whichever comes first. What is left stays in
        the outbox for the background sender (or the next start, when stopping).
        """
        letters = self._keep(events)
        if not letters:
            return []
        deadline = time.monotonic() + budget_seconds(self.settings)
        worker = threading.Thread(
            target=self._attempts, args=(letters, deadline, stopping), name="notify", daemon=True
        )
        worker.start()
        while worker.is_alive() and not stopping.is_set() and time.monotonic() < deadline + GRACE_SECONDS:
            worker.join(0.05)
        return self._report([x.id for x in letters], abandoned=stopping.is_set())

    def _report(self, ids: list[str], abandoned: bool) -> list[str]:
        left = [x.id for x in self.outbox.pending(ids)]
        if left and abandoned:
            log.warning(
                "notify.abandoned",
                events=left,
                note="the daemon is stopping; kept in the outbox for the next start",
            )
        elif left:
            log.warning(
                "notify.undelivered",
                events=left,
                budget_s=budget_seconds(self.settings),
                note="kept in the outbox; the background sender retries them",
            )
        return left

    def _attempts(
        self, letters: Sequence[Letter], deadline: float, stopping: threading.Event | None = None
    ) -> bool:
        """Try every target of `letters` until `deadline`, the commands first; True if all took them.

        The command is local and quick: a slow receiver must not starve it of the budget.
        Once the webhook failed every attempt for one letter, the others' webhook attempts
        are left to the background sender: the receiver is down.
        """
        ok = True
        try:
            for target in ("command", "webhook"):
                for letter in letters:
                    if target not in letter.targets:
                        continue
                    if stopping is not None and stopping.is_set():
                        return False
                    if target == "command":
                        ok = self._run(letter, deadline) and ok
                        continue
                    sent, up = self._post(letter, 1 + self.settings.retries, deadline)
                    ok = ok and sent
                    if not up:
                        return False
        finally:
            self.outbox.release(x.id for x in letters)
        return ok

    def retry_pending(self, stopping: threading.Event) -> None:
        """One round of the background sender: one attempt per waiting target, the commands first.

        The webhook is left alone for the rest of the round once it fails; a target no longer
        configured is struck off (logged). Returns early once `stopping` is set.
        """
        letters = self.outbox.claim_unclaimed()
        try:
            configured = {"webhook": bool(self.settings.webhook), "command": bool(self.settings.command)}
            for letter in letters:
                for target in letter.targets:
                    if not configured.get(target):
                        log.warning(
                            "notify.dropped",
                            events=[letter.id],
                            target=target,
                            reason="target no longer configured",
                        )
                        self.outbox.delivered(letter.id, target)
            for letter in letters:
                if stopping.is_set():
                    return
                if "command" in letter.targets and configured["command"]:
                    self._run(letter, time.monotonic() + self.settings.timeout_seconds)
            for letter in letters:
                if stopping.is_set():
                    return
                if "webhook" not in letter.targets or not configured["webhook"]:
                    continue
                if not self._post(letter, 1, time.monotonic() + self.settings.timeout_seconds)[1]:
                    return  # the receiver is down: the rest waits for the next round
        finally:
            self.outbox.release(x.id for x in letters)

    def _post(self, letter: Letter, attempts: int, deadline: float) -> tuple[bool, bool]:
        """(taken, receiver up): up is False when every attempt failed without an answer that settles it."""
        url = self.settings.webhook
        assert url is not None
        for attempt in range(1, attempts + 1):
            seconds = min(self.settings.timeout_seconds, deadline - time.monotonic())
            if seconds <= 0:
                return False, False
            try:
                webhook.post(url, letter.body(), seconds)
                log.info(
                    "notify.sent",
                    target="webhook",
                    notify_event=letter.kind,
                    agent=letter.agent,
                    id=letter.id,
                )
                self.outbox.delivered(letter.id, "webhook")
                return True, True
            except urllib.error.HTTPError as exc:
                error = f"HTTP {exc.code}"
                if 400 <= exc.code < 500 and exc.code not in (408, 429):
                    # The receiver refuses this payload: a retry, now or later, would be refused too.
                    log.warning(
                        "notify.failed",
                        target="webhook",
                        notify_event=letter.kind,
                        id=letter.id,
                        attempt=attempt,
                        error=error,
                        note="refused: not retried",
                    )
                    self.outbox.delivered(letter.id, "webhook")
                    return False, True
            except OSError as exc:  # a socket's error (refused, timed out, TLS) names no path
                error = f"{type(exc).__name__}: {exc}"
            except (ValueError, http.client.HTTPException) as exc:
                # InvalidURL and its kin quote the path, where the token lives: the type alone.
                error = type(exc).__name__
            log.warning(
                "notify.failed",
                target="webhook",
                notify_event=letter.kind,
                id=letter.id,
                attempt=attempt,
                error=error,
            )
            pause = RETRY_PAUSE_SECONDS * attempt
            if attempt >= attempts or time.monotonic() + pause >= deadline:
                break  # no attempts left, or no time for one after the pause
            self.sleep(pause)
        return False, False

    def _run(self, letter: Letter, deadline: float) -> bool:
        argv = self.settings.command
        assert argv is not None
        seconds = min(self.settings.timeout_seconds, deadline - time.monotonic())
        if seconds <= 0:
            return False
        try:
            done = subprocess.run(
                argv,
                input=letter.body(),
                capture_output=True,
                timeout=seconds,
                check=False,
                env=self.command_env,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.warning(
                "notify.failed", target="command", notify_event=letter.kind, id=letter.id, error=str(exc)
            )
            return False
        if done.returncode != 0:
            stderr = done.stderr.decode("utf-8", "replace")[-300:]
            log.warning(
                "notify.failed",
                target="command",
                notify_event=letter.kind,
                id=letter.id,
                exit=done.returncode,
                stderr=stderr,
            )
            return False
        log.info("notify.sent", target="command", notify_event=letter.kind, agent=letter.agent, id=letter.id)
        self.outbox.delivered(letter.id, "command")
        return True

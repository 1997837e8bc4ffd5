"""Settings of the doors people open on the daemon: the web console and notifications.

`console:` switches the console on inside `metaeng-daemon run` (and gives
`metaeng-daemon console` its defaults); `notify:` sends a webhook and/or runs a command
when something needs a person (docs/reference/configuration.md).
"""

from __future__ import annotations

import ipaddress
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from daemon.config.secret_keys import webhook_problem
from daemon.kernel.settings import Frozen

NotifyEvent = Literal[
    "proposal_opened", "run_failed", "skill_quarantined", "breaker_opened", "pass_stuck", "skills_stale", "impact_flagged"
]
NOTIFY_EVENTS: tuple[NotifyEvent, ...] = (
    "proposal_opened",
    "run_failed",
    "skill_quarantined",
    "breaker_opened",
    "pass_stuck",
    "skills_stale",
    "impact_flagged",
)


def split_bind(bind: str) -> tuple[str, int]:
    """`HOST:PORT` (`[::1]:8765` for IPv6) → (host, port); raises ValueError naming the problem."""
    host, sep, port = bind.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bind {bind!r} must be HOST:PORT with a port in 1-65535 (e.g. 127.0.0.1:8765)")
    return host.removeprefix("[").removesuffix("]"), int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ConsoleSettings(Frozen):
    bind: str = "127.0.0.1:8765"
    # A bind that is not loopback is refused unless this is true (or --allow-remote is given).
    allow_remote: bool = False
    # Host header names accepted besides localhost, 127.0.0.1 and [::1] (DNS-rebinding guard).
    hostnames: list[str] = Field(default_factory=list)
    # Folders holding lab ledger folders (`lab grid|campaign --output`), shown on the Lab page.
    lab_ledgers: list[str] = Field(default_factory=list)

    @field_validator("bind")
    @classmethod
    def _bind(cls, value: str) -> str:
        split_bind(value)
        return value


class NotifySettings(Frozen):
    webhook: str | None = None  # JSON POST here; the URL is a secret (masked in every log line)
    command: list[str] | None = Field(default=None, min_length=1)  # argv; the payload on stdin
    events: list[NotifyEvent] = Field(default_factory=lambda: list(NOTIFY_EVENTS))
    timeout_seconds: float = Field(default=5.0, gt=0, le=60)
    retries: int = Field(default=2, ge=0, le=5)  # extra webhook attempts after a failed one
    # How often the background sender retries what a job could not deliver within its budget.
    retry_seconds: float = Field(default=60.0, ge=1, le=86_400)
    # The console's address as people open it (links in the payload); default http://<console.bind>.
    console_url: str | None = None

    @field_validator("webhook")
    @classmethod
    def _webhook(cls, value: str | None) -> str | None:
        problem = None if value is None else webhook_problem(value)
        if problem is not None:
            raise ValueError(problem)  # never the URL: its path carries the token
        return value

    @field_validator("console_url")
    @classmethod
    def _console_url(cls, value: str | None) -> str | None:
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(f"{value!r} is not an http(s) URL")
        return value

    @model_validator(mode="after")
    def _somewhere(self) -> NotifySettings:
        if self.webhook is None and self.command is None:
            raise ValueError("notify needs a webhook, a command, or both")
        return self

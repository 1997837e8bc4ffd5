"""The `coordination:` section checked and resolved: the database URL and where its password comes from.

A password in the URL (`postgresql://user:secret@…`, `?password=` or the client key's
`?sslpassword=`) is refused, naming the key and line and never repeating the URL: config
files get copied, committed and pasted into tickets. The password is read from the variable `password_env` names or, under
systemd's `LoadCredential=`, from `$CREDENTIALS_DIRECTORY/<that name in lower case>`, and
registered for redaction as it is read.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from daemon.config.models import CoordinationSettings
from daemon.config.yamlmap import KeyPath
from daemon.kernel import redact

SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True)
class CoordinationTarget:
    """A resolved `coordination:` section: what the PostgreSQL backend connects with."""

    url: str
    settings: CoordinationSettings
    host_id: str  # this daemon's row in the hosts table
    password: str | None = field(default=None, repr=False, compare=False)
    password_source: str | None = None  # where the password came from, for messages: never the value

    def __repr__(self) -> str:  # the password never reaches a repr or a traceback
        return f"CoordinationTarget(url={self.url!r}, host_id={self.host_id!r}, password={'***' if self.password else None})"


def url_problems(url: str) -> list[str]:
    """What is wrong with `url` as a coordination URL, each as a sentence that never quotes it."""
    try:
        parts = urlsplit(url)
        has_password = parts.password is not None
        query = parse_qs(parts.query, keep_blank_values=True)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError as exc:
        return [f"not a valid URL ({exc.__class__.__name__})"]
    if parts.scheme not in SCHEMES:
        return ["must start with postgresql:// (a libpq connection URL)"]
    problems = []
    names = {key.lower() for key in query}
    if has_password or "password" in names:
        problems.append(
            "contains a password; put it in the environment variable named by coordination.password_env "
            "(or the systemd credential of that name) and remove it from the file"
        )
    if "sslpassword" in names:
        problems.append(
            "contains a password (sslpassword, the client key's passphrase); give libpq a key file "
            "without a passphrase that only the daemon's user can read (mode 0600) and remove it from the file"
        )
    if not parts.path.strip("/"):
        problems.append("names no database (postgresql://user@host:5432/DATABASE)")
    return problems


def read_password(settings: CoordinationSettings, env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(password, where it came from) or (None, None): the variable first, then the credential file."""
    name = settings.password_env
    if name is None:
        return None, None
    value = env.get(name, "").strip()
    if value:
        return value, f"environment variable {name}"
    credentials = env.get("CREDENTIALS_DIRECTORY")
    if credentials:
        path = Path(credentials) / name.lower()
        try:
            value = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            value = ""
        if value:
            return value, f"credentials file {path}"
    return None, None


def resolve_coordination(
    settings: CoordinationSettings | None,
    state_dir: Path,
    env: Mapping[str, str],
    at: Callable[[KeyPath], str],
) -> tuple[CoordinationTarget | None, list[str]]:
    """The resolved target (None when absent) and the problems of the section, with lines."""
    if settings is None:
        return None, []
    problems = [f"coordination.url: {p} ({at(('coordination', 'url'))})" for p in url_problems(settings.url)]
    if problems:
        return None, problems
    password, source = read_password(settings, env)
    redact.register(password)
    host_id = settings.host_name or f"{socket.gethostname()}:{os.fspath(state_dir)}"
    return CoordinationTarget(settings.url, settings, host_id, password, source), []

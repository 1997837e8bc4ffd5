"""Who may use the console: a token file in the state folder, exchanged for a session cookie.

The token is 32 random bytes (URL-safe), written once with mode 0600 to
`<state_dir>/console/token` and kept across restarts; a token file another user could
read is refused (delete it and a new one is written). A first visit with `?token=` gets
an HttpOnly, SameSite=Strict session cookie; sessions live in memory, so a restart asks
for the token again. Each session carries its own form token for state-changing POSTs.
"""

from __future__ import annotations

import hmac
import os
import secrets
import stat
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon.kernel import atomic
from daemon.kernel.errors import DaemonError

COOKIE = "metaeng_console"
MAX_SESSIONS = 64


def token_path(state_dir: Path) -> Path:
    return state_dir / "console" / "token"


def load_or_create_token(state_dir: Path) -> str:
    """The console token; created (0600, folder 0700) when missing. Raises DaemonError if exposed."""
    path = token_path(state_dir)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        info = path.stat()
    except FileNotFoundError:
        token = secrets.token_urlsafe(32)
        atomic.write_text(path, token + "\n", mode=0o600)
        return token
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO) or info.st_uid != os.getuid():
        raise DaemonError(
            f"console token {path} is readable by other users or owned by another user "
            f"(mode {stat.filemode(info.st_mode)}); delete it and start the console again for a new one"
        )
    token = path.read_text(encoding="utf-8").strip()
    if len(token) < 32:
        raise DaemonError(f"console token {path} is too short; delete it and start again for a new one")
    return token


@dataclass(frozen=True)
class Session:
    id: str
    form_token: str
    started_at: datetime

    @property
    def label(self) -> str:
        """How actions name this session in logs and proposal history (never the cookie itself)."""
        return f"console:{self.id[:8]}"


class Sessions:
    """In-memory sessions; the oldest is dropped beyond MAX_SESSIONS."""

    def __init__(self, token: str) -> None:
        self._token = token
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}

    def token_matches(self, offered: str) -> bool:
        return hmac.compare_digest(offered.encode(), self._token.encode())

    def start(self, now: datetime) -> Session:
        session = Session(secrets.token_urlsafe(24), secrets.token_urlsafe(24), now)
        with self._lock:
            self._sessions[session.id] = session
            while len(self._sessions) > MAX_SESSIONS:
                del self._sessions[next(iter(self._sessions))]
        return session

    def get(self, cookie: str | None) -> Session | None:
        if not cookie:
            return None
        with self._lock:
            return self._sessions.get(cookie)

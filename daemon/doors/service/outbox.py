"""`<state>/notify-outbox.json`: the notifications to people not delivered yet.

A run's notifications are written here before the first attempt and each target
(`webhook`, `command`) is struck off once it took the event; an event leaves when no
target is left. What a run's job could not deliver within its budget stays here for the
background sender (`daemon.doors.service.people`), across restarts. Bounded: at most
MAX_LETTERS events, none older than MAX_AGE; what is pushed out is logged with its id
(`notify.dropped`), never lost silently.

Entries being delivered by a job are `claim`ed so the sender leaves them alone. A file
from a newer daemon, or one that cannot be read, is left untouched (logged) and the
outbox lives in memory until the next start.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

import structlog

from daemon.kernel import atomic
from daemon.kernel.errors import CorruptState, StateVersionError
from daemon.kernel.json_contract import RawJson

log = structlog.get_logger("metaeng.notify")
VERSION = 1
MAX_LETTERS = 200
MAX_AGE = timedelta(days=7)
FILE_NAME = "notify-outbox.json"


@dataclass(frozen=True)
class Letter:
    """One event's payload and the targets that have not taken it yet."""

    id: str
    kind: str
    agent: str
    created_at: str  # ISO 8601, UTC
    payload: RawJson  # the webhook's body as `notify.payload` built it
    targets: tuple[str, ...]  # "webhook", "command"

    def body(self) -> bytes:
        return json.dumps(self.payload, sort_keys=True).encode("utf-8")


def outbox_path(state_dir: Path) -> Path:
    return state_dir / FILE_NAME


def _read(path: Path) -> list[Letter]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        raise CorruptState(path, str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("version"), int):
        raise CorruptState(path, "no version")
    if data["version"] > VERSION:
        raise StateVersionError(path, data["version"], VERSION)
    try:
        return [
            Letter(e["id"], e["kind"], e["agent"], e["created_at"], dict(e["payload"]), tuple(e["targets"]))
            for e in data.get("letters", [])
        ]
    except (KeyError, TypeError) as exc:
        raise CorruptState(path, f"bad entry ({exc})") from None


class Outbox:
    """The pending notifications, kept in `path` (None: in memory only); thread-safe."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._claimed: set[str] = set()
        self._letters: dict[str, Letter] = {}
        if path is not None:
            try:
                self._letters = {letter.id: letter for letter in _read(path)}
            except (CorruptState, StateVersionError) as exc:
                log.error(
                    "notify.outbox_unreadable",
                    error=str(exc),
                    note="left as is; undelivered events kept in memory",
                )
                self.path = None

    def add(self, letters: Iterable[Letter], now: datetime) -> None:
        """Keep `letters` (claimed by the caller), pushing out the oldest beyond the bounds."""
        with self._lock:
            for letter in letters:
                self._letters[letter.id] = letter
                self._claimed.add(letter.id)
            self._trim(now)
            self._save()

    def _trim(self, now: datetime) -> None:
        oldest = (now - MAX_AGE).isoformat()
        expired = [i for i, letter in self._letters.items() if letter.created_at < oldest]
        surplus = [i for i in self._letters if i not in expired][
            : max(0, len(self._letters) - len(expired) - MAX_LETTERS)
        ]
        for reason, ids in (("older than 7 days", expired), (f"more than {MAX_LETTERS} waiting", surplus)):
            if ids:
                for i in ids:
                    del self._letters[i]
                log.warning("notify.dropped", events=ids, reason=reason, note="never delivered")

    def delivered(self, letter_id: str, target: str) -> None:
        """Strike `target` off the letter; a letter with no target left leaves the outbox."""
        with self._lock:
            letter = self._letters.get(letter_id)
            if letter is None or target not in letter.targets:
                return
            left = tuple(t for t in letter.targets if t != target)
            if left:
                self._letters[letter_id] = replace(letter, targets=left)
            else:
                del self._letters[letter_id]
            self._save()

    def pending(self, ids: Iterable[str] | None = None) -> list[Letter]:
        """The letters still waiting (of `ids`, if given), oldest first."""
        with self._lock:
            wanted = None if ids is None else set(ids)
            return [letter for i, letter in self._letters.items() if wanted is None or i in wanted]

    def claim_unclaimed(self) -> list[Letter]:
        """Claim and return every letter no job is delivering, oldest first."""
        with self._lock:
            free = [letter for i, letter in self._letters.items() if i not in self._claimed]
            self._claimed.update(letter.id for letter in free)
            return free

    def release(self, ids: Iterable[str]) -> None:
        with self._lock:
            self._claimed.difference_update(ids)

    def _save(self) -> None:
        if self.path is None:
            return
        letters = [
            {
                "id": x.id,
                "kind": x.kind,
                "agent": x.agent,
                "created_at": x.created_at,
                "payload": x.payload,
                "targets": list(x.targets),
            }
            for x in self._letters.values()
        ]
        try:
            atomic.write_text(
                self.path, json.dumps({"version": VERSION, "letters": letters}, indent=1) + "\n", mode=0o600
            )
        except OSError as exc:
            log.warning("notify.outbox_unwritable", error=str(exc), note="undelivered events kept in memory")

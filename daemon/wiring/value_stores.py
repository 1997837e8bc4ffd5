"""Every file of an agent's home that holds fact values by (entity, key): where a purge
looks for the values it erases (docs/explanation/erasure.md).

A purge of (entity, key) first finds the values that key ever had, then erases them
everywhere: the home's managed files, the store's history, the state folder. Finding is
the step a new file can slip past: a value only ever *refused* (logged in the refused-facts
log, never stored) would survive a purge that looked in the fact store alone. So the places
are one registry; a purge reads each, now and in the store's history, and a test fails
when a pass may write a file that is in neither the registry nor `NO_VALUES`.

The state folder (run log, journal, spend and request records, scratch, lab ledgers,
indexes) needs no entry: it is erased whole, every file, once the values are known.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from daemon.kernel.paths import REVIEW_DIR
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.run.store import StoreSession
from daemon.text.erasure import values_of
from memory_engine import fact_shards, refused
from memory_engine.forbidden import FORBIDDEN_FILE

Reader = Callable[[str, str, Iterable[bytes]], set[str]]


def _proposal_values(entity: str, key: str, lines: Iterable[bytes]) -> set[str]:
    """Values in the fact-store changes a review proposal carries (JSON strings holding
    shard lines), in a proposal file or in its diff lines."""
    found: set[str] = set()
    for line in lines:
        if entity.encode() not in line:
            continue
        for text in _strings(line):
            found |= values_of(entity, key, text.encode("utf-8", "surrogatepass").split(b"\n"))
    return found


def _strings(line: bytes) -> Iterator[str]:
    """The JSON string values of one line of a pretty-printed or one-line JSON document."""
    stripped = line.strip().rstrip(b",")
    for candidate in (stripped, stripped.partition(b":")[2].strip()):
        try:
            raw = json.loads(candidate)
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        yield from _walk(raw)
        return


def _walk(raw: object) -> Iterator[str]:
    if isinstance(raw, str):
        yield raw
    elif isinstance(raw, dict):
        for item in raw.values():
            yield from _walk(item)
    elif isinstance(raw, list):
        for item in raw:
            yield from _walk(item)


@dataclass(frozen=True)
class ValueStore:
    name: str
    paths: Callable[[AgentSettings], tuple[str, ...]]  # home-relative files or folders (git pathspecs)
    read: Reader  # (entity, key, lines) → the values of that key in those lines


REGISTRY: tuple[ValueStore, ...] = (
    ValueStore("fact store", lambda agent: fact_shards.record_pathspecs(agent.memory.store), values_of),
    ValueStore("refused-facts log", lambda _agent: (refused.REFUSED_LOG,), values_of),
    ValueStore("review proposals", lambda _agent: (REVIEW_DIR,), _proposal_values),
)

# Files a pass writes that hold no fact value of their own, with why (the registry test
# accepts these; the erasure still walks them, as every managed file).
NO_VALUES: dict[str, str] = {
    refused.RETRY_FILE: "turn offsets to read again, no values",
    FORBIDDEN_FILE: "keys a person forbade, never values",
}


def store_of(agent: AgentSettings, path: str) -> ValueStore | None:
    """The registered store `path` (home-relative) belongs to, or None."""
    for store in REGISTRY:
        if any(path == spec or path.startswith(spec.rstrip("/") + "/") for spec in store.paths(agent)):
            return store
    return None


def pathspecs(agent: AgentSettings) -> tuple[str, ...]:
    return tuple(spec for store in REGISTRY for spec in store.paths(agent))


def in_home(view: AgentView, agent: AgentSettings, entity: str, key: str, skip: tuple[str, ...] = ()) -> set[str]:
    """The values of (entity, key) in the registered stores as the home holds them now (but
    the stores named in `skip`)."""
    found: set[str] = set()
    for store in REGISTRY:
        if store.name in skip:
            continue
        for path in _files_under(view, store.paths(agent)):
            found |= store.read(entity, key, (view.read_bytes(path) or b"").split(b"\n"))
    return found


def _files_under(view: AgentView, specs: tuple[str, ...]) -> list[str]:
    """The regular files of the home at or under each of `specs`."""
    out: list[str] = []
    for spec in specs:
        root = view.home / spec
        if root.is_file() and not root.is_symlink():
            out.append(spec)
        elif root.is_dir() and not root.is_symlink():
            out += sorted(str(p.relative_to(view.home)) for p in root.rglob("*") if p.is_file() and not p.is_symlink())
    return out


def in_history(store: StoreSession, agent: AgentSettings, entity: str, key: str) -> set[str]:
    """The values of (entity, key) any commit added or removed in a registered store: one
    `git log -p`, each diff's lines read by the store its file belongs to."""
    _status, out = store.run_git(
        "log", "--all", "-p", "--no-color", "--no-ext-diff", "--unified=0", "--format=", "--", *pathspecs(agent)
    )
    found: set[str] = set()
    current: ValueStore | None = None
    lines: list[bytes] = []
    for line in [*out.split(b"\n"), b"diff --git end"]:
        if line.startswith(b"diff --git "):
            if current is not None and lines:
                found |= current.read(entity, key, lines)
            path = line.split(b" b/", 1)[-1].decode("utf-8", "replace")
            current, lines = store_of(agent, path), []
        elif line[:1] in (b"+", b"-") and not line.startswith((b"+++", b"---")):
            lines.append(line[1:])
    return found

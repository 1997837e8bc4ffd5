"""Purge a fact for real: from the home, the store's whole history and the daemon's files.

One locked session, in this order (each step safe to repeat after a crash):

1. find the values: every version of (entity, key) in each registered store of values
   (`value_stores`: the fact store, the refused-facts log, the review queue's proposals),
   now and in the store's history — `--value` narrows to one of them;
2. the forget run: every managed file of the home with the values erased (fact records
   dropped, other mentions `[purged]`, the facts view rendered anew) — one commit;
3. the erasure record (salted hashes only), then the state files erased;
4. the history rewrite (`daemon.run.history_rewrite`): every commit's blobs and message
   through the same erasure, verified, swapped; the run index rebuilt. A blob is erased
   by the JSON rule if a commit holds it under a JSON path, as the home's file was; a
   message keeps its trailers (run id, agent, passes, counts: the daemon's, not a fact's).

A crash after 2 or 3 leaves the values in history only: running the purge again finds
them there and finishes. Cursors never move back, so consumed turns are not read again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

import structlog

from daemon.config.resolve import Deployment
from daemon.kernel.changeset import Changeset, FileWrite, PassDetails, nothing
from daemon.kernel.errors import DaemonError
from daemon.kernel.view import AgentView
from daemon.run import erasures
from daemon.run.applier import Submission, commit_run, hold_memory_lock
from daemon.run.apply import new_run_id
from daemon.run.crashpoints import crashpoint
from daemon.run.history_rewrite import Rewrite, rewrite_history
from daemon.run.session import AgentSession, agent_session
from daemon.run.state_erasure import drop_index, erase_state
from daemon.run.store import StoreSession
from daemon.run.store_git import parse_trailers
from daemon.text.erasure import Erasure, is_structured
from daemon.wiring import value_stores
from memory_engine import fact_shards, forbidden
from memory_engine.agent_memory import load_memory, open_edit

log = structlog.get_logger("metaeng.purge")


@dataclass(frozen=True)
class PurgeTarget:
    entity: str
    key: str
    value: str | None = None  # None: every value the key ever had
    forbid: bool = False  # also put the key on the agent's forbidden list


@dataclass(frozen=True)
class PurgeResult:
    entity: str
    key: str
    values: int  # how many distinct values were purged (0: nothing found)
    run_id: str | None  # the forget run, None if the home held nothing any more
    state_files: tuple[str, ...]
    rewritten: bool
    record: erasures.ErasureRecord | None


def find_values(session: AgentSession, target: PurgeTarget) -> set[str]:
    """Values of (entity, key) in every registered store of values (`value_stores`: the fact
    store, the refused-facts log, review proposals), now and anywhere in the store's history."""
    agent = session.agent
    view = AgentView(agent.home)
    # The owner's shard now; every other version of any owner is in the history (a session
    # commits a person's edits before it starts), so the whole store is read only without one.
    committed = session.store.head() is not None
    if committed:
        edit = open_edit(agent, view)
        edit.load_scope((*agent.owner, target.entity, target.key))
        records = edit.records()
    else:
        records = load_memory(agent, view).records()
    found = {r.value for r in records if r.entity == target.entity and r.key == target.key and r.value}
    found |= value_stores.in_home(view, agent, target.entity, target.key, skip=("fact store",))
    if committed:
        found |= value_stores.in_history(session.store, agent, target.entity, target.key)
    if target.value is not None:
        if target.value not in found:
            raise DaemonError(
                f"no version of {target.entity}.{target.key} has the value given by --value "
                f"(in none of: {', '.join(s.name for s in value_stores.REGISTRY)}, nor in their history); "
                "nothing changed"
            )
        return {target.value}
    return found


class Purged(PassDetails):
    """The home files a purge erased values from."""

    files: list[str]


def _under(path: str, specs: tuple[str, ...]) -> bool:
    return any(path == spec or path.startswith(spec + "/") for spec in specs)


def plan_erasure(
    session: AgentSession, view: AgentView, erasure: Erasure, today: str, forbid: str | None = None
) -> Changeset:
    """Every managed file of the home with the values erased (a fact file left empty goes);
    the facts view rendered anew from what remains."""
    scan = session.scan or session.managed.scan(session.agent.home)
    memory_settings = session.agent.memory
    specs = fact_shards.record_pathspecs(memory_settings.store)
    changes: dict[str, bytes | None] = {}
    for path in sorted(scan.files):
        if path in NEVER_ERASED:
            continue
        data = view.read_bytes(path)
        if data is not None and erasure.found_in(data):
            erased = erasure.erase(data, structured=is_structured(path))
            changes[path] = None if not erased.strip() and _under(path, specs) else erased
            if is_structured(path) and (lines := erasure.leftovers(erased)):
                log.warning("purge.unparsed_lines", agent=session.agent.name, file=path, lines=lines)
    if memory_settings.markdown_view and any(_under(p, specs) for p in changes):
        # The erased shards come from the overlay, the untouched ones (no value in them) from the index.
        rendered = open_edit(session.agent, view.layered(changes), session.state.fact_index).facts_view(today)
        changes[memory_settings.markdown_view] = erasure.erase(rendered)
    if forbid and (added := forbidden.with_key(view, forbid)) is not None:
        changes[added.path] = added.content
    changed = {p: c for p, c in changes.items() if view.read_bytes(p) != c}
    if not changed:
        return nothing("forget", "the home holds none of the values any more")
    return Changeset(
        pass_name="forget",
        status="changes",
        reason=f"purged {erasure.label} from {len(changed)} file(s)",
        writes=tuple(FileWrite(path=p, content=c) for p, c in sorted(changed.items()) if c is not None),
        deletes=tuple(p for p, c in sorted(changed.items()) if c is None),
        report=tuple(f"erased from {p}" for p in sorted(changed)),
        details=Purged(files=sorted(changed)),
    )


def _shared(deployment: Deployment) -> list[Path]:
    """Files and folders outside the agent's state that may quote its facts: everything in
    the deployment's state folder but the agents' own (spend and request records, lab
    ledgers written there by default, the daemon's status), and the console's lab ledgers."""
    state_dir = deployment.state_dir
    folders = sorted(p for p in state_dir.iterdir() if p.name != "agents") if state_dir.is_dir() else []
    console = deployment.config.console
    if console is not None:
        folders += [deployment.path.parent / p for p in console.lab_ledgers]
    return folders


@dataclass(frozen=True)
class Erased:
    run_id: str | None
    state_files: tuple[str, ...]
    rewritten: bool
    records: tuple[erasures.ErasureRecord, ...]


def erase_everywhere(
    deployment: Deployment,
    session: AgentSession,
    erasure: Erasure,
    *,
    kind: Literal["purge", "retention"],
    requested_by: str,
    now: datetime,
    forbid: str | None = None,
) -> Erased:
    """Steps 2-4 of the module docstring for `erasure`, in an open session holding the memory lock.

    Raises DaemonError if the forget run cannot be applied (nothing changed); StoreError if
    the rewrite fails (the old store is kept; the purge can be run again).
    """
    view = AgentView(session.agent.home)
    run_id = new_run_id(now)
    changeset = plan_erasure(session, view, erasure, now.date().isoformat(), forbid)
    committed: str | None = None
    if changeset.status == "changes":
        outcome = commit_run(session, Submission((changeset,), kind=kind), now=now, run_id=run_id)
        (result,) = outcome.passes
        if outcome.error is not None or result.status in ("failed", "skipped"):
            raise DaemonError(f"{kind} not applied, nothing changed — {outcome.error or result.reason}")
        committed = outcome.run_id
    crashpoint("purge_after_forget")
    if not erasure.facts:
        return Erased(committed, (), False, ())
    groups: dict[tuple[str, str], set[str]] = {}
    for entity, key, value in erasure.facts:
        groups.setdefault((entity, key), set()).add(value)
    records = tuple(
        erasures.ErasureRecord(
            at=now.isoformat(),
            requested_by=requested_by,
            kind=kind,
            entity=entity,
            key=key,
            value_hashes=erasures.hashes(session.state, values),
            run_id=committed,
            commits_rewritten=session.store.head() is not None,
        )
        for (entity, key), values in sorted(groups.items())
    )
    for record in records:
        erasures.append(session.state, record)
    keep = [erasures.records_path(session.state), erasures.salt_path(session.state)]
    changed = erase_state(session.state, _shared(deployment), erasure, keep)
    crashpoint("purge_after_redact")
    rewritten = False
    if session.store.head() is not None:
        rewrite = history_rewrite(erasure, kind, structured_blobs(session.store))
        rewrite_history(session.store, session.state, rewrite, now)
        drop_index(session.state)
        rewritten = True
    log.info(
        f"{kind}.done",
        agent=session.agent.name,
        erased=erasure.label,
        values=len(erasure.facts),
        run_id=committed,
        state_files=len(changed),
    )
    return Erased(committed, tuple(str(p) for p in changed), rewritten, records)


def purge(
    deployment: Deployment,
    agent_name: str,
    target: PurgeTarget,
    *,
    requested_by: str,
    now: datetime,
    lock_timeout: float,
    confirm: Callable[[int], bool] | None = None,
) -> PurgeResult:
    """Purge `target` from the agent's home, history and state (see the module docstring).

    `confirm(values)` is asked once the values are known (False: nothing changed).
    Raises DaemonError (nothing changed) for an unknown --value, a locked memory, or a
    failed forget run; StoreError if the rewrite fails (the old store is kept; run again).
    """
    with agent_session(deployment, agent_name, now, lock_timeout) as session, ExitStack() as stack:
        if not stack.enter_context(hold_memory_lock(session)):
            raise DaemonError(
                f"memory of agent {agent_name!r} is locked by a running consolidation; try again"
            )
        values = find_values(session, target)
        if not values and not target.forbid:
            return PurgeResult(target.entity, target.key, 0, None, (), False, None)
        if confirm is not None and not confirm(len(values)):
            raise DaemonError("purge not confirmed; nothing changed")
        erasure = Erasure.of(target.entity, target.key, values)
        done = erase_everywhere(
            deployment,
            session,
            erasure,
            kind="purge",
            requested_by=requested_by,
            now=now,
            forbid=target.key if target.forbid else None,
        )
        record = done.records[0] if done.records else None
        return PurgeResult(
            target.entity, target.key, len(values), done.run_id, done.state_files, done.rewritten, record
        )


# Files that name keys, never values: a value that happens to equal a forbidden key's name
# ("city") must not take that key off the list.
NEVER_ERASED = frozenset({forbidden.FORBIDDEN_FILE})


@dataclass(frozen=True)
class StructuredBlobs:
    """The blobs some commit holds under a JSON path, by id; those under a NEVER_ERASED path;
    and the store's id hash."""

    ids: frozenset[str]
    algorithm: str  # "sha1" or "sha256", as the store names its objects
    kept: frozenset[str] = frozenset()

    def _id(self, data: bytes) -> str:
        return hashlib.new(self.algorithm, b"blob %d\0" % len(data) + data).hexdigest()

    def holds(self, data: bytes) -> bool:
        return self._id(data) in self.ids

    def keeps(self, data: bytes) -> bool:
        return self._id(data) in self.kept


def structured_blobs(store: StoreSession) -> StructuredBlobs:
    """Which blobs the rewrite erases by the JSON rule: those under a JSON path, as the home's
    files were. A blob under a JSON and a text path both gets the JSON rule: it never breaks a
    file, where the text rule might."""
    _status, fmt = store.run_git("rev-parse", "--show-object-format")
    _status, out = store.run_git(
        "log", "--all", "--raw", "-z", "-m", "--root", "--no-renames", "--no-abbrev", "--format="
    )
    # `-z --raw`: ":old-mode new-mode old-id new-id status" NUL path NUL, entry after entry.
    found: set[str] = set()
    kept: set[str] = set()
    fields = iter(out.split(b"\0"))
    for field in fields:
        meta = field.strip(b"\n").split(b" ")
        if len(meta) == 5 and meta[0].startswith(b":"):
            path = next(fields, b"").decode("utf-8", "replace")
            if is_structured(path):
                found.add(meta[3].decode("ascii"))
            if path in NEVER_ERASED:
                kept.add(meta[3].decode("ascii"))
    return StructuredBlobs(frozenset(found), fmt.strip().decode("ascii") or "sha1", frozenset(kept))


def _erase_blob(erasure: Erasure, blobs: StructuredBlobs, data: bytes) -> bytes:
    if not erasure.found_in(data) or blobs.keeps(data):
        return data
    return erasure.erase(data, structured=blobs.holds(data))


def _erase_message(erasure: Erasure, message: bytes) -> bytes:
    """A commit message erased by the text rule, its trailers (the daemon's own fields) kept."""
    body, sep, last = message.rstrip(b"\n").rpartition(b"\n\n")
    if sep and parse_trailers(last.decode("utf-8", "replace")):
        return erasure.erase(body, drop_records=False) + message[len(body) :]
    return erasure.erase(message, drop_records=False)


def history_rewrite(erasure: Erasure, kind: str, blobs: StructuredBlobs) -> Rewrite:
    return Rewrite(
        blob=lambda data: _erase_blob(erasure, blobs, data),
        message=lambda _oid, message: _erase_message(erasure, message),
        reason=f"{kind} of {erasure.label}",
    )

"""Bracket of every run on one agent: run locks → open store → recover → external edits.

Taking the per-agent run lock (a kernel `flock`, released if the holder dies, so a dead
process never blocks forever) makes one run per agent at a time across processes: the
scheduler, a manual `once`, `undo`, review approvals. The home's own lock
(`daemon.run.homelock`) extends that to every deployment on the host that names the same
home, and the fleet's run lock (`daemon.model.coordination_protocol`, a PostgreSQL advisory lock
when `coordination.url` is set) to every daemon sharing the database. Edits people made since the last run are committed first, as their own "external
edits" commit (the etckeeper pattern), so undoing a run never undoes a person's work;
the commit that leaves is the session's `base`, what every plan is made against.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from filelock import FileLock, Timeout

from daemon.config.resolve import Deployment
from daemon.coordination.backends import coordination_for
from daemon.kernel import spool
from daemon.kernel.errors import AgentBusy, StoreError
from daemon.kernel.managed import HomeScan, ManagedPaths, managed_paths
from daemon.kernel.paths import AgentState, StateLayout
from daemon.kernel.settings import AgentSettings
from daemon.model.coordination_protocol import RunGrant
from daemon.run.apply import finish_or_roll_back
from daemon.run.history_rewrite import pending, recover_rewrite
from daemon.run.homelock import Holder, HomeLock
from daemon.run.store import StoreSession
from daemon.run.store_open import open_store


@dataclass(frozen=True)
class AgentSession:
    agent: AgentSettings
    state: AgentState
    store: StoreSession
    managed: ManagedPaths
    recovery_notes: tuple[str, ...]
    external_commit: str | None
    first_import: bool = False
    base: str | None = None  # the commit plans are made against (HEAD after external edits)
    scan: HomeScan | None = None
    grant: RunGrant = field(default_factory=RunGrant)  # the fleet run lock's word on model calls
    # derived from the store after a commit (`Deployment.after_commit`)
    after_commit: tuple[Callable[[AgentSettings, AgentState, datetime], str | None], ...] = ()

    def left_out(self) -> list[str]:
        """One note per managed file or folder the daemon cannot read (left out of this run)."""
        if self.scan is None:
            return []
        return [f"left out of this run, cannot read {path}: {why}" for path, why in self.scan.unreadable]


def agent_state(deployment: Deployment, name: str) -> AgentState:
    state = StateLayout(deployment.state_dir).agent(name)
    state.root.mkdir(parents=True, exist_ok=True, mode=0o700)
    return state


def settled_state(deployment: Deployment, name: str) -> AgentState:
    """The agent's state with any interrupted history rewrite finished first, if the run
    lock is free at once (raises AgentBusy if not): a store mid-swap is never read, nor
    taken for a missing one and created afresh."""
    state = agent_state(deployment, name)
    if pending(state):
        lock = FileLock(str(state.run_lock), timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise AgentBusy(name, state.run_lock) from None
        try:
            recover_rewrite(state)
        finally:
            lock.release()
    return state


def has_store(deployment: Deployment, name: str) -> bool:
    """Whether the agent has a store (a first run happened), an interrupted rewrite finished first."""
    return (settled_state(deployment, name).git_dir / "HEAD").exists()


def commit_external_edits(store: StoreSession, agent: str, first: bool) -> tuple[str | None, HomeScan]:
    """Commit what people changed under the managed paths since the last commit, if anything."""
    try:
        staged, scan = store.stage_all()
        if not staged:
            return None, scan
        return _commit_external(store, agent, first), scan
    except (OSError, StoreError):
        try:
            store.reset_index()  # leave nothing half-staged; the next run stages it again
        except (OSError, StoreError):
            pass
        raise


def _commit_external(store: StoreSession, agent: str, first: bool) -> str:
    subject = "initial import of managed files" if first else "external edits since the last run"
    return store.commit(
        f"{subject} ({agent})\n\nChanges made outside metaeng-daemon, recorded before its next run so that "
        "undoing a run never undoes them.",
        {"Kind": "external-edits", "Agent": agent},
    )


@contextmanager
def agent_session(
    deployment: Deployment,
    name: str,
    now: datetime,
    lock_timeout: float,
    commit_external: bool = True,
    clock: Callable[[], datetime] | None = None,
    writes_home: bool = True,
) -> Iterator[AgentSession]:
    """Hold the agent's run lock with its store open, recovered and external edits committed.

    `writes_home=False` (a dry run): a home no run ever locked gets no lock file.
    """
    agent = deployment.agent(name)
    state = agent_state(deployment, name)
    lock = FileLock(str(state.run_lock), timeout=lock_timeout)
    try:
        lock.acquire()
    except Timeout:
        raise AgentBusy(name, state.run_lock) from None
    home_lock = HomeLock(name, agent.home, Holder(deployment.path, deployment.state_dir, now))
    with ExitStack() as held:
        held.callback(lock.release)
        home_lock.acquire(lock_timeout, create=writes_home)
        held.callback(home_lock.release)
        grant = held.enter_context(coordination_for(deployment).run_lock(name, lock_timeout, now))
        managed = managed_paths(agent)
        rewrite_notes = recover_rewrite(state)
        with open_store(state.git_dir, agent.home, managed, state.scratch, now, clock) as store:
            notes = rewrite_notes + finish_or_roll_back(store, state)
            spool.remove_stale(state.scratch)  # what a killed run had spooled (the journal is settled)
            first = store.head() is None
            if commit_external:
                external, scan = commit_external_edits(store, name, first)
            else:
                external, scan = None, managed.scan(agent.home)
            yield AgentSession(
                agent,
                state,
                store,
                managed,
                tuple(notes),
                external,
                first and external is not None,
                base=store.head(),
                scan=scan,
                grant=grant,
                after_commit=deployment.after_commit,
            )


@contextmanager
def read_session(deployment: Deployment, name: str) -> Iterator[AgentSession]:
    """Open the store for reading only (no lock, no recovery, no commits).

    Only an interrupted history rewrite is finished first, if the run lock is free at
    once: a store mid-swap is never read (nor created afresh by opening it).
    """
    agent = deployment.agent(name)
    state = settled_state(deployment, name)
    managed = managed_paths(agent)
    with open_store(state.git_dir, agent.home, managed, state.scratch, writable=False) as store:
        yield AgentSession(agent, state, store, managed, (), None)

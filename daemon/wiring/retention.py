"""Retention: what `retention:` says may not be kept any longer goes, by the purge's own means.

- Fact versions closed (valid_to) more than `closed_facts_days` ago are purged from the
  home, every commit and the daemon's files (`daemon.wiring.purge.erase_everywhere`), in
  one run and one history rewrite for all of them. A closed value still held by a kept
  record (the same text in a current fact) is left for now: erasing its text would
  erase the kept fact too.
- Lab ledger folders (each folder directly under a `console.lab_ledgers` folder or under
  `<state_dir>/lab`) whose newest file is older than `lab_ledgers_days` are removed whole.
- Runs older than `history_days`, or beyond the newest `history_runs`, are squashed into
  one baseline commit (`daemon.run.history_squash`), by a second history rewrite after
  the purge's; their run-log entries go with them.

`plan_retention` only reads (what `--dry-run` prints; the closed versions come from the
fact query index, which it may bring up to date like `memory query`); `apply_retention`
acts, holding the agent's run lock. Both take `now` from the caller.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from daemon.config.models import RetentionSettings
from daemon.config.resolve import Deployment
from daemon.kernel.errors import DaemonError
from daemon.run.applier import hold_memory_lock
from daemon.run.history_rewrite import rewrite_history
from daemon.run.history_squash import SquashPlan, plan_squash, squash_rewrite, trim_run_log
from daemon.run.session import AgentSession, agent_session, has_store, read_session
from daemon.run.state_erasure import drop_index
from daemon.run.store import StoreSession
from daemon.text.erasure import Erasure
from daemon.wiring.fact_lookup import fact_index
from daemon.wiring.purge import erase_everywhere


@dataclass(frozen=True)
class ClosedFact:
    entity: str
    key: str
    value: str
    valid_to: str


@dataclass(frozen=True)
class RetentionPlan:
    agent: str
    settings: RetentionSettings
    closed: tuple[ClosedFact, ...]  # to purge
    held_back: int  # closed versions due, whose value a kept record still holds
    ledgers: tuple[Path, ...]  # to remove
    squash: SquashPlan | None = None  # old runs to fold into a baseline commit

    @property
    def empty(self) -> bool:
        return not self.closed and not self.ledgers and self.squash is None


def effective(deployment: Deployment, agent: str) -> RetentionSettings:
    """The agent's retention: its own fields over the deployment's."""
    base = deployment.config.retention or RetentionSettings()
    own = deployment.config.agents[agent].retention
    if own is None:
        return base
    return base.model_copy(update=own.model_dump(exclude_unset=True))


def _ledgers(deployment: Deployment, days: int | None, now: datetime) -> tuple[Path, ...]:
    if days is None:
        return ()
    console = deployment.config.console
    cutoff = (now - timedelta(days=days)).timestamp()
    old: list[Path] = []
    listed = [deployment.path.parent / p for p in console.lab_ledgers] if console is not None else []
    for folder in [*listed, deployment.state_dir / "lab"]:  # and where `lab distill` writes by default
        if not folder.is_dir():
            continue
        for ledger in sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()):
            newest = max(
                (f.stat().st_mtime for f in ledger.rglob("*") if f.is_file()), default=ledger.stat().st_mtime
            )
            if newest < cutoff:
                old.append(ledger)
    return tuple(old)


def _closed(
    deployment: Deployment, agent_name: str, days: int | None, now: datetime
) -> tuple[list[ClosedFact], int]:
    """Closed fact versions due, and how many due ones a kept record's value holds back."""
    closed: list[ClosedFact] = []
    held_back = 0
    if days is not None:
        agent = deployment.agent(agent_name)
        cutoff = (now - timedelta(days=days)).date().isoformat()
        with fact_index(deployment.state_dir, agent) as index:  # not the whole store in memory
            due, kept_values = index.closed_before(cutoff)
        for r in due:
            if r.value in kept_values:
                held_back += 1
            else:
                closed.append(ClosedFact(r.entity, r.key, r.value, r.valid_to or ""))
    return closed, held_back


def plan_retention(deployment: Deployment, agent_name: str, now: datetime) -> RetentionPlan:
    """What the agent's retention would remove now; reads only."""
    agent = deployment.agent(agent_name)
    settings = effective(deployment, agent.name)
    closed, held_back = _closed(deployment, agent.name, settings.closed_facts_days, now)
    squash = None
    if (settings.history_days or settings.history_runs) and has_store(deployment, agent.name):
        with read_session(deployment, agent.name) as session:
            squash = _squash(session.store, settings, now)
    return RetentionPlan(
        agent.name,
        settings,
        tuple(closed),
        held_back,
        _ledgers(deployment, settings.lab_ledgers_days, now),
        squash,
    )


def _squash(store: StoreSession, settings: RetentionSettings, now: datetime) -> SquashPlan | None:
    return plan_squash(
        store.history(), keep_days=settings.history_days, keep_runs=settings.history_runs, now=now
    )


@contextmanager
def _locked(
    deployment: Deployment, agent_name: str, now: datetime, lock_timeout: float
) -> Iterator[AgentSession]:
    """The agent's session with its run lock and its memory lock held (as a purge holds them)."""
    with (
        agent_session(deployment, agent_name, now, lock_timeout) as session,
        hold_memory_lock(session) as held,
    ):
        if not held:
            raise DaemonError(
                f"memory of agent {agent_name!r} is locked by a running consolidation; retention waits"
            )
        yield session


def apply_retention(
    deployment: Deployment, agent_name: str, now: datetime, lock_timeout: float
) -> RetentionPlan:
    """Apply the agent's retention now; return what was removed.

    What is due is decided again under the locks. Raises AgentBusy if a run holds the lock
    past `lock_timeout`, DaemonError/StoreError as the purge does (nothing of the failing
    step changed; the next day retries).
    """
    agent = deployment.agent(agent_name)
    settings = effective(deployment, agent.name)
    ledgers = _ledgers(deployment, settings.lab_ledgers_days, now)
    for ledger in ledgers:
        shutil.rmtree(ledger)
    closed, held_back = _closed(deployment, agent.name, settings.closed_facts_days, now)
    if closed:
        with _locked(deployment, agent.name, now, lock_timeout) as session:
            closed, held_back = _closed(deployment, agent.name, settings.closed_facts_days, now)
            if closed:
                erasure = Erasure(
                    frozenset((c.entity, c.key, c.value) for c in closed), "closed fact versions"
                )
                erase_everywhere(
                    deployment, session, erasure, kind="retention", requested_by="retention policy", now=now
                )
    squash = None
    if (settings.history_days or settings.history_runs) and has_store(deployment, agent.name):
        # In a session of its own: the purge's rewrite ended the last one. No store, no squash
        # (opening a session would create one).
        with _locked(deployment, agent.name, now, lock_timeout) as session:
            squash = _squash(session.store, settings, now)
            if squash is not None:
                rewrite_history(session.store, session.state, squash_rewrite(squash, now), now)
                drop_index(session.state)
                trim_run_log(session.state.run_log, squash)
    return RetentionPlan(agent.name, settings, tuple(closed), held_back, ledgers, squash)

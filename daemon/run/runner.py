"""One run of one agent: plan the selected passes in order, then apply them as one commit.

`once` and the scheduler both call `run_once`. One pass failing never stops the others;
each pass ends `applied`, `nothing`, `skipped` or `failed` with a reason. Cursor advances
are kept only from passes that ran to a verdict (`applied`/`nothing`): a skipped or
failed pass leaves its turns to be read again next cycle.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime

import structlog
from filelock import FileLock, Timeout

from daemon.config.resolve import Deployment
from daemon.coordination.backends import coordination_for
from daemon.kernel import redact
from daemon.kernel.changeset import Changeset
from daemon.kernel.errors import (
    REJECTED_ANSWER,
    TAINTED_PLAN,
    DaemonError,
    ModelResponseInvalid,
    ModelUnavailable,
    PathRefused,
    StoreError,
)
from daemon.kernel.paths import StateLayout
from daemon.kernel.settings import PASS_ORDER, AgentSettings
from daemon.kernel.view import AgentView, ReadLog
from daemon.model.access import ModelAccess
from daemon.model.deep_tier import CallRecord
from daemon.passes.protocol import Pass, PassContext
from daemon.run.applier import (
    MEMORY_LOCK_WAIT_SECONDS,
    PassResult,
    Submission,
    checked,
    commit_run,
    outcome_of,
)
from daemon.run.apply import describe_os_error, new_run_id
from daemon.run.crashpoints import crashpoint
from daemon.run.model_client import deep_tier_for
from daemon.run.session import AgentSession, agent_session
from daemon.transcripts import cursors, usage_record
from daemon.transcripts.usage import UsageLog

__all__ = ["PassResult", "RunResult", "run_once", "select_passes"]

log = structlog.get_logger("metaeng.runner")
DRY_RUN_NO_MODEL = (
    "dry run: no model call, nothing spent (add --with-model to preview the model's answer; that spends)"
)


@dataclass(frozen=True)
class RunResult:
    agent: str
    run_id: str | None
    attempted_run_id: str
    started_at: datetime
    duration_seconds: float
    passes: tuple[PassResult, ...]
    files_changed: tuple[str, ...]
    dry_run: bool
    cost_usd: float
    model_calls: tuple[CallRecord, ...]
    notes: tuple[str, ...]
    preview: str = ""
    # Set when the run could not start or could not be applied: one line naming the cause.
    error: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None or any(p.status == "failed" for p in self.passes)

    @property
    def outcome(self) -> str:
        return outcome_of(self.passes, self.run_id, self.error)


def select_passes(requested: Sequence[str] | None) -> list[str]:
    if not requested:
        return list(PASS_ORDER)
    unknown = [p for p in requested if p not in PASS_ORDER]
    if unknown:
        raise DaemonError(f"unknown pass {', '.join(unknown)} (passes: {', '.join(PASS_ORDER)})")
    return [p for p in PASS_ORDER if p in requested]


def _why_not(
    deployment: Deployment, agent: AgentSettings, name: str, registry: Mapping[str, Pass]
) -> str | None:
    if not deployment.config.enabled:
        return "master switch is off (enabled: false)"
    if not agent.enabled:
        return f"agent {agent.name} is disabled (agents.{agent.name}.enabled: false)"
    if not agent.passes.get(name, False):
        origin = next((o.origin for o in agent.origins if o.key == f"passes.{name}"), "config")
        return f"disabled by configuration ({origin})"
    if name not in registry:
        return "not available in this version of metaeng-daemon"
    return None


def _plan_one(impl: Pass, context: PassContext, session: AgentSession) -> Changeset:
    try:
        changeset = impl.plan(context)
    except ModelUnavailable as exc:
        return Changeset(pass_name=impl.name, status="skipped", reason=str(exc))
    except ModelResponseInvalid as exc:
        # The daemon did its job: a bad answer is refused like any bad input, nothing is
        # written, the turns stay unconsumed for the next cycle, and the breaker counts it.
        return Changeset(pass_name=impl.name, status="skipped", reason=f"{REJECTED_ANSWER}{exc}")
    except DaemonError as exc:
        return Changeset(pass_name=impl.name, status="failed", reason=str(exc))
    except OSError as exc:  # a full or read-only state folder (spend ledger), an unreadable input
        return Changeset(pass_name=impl.name, status="failed", reason=describe_os_error(exc))
    except Exception as exc:  # a bug in one pass must not stop the others
        log.exception("pass.crashed", agent=context.agent.name, pass_name=impl.name, run_id=context.run_id)
        return Changeset(
            pass_name=impl.name, status="failed", reason=f"internal error: {type(exc).__name__}: {exc}"
        )
    tainted = [w.path for w in changeset.writes if _carries_secret(w.content)]
    if tainted:
        # A secret (the API key) in planned content: refuse the whole pass rather than let
        # the write door mask it silently; its turns stay unconsumed.
        return Changeset(
            pass_name=impl.name,
            status="skipped",
            reason=f"{TAINTED_PLAN}planned content of {', '.join(tainted)} contains a configured secret",
        )
    # The applier checks every path again at commit time; checked here too, so that no
    # later pass plans on top of writes that will be refused.
    return checked(session, changeset, impl.write_scope(context.agent))


def _carries_secret(content: bytes) -> bool:
    # One read of a spooled write's bytes (`content` reads its file on each access).
    return redact.redact_bytes(content) != content


def run_once(
    deployment: Deployment,
    agent_name: str,
    *,
    registry: Mapping[str, Pass],
    access: ModelAccess,
    now: datetime,
    passes: Sequence[str] | None = None,
    dry_run: bool = False,
    with_model: bool = False,
    lock_timeout: float | None = None,
    progress: Callable[[str], None] | None = None,
    clock: Callable[[], datetime] | None = None,
) -> RunResult:
    """Run the selected passes for one agent and apply their changes as one run.

    A dry run applies nothing and, unless `with_model`, calls no model: it uses no budget
    and no daily cap, and model passes say they were skipped for the dry run. `now` is the
    run's time (its id, its day); `clock` dates what happens later in the run (each spend
    entry, the commit) — without it, everything carries `now`.
    """
    selected = select_passes(passes)
    started = time.monotonic()
    run_id = new_run_id(now)
    if dry_run and not with_model:
        access = ModelAccess(None, DRY_RUN_NO_MODEL)
    request = _Request(tuple(selected), dry_run, run_id, started, progress or _quiet, clock)
    timeout = deployment.config.run_lock_timeout_seconds if lock_timeout is None else lock_timeout
    layout = StateLayout(deployment.state_dir)
    deployment.agent(agent_name)  # an unknown agent is an error, not a failed run
    try:
        with agent_session(
            deployment,
            agent_name,
            now,
            timeout,
            commit_external=not dry_run,
            clock=clock,
            writes_home=not dry_run,
        ) as session:
            final = _run_in_session(deployment, session, registry, access, now, request, layout)
    except (OSError, StoreError, PathRefused) as exc:
        # The run could not start (state or home folder full or read-only, a broken store):
        # nothing was planned or written. Say so for every pass, with the cause.
        detail = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
        reason = f"the run could not start, nothing changed — {detail}"
        final = RunResult(
            agent=agent_name,
            run_id=None,
            attempted_run_id=run_id,
            started_at=now,
            duration_seconds=time.monotonic() - started,
            passes=tuple(PassResult(name, "failed", reason) for name in selected),
            files_changed=(),
            dry_run=dry_run,
            cost_usd=0.0,
            model_calls=(),
            notes=(),
            error=detail,
        )
        log.error("run.not_started", agent=agent_name, run_id=run_id, error=detail)
        return final
    if not dry_run:
        coordination_for(deployment).record_run(agent_name, final.run_id or run_id, final.outcome, now)
    log.info(
        "run.end",
        agent=final.agent,
        run_id=final.run_id or run_id,
        outcome=final.outcome,
        passes={p.name: p.status for p in final.passes},
        files=len(final.files_changed),
        duration_s=round(final.duration_seconds, 3),
    )
    return final


@dataclass(frozen=True)
class _Request:
    selected: tuple[str, ...]
    dry_run: bool
    run_id: str
    started: float  # time.monotonic() at the start
    progress: Callable[[str], None]
    clock: Callable[[], datetime] | None = None


def _quiet(_line: str) -> None:
    return None


def _run_in_session(
    deployment: Deployment,
    session: AgentSession,
    registry: Mapping[str, Pass],
    access: ModelAccess,
    now: datetime,
    request: _Request,
    layout: StateLayout,
) -> RunResult:
    agent = session.agent
    selected, dry_run, run_id, started = request.selected, request.dry_run, request.run_id, request.started
    # Logged once the locks are held: a job that finds the agent busy never started a run.
    log.info("run.start", agent=agent.name, run_id=run_id, passes=list(selected), dry_run=dry_run)
    deep = deep_tier_for(
        deployment, agent, access, run_id=run_id, now=now, clock=request.clock, grant=session.grant
    )
    view = AgentView(agent.home)
    cursor_state = cursors.load(session.state.cursors)
    planned: list[Changeset] = []
    reads: dict[str, ReadLog] = {}
    usage = UsageLog()
    # One lock object for the whole run: FileLock is re-entrant per object, so a second
    # memory pass in the same run (distillation then consolidation) does not wait on the
    # lock this run already holds; two objects would each flock and the second would block.
    memory_lock = FileLock(str(session.state.memory_lock))
    with ExitStack() as locks:
        for name in selected:
            reason = _why_not(deployment, agent, name, registry)
            if reason:
                planned.append(Changeset(pass_name=name, status="skipped", reason=reason))
                continue
            impl = registry[name]
            if impl.memory_lock != "none":
                wait = MEMORY_LOCK_WAIT_SECONDS if impl.memory_lock == "wait" else 0
                try:
                    memory_lock.acquire(timeout=wait)
                    locks.callback(memory_lock.release)
                except Timeout:
                    planned.append(
                        Changeset(
                            pass_name=name,
                            status="skipped",
                            reason="memory lock held (memory consolidation running); offsets kept for next cycle",
                        )
                    )
                    continue
            reads[name] = ReadLog()
            context = PassContext(
                agent,
                view.tracked(reads[name]),
                deep,
                cursor_state,
                now,
                run_id,
                request.progress,
                session.state.fact_index,
                usage,
                session.state.usage,
                session.state.impact_skills,
            )
            changeset = _plan_one(impl, context, session)
            planned.append(changeset)
            if changeset.status in ("changes", "nothing"):
                view = view.with_changes(changeset)
        deep.close()
        # Before the commit moves the cursors: a crash in between only has the same turns read
        # again, and the record counts nothing twice.
        usage_notes = () if dry_run else _record_usage(session, usage, now)
        scopes = {name: registry[name].write_scope(agent) for name in selected if name in registry}
        submission = Submission(
            tuple(planned), reads, scopes, cost_usd=deep.spent_usd, model_calls=len(deep.calls)
        )
        crashpoint("after_plan")
        result = commit_run(session, submission, now=now, run_id=run_id, dry_run=dry_run, started=started)
    duration = time.monotonic() - started
    unreadable = {path: why for log_ in reads.values() for path, why in log_.unreadable.items()}
    left_out = session.left_out() + [
        f"left out of this run, cannot read {path}: {why}"
        for path, why in sorted(unreadable.items())
        if session.scan is None or not session.scan.blocked(path)
    ]
    final = RunResult(
        agent=agent.name,
        run_id=result.run_id,
        attempted_run_id=run_id,
        started_at=now,
        duration_seconds=duration,
        passes=result.passes,
        files_changed=result.files,
        dry_run=dry_run,
        cost_usd=deep.spent_usd,
        model_calls=tuple(deep.calls),
        notes=(*session.recovery_notes, *left_out, *result.notes, *usage_notes),
        preview=result.preview,
        error=result.error,
    )
    return final


def _record_usage(session: AgentSession, usage: UsageLog, now: datetime) -> tuple[str, ...]:
    """Count what the agent used in the turns the passes read into its usage record.

    Usage is an observation, not a change to the agent: a record that cannot be written is
    logged and noted, and never fails the run.
    """
    try:
        counted = usage_record.record(session.state.usage, usage.reads, now)
    except (OSError, DaemonError) as exc:
        detail = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
        log.warning("usage.not_recorded", agent=session.agent.name, error=detail)
        return (f"usage signals not recorded — {detail}",)
    if counted:
        log.info("usage.recorded", agent=session.agent.name, uses=counted, sessions=len(usage.reads))
    return ()

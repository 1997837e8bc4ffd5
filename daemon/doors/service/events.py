"""Which notification events a finished scheduled run raises (read from the state; writes nothing).

- `run_failed`: the run could not be applied, or a pass failed.
- `proposal_opened`: proposals this run added to the review queue, still open.
- `skill_quarantined`: skills this run moved into quarantine.
- `breaker_opened`: the agent's model breaker is open now and was not before the run.
- `pass_stuck`: a pass just reached STUCK_RUNS failures in a row with the same reason
  (reported once, when the streak reaches the threshold, not on every later run).
- `skills_stale`: learned skills the curator (the last step of the library-maintenance
  pass) found stale since its last run — one event for all of them; the curator keeps
  which skills are stale, so each goes stale (and is notified) once. A `curator` run
  started by hand reports them in its own output instead.

`impact_flagged` is not raised here: `impact` (the command or the console's Compute now)
raises it once per newly flagged item (`daemon.doors.impact_flags`).
"""

from __future__ import annotations

from urllib.parse import quote

from daemon.config.resolve import Deployment
from daemon.doors.service import runlog
from daemon.doors.service.notify import Event
from daemon.kernel.paths import StateLayout
from daemon.kernel.review_queue import list_proposals
from daemon.kernel.view import AgentView
from daemon.run.applier import PassResult
from daemon.run.runner import RunResult
from skills_engine import quarantine
from skills_engine.curator import CuratorDetails
from skills_engine.library_maintenance import LibraryDetails


def _run_page(agent: str, run_id: str | None) -> str:
    return f"/runs/{quote(agent)}/{quote(run_id)}" if run_id else f"/runs?agent={quote(agent)}"


def run_events(deployment: Deployment, result: RunResult, breaker_was_open: bool, breaker_open: bool) -> list[Event]:
    agent = deployment.agent(result.agent)
    events: list[Event] = []
    if result.failed:
        failed = {p.name: p.reason for p in result.passes if p.status == "failed"}
        summary = result.error or "; ".join(f"{n}: {r}" for n, r in failed.items())
        events.append(
            Event(
                "run_failed",
                agent.name,
                f"run {result.run_id or result.attempted_run_id} of agent {agent.name} failed: {summary}",
                _run_page(agent.name, result.run_id),
                {"run_id": result.run_id or result.attempted_run_id, "failed_passes": failed},
            )
        )
    view = AgentView(agent.home)
    if result.run_id:
        for p in list_proposals(view):
            if p.created_by_run == result.run_id and p.status(view) == "open":
                events.append(
                    Event(
                        "proposal_opened",
                        agent.name,
                        f"proposal for agent {agent.name}: {p.title}",
                        f"/review?agent={quote(agent.name)}#proposal-{quote(p.id)}",
                        {"proposal_id": p.id, "kind": p.kind, "target": p.target, "run_id": result.run_id},
                    )
                )
        found, _problems = quarantine.read_all(view)
        for q in found:
            if q.record.run_id == result.run_id:
                events.append(
                    Event(
                        "skill_quarantined",
                        agent.name,
                        f"skill {q.record.name} of agent {agent.name} quarantined: {q.record.rule}: {q.record.detail}",
                        f"/skills?agent={quote(agent.name)}#skill-{quote(q.record.name)}",
                        {"skill": q.record.name, "rule": q.record.rule, "run_id": result.run_id},
                    )
                )
        stale = newly_stale(result.passes)
        if stale:
            events.append(
                Event(
                    "skills_stale",
                    agent.name,
                    f"{len(stale)} skill(s) of agent {agent.name} went stale (unused): {', '.join(stale)}; "
                    "they move to the archive if still unused, unless pinned",
                    f"/skills?agent={quote(agent.name)}",
                    {"skills": stale, "run_id": result.run_id},
                )
            )
    if breaker_open and not breaker_was_open:
        events.append(
            Event(
                "breaker_opened",
                agent.name,
                f"model breaker of agent {agent.name} opened: its model passes pause",
                "/agents",
            )
        )
    run_log = StateLayout(deployment.state_dir).agent(agent.name).run_log
    stuck = runlog.stuck_passes(run_log, [p.name for p in result.passes])
    for name, s in stuck.items():
        if s.runs == runlog.STUCK_RUNS:
            events.append(
                Event(
                    "pass_stuck",
                    agent.name,
                    f"pass {name} of agent {agent.name} failed {s.runs} runs in a row: {s.reason}",
                    "/agents",
                    {"pass": name, "reason": s.reason, "since": s.since},
                )
            )
    return events


def newly_stale(passes: tuple[PassResult, ...]) -> list[str]:
    """Skills the curator found stale since its last run, in the passes it applied."""
    found: list[str] = []
    for p in passes:
        details = p.details.curator if isinstance(p.details, LibraryDetails) else p.details
        if p.status == "applied" and isinstance(details, CuratorDetails):
            found += [name for name in details.newly_stale if name not in found]
    return found

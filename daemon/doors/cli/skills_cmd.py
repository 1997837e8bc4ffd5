"""`skills list|check`: the agent's skill inventory, and the preservation guard on demand."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from daemon.doors.cli.common import CliContext, add_agent, add_json, wait_seconds
from daemon.doors.cli.curator_cmd import register_skill_actions, verdict_rows
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import SKILL_ARCHIVE_DIR, StateLayout
from daemon.kernel.view import AgentView
from daemon.run.manual import run_manual
from daemon.transcripts import usage_record
from daemon.transcripts.usage_record import UsageFile
from skills_engine.archive import Archived, read_archive
from skills_engine.enforce import plan_check
from skills_engine.inventory import Inventory, Skill, held_why, load_inventory
from skills_engine.lifecycle import Verdict


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "skills",
        help="list an agent's skills, run the preservation guard, pin, unpin or restore a skill",
        description=(
            "Skills come from managed and pack folders (read-only) and the agent's learned library. "
            "A learned skill shadows an original of the same name unless it is quarantined."
        ),
    )
    actions = parser.add_subparsers(dest="skills_action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list",
        help="list every skill with its source, status and what it shadows",
        description=(
            "List every skill of the agent: name, source (managed|pack|learned), path, whether the "
            "daemon wrote it, status (active|shadowed|quarantined|drifted), the path it shadows, and "
            "how often and when the agent last opened it, as read from its transcripts (by name; "
            "with --json also the sessions read since). "
            "Malformed skills are reported on stderr and skipped."
        ),
    )
    add_agent(listing)
    add_json(listing)
    listing.set_defaults(handler=handle_list)
    check = actions.add_parser(
        "check",
        help="run the preservation guard now; quarantine failing forks as an undoable run",
        description=(
            "Check every machine-written fork against its recorded starting state (missing file, "
            "text file below half its size, more than a third of the original's headings lost). "
            "A failing copy is quarantined — moved out of the learned library so the original serves "
            "again — as a run that `undo` reverts. Exit 0 when the check ran, whatever it found."
        ),
    )
    add_agent(check)
    check.add_argument(
        "--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress"
    )
    add_json(check)
    check.set_defaults(handler=handle_check)
    register_skill_actions(actions)


def _row(skill: Skill, usage: UsageFile, place: Verdict | None) -> dict[str, Any]:
    used = usage.skill(skill.name, skill.path.name)
    return {
        "state": place.state if place else "active",
        "why": place.why if place else "",
        "name": skill.name,
        "source": skill.source,
        "path": str(skill.path),
        "machine_written": skill.machine_written or skill.quarantine is not None,
        "status": skill.status,
        "shadows": str(skill.shadows) if skill.shadows else None,
        "uses": used.count,
        "last_use": used.last,
        "sessions_since_last_use": usage.sessions_since(used),
    }


def _archived_row(found: Archived) -> dict[str, Any]:
    record = found.record
    return {
        "state": "archived",
        "why": f"{record.why} (archived {record.archived_at[:10]}; `skills restore {record.name}` brings it back)",
        "name": record.name,
        "source": "archive",
        "path": f"{SKILL_ARCHIVE_DIR}/{record.name}",
        "machine_written": True,
        "status": "archived",
        "shadows": None,
        "uses": record.uses,
        "last_use": record.last_use,
        "sessions_since_last_use": record.sessions_since,
    }


def _last_use(row: dict[str, Any]) -> str:
    """`2026-11-05 09:05` (UTC), or `never`."""
    last = row["last_use"]
    return str(last)[:16].replace("T", " ") if last else "never"


def _author(row: dict[str, Any]) -> str:
    if row["source"] == "archive":
        return "daemon"  # only the daemon's own learned skills are ever archived
    if row["source"] != "learned":
        return "upstream"
    return "daemon" if row["machine_written"] else "person"


def _usage(context: CliContext, path: Path) -> UsageFile:
    """The agent's usage record; empty, with a warning, if it cannot be read (the skills still list)."""
    try:
        return usage_record.load(path)
    except DaemonError as exc:
        context.err.line(f"warning: uses not shown: {exc}")
        return UsageFile()


def _warn(context: CliContext, inventory: Inventory) -> None:
    for problem in inventory.problems:
        context.err.line(f"warning: {problem}")


def handle_list(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    inventory = load_inventory(agent, AgentView(agent.home))
    _warn(context, inventory)
    usage = _usage(context, StateLayout(deployment.state_dir).agent(agent.name).usage)
    places = verdict_rows(deployment, agent, context.clock())
    rows = [_row(s, usage, places.get(s.name)) for s in inventory.skills]
    archived, problems = read_archive(AgentView(agent.home))
    for problem in problems:
        context.err.line(f"warning: {problem}")
    rows += [_archived_row(a) for a in archived.values()]
    if args.json:
        context.out.json(rows)
        return 0
    if not rows:
        context.out.line(f"agent {agent.name} has no skills")
        return 0
    context.out.table(
        ["NAME", "SOURCE", "STATUS", "STATE", "WRITTEN BY", "USES", "LAST USE", "PATH"],
        [
            [r["name"], r["source"], r["status"], r["state"], _author(r), str(r["uses"]), _last_use(r), r["path"]]
            for r in rows
        ],
    )
    for r in rows:
        if r["state"] in ("stale", "archive", "archived", "pinned"):
            context.out.line(f"{r['name']}: {r['state']} — {r['why']}")
    for skill in inventory.skills:
        if skill.shadows:
            context.out.line(f"{skill.name}: {skill.path} shadows {skill.shadows}")
        if skill.drift:
            context.out.line(f"{skill.name}: drifted, upstream changed {', '.join(skill.drift)}")
        if skill.status == "held":
            context.out.line(f"{skill.name}: held — {held_why(skill.name)}")
        if skill.status == "quarantined":
            why = skill.quarantine or (skill.guard[0] if skill.guard else None)
            pending = (
                " (pending: the next run or `skills check` moves it)" if skill.pending_quarantine else ""
            )
            detail = f"{why.rule}: {why.detail}" if why else "quarantined"
            context.out.line(f"{skill.name}: quarantined{pending} — {detail}")
    return 0


def handle_check(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    inventory = load_inventory(agent, AgentView(agent.home))
    run_id = None
    if any(s.pending_quarantine for s in inventory.skills):
        now = context.clock()
        timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
        result = run_manual(
            deployment,
            agent.name,
            label="skills-check",
            plan=lambda session, view, rid: plan_check(session.agent, view, now, rid),
            now=now,
            lock_timeout=timeout,
        )
        run_id = result.run_id
        inventory = load_inventory(agent, AgentView(agent.home))
    _warn(context, inventory)
    quarantined = [
        {"name": s.name, "rule": s.quarantine.rule, "detail": s.quarantine.detail}
        for s in inventory.skills
        if s.quarantine is not None
    ]
    ok = sorted(s.name for s in inventory.learned_skills() if s.is_fork and s.status != "quarantined")
    unreadable = list(inventory.unreadable_forks)
    if args.json:
        context.out.json({"quarantined": quarantined, "ok": ok, "unreadable": unreadable, "run_id": run_id})
        return 0
    for item in quarantined:
        context.out.line(f"quarantined {item['name']} ({item['rule']}: {item['detail']})")
    for name in unreadable:
        context.out.line(f"skipped {name}: its SKILL.md cannot be parsed (see the warning); fix or delete it")
    if ok:
        context.out.line(f"ok: {', '.join(ok)}")
    elif not quarantined and not unreadable:
        context.out.line("ok: none (the learned library holds no machine-written fork)")
    else:
        context.out.line("ok: none")
    if run_id:
        context.out.line(
            f"run {run_id}; undo with: {context.command('undo', run_id)}"
        )
    return 0

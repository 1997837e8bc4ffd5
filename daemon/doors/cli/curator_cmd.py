"""`curator` and `skills pin|unpin|restore`: the skill curator by hand, and a person's say over it.

`curator --agent A` runs the curator now as its own run (the library-maintenance pass runs
it on its cadence); `--dry-run` lists every skill's place (active, stale, due for the
archive, pinned, kept) and why, and changes nothing. `skills pin NAME` keeps a skill where
it is for good, `skills unpin NAME` gives it back to the curator, `skills restore NAME`
moves an archived skill back into the library. Each change is a run `undo` reverts.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any

from daemon.config import Deployment
from daemon.doors.cli.common import CliContext, add_agent, add_json, print_manual_run, wait_seconds
from daemon.kernel.changeset import Changeset
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.run.manual import run_manual
from daemon.run.session import AgentSession
from daemon.transcripts import usage_record
from daemon.transcripts.usage_record import UsageFile
from daemon.wiring.skill_actions import restore, set_pin
from skills_engine.curator import CuratorDetails, curate, plan, recurring_of, standing
from skills_engine.edits import SkillEdits
from skills_engine.inventory import load_inventory
from skills_engine.lifecycle import Verdict


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "curator",
        help="move learned skills nobody uses to the archive now, or show what would move (--dry-run)",
        description=(
            "Run the skill curator now, as one undoable run: a learned skill unused for "
            "skills.curator.stale_after_sessions sessions and stale_after_days days is stale; past "
            "archive_after_sessions and archive_after_days it moves to .metaeng/skill-archive (never deleted). "
            "The first archive of an agent, a run archiving more than consent_share of the library, and any "
            "archive under autonomy: review go to the review queue instead. Pinned, hand-written, forked, "
            "pack and managed skills never move. A learned skill whose corrections the last `impact` found said "
            "again skills.curator.impact_stale_recurrences times after it was opened is stale too. "
            "--dry-run lists every skill's place and why."
        ),
    )
    add_agent(parser)
    parser.add_argument("--dry-run", action="store_true", help="list what would move and why; change nothing")
    parser.add_argument("--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress")
    add_json(parser)
    parser.set_defaults(handler=handle_curator)


def register_skill_actions(actions: argparse._SubParsersAction) -> None:
    """`skills pin|unpin|restore NAME` (registered by `skills`)."""
    for action, text in (
        ("pin", "keep a skill where it is: the curator never moves it"),
        ("unpin", "give a pinned skill back to the curator"),
        ("restore", "move an archived skill back into the learned library"),
    ):
        parser = actions.add_parser(action, help=text, description=f"{text[0].upper()}{text[1:]}, as a run `undo` reverts.")
        parser.add_argument("name", metavar="NAME", help="the skill's name")
        add_agent(parser)
        parser.add_argument("--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress")
        add_json(parser)
        parser.set_defaults(handler=HANDLERS[action])


def usage_of(deployment: Deployment, agent: AgentSettings) -> UsageFile:
    return usage_record.load(StateLayout(deployment.state_dir).agent(agent.name).usage)


def recurring(deployment: Deployment, agent: AgentSettings, now: datetime) -> dict[str, int]:
    """What the last `impact` found of the agent's learned skills (`curator.recurring_of`)."""
    return recurring_of(StateLayout(deployment.state_dir).agent(agent.name).impact_skills, agent, now)


def _row(found: Verdict) -> dict[str, Any]:
    return {
        "name": found.name,
        "state": found.state,
        "why": found.why,
        "uses": found.use.uses,
        "last_use": found.use.last,
        "sessions_since": found.use.sessions_since,
        "days_since": found.use.days_since,
    }


def handle_curator(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    usage = usage_of(deployment, agent)
    now = context.clock()
    if args.dry_run:
        view = AgentView(agent.home)
        found = plan(agent, view, load_inventory(agent, view), usage, now, None, recurring(deployment, agent, now))
        rows = [_row(v) for v in found.verdicts]
        if args.json:
            context.out.json({"skills": rows, "would_archive": [v.name for v in found.moves], "consent": found.consent})
            return 0
        context.out.table(["NAME", "STATE", "USES", "WHY"], [[r["name"], r["state"], str(r["uses"]), r["why"]] for r in rows])
        moves = ", ".join(v.name for v in found.moves) or "nothing"
        context.out.line(f"would archive: {moves}" + (f" — as a proposal: {found.consent}" if found.moves and found.consent else ""))
        return 0
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    again = recurring(deployment, agent, now)

    def planned(session: AgentSession, view: AgentView, run_id: str) -> Changeset:
        edits = SkillEdits(session.agent, view)
        lines, details = curate(session.agent, edits, usage, now, run_id, again)
        reason = _reason(details)
        return edits.changeset("curator", reason, lines, details)

    result = run_manual(deployment, agent.name, label="curator", plan=planned, now=now, lock_timeout=timeout)
    return print_manual_run(result, args.json, context)


def _reason(details: CuratorDetails) -> str:
    if details.archived:
        return f"archived {len(details.archived)} skill(s): {', '.join(details.archived)}"
    if details.proposal:
        return f"proposed the archive for review ({details.proposal}): {details.waiting}"
    stale = f"; {len(details.stale)} stale: {', '.join(details.stale)}" if details.stale else ""
    return f"nothing to archive{stale}"


def _pins(args: argparse.Namespace, context: CliContext, pin: bool) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    result = set_pin(deployment, agent.name, args.name, pin, now=context.clock(), lock_timeout=timeout)
    return print_manual_run(result, args.json, context)


def handle_pin(args: argparse.Namespace, context: CliContext) -> int:
    return _pins(args, context, pin=True)


def handle_unpin(args: argparse.Namespace, context: CliContext) -> int:
    return _pins(args, context, pin=False)


def handle_restore(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    result = restore(deployment, agent.name, args.name, now=context.clock(), lock_timeout=timeout)
    return print_manual_run(result, args.json, context)


HANDLERS = {"pin": handle_pin, "unpin": handle_unpin, "restore": handle_restore}


def verdict_rows(deployment: Deployment, agent: AgentSettings, now: datetime) -> dict[str, Verdict]:
    """Every skill's place by name, for `skills list` (empty when the usage cannot be read)."""
    view = AgentView(agent.home)
    try:
        usage = usage_of(deployment, agent)
    except DaemonError:
        usage = UsageFile()
    try:
        found = recurring(deployment, agent, now)
    except DaemonError:
        found = {}
    return {v.name: v for v in standing(agent, view, load_inventory(agent, view), usage, now, found)}

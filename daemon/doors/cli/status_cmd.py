"""`metaeng-daemon status [--agent A] [--json]`: agents, toggles, next runs, caps, spend, queue."""

from __future__ import annotations

import argparse

from daemon.doors.cli.common import CliContext, add_agent, add_json
from daemon.doors.skill_health import LibraryHealth
from daemon.doors.status import StatusReport, build_status
from daemon.doors.status_documents import ImpactHeadline, UsageHeadline
from daemon.transcripts.batch import kinds_summary
from daemon.wiring.pass_registry import PASS_NAMES


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "status",
        help="show each agent's toggles, next runs, caps and spend today, pending turns, queue",
        description=(
            "Show whether a daemon runs on this state folder (with --json: its pid, start time, config "
            "path and version), then, per agent: effective pass toggles and where each came from, next scheduled runs "
            "(from the running daemon, or computed from the cadence and the run log when none runs), "
            "deep passes and spend used today against the caps (and what the prompt cache saved), pending transcript turns, transcripts "
            "held and why (not in the configured format, a busy or unreadable database), lines of "
            "kinds the transcript adapter does not know, sessions set aside as another project's or "
            "profile's, passes stuck "
            "failing the same way run after run, "
            "quarantined skills, what the agent used (skills opened and never opened, facts view reads, "
            "hook deliveries, read from its transcripts), its library health as the skill curator sees it "
            "(skills active, stale, due for the archive, archived, pinned, kept, learned and never used), "
            "open proposals, the last run with its outcome, and the impact headline as `impact` last computed it "
            "(items, learned, said again after delivery; never computed here). "
            "Reads state only. "
            "With --fleet: every daemon sharing the coordination database, its agents, last runs and health."
        ),
    )
    add_agent(parser, required=False)
    parser.add_argument(
        "--fleet",
        action="store_true",
        help="show every daemon sharing the coordination database (needs coordination.url)",
    )
    add_json(parser)
    parser.set_defaults(handler=handle)


def _when(value: str | None) -> str:
    return value.replace("+00:00", "Z") if value else "-"


def print_human(context: CliContext, report: StatusReport) -> None:
    out = context.out
    if report.daemon is not None:
        d = report.daemon
        out.line(
            f"daemon: running (pid {d.pid}, since {_when(d.started_at)}; {d.scheduling}, {len(d.jobs)} job(s))"
        )
    elif report.running:  # the lock is held, the state file not written (yet) or unreadable
        out.line("daemon: running (its state file says nothing yet; next runs computed from the cadence)")
    else:
        out.line("daemon: not running (next runs computed from the cadence and the run log)")
    if report.nothing_scheduled:
        out.line(f"nothing scheduled: {report.nothing_scheduled}")
    for agent in report.agents:
        state = "enabled" if agent.enabled else "disabled"
        out.line("")
        out.line(f"agent {agent.name} ({state})")
        rows: list[list[str]] = []
        for name, entry in agent.passes.items():
            when = _when(entry.next_run)
            if entry.next_run is None and entry.enabled and name in report.missing_passes:
                when = "not in this version"
            rows.append([f"  {name}", "on" if entry.enabled else "off", when, entry.origin])
        out.table(["  pass", "toggle", "next run", "origin"], rows)
        deep = agent.deep_passes_today
        spend = agent.spend_today_usd
        out.line(
            f"  deep passes today {'?' if deep is None else deep}/{agent.deep_cap}, "
            f"spend today {'?' if spend is None else f'{spend:.4f}'}/{agent.budget_usd:.2f} USD"
            + (
                f" ({agent.cache_saved_today_usd:.4f} USD saved by the prompt cache, "
                f"{agent.cached_tokens_today:,} cached input tokens)"
                if agent.cached_tokens_today
                else ""
            )
        )
        quarantined = agent.quarantined
        quarantined_text = "unknown" if quarantined is None else (", ".join(quarantined) or "none")
        out.line(
            f"  pending turns {_or_unknown(agent.pending_turns)}, open proposals "
            f"{_or_unknown(agent.open_proposals)}, quarantined skills: {quarantined_text}"
        )
        out.line(f"  usage: {usage_text(agent.usage)}")
        out.line(f"  skills: {library_text(agent.library)}")
        out.line(f"  impact: {impact_text(agent.name, agent.impact, agent.name in report.impact_unreadable)}")
        for unreadable in agent.unreadable or []:
            out.line(f"  cannot read {unreadable.path}: {unreadable.reason} (left out of every run until fixed)")
        for held in agent.held_transcripts or []:
            out.line(f"  held transcript {held.file}: {held.reason}")
        if agent.unknown_lines:
            out.line(
                f"  lines of kinds the transcript adapter does not know: {kinds_summary(agent.unknown_lines, 5)} "
                f"(a newer runtime? `transcripts --agent {agent.name}`)"
            )
        if agent.set_aside_sessions:
            out.line(
                f"  set aside {agent.set_aside_sessions} session(s) of another project or profile "
                f"(`transcripts --agent {agent.name}` says why)"
            )
        for name, entry in agent.passes.items():
            stuck = entry.stuck
            if stuck:
                out.line(
                    f"  stuck: {name} failed the same way on its last {stuck.runs} runs "
                    f"(since {_when(stuck.since)}): {stuck.reason}"
                )
        last = agent.last_run
        if last is None:
            out.line("  last run: none")
        else:
            out.line(
                f"  last run: {last.run_id or '(nothing committed)'} {last.status} at {_when(last.finished_at)}"
            )
        kept = agent.store_maintenance
        if kept is None:
            out.line("  store maintenance: never")
        else:
            size = kept.size_after_bytes / 1024 / 1024
            detail = f" — {kept.detail}" if kept.detail else ""
            out.line(f"  store maintenance: {kept.outcome} at {_when(kept.started_at)}, store {size:.1f} MiB{detail}")


def usage_text(usage: UsageHeadline | None) -> str:
    """`2 of 5 skill(s) used (3 never), 7 opening(s); facts view read 4 time(s); hook context given
    12 time(s); 9 session(s) read`."""
    if usage is None:
        return "unknown"
    total = usage.skills_used + usage.skills_never_used
    return (
        f"{usage.skills_used} of {total} skill(s) used ({usage.skills_never_used} never), "
        f"{usage.skill_opens} opening(s); facts view read {usage.facts_view_reads} time(s); "
        f"hook context given {usage.hook_deliveries} time(s); {usage.sessions_read} session(s) read"
    )


def impact_text(agent: str, impact: ImpactHeadline | None, unreadable: bool = False) -> str:
    """`12 items, 9 learned, 3 said again after delivery (as of 2026-12-01; `impact --agent ada`
    refreshes)`, from the last computed headline only (computing reads every session)."""
    command = f"`impact --agent {agent}`"
    if unreadable:
        return f"unknown (its file is unreadable; {command} writes it again)"
    if impact is None:
        return f"not computed yet ({command})"
    f = impact.figures
    scope = f"since {impact.since}, " if impact.since else ""
    return (
        f"{f.items} items, {f.learned} learned, {f.repeated_after_delivery} said again after delivery "
        f"({scope}as of {impact.computed_at[:10]}; {command} refreshes)"
    )


def library_text(library: LibraryHealth | None) -> str:
    """`5 active, 2 stale, 1 due for the archive, 3 archived, 1 pinned, 4 kept; 2 learned never
    used since created; stale or due: a, b, c` (counts of zero left out, but `active`)."""
    if library is None:
        return "unknown"
    counts = (
        (library.stale, "stale"),
        (library.due_for_archive, "due for the archive"),
        (library.archived, "archived"),
        (library.pinned, "pinned"),
        (library.kept, "kept"),
    )
    parts = [f"{library.active} active", *(f"{count} {label}" for count, label in counts if count)]
    text = ", ".join(parts) + f"; {library.never_used} learned never used since created"
    if library.stale_skills:
        text += f"; stale or due: {', '.join(library.stale_skills)}"
    if library.held:
        text += (
            f"; pack skills held, their name archived: {', '.join(library.held)} "
            "(`skills restore NAME` or `skills pin NAME` decides)"
        )
    if not library.curator_enabled:
        text += " (the curator is off: skills.curator.enabled)"
    return text


def _or_unknown(value: object) -> str:
    return "?" if value is None else str(value)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    if args.fleet:
        # Its JSON document module holds every command's documents: only for --fleet.
        from daemon.doors.cli.fleet_status import handle_fleet

        return handle_fleet(args.json, context)
    deployment = context.deployment()
    report = build_status(deployment, now=context.clock(), registry=PASS_NAMES, only=args.agent)
    for warning in report.warnings:
        context.err.line(f"warning: {warning}")
    if args.json:
        context.out.document(report.document())
    else:
        print_human(context, report)
    return 0

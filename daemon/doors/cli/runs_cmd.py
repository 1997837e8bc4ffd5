"""`runs`, `show RUN_ID`, `undo RUN_ID`: read and revert what the daemon did."""

from __future__ import annotations

import argparse

from daemon.doors.cli.common import CliContext, add_agent, add_json, at_least_one, wait_seconds
from daemon.doors.documents import ChangedFile, RunRow, RunsDocument, ShownRun
from daemon.run.revert import RunCommit, find_run, locate_run, run_commits, session_index
from daemon.run.session import has_store, read_session
from daemon.wiring.undo import preview, undo


def register(sub: argparse._SubParsersAction) -> None:
    runs = sub.add_parser(
        "runs",
        help="list runs recorded in the agents' stores",
        description="List runs, newest first: id, time, passes, files changed, status (applied, undone, undo).",
    )
    add_agent(runs, required=False)
    runs.add_argument("--limit", type=at_least_one, default=50, help="at most this many runs per agent (default 50)")
    add_json(runs)
    runs.set_defaults(handler=handle_runs)

    show = sub.add_parser(
        "show",
        help="print a run's report and diff",
        description=(
            "Print a run's report and diff. With --json: the fields of `runs --json` plus the commit, "
            "the report, the trailers, each changed file with its status (A, M, D) and the diff."
        ),
    )
    show.add_argument("run_id", metavar="RUN_ID")
    add_agent(show, required=False)
    add_json(show)
    show.set_defaults(handler=handle_show)

    undo = sub.add_parser(
        "undo",
        help="revert a run as a new run",
        description=(
            "Revert a run as a new, itself undoable, run. If a later run or a person changed the "
            "same lines, refuse, name the files and change nothing (exit 1). Transcript cursors "
            "never move back. Says which files it restores and which review proposals it withdraws "
            "(a proposal the run raised leaves the queue); --dry-run says so without changing anything."
        ),
    )
    undo.add_argument("run_id", metavar="RUN_ID")
    add_agent(undo, required=False)
    undo.add_argument("--dry-run", action="store_true", help="show what the undo would restore and withdraw; change nothing")
    undo.add_argument(
        "--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress"
    )
    add_json(undo)
    undo.set_defaults(handler=handle_undo)


def _row(agent: str, run: RunCommit) -> RunRow:
    """A run as `runs --json` lists it."""
    return RunRow(
        run_id=run.run_id,
        agent=agent,
        started_at=run.info.committed_at.isoformat(),
        passes=[p for p in run.info.trailers.get("Passes", "").split(",") if p],
        files_changed=run.files_changed,
        status=run.status,
    )


def handle_runs(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    names = [deployment.agent(args.agent).name] if args.agent else list(deployment.agents)
    rows: list[RunRow] = []
    for name in names:
        if not has_store(deployment, name):
            continue
        with read_session(deployment, name) as session, session_index(session) as index:
            rows.extend(_row(name, run) for run in run_commits(index, args.limit))
    if args.json:
        context.out.document(RunsDocument(rows))
        return 0
    if not rows:
        context.out.line("no runs recorded yet")
        return 0
    context.out.table(
        ["RUN", "AGENT", "TIME", "PASSES", "FILES", "STATUS"],
        [
            [r.run_id, r.agent, r.started_at, ",".join(r.passes), str(r.files_changed), r.status]
            for r in rows
        ],
    )
    return 0


def handle_show(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = args.agent or locate_run(deployment, args.run_id)
    with read_session(deployment, agent) as session, session_index(session) as index:
        run = find_run(index, args.run_id)
        if args.json:
            info = session.store.commit_info(run.info.sha)  # the index keeps no commit body
            files = session.store.changed_files(info.sha)
            diff = session.store.text("show", "--no-color", "--no-renames", "--patch", "--format=", info.sha)
            context.out.document(
                ShownRun(
                    **dict(_row(agent, run)),
                    commit=info.sha,
                    subject=info.subject,
                    report=info.report,
                    trailers=dict(info.trailers),
                    files=[ChangedFile(status=f.status, path=f.path) for f in files],
                    diff=diff,
                )
            )
            return 0
        context.out.line(f"status: {run.status}")
        context.out.line(session.store.show(run.info.sha).rstrip())
    return 0


def handle_undo(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = args.agent or locate_run(deployment, args.run_id)
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    if args.dry_run:
        result = preview(deployment, agent, args.run_id)
    else:
        result = undo(deployment, agent, args.run_id, context.clock(), timeout)
    effects = result.proposals
    if args.json:
        context.out.json(
            {
                "agent": result.agent,
                "undone": result.undone_run_id,
                "run_id": result.run_id,
                "dry_run": args.dry_run,
                "files_changed": result.files,
                "proposals_withdrawn": list(effects.withdrawn),
                "proposals_restored": list(effects.restored),
                "proposals_set_back": list(effects.reverted),
            }
        )
        return 0
    if result.run_id is None:
        context.out.line(f"undoing run {result.undone_run_id} on agent {result.agent} would change (nothing changed now):")
    else:
        context.out.line(f"run {result.undone_run_id} undone by run {result.run_id} on agent {result.agent}")
    for path in result.files:
        context.out.line(f"  {path}")
    for line in effects.lines():
        context.out.line(f"  {line}")
    if result.run_id is not None:
        context.out.line(f"undo the undo with: {context.command('undo', result.run_id)}")
    return 0

"""`metaeng-daemon once`: run the enabled passes for one agent now."""

from __future__ import annotations

import argparse

from daemon.config.advice import warnings
from daemon.doors.cli.common import CliContext, add_agent, add_json, wait_seconds
from daemon.doors.once_document import once_document
from daemon.kernel.errors import DaemonError
from daemon.kernel.settings import PASS_ORDER
from daemon.run.runner import RunResult, run_once
from daemon.run.shared_lines import lay_out, reporters
from daemon.wiring.pass_registry import default_registry


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "once",
        help="run the agent's enabled passes once, now",
        description=(
            "Run the enabled passes for one agent, in order, and apply their changes as one run "
            "(one commit in the agent's store). Prints what changed, what was skipped and why, "
            "and the command that undoes the run. Exit 1 if a pass failed."
        ),
    )
    add_agent(parser)
    parser.add_argument(
        "--pass",
        dest="passes",
        action="append",
        choices=PASS_ORDER,
        metavar="PASS",
        help=f"run only this pass (repeatable): {', '.join(PASS_ORDER)}",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="plan and print the changes; apply nothing, call no model, spend nothing",
    )
    parser.add_argument(
        "--with-model",
        action="store_true",
        help="with --dry-run: also ask the model, to preview its answer (this spends budget and a daily-cap slot)",
    )
    parser.add_argument(
        "--wait",
        type=wait_seconds,
        default=None,
        metavar="SECONDS",
        help="wait this long for a run already going on this agent (default: config run_lock_timeout_seconds)",
    )
    add_json(parser)
    parser.set_defaults(handler=handle)


def print_human(context: CliContext, result: RunResult) -> None:
    out = context.out
    header = f"run {result.run_id}" if result.run_id else "no run recorded"
    mode = " (dry run: nothing applied)" if result.dry_run else ""
    out.line(f"{header} on agent {result.agent}: {result.outcome}{mode}")
    for note in result.notes:
        out.line(f"  note: {note}")
    width = max(len(p.name) for p in result.passes) if result.passes else 10
    layout = lay_out([(p.name, p.report) for p in result.passes])
    for p in result.passes:
        out.line(f"  {p.name.ljust(width)}  {p.status.ljust(7)}  {p.reason}")
        for line in layout.own[p.name]:
            out.line(f"      {line}")
    for group in layout.shared:  # the same transcripts' warnings, said once
        out.line(f"  reported by {reporters(group.passes)}:")
        for line in group.lines:
            out.line(f"      {line}")
    if result.files_changed:
        out.line("files changed:" if not result.dry_run else "files that would change:")
        for path in result.files_changed:
            out.line(f"  {path}")
    if result.model_calls:
        out.line(f"model calls: {len(result.model_calls)}, spend {result.cost_usd:.6f} USD")
    if result.dry_run and result.preview:
        out.line("")
        out.line(result.preview.rstrip())
    if result.run_id:
        out.line(f"undo with: {context.command('undo', result.run_id)}")


def handle(args: argparse.Namespace, context: CliContext) -> int:
    if args.with_model and not args.dry_run:
        raise DaemonError("--with-model only applies to --dry-run (a real run always uses the model)")
    deployment = context.deployment()
    access = context.model_access(deployment)
    # Before the run, not only in `config check`: a local server left at the openai dialect
    # generates until the timeout, and the person reads why before the run that shows it.
    for line in warnings(deployment.config):
        context.err.line(f"warning: {line}")
    if args.dry_run and args.with_model:
        context.err.line("note: --dry-run --with-model calls the model: it spends budget and a daily-cap slot")
    result = run_once(
        deployment,
        args.agent,
        registry=default_registry(),
        access=access,
        now=context.clock(),
        passes=args.passes,
        dry_run=args.dry_run,
        with_model=args.with_model,
        lock_timeout=args.wait,
        progress=lambda line: context.err.line(f"progress: {line}"),
        clock=context.clock,
    )
    if args.json:
        context.out.document(once_document(result))
    else:
        print_human(context, result)
    if result.error:
        context.err.line(f"error: {result.error}")
    return 1 if result.failed else 0

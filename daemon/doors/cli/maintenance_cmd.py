"""`maintenance [--agent A]`: pack the agents' stores now (what the service does on a schedule)."""

from __future__ import annotations

import argparse
from typing import Any

from daemon.config.resolve import Deployment
from daemon.doors.cli.common import CliContext, add_agent, add_json, wait_seconds
from daemon.kernel.errors import AgentBusy, DaemonError
from daemon.run.store_maintenance import NoStore, maintain_store
from daemon.wiring.retention import RetentionPlan, apply_retention, plan_retention


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "maintenance",
        help="apply retention and pack the agents' git stores now (git gc)",
        description=(
            "Apply the agent's `retention:` (closed fact versions purged from the home, history and the daemon's "
            "files; old lab ledgers removed; runs past history_days/history_runs squashed into one baseline "
            "commit; --dry-run shows what would go and changes nothing), then "
            "pack its git store (git gc) under its run lock, as the service does on its "
            "store_maintenance schedule (service.intervals.store_maintenance, default daily). Git's own "
            "auto-gc is off in every store, so no run ever pays for it. Waits for a run in progress "
            "(up to run_lock_timeout_seconds, or --wait); exit 1 if it could not run or git failed."
        ),
    )
    add_agent(parser, required=False)
    parser.add_argument(
        "--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait this long for a run in progress"
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="show what retention would remove now; change nothing, do not pack",
    )
    add_json(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    names = [deployment.agent(args.agent).name] if args.agent else list(deployment.agents)
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    if args.dry_run:
        return _dry_run(names, deployment, context, args.json)
    rows: list[dict[str, Any]] = []
    failed = False
    for name in names:
        try:
            try:
                applied = apply_retention(deployment, name, context.clock(), timeout)
            except AgentBusy:
                raise
            except DaemonError as exc:  # the store is still packed below
                context.err.line(f"agent {name}: retention not applied — {exc}")
                failed = True
            else:
                if not applied.empty:
                    context.err.line(f"agent {name}: retention {_removed(applied)}")
            record = maintain_store(deployment, name, context.clock(), timeout)
        except NoStore as exc:
            rows.append({"agent": name, "outcome": "no store", "detail": str(exc)})
            continue
        except DaemonError as exc:  # busy, or the store cannot be opened: the other agents still run
            rows.append({"agent": name, "outcome": "not run", "detail": str(exc)})
            failed = True
            continue
        failed = failed or record.outcome != "done"
        rows.append(
            {
                "agent": name,
                "outcome": record.outcome,
                "detail": record.detail,
                "duration_s": record.duration_s,
                "size_before_bytes": record.size_before_bytes,
                "size_after_bytes": record.size_after_bytes,
            }
        )
    if args.json:
        context.out.json(rows)
    for row in rows if not args.json else ():
        if row["outcome"] == "done":
            context.out.line(
                f"agent {row['agent']}: store packed in {row['duration_s']:.1f} s, "
                f"{_size(row['size_before_bytes'])} → {_size(row['size_after_bytes'])}"
            )
        elif row["outcome"] == "no store":
            context.out.line(f"agent {row['agent']}: {row['detail']}")
        else:
            context.err.line(f"agent {row['agent']}: maintenance {row['outcome']} — {row['detail']}")
    return 1 if failed else 0


def _removed(applied: RetentionPlan) -> str:
    parts = [
        f"purged {len(applied.closed)} closed fact version(s)" if applied.closed else "",
        f"removed {len(applied.ledgers)} lab ledger(s)" if applied.ledgers else "",
        f"squashed {applied.squash.squashed_runs} run(s) into the baseline" if applied.squash else "",
    ]
    return ", ".join(p for p in parts if p)


def _size(count: int) -> str:
    return f"{count / 1024:.0f} KiB" if count < 1024 * 1024 else f"{count / 1024 / 1024:.1f} MiB"


def _dry_run(names: list[str], deployment: Deployment, context: CliContext, as_json: bool) -> int:
    """What retention would remove now, per agent (values are never printed)."""
    plans = [plan_retention(deployment, name, context.clock()) for name in names]
    if as_json:
        context.out.json(
            [
                {
                    "agent": p.agent,
                    "retention": p.settings.model_dump(),
                    "closed_facts": [
                        {"entity": c.entity, "key": c.key, "valid_to": c.valid_to} for c in p.closed
                    ],
                    "held_back": p.held_back,
                    "lab_ledgers": [str(path) for path in p.ledgers],
                    "squash": None
                    if p.squash is None
                    else {
                        "runs": p.squash.squashed_runs,
                        "through": p.squash.through or None,
                        "kept_runs": p.squash.kept_runs,
                    },
                }
                for p in plans
            ]
        )
        return 0
    for p in plans:
        if p.empty and not p.held_back:
            context.out.line(f"agent {p.agent}: retention removes nothing now")
            continue
        context.out.line(f"agent {p.agent}: retention would remove")
        for c in p.closed:
            context.out.line(f"  closed fact {c.entity}.{c.key} (closed {c.valid_to})")
        for path in p.ledgers:
            context.out.line(f"  lab ledger {path}")
        if p.squash is not None:
            context.out.line(
                f"  {p.squash.squashed_runs} run(s) up to {p.squash.through or 'the first commit'} squashed into "
                f"one baseline commit ({p.squash.kept_runs} newer run(s) kept)"
            )
        if p.held_back:
            context.out.line(
                f"  ({p.held_back} closed version(s) kept for now: a current fact holds the same value)"
            )
    return 0

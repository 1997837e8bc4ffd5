"""`memory forget --purge` and `memory purges`: erase a fact for good, and list what was erased."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from daemon.doors.cli.common import CliContext
from daemon.kernel.errors import DaemonError
from daemon.run import erasures
from daemon.run.session import agent_state
from daemon.wiring.purge import PurgeTarget, purge


def _asker(context: CliContext, entity: str, key: str) -> Callable[[int], bool]:
    def ask(count: int) -> bool:
        if not sys.stdin.isatty():
            raise DaemonError(
                "a purge cannot be undone: confirm it with --yes (standard input is not a terminal to ask on); nothing changed"
            )
        context.err.line(
            f"Purge {count} value(s) of {entity}.{key} from the home, every commit of the store's history and "
            "the daemon's files? This cannot be undone. Type 'purge' to go on:"
        )
        return sys.stdin.readline().strip() == "purge"

    return ask


def handle_purge(args: argparse.Namespace, context: CliContext) -> int:
    if args.value is not None and not args.value:
        raise DaemonError("--value: must not be empty")
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    now = context.clock()
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    who = context.env.get("USER") or context.env.get("LOGNAME") or "unknown"
    confirm = None if args.yes else _asker(context, args.entity, args.key)
    result = purge(
        deployment,
        agent.name,
        PurgeTarget(args.entity, args.key, args.value, args.forbid),
        requested_by=who,
        now=now,
        lock_timeout=timeout,
        confirm=confirm,
    )
    if args.json:
        context.out.json(
            {
                "entity": result.entity,
                "key": result.key,
                "values_purged": result.values,
                "run_id": result.run_id,
                "history_rewritten": result.rewritten,
                "state_files_erased": list(result.state_files),
                "value_hashes": list(result.record.value_hashes) if result.record else [],
                "forbidden": bool(args.forbid),
            }
        )
        return 0
    if result.values == 0:
        context.out.line(f"nothing stored for {args.entity}.{args.key}, now or in history: nothing to purge")
        if args.forbid:
            context.out.line(f"key {args.key!r} is on the forbidden list" + (f" (run {result.run_id})" if result.run_id else ""))
        return 0
    context.out.line(f"purged {result.values} value(s) of {result.entity}.{result.key}")
    if result.run_id:
        context.out.line(f"  home: erased in run {result.run_id}")
    context.out.line(f"  history: {'rewritten' if result.rewritten else 'no history'}")
    context.out.line(f"  daemon files erased: {len(result.state_files)}")
    if args.forbid:
        context.out.line(f"  key {args.key!r} is on the forbidden list: new turns do not teach it again")
    context.out.line("  this cannot be undone; the erasure record is listed by: " + context.command("memory", "purges", "--agent", agent.name))
    return 0


def handle_purges(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    records = erasures.read_all(agent_state(deployment, agent.name))
    if args.json:
        context.out.json({"agent": agent.name, "purges": [r.model_dump(mode="json") for r in records]})
        return 0
    if not records:
        context.out.line("no purges")
        return 0
    context.out.table(
        ["AT", "BY", "KIND", "ENTITY", "KEY", "VALUES", "RUN"],
        [[r.at, r.requested_by, r.kind, r.entity, r.key, str(len(r.value_hashes)), r.run_id or ""] for r in records],
    )
    return 0

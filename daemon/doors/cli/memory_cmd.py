"""`memory query|list|search|forget|refused|retry`: read and correct an agent's fact memory."""

from __future__ import annotations

import argparse
import unicodedata

from daemon.doors.cli import memory_purge_cmd, memory_refused_cmd, memory_search_cmd
from daemon.doors.cli.common import CliContext, add_agent, add_json, print_manual_run, wait_seconds
from daemon.doors.documents import MemoryAnswer, MemoryListing
from daemon.kernel.errors import DaemonError
from daemon.kernel.view import AgentView
from daemon.run.manual import run_manual
from daemon.wiring.fact_lookup import answer, fact_index
from memory_engine.agent_memory import settings_for
from memory_engine.forget import plan_forget
from memory_engine.records import canonical_date


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "memory",
        help="query, list or forget facts; see what was refused",
        description=(
            "Query, list, search or forget an agent's facts; list the facts distillation refused and retry them."
        ),
    )
    actions = parser.add_subparsers(dest="memory_action", metavar="ACTION", required=True)

    query = actions.add_parser(
        "query",
        help="answer one question from the fact memory",
        description=(
            "Answer (entity, key) as of a date with the agent's memory settings (filter_entity, "
            "time_aware, top_k). Prints the value and the record it came from."
        ),
    )
    add_agent(query)
    query.add_argument("--entity", required=True)
    query.add_argument("--key", required=True)
    query.add_argument("--as-of", help="YYYY-MM-DD (default: today, UTC)")
    query.add_argument("--text", help="query text used for ranking (default: 'ENTITY KEY')")
    add_json(query)
    query.set_defaults(handler=handle_query)

    listing = actions.add_parser(
        "list", help="list stored facts", description="List facts valid on a date, or every version."
    )
    add_agent(listing)
    listing.add_argument("--entity", help="only this entity")
    listing.add_argument("--as-of", help="YYYY-MM-DD (default: today, UTC)")
    listing.add_argument("--all", action="store_true", help="every stored version, closed ones included")
    add_json(listing)
    listing.set_defaults(handler=handle_list)
    memory_search_cmd.register_actions(actions)

    forget = actions.add_parser(
        "forget",
        help="delete every version of one fact (as an undoable run), or --purge it for good",
        description=(
            "Delete every version of (entity, key) for the agent's owner. The deletion is a run: `undo` restores it. "
            "With --purge the values are erased for good: from the home, from every commit of the store's "
            "history, from the run log, journal, spend records, scratch and lab ledgers (the records stay, "
            "their text says [purged]); an erasure record keeps a salted hash of each value, never the value. "
            "A purge cannot be undone."
        ),
    )
    add_agent(forget)
    forget.add_argument("--entity", required=True)
    forget.add_argument("--key", required=True)
    forget.add_argument(
        "--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress"
    )
    forget.add_argument(
        "--purge", action="store_true", help="erase the values from history and the daemon's files too (cannot be undone)"
    )
    forget.add_argument("--value", help="with --purge: only this value (one version), not every value the key had")
    forget.add_argument(
        "--forbid",
        action="store_true",
        help="with --purge: put the key on the agent's forbidden list, so new turns do not teach it again",
    )
    forget.add_argument("--yes", action="store_true", help="with --purge: do not ask for confirmation")
    add_json(forget)
    forget.set_defaults(handler=handle_forget)
    purges = actions.add_parser(
        "purges",
        help="list the purges made for an agent",
        description="List the erasure records of an agent: when, who asked, which entity/key, salted hashes of the values.",
    )
    add_agent(purges)
    add_json(purges)
    purges.set_defaults(handler=memory_purge_cmd.handle_purges)
    memory_refused_cmd.register_actions(actions)


def _day(value: str | None, context: CliContext) -> str:
    if value is None:
        return context.clock().date().isoformat()
    try:
        return canonical_date(value)
    except ValueError as exc:
        raise DaemonError(f"--as-of: {exc}") from None


def handle_query(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    as_of = _day(args.as_of, context)
    text = args.text or f"{args.entity} {args.key}"
    result = answer(context.deployment().state_dir, agent, args.entity, args.key, as_of, text)
    if args.json:
        context.out.document(MemoryAnswer(value=result.answer, record=result.answer_record))
        return 0
    if result.answer_record is None:
        context.out.line(f"no answer for {args.entity}.{args.key} as of {as_of}")
        return 0
    r = result.answer_record
    until = f" until {r.valid_to}" if r.valid_to else ""
    context.out.line(f"{r.value}")
    context.out.line(
        f"  record {r.id}: valid from {r.valid_from}{until}, confidence {r.confidence:g}, from {r.source_event_id}"
    )
    if r.quote:
        context.out.line(f"  because: “{r.quote}”")
    return 0


def handle_list(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    as_of = _day(args.as_of, context)
    view = AgentView(agent.home)
    with fact_index(deployment.state_dir, agent) as index:
        records = index.records(agent.owner, args.entity, None if args.all else as_of)
    if args.json:
        settings, origin = settings_for(agent, view)
        context.out.document(
            MemoryListing(
                as_of=None if args.all else as_of, settings=settings, settings_origin=origin, records=records
            )
        )
        return 0
    if not records:
        context.out.line("no facts" + ("" if args.all else f" valid on {as_of}"))
        return 0
    context.out.table(
        ["ID", "ENTITY", "KEY", "VALUE", "FROM", "TO", "CONF", "SOURCE", "BECAUSE"],
        [
            [
                r.id,
                r.entity,
                r.key,
                r.value,
                r.valid_from,
                r.valid_to or "",
                f"{r.confidence:g}",
                r.source,
                f"“{r.quote}”" if r.quote else "",
            ]
            for r in records
        ],
    )
    return 0


def _printable(name: str, text: str) -> None:
    """Refuse a control character (NUL, a line break…): no entity or key holds one, and git
    would refuse it in the run's message only after the lock was taken."""
    bad = next((c for c in text if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise DaemonError(f"{name}: must not contain a control character (U+{ord(bad):04X} found); nothing changed")


def handle_forget(args: argparse.Namespace, context: CliContext) -> int:
    _printable("--entity", args.entity)
    _printable("--key", args.key)
    if args.purge:
        return memory_purge_cmd.handle_purge(args, context)
    if args.value is not None or args.yes or args.forbid:
        raise DaemonError("--value, --forbid and --yes only go with --purge")
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    now = context.clock()
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    result = run_manual(
        deployment,
        agent.name,
        label="forget",
        plan=lambda session, view, _run: plan_forget(
            session.agent, view, args.entity, args.key, now.date().isoformat(), session.state.fact_index
        ),
        now=now,
        lock_timeout=timeout,
        memory_lock=True,
    )
    return print_manual_run(result, args.json, context)

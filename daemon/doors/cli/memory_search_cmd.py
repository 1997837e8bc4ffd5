"""`memory search QUERY`: the agent's facts best matching words or a question (memory_engine/fact_search.py)."""

from __future__ import annotations

import argparse

from daemon.doors.cli.common import CliContext, add_agent, add_json, at_least_one
from daemon.doors.documents import MemorySearchDocument, SearchMatch
from daemon.wiring.fact_lookup import fact_index
from memory_engine.fact_search import read_query, search

DEFAULT_LIMIT = 20


def register_actions(actions: argparse._SubParsersAction) -> None:
    parser = actions.add_parser(
        "search",
        help="find facts by words or a question, over entity, key, value and quote",
        description=(
            "List the agent's current facts whose entity, key, value or quote hold words of QUERY, best "
            "first: words are compared by their stem in the query's language (\"where does Jonas live\" "
            "finds \"Jonas lives in Porto\"), function words such as \"where\" are left out, and a fact "
            "holding more of the words, and rarer ones, ranks higher. The same search as the MCP tool "
            "memory_search. Read-only."
        ),
    )
    add_agent(parser)
    parser.add_argument("query", metavar="QUERY", help="words or a question")
    parser.add_argument(
        "--limit", type=at_least_one, default=DEFAULT_LIMIT, help=f"at most this many facts (default {DEFAULT_LIMIT})"
    )
    parser.add_argument("--all", action="store_true", help="every stored version, superseded ones included")
    add_json(parser)
    parser.set_defaults(handler=handle_search)


def handle_search(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    query = read_query(args.query)
    day = None if args.all else context.clock().date().isoformat()
    with fact_index(deployment.state_dir, agent) as index:
        found = search(index, agent.owner, query, day, args.limit)
    if args.json:
        context.out.document(
            MemorySearchDocument(
                query=args.query,
                as_of=day,
                words=list(query.words),
                matches=[SearchMatch(score=h.score, record=h.record) for h in found.hits],
                more=found.more,
            )
        )
        return 0
    if not found.hits:
        scope = "stored" if day is None else f"valid on {day}"
        context.out.line(f"no fact {scope} holds {', '.join(query.words)}")
        return 0
    headers = ["ID", "ENTITY", "KEY", "VALUE", "FROM", *(["TO"] if day is None else []), "BECAUSE"]
    context.out.table(
        headers,
        [
            [
                h.record.id,
                h.record.entity,
                h.record.key,
                h.record.value,
                h.record.valid_from,
                *([h.record.valid_to or ""] if day is None else []),
                f"“{h.record.quote}”" if h.record.quote else "",
            ]
            for h in found.hits
        ],
    )
    if found.more:
        context.out.line(f"more facts match: --limit {args.limit * 2} shows more")
    return 0

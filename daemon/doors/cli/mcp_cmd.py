"""`metaeng-daemon mcp --agent A`: serve the agent's facts and skills to its runtime over MCP (stdio)."""

from __future__ import annotations

import argparse

from daemon.doors.cli.common import CliContext, add_agent


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "mcp",
        help="serve an agent's facts and skills to its runtime over MCP (stdio, read-only)",
        description=(
            "Run a Model Context Protocol server on stdin/stdout for one agent, for a runtime to "
            "start (Claude Code: `claude mcp add metaeng -- metaeng-daemon --config CONFIG mcp --agent A`; "
            "Codex: `codex mcp add metaeng -- metaeng-daemon --config CONFIG mcp --agent A`). Tools: "
            "memory_query(entity, key, as_of?), memory_search(text), memory_history(entity, key), "
            "skills_list(), skill_get(name). Answers with the agent's own facts only, writes "
            "nothing; logs go to stderr."
        ),
    )
    add_agent(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    # Imported here: the MCP SDK takes a second to import, which no other command should pay.
    from daemon.doors.mcp.mcp_server import build_server

    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    build_server(agent, context.clock, deployment.state_dir).run("stdio")
    return 0

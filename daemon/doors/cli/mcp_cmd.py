"""`metaeng-daemon mcp --agent A`: serve the agent's facts and skills to its runtime over MCP (stdio)."""

from __future__ import annotations

import argparse
from pathlib import Path

import structlog

from daemon.doors.cli.common import CliContext, add_agent
from daemon.kernel.errors import DaemonError
from daemon.kernel.settings import AgentSettings

log = structlog.get_logger("metaeng.mcp")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "mcp",
        help="serve an agent's facts and skills to its runtime over MCP (stdio, read-only)",
        description=(
            "Run a Model Context Protocol server on stdin/stdout for one agent, for a runtime to "
            "start (Claude Code: `claude mcp add metaeng -- metaeng-daemon --config CONFIG mcp --agent A`; "
            "Codex: `codex mcp add metaeng -- metaeng-daemon --config CONFIG mcp --agent A`). Tools: "
            "memory_search(text, limit?, include_superseded?), memory_query(entity, key, as_of?), "
            "memory_entities(limit?, offset?), memory_keys(entity), memory_history(entity, key), "
            "skills_list(), skill_get(name). Answers with the agent's own facts only, writes "
            "nothing; logs go to stderr. A config that does not load or has no such agent does not "
            "stop the server: every tool call answers with that error, so the runtime shows it."
        ),
    )
    add_agent(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    # Imported here: the MCP SDK takes a second to import, which no other command should pay.
    from daemon.doors.mcp.mcp_server import build_server

    found: tuple[AgentSettings, Path] | DaemonError
    try:
        deployment = context.deployment()
        found = (deployment.agent(args.agent), deployment.state_dir)
    except DaemonError as exc:
        # Served anyway: a runtime shows a tool's error, but only "failed" for a server that exits.
        log.error("mcp.no_agent", agent=args.agent, error=str(exc))
        found = exc

    def target() -> tuple[AgentSettings, Path]:
        if isinstance(found, DaemonError):
            raise DaemonError(str(found))
        return found

    build_server(args.agent, target, context.clock).run("stdio")
    return 0

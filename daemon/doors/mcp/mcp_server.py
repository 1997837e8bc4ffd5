"""The MCP server of one agent: five read-only tools over the official `mcp` SDK (2.x).

stdout is the protocol; logs go to stderr. Each tool reloads the agent's files on every
call (the daemon may have written since) and returns JSON; an expected failure (an
unknown skill, a bad date) is a tool error with the one-line message the CLI would print.
Answers and errors are masked like the CLI's output: the `mcp` command registers the
deployment's secrets (the API key, the `redact_env` values) as it loads the config.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from daemon.doors.mcp import tools
from daemon.kernel import redact
from daemon.kernel.errors import DaemonError
from daemon.kernel.settings import AgentSettings

READ_ONLY = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
)


def _answer(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`call()` with every registered secret masked; an expected failure becomes a tool
    error carrying its one-line message, masked too.

    The SDK writes to stdout itself, past `Output`: this is where its answers are redacted.
    """
    try:
        result = call()
    except DaemonError as exc:
        raise ToolError(redact.redact(str(exc))) from None
    return cast(dict[str, Any], json.loads(redact.redact(json.dumps(result))))


def build_server(agent: AgentSettings, clock: Callable[[], datetime], state_dir: Path) -> MCPServer:
    """An MCPServer answering for `agent` only; `clock` gives "today" for as-of defaults;
    facts come from the agent's query index under `state_dir`."""
    server: MCPServer = MCPServer(
        name=f"metaeng-daemon ({agent.name})",
        instructions=(
            f"Facts and skills the metaeng-daemon maintains for agent {agent.name}: look a fact up "
            "with memory_query or memory_search before asking the user again; skills_list and "
            "skill_get give the skills learned from past sessions. Read-only."
        ),
        log_level="WARNING",
    )

    @server.tool(annotations=READ_ONLY)
    def memory_query(entity: str, key: str, as_of: str | None = None) -> dict[str, Any]:
        """The value of one fact (entity, key) as of a date (YYYY-MM-DD, default today) and its record."""
        return _answer(lambda: tools.memory_query(state_dir, agent, entity, key, as_of, clock().date()))

    @server.tool(annotations=READ_ONLY)
    def memory_search(text: str) -> dict[str, Any]:
        """Current facts whose entity, key or value contains every word of `text` (newest first, at most 20)."""
        return _answer(lambda: tools.memory_search(state_dir, agent, text, clock().date()))

    @server.tool(annotations=READ_ONLY)
    def memory_history(entity: str, key: str) -> dict[str, Any]:
        """Every stored version of one fact (entity, key), oldest first, with validity dates."""
        return _answer(lambda: tools.memory_history(state_dir, agent, entity, key))

    @server.tool(annotations=READ_ONLY)
    def skills_list() -> dict[str, Any]:
        """Every skill of the agent: name, description, source (managed, pack, learned) and status."""
        return _answer(lambda: tools.skills_list(agent))

    @server.tool(annotations=READ_ONLY)
    def skill_get(name: str) -> dict[str, Any]:
        """One skill's description and instructions (the SKILL.md body) by name."""
        return _answer(lambda: tools.skill_get(agent, name))

    return server

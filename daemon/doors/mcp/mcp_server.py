"""The MCP server of one agent: seven read-only tools over the official `mcp` SDK (2.x).

stdout is the protocol; logs go to stderr. Each tool reloads the agent's files on every
call (the daemon may have written since) and returns JSON. Whatever goes wrong answers
that call with an error result and the server goes on serving: an expected failure (an
unknown skill, a bad date, an agent the config does not have) carries the one-line
message the CLI would print, arguments the tool's schema refuses carry the SDK's, and
anything else a generic one (its traceback goes to the log). Answers and errors are masked
like the CLI's output: the `mcp` command registers the deployment's secrets (the API key,
the `redact_env` values) as it loads the config.

An answer that gives facts or a skill's instructions is logged for `impact` — when, the tool,
the fact ids and skill names, nothing else — in the agent's `mcp-answers.jsonl`
(`daemon.doors.mcp_answers`); a log that cannot be written never fails the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, cast

import structlog
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from daemon.doors.mcp import tools
from daemon.doors.mcp_answers import append_answer
from daemon.kernel import redact
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.kernel.settings import AgentSettings

log = structlog.get_logger("metaeng.mcp")

READ_ONLY = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
)
# The agent to answer for and its state folder; raises DaemonError when there is none to
# serve (the config does not load, or has no such agent): each call then answers that.
Target = Callable[[], tuple[AgentSettings, Path]]


def server_version() -> str:
    """The installed package's version, "unknown" when it is not installed (run from a checkout)."""
    from importlib import metadata

    try:
        return metadata.version("metaeng-daemon")
    except metadata.PackageNotFoundError:
        return "unknown"


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


def _log_answer(agent: AgentSettings, state: Path, tool: str, result: dict[str, Any], now: datetime) -> None:
    """Log what `result` gave the agent (`tools.given`) for `impact`; never raises: the answer
    matters more than its record."""
    try:
        facts, skills = tools.given(tool, result)
        problem = append_answer(StateLayout(state).agent(agent.name).mcp_answers, now, tool, facts, skills)
    except Exception as exc:  # the answer stands whatever its record does
        problem = f"{type(exc).__name__}: {exc}"
    if problem:
        log.warning("mcp.answer_not_logged", agent=agent.name, tool=tool, error=redact.redact(problem))


def build_server(name: str, target: Target, clock: Callable[[], datetime]) -> MCPServer:
    """An MCPServer answering for the agent `name` only, as `target()` gives it; `clock`
    gives "today" for as-of defaults and what is current."""
    server: MCPServer = MCPServer(
        name=f"metaeng-daemon ({name})",
        version=server_version(),
        instructions=(
            f"Facts and skills the metaeng-daemon maintains for agent {name}: look a fact up with "
            "memory_search (words or a question) or memory_query (entity and key) before asking the "
            "user again; memory_entities and memory_keys list what is stored; skills_list and "
            "skill_get give the skills learned from past sessions. Read-only."
        ),
        log_level="WARNING",
    )

    def answer(tool: str, call: Callable[[AgentSettings, Path], dict[str, Any]]) -> dict[str, Any]:
        def served() -> dict[str, Any]:
            agent, state = target()
            result = call(agent, state)
            _log_answer(agent, state, tool, result, clock())
            return result

        return _answer(served)

    @server.tool(annotations=READ_ONLY)
    def memory_search(
        text: str,
        limit: Annotated[int, Field(ge=1, le=100)] = 20,
        include_superseded: bool = False,
    ) -> dict[str, Any]:
        """Facts whose entity, key, value or quote hold words of `text` (words or a question:
        "where does Jonas live"), best first: more query words, and rarer ones, rank higher.
        Current facts only unless include_superseded. `more` says whether more matched."""
        return answer(
            "memory_search",
            lambda agent, state: tools.memory_search(state, agent, text, limit, include_superseded, clock().date()),
        )

    @server.tool(annotations=READ_ONLY)
    def memory_query(entity: str, key: str, as_of: str | None = None) -> dict[str, Any]:
        """The value of one fact (entity, key) as of a date (YYYY-MM-DD, default today) and the fact."""
        return answer("memory_query", lambda agent, state: tools.memory_query(state, agent, entity, key, as_of, clock().date()))

    @server.tool(annotations=READ_ONLY)
    def memory_entities(
        limit: Annotated[int, Field(ge=1, le=1000)] = 100, offset: Annotated[int, Field(ge=0)] = 0
    ) -> dict[str, Any]:
        """The entities with current facts, most facts first: per entity how many keys and
        facts it has today and how many facts were superseded; `total` entities in all."""
        return answer("memory_entities", lambda agent, state: tools.memory_entities(state, agent, limit, offset, clock().date()))

    @server.tool(annotations=READ_ONLY)
    def memory_keys(entity: str) -> dict[str, Any]:
        """The keys of one entity with current facts: per key how many facts it has today and
        how many were superseded."""
        return answer("memory_keys", lambda agent, state: tools.memory_keys(state, agent, entity, clock().date()))

    @server.tool(annotations=READ_ONLY)
    def memory_history(entity: str, key: str) -> dict[str, Any]:
        """Every stored version of one fact (entity, key), oldest first, with validity dates."""
        return answer("memory_history", lambda agent, state: tools.memory_history(state, agent, entity, key))

    @server.tool(annotations=READ_ONLY)
    def skills_list() -> dict[str, Any]:
        """Every skill of the agent: name, description, source (managed, pack, learned) and status."""
        return answer("skills_list", lambda agent, _state: tools.skills_list(agent))

    @server.tool(annotations=READ_ONLY)
    def skill_get(name: str) -> dict[str, Any]:
        """One skill's description and instructions (the SKILL.md body) by name."""
        return answer("skill_get", lambda agent, _state: tools.skill_get(agent, name))

    return server

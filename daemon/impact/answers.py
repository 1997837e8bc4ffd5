"""The MCP server's answers as deliveries (pure, no I/O; docs/explanation/impact.md#learned-and-delivered).

`metaeng-daemon mcp` logs, per answer that gave facts or a skill, when, which tool, the
fact ids and the skill names (`daemon.doors.mcp_answers`). An answer that gave a fact
learned from an item, or a skill linked to it, delivered that item at that moment, when it
came after the statement: the answer names no session, so time alone orders them (an answer
can only give a fact once it is stored).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

MCP_ANSWER = "mcp_answer"


@dataclass(frozen=True)
class McpAnswer:
    """One answer of the agent's MCP server: when (UTC ISO 8601), the tool, what it gave."""

    at: str
    tool: str
    facts: tuple[str, ...]  # fact ids
    skills: tuple[str, ...]  # skill names


def first_with_facts(after: str | None, ids: Collection[str], answers: Sequence[McpAnswer]) -> str | None:
    """When an answer later than `after` first gave one of the facts `ids`; None if none did
    (or `after` is unknown: the statement has no time to order by)."""
    if after is None or not ids:
        return None
    return min((a.at for a in answers if a.at > after and not set(ids).isdisjoint(a.facts)), default=None)


def first_with_skill(after: str | None, names: Collection[str], answers: Sequence[McpAnswer]) -> str | None:
    """When an answer later than `after` first gave the skill of one of `names`; None if none did."""
    if after is None:
        return None
    return min((a.at for a in answers if a.at > after and not set(names).isdisjoint(a.skills)), default=None)

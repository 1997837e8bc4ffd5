"""What an impact computation reads besides the transcripts and the facts: the review queue's
proposals (`daemon.impact.review_links`) and the MCP server's answers (`daemon.doors.mcp_answers`),
each read-only, each giving what it could not read in words rather than failing the report."""

from __future__ import annotations

from pathlib import Path

from daemon.doors.mcp_answers import read_answers
from daemon.impact.answers import McpAnswer
from daemon.impact.review_links import ProposalSource, instruction_lines
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.kernel.review_queue import Proposal, list_proposals
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.transcripts.usage_signals import utc_stamp


def _diff_lines(proposal: Proposal, signs: str = "+", paths: frozenset[str] | None = None) -> list[str]:
    """The lines the proposal's changes (and choices) add ("+"), or add and remove ("+-"), as
    its diffs when made say them; only those of files in `paths`, when given."""
    changes = [*proposal.changes, *(c for choice in proposal.choices for c in choice.changes)]
    return [
        line[1:]
        for change in changes
        if paths is None or change.path in paths
        for line in change.diff.splitlines()
        if line[:1] in signs and not line.startswith(("+++", "---"))
    ]


def source(proposal: Proposal, view: AgentView, instructions: frozenset[str]) -> ProposalSource:
    """`proposal` as the impact report reads it; `instructions`: the agent's instruction files."""
    decision = next((h for h in reversed(proposal.history) if h.action in ("approved", "rejected")), None)
    targets = {c.path for c in proposal.changes} | {c.path for ch in proposal.choices for c in ch.changes}
    return ProposalSource(
        id=proposal.id,
        kind=proposal.kind,
        title=proposal.title,
        status=proposal.status(view),
        proposed_at=utc_stamp(proposal.created_at) or proposal.created_at,
        decided_at=(utc_stamp(decision.at) or decision.at) if decision is not None else None,
        decided_by=decision.by if decision is not None else None,
        decided_by_run=(decision.run_id or proposal.run_id) if decision is not None else None,
        evidence=tuple(proposal.evidence),
        text="\n".join([proposal.title, *_diff_lines(proposal)]),
        instructs=bool(targets & instructions),
        lines=instruction_lines(_diff_lines(proposal, "+-", instructions)),
    )


def proposal_sources(agent: AgentSettings) -> tuple[list[ProposalSource], str | None]:
    """Every proposal of the agent's review queue, oldest first, and why none could be read, if so."""
    view = AgentView(agent.home)
    try:
        found = list_proposals(view)
    except (DaemonError, OSError) as exc:
        return [], f"the review queue was not read, its proposals are not linked: {exc}"
    instructions = frozenset(agent.workspace.instructions)
    return [source(p, view, instructions) for p in found], None


def mcp_answers(state_dir: Path, agent: str) -> tuple[list[McpAnswer], list[str]]:
    """What the agent's MCP server logged that it gave, and what of the log could not be read."""
    return read_answers(StateLayout(state_dir).agent(agent).mcp_answers)

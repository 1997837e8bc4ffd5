"""Proposing, once, the line that makes a runtime read the facts view.

Editing a runtime's instruction file (CLAUDE.md, AGENTS.md) changes how the agent behaves,
so the daemon never does it silently: when the facts view exists and the file does not
mention it yet, one proposal of kind `facts-view-wiring` goes to the review queue. A
proposal of that kind that is open, approved or rejected means it is not proposed again:
a person who said no is not asked every run. One gone stale (a person edited the file
meanwhile) is proposed afresh against the file as it is now. An instruction file the view
cannot read (a symlink, as in the common CLAUDE.md -> AGENTS.md link) gets no proposal.
"""

from __future__ import annotations

from datetime import datetime

from daemon.kernel import review_queue
from daemon.kernel.errors import PathRefused
from daemon.kernel.runtime_files import INSTRUCTION_FILES, wiring_line
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView

KIND = "facts-view-wiring"


def wiring_proposal(agent: AgentSettings, view: AgentView, now: datetime, run_id: str) -> review_queue.Proposal | None:
    """The proposal adding the wiring line to the runtime's instruction file, or None.

    None when the format has no instruction file, the view is off, the file already names
    the view, or such a proposal was made before (whatever became of it).
    """
    fmt = agent.transcripts.format
    target = INSTRUCTION_FILES.get(fmt)
    path = agent.memory.markdown_view
    line = wiring_line(fmt, path) if path else None
    if target is None or not path or line is None:
        return None
    try:
        current = view.read_bytes(target)
    except PathRefused:  # a symlink: never written through, so nothing to propose
        return None
    text = (current or b"").decode("utf-8", "replace")
    if path in text or line in text:
        return None
    if any(p.kind == KIND and p.status(view) != "stale" for p in review_queue.list_proposals(view)):
        return None
    new_text = (text.rstrip("\n") + "\n\n" if text.strip() else "") + line + "\n"
    change = review_queue.make_change(view, target, new_text)
    return review_queue.new_proposal(
        kind=KIND,
        agent=agent.name,
        title=f"Let {fmt} read the facts view: add one line to {target}",
        target=target,
        rationale=(
            f"The daemon keeps the agent's current facts in {path}. {fmt} reads {target} in every "
            f"session; this line makes it read the facts too. Proposed once: rejecting it is final, "
            f"and the line can be added or removed by hand at any time."
        ),
        evidence=[path],
        changes=[change],
        now=now,
        run_id=run_id,
    )

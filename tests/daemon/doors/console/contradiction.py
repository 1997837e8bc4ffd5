"""A contradiction proposal in the review queue of the helpers' agent `ada`, made by the
workspace pass's own code (`workspace.contradictions.proposals`) over two role files."""

from __future__ import annotations

from pathlib import Path

from daemon.kernel.review_queue import proposal_write
from daemon.kernel.view import AgentView
from tests.daemon.doors.console.helpers import NOW
from workspace.consolidate_model import ReportedContradiction, Side
from workspace.contradictions import proposals

AGENTS = "# Agents\n\n- Post the weekly report in the ops channel.\n- Answer in English.\n"
TOOLS = "# Tools\n\n- Never post the weekly report anywhere; mail it to Jonas.\n"
SIDE_A = "- Post the weekly report in the ops channel."
SIDE_B = "- Never post the weekly report anywhere; mail it to Jonas."


def contradiction(home: Path) -> str:
    """Write AGENTS.md and TOOLS.md that disagree and the proposal the pass makes of them
    (the model suggests keeping the first side); return its id."""
    (home / "AGENTS.md").write_text(AGENTS)
    (home / "TOOLS.md").write_text(TOOLS)
    view = AgentView(home)
    files = {path: view.read_text(path) or "" for path in ("AGENTS.md", "TOOLS.md")}
    reported = ReportedContradiction(
        first=Side(file="AGENTS.md", quote=SIDE_A[2:]),
        second=Side(file="TOOLS.md", quote=SIDE_B[2:]),
        explanation="The two files disagree on where the weekly report goes.",
        keep="first",
    )
    (made,), _report = proposals(
        [reported], agent="ada", view=view, files=files, known=set(), now=NOW, run_id="20261130T110000Z-000000"
    )
    write = proposal_write(made)
    (home / write.path).parent.mkdir(parents=True, exist_ok=True)
    (home / write.path).write_bytes(write.content)
    return made.id

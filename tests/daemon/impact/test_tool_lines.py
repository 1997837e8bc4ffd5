"""The one table of the runtimes' tool lines (`daemon/impact/tool_lines.py`): every form a tool
call takes — the adapters' line, Claude Code's rendering, Codex's — is read by the patterns
built from it, and the adapters' line is the one `daemon.transcripts.guards` writes."""

from __future__ import annotations

import pytest

from daemon.impact.tool_lines import (
    BARE_TOOL,
    CODEX_EDITS,
    CODEX_VERBS,
    EDIT_CALL,
    EDIT_TOOLS,
    EDITED,
    EDITED_FILE,
    MARKS,
    NOT_PROSE,
    RENDERED_EDITS,
    RENDERED_MARKS,
    TOOL_CALL,
)
from daemon.transcripts.guards import tool_called, tool_line, tool_summary


@pytest.mark.parametrize("summary", ["Bash: ls -la", "Edit: db/0042.sql", "tool", "Write: a]b.py", ""])
def test_the_adapters_line_reads_back_as_the_call_it_stands_for(summary: str) -> None:
    line = tool_line(summary)
    assert line == f"[tool: {summary}]"  # what the adapters have always written
    assert tool_called(line) == summary
    assert tool_called(summary) is None  # the agent's words


@pytest.mark.parametrize("tool", EDIT_TOOLS)
def test_an_edit_in_the_adapters_line_is_a_call_an_edit_and_names_its_file(tool: str) -> None:
    line = tool_line(tool_summary(tool, {"file_path": "db/0042.sql"}))
    assert TOOL_CALL.match(line) and EDIT_CALL.match(line)
    assert [next(g for g in m.groups() if g) for m in EDITED_FILE.finditer(line)] == ["db/0042.sql"]
    # … and without its mark, as the report writes the reply's calls after its words
    assert BARE_TOOL.match(tool_summary(tool, {"file_path": "db/0042.sql"}))
    assert EDITED.search(tool_summary(tool, {"file_path": "db/0042.sql"}))


@pytest.mark.parametrize("mark", RENDERED_MARKS)
@pytest.mark.parametrize("name", RENDERED_EDITS)
def test_claude_codes_rendered_edit_is_read_in_every_mark_and_name(mark: str, name: str) -> None:
    line = f"{mark} {name}(src/a.py)"
    assert TOOL_CALL.match(line) and EDIT_CALL.match(line) and EDITED.search(line)
    assert [next(g for g in m.groups() if g) for m in EDITED_FILE.finditer(line)] == ["src/a.py"]
    opening = MARKS.match(line)
    assert opening is not None and opening.group() == f"{mark} "


@pytest.mark.parametrize("verb", CODEX_VERBS)
def test_codexs_rendered_calls_are_calls_and_only_its_edits_are_edits(verb: str) -> None:
    line = f"• {verb} src/a.py (+3 -1)"
    assert TOOL_CALL.match(line)
    assert bool(EDIT_CALL.match(line)) == (verb in CODEX_EDITS)
    assert bool(EDITED_FILE.search(line)) == (verb in CODEX_EDITS)


def test_tool_lines_and_their_output_are_no_prose() -> None:
    turn = "Fixed the port.\n● Bash(make test)\n  ⎿  42 passed\n     in 3.1s\n• Ran pytest\n  └ 101 passed\n[tool: Edit: a.py]\nDone?"
    assert NOT_PROSE.sub(" ", turn).split() == ["Fixed", "the", "port.", "Done?"]

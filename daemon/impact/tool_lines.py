"""How an agent's turn shows its tool calls, one table for every reading of the agent's work
(pure, no I/O; docs/explanation/impact.md#the-agents-tool-lines).

A tool call reaches the impact readings in three forms:

- the runtime adapters' line (`daemon.transcripts.guards.tool_line`,
  docs/reference/transcript-formats.md): "[tool: Edit: db/0042.sql]" in a turn the report
  renders, "Edit: db/0042.sql" after the reply's words (`daemon.impact.report`);
- Claude Code's rendering in its terminal, pasted or written so in a transcript: "● Update(src/a.py)",
  "⏺ Bash(make test)", with the output under "⎿";
- Codex's: "• Edited src/a.py (+3 -1)", "• Ran make test", with the output under "└".

The runtimes' tool names, marks and verbs are declared here once; the patterns of
`daemon.impact.amends` (did the reply edit, which file, what is prose), `daemon.impact.situation`
and `daemon.impact.work_lines` (which line of a turn is a call, its output, its diff) are built
from them, adding only the shapes around them (a patch's header, a diff fence, a shell prompt).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from daemon.transcripts.guards import TOOL_LINE_END, TOOL_LINE_MARK

# How the adapters mark a tool call's line in a turn (`daemon.transcripts.guards.tool_line`).
ADAPTER_MARK = TOOL_LINE_MARK
# Claude Code's tools, by the names its transcripts give them: its shell, those that write a
# file, and the others a turn's adapter lines name (not every one it has: "Read" is no call
# the readings tell apart).
SHELL_TOOL = "Bash"
EDIT_TOOLS = ("Edit", "MultiEdit", "Write")
NOTEBOOK_TOOL = "NotebookEdit"
OTHER_TOOLS = (NOTEBOOK_TOOL, "Grep", "Glob", "WebFetch", "WebSearch", "TodoWrite")
# Codex's (its shell runs its patch tool too: "shell: apply_patch"), and the editing tools of
# the API's agents.
CODEX_SHELL, CODEX_PATCH = "shell", "apply_patch"
CODEX_TOOLS = (CODEX_SHELL, CODEX_PATCH, "update_plan")
EDITOR_TOOLS = ("str_replace_editor", "str_replace_based_edit_tool")
# The tools that change a file, as the reply's own lines name them.
FILE_EDITS = (*EDIT_TOOLS, NOTEBOOK_TOOL, CODEX_PATCH, *EDITOR_TOOLS)
# Claude Code's marks before a rendered call, and the names it renders an edit with.
RENDERED_MARKS = "●⏺"
RENDERED_EDITS = ("Update", *EDIT_TOOLS)
# Codex's mark and verbs ("• Ran …"): those of an edit (the first, of a file changed in place,
# is the one shown with its counts: "• Edited a.py (+3 -1)"), then the others.
CODEX_MARK = "•"
CODEX_EDITS = ("Edited", "Added", "Wrote")
CODEX_VERBS = ("Ran", *CODEX_EDITS, "Explored", "Read", "Called", "Deleted")
# What opens a line of a call's output: Claude Code's "⎿", Codex's "└".
OUTPUT_MARKS = "⎿└"


def _either(names: Iterable[str]) -> str:
    return "|".join(re.escape(name) for name in names)


def _one_of(marks: str) -> str:
    return "".join(re.escape(mark) for mark in marks)


RENDERED = f"[{_one_of(RENDERED_MARKS)}]"

# What shows that the agent edited its work: an edit tool called, as the adapters write it
# after the reply's words ("Edit: src/a.py") or as a runtime shows it in a transcript pasted or
# rendered ("● Update(src/a.py)", "• Edited src/a.py (+3 -1)"), or a diff fence. Not an arrow or
# a line opening with "-": code and prose hold them.
EDITED = re.compile(
    rf"(?m)^[ \t]*(?:(?:{_either(FILE_EDITS)})(?::|$)|{CODEX_SHELL}: {CODEX_PATCH}"
    rf"|{RENDERED}\s*(?:{_either(RENDERED_EDITS)})\(|{re.escape(CODEX_MARK)}\s*{CODEX_EDITS[0]}\s+\S+\s*\(\+\d+)|```diff"
)
# … and the file an edit changed: Claude Code's edit tools as the adapters write their calls,
# one a line ("[tool: Edit: db/0042.sql]" in the turn before, "Edit: db/0042.sql" in the reply),
# or as the runtime renders them ("● Update(db/0042.sql)"); Codex's patch ("apply_patch: ***
# Begin Patch *** Update File: db/0042.sql …") or its rendering ("• Edited db/0042.sql (+3
# -1)"). Each part reads within one line.
EDITED_FILE = re.compile(
    rf"(?m)^[ \t]*(?:{re.escape(ADAPTER_MARK)})?(?:{_either(EDIT_TOOLS)}):[ \t]*(\S[^\n]*?){re.escape(TOOL_LINE_END)}?$"
    rf"|{RENDERED}[ \t]*(?:{_either(RENDERED_EDITS)})\(([^)\n]{{1,400}})\)"
    rf"|{re.escape(CODEX_MARK)}[ \t]*(?:{_either(CODEX_EDITS)})[ \t]+(\S+)[ \t]*\(\+\d|\*\*\* (?:Update|Add) File:[ \t]*([^\s*]+)"
)
# What is read as prose of the agent's turn: not its code (a fence, inline), its tool calls and
# their output (the adapters' lines, a runtime's rendering: "● Bash(…)", "⎿ 42 passed", Codex's
# "• Ran …" and "└ …", and the indented lines of output under "⎿" and "└"; not those under a
# bullet or an adapter's line, which may be the agent's words: "  Should I …?"), addresses, or
# a query string ("?page=2", read from a word's start so that a long run of characters is read
# once).
NOT_PROSE = re.compile(
    rf"```.*?(?:```|\Z)|`[^`\n]*`|^[ \t]*(?:{re.escape(ADAPTER_MARK)}|[{_one_of(RENDERED_MARKS + CODEX_MARK)}] )[^\n]*"
    rf"|^[ \t]*[{_one_of(OUTPUT_MARKS)}] [^\n]*(?:\n[ \t]+[^\n]*)*"
    r"|(?<!\S)\S*\?\S*=\S*|https?://\S+",
    re.DOTALL | re.MULTILINE,
)
# A tool call's line as the adapters write it in the reply, after its words and without their
# mark ("Edit: db/0042.sql", "Bash: make test"): it opens its line (an indented "shell: bash" is
# a workflow's key) and has no output under it.
BARE_TOOL = re.compile(rf"^(?:{_either((SHELL_TOOL, *EDIT_TOOLS, *OTHER_TOOLS, *CODEX_TOOLS, *EDITOR_TOOLS))})(?::|\Z)")
# … and as they write it in the turn before ("[tool: Bash: …]") or a runtime renders it ("●
# Bash(…)", "• Ran …", "$ make test"): the indented lines after it are its output, or, after an
# edit's (EDIT_CALL: "● Update(…)", "• Edited …"), its diff.
TOOL_CALL = re.compile(
    rf"^[ \t]*(?:{re.escape(ADAPTER_MARK)}|{RENDERED}[ \t]*\w+\(|{re.escape(CODEX_MARK)}[ \t]*(?:{_either(CODEX_VERBS)})\b|\$ )"
)
EDIT_CALL = re.compile(
    rf"^[ \t]*(?:{re.escape(ADAPTER_MARK)}(?:{_either(EDIT_TOOLS)})\b"
    rf"|{RENDERED}[ \t]*(?:{_either(RENDERED_EDITS)})\(|{re.escape(CODEX_MARK)}[ \t]*(?:{_either(CODEX_EDITS)})\b)"
)
# What opens a line and is no word of it: a runtime's marks, a quote's, a list's and its
# number's ("2. candles"), a heading's.
MARKS = re.compile(rf"^[\s{_one_of(OUTPUT_MARKS + RENDERED_MARKS + CODEX_MARK)}>|*#]*(?:\d{{1,3}}[.)][ \t]+)?")

"""How an agent's turn shows its tool calls, one table for every reading of the agent's work
(pure, no I/O; docs/explanation/impact.md#the-agents-tool-lines).

A tool call reaches the impact readings in three forms:

- the runtime adapters' line (daemon/transcripts): "[tool: Edit: db/0042.sql]" in a turn the
  report renders, "Edit: db/0042.sql" after the reply's words (`daemon.impact.report`);
- Claude Code's rendering in its terminal, pasted or written so in a transcript: "● Update(src/a.py)",
  "⏺ Bash(make test)", with the output under "⎿";
- Codex's: "• Edited src/a.py (+3 -1)", "• Ran make test", with the output under "└".

The names below are the runtimes' own (docs/reference/runtimes.md); the patterns of
`daemon.impact.amends` (did the reply edit, which file, what is prose) and `daemon.impact.swapped`
(which line of a turn is a call, its output, its diff) are all built from them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from daemon.transcripts.guards import TOOL_LINE_MARK

# How the adapters mark a tool call's line in a turn (`daemon.transcripts.guards.tool_line`).
ADAPTER_MARK = TOOL_LINE_MARK
# Claude Code's tools that write a file, by the names its transcripts give them …
EDIT_TOOLS = ("Edit", "MultiEdit", "Write")
# … every other of its tools an agent calls in a turn …
OTHER_TOOLS = ("NotebookEdit", "Grep", "Glob", "WebFetch", "WebSearch", "TodoWrite")
# … Codex's (its "shell" runs "apply_patch" too), and the editing tools of the API's agents.
CODEX_TOOLS = ("shell", "apply_patch", "update_plan")
EDITOR_TOOLS = ("str_replace_editor", "str_replace_based_edit_tool")
# The tools that change a file, as the reply's own lines name them.
FILE_EDITS = (*EDIT_TOOLS, "NotebookEdit", "apply_patch", *EDITOR_TOOLS)
# Claude Code's marks before a rendered call, and the names it renders an edit with.
RENDERED = "[●⏺]"
RENDERED_EDITS = ("Update", *EDIT_TOOLS)
# Codex's mark and verbs ("• Ran …"), and those of an edit.
CODEX_MARK = "•"
CODEX_VERBS = ("Ran", "Edited", "Explored", "Added", "Wrote", "Read", "Called", "Deleted")
CODEX_EDITS = ("Edited", "Added", "Wrote")
# What opens a line of a call's output: Claude Code's "⎿", Codex's "└".
OUTPUT_MARKS = "⎿└"


def _either(names: Iterable[str]) -> str:
    return "|".join(names)


# What shows that the agent edited its work: an edit tool called, as the adapters write it
# after the reply's words ("Edit: src/a.py") or as a runtime shows it in a transcript pasted or
# rendered ("● Update(src/a.py)", "• Edited src/a.py (+3 -1)"), or a diff fence. Not an arrow or
# a line opening with "-": code and prose hold them.
EDITED = re.compile(
    rf"(?m)^\s*(?:(?:{_either(FILE_EDITS)})(?::|$)|shell: apply_patch"
    rf"|{RENDERED}\s*(?:{_either(RENDERED_EDITS)})\(|{CODEX_MARK}\s*Edited\s+\S+\s*\(\+\d+)|```diff"
)
# … and the file an edit changed: Claude Code's edit tools as the adapters write their calls,
# one a line ("[tool: Edit: db/0042.sql]" in the turn before, "Edit: db/0042.sql" in the reply),
# or as the runtime renders them ("● Update(db/0042.sql)"); Codex's patch ("apply_patch: ***
# Begin Patch *** Update File: db/0042.sql …") or its rendering ("• Edited db/0042.sql (+3
# -1)"). Each part reads within one line.
EDITED_FILE = re.compile(
    rf"(?m)^[ \t]*(?:{re.escape(ADAPTER_MARK)})?(?:{_either(EDIT_TOOLS)}):[ \t]*(\S[^\n]*?)\]?$"
    rf"|{RENDERED}[ \t]*(?:{_either(RENDERED_EDITS)})\(([^)\n]{{1,400}})\)"
    rf"|{CODEX_MARK}[ \t]*(?:{_either(CODEX_EDITS)})[ \t]+(\S+)[ \t]*\(\+\d|\*\*\* (?:Update|Add) File:[ \t]*([^\s*]+)"
)
# What is read as prose of the agent's turn: not its code (a fence, inline), its tool calls and
# their output (the adapters' lines, a runtime's rendering: "● Bash(…)", "⎿ 42 passed", Codex's
# "• Ran …" and "└ …", and the indented lines of output under "⎿" and "└"; not those under a
# bullet or an adapter's line, which may be the agent's words: "  Should I …?"), addresses, or
# a query string ("?page=2", read from a word's start so that a long run of characters is read
# once).
NOT_PROSE = re.compile(
    rf"```.*?(?:```|\Z)|`[^`\n]*`|^[ \t]*(?:{re.escape(ADAPTER_MARK)}|[●⏺{CODEX_MARK}] )[^\n]*"
    rf"|^[ \t]*[{OUTPUT_MARKS}] [^\n]*(?:\n[ \t]+[^\n]*)*"
    r"|(?<!\S)\S*\?\S*=\S*|https?://\S+",
    re.DOTALL | re.MULTILINE,
)
# A tool call's line as the adapters write it in the reply, after its words and without their
# mark ("Edit: db/0042.sql", "Bash: make test"): it opens its line (an indented "shell: bash" is
# a workflow's key) and has no output under it.
BARE_TOOL = re.compile(rf"^(?:{_either(('Bash', *EDIT_TOOLS, *OTHER_TOOLS, *CODEX_TOOLS, *EDITOR_TOOLS))})(?::|\Z)")
# … and as they write it in the turn before ("[tool: Bash: …]") or a runtime renders it ("●
# Bash(…)", "• Ran …", "$ make test"): the indented lines after it are its output, or, after an
# edit's (EDIT_CALL: "● Update(…)", "• Edited …"), its diff.
TOOL_CALL = re.compile(
    rf"^[ \t]*(?:{re.escape(ADAPTER_MARK)}|{RENDERED}[ \t]*\w+\(|{CODEX_MARK}[ \t]*(?:{_either(CODEX_VERBS)})\b|\$ )"
)
EDIT_CALL = re.compile(
    rf"^[ \t]*(?:{re.escape(ADAPTER_MARK)}(?:{_either(EDIT_TOOLS)})\b"
    rf"|{RENDERED}[ \t]*(?:{_either(RENDERED_EDITS)})\(|{CODEX_MARK}[ \t]*(?:{_either(CODEX_EDITS)})\b)"
)
# What opens a line and is no word of it: a runtime's marks, a quote's, a list's and its
# number's ("2. candles"), a heading's.
MARKS = re.compile(rf"^[\s{OUTPUT_MARKS}●⏺{CODEX_MARK}>|*#]*(?:\d{{1,3}}[.)][ \t]+)?")

"""Where each agent runtime reads what the daemon maintains (docs/how-to/connect-runtimes.md).

Per `transcripts.format`: the default path of the facts view (relative to the agent home),
the runtime's own instruction file, and the line that wires the view into it. The daemon
writes the view; the wiring line is only ever *proposed* through the review queue.
"""

from __future__ import annotations

# The facts view where the runtime (or the agent told by its instruction file) reads it.
# The daemon's own `jsonl` format has no runtime to read it: no view unless configured.
VIEW_DEFAULTS: dict[str, str | None] = {
    "jsonl": None,
    "claude-code": ".claude/metaeng-facts.md",
    "codex": "metaeng-facts.md",
    "openclaw": "metaeng-facts.md",
    "hermes": "metaeng-facts.md",
}
# The instruction file each runtime loads into every session (none for the generic format).
INSTRUCTION_FILES = {
    "claude-code": "CLAUDE.md",
    "codex": "AGENTS.md",
    "openclaw": "AGENTS.md",
    "hermes": "AGENTS.md",
}


def default_view(fmt: str) -> str | None:
    return VIEW_DEFAULTS.get(fmt)


def wiring_line(fmt: str, view: str) -> str | None:
    """The line that makes the runtime read `view`, or None where there is nothing to wire.

    Claude Code expands `@path` imports in CLAUDE.md; the others read AGENTS.md as text, so
    the line tells the agent where to look.
    """
    if fmt == "claude-code":
        # Claude Code's import path ends at whitespace unless it is backslash-escaped.
        return "@" + view.replace("\\", "\\\\").replace(" ", "\\ ")
    if fmt in INSTRUCTION_FILES:
        return f"Facts the metaeng-daemon keeps about the user and this work (current, newest first): read {view}."
    return None

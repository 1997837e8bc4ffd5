"""Where each agent runtime reads what the daemon maintains (docs/how-to/connect-runtimes.md).

Per `transcripts.format`, the runtime's preset: the default path of the facts view
(relative to the agent home), the runtime's own instruction file and the line that wires
the view into it, where the runtime loads skills from, and which workspace files play
which role. A key the config sets wins; `config show` names the preset for the others.
The daemon writes the view; the wiring line is only ever *proposed* through the review
queue. Sources for each runtime: docs/explanation/delivery-in-runtimes.md.
"""

from __future__ import annotations

from collections.abc import Mapping

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


# Where the runtime loads a project's skills from: the learned library goes there, so what
# the daemon learns is what the runtime offers. Claude Code: `.claude/skills/<name>/SKILL.md`;
# Codex: `.agents/skills/` (its `$CODEX_HOME/skills` is deprecated); OpenClaw's workspace
# and Hermes's home (~/.hermes): `skills/`, the daemon's own default.
SKILL_FOLDERS: dict[str, str] = {
    "claude-code": ".claude/skills",
    "codex": ".agents/skills",
}
# A coding project has no identity, persona or long-memory files: its one workspace file is
# the instruction file the runtime loads. OpenClaw and Hermes keep the OpenClaw layout
# (IDENTITY.md, SOUL.md, AGENTS.md, TOOLS.md, USER.md, MEMORY.md), the daemon's default.
WORKSPACE_ROLES: dict[str, Mapping[str, list[str]]] = {
    "claude-code": {"identity": [], "behaviour": [], "instructions": ["CLAUDE.md"], "long_memory": []},
    "codex": {"identity": [], "behaviour": [], "instructions": ["AGENTS.md"], "long_memory": []},
}


# The runtimes that run a command before each prompt (`metaeng-daemon hook RUNTIME`): the
# agents whose delivery index is kept (docs/explanation/delivery.md).
PROMPT_HOOKS = ("claude-code", "codex", "hermes")
# The project file where the runtime reads its prompt hooks (`metaeng-daemon hook`); the
# person's file, so the daemon only ever proposes a change to it. For Claude Code the
# personal `settings.local.json`, not the `settings.json` a team commits: the hook's command
# names this machine's paths. Hermes's hooks live in its `config.yaml` beside a person's
# other settings: wired by hand (the how-to).
HOOK_FILES: dict[str, str] = {
    "claude-code": ".claude/settings.local.json",
    "codex": ".codex/hooks.json",
}


def skill_folder(fmt: str) -> str | None:
    """The runtime's own skills folder, or None where the daemon's default (`skills`) is it."""
    return SKILL_FOLDERS.get(fmt)


def workspace_roles(fmt: str) -> Mapping[str, list[str]]:
    """The runtime's workspace files by role; empty where the daemon's defaults are the runtime's."""
    return WORKSPACE_ROLES.get(fmt, {})


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

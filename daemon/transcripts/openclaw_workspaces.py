"""Which workspace each OpenClaw agent works in (`init`: the agent home the daemon maintains).

OpenClaw's own rules (docs.openclaw.ai/concepts/agent-workspace, /concepts/multi-agent):

- the state folder is `$OPENCLAW_STATE_DIR`, default `~/.openclaw`; its `openclaw.json`
  (JSON5) holds the agents;
- an agent's entry may name its workspace: `agents.list[]` (`{id, workspace}`) or, in newer
  releases, `agents.entries.<id>.workspace`;
- in a roster of several agents, an entry without one works in `<agents.defaults.workspace>/<id>`
  when that root is set, else in `<state folder>/workspace-<id>`;
- a sole agent, or one the config does not list, works in the default workspace
  (`agents.defaults.workspace`, default `<state folder>/workspace`) — unless a folder
  `<state folder>/workspace-<id>` exists, which OpenClaw made for it (`openclaw agents add`).

Read-only. A config that cannot be read is as good as none: every agent then falls back
to the folders on disk, and `init` says when two agents end up in one workspace.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

CONFIG = "openclaw.json"
# JSON5 as OpenClaw's own config files use it, made JSON: comments out, trailing commas out,
# bare keys quoted, single-quoted strings double-quoted. Strings are matched first, so
# nothing inside one is touched.
_JSON5 = re.compile(
    r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|//[^\n]*|/\*.*?\*/|,(?=(?:\s|//[^\n]*|/\*.*?\*/)*[}\]])'
    r"|[A-Za-z_\$][\w\$]*(?=\s*:)",  # `\$` in a class: a literal dollar, as JSON5 names allow
    re.S,
)


def _token(match: re.Match[str]) -> str:
    text = match.group(0)
    if text.startswith('"'):
        return text
    if text.startswith("'"):
        return json.dumps(text[1:-1].replace("\\'", "'"))
    if text.startswith(("//", "/*", ",")):
        return ""
    return json.dumps(text)


def read_config(path: Path) -> dict[str, Any]:
    """The config at `path` as a mapping; {} when it is missing or cannot be read."""
    try:
        data = json.loads(_JSON5.sub(_token, path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _folder(value: object, home: Path, base: Path) -> Path | None:
    if not isinstance(value, str) or not value.strip():
        return None
    path = Path(value.strip())
    if value.strip() == "~" or value.strip().startswith("~/"):
        path = home / value.strip()[2:]
    return path if path.is_absolute() else base / path


def _roster(config: Mapping[str, Any], home: Path, base: Path) -> dict[str, Path | None]:
    """Each agent the config lists → the workspace its entry names (None: none named)."""
    agents = config.get("agents")
    if not isinstance(agents, dict):
        return {}
    roster: dict[str, Path | None] = {}
    listed = agents.get("list")
    for entry in listed if isinstance(listed, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            roster[entry["id"]] = _folder(entry.get("workspace"), home, base)
    entries = agents.get("entries")
    for name, entry in (entries.items() if isinstance(entries, dict) else []):
        if isinstance(entry, dict):
            roster[name] = _folder(entry.get("workspace"), home, base) or roster.get(name)
    return roster


def workspaces(base: Path, home: Path, ids: list[str]) -> dict[str, Path]:
    """The workspace of each OpenClaw agent in `ids`, whose state folder is `base`; `home`
    expands a `~` in the config."""
    config = read_config(base / CONFIG)
    roster = _roster(config, home, base)
    agents = config.get("agents") if isinstance(config.get("agents"), dict) else {}
    defaults = agents.get("defaults") if isinstance(agents, dict) else None
    legacy = config.get("agent")  # releases before `agents`: `agent.workspace`
    root = _folder(defaults.get("workspace") if isinstance(defaults, dict) else None, home, base) or _folder(
        legacy.get("workspace") if isinstance(legacy, dict) else None, home, base
    )
    default = root or base / "workspace"
    found: dict[str, Path] = {}
    for agent in ids:
        own, named = base / f"workspace-{agent}", roster.get(agent)
        if named is not None:
            found[agent] = named
        elif agent in roster and len(roster) > 1:
            found[agent] = root / agent if root else own
        elif own.is_dir():
            found[agent] = own
        else:
            found[agent] = default
    return found

"""Whose sessions these are: a runtime's store often holds more than one project or profile.

A session of another project or profile is never read: it is set aside before it is
opened (a Codex rollout's first lines excepted, which say where it ran), has no cursor,
and is counted with the reason in `transcripts` and `status` every time, so adding its
project to the config later reads it from the start. Per format:

- `codex`: `$CODEX_HOME/sessions` holds the rollouts of every project on the machine. A
  rollout is the agent's when the folder it ran in (`session_meta.cwd`, else its first
  `turn_context.cwd`) is the agent home or a `transcripts.projects` folder, or inside one.
  With no cwd recorded (yet) its project is unknown: set aside.
- `claude-code`: `~/.claude/projects/<project>/`, one folder per project, named after the
  folder Claude Code ran in with every character but ASCII letters and digits made `-`. A
  session is the agent's when its folder is the one the config names (`transcripts.root`
  and the glob's leading folders lie in it), or is named after the agent home or a
  `transcripts.projects` folder — or after a folder inside one, when the cwd the session
  records confirms it (the naming is lossy: `/srv/app-x` and `/srv/app/x` share one name).
- `openclaw`: `agents/<id>/sessions/` and `agents/<id>/agent/`; `hermes`:
  `<home>/state.db` (profile `default`) and `<home>/profiles/<name>/state.db`. A session
  is the agent's when the config names its agent or profile folder (as above) or
  `transcripts.profiles` lists its id.
- `jsonl`: the daemon's own transcripts, written for this agent: nothing is set aside.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from daemon.kernel.globmatch import static_folder
from daemon.transcripts import claude_code, codex
from daemon.transcripts.files import TranscriptSource, resolve_inside

_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


@dataclass(frozen=True)
class SetAside:
    """A session not read because it is not this agent's, and why."""

    file: str
    reason: str


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _variants(path: str) -> set[str]:
    """`path` as written and as its real path (a symlinked home, a cwd through a link)."""
    return {posixpath.normpath(path), os.path.realpath(path)}


def _folders(source: TranscriptSource) -> set[str]:
    """The agent home and `transcripts.projects`, each as written and as its real path."""
    listed = ([str(source.home)] if source.home is not None else []) + list(source.settings.projects)
    return {variant for folder in listed for variant in _variants(folder)}


def _named(source: TranscriptSource, owner: Path) -> bool:
    """Whether the config names the folder `owner`: the root and the glob's leading folders lie in it."""
    pinned = os.path.normpath(source.root.joinpath(*static_folder(source.settings.glob)))
    return _inside(pinned, os.path.normpath(owner))


def munged(path: str) -> str:
    """The name Claude Code gives the project folder of a session run in `path`."""
    return _NOT_ALNUM.sub("-", path)


def _codex(source: TranscriptSource, rel: str) -> str | None:
    cwd = codex.session_cwd(resolve_inside(source.root, rel))
    if cwd is None:
        return "its project is unknown: no cwd recorded (session_meta, turn_context)"
    folders = _folders(source)
    if any(_inside(ran, folder) for ran in _variants(cwd) for folder in folders):
        return None
    return (
        f"a session of another project: it ran in {posixpath.normpath(cwd)}, "
        "not in the agent home or a transcripts.projects folder"
    )


def _claude_code(source: TranscriptSource, rel: str) -> str | None:
    owner = claude_code.project_folder(source.root / rel)
    if _named(source, owner):
        return None
    name = munged(owner.name)
    folders = _folders(source)
    if any(munged(folder) == name for folder in folders):
        return None
    if any(name.startswith(munged(folder) + "-") for folder in folders):
        # Perhaps a folder inside the home: the cwd the session records says which.
        cwd = claude_code.session_cwd(resolve_inside(source.root, rel))
        if cwd is not None and any(_inside(ran, folder) for ran in _variants(cwd) for folder in folders):
            return None
    return (
        f"a session of another project: its folder {owner.name} is not the agent home's, "
        "a transcripts.projects folder's, nor the one transcripts.root names"
    )


def _openclaw_owner(path: Path) -> Path:
    """`agents/<id>` for a file in its `sessions/` or `agent/` folder (else the file's folder)."""
    for parent in list(path.parents)[:3]:
        if parent.name in ("sessions", "agent"):
            return parent.parent
    return path.parent


def _profiled(source: TranscriptSource, owner: Path, profile: str, what: str) -> str | None:
    if _named(source, owner) or profile in source.settings.profiles:
        return None
    return f"a session of another {what}: {profile} is not in transcripts.profiles nor the one transcripts.root names"


def _openclaw(source: TranscriptSource, rel: str) -> str | None:
    owner = _openclaw_owner(source.root / rel)
    return _profiled(source, owner, owner.name, "OpenClaw agent")


def _hermes(source: TranscriptSource, rel: str) -> str | None:
    owner = (source.root / rel).parent
    profile = owner.name if owner.parent.name == "profiles" else "default"
    return _profiled(source, owner, profile, "Hermes profile")


BINDERS: dict[str, Callable[[TranscriptSource, str], str | None]] = {
    "codex": _codex,
    "claude-code": _claude_code,
    "openclaw": _openclaw,
    "hermes": _hermes,
}


def by_reason(items: Iterable[SetAside]) -> list[tuple[str, int]]:
    """How many sessions were set aside for each reason, most first (then by reason)."""
    counts = Counter(item.reason for item in items)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def set_aside(source: TranscriptSource, rel: str) -> SetAside | None:
    """Why the session `rel` is not this agent's (a SetAside), or None if it is.

    Raises OSError (OutsideRoot among them) if a file it must look into cannot be opened.
    """
    binder = BINDERS.get(source.settings.format)
    reason = binder(source, rel) if binder is not None else None
    return SetAside(rel, reason) if reason is not None else None

"""Which files an agent's transcript glob names: found inside its root, never through a link out.

The glob is relative to the transcript root (`transcripts.root`, default the agent home).
Listing is a walk with `os.scandir` that never follows a symlink below the glob's static
folder, matched by the pure `daemon.kernel.globmatch`:

- the static folder (the glob's leading segments without wildcards) is resolved; if its
  real path leaves the root's real path it is refused with a warning and nothing below it
  is read — a `transcripts` symlink to another agent's folder yields no turns;
- a symlinked folder below it is not descended, and a symlinked transcript is refused
  (each with one warning naming it);
- a managed path of the agent (role files, daily logs, learned skills, `.metaeng`, the fact
  store, the markdown view), compared by real path, is never yielded nor descended.

Refused paths are only `lstat`ed, never opened. `resolve_inside` re-checks a listed file
just before it is opened, so a link swapped in after the listing is refused too, and
`open_transcript` opens only a regular file, without blocking: a named pipe swapped in (or
put where a queued retry turn was) is refused, naming the file, instead of hanging the run.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from daemon.kernel.globmatch import Segments, matches, reaches_below, static_folder
from daemon.kernel.managed import managed_paths
from daemon.kernel.regular_files import open_regular
from daemon.kernel.settings import AgentSettings, TranscriptSettings
from daemon.transcripts.usage import UsageProbe, probe_for


class OutsideRoot(OSError):
    """A transcript path that resolves outside its root, or through a symlink."""


@dataclass(frozen=True)
class TranscriptSource:
    """One agent's transcripts: the root the glob is relative to, and paths never to yield.

    `fenced` holds absolute paths (files or folders) of the agent's managed paths; `agent`
    names the agent in messages (its config key `agents.<agent>.transcripts`); `home` is the
    agent home, whose sessions are the agent's (`daemon.transcripts.binding`); `probe`, if
    given, finds what the agent used in the lines and rows read (`daemon.transcripts.usage`).
    """

    root: Path
    settings: TranscriptSettings
    fenced: tuple[Path, ...] = ()
    agent: str = ""
    home: Path | None = None
    probe: UsageProbe | None = None


def source_of(agent: AgentSettings) -> TranscriptSource:
    """The agent's transcript source: its transcript root, glob and managed paths, and the
    probe for its uses (which knows its facts view)."""
    managed = managed_paths(agent)
    fenced = tuple(agent.home / rel for rel in sorted(managed.files | managed.dirs))
    probe = probe_for(agent.transcripts.format, agent.memory.markdown_view)
    return TranscriptSource(agent.transcript_root, agent.transcripts, fenced, agent.name, agent.home, probe)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def resolve_inside(root: Path, rel: str) -> Path:
    """The real path of `root/rel`; raises OutsideRoot if it leaves the root or is a symlink."""
    path = root / rel
    real_root = os.path.realpath(root)
    if os.path.islink(path):
        raise OutsideRoot(f"{rel}: transcript is a symlink; not followed")
    real = os.path.realpath(path)
    if not _inside(real, real_root):
        raise OutsideRoot(f"{rel}: resolves to {real}, outside the transcript root {real_root}; not read")
    return Path(real)


def open_transcript(path: Path) -> BinaryIO:
    """Open for reading, never blocking: a symlink swapped in since `resolve_inside` checked the
    path fails (ELOOP), and anything but a regular file — a named pipe put in its place — raises
    NotRegular (an OSError) naming what it is."""
    return open_regular(path)


@dataclass
class _Walk:
    pattern: str
    fenced: tuple[str, ...]
    found: list[str]
    warnings: list[str]

    def fence_of(self, real: str) -> str | None:
        return next((f for f in self.fenced if _inside(real, f)), None)

    def visit(self, real_dir: str, rel: Segments) -> None:
        try:
            with os.scandir(real_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            self.warnings.append(f"{'/'.join(rel) or '.'}: cannot list: {exc.strerror or exc}")
            return
        for entry in entries:
            segments = (*rel, entry.name)
            shown = "/".join(segments)
            whole, below = matches(self.pattern, segments), reaches_below(self.pattern, segments)
            if not (whole or below):
                continue
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                what = "transcript is a symlink" if whole else "folder is a symlink"
                self.warnings.append(f"{shown}: {what}; not followed")
                continue
            if self.fence_of(entry.path) is not None:
                self.warnings.append(f"{shown}: a path the daemon manages; never read as a transcript")
                continue
            if stat.S_ISDIR(mode) and below:
                self.visit(entry.path, segments)
            elif stat.S_ISREG(mode) and whole:
                self.found.append(shown)


def list_transcripts(source: TranscriptSource) -> tuple[list[str], list[str]]:
    """Regular transcript files the glob names (paths relative to the root, sorted), and warnings."""
    pattern = source.settings.glob
    found: list[str] = []
    warnings: list[str] = []
    static = static_folder(pattern)
    start = source.root.joinpath(*static)
    if not os.path.lexists(start):
        return found, warnings
    real_root = os.path.realpath(source.root)
    real_start = os.path.realpath(start)
    shown = "/".join(static) or "."
    if not _inside(real_start, real_root):
        warnings.append(
            f"{shown}: resolves to {real_start}, outside the transcript root {real_root}; not read"
        )
        return found, warnings
    walk = _Walk(pattern, tuple(os.path.realpath(p) for p in source.fenced), found, warnings)
    if walk.fence_of(real_start) is not None:
        warnings.append(f"{shown}: a path the daemon manages; never read as a transcript")
        return found, warnings
    if os.path.isdir(real_start):
        walk.visit(real_start, static)
    return sorted(found, key=lambda rel: rel.split("/")), warnings

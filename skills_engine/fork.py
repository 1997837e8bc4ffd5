"""Fork with provenance: the first improvement of a skill the agent does not own.

The original folder (managed or pack) is copied byte for byte into the learned library
under its exact name, so the copy shadows it; the original is only read. Internal path
references are rewritten in text files only: every occurrence of the original folder's
absolute path (as a whole path prefix) becomes the copy's absolute path, so the copy
works from its new place. References relative to the skill folder (`scripts/x.py`) need
no rewriting. Binary files are never rewritten. The provenance sidecar records the
source and copy hashes, the original's headings and which files were rewritten; the
untouched original bytes are kept under `.metaeng/fork-bases/<name>/` as the future
merge base.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon.kernel.changeset import FileWrite
from daemon.kernel.view import AgentView
from skills_engine import provenance
from skills_engine.folders import is_text
from skills_engine.inventory import SKILL_FILE, Skill
from skills_engine.preservation_guard import skill_headings
from skills_engine.provenance import Event, Provenance, Rewrite


@dataclass(frozen=True)
class ForkPlan:
    writes: tuple[FileWrite, ...]
    deletes: tuple[str, ...]
    record: Provenance
    files: Mapping[str, bytes]  # the copy, as written


def rewrite(data: bytes, rewrites: Sequence[Rewrite]) -> bytes:
    """`data` with each rewrite applied (text files only; binary returned unchanged)."""
    if not rewrites or not is_text(data):
        return data
    text = data.decode("utf-8")
    for item in rewrites:
        replacement = item.new.replace("\\", "\\\\")
        # A whole path prefix only: not inside a longer name, nor in the middle of another path.
        text = re.sub(r"(?<![\w.~-])" + re.escape(item.old) + r"(?![\w.-])", replacement, text)
    return text.encode("utf-8")


def rewrite_all(files: Mapping[str, bytes], rewrites: Sequence[Rewrite]) -> dict[str, bytes]:
    return {rel: rewrite(data, rewrites) for rel, data in files.items()}


def plan_fork(
    original: Skill,
    *,
    home: Path,
    learned: str,
    view: AgentView,
    now: datetime,
    run_id: str | None,
    cites: Sequence[str],
) -> ForkPlan:
    """Writes that fork `original` into `learned/<name>/` with its sidecar and merge base."""
    if original.source == "learned":
        raise ValueError(f"{original.name} is already in the learned library")
    name = original.name
    copy_root = home / learned / name
    rewrites = [Rewrite(old=str(original.path), new=str(copy_root))]
    source = dict(original.folder.files)
    copy = rewrite_all(source, rewrites)
    rewritten = sorted(rel for rel in source if copy[rel] != source[rel])
    headings = skill_headings(source[SKILL_FILE].decode("utf-8", "replace")) if SKILL_FILE in source else []
    record = Provenance(
        name=name,
        kind="fork",
        created_at=now.isoformat(),
        source_kind="pack" if original.source == "pack" else "managed",
        origin=str(original.path),
        source_files=provenance.facts(source),
        copy_files=provenance.facts(copy),
        headings=headings,
        rewritten=rewritten,
        rewrites=rewrites,
        skipped=list(original.folder.skipped),
        base=provenance.base_dir(name),
        synced_at=now.isoformat(),
        history=[
            Event(
                at=now.isoformat(), run_id=run_id, action="forked", cites=list(cites), note=str(original.path)
            )
        ],
    )
    writes = [FileWrite(path=f"{learned}/{name}/{rel}", content=data) for rel, data in sorted(copy.items())]
    base = provenance.base_dir(name)
    writes += [FileWrite(path=f"{base}/{rel}", content=data) for rel, data in sorted(source.items())]
    writes.append(provenance.sidecar_write(learned, record))
    fresh = {w.path for w in writes}
    deletes = tuple(p for p in view.walk(base) if p not in fresh)
    return ForkPlan(tuple(writes), deletes, record, copy)

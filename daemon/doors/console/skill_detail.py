"""A skill's own page: its `SKILL.md` (rendered inert), its files, provenance, uses, its
place in the curator's lifecycle, and the runs that changed it — for a skill in the library
(learned, pack or managed, quarantined copies too) or one in the archive.

The history is the run index's (`RunIndex.touching`): the commits of the agent's store that
changed the skill's folder, its provenance sidecar, its archive or quarantine folder. A
managed or pack skill lives outside the agent home, so the store has no history of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from markupsafe import Markup

from daemon.config.resolve import Deployment
from daemon.doors.console import safe_markdown, skills_view
from daemon.doors.console.skills_view import SkillRow
from daemon.kernel.errors import CorruptState, DaemonError, StateVersionError
from daemon.kernel.paths import FORK_BASES_DIR
from daemon.run.revert import session_index
from daemon.run.session import has_store, read_session
from skills_engine import provenance as provenance_file
from skills_engine.archive import Archived
from skills_engine.archive import folder as archive_folder
from skills_engine.curator import Approval
from skills_engine.folders import is_text
from skills_engine.provenance import Provenance
from skills_engine.skill_doc import name_refusal, shown_doc

HISTORY = 100  # the newest commits shown; `git log` of the store has the rest
SHOWN_BYTES = 200_000  # a text file longer than this is cut on the page


class UnknownSkill(DaemonError):
    """No skill (or no archived skill) of that name; the message names it and the agent."""


@dataclass(frozen=True)
class SkillFile:
    rel: str
    size: int
    text: bool


@dataclass(frozen=True)
class Change:
    """A commit of the store that changed the skill: a run (linked) or a person's edit."""

    label: str
    run_id: str | None
    at: str
    subject: str
    files: list[str]
    undone_by: str | None = None


@dataclass(frozen=True)
class SkillDetail:
    agent: str
    name: str
    row: SkillRow | None  # the skill shown (None for an archived one)
    others: list[SkillRow]  # more skills of the name: shadowed originals, quarantined copies
    archived: Archived | None  # the archive's copy, when there is one
    files: list[SkillFile]
    description: str
    metadata: Mapping[str, str]
    body: Markup
    provenance: Provenance | None
    history: list[Change]
    shown: tuple[str, str] | None = None  # (file, its text) when a file is opened
    approval: Approval | None = None  # the approval that moved an archived skill, if any
    problems: list[str] = field(default_factory=list)


def checked_name(name: str) -> str:
    """`name` if it can be a skill's; raises UnknownSkill otherwise (a path, `..`, a line break)."""
    refusal = name_refusal(name)
    if refusal is not None:
        raise UnknownSkill(f"no skill {name!r}: {refusal}")
    return name


def _files(files: Mapping[str, bytes]) -> list[SkillFile]:
    return [SkillFile(rel, len(data), is_text(data)) for rel, data in sorted(files.items())]


def _shown(files: Mapping[str, bytes], wanted: str | None) -> tuple[str, str] | None:
    """The text of one of the skill's own files (looked up by name, never a path opened)."""
    if wanted is None:
        return None
    data = files.get(wanted)
    if data is None:
        raise UnknownSkill(f"the skill has no file {wanted!r}")
    if not is_text(data):
        return wanted, f"(binary, {len(data)} bytes: not shown)"
    text = data[:SHOWN_BYTES].decode("utf-8", "replace")
    return wanted, text + (f"\n… {len(data) - SHOWN_BYTES} more byte(s) not shown" if len(data) > SHOWN_BYTES else "")


def _markdown(files: Mapping[str, bytes], label: str, problems: list[str]) -> tuple[str, dict[str, str], Markup]:
    doc = shown_doc(files.get("SKILL.md"), label)
    if doc.problem:
        problems.append(doc.problem)
    return doc.description, dict(doc.metadata), safe_markdown.render(doc.body)


def _history(
    deployment: Deployment, agent: str, paths: list[str], folders: list[str], problems: list[str]
) -> list[Change]:
    if not has_store(deployment, agent):
        return []
    try:
        with read_session(deployment, agent) as session, session_index(session) as index:
            found = index.touching(paths, folders, HISTORY)
            return [
                Change(
                    entry.label,
                    entry.info.run_id,
                    entry.info.committed_at.isoformat(),
                    entry.info.subject,
                    files,
                    index.undone_by(entry.info.run_id) if entry.info.run_id else None,
                )
                for entry, files in found
            ]
    except DaemonError as exc:
        problems.append(f"history not shown: {exc}")
        return []


def _sidecar(raw: bytes | None, label: Path, problems: list[str]) -> Provenance | None:
    if raw is None:
        return None
    try:
        return provenance_file.parse(raw, label)
    except (CorruptState, StateVersionError) as exc:
        problems.append(str(exc))
        return None


def skill_detail(
    deployment: Deployment, agent: str, name: str, now: datetime, file: str | None = None
) -> SkillDetail:
    """The page of the skill `name` of `agent`; raises UnknownAgent, or UnknownSkill when
    neither the library nor the archive holds it (or `file` is not one of its files)."""
    settings = deployment.agent(agent)
    checked_name(name)
    page = skills_view.skills_page(settings, deployment.state_dir, now)
    rows = [r for r in page.rows if r.skill.name == name]
    archived = next((a for a in page.archived if a.record.name == name), None)
    if not rows:
        if archived is None:
            raise UnknownSkill(f"agent {settings.name} has no skill {name!r}, in its library or its archive")
        return archived_detail(deployment, settings.name, archived, page.approvals, file)
    row = next((r for r in rows if r.skill.status in ("active", "drifted")), rows[0])
    problems = [p for p in page.problems if name in p]
    learned = settings.skills.learned
    folders = [f"{learned}/{name}", archive_folder(name), f"{FORK_BASES_DIR}/{name}"]
    folders += [r.skill.folder.rel.rsplit("/", 1)[0] for r in rows if r.skill.quarantine and r.skill.folder.rel]
    files = row.skill.folder.files
    description, metadata, body = _markdown(files, f"{row.where}/SKILL.md", problems)
    return SkillDetail(
        settings.name,
        name,
        row,
        [r for r in rows if r is not row],
        archived,
        _files(files),
        description,
        metadata,
        body,
        row.skill.provenance,
        _history(deployment, settings.name, [provenance_file.sidecar_path(learned, name)], folders, problems),
        _shown(files, file),
        problems=problems,
    )


def archived_detail(
    deployment: Deployment,
    agent: str,
    archived: Archived,
    approvals: Mapping[tuple[str, str | None], Approval],
    file: str | None = None,
) -> SkillDetail:
    """The page of an archived skill: its files as the archive keeps them, its record."""
    record = archived.record
    problems: list[str] = []
    home = deployment.agent(agent).home
    folder = archive_folder(record.name)
    description, metadata, body = _markdown(archived.files, f"{folder}/skill/SKILL.md", problems)
    learned = deployment.agent(agent).skills.learned
    return SkillDetail(
        agent,
        record.name,
        None,
        [],
        archived,
        _files(archived.files),
        description,
        metadata,
        body,
        _sidecar(archived.sidecar, home / folder / "provenance.json", problems),
        _history(
            deployment,
            agent,
            [provenance_file.sidecar_path(learned, record.name)],
            [folder, f"{learned}/{record.name}"],
            problems,
        ),
        _shown(archived.files, file),
        approvals.get((record.name, record.run_id)),
        problems,
    )


def archived_page(deployment: Deployment, agent: str, name: str, now: datetime, file: str | None = None) -> SkillDetail:
    """The page of the archived skill `name`; raises UnknownAgent or UnknownSkill."""
    settings = deployment.agent(agent)
    checked_name(name)
    page = skills_view.skills_page(settings, deployment.state_dir, now)
    archived = next((a for a in page.archived if a.record.name == name), None)
    if archived is None:
        raise UnknownSkill(f"agent {settings.name} has no archived skill {name!r}")
    return archived_detail(deployment, settings.name, archived, page.approvals, file)

"""One inventory of every skill an agent has: managed, pack and learned, with shadowing.

Precedence by name: learned > pack > managed. A learned skill shadows an original of the
same name unless it is quarantined; a pack skill shadows a managed one. A pack skill whose
name is in the skill archive (and not pinned) is `held`: not served until a person decides
(`held_why`). At every load:
- each machine-written fork is checked by the preservation guard, even one whose `SKILL.md`
  is missing or malformed; a failing copy does not shadow (status `quarantined`, "pending"
  until a run moves it into quarantine);
- each fork whose original (the skill at its recorded origin, never another source of the
  same name) has current hashes that differ from its provenance is `drifted`; a fork whose
  origin no longer provides it is reported and never merged.

Managed and pack folders are read directly and read-only; the learned library and the
quarantine are read through the run's view, so a pass sees earlier passes' changes.
Malformed skills are reported and skipped, never raised.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from daemon.kernel.errors import CorruptState, PathRefused, StateVersionError
from daemon.kernel.paths import SKILL_ARCHIVE_DIR
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from skills_engine import provenance, quarantine
from skills_engine.archive import read_pins
from skills_engine.folders import list_skill_dirs, read_folder, read_tree, sha256
from skills_engine.preservation_guard import GuardFailure, check_copy
from skills_engine.provenance import Provenance
from skills_engine.skillfile import SkillDoc, SkillParseError, parse

Source = Literal["managed", "pack", "learned"]
Status = Literal["active", "shadowed", "quarantined", "drifted", "held"]
SKILL_FILE = "SKILL.md"
PRECEDENCE: dict[str, int] = {"managed": 0, "pack": 1, "learned": 2}


@dataclass(frozen=True)
class SkillFolder:
    name: str
    source: Source
    path: Path  # absolute
    rel: str | None  # relative to the agent home (learned and quarantined skills only)
    files: Mapping[str, bytes]
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class Skill:
    folder: SkillFolder
    doc: SkillDoc
    provenance: Provenance | None = None
    status: Status = "active"
    shadows: Path | None = None
    guard: tuple[GuardFailure, ...] = ()
    drift: tuple[str, ...] = ()
    quarantine: quarantine.QuarantineRecord | None = None
    # A fork whose recorded origin no longer provides it (moved or removed): never merged.
    origin_gone: str | None = None

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def source(self) -> Source:
        return self.folder.source

    @property
    def path(self) -> Path:
        return self.folder.path

    @property
    def machine_written(self) -> bool:
        return self.provenance is not None and self.provenance.machine_written

    @property
    def is_fork(self) -> bool:
        return self.machine_written and self.provenance is not None and self.provenance.is_fork

    @property
    def pending_quarantine(self) -> bool:
        return self.status == "quarantined" and self.quarantine is None


@dataclass(frozen=True)
class Inventory:
    skills: tuple[Skill, ...]
    problems: tuple[str, ...] = ()
    # Sources that could not be listed at all: a name check against them cannot complete.
    incomplete: tuple[str, ...] = ()
    # Names of every skill folder seen, malformed ones included.
    folder_names: frozenset[str] = field(default_factory=frozenset)
    # Machine-written forks that pass the guard but whose SKILL.md cannot be parsed (skipped).
    unreadable_forks: tuple[str, ...] = ()

    def learned(self, name: str) -> Skill | None:
        return next(
            (s for s in self.skills if s.source == "learned" and s.name == name and s.quarantine is None),
            None,
        )

    def original(self, name: str) -> Skill | None:
        """The managed or pack skill that serves `name` when no learned copy does (a held one
        serves nothing, so it is no one's original: `held_why`)."""
        candidates = [s for s in self.skills if s.source != "learned" and s.name == name and s.status != "held"]
        return max(candidates, key=lambda s: PRECEDENCE[s.source]) if candidates else None

    def upstream(self, skill: Skill) -> Skill | None:
        """The original a fork was taken from: the managed or pack skill at its recorded origin.

        None when that folder no longer provides the skill — another source of the same
        name is never taken for it."""
        if skill.provenance is None:
            return self.original(skill.name)
        candidates = [s for s in self.skills if s.source != "learned" and s.name == skill.name]
        winner = self.original(skill.name)
        found = at_origin(skill.provenance, [c.folder for c in candidates], winner.folder if winner else None)
        return next((c for c in candidates if c.folder is found), None)

    def serving(self, name: str) -> Skill | None:
        """The skill an agent gets for `name`: active or drifted, never shadowed or quarantined."""
        return next((s for s in self.skills if s.name == name and s.status in ("active", "drifted")), None)

    def learned_skills(self) -> list[Skill]:
        return [s for s in self.skills if s.source == "learned" and s.quarantine is None]


def held_why(name: str) -> str:
    """Why the pack skill `name` is held, and the commands that decide."""
    return (
        f"a learned skill {name} is in the archive ({SKILL_ARCHIVE_DIR}/{name}), so the pack's {name} is not served "
        f"until a person decides: `skills restore {name}` brings the archived one back (it shadows the pack's), "
        f"`skills pin {name}` serves the pack's (the archived one stays in the archive)"
    )


def _held(view: AgentView, problems: list[str]) -> set[str]:
    """Names a pack may not bring back silently: in the archive (a folder with its
    `archive.json`), not pinned by a person."""
    depth = SKILL_ARCHIVE_DIR.count("/") + 2
    try:
        archived = {
            rel.split("/")[depth - 1]
            for rel in view.walk(SKILL_ARCHIVE_DIR, depth=2)  # <name>/archive.json, not the skills' files
            if rel.endswith("/archive.json") and rel.count("/") == depth
        }
        if not archived:
            return set()
        pinned = set(read_pins(view).pinned)
    except (CorruptState, StateVersionError, PathRefused) as exc:
        problems.append(f"pack skills of archived names not held back: {exc}")
        return set()
    return archived - pinned


def _load_doc(files: Mapping[str, bytes], label: Path, name: str) -> SkillDoc:
    # str(label / SKILL_FILE), without a Path built per skill at every load (`label` is a folder)
    file = os.path.join(label, SKILL_FILE)
    raw = files.get(SKILL_FILE)
    if raw is None:
        raise SkillParseError(file, 1, "missing SKILL.md")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Read with replacement characters, a tidy or merge would write them back over the bytes.
        line = raw[: exc.start].count(b"\n") + 1
        raise SkillParseError(
            file,
            line,
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
        ) from None
    return parse(text, file, folder_name=name)


def _originals(
    agent: AgentSettings, problems: list[str], incomplete: list[str], malformed: set[str]
) -> list[tuple[SkillFolder, SkillDoc]]:
    found: list[tuple[SkillFolder, SkillDoc]] = []
    sources: list[tuple[Source, Path]] = [("managed", p) for p in agent.managed_skill_dirs]
    sources += [("pack", p) for p in agent.pack_skill_dirs]
    for kind, source in sources:
        try:
            dirs, warnings = list_skill_dirs(source)
        except OSError as exc:
            message = f"{kind} skill folder {source} cannot be read: {exc.strerror or exc}"
            problems.append(message)
            incomplete.append(message)
            continue
        problems.extend(warnings)
        for path in dirs:
            try:
                read = read_folder(path)
            except OSError as exc:
                problems.append(f"{path}: skill folder cannot be read: {exc.strerror or exc}; skipped")
                continue
            problems.extend(f"{path}: {item}" for item in read.skipped)
            folder = SkillFolder(path.name, kind, path, None, read.files, read.skipped)
            try:
                found.append((folder, _load_doc(read.files, path, path.name)))
            except SkillParseError as exc:
                problems.append(f"{exc}; skill skipped")
                malformed.add(path.name)
    return found


def learned_files(view: AgentView, learned: str) -> tuple[dict[str, dict[str, bytes]], dict[str, bytes]]:
    """(skill folder name → its files, skill name → sidecar bytes) of the learned library."""
    folders: dict[str, dict[str, bytes]] = {}
    sidecars: dict[str, bytes] = {}
    for inner, data in sorted(read_tree(view, learned).items()):
        head, _, rest = inner.partition("/")
        if rest:
            folders.setdefault(head, {})[rest] = data
        elif head.endswith(provenance.SUFFIX):
            sidecars[head[: -len(provenance.SUFFIX)]] = data
    return folders, sidecars


@dataclass(frozen=True)
class _Learned:
    folder: SkillFolder
    record: Provenance | None
    doc: SkillDoc | None  # None: SKILL.md missing or malformed (kept for the guard, forks only)
    error: SkillParseError | None = None


def _learned(
    agent: AgentSettings, view: AgentView, problems: list[str], malformed: set[str]
) -> list[_Learned]:
    """The learned skills; a fork whose SKILL.md cannot be parsed is kept (without a doc) for the guard."""
    learned = agent.skills.learned
    try:
        folders, sidecars = learned_files(view, learned)
    except PathRefused as exc:
        problems.append(f"learned skill library {learned}: {exc}")
        return []
    found: list[_Learned] = []
    base = agent.home / learned
    for name, files in sorted(folders.items()):
        path = base / name
        folder = SkillFolder(name, "learned", path, f"{learned}/{name}", files)
        record: Provenance | None = None
        if name in sidecars:
            label = agent.home / provenance.sidecar_path(learned, name)
            try:
                record = provenance.parse(sidecars[name], label)
            except (CorruptState, StateVersionError) as exc:
                problems.append(f"{exc}; skill {name} skipped")
                malformed.add(name)
                continue
        try:
            found.append(_Learned(folder, record, _load_doc(files, path, name)))
        except SkillParseError as exc:
            malformed.add(name)
            if record is not None and record.machine_written and record.is_fork:
                # A damaged SKILL.md is what the guard exists for: judge the copy before skipping it.
                found.append(_Learned(folder, record, None, exc))
            else:
                problems.append(f"{exc}; skill skipped")
    return found


def drift_of(record: Provenance, original: SkillFolder) -> tuple[str, ...]:
    """Files of the original whose current content differs from the provenance (added, changed, removed)."""
    recorded = {rel: fact.sha256 for rel, fact in record.source_files.items()}
    current = {rel: sha256(data) for rel, data in original.files.items()}
    return tuple(
        sorted(rel for rel in recorded.keys() | current.keys() if recorded.get(rel) != current.get(rel))
    )


def at_origin(
    record: Provenance, candidates: Sequence[SkillFolder], winner: SkillFolder | None
) -> SkillFolder | None:
    """Which of `candidates` (same-named managed or pack skills) a fork was taken from.

    The one at its recorded origin. Else, for a deployment moved to another folder, the
    only one whose files are byte for byte what the fork was last taken or merged from:
    a same-named skill of another source (another vendor's pack) differs, and is never
    taken for it; a moved pack that also changed is reported as gone, never merged blind.
    A legacy record without an origin: the name's winner.
    """
    if record.origin is None:
        return winner
    exact = next((c for c in candidates if str(c.path) == record.origin), None)
    if exact is not None:
        return exact
    moved = [c for c in candidates if not drift_of(record, c)]
    return moved[0] if len(moved) == 1 else None


def load_inventory(agent: AgentSettings, view: AgentView) -> Inventory:
    """Every skill of `agent` with its status; problems are collected, never raised."""
    problems: list[str] = []
    incomplete: list[str] = []
    malformed: set[str] = set()
    originals = _originals(agent, problems, incomplete, malformed)
    learned = _learned(agent, view, problems, malformed)
    try:
        quarantined, quarantine_problems = quarantine.read_all(view)
    except PathRefused as exc:
        quarantined, quarantine_problems = [], [f"skill quarantine: {exc}"]
    problems += quarantine_problems
    names = frozenset([f.name for f, _d in originals] + [entry.folder.name for entry in learned]) | malformed

    by_name: dict[str, list[SkillFolder]] = {}
    for folder, _doc in originals:
        by_name.setdefault(folder.name, []).append(folder)
    top = {name: max(items, key=lambda f: PRECEDENCE[f.source]) for name, items in by_name.items()}

    skills: list[Skill] = []
    shadowing_learned: set[str] = set()
    unreadable_forks: list[str] = []
    for found in learned:
        folder, doc, record = found.folder, found.doc, found.record
        failures: tuple[GuardFailure, ...] = ()
        drift: tuple[str, ...] = ()
        original = top.get(folder.name)
        origin_gone: str | None = None
        if record is not None and record.machine_written and record.is_fork:
            failures = tuple(check_copy(record, folder.files))
            upstream = at_origin(record, by_name.get(folder.name, []), original)
            if upstream is None:
                origin_gone = record.origin
            elif not failures and doc is not None:
                drift = drift_of(record, upstream)
        if doc is None:
            if not failures:
                problems.append(f"{found.error}; skill skipped")
                unreadable_forks.append(folder.name)
                continue
            problems.append(f"{found.error}; the copy fails the preservation guard and is quarantined")
            doc = SkillDoc(folder.name, "(damaged copy; SKILL.md unreadable)", {}, {}, "", 1)
        if failures:
            skills.append(Skill(folder, doc, record, "quarantined", None, failures))
            continue
        status: Status = "drifted" if drift else "active"
        shadows = original.path if original is not None else None
        if original is not None:
            shadowing_learned.add(folder.name)
        if origin_gone:
            problems.append(
                f"{folder.path}: forked from {origin_gone}, which no longer provides {folder.name} "
                "(moved or removed); upstream changes are not merged"
            )
        skills.append(Skill(folder, doc, record, status, shadows, (), drift, origin_gone=origin_gone))

    # A pack skill whose name a learned skill held before it was archived: not served until a
    # person decides (a pack update never brings an archived name back silently).
    held = _held(view, problems) if any(f.source == "pack" for f in top.values()) else set()
    for folder, doc in originals:
        winner = top[folder.name]
        if folder.name in shadowing_learned or folder is not winner:
            skills.append(Skill(folder, doc, status="shadowed"))
        elif folder.source == "pack" and folder.name in held:
            skills.append(Skill(folder, doc, status="held"))
        else:
            lower = [f for f in by_name[folder.name] if f is not folder]
            skills.append(Skill(folder, doc, shadows=lower[0].path if lower else None))

    for item in quarantined:
        label = view.home / item.rel
        folder = SkillFolder(item.record.name, "learned", label, item.rel, item.files)
        try:
            doc = _load_doc(item.files, label, item.record.name)
        except SkillParseError:
            doc = SkillDoc(item.record.name, "(quarantined copy; SKILL.md unreadable)", {}, {}, "", 1)
        skills.append(Skill(folder, doc, None, "quarantined", None, quarantine=item.record))

    order = {"learned": 0, "pack": 1, "managed": 2}
    skills.sort(key=lambda s: (s.name, order[s.source], s.quarantine is not None))
    return Inventory(tuple(skills), tuple(problems), tuple(incomplete), names, tuple(unreadable_forks))


def quarantined_names(agent: AgentSettings) -> list[str]:
    """Names of the agent's quarantined skills (moved, or failing the guard now); no side effects."""
    inventory = load_inventory(agent, AgentView(agent.home))
    return sorted({s.name for s in inventory.skills if s.status == "quarantined"})

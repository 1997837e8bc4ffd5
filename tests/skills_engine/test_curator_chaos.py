"""Chaos: 1,000 random curator, scout, library-pass, pin, restore, review and undo operations
on a 300-skill library — no skill lost, none half-moved, every undo exact.

One seeded sequence (`SEED`; `METAENG_CHAOS_SEED=N` replays another; a failure names the
seed, the operation and the ones before it) drives the real CLI in process, with the
usage record rewritten between operations so skills cross the stale and archive
thresholds and some are used again. After every operation:

- every skill name ever created is in the learned library (`skills/<name>/SKILL.md`) or
  the archive (`.metaeng/skill-archive/<name>/skill/SKILL.md`), unless an undo of the run
  that created it removed it;
- no skill is half-moved: a library folder has its SKILL.md, a sidecar its folder, an
  archived skill its files and its record; a name is in both places only when a person
  approved learning it again while archived; hand-written skills and forks never move;
- a move (curator, approved proposal, restore) carries the skill's files and sidecar byte
  for byte; a curator run archives only with consent and within `consent_share`; the
  curator and the library pass never move a pinned skill;
- an undo does what docs/reference/store.md promises, checked against the trees this test
  recorded before and after the undone run: each file that run changed is back byte for
  byte where nothing changed it since, left alone where it already is as before the run,
  three-way merged (`git merge-file`) otherwise — and nothing else changes. It is refused
  (changing nothing) only when a later change touched one of its files or the run is
  already undone.

Each run is a real CLI command in process (`run_cli`): about 0.2 s for a curator run or an
undo on this library (some seventeen git processes each), 2 s for a scout run. The sequence
runs unmeasured by coverage (the curator's, scout's and undo's own tests cover its code;
traced, it took 526 s in a full run): about three and a half minutes in a full run on this
2-core machine. It is `slow`, with a timeout of its own.

The cases this sequence found (each a bug of the curator as first written, fixed since)
have their own tests at the end.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from daemon.kernel.paths import HOME_LOCK, REVIEW_DIR, SKILL_ARCHIVE_DIR, SKILL_PINS
from skills_engine.archive import Pin, Pins, pins_write
from skills_engine.names import near_identical
from skills_engine.provenance import Provenance, sidecar_write
from tests.skills_engine.builders import candidate, fork_on_disk, make_skill, skill_md, skills_config
from tests.support.deploy import CliResult, conversation, run_cli, tree_snapshot, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.unmeasured import unmeasured

SEED = int(os.environ.get("METAENG_CHAOS_SEED", "20261130"))
OPERATIONS = 1_000
LIBRARY = 300
HAND_WRITTEN, FORKED, PINNED, PACK = 25, 15, 10, 30
START = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
CURATOR = {
    "stale_after_sessions": 8,
    "stale_after_days": 1,
    "archive_after_sessions": 20,
    "archive_after_days": 2,
    "consent_share": 0.1,
}
# Operation → weight. Scout and library passes cost most (each ranks or compares all 300
# skills); the cheap ones make up the count.
MIX = {
    "curator": 28,
    "dry_run": 4,
    "scout": 4,
    "library": 3,
    "pin": 5,
    "unpin": 4,
    "restore": 9,
    "review": 6,
    "undo": 25,
}
LIB = "skills"
ARCH = SKILL_ARCHIVE_DIR
Tree = dict[str, bytes]


# -- reading the home --------------------------------------------------------------------


class Snapshots:
    """Every regular file of the agent home (transcripts and the home lock left out), as
    `tree_snapshot` reads it, re-reading only files whose inode, size or mtime changed:
    the product writes by replacing, so a changed file always shows a new stat."""

    def __init__(self, home: Path) -> None:
        self.home = str(home)
        self.cache: dict[str, tuple[tuple[int, int, int], bytes]] = {}

    def read(self) -> Tree:
        fresh: dict[str, tuple[tuple[int, int, int], bytes]] = {}
        folders = [("", self.home)]
        while folders:
            rel_folder, folder = folders.pop()
            with os.scandir(folder) as entries:
                for entry in entries:
                    rel = f"{rel_folder}{entry.name}"
                    if entry.is_dir(follow_symlinks=False):
                        if rel != "transcripts":
                            folders.append((f"{rel}/", entry.path))
                        continue
                    if rel == HOME_LOCK or not entry.is_file(follow_symlinks=False):
                        continue
                    st = entry.stat(follow_symlinks=False)
                    key = (st.st_ino, st.st_size, st.st_mtime_ns)
                    hit = self.cache.get(rel)
                    if hit is not None and hit[0] == key:
                        fresh[rel] = hit
                    else:
                        with open(entry.path, "rb") as fh:
                            fresh[rel] = (key, fh.read())
        self.cache = fresh
        return {rel: fresh[rel][1] for rel in sorted(fresh)}


@dataclass
class Layout:
    """Where each skill is: library folder files, library sidecars, archive entries."""

    library: dict[str, dict[str, bytes]] = field(default_factory=dict)
    sidecars: dict[str, bytes] = field(default_factory=dict)
    archive: dict[str, dict[str, bytes]] = field(default_factory=dict)

    @property
    def names(self) -> set[str]:
        return set(self.library) | set(self.archive)


def layout(tree: Tree) -> Layout:
    found = Layout()
    for path, data in tree.items():
        if path.startswith(f"{LIB}/"):
            rest = path[len(LIB) + 1 :]
            name, slash, inner = rest.partition("/")
            if slash:
                found.library.setdefault(name, {})[inner] = data
            elif rest.endswith(".provenance.json"):
                found.sidecars[rest[: -len(".provenance.json")]] = data
        elif path.startswith(f"{ARCH}/"):
            name, _, inner = path[len(ARCH) + 1 :].partition("/")
            found.archive.setdefault(name, {})[inner] = data
    return found


def archived_files(entry: dict[str, bytes]) -> dict[str, bytes]:
    return {rel[len("skill/") :]: data for rel, data in entry.items() if rel.startswith("skill/")}


def diff(before: Tree, after: Tree) -> dict[str, tuple[bytes | None, bytes | None]]:
    return {
        p: (before.get(p), after.get(p)) for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)
    }


def merged(ours: bytes, base: bytes, theirs: bytes) -> bytes | None:
    """`git merge-file` of the three (None on a conflict): what undo promises for a file
    changed since on other lines."""
    with tempfile.TemporaryDirectory() as scratch:
        paths = []
        for label, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            (Path(scratch) / label).write_bytes(data)
            paths.append(str(Path(scratch) / label))
        env = {"PATH": os.defpath, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "HOME": scratch}
        done = subprocess.run(["git", "merge-file", "-p", *paths], capture_output=True, env=env, check=False)
    return done.stdout if done.returncode == 0 else None


# -- words and names ---------------------------------------------------------------------


class Words:
    """Made-up words (no two skills share content words, so the library pass finds no
    duplicates) and skill names no two of which are near-identical."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()
        self.names: list[str] = []

    def word(self) -> str:
        while True:
            text = "".join(self.rng.choice("bdfgklmnprtvz") + self.rng.choice("aeiou") for _ in range(3))
            if text not in self.used:
                self.used.add(text)
                return text

    def name(self) -> str:
        while True:
            name = f"{self.word()}-{self.word()}"
            if near_identical(name, self.names) is None:
                self.names.append(name)
                return name


def skill_text(name: str, words: Words) -> str:
    return skill_md(
        name,
        description=f"Handle {words.word()} {words.word()}. Use when asked.",
        steps=[f"{words.word()} the {words.word()}", f"{words.word()} every {words.word()}"],
    )


# -- the world -----------------------------------------------------------------------------


@dataclass
class RunRecord:
    run_id: str
    label: str
    touched: dict[str, tuple[bytes | None, bytes | None]]  # path → (before, after) the run
    created: set[str]  # skill names the run brought into existence
    undoes: str | None = None


class Chaos:
    def __init__(self, root: Path, fake_model: FakeModelServer) -> None:
        self.rng = random.Random(SEED)
        self.words = Words(self.rng)
        self.root = root
        self.home = root / "ada"
        self.model = fake_model
        self.config = skills_config(root, fake_model.url)
        raw = yaml.safe_load(self.config.read_text())
        raw["agents"]["ada"]["skills"]["curator"] = CURATOR
        self.config.write_text(yaml.safe_dump(raw))
        self.usage_path = root / "state" / "agents" / "ada" / "usage.json"
        self.now = START
        self.snapshots = Snapshots(self.home)
        self.runs: list[RunRecord] = []
        self.kept: set[str] = set()  # hand-written skills and forks: never archived
        self.pack: list[str] = []
        self.relearned: set[str] = set()  # learned again while archived: may be in both places
        self.proposals: list[str] = []  # review-queue paths in the order they appeared
        self.seen: Counter[str] = Counter()
        self.log: list[str] = []
        self.build()
        self.tree = self.snapshots.read()
        self.place = layout(self.tree)  # where each skill is in `tree`
        self.expected = self.place.names
        self.parsed: dict[str, tuple[bytes, dict[str, Any]]] = {}  # review file → (bytes, proposal)
        self.latest: tuple[Tree, Layout] | None = None  # the home after this step's command
        self.tidied: set[str] = set()  # skills the step's library pass tidied

    # -- setup -----------------------------------------------------------------------------
    def build(self) -> None:
        for _ in range(PACK):
            name = self.words.name()
            make_skill(self.root / "packs", name, skill_text(name, self.words))
            self.pack.append(name)
        for name in self.pack[:FORKED]:
            fork_on_disk(self.config, name)
            self.kept.add(name)
        pins: dict[str, Pin] = {}
        for index in range(LIBRARY - FORKED):
            name = self.words.name()
            files: dict[str, bytes | str] = {}
            if index % 5 == 0:
                files["scripts/run.sh"] = f"#!/bin/sh\necho {self.words.word()}\n"
            if index % 7 == 0:
                files["references/notes/more.md"] = f"# {self.words.word()}\n\n{self.words.word()}\n"
            if index % 13 == 0:
                files["assets/icon.png"] = b"\x89PNG\r\n\x1a\n\x00\x00" + self.words.word().encode()
            if index % 17 == 0:
                files["scripts/__init__.py"] = ""
            make_skill(self.home / LIB, name, skill_text(name, self.words), files)
            if index < HAND_WRITTEN:
                self.kept.add(name)
                continue
            learned_at = START - timedelta(days=self.rng.randint(30, 180), hours=self.rng.randint(0, 23))
            write = sidecar_write(LIB, Provenance(name=name, kind="created", created_at=learned_at.isoformat()))
            (self.home / write.path).write_bytes(write.content)
            if len(pins) < PINNED and index % 11 == 0:
                pins[name] = Pin(at=START.isoformat())
        pinned = pins_write(Pins(pinned=pins))
        (self.home / pinned.path).write_bytes(pinned.content)
        names = sorted(layout(tree_snapshot(self.home)).library)
        assert len(names) == LIBRARY
        # 60 sessions so far, over the last weeks; two thirds of the library used lately.
        days = {(START - timedelta(days=d)).date().isoformat(): 3 for d in range(1, 21)}
        record: dict[str, Any] = {"version": 1, "sessions_seen": 60, "sessions_by_day": days, "skills": {}}
        self.usage_path.parent.mkdir(parents=True, exist_ok=True)
        self.usage_path.write_text(json.dumps(record))
        self.use(self.rng.sample(names, LIBRARY * 2 // 3), marks=(48, 60))
        assert self.cli("once", "--agent", "ada", "--pass", "workspace_consolidation").code == 0

    # -- helpers -----------------------------------------------------------------------------
    def cli(self, *args: str) -> CliResult:
        return run_cli(self.config, *args, clock=lambda: self.now)

    def use(self, names: list[str], marks: tuple[int, int] | None = None) -> None:
        """The agent opened `names`: their tallies in the usage record say so."""
        record = json.loads(self.usage_path.read_text())
        seen = record["sessions_seen"]
        for name in names:
            mark = self.rng.randint(*marks) if marks else seen
            tally = record["skills"].get(name, {"count": 0, "sessions": 0})
            stamp = (self.now - timedelta(hours=seen - mark)).isoformat(timespec="seconds")
            tally.update(count=tally["count"] + 1, sessions=tally["sessions"] + 1, last=stamp, mark=mark)
            tally.setdefault("first", stamp)
            record["skills"][name] = tally
        self.usage_path.write_text(json.dumps(record))

    def tick(self) -> None:
        """Time passes between operations: hours, a few sessions, some skills used again; now
        and then a busy week of sessions using none of them (a mass archive: a proposal)."""
        busy = self.rng.random() < 0.02
        self.now += timedelta(days=4) if busy else timedelta(hours=self.rng.choice([0, 1, 1, 2, 3, 5]))
        if busy or self.rng.random() < 0.5:
            record = json.loads(self.usage_path.read_text())
            sessions = 40 if busy else self.rng.choice([1, 1, 2, 3])
            record["sessions_seen"] += sessions
            day = self.now.date().isoformat()
            record["sessions_by_day"][day] = record["sessions_by_day"].get(day, 0) + sessions
            self.usage_path.write_text(json.dumps(record))
        if busy:
            return
        pool = sorted(self.place.library) * 4 + sorted(self.place.archive)
        self.use(self.rng.sample(pool, min(len(pool), self.rng.randint(10, 50))))

    def pins(self, tree: Tree) -> set[str]:
        raw = tree.get(SKILL_PINS)
        return set(json.loads(raw)["pinned"]) if raw else set()

    def consented(self, tree: Tree) -> bool:
        """A person approved an archive proposal (the queue keeps the decision)."""
        return any(
            proposal["kind"] == "skill-archive" and proposal["decision"] == "approved"
            for path in self.proposals
            if path in tree and (proposal := self.proposal(path, tree[path]))
        )

    def proposal(self, path: str, data: bytes) -> dict[str, Any]:
        cached = self.parsed.get(path)
        if cached is None or cached[0] is not data:
            cached = (data, json.loads(data))
            self.parsed[path] = cached
        return cached[1]

    def open_proposals(self, tree: Tree) -> list[dict[str, Any]]:
        found = []
        for path in self.proposals:
            if path in tree:
                proposal = self.proposal(path, tree[path])
                if proposal["decision"] == "open":
                    found.append(proposal)
        return found

    def current(self) -> tuple[Tree, Layout]:
        """The home as the step's command left it (read once per step)."""
        if self.latest is None:
            tree = self.snapshots.read()
            self.latest = (tree, layout(tree))
        return self.latest

    def stale(self, proposal: dict[str, Any], tree: Tree) -> bool:
        """A target changed since the proposal was made (docs: stale, refused)."""
        for change in proposal["changes"]:
            current = tree.get(change["path"])
            digest = None if current is None else hashlib.sha256(current).hexdigest()
            if digest != change["base_sha256"]:
                return True
        return False

    def undone(self, run_id: str) -> bool:
        """Undone by an undo that is itself in effect (an undone undo restores)."""
        return any(r.undoes == run_id and not self.undone(r.run_id) for r in self.runs)

    # -- one operation -----------------------------------------------------------------------
    def pick(self, index: int) -> str:
        if index == 0:
            return "curator"  # the first archive: a proposal …
        if index == 1:
            return "review"  # … approved: consent for most of the sequence
        now = self.place
        possible = {
            "restore": bool(now.archive),
            "review": bool(self.open_proposals(self.tree)),
            "undo": bool(self.runs),
            "unpin": bool(self.pins(self.tree)),
        }
        kinds = [k for k in MIX if possible.get(k, True)]
        return self.rng.choices(kinds, weights=[MIX[k] for k in kinds])[0]

    def step(self, index: int) -> None:
        if index > 0:
            self.tick()
        kind = self.pick(index)
        before, old = self.tree, self.place
        self.latest = None
        self.tidied = set()
        self.log.append(f"#{index} {kind}")
        run_id, undoes = getattr(self, f"op_{kind}")(before)
        after, new = self.current()
        changes = diff(before, after)
        if run_id is None:
            assert not changes, f"{kind} committed no run but changed {sorted(changes)[:5]}"
        created = new.names - old.names
        self.check_layout(new)
        if undoes is None:
            lost = self.expected - new.names
            assert not lost, f"{kind} lost skills {sorted(lost)[:10]}"
            self.check_moves(old, new, kind)
        else:
            target = next(r for r in self.runs if r.run_id == undoes)
            gone = self.expected - new.names
            assert gone <= target.created, f"undo of {undoes} removed {sorted(gone - target.created)}, which it did not create"
            self.expected -= gone
            self.seen["undo_removed_skills"] += len(gone)
        self.expected |= new.names
        if run_id is not None:
            self.runs.append(RunRecord(run_id, f"#{index} {kind}", changes, created, undoes))
        self.proposals += sorted(
            (p for p in changes if p.startswith(f"{REVIEW_DIR}/") and p not in self.proposals),
            key=lambda p: (self.proposal(p, after[p])["created_at"], self.proposal(p, after[p])["title"]) if p in after else ("", p),
        )
        self.log[-1] += f" → {run_id or 'no run'}, {len(changes)} file(s)"
        self.seen[kind] += 1
        self.seen["ops_with_consent"] += self.consented(after)
        self.tree, self.place = after, new

    # -- invariants --------------------------------------------------------------------------
    def check_layout(self, now: Layout) -> None:
        for name, files in now.library.items():
            assert "SKILL.md" in files, f"{LIB}/{name} has files but no SKILL.md: {sorted(files)}"
        for name in now.sidecars:
            assert name in now.library, f"sidecar {LIB}/{name}.provenance.json without its skill"
        for name, entry in now.archive.items():
            assert "archive.json" in entry and "skill/SKILL.md" in entry, f"{ARCH}/{name} is incomplete: {sorted(entry)}"
            stray = [rel for rel in entry if rel not in ("archive.json", "provenance.json") and not rel.startswith("skill/")]
            assert not stray, f"{ARCH}/{name} holds {stray}"
        both = set(now.library) & set(now.archive)
        assert both <= self.relearned, f"in the library and the archive at once: {sorted(both - self.relearned)}"
        assert not self.kept & set(now.archive), f"kept skills archived: {sorted(self.kept & set(now.archive))}"

    def check_moves(self, old: Layout, new: Layout, kind: str) -> None:
        """Skills that moved between library and archive moved byte for byte."""
        for name in sorted(set(old.library) - set(new.library)):
            assert name in new.archive, f"{kind} removed {name} from the library without archiving it"
            entry = new.archive[name]
            if name not in self.tidied:  # the library pass tidies a SKILL.md before the curator moves it
                assert archived_files(entry) == old.library[name], f"{name} archived with other files"
            assert entry.get("provenance.json") == old.sidecars.get(name), f"{name}'s sidecar archived changed"
            self.seen["archived"] += 1
        for name in sorted(set(old.archive) - set(new.archive)):
            assert name in new.library, f"{kind} removed {name} from the archive without restoring it"
            assert new.library[name] == archived_files(old.archive[name]), f"{name} restored with other files"
            assert new.sidecars.get(name) == old.archive[name].get("provenance.json"), f"{name}'s sidecar changed"
            self.seen["restored"] += 1

    def check_curator_moves(self, before: Tree, archived: list[str]) -> None:
        """A curator run (its own or the library pass's) archives only curated, unpinned
        skills, only with consent and within consent_share of the library."""
        if not archived:
            return
        old = self.place
        assert self.consented(before), f"archived {archived} without consent"
        assert len(archived) <= CURATOR["consent_share"] * len(old.library), f"archived {len(archived)} of {len(old.library)}"
        pinned = self.pins(before)
        assert not set(archived) & (pinned | self.kept), f"archived pinned or kept skills: {set(archived) & (pinned | self.kept)}"
        moved = set(old.library) - set(self.current()[1].library)
        assert moved == set(archived), f"the run says it archived {archived}, the tree says {sorted(moved)}"

    # -- operations: each returns (run id or None, the run it undoes or None) -----------------
    def op_curator(self, before: Tree) -> tuple[str | None, str | None]:
        done = self.cli("curator", "--agent", "ada", "--json")
        assert done.code == 0, done.err
        result = done.json()
        if result["proposal"]:
            self.seen["curator_proposed"] += 1
            assert not result["archived"]
        self.check_curator_moves(before, result["archived"])
        self.seen["curator_archived_runs"] += bool(result["archived"])
        return result["run_id"], None

    def op_dry_run(self, before: Tree) -> tuple[str | None, str | None]:
        done = self.cli("curator", "--agent", "ada", "--dry-run", "--json")
        assert done.code == 0, done.err
        shown = done.json()
        library = self.place.library
        assert set(shown["would_archive"]) <= set(library) - self.kept - self.pins(before)
        assert set(library) <= {row["name"] for row in shown["skills"]}
        return None, None

    def op_library(self, before: Tree) -> tuple[str | None, str | None]:
        done = self.cli("once", "--agent", "ada", "--pass", "library_maintenance", "--json")
        assert done.code == 0, done.err
        result = done.json()
        (entry,) = result["passes"]
        assert entry["model_calls"] == 0, entry["reason"]
        assert not entry["duplicates"] and not entry["quarantined"], entry["reason"]
        curator = entry["curator"]
        assert curator is not None, entry["reason"]
        self.check_curator_moves(before, curator["archived"])
        # no step of the pass (a merge of duplicates included) deletes or renames a pinned skill
        gone = (self.pins(before) & set(self.place.library)) - set(self.current()[1].library)
        assert not gone, f"the library pass removed pinned skills {sorted(gone)}"
        self.tidied = {item["name"] for item in entry["tidied"]}
        self.seen["library_tidied"] += len(self.tidied)
        return (result["run_id"] if result["files_changed"] else None), None

    def op_scout(self, before: Tree) -> tuple[str | None, str | None]:
        now = self.place
        words = [self.words.word() for _ in range(24)]
        text = " ".join(f"{words[i]} the {words[i + 1]}." for i in range(0, 24, 2))
        pairs = [(f"Please do it this way: {text}", f"Done, step {n}") for n in range(4)]
        day = self.now.date().isoformat()
        write_transcript(self.home, f"chaos-{self.seen['scout']}.jsonl", conversation(pairs, day=day))
        steps = iter(f"{words[i]} the {words[i + 1]}" for i in range(0, 24, 2))
        archived_only = sorted(set(now.archive) - set(now.library))
        unforked = [n for n in self.pack if n not in now.library]
        script: list[dict[str, Any]] = []
        for _ in range(self.rng.randint(1, 4)):
            roll = self.rng.random()
            if roll < 0.35:
                script.append(candidate("create", self.words.name(), description=f"{self.words.word()}.", steps=[next(steps)]))
            elif roll < 0.6 and archived_only:
                name = self.rng.choice(archived_only)
                if self.rng.random() < 0.3:
                    name += "s"  # near-identical to the archived name: the same rule
                    self.words.names.append(name)
                script.append(candidate("create", name, description=f"{self.words.word()}.", steps=[next(steps)]))
            elif roll < 0.85:
                script.append(candidate("update", self.rng.choice(sorted(now.library)), steps=[next(steps)]))
            elif roll < 0.93 and unforked:
                script.append(candidate("update", self.rng.choice(unforked), steps=[next(steps)]))
            elif archived_only:
                script.append(candidate("update", self.rng.choice(archived_only), steps=[next(steps)]))
        self.model.reply({"candidates": script}, schema="ScoutResponse")
        done = self.cli("once", "--agent", "ada", "--pass", "skill_learning", "--json")
        assert done.code == 0, done.err
        assert self.model.pending() == 0, "the scout did not ask the model"
        result = done.json()
        (entry,) = result["passes"]
        # What each candidate must come to (skills_engine/candidates.py), in order.
        serving = set(now.library) | set(self.pack)
        named: set[str] = set()  # created or proposed earlier in this answer
        after = self.current()[1]
        for sent, got in zip(script, entry["candidates"], strict=True):
            name = sent["name"]
            if sent["action"] == "create":
                if near_identical(name, serving | named):
                    expected = "stopped-near-duplicate"
                elif near_identical(name, set(now.archive)):
                    expected = "proposed"
                else:
                    expected = "created"
                named.add(name)
            elif name in now.library or (name in self.pack and name in after.library and name not in unforked):
                expected = "updated"
            elif name in self.pack:
                expected = "forked"
                unforked.remove(name)
                self.kept.add(name)
            else:
                expected = "refused"
            assert got["outcome"] == expected, f"{sent['action']} {name}: {got['outcome']} ({got['reason']}), expected {expected}"
            if expected == "proposed":
                assert name not in after.library, f"{name} was archived: it must be proposed, never written"
            self.seen[f"scout_{expected}"] += 1
        return (result["run_id"] if result["files_changed"] else None), None

    def op_pin(self, before: Tree) -> tuple[str | None, str | None]:
        now = self.place
        if self.rng.random() < 0.05:
            done = self.cli("skills", "pin", "no-such-skill", "--agent", "ada", "--json")
            assert done.code == 1 and "no skill 'no-such-skill'" in done.err
            return None, None
        name = self.rng.choice(sorted(now.names))
        done = self.cli("skills", "pin", name, "--agent", "ada", "--json")
        assert done.code == 0, done.err
        assert (done.json()["run_id"] is None) == (name in self.pins(before))
        return done.json()["run_id"], None

    def op_unpin(self, before: Tree) -> tuple[str | None, str | None]:
        pinned = sorted(self.pins(before))
        name = self.rng.choice(pinned) if self.rng.random() < 0.85 else self.rng.choice(sorted(self.place.names))
        done = self.cli("skills", "unpin", name, "--agent", "ada", "--json")
        assert done.code == 0, done.err
        assert (done.json()["run_id"] is None) == (name not in pinned)
        return done.json()["run_id"], None

    def op_restore(self, before: Tree) -> tuple[str | None, str | None]:
        now = self.place
        if self.rng.random() < 0.05:
            name = self.rng.choice(sorted(set(now.library) - set(now.archive)))
            done = self.cli("skills", "restore", name, "--agent", "ada", "--json")
            assert done.code == 1 and f"no archived skill {name!r}" in done.err
            return None, None
        name = self.rng.choice(sorted(now.archive))
        done = self.cli("skills", "restore", name, "--agent", "ada", "--json")
        if name in now.library:
            assert done.code == 1 and f"already holds a skill {name!r}" in done.err, done.err
            self.seen["restore_refused"] += 1
            return None, None
        assert done.code == 0, done.err
        return done.json()["run_id"], None

    def op_review(self, before: Tree) -> tuple[str | None, str | None]:
        waiting = self.open_proposals(before)
        archives = [p for p in waiting if p["kind"] == "skill-archive"]
        proposal = self.rng.choice(archives if archives and self.rng.random() < 0.6 else waiting)
        stale = self.stale(proposal, before)
        # An archive proposal never moves a skill pinned since it was made.
        pinned = proposal["kind"] == "skill-archive" and bool(
            {e.split("/")[-1] for e in proposal["evidence"]} & self.pins(before)
        )
        refused = stale or pinned
        # Consent first (most of the sequence runs with it); otherwise approve or reject at random.
        if not refused and proposal["kind"] == "skill-archive" and not self.consented(before):
            verb = "approve"
        else:
            verb = "approve" if self.rng.random() < (0.2 if refused else 0.6) else "reject"
        done = self.cli("review", verb, proposal["id"], "--agent", "ada", "--json")
        if verb == "approve" and refused:
            assert done.code == 1 and "nothing changed" in done.err, done.err
            assert "is stale" in done.err or "pinned since" in done.err, done.err
            self.seen["review_refused"] += 1
            return None, None
        assert done.code == 0, done.err
        self.seen[f"review_{verb}_{proposal['kind']}"] += 1
        if verb == "approve":
            for change in proposal["changes"]:
                if change["path"].endswith("/SKILL.md") and change["path"].startswith(f"{LIB}/"):
                    name = change["path"].split("/")[1]
                    if name in self.place.archive:
                        self.relearned.add(name)
        return done.json()["run_id"], None

    def op_undo(self, before: Tree) -> tuple[str | None, str | None]:
        roll = self.rng.random()
        if roll < 0.4:
            target = self.runs[-1]
        elif roll < 0.8:
            target = self.rng.choice(self.runs[-10:])
        else:
            target = self.rng.choice(self.runs)
        undone = self.undone(target.run_id)
        unchanged_since = all(before.get(p) == after for p, (_, after) in target.touched.items())
        must = bool(target.touched) and not undone and unchanged_since
        done = self.cli("undo", target.run_id, "--json")
        if done.code != 0:
            assert done.code == 1, done.err
            assert not must, f"undo of {target.label} ({target.run_id}) refused though nothing changed its files since: {done.err}"
            assert self.current()[0] == before, "a refused undo changed files"
            self.seen["undo_refused"] += 1
            return None, None
        assert not undone, f"{target.run_id} was undone already, and undone again"
        after = self.current()[0]
        expected = dict(before)
        for path, (theirs, base) in target.touched.items():
            ours = before.get(path)
            if ours == base:
                result = theirs  # unchanged since: back byte for byte
            elif ours == theirs:
                result = ours
            else:
                assert None not in (ours, base, theirs), f"{path}: undo applied over a later add or delete"
                assert ours is not None and base is not None and theirs is not None
                result = merged(ours, base, theirs)
                assert result is not None, f"{path}: undo applied over conflicting later changes"
                self.seen["undo_merged_files"] += 1
            if result is None:
                expected.pop(path, None)
            else:
                expected[path] = result
        wrong = sorted(p for p in set(expected) | set(after) if expected.get(p) != after.get(p))
        assert not wrong, f"undo of {target.label} ({target.run_id}) is not exact for {wrong[:10]}"
        self.seen["undo_exact" if must else "undo_exact_after_later_runs"] += 1
        return done.json()["run_id"], target.run_id


@pytest.mark.slow
@pytest.mark.timeout(900)  # 3.5 min in a full run, more on a loaded machine: past the 5-minute default
def test_a_thousand_random_operations_lose_no_skill_and_every_undo_is_exact(
    root: Path, fake_model: FakeModelServer
) -> None:
    chaos = Chaos(root, fake_model)
    # Unmeasured: the curator's, scout's and undo's own tests cover what these operations run,
    # and tracing every line of a thousand runs would double the suite's longest test.
    with unmeasured():
        for index in range(OPERATIONS):
            try:
                chaos.step(index)
            except AssertionError as exc:
                trail = "\n".join(chaos.log[-12:])
                raise AssertionError(
                    f"chaos seed {SEED} (replay: METAENG_CHAOS_SEED={SEED}), operation {index}: {exc}\n"
                    f"the operations before it:\n{trail}"
                ) from exc
    seen = chaos.seen
    # The sequence really went everywhere it is meant to go.
    for what, least in (
        ("ops_with_consent", 900),
        ("archived", 100),
        ("restored", 30),
        ("curator_archived_runs", 20),
        ("curator_proposed", 2),
        ("scout_created", 15),
        ("scout_proposed", 10),
        ("scout_updated", 15),
        ("scout_forked", 2),
        ("undo_exact", 50),
        ("undo_exact_after_later_runs", 5),
        ("undo_refused", 20),
        ("undo_removed_skills", 1),
        ("review_approve_skill-archive", 1),
        ("review_approve_skill-create", 1),
    ):
        assert seen[what] >= least, f"only {seen[what]} {what} in {dict(seen)}"


# -- cases the chaos sequence found ---------------------------------------------------------

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def idle_library(root: Path, skills: dict[str, dict[str, bytes | str]], busy: int = 0) -> Callable[..., CliResult]:
    """`skills` (name → extra files), learned by the daemon in June and never used since,
    and `busy` more used yesterday; 100 sessions seen. Returns the CLI at NOW."""
    config = skills_config(root, None)
    home = root / "ada"
    names = {**skills, **{f"busy-{chr(ord('a') + n)}": {} for n in range(busy)}}
    for name, files in names.items():
        make_skill(home / LIB, name, skill_md(name, description=f"Handle {name}. Use when asked."), files)
        write = sidecar_write(LIB, Provenance(name=name, kind="created", created_at="2026-06-01T10:00:00+00:00"))
        (home / write.path).write_bytes(write.content)
    used = {"count": 3, "sessions": 2, "first": "2026-11-19T09:00:00+00:00", "last": "2026-11-19T09:00:00+00:00", "mark": 99}
    record = {"version": 1, "sessions_seen": 100, "sessions_by_day": {"2026-06-02": 100}}
    record["skills"] = {name: used for name in names if name.startswith("busy-")}
    usage = root / "state" / "agents" / "ada" / "usage.json"
    usage.parent.mkdir(parents=True, exist_ok=True)
    usage.write_text(json.dumps(record))

    def cli(*args: str) -> CliResult:
        return run_cli(config, *args, clock=lambda: NOW)

    assert cli("once", "--agent", "ada", "--pass", "workspace_consolidation").code == 0
    return cli


def test_an_empty_file_moves_with_its_skill_when_the_archive_is_approved(tmp_path: Path) -> None:
    cli = idle_library(tmp_path, {"alpha": {"scripts/__init__.py": ""}, "beta": {}})
    proposal = cli("curator", "--agent", "ada", "--json").json()["proposal"]
    assert cli("review", "approve", proposal, "--agent", "ada").code == 0
    home = tmp_path / "ada"
    assert not (home / LIB / "alpha").exists()
    assert (home / ARCH / "alpha" / "skill" / "scripts" / "__init__.py").read_bytes() == b""


def test_archiving_a_skill_learned_again_replaces_its_older_archive_whole(tmp_path: Path) -> None:
    from skills_engine.archive import ArchiveRecord

    home = tmp_path / "ada"
    older = home / ARCH / "omega"
    make_skill(older, "skill", skill_md("omega", description="Old omega. Use when asked."), {"scripts/run.sh": "echo old\n"})
    record = ArchiveRecord(
        name="omega", why="never used", uses=0, last_use=None, sessions_since=70, days_since=120,
        archived_at="2026-10-01T00:00:00+00:00", run_id=None, moved_from=f"{LIB}/omega",
    )
    (older / "archive.json").write_text(record.model_dump_json())
    cli = idle_library(tmp_path, {"omega": {}, "sigma": {}})  # omega learned again since
    proposal = cli("curator", "--agent", "ada", "--json").json()["proposal"]
    assert cli("review", "approve", proposal, "--agent", "ada").code == 0
    assert not (older / "skill" / "scripts" / "run.sh").exists()


def test_a_skill_with_a_binary_file_does_not_block_the_first_archive(tmp_path: Path) -> None:
    icon = b"\x89PNG\r\n\x1a\n\x00\x00"
    cli = idle_library(tmp_path, {"gamma": {"assets/icon.png": icon}, "delta": {}}, busy=9)
    result = cli("curator", "--agent", "ada", "--json").json()
    assert result["proposal"], result  # delta's archive: a proposal holds text only
    assert cli("review", "approve", result["proposal"], "--agent", "ada").code == 0
    assert cli("curator", "--agent", "ada", "--json").json()["archived"] == ["gamma"]  # consented now
    assert (tmp_path / "ada" / ARCH / "gamma" / "skill" / "assets" / "icon.png").read_bytes() == icon


def test_a_skill_going_stale_after_the_proposal_does_not_block_the_archive(tmp_path: Path) -> None:
    cli = idle_library(tmp_path, {"eta": {}, "theta": {}})
    home = tmp_path / "ada"
    first = cli("curator", "--agent", "ada", "--json").json()["proposal"]
    make_skill(home / LIB, "kappa", skill_md("kappa", description="Handle kappa. Use when asked."))
    write = sidecar_write(LIB, Provenance(name="kappa", kind="created", created_at="2026-10-01T10:00:00+00:00"))
    (home / write.path).write_bytes(write.content)
    usage = tmp_path / "state" / "agents" / "ada" / "usage.json"
    record = {"version": 1, "sessions_seen": 125, "sessions_by_day": {"2026-06-02": 100, "2026-10-15": 25}}
    usage.write_text(json.dumps(record))
    assert cli("curator", "--agent", "ada", "--json").json()["newly_stale"] == ["kappa"]
    assert cli("review", "approve", first, "--agent", "ada").code == 0
    assert not (home / LIB / "eta").exists() and (home / ARCH / "eta" / "skill" / "SKILL.md").exists()


def test_a_skill_pinned_after_the_archive_was_proposed_is_not_moved_by_the_approval(tmp_path: Path) -> None:
    cli = idle_library(tmp_path, {"eps": {}, "zeta": {}})
    proposal = cli("curator", "--agent", "ada", "--json").json()["proposal"]
    assert cli("skills", "pin", "eps", "--agent", "ada").code == 0
    refused = cli("review", "approve", proposal, "--agent", "ada")
    assert refused.code == 1 and "eps was pinned since" in refused.err
    assert (tmp_path / "ada" / LIB / "eps" / "SKILL.md").exists()

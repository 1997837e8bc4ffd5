"""What a run's page reads from an agent's store: the run, and who blocks its undo (the list
of runs is `run_search`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from daemon.config.resolve import Deployment
from daemon.doors.console.diff import FileDiff, split_patch
from daemon.doors.console.run_summary import FileSummary, is_internal, summarise
from daemon.kernel.errors import UnknownRun
from daemon.run.revert import RunCommit, find_run, session_index
from daemon.run.session import has_store as session_has_store
from daemon.run.session import read_session
from daemon.run.store_index import IndexedCommit


@dataclass(frozen=True)
class RunRow(RunCommit):
    """A run as the Runs pages show it: the store's run and its agent."""

    agent: str = ""

    @property
    def passes(self) -> list[str]:
        return [p for p in self.info.trailers.get("Passes", "").split(",") if p]

    @property
    def cost_usd(self) -> str:
        return self.info.trailers.get("Cost-USD", "0")

    @property
    def model_calls(self) -> str:
        return self.info.trailers.get("Model-Calls", "0")


def has_store(deployment: Deployment, agent: str) -> bool:
    return session_has_store(deployment, agent)


@dataclass(frozen=True)
class CitedTurn:
    turn: str
    quote: str
    what: str


@dataclass
class RunDetail:
    row: RunRow
    report: str
    files: list[FileDiff]
    cited: list[CitedTurn] = field(default_factory=list)
    summary: list[FileSummary] = field(default_factory=list)
    fact_store: str = ""

    @property
    def internal_paths(self) -> set[str]:
        return {f.path for f in self.files if is_internal(f.path, self.fact_store)}

    @property
    def person_files(self) -> list[FileDiff]:
        internal = self.internal_paths
        return [f for f in self.files if f.path not in internal]

    @property
    def internal_files(self) -> list[FileDiff]:
        internal = self.internal_paths
        return [f for f in self.files if f.path in internal]


def cited_turns(files: Iterable[FileDiff]) -> list[CitedTurn]:
    """Turns cited by records the run added (fact lines carry `source_event_id` and `quote`)."""
    found: dict[str, CitedTurn] = {}
    for diff in files:
        for line in diff.lines:
            if line.kind != "add":
                continue
            try:
                record = json.loads(line.text[1:])
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("source_event_id"), str):
                turn = record["source_event_id"]
                what = f"{record.get('entity', '')}.{record.get('key', '')} = {record.get('value', '')}"
                found.setdefault(turn, CitedTurn(turn, str(record.get("quote") or ""), what))
    return list(found.values())


def run_detail(deployment: Deployment, agent: str, run_id: str) -> RunDetail:
    """One run's report, per-file diff and summary, and cited turns; raises UnknownRun."""
    fact_store = deployment.agent(agent).memory.store
    if not has_store(deployment, agent):
        raise UnknownRun(run_id)
    with read_session(deployment, agent) as session, session_index(session) as index:
        run = find_run(index, run_id)
        info = session.store.commit_info(run.info.sha)  # the index keeps no commit body
        row = RunRow(info, run.files_changed, run.undone_by, run.seq, agent)
        files = split_patch(session.store.show(info.sha))
        return RunDetail(row, info.report, files, cited_turns(files), summarise(files, fact_store), fact_store)


@dataclass(frozen=True)
class Blocker:
    label: str  # "run <id>" or "a person's edit (<sha>)"
    run_id: str | None
    files: list[str]


def blockers(deployment: Deployment, agent: str, run_id: str, files: Sequence[str]) -> list[Blocker]:
    """Later commits (runs, or people's edits the store recorded) touching `files`, newest first."""
    found: dict[int, tuple[IndexedCommit, set[str]]] = {}
    with read_session(deployment, agent) as session, session_index(session) as index:
        run = find_run(index, run_id)
        for path, later in index.touched_after(run.seq, files).items():
            for commit in later:
                found.setdefault(commit.seq, (commit, set()))[1].add(path)
    blocking: list[Blocker] = []
    for _seq, (commit, paths) in sorted(found.items(), reverse=True):
        later_id = commit.info.run_id
        label = f"run {later_id}" if later_id else f"a person's edit ({commit.info.sha[:10]}: {commit.info.subject})"
        blocking.append(Blocker(label, later_id, sorted(paths)))
    return blocking

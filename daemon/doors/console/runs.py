"""What the Runs pages read from an agent's store: the list, one run, and who blocks an undo."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from daemon.config.resolve import Deployment
from daemon.doors.console.diff import FileDiff, split_patch
from daemon.kernel.errors import UnknownRun
from daemon.run.revert import RunCommit, find_run, session_index
from daemon.run.session import has_store as session_has_store
from daemon.run.session import read_session
from daemon.run.store_index import IndexedCommit, RunIndex

PAGE = 50


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


def _rows(index: RunIndex, agent: str) -> Iterator[RunRow]:
    """Runs newest first with who undid them, from the run index (never a walk of history)."""
    for entry in index.runs():  # who undid a run is asked only for the rows a page keeps
        undone = index.undone_by(entry.info.trailers["Run-Id"])
        yield RunRow(entry.info, entry.files_changed, undone, entry.seq, agent)


def has_store(deployment: Deployment, agent: str) -> bool:
    return session_has_store(deployment, agent)


def list_runs(
    deployment: Deployment, agents: Sequence[str], pass_name: str | None, limit: int = PAGE
) -> list[RunRow]:
    """The newest `limit` runs per agent (only those including `pass_name` if given), newest first."""
    rows: list[RunRow] = []
    for name in agents:
        if not has_store(deployment, name):
            continue
        with read_session(deployment, name) as session, session_index(session) as index:
            count = 0
            for row in _rows(index, name):
                if pass_name and pass_name not in row.passes and pass_name != row.kind:
                    continue
                rows.append(row)
                count += 1
                if count >= limit:
                    break
    return sorted(rows, key=lambda r: r.info.committed_at, reverse=True)


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
    """One run's report, per-file diff and cited turns; raises UnknownRun."""
    deployment.agent(agent)
    if not has_store(deployment, agent):
        raise UnknownRun(run_id)
    with read_session(deployment, agent) as session, session_index(session) as index:
        run = find_run(index, run_id)
        info = session.store.commit_info(run.info.sha)  # the index keeps no commit body
        row = RunRow(info, run.files_changed, run.undone_by, run.seq, agent)
        files = split_patch(session.store.show(info.sha))
        return RunDetail(row, info.report, files, cited_turns(files))


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

"""The Runs page's list: one page of runs over every agent's store, filtered and searched.

Everything comes from the run index (`daemon.run.store_index`): the filter by pass and the
search by changed path are index queries; the search in the run's report (its commit
message, trailers included) is one `git log --grep` per agent store. No run's diff is
read, so a page stays fast at 10,000 runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass

from daemon.config.resolve import Deployment
from daemon.doors.console.runs import RunRow, has_store
from daemon.kernel.errors import AgentBusy, StoreError
from daemon.run.revert import session_index
from daemon.run.session import read_session
from daemon.run.store import StoreSession
from daemon.run.store_index import IndexedCommit, RunIndex

PAGE = 50
MAX_PAGE = 200


@dataclass(frozen=True)
class RunQuery:
    """What the Runs page asks for: its URL's `agent`, `pass`, `q`, `page` and `size`."""

    agents: tuple[str, ...]
    pass_name: str | None = None
    text: str | None = None
    page: int = 1
    size: int = PAGE

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.size


@dataclass(frozen=True)
class RunPage:
    rows: list[RunRow]
    has_newer: bool
    has_older: bool
    problems: list[str]  # stores that could not be read (one being created by a first run, say)


def message_matches(store: StoreSession, text: str) -> list[str]:
    """Commits (first-parent, from HEAD) whose message contains `text`, ignoring case."""
    if store.head() is None:
        return []
    out = store.text("log", "--first-parent", "-i", "-F", f"--grep={text}", "--format=%H", "HEAD", "--")
    return out.split()


def _matching(index: RunIndex, store: StoreSession, agent: str, query: RunQuery, limit: int) -> list[IndexedCommit]:
    text = query.text
    if text and text.lower() in agent.lower():
        text = None  # the agent's name matches: every run of the agent does
    shas = message_matches(store, text) if text else []
    return index.matching_runs(limit, pass_name=query.pass_name, path_part=text, shas=shas)


def run_page(deployment: Deployment, query: RunQuery) -> RunPage:
    """The runs of page `query.page`, newest first across the agents, and whether there are
    newer and older pages. Each agent's index answers with at most offset + size + 1 runs."""
    limit = query.offset + query.size + 1
    with ExitStack() as stack:
        found: list[tuple[IndexedCommit, str, RunIndex]] = []
        problems: list[str] = []
        for name in query.agents:
            try:
                if not has_store(deployment, name):
                    continue
                session = stack.enter_context(read_session(deployment, name))
                index = stack.enter_context(session_index(session))
                found.extend((entry, name, index) for entry in _matching(index, session.store, name, query, limit))
            except (AgentBusy, StoreError) as exc:
                problems.append(f"the runs of agent {name} could not be read: {exc}")
        found.sort(key=lambda f: (f[0].info.committed_at, f[1], f[0].seq), reverse=True)
        kept = found[query.offset : query.offset + query.size]
        # who undid a run is asked only for the rows the page shows
        rows = [
            RunRow(entry.info, entry.files_changed, index.undone_by(entry.info.trailers["Run-Id"]), entry.seq, name)
            for entry, name, index in kept
        ]
    return RunPage(rows, query.page > 1, len(found) > query.offset + query.size, problems)


def parse_query(agents: Sequence[str], params: dict[str, str]) -> RunQuery:
    """A RunQuery from the page's URL parameters; a page or size that is not a number is 1 or PAGE."""
    return RunQuery(
        agents=tuple(agents),
        pass_name=params.get("pass") or None,
        text=(params.get("q") or "").strip() or None,
        page=max(1, _number(params.get("page"), 1)),
        size=min(MAX_PAGE, max(1, _number(params.get("size"), PAGE))),
    )


def _number(text: str | None, default: int) -> int:
    try:
        return int(text) if text else default
    except ValueError:
        return default

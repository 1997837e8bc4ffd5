"""Reading an agent's facts through the persistent query index, for every door alike.

`memory query|list`, the MCP tools and the console's Memory page all answer from the index
in the state folder (memory_engine/fact_index.py), never by loading the whole store: at
100k facts a whole load takes seconds, a lookup milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from daemon.kernel.paths import StateLayout
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from memory_engine.agent_memory import schema_for, settings_for
from memory_engine.fact_index import FactIndex
from memory_engine.fact_index_open import open_index
from memory_engine.memory import Memory, QueryResult
from memory_engine.records import FactRecord


def _runs(state_dir: Path, agent: AgentSettings) -> Callable[[], tuple[bool, object]]:
    """(a run is being applied, a token of the store's refs): lets the index skip a half-applied run."""
    state = StateLayout(state_dir).agent(agent.name)

    def look() -> tuple[bool, object]:
        refs = [state.git_dir / "HEAD", state.git_dir / "packed-refs"]
        heads = state.git_dir / "refs" / "heads"
        if heads.is_dir():
            refs += sorted(heads.iterdir())
        stamps = []
        for ref in refs:
            try:
                st = ref.stat()
            except OSError:
                continue
            stamps.append((ref.name, st.st_mtime_ns, st.st_ino, st.st_size))
        return state.journal.exists(), tuple(stamps)

    return look


@contextmanager
def fact_index(state_dir: Path, agent: AgentSettings) -> Iterator[FactIndex]:
    """The agent's index, current with its store (a read never creates the state folder)."""
    path = StateLayout(state_dir).agent(agent.name).fact_index
    with open_index(path, agent.home, agent.memory.store, _runs(state_dir, agent)) as index:
        yield index


def answer(state_dir: Path, agent: AgentSettings, entity: str, key: str, as_of: str, text: str) -> QueryResult:
    """The memory's own query over the candidates the index hands it (same ranking, same answer)."""
    settings, _origin = settings_for(agent, AgentView(agent.home))
    with fact_index(state_dir, agent) as index:
        candidates = index.records(
            agent.owner,
            entity if settings.filter_entity else None,
            as_of if settings.time_aware else None,
        )
    memory = Memory.from_records(candidates, settings, schema_for(agent), lambda _p, _e: "")
    return memory.query(agent.owner, entity, key, as_of, text)


def prefilter(words: list[str]) -> tuple[str, ...]:
    """The words the index can look for in a stored line as they are (ASCII, nothing JSON escapes)."""
    return tuple(w for w in words if w.isascii() and w.isprintable() and '"' not in w and "\\" not in w)


def history(state_dir: Path, agent: AgentSettings, entity: str, key: str) -> list[FactRecord]:
    """Every stored version of (entity, key), closed ones included, oldest first."""
    with fact_index(state_dir, agent) as index:
        versions = [r for r in index.records(agent.owner, entity) if r.key == key]
    return sorted(versions, key=lambda r: (r.valid_from, r.id))

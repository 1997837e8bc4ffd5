"""The pass interface: `plan(context) -> Changeset`. Only the runner writes.

A pass declares where it may write (`write_scope`) and which memory-lock behaviour it
needs; the runner enforces both, so a pass that tries to write elsewhere — or a model
that talks a pass into it — is refused by construction, not by instruction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal, Protocol

from daemon.kernel.changeset import Changeset
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.model.deep_tier import DeepTier
from daemon.transcripts.cursors import CursorFile
from daemon.transcripts.usage import UsageLog

MemoryLockMode = Literal["none", "try", "wait"]


def _quiet(_line: str) -> None:
    return None


@dataclass(frozen=True)
class PassContext:
    agent: AgentSettings
    view: AgentView
    deep: DeepTier
    cursors: CursorFile
    now: datetime
    run_id: str
    # Progress of long work, one line at a time (`once` prints it on stderr); passes never print.
    progress: Callable[[str], None] = _quiet
    # The agent's fact query index (state folder), for passes that render the facts view.
    fact_index: Path | None = None
    # Where the turns the pass reads leave what the agent used in them (the runner records it).
    usage: UsageLog | None = None
    # The agent's usage record as of the run's start (the skill curator reads it).
    usage_record: Path | None = None
    # What the last `impact` found of the learned skills (the skill curator reads it).
    impact_skills: Path | None = None


class Pass(Protocol):
    name: str
    uses_model: bool
    # "try": back off (skip, offsets kept) if the memory lock is held; "wait": hold it.
    memory_lock: MemoryLockMode

    def write_scope(self, agent: AgentSettings) -> ManagedPaths: ...

    def plan(self, context: PassContext) -> Changeset: ...

"""Early wakes: new transcript bytes may bring an agent's transcript job forward.

A hint (a file event, or the periodic reconciliation scan) only makes the agent a
candidate. The job is brought forward when all of these hold:
- the agent has a scheduled transcript job, and it is not running right now;
- `wake_min_gap_seconds` have passed since its last transcript run started;
- at least `MIN_NEW_TURNS` complete turns wait (fewer would be committed unanalysed,
  docs/explanation/transcripts.md, so waking for them would waste them).
The run itself is the ordinary job: daily deep caps and budgets apply as always.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

import structlog

from daemon.doors.service.inputs import has_new_input, pending_turns
from daemon.doors.service.jobs import JobRunner
from daemon.doors.service.table import JobTable
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.transcripts.reader import MIN_NEW_TURNS

log = structlog.get_logger("metaeng.wake")


class Waker:
    def __init__(self, table: JobTable, runner: JobRunner) -> None:
        self.table = table
        self.runner = runner
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._last_rescan = time.monotonic()
        self.wakes = 0
        self._deferred: set[str] = set()  # agents held back by the minimum gap (logged once)

    def hint(self, agents: Iterable[str]) -> None:
        with self._lock:
            self._pending.update(agents)

    def tick(self) -> None:
        """Consider every hinted agent; every `rescan_seconds`, hint them all."""
        settings = self.runner.deployment.config.service
        if time.monotonic() - self._last_rescan >= settings.rescan_seconds:
            self._last_rescan = time.monotonic()
            self.hint(spec.agent for spec in self.table.specs.values() if spec.group == "transcripts")
        with self._lock:
            agents, self._pending = self._pending, set()
        keep = [agent for agent in sorted(agents) if not self._consider(agent)]
        self.hint(keep)

    def _consider(self, agent: str) -> bool:
        """Wake the agent's transcript job if warranted; False = look again at the next tick."""
        if self.runner.stopping.is_set():
            return True
        spec = self.table.specs.get(f"transcripts:{agent}")
        deployment = self.runner.deployment
        settings = deployment.agents.get(agent)
        if spec is None or settings is None:
            return True
        if self.runner.is_busy(agent):
            return False
        now = self.runner.clock()
        last = self.runner.last_transcript_start.get(agent)
        # A last run stamped in the future (a clock corrected back) defers nothing.
        if last is not None and 0 <= (now - last).total_seconds() < deployment.config.service.wake_min_gap_seconds:
            if agent not in self._deferred:
                self._deferred.add(agent)
                log.info("wake.deferred", agent=agent, reason="wake_min_gap_seconds since the last transcript run")
            return False
        self._deferred.discard(agent)
        state = StateLayout(deployment.state_dir).agent(agent)
        try:
            if not has_new_input(settings, state, spec.passes):
                return True
            waiting = pending_turns(settings, state, spec.passes[0], now)
        except (DaemonError, OSError) as exc:
            log.warning("wake.check_failed", agent=agent, error=str(exc))
            return True
        if waiting >= MIN_NEW_TURNS and self.table.bring_forward(spec.id, now):
            self.wakes += 1
            log.info("wake.early", agent=agent, job=spec.id, pending_turns=waiting)
        return True

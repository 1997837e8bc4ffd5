"""`metaeng-daemon run`: the long-running process (docs/explanation/service.md).

The main thread owns the signal flags, the systemd notifications and short sleeps; the
scheduler runs jobs in its thread pool and the transcript watcher in its own thread.

    signal flags ─► load + validate config ─► daemon lock ─► recover interrupted runs
    ─► scheduler jobs ─► watcher armed ─► READY=1 ─► loop { reload on SIGHUP, watchdog,
    state file } ─► SIGTERM: STOPPING=1, no new jobs, wait for runs in progress (bounded) ─► exit

The signal flags come first (`daemon.launch` installs them before the imports, `serve`
adopts them): a SIGTERM during start-up ends it at the next step with exit 0 (130 for
SIGINT) and no READY; a SIGHUP during start-up is a reload right after READY.

A run is never cut in half by us: we wait for it. If it outlasts
`service.stop_timeout_seconds` the process exits anyway, and the run's journal rolls it
back at the next start (the same recovery that covers kill -9).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import structlog
from filelock import FileLock, Timeout

from daemon.config import load_deployment
from daemon.config.resolve import Deployment
from daemon.doors.environment import model_access
from daemon.doors.service import daemon_json
from daemon.doors.service.heartbeat import Heartbeat
from daemon.doors.service.jobs import JobRunner
from daemon.doors.service.notify import notify, watchdog_seconds
from daemon.doors.service.people import Notices, start_console
from daemon.doors.service.runlog import last_started
from daemon.doors.service.schedule import (
    GROUPS,
    STORE_MAINTENANCE,
    JobSpec,
    first_run,
    job_specs,
    why_nothing_scheduled,
)
from daemon.doors.service.self_report import daemon_state, status_text
from daemon.doors.service.signals import Flags, install
from daemon.doors.service.table import JobTable
from daemon.doors.service.wake import Waker
from daemon.doors.service.watch_slot import ARM_WAIT_SECONDS, WatchSlot
from daemon.kernel.errors import AgentBusy, DaemonError
from daemon.kernel.paths import StateLayout
from daemon.passes.protocol import Pass
from daemon.run.session import agent_session
from daemon.run.store_maintenance import last_maintenance
from daemon.wiring.derived import delivering

if TYPE_CHECKING:
    from daemon.doors.console.http_server import ConsoleThread

log = structlog.get_logger("metaeng.daemon")
LOOP_SECONDS = 0.2
STATE_WRITE_SECONDS = 2.0
STATUS_TEXT_SECONDS = 30.0
LOCK_WAIT_SECONDS = 1.0
LOCK_CHECK_SECONDS = 5.0
STATE_LOST = "STATE_LOST"  # a stop reason beside the signal names: the daemon lock was lost


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class AlreadyRunning(DaemonError):
    def __init__(self, lock: Path) -> None:
        super().__init__(
            f"another metaeng-daemon is already running on this state directory (it holds {lock}); "
            "two schedulers on one state would run jobs twice"
        )


@dataclass(frozen=True)
class Exit:
    code: int
    immediate: bool = False  # runs still going: leave without waiting for their threads


class Service:
    def __init__(
        self,
        config_path: Path,
        deployment: Deployment,
        registry: Mapping[str, Pass],
        env: Mapping[str, str],
        clock: Callable[[], datetime],
        flags: Flags,
    ) -> None:
        self.config_path = config_path
        self.env = env
        self.clock = clock
        self.registry = registry
        self.layout = StateLayout(deployment.state_dir)
        self.flags = flags
        self.runner = JobRunner(deployment, registry, env, clock)
        self.table = JobTable(self.runner, deployment.config.service.max_parallel_runs)
        self.runner.retry = self.table.retry
        self.waker = Waker(self.table, self.runner)
        self.heartbeat = Heartbeat(lambda: self.runner.deployment, clock)
        self.watch = WatchSlot(self.waker.hint, self.waker.tick)
        self.console: ConsoleThread | None = None  # the web console, when `console:` is set
        self.notices = Notices(deployment.state_dir, env, clock)  # `notify:`, its outbox and late sender
        self.started_at = clock()
        self.watchdog = watchdog_seconds(env, os.getpid())
        self._last_ping = 0.0
        self._last_state = 0.0
        self._last_status = 0.0
        self._lock_identity = _identity(self.layout.daemon_lock)  # taken by run_service before this
        self._last_lock_check = time.monotonic()

    # -- start ---------------------------------------------------------------------------
    def serve(self) -> Exit:
        if self._start():
            while self.flags.stop is None:
                time.sleep(LOOP_SECONDS)
                if self.flags.reload:
                    self.flags.reload = False
                    self._reload()
                self._housekeeping()
        assert self.flags.stop is not None
        return self._stop(self.flags.stop)

    def _start(self) -> bool:
        """Start everything and send READY; False (nothing ready) if a stop arrived meanwhile."""
        deployment = self.runner.deployment
        notify(self.env, "STATUS=starting: recovering interrupted runs, building the schedule")
        self.table.start()  # paused: no job fires before READY
        self._recover(deployment)
        if self.flags.stop:
            return False
        self.runner.notifier = self.notices.configure(deployment)
        self.console = start_console(lambda: self.runner.deployment, self.env, self.clock)
        counts = self.table.reconcile(job_specs(deployment, self.registry), self._first_run)
        self.watch.follow(deployment, self._transcript_agents())
        if not self.watch.wait_armed(lambda: bool(self.flags.stop)):
            if self.flags.stop:
                return False
            log.warning("watch.not_armed", waited_s=ARM_WAIT_SECONDS, note="cadence still applies")
        if self.flags.stop:
            return False
        self._write_state()
        why = why_nothing_scheduled(deployment)
        log.info(
            "daemon.ready",
            config=str(self.config_path),
            state_dir=str(deployment.state_dir),
            agents=len(deployment.agents),
            jobs=counts["added"],
            nothing_scheduled=why,
            watching=self.watch.mode(),
        )
        self.table.resume()
        self.heartbeat.start()
        notify(self.env, "READY=1", f"STATUS={self._status_text()}", f"MAINPID={os.getpid()}")
        return True

    def _recover(self, deployment: Deployment) -> None:
        """Settle runs a crash left half-done, so no agent waits for its next run for that.

        A stop asked for meanwhile ends the loop between agents: the rest recover at the
        next start (or in their next run), as they would have without the signal.
        """
        for name in deployment.agents:
            if self.flags.stop:
                return
            if not self.layout.agent(name).journal.exists():
                continue
            try:
                with agent_session(deployment, name, self.clock(), 0.0, commit_external=False) as session:
                    log.info("recovery.done", agent=name, notes=list(session.recovery_notes))
            except AgentBusy:
                log.info("recovery.deferred", agent=name, note="agent busy; its next run recovers")
            except DaemonError as exc:
                log.error("recovery.failed", agent=name, error=str(exc))

    def _first_run(self, spec: JobSpec) -> datetime:
        state = self.layout.agent(spec.agent)
        try:
            if spec.group == STORE_MAINTENANCE:
                record = last_maintenance(state.maintenance)
                last = datetime.fromisoformat(record.started_at) if record else None
            else:
                last = last_started(state.run_log, GROUPS[spec.group])
        except DaemonError as exc:
            log.warning("schedule.run_log_unreadable", agent=spec.agent, error=str(exc))
            last = None
        if last is not None and spec.group == "transcripts":
            self.runner.last_transcript_start.setdefault(spec.agent, last)
        return first_run(spec, self.clock(), last, random.random())

    def _transcript_agents(self) -> list[str]:
        return sorted(s.agent for s in self.table.specs.values() if s.group == "transcripts")

    # -- loop ----------------------------------------------------------------------------
    def _housekeeping(self) -> None:
        now = time.monotonic()
        if now - self._last_lock_check >= LOCK_CHECK_SECONDS:
            self._last_lock_check = now
            self._check_lock()
        if self.watchdog and now - self._last_ping >= self.watchdog / 3 and self.table.heartbeat_fresh():
            notify(self.env, "WATCHDOG=1")
            self._last_ping = now
        if self.table.changed.is_set() and now - self._last_state >= STATE_WRITE_SECONDS:
            self._write_state()
        if now - self._last_status >= STATUS_TEXT_SECONDS:
            notify(self.env, f"STATUS={self._status_text()}")
            self._last_status = now

    def _check_lock(self) -> None:
        """Stop (exit 1, for a restart) if the daemon lock we hold is no longer the file on disk.

        Someone removed or replaced the state folder: a second daemon would now find no lock
        and start beside this one, two schedulers on one state. A restart takes the lock again.
        """
        if _identity(self.layout.daemon_lock) == self._lock_identity:
            return
        log.error(
            "state.lost",
            lock=str(self.layout.daemon_lock),
            note="the state folder or its daemon lock was removed or replaced while running; stopping so a restart takes the lock again",
        )
        self.flags.stop = STATE_LOST

    def _status_text(self) -> str:
        return status_text(self.runner, self.table)

    def _write_state(self) -> None:
        self.table.changed.clear()
        self._last_state = time.monotonic()
        state = daemon_state(self.runner, self.table, self.started_at, self.config_path)
        try:
            daemon_json.write(self.layout, state)
        except OSError as exc:
            log.warning("state_file.unwritable", error=str(exc))

    # -- reload --------------------------------------------------------------------------
    def _reload(self) -> None:
        old = self.runner.deployment
        notify(
            self.env, "RELOADING=1", f"MONOTONIC_USEC={time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000}"
        )
        try:
            new = delivering(load_deployment(self.config_path, self.env))
            model_access(new.model, self.env, new.config.redact_env)  # a key HTTP cannot carry is invalid too
        except DaemonError as exc:
            log.error("reload.invalid", error=str(exc), note="kept the previous configuration")
            notify(self.env, "READY=1", "STATUS=reload failed (invalid config); previous configuration kept")
            return
        except Exception as exc:
            # A bug in loading must not take the running daemon down with it: keep serving.
            log.exception("reload.crashed", error=f"{type(exc).__name__}: {exc}", note="kept the previous configuration")
            notify(self.env, "READY=1", "STATUS=reload failed (internal error); previous configuration kept")
            return
        if new.state_dir != old.state_dir:
            log.error(
                "reload.refused",
                key="state_dir",
                old=str(old.state_dir),
                new=str(new.state_dir),
                note="moving the state directory needs a restart; previous configuration kept",
            )
            notify(
                self.env, "READY=1", "STATUS=reload refused (state_dir changed); previous configuration kept"
            )
            return
        if new.config.service.max_parallel_runs != old.config.service.max_parallel_runs:
            log.warning("reload.needs_restart", key="service.max_parallel_runs")
        self.runner.deployment = new
        self.runner.notifier = self.notices.configure(new)
        counts = self.table.reconcile(job_specs(new, self.registry), self._first_run)
        self.watch.follow(new, self._transcript_agents())
        self._write_state()
        log.info("reload.applied", config=str(self.config_path), watching=self.watch.mode(), **counts)
        notify(self.env, "READY=1", f"STATUS={self._status_text()}")

    # -- stop ----------------------------------------------------------------------------
    def _stop(self, signal_name: str) -> Exit:
        deployment = self.runner.deployment
        timeout = deployment.config.service.stop_timeout_seconds
        log.info("stop.requested", signal=signal_name, runs_going=sorted(self.runner.active()))
        notify(
            self.env,
            "STOPPING=1",
            "STATUS=stopping: waiting for runs in progress",
            f"EXTEND_TIMEOUT_USEC={int((timeout + 10) * 1_000_000)}",
        )
        self.runner.stopping.set()  # a job waiting on its notifications returns at once
        self.notices.stop()
        if self.table.scheduler.running:
            self.table.pause()
        self.watch.stop()
        if self.console is not None:
            self.console.stop()
        deadline = time.monotonic() + timeout
        while self.runner.active() and time.monotonic() < deadline:
            time.sleep(0.1)
            if self.watchdog and time.monotonic() - self._last_ping >= self.watchdog / 3:
                notify(self.env, "WATCHDOG=1")  # draining on purpose: the scheduler is paused
                self._last_ping = time.monotonic()
        remaining = self.runner.active()
        if self.table.scheduler.running:
            self.table.shutdown()
        self.heartbeat.stop()
        code = 130 if signal_name == "SIGINT" else 1 if signal_name == STATE_LOST else 0
        if remaining:
            log.error(
                "stop.drain_timeout",
                waited_s=timeout,
                runs=sorted(remaining),
                note="exiting anyway; the interrupted run is rolled back at the next start",
            )
            return Exit(1, immediate=True)
        if signal_name != STATE_LOST:  # the folder is no longer ours: its daemon.json may be another's
            try:
                daemon_json.remove(self.layout)
            except OSError:
                pass
        log.info("daemon.stopped", signal=signal_name, runs_done=self.runner.runs)
        return Exit(code)


def serve(
    config_path: Path,
    env: Mapping[str, str],
    registry: Mapping[str, Pass],
    clock: Callable[[], datetime],
    flags: Flags | None = None,
) -> Exit:
    """Run the daemon until SIGTERM/SIGINT; raises ConfigError or InvalidApiKey (before READY) or AlreadyRunning.

    `flags` are those the launcher's handlers already record into (signals that arrived
    during the imports count); None = fresh ones. Handlers are (re)installed first thing.
    """
    flags = flags or Flags()
    restore = install(flags)
    try:
        return _serve(config_path, env, registry, clock, flags)
    finally:
        restore()


def _stopped_during_start(signal_name: str, step: str) -> Exit:
    log.info("stop.requested", signal=signal_name, during="start-up", step=step, runs_going=[])
    log.info("daemon.stopped", signal=signal_name, runs_done=0)
    return Exit(130 if signal_name == "SIGINT" else 0)


def _serve(
    config_path: Path,
    env: Mapping[str, str],
    registry: Mapping[str, Pass],
    clock: Callable[[], datetime],
    flags: Flags,
) -> Exit:
    deployment = delivering(load_deployment(config_path, env))
    # Registers the secrets for every log line from here on; refuses a key HTTP cannot carry.
    model_access(deployment.model, env, deployment.config.redact_env)
    if flags.stop:
        return _stopped_during_start(flags.stop, "config loaded")
    layout = StateLayout(deployment.state_dir)
    layout.root.mkdir(parents=True, exist_ok=True, mode=0o700)
    lock = FileLock(str(layout.daemon_lock), timeout=LOCK_WAIT_SECONDS)
    try:
        lock.acquire()
    except Timeout:
        raise AlreadyRunning(layout.daemon_lock) from None
    service: Service | None = None
    try:
        if flags.stop:
            return _stopped_during_start(flags.stop, "daemon lock taken")
        service = Service(deployment.path, deployment, registry, env, clock, flags)
        return service.serve()
    except BaseException:
        if service is not None:
            service.runner.stopping.set()
            if service.table.scheduler.running:
                service.table.shutdown()
            service.watch.stop()
        raise
    finally:
        lock.release()

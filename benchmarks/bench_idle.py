"""Idle cost of the service with many agents and nothing new to read (run by hand).

    .venv/bin/python benchmarks/bench_idle.py [--agents 10 100 1000] [--window 120] [--full-runs]

For each size it builds a deployment of N agents whose transcripts are all read already
(cursors at the end), no model configured, default service settings (balanced cadence,
watch: auto) except jitter 0, then measures:

1. in-process, one scheduler cycle: every agent's transcript job called once, the way the
   thread pool calls it (with nothing new it stops at the `stat` pre-check): wall and CPU;
2. a real `metaeng-daemon run` subprocess: time from start to READY, time until the first
   cycle has finished (every job fires at start on a fresh deployment: the transcript jobs
   stop at the pre-check, the memory-consolidation and maintenance jobs run once and create
   the agent's store), then CPU and RSS of the idle process over `--window` seconds, and
   the runs that started in the window (0 expected);
3. optionally (--full-runs), one forced cycle of `run_once` per agent (what a cycle would
   cost without the pre-check: lock, store, external-edits check), after a warm-up cycle
   that creates the stores.

Prints a Markdown table for the README.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import print_table, save_results  # noqa: E402
from daemon.config import load_deployment  # noqa: E402
from daemon.doors import logs  # noqa: E402
from daemon.doors.environment import model_access  # noqa: E402
from daemon.doors.service.jobs import JobRunner  # noqa: E402
from daemon.doors.service.schedule import GROUPS, group_passes  # noqa: E402
from daemon.kernel.paths import StateLayout  # noqa: E402
from daemon.run.runner import run_once  # noqa: E402
from daemon.transcripts import cursors  # noqa: E402
from daemon.transcripts.files import source_of  # noqa: E402
from daemon.transcripts.reader import read_new_turns  # noqa: E402
from daemon.wiring.pass_registry import default_registry  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def build(root: Path, count: int) -> Path:
    """N agents, each with one transcript of three complete turns already read."""
    agents: dict[str, Any] = {}
    lines = []
    for i in range(3):
        lines.append(json.dumps({"role": "user", "content": f"question {i}"}))
        lines.append(json.dumps({"role": "assistant", "content": f"answer {i}"}))
    lines.append(json.dumps({"type": "session_end"}))
    for i in range(count):
        name = f"a{i:04d}"
        home = root / "agents" / name
        (home / "transcripts").mkdir(parents=True)
        (home / "transcripts" / "t.jsonl").write_text("\n".join(lines) + "\n")
        (home / "MEMORY.md").write_text(f"# memory of {name}\n")
        agents[name] = {"home": f"agents/{name}"}
    config = root / "config.yaml"
    # No jitter, so the first cycle fires at start and its duration can be measured (with
    # the default jitter it is spread over up to 300 s on purpose).
    service = {"jitter_seconds": 0}
    config.write_text(
        yaml.safe_dump({"version": 1, "state_dir": "state", "service": service, "agents": agents})
    )
    deployment = load_deployment(config, {})
    now = datetime.now(UTC)
    for name, agent in deployment.agents.items():
        state = StateLayout(deployment.state_dir).agent(name)
        state.root.mkdir(parents=True)
        for consumer in ("distillation", "skill_learning", "instruction_review"):  # every transcript reader
            batch = read_new_turns(source_of(agent), {}, consumer, now)
            cursors.advance(state.cursors, batch.advances)
    return config


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def scheduler_cycle(config: Path) -> tuple[float, float]:
    deployment = load_deployment(config, {})
    runner = JobRunner(deployment, default_registry(), {}, lambda: datetime.now(UTC))
    wall, cpu = time.perf_counter(), _cpu()
    for name in deployment.agents:
        runner.run(name, "transcripts")
    assert runner.runs == 0, "nothing new to read: no job may start a run"
    return time.perf_counter() - wall, _cpu() - cpu


def forced_cycle(config: Path) -> tuple[float, float]:
    deployment = load_deployment(config, {})
    access = model_access(deployment.model, {})
    registry = default_registry()
    wall, cpu = time.perf_counter(), _cpu()
    for name in deployment.agents:
        run_once(
            deployment, name, registry=registry, access=access, now=datetime.now(UTC), passes=["distillation"]
        )
    return time.perf_counter() - wall, _cpu() - cpu


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _rss_mib(pid: int) -> tuple[float, float]:
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def _stamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def daemon_idle(config: Path, count: int, window: float) -> dict[str, float]:
    deployment = load_deployment(config, {})
    registry = default_registry()
    runs_expected = sum(
        1
        for agent in deployment.agents.values()
        for group in GROUPS
        if group != "transcripts" and group_passes(agent, group, registry)
    )
    log = config.parent / "daemon.log"
    env = {**os.environ, "METAENG_LOG_LEVEL": "debug", "PYTHONUNBUFFERED": "1"}
    env.pop("NOTIFY_SOCKET", None)
    started = datetime.now(UTC)  # compared with the daemon's own log timestamps
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from daemon.doors.cli import main; sys.exit(main())",
                "--config",
                str(config),
                "run",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
    try:
        deadline = time.monotonic() + 600
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"daemon exited or stalled:\n{log.read_text()[-2000:]}")
            events = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
            idle = [e for e in events if e["event"] == "job.idle"]
            ends = [e for e in events if e["event"] == "run.end"]
            # The first cycle is over when every transcript job found nothing new and every
            # other job (they have no pre-check: on a fresh deployment each runs once, which
            # creates the agent's store; a busy one is retried) has finished its run.
            if len(idle) >= count and len(ends) >= runs_expected:
                break
            time.sleep(0.5)
        # Start-up and the first cycle, from the daemon's own timestamps (log polling is coarse).
        ready_stamp = next(e["timestamp"] for e in events if e["event"] == "daemon.ready")
        ready_at = (_stamp(ready_stamp) - started).total_seconds()
        last = max(e["timestamp"] for e in idle + ends)
        cycle = (_stamp(last) - _stamp(ready_stamp)).total_seconds()
        first_cycle_runs = len(ends)
        cpu_start = _proc_cpu(proc.pid)
        time.sleep(window)
        idle_cpu = _proc_cpu(proc.pid) - cpu_start
        rss, peak = _rss_mib(proc.pid)
        runs = sum(1 for line in log.read_text().splitlines() if '"run.end"' in line) - first_cycle_runs
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return {
        "ready_s": ready_at,
        "first_cycle_s": cycle,
        "idle_cpu_s": idle_cpu,
        "idle_cpu_pct": 100 * idle_cpu / window,
        "rss_mib": rss,
        "peak_rss_mib": peak,
        "first_cycle_runs": first_cycle_runs,
        "runs_in_window": runs,
        "exit": code,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--window", type=float, default=120.0, help="idle measurement window, seconds")
    parser.add_argument("--full-runs", action="store_true", help="also time a forced run_once cycle")
    args = parser.parse_args()
    logs.configure(sys.stderr, level="warning")
    rows = []
    for count in args.agents:
        with tempfile.TemporaryDirectory(prefix="metaeng-bench-") as tmp:
            config = build(Path(tmp), count)
            wall, cpu = scheduler_cycle(config)
            row: dict[str, Any] = {"agents": count, "cycle_wall_s": wall, "cycle_cpu_s": cpu}
            # The daemon first: forced runs would log runs and push its first cycle 2 h out.
            row.update(daemon_idle(config, count, args.window))
            if args.full_runs:
                row["store_creation_wall_s"], _ = forced_cycle(config)  # warm-up: creates the stores
                row["forced_wall_s"], row["forced_cpu_s"] = forced_cycle(config)
            rows.append(row)
            print(json.dumps(row), flush=True)
    save_results("idle", rows)
    print()
    print_table(
        [
            "agents",
            "scheduler cycle wall / CPU",
            "forced run_once cycle wall / CPU",
            "start → READY",
            "first cycle in the daemon (runs)",
            "idle CPU over window (runs)",
            "RSS (peak)",
        ],
        (
            [
                r["agents"],
                f"{r['cycle_wall_s'] * 1000:.0f} ms / {r['cycle_cpu_s'] * 1000:.0f} ms",
                f"{r['forced_wall_s']:.1f} s / {r['forced_cpu_s']:.1f} s" if "forced_wall_s" in r else "-",
                f"{r['ready_s']:.2f} s",
                f"{r['first_cycle_s']:.2f} s ({r['first_cycle_runs']})",
                f"{r['idle_cpu_s']:.2f} s ({r['idle_cpu_pct']:.2f} %, {r['runs_in_window']})",
                f"{r['rss_mib']:.0f} MiB ({r['peak_rss_mib']:.0f})",
            ]
            for r in rows
        ),
        align="right",
    )
    print(
        f"\nidle window: {args.window:.0f} s per size; {os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )


if __name__ == "__main__":
    main()

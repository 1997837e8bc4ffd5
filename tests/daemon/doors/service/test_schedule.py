"""Which jobs a deployment schedules and when they first fire (pure functions)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from daemon.config import load_deployment
from daemon.config.resolve import Deployment
from daemon.doors.service.schedule import JobSpec, due_at, first_run, job_specs
from daemon.kernel.changeset import Changeset, nothing
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.settings import PASS_ORDER, AgentSettings
from daemon.passes.protocol import MemoryLockMode, Pass, PassContext
from daemon.wiring.pass_registry import default_registry
from tests.support.deploy import base_config, write_config

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


class IdlePass:
    """A pass that never has anything to do: stands in for passes other branches build."""

    uses_model = False
    memory_lock: MemoryLockMode = "none"

    def __init__(self, name: str) -> None:
        self.name = name

    def write_scope(self, agent: AgentSettings) -> ManagedPaths:
        return ManagedPaths(frozenset(), frozenset())

    def plan(self, context: PassContext) -> Changeset:
        return nothing(self.name, "idle")


ALL_PASSES: Mapping[str, Pass] = {name: IdlePass(name) for name in PASS_ORDER}


def _deployment(root: Path, **changes: Any) -> Deployment:
    cfg = base_config(root, None, agents=("ada", "bob"))
    cfg.update(changes)
    return load_deployment(write_config(root, cfg), {})


def test_each_agent_gets_one_job_per_pass_group_on_its_cadence(root: Path) -> None:
    deployment = _deployment(
        root,
        agents={
            "ada": {"home": str(root / "ada")},
            "bob": {"home": str(root / "bob"), "cadence": "aggressive"},
        },
    )
    specs = {s.id: s for s in job_specs(deployment, ALL_PASSES)}
    assert sorted(specs) == sorted(
        f"{group}:{agent}"
        for agent in ("ada", "bob")
        for group in ("transcripts", "memory_consolidation", "maintenance", "store_maintenance")
    )
    assert specs["transcripts:ada"].passes == ("distillation", "skill_learning")
    assert specs["transcripts:ada"].interval_seconds == 2 * 3600  # balanced
    assert specs["transcripts:bob"].interval_seconds == 3600  # aggressive
    assert specs["memory_consolidation:bob"].interval_seconds == 6 * 3600
    assert specs["maintenance:ada"].passes == (
        "library_maintenance",
        "workspace_consolidation",
        "instruction_review",
    )
    assert specs["maintenance:ada"].jitter_seconds == 300  # 5% of a day, capped at 300 s
    assert specs["transcripts:bob"].jitter_seconds == 180
    assert specs["transcripts:ada"].misfire_grace_seconds == 7200
    # git gc of the store: no pass, daily on every cadence.
    assert specs["store_maintenance:bob"].passes == ()
    assert specs["store_maintenance:bob"].interval_seconds == 86400


def test_only_enabled_and_available_passes_are_scheduled(root: Path) -> None:
    deployment = _deployment(
        root,
        passes={"distillation": False, "memory_consolidation": False},
        agents={
            "ada": {"home": str(root / "ada"), "passes": {"distillation": True}},
            "bob": {"home": str(root / "bob"), "enabled": False},
        },
    )
    ids = sorted(s.id for s in job_specs(deployment, ALL_PASSES))
    assert ids == ["maintenance:ada", "store_maintenance:ada", "transcripts:ada"]
    # A pass missing from the registry is not scheduled: with only distillation built,
    # only its group would get a job.
    only_distillation = {"distillation": default_registry()["distillation"]}
    assert [s.id for s in job_specs(deployment, only_distillation)] == ["transcripts:ada", "store_maintenance:ada"]


def test_on_demand_mode_and_the_master_switch_schedule_nothing(root: Path) -> None:
    assert job_specs(_deployment(root, mode="on_demand"), ALL_PASSES) == []
    assert job_specs(_deployment(root, enabled=False), ALL_PASSES) == []


def test_interval_overrides_and_jitter_come_from_the_service_section(root: Path) -> None:
    deployment = _deployment(
        root,
        service={"intervals": {"transcripts": 5, "maintenance": 60, "store_maintenance": 90}, "jitter_seconds": 1},
    )
    specs = {s.id: s for s in job_specs(deployment, ALL_PASSES)}
    assert specs["transcripts:ada"].interval_seconds == 5
    assert specs["maintenance:ada"].interval_seconds == 60
    assert specs["memory_consolidation:ada"].interval_seconds == 86400
    assert specs["store_maintenance:ada"].interval_seconds == 90
    assert {s.jitter_seconds for s in specs.values()} == {1}
    assert specs["transcripts:ada"].misfire_grace_seconds == 60


def test_first_run_after_a_restart_follows_the_last_run_and_coalesces_missed_ones() -> None:
    spec = JobSpec("ada", "maintenance", ("library_maintenance",), 7 * 86400, 300)
    assert first_run(spec, NOW, None, 0.0) == NOW  # never ran: due now
    assert first_run(spec, NOW, None, 0.5) == NOW + timedelta(seconds=150)
    recent = NOW - timedelta(days=2)
    assert due_at(spec, NOW, recent) == recent + timedelta(days=7)  # a restart does not postpone it
    long_ago = NOW - timedelta(days=30)
    assert due_at(spec, NOW, long_ago) == NOW  # four missed weeks: one run, now
    # A run stamped by a clock that was years ahead, then corrected: one interval, not years.
    assert due_at(spec, NOW, NOW + timedelta(days=5 * 365)) == NOW + timedelta(days=7)

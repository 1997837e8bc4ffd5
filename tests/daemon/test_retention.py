"""`retention:`: closed fact versions and lab ledgers past their days go, by the purge's means;
`maintenance --dry-run` shows what would go and changes nothing."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import yaml

from tests.daemon.test_purge import FIRST, SECOND, facts_text, hits, seed
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer

LATER = datetime(2026, 12, 20, tzinfo=UTC)


def with_retention(config: Path, deployment: dict[str, int] | None, agent: dict[str, int] | None = None) -> None:
    raw = yaml.safe_load(config.read_text())
    if deployment is not None:
        raw["retention"] = deployment
    if agent is not None:
        raw["agents"]["ada"]["retention"] = agent
    config.write_text(yaml.safe_dump(raw))


def age(folder: Path, days: int) -> None:
    stamp = LATER.timestamp() - days * 86400
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (stamp, stamp))


def test_dry_run_lists_what_would_go_and_changes_nothing(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    with_retention(config, {"closed_facts_days": 365, "lab_ledgers_days": 30}, {"closed_facts_days": 10})
    age(root / "ledgers" / "run-1", 40)
    before = tree_snapshot(root)

    shown = run_cli(config, "maintenance", "--agent", "ada", "--dry-run", "--json", clock=lambda: LATER)

    assert shown.code == 0, shown.err
    (plan,) = shown.json()
    assert plan["closed_facts"] == [{"entity": "user", "key": "city", "valid_to": "2026-11-03"}]
    assert plan["retention"] == {"closed_facts_days": 10, "lab_ledgers_days": 30}
    assert plan["lab_ledgers"] == [str(root / "ledgers" / "run-1")]
    assert FIRST not in shown.out
    assert tree_snapshot(root) == before


def test_maintenance_purges_closed_versions_and_old_ledgers(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    with_retention(config, {"closed_facts_days": 10, "lab_ledgers_days": 30})
    age(root / "ledgers" / "run-1", 40)

    done = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER)

    assert done.code == 0, done.err
    assert hits(root, FIRST) == []
    assert SECOND in facts_text(root)
    assert not (root / "ledgers" / "run-1").exists()
    purges = run_cli(config, "memory", "purges", "--agent", "ada", "--json").json()["purges"]
    assert [(p["kind"], p["entity"], p["key"]) for p in purges] == [("retention", "user", "city")]


def test_nothing_is_due_before_its_days(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    with_retention(config, {"closed_facts_days": 365})

    assert run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER).code == 0

    assert FIRST in facts_text(root)


def test_a_bad_retention_value_is_named_and_nothing_runs(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    with_retention(config, None, {"closed_facts_days": 0})
    before = tree_snapshot(root)

    result = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER)

    assert result.code == 1 and "closed_facts_days" in result.err and "config.yaml" in result.err
    assert tree_snapshot(root) == before

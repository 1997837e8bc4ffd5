"""`retention:`: closed fact versions and lab ledgers past their days go, by the purge's means;
`maintenance --dry-run` shows what would go and changes nothing."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from daemon.run.history_squash import plan_squash
from daemon.run.store_git import CommitInfo
from tests.daemon.wiring.test_purge import FIRST, SECOND, facts_text, git, hits, seed
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.facts import shard_of, stored_fact
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

pytestmark = pytest.mark.slow  # many runs to age, then retention over their history

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
    # the derived query index may be brought up to date (as by `memory query`; safe to delete)
    before = tree_snapshot(root, skip=["state/agents/ada/facts-index.sqlite3"])

    shown = run_cli(config, "maintenance", "--agent", "ada", "--dry-run", "--json", clock=lambda: LATER)

    assert shown.code == 0, shown.err
    (plan,) = shown.json()
    assert plan["closed_facts"] == [{"entity": "user", "key": "city", "valid_to": "2026-11-03"}]
    assert plan["retention"] == {"closed_facts_days": 10, "lab_ledgers_days": 30, "history_days": None, "history_runs": None}
    assert plan["squash"] is None
    assert plan["lab_ledgers"] == [str(root / "ledgers" / "run-1")]
    assert FIRST not in shown.out
    assert tree_snapshot(root, skip=["state/agents/ada/facts-index.sqlite3"]) == before


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


def commits(root: Path) -> list[str]:
    return git(root, "log", "--format=%H %s", "HEAD").stdout.splitlines()


def test_history_runs_squashes_the_older_runs_into_one_baseline(root: Path, fake_model: FakeModelServer) -> None:
    config, runs = seed(root, fake_model)
    home_before = tree_snapshot(root / "ada")
    listed = [r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()]
    assert listed[-len(runs):] == runs[::-1] or set(runs) <= set(listed)
    with_retention(config, None, {"history_runs": 2})

    shown = run_cli(config, "maintenance", "--agent", "ada", "--dry-run", "--json", clock=lambda: LATER)
    (plan,) = shown.json()
    assert plan["squash"] == {"runs": len(listed) - 2, "through": listed[2], "kept_runs": 2}
    assert tree_snapshot(root / "ada") == home_before

    done = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER)

    assert done.code == 0, done.err
    assert f"squashed {len(listed) - 2} run(s)" in done.err
    assert [r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()] == listed[:2]
    assert tree_snapshot(root / "ada") == home_before
    logged = [json.loads(line) for line in (root / "state" / "agents" / "ada" / "runs.jsonl").read_text().splitlines()]
    assert not {e["run_id"] for e in logged} & set(listed[2:])  # the run log forgets the squashed runs too
    assert set(listed[:2]) <= {e["run_id"] for e in logged}
    assert git(root, "fsck", "--strict").returncode == 0
    history = commits(root)
    assert history[-1].endswith(f"baseline: {len(listed) - 2} earlier run(s) squashed by retention")
    assert len(history) == 4  # the baseline, the two kept runs and the external edit after them
    for old in listed[2:]:
        refused = run_cli(config, "undo", old)
        assert refused.code == 1 and f"no run '{old}'" in refused.err
        assert f"{len(listed) - 2} older run(s) up to {listed[2]} were squashed into the store's baseline" in refused.err
        assert run_cli(config, "show", old).code == 1
    assert tree_snapshot(root / "ada") == home_before
    for kept in listed[:2]:
        assert run_cli(config, "show", kept).code == 0
    undone = run_cli(config, "undo", listed[1])  # the oldest kept run undoes against the baseline's files
    assert undone.code == 0, undone.err
    again = run_cli(config, "maintenance", "--agent", "ada", "--dry-run", "--json", clock=lambda: LATER).json()
    assert again[0]["squash"]["runs"] == 1  # the undo is a run: the window moved by one


def test_history_days_keeps_the_recent_runs_and_counts_earlier_baselines(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, _runs = seed(root, fake_model)
    listed = [r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()]
    with_retention(config, {"history_runs": 3})
    assert run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER).code == 0
    with_retention(config, {"history_days": 10})
    add_turns(root, "s9.jsonl", first="I like tea.")
    fake_model.reply(
        {"facts": [berlin_fact(quote="I like tea", key="drink", value="tea", valid_from="2026-12-20")]},
        schema="DistillationResponse",
    )
    fresh = run_cli(config, "once", "--agent", "ada", "--json", clock=lambda: LATER).json()["run_id"]

    done = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER)

    assert done.code == 0, done.err
    assert [r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()] == [fresh]
    baseline = commits(root)[-1]
    assert baseline.endswith(f"baseline: {len(listed)} earlier run(s) squashed by retention")
    assert run_cli(config, "maintenance", "--agent", "ada", "--dry-run", clock=lambda: LATER).out.strip() == (
        "agent ada: retention removes nothing now"
    )



def test_a_closed_value_a_current_fact_still_holds_is_held_back(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    home = root / "ada"
    hometown = home / shard_of(key="hometown")
    hometown.parent.mkdir(parents=True, exist_ok=True)
    hometown.write_text(json.dumps(stored_fact(id="f-home", key="hometown", value=FIRST)) + "\n")
    with_retention(config, {"closed_facts_days": 10})

    (plan,) = run_cli(config, "maintenance", "--agent", "ada", "--dry-run", "--json", clock=lambda: LATER).json()

    assert plan["closed_facts"] == [] and plan["held_back"] == 1
    assert run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER).code == 0
    assert FIRST in hometown.read_text()


def test_a_store_with_a_merge_commit_is_not_squashed_and_nothing_changes(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, _runs = seed(root, fake_model)
    head = git(root, "rev-parse", "HEAD").stdout.strip()
    side = git(root, "commit-tree", f"{head}~2^{{tree}}", "-p", f"{head}~2", "-m", "by hand").stdout.strip()
    tree = git(root, "rev-parse", f"{head}^{{tree}}").stdout.strip()
    merge = git(root, "commit-tree", tree, "-p", head, "-p", side, "-m", "merge by hand").stdout.strip()
    assert git(root, "update-ref", "HEAD", merge).returncode == 0
    with_retention(config, {"history_runs": 1})
    before = tree_snapshot(root, skip=["state/agents/ada/facts-index.sqlite3", "state/agents/ada/run-index.sqlite3"])

    result = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER)

    assert result.code == 1 and "retention not applied" in result.err and "merge commits" in result.err
    assert "store packed" in result.out  # a refused retention does not keep the store from being packed
    assert git(root, "rev-parse", "HEAD").stdout.strip() == merge
    after = tree_snapshot(root, skip=["state/agents/ada/facts-index.sqlite3", "state/agents/ada/run-index.sqlite3"])
    assert {k: v for k, v in after.items() if "store.git" not in k and "maintenance" not in k} == {
        k: v for k, v in before.items() if "store.git" not in k
    }


def _commit(n: int, day: int, run: bool = True) -> CommitInfo:
    trailers = {"Run-Id": f"202611{day:02d}T000000Z-{n:06x}"} if run else {"Kind": "external-edits"}
    return CommitInfo(f"{n:040x}", f"{n - 1:040x}" if n else None, datetime(2026, 11, day, tzinfo=UTC), "s", "", trailers)


def test_history_days_is_not_fooled_by_one_commit_stamped_by_a_clock_that_was_behind() -> None:
    now = datetime(2026, 11, 30, tzinfo=UTC)
    # Newest first: runs on the 29th and 28th, one stamped the 1st between them, then old runs.
    history = [_commit(9, 29), _commit(8, 1), _commit(7, 28), _commit(6, 5), _commit(5, 4), _commit(4, 3, run=False)]

    plan = plan_squash(history, keep_days=10, keep_runs=None, now=now)

    assert plan is not None and plan.cutoff.sha == history[3].sha
    assert (plan.squashed_runs, plan.kept_runs, plan.through) == (2, 3, history[3].run_id)
    assert plan_squash(history[5:], keep_days=10, keep_runs=None, now=now) is None  # no run to fold
    # A commit stamped after now (a clock ahead then, or behind now) is young: kept, and so is
    # everything newer than it; a clock behind every commit squashes nothing.
    ahead = [*history[:5], replace(history[5], committed_at=datetime(2099, 1, 1, tzinfo=UTC))]
    assert plan_squash(ahead, keep_days=10, keep_runs=None, now=now) is None
    assert plan_squash(history, keep_days=36500, keep_runs=None, now=datetime(2026, 10, 1, tzinfo=UTC)) is None
    assert plan_squash(history, keep_days=None, keep_runs=3, now=now).cutoff.sha == history[3].sha  # type: ignore[union-attr]


def test_history_retention_on_an_agent_that_never_ran_creates_no_store(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    with_retention(config, {"history_runs": 1, "history_days": 1})

    result = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER)

    assert result.code == 0, result.err
    assert "no store yet" in result.out
    assert not (root / "state" / "agents" / "ada" / "store.git").exists()

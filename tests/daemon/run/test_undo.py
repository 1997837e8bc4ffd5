"""`undo`: a run reverted as a new run, a person's work never undone, conflicts refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.deploy import conversation, run_cli, tree_snapshot, usage_error, write_transcript
from tests.support.facts import shard_of, store_text
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

FACTS = ".metaeng/facts.jsonl"
BERLIN = shard_of()


def applied_run(root: Path, fake_model: FakeModelServer) -> tuple[Path, str]:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    body = run_cli(config, "once", "--agent", "ada", "--json").json()
    assert body["run_id"]
    return config, body["run_id"]


def test_undo_round_trip_restores_files_exactly(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    before = tree_snapshot(root / "ada")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    run_id = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    assert tree_snapshot(root / "ada") != before
    undone = run_cli(config, "undo", run_id, "--json")
    assert undone.code == 0, undone.err
    assert tree_snapshot(root / "ada", skip=[".metaeng"]) == before
    assert store_text(root / "ada") == ""
    runs = run_cli(config, "runs", "--json").json()
    assert runs[0]["status"] == f"undo of {run_id}"
    assert runs[1]["status"] == f"undone by {undone.json()['run_id']}"


def test_a_wait_that_is_not_finite_seconds_is_refused_before_anything_is_touched(
    root: Path, fake_model: FakeModelServer
) -> None:
    # filelock waits forever for a negative timeout and raises on nan: both are usage errors here.
    config, run_id = applied_run(root, fake_model)
    after_run = tree_snapshot(root / "ada")
    for bad in ("-5", "nan", "inf", "soon"):
        for argv in (("undo", run_id), ("once", "--agent", "ada"), ("memory", "retry", "--agent", "ada", "--run", run_id)):
            said = usage_error(config, *argv, "--wait", bad)
            assert "argument --wait:" in said and "Traceback" not in said, (argv, said)
    assert tree_snapshot(root / "ada") == after_run
    assert [r["status"] for r in run_cli(config, "runs", "--json").json()] == ["applied"]


def test_show_json_gives_the_report_files_and_diff_of_a_run(root: Path, fake_model: FakeModelServer) -> None:
    config, run_id = applied_run(root, fake_model)
    shown = run_cli(config, "show", run_id, "--json")
    assert shown.code == 0, shown.err
    body = shown.json()
    row = run_cli(config, "runs", "--json").json()[0]
    assert {k: body[k] for k in row} == row
    assert body["trailers"]["Run-Id"] == run_id and "Run-Id" not in body["report"]
    assert "[distillation]" in body["report"]
    assert {"status": "A", "path": BERLIN} in body["files"]
    assert f"+++ b/{BERLIN}" in body["diff"] and "Berlin" in body["diff"]
    missing = run_cli(config, "show", "20990101T000000Z-000000", "--json")
    assert missing.code == 1 and missing.out == "" and "no run" in missing.err


@pytest.mark.slow
def test_undo_is_itself_undoable(root: Path, fake_model: FakeModelServer) -> None:
    config, run_id = applied_run(root, fake_model)
    after_run = tree_snapshot(root / "ada")
    undo_id = run_cli(config, "undo", run_id, "--json").json()["run_id"]
    redo = run_cli(config, "undo", undo_id)
    assert redo.code == 0, redo.err
    assert tree_snapshot(root / "ada") == after_run
    statuses = {r["run_id"]: r["status"] for r in run_cli(config, "runs", "--json").json()}
    assert statuses[run_id] == "applied"


@pytest.mark.slow
def test_a_persons_edit_between_runs_survives_an_undo(root: Path, fake_model: FakeModelServer) -> None:
    config, run_id = applied_run(root, fake_model)
    agents = root / "ada" / "AGENTS.md"
    agents.write_text(agents.read_text() + "- Added by a person.\n", encoding="utf-8")
    result = run_cli(config, "undo", run_id)
    assert result.code == 0, result.err
    assert "- Added by a person." in agents.read_text()
    assert store_text(root / "ada") == ""


def test_undo_refuses_when_a_person_changed_the_same_lines_and_changes_nothing(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, run_id = applied_run(root, fake_model)
    facts = root / "ada" / BERLIN
    facts.write_text(facts.read_text().replace('"Berlin"', '"Hamburg"'), encoding="utf-8")
    before = tree_snapshot(root / "ada")
    derived = ["agents/ada/store.git", "agents/ada/run-index.sqlite3"]  # the person's edit is committed first
    state_before = tree_snapshot(root / "state", skip=derived)
    result = run_cli(config, "undo", run_id)
    assert result.code == 1
    assert "refused, nothing changed" in result.err and BERLIN in result.err
    assert tree_snapshot(root / "ada") == before
    assert tree_snapshot(root / "state", skip=derived) == state_before


@pytest.mark.slow
def test_undo_of_an_earlier_run_merges_around_later_runs(root: Path, fake_model: FakeModelServer) -> None:
    config, run_id = applied_run(root, fake_model)
    pairs = [("The zoo's color is green now.", "Noted."), *[(f"Question {i}?", "Answer.") for i in range(3)]]
    write_transcript(root / "ada", "s2.jsonl", conversation(pairs, day="2026-11-03"))
    later_fact = berlin_fact(turn="T1", quote="The zoo's color is green", entity="zoo", key="color", value="green")
    fake_model.reply({"facts": [later_fact]}, schema="DistillationResponse")
    later = run_cli(config, "once", "--agent", "ada", "--json").json()
    assert later["run_id"]
    result = run_cli(config, "undo", run_id)
    assert result.code == 0, result.err
    lines = store_text(root / "ada").splitlines()
    assert [json.loads(line)["value"] for line in lines] == ["green"]


def test_undo_never_moves_cursors_back(root: Path, fake_model: FakeModelServer) -> None:
    config, run_id = applied_run(root, fake_model)
    cursor_file = root / "state" / "agents" / "ada" / "cursors.json"
    before = cursor_file.read_text()
    run_cli(config, "undo", run_id)
    assert cursor_file.read_text() == before
    again = run_cli(config, "once", "--agent", "ada", "--json").json()
    assert again["run_id"] is None
    assert fake_model.pending() == 0 and len(fake_model.requests) == 1


def test_undo_twice_or_unknown_run_is_refused(root: Path, fake_model: FakeModelServer) -> None:
    config, run_id = applied_run(root, fake_model)
    assert run_cli(config, "undo", run_id).code == 0
    twice = run_cli(config, "undo", run_id)
    assert twice.code == 1 and "already undone" in twice.err
    unknown = run_cli(config, "undo", "20990101T000000Z-000000")
    assert unknown.code == 1 and "no run '20990101T000000Z-000000'" in unknown.err


def test_store_is_plain_git_tracking_only_managed_paths(root: Path, fake_model: FakeModelServer) -> None:
    import subprocess

    applied_run(root, fake_model)
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    files = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-files"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert sorted(files) == [BERLIN, "AGENTS.md"]
    status = subprocess.run(
        ["git", f"--git-dir={git_dir}", "status", "--porcelain"], capture_output=True, text=True, check=True
    )
    assert status.stdout == ""


def test_an_undo_goes_through_the_one_applier_and_lands_in_the_run_log(root: Path, fake_model: FakeModelServer) -> None:
    config, run_id = applied_run(root, fake_model)
    undone = run_cli(config, "undo", run_id, "--json")
    assert undone.code == 0, undone.err
    log = [json.loads(line) for line in (root / "state" / "agents" / "ada" / "runs.jsonl").read_text().splitlines()]
    assert log[-1]["kind"] == "undo" and log[-1]["run_id"] == undone.json()["run_id"]
    assert log[-1]["outcome"] == "applied" and log[-1]["passes"] == {"undo": "applied"}
    status = run_cli(config, "status", "--json").json()["agents"][0]
    assert status["last_run"]["run_id"] == undone.json()["run_id"]

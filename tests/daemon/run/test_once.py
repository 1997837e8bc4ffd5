"""`once`: passes plan, the runner applies; skips, failures, dry runs, locks, cursors."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from filelock import FileLock

from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot, write_transcript
from tests.support.facts import shard_of, store_text
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

FACTS = ".metaeng/facts.jsonl"


def distill(result_json: dict) -> dict:
    return next(p for p in result_json["passes"] if p["name"] == "distillation")


def cursors(root: Path) -> dict:
    path = root / "state" / "agents" / "ada" / "cursors.json"
    return json.loads(path.read_text()) if path.exists() else {}


def test_once_applies_facts_as_one_run_with_trailers(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    body = result.json()
    assert body["run_id"] and body["files_changed"] == [shard_of()]
    assert distill(body)["status"] == "applied"
    assert {p["status"] for p in body["passes"] if p["name"] != "distillation"} == {"skipped"}
    runs = run_cli(config, "runs", "--agent", "ada", "--json").json()
    assert runs[0]["run_id"] == body["run_id"] and runs[0]["passes"] == ["distillation"]
    assert runs[0]["status"] == "applied" and runs[0]["files_changed"] == 1
    shown = run_cli(config, "show", body["run_id"])
    assert (
        f"Run-Id: {body['run_id']}" in shown.out
        and "Agent: ada" in shown.out
        and "Passes: distillation" in shown.out
    )
    assert '"value":"Berlin"' in shown.out


def test_the_owner_is_set_by_the_daemon_and_the_citation_kept(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    run_cli(config, "once", "--agent", "ada")
    record = run_cli(
        config, "memory", "query", "--agent", "ada", "--entity", "user", "--key", "city", "--json"
    ).json()["record"]
    assert (record["tenant"], record["user"], record["source"]) == ("default", "ada", "user")
    assert record["source_event_id"] == "transcripts/s1.jsonl@0"


def test_fewer_than_four_turns_does_nothing_and_commits_offsets(root: Path) -> None:
    config = setup_agent(root, None)
    (root / "ada" / "transcripts" / "s1.jsonl").unlink()
    write_transcript(
        root / "ada", "short.jsonl", '{"role": "user", "content": "hi"}\n{"type": "session_end"}\n'
    )
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0
    assert distill(result.json())["status"] == "nothing"
    assert "fewer than 4" in distill(result.json())["reason"]
    assert cursors(root)["consumers"]["distillation"]["transcripts/short.jsonl"]["offset"] > 0


def test_without_a_model_the_pass_is_skipped_and_offsets_stay(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    result = run_cli(config, "once", "--agent", "ada", "--json", env={"TEST_API_KEY": ""})
    assert distill(result.json())["status"] == "skipped"
    assert "TEST_API_KEY" in distill(result.json())["reason"]
    assert "distillation" not in cursors(root).get("consumers", {})
    assert fake_model.requests == []
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    again = run_cli(config, "once", "--agent", "ada", "--json")
    assert distill(again.json())["status"] == "applied"
    assert distill(again.json())["turns"] == 4


def test_dry_run_is_free_calls_no_model_and_spends_nothing(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    before = tree_snapshot(root / "ada")
    result = run_cli(config, "once", "--agent", "ada", "--dry-run", "--json")
    assert result.code == 0, result.err
    entry = distill(result.json())
    assert entry["status"] == "skipped" and "dry run: no model call, nothing spent" in entry["reason"]
    assert "--with-model" in entry["reason"]
    assert fake_model.requests == []
    assert not (root / "state" / "spend").exists() or not any((root / "state" / "spend").glob("*.jsonl"))
    assert tree_snapshot(root / "ada") == before and cursors(root) == {}


def test_with_model_only_applies_to_a_dry_run(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    result = run_cli(config, "once", "--agent", "ada", "--with-model")
    assert result.code == 1 and "--with-model only applies to --dry-run" in result.err
    assert fake_model.requests == []


def test_dry_run_with_model_previews_the_answer_applies_nothing_and_says_it_spends(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    before = tree_snapshot(root / "ada")
    result = run_cli(config, "once", "--agent", "ada", "--dry-run", "--with-model", "--json")
    assert result.code == 0
    assert "calls the model: it spends budget" in result.err
    body = result.json()
    assert body["run_id"] is None and body["dry_run"] is True
    assert body["files_changed"] == [shard_of()]
    assert '"value":"Berlin"' in body["preview"]
    assert tree_snapshot(root / "ada") == before
    assert cursors(root) == {}
    assert run_cli(config, "runs", "--json").json() == []


def test_model_output_breaking_the_schema_is_rejected_and_nothing_written(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact(owner="someone-else")]}, schema="DistillationResponse")
    before = tree_snapshot(root / "ada")
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0
    entry = distill(result.json())
    assert entry["status"] == "skipped" and entry["reason"].startswith("model answer rejected")
    assert "does not match the schema" in entry["reason"] and "owner" in entry["reason"]
    assert tree_snapshot(root / "ada") == before
    assert "distillation" not in cursors(root).get("consumers", {})


@pytest.mark.slow
def test_fact_citing_a_turn_that_was_not_sent_is_rejected_with_reason(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply(
        {"facts": [berlin_fact(turn="T9"), berlin_fact(quote="I live in Rome", value="Rome")]},
        schema="DistillationResponse",
    )
    before = tree_snapshot(root / "ada")
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json").json())
    assert entry["rejected"] == 2
    assert any("'T9', which was not sent" in line for line in entry["rejected_facts"])
    assert any("quote not found in turn T1" in line for line in entry["rejected_facts"])
    # No fact stored; only the refused log records what was refused, and why.
    after = tree_snapshot(root / "ada")
    assert set(after) - set(before) == {".metaeng/refused.jsonl"}
    assert store_text(root / "ada") == ""
    logged = [json.loads(line) for line in after[".metaeng/refused.jsonl"].decode().splitlines()]
    assert [(e["value"], e["reason"]) for e in logged] == [("Berlin", "unknown_turn"), ("Rome", "quote_not_found")]


@pytest.mark.slow
def test_fact_from_tool_output_is_refused_when_tool_sources_are_not_allowed(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    write_transcript(
        root / "ada",
        "tool.jsonl",
        '{"role": "user", "content": "read the file"}\n{"role": "tool", "content": "city: Atlantis"}\n{"type": "session_end"}\n',
    )
    turn = "T5"
    fake_model.reply(
        {"facts": [berlin_fact(turn=turn, quote="city: Atlantis", value="Atlantis")]},
        schema="DistillationResponse",
    )
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json").json())
    assert entry["rejected"] == 1
    assert "source 'tool' is not allowed" in entry["rejected_facts"][0]


@pytest.mark.slow
def test_two_runs_of_one_agent_never_interleave(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    answer = threading.Event()  # the slow run's answer waits until the second run was refused
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer)
    env = {"TEST_API_KEY": TEST_KEY, "HOME": str(root), "PATH": "/usr/bin:/bin"}
    slow = subprocess.Popen(
        [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).parents[3],
    )
    deadline = time.monotonic() + 10
    while not fake_model.requests and time.monotonic() < deadline:
        time.sleep(0.05)
    busy = run_cli(config, "once", "--agent", "ada")
    answer.set()
    assert busy.code == 1
    assert "agent 'ada' is busy" in busy.err
    _out, err = slow.communicate(timeout=60)
    assert slow.returncode == 0, err
    assert len(run_cli(config, "runs", "--json").json()) == 1


def test_distillation_backs_off_while_the_memory_lock_is_held(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    lock_path = root / "state" / "agents" / "ada" / "memory.lock"
    lock_path.parent.mkdir(parents=True)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import time, filelock; l = filelock.FileLock({str(lock_path)!r}); l.acquire(); print('held', flush=True); time.sleep(30)",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        entry = distill(run_cli(config, "once", "--agent", "ada", "--json").json())
        assert entry["status"] == "skipped" and "memory lock held" in entry["reason"]
        assert fake_model.requests == []
        assert "distillation" not in cursors(root).get("consumers", {})
    finally:
        holder.kill()
        holder.wait()
    with FileLock(str(lock_path), timeout=5):
        pass


def test_human_edits_are_committed_separately_before_the_run(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    first = run_cli(config, "once", "--agent", "ada", "--json").json()
    (root / "ada" / "AGENTS.md").write_text("# Instructions\n\n- Be very brief.\n", encoding="utf-8")
    add_turns(root)
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    second = run_cli(config, "once", "--agent", "ada", "--json").json()
    assert second["run_id"] is None
    assert any("committed external edits" in note for note in second["notes"])
    shown = run_cli(config, "show", first["run_id"]).out
    assert "AGENTS.md" not in shown.split("---", 1)[1]


def test_a_stored_fact_keeps_the_words_it_rests_on_and_memory_shows_them(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply(
        {"facts": [berlin_fact(), berlin_fact(turn="T1", key="language", value="Lima", quote="I live in Berlin")]},
        schema="DistillationResponse",
    )
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json").json())
    assert entry["stored"] == 1 and entry["rejected"] == 1
    assert "ungrounded — the quote does not say lima" in entry["rejected_facts"][0]
    (line,) = store_text(root / "ada").splitlines()
    assert json.loads(line)["quote"] == "I live in Berlin"
    listing = run_cli(config, "memory", "list", "--agent", "ada", "--as-of", "2026-11-30")
    assert "“I live in Berlin”" in listing.out
    query = run_cli(config, "memory", "query", "--agent", "ada", "--entity", "user", "--key", "city", "--as-of", "2026-11-30")
    assert "because: “I live in Berlin”" in query.out


def test_a_dry_run_on_a_home_no_run_ever_locked_creates_no_lock_file(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    meta = root / "ada" / ".metaeng"
    existed = meta.exists()

    assert run_cli(config, "once", "--agent", "ada", "--dry-run").code == 0

    assert not (meta / "lock").exists() and meta.exists() == existed
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0  # a real run locks the home
    assert (meta / "lock").exists()
    assert run_cli(config, "once", "--agent", "ada", "--dry-run").code == 0  # and a dry run then takes it too
    assert (meta / "lock").read_bytes() == b""

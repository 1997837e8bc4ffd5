"""The run index behind `runs`, `show` and `undo`: kept by the applier, rebuilt from the
store's trailers when missing, corrupt, of another version or stale."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from daemon.kernel.managed import ManagedPaths
from daemon.run.store_open import open_store
from tests.support.deploy import TEST_KEY, conversation, run_cli, tree_snapshot, usage_error, write_transcript
from tests.support.facts import shard_of
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

REPO = Path(__file__).parents[3]
FACTS = shard_of()  # the shard holding ada's user/city fact


def state(root: Path) -> Path:
    return root / "state" / "agents" / "ada"


def git(root: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    done = subprocess.run(
        ["git", f"--git-dir={state(root) / 'store.git'}", f"--work-tree={root / 'ada'}", *args],
        capture_output=True,
        text=True,
        check=True,
        env={**env, "GIT_AUTHOR_NAME": "A Person", "GIT_AUTHOR_EMAIL": "p@example.org",
             "GIT_COMMITTER_NAME": "A Person", "GIT_COMMITTER_EMAIL": "p@example.org"},
    )
    return done.stdout


def recorded_head(root: Path) -> str | None:
    path = state(root) / "run-index.sqlite3"
    if not path.exists():
        return None
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        row = db.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()
    return None if row is None else str(row[0])


def two_runs(root: Path, fake_model: FakeModelServer) -> tuple[Path, str, str]:
    """Two distillation runs: the first adds the city fact, the second a zoo fact."""
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    first = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    pairs = [("The zoo's color is green now.", "Noted."), *[(f"Question {i}?", "Answer.") for i in range(3)]]
    write_transcript(root / "ada", "s2.jsonl", conversation(pairs, day="2026-11-03"))
    later = berlin_fact(turn="T1", quote="The zoo's color is green", entity="zoo", key="color", value="green")
    fake_model.reply({"facts": [later]}, schema="DistillationResponse")
    second = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    assert first and second
    return config, first, second


def test_each_run_updates_the_index_to_the_stores_head(root: Path, fake_model: FakeModelServer) -> None:
    config, first, second = two_runs(root, fake_model)
    assert recorded_head(root) == git(root, "rev-parse", "HEAD").strip()
    runs = run_cli(config, "runs", "--json").json()
    assert [r["run_id"] for r in runs] == [second, first]
    assert all(r["files_changed"] == 1 and r["status"] == "applied" for r in runs)


@pytest.mark.slow
def test_a_deleted_index_is_rebuilt_from_the_stores_trailers(root: Path, fake_model: FakeModelServer) -> None:
    config, first, _second = two_runs(root, fake_model)
    before = run_cli(config, "runs", "--json").json()
    (state(root) / "run-index.sqlite3").unlink()
    assert run_cli(config, "runs", "--json").json() == before
    assert (state(root) / "run-index.sqlite3").exists()
    (state(root) / "run-index.sqlite3").unlink()
    shown = run_cli(config, "show", first)
    assert shown.code == 0 and f"Run-Id: {first}" in shown.out


@pytest.mark.slow
def test_a_corrupt_index_is_rebuilt_and_undo_still_works(root: Path, fake_model: FakeModelServer) -> None:
    config, first, _second = two_runs(root, fake_model)
    before = run_cli(config, "runs", "--json").json()
    (state(root) / "run-index.sqlite3").write_bytes(b"not a database\n" * 100)
    assert run_cli(config, "runs", "--json").json() == before
    (state(root) / "run-index.sqlite3").write_bytes(b"")
    undone = run_cli(config, "undo", first, "--json")
    assert undone.code == 0, undone.err
    runs = run_cli(config, "runs", "--json").json()
    assert runs[0]["status"] == f"undo of {first}" and runs[2]["status"] == f"undone by {runs[0]['run_id']}"


@pytest.mark.slow
def test_an_index_of_another_schema_version_is_rebuilt(root: Path, fake_model: FakeModelServer) -> None:
    config, _first, _second = two_runs(root, fake_model)
    before = run_cli(config, "runs", "--json").json()
    with sqlite3.connect(state(root) / "run-index.sqlite3") as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'version'")
        db.execute("DELETE FROM commits")
    assert run_cli(config, "runs", "--json").json() == before


@pytest.mark.slow
def test_a_crash_between_commit_and_index_write_is_caught_up_by_the_next_reader(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    first = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    indexed = recorded_head(root)
    assert indexed == git(root, "rev-parse", "HEAD").strip()
    pairs = [("The zoo's color is green now.", "Noted."), *[(f"Question {i}?", "Answer.") for i in range(3)]]
    write_transcript(root / "ada", "s2.jsonl", conversation(pairs, day="2026-11-03"))
    zoo = berlin_fact(turn="T1", quote="The zoo's color is green", entity="zoo", key="color", value="green")
    fake_model.reply({"facts": [zoo]}, schema="DistillationResponse")
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY, "METAENG_CRASH_AT": "before_index"}
    crashed = subprocess.run(
        [sys.executable, "-m", "tests.support.armed", "--config", str(config), "once", "--agent", "ada"],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    head = git(root, "rev-parse", "HEAD").strip()
    assert head != indexed and recorded_head(root) == indexed  # committed; the index did not see it
    runs = run_cli(config, "runs", "--json").json()  # a reader, no lock, no recovery
    assert [r["run_id"] for r in runs][1:] == [first] and runs[0]["files_changed"] == 1
    assert recorded_head(root) == head
    assert run_cli(config, "undo", runs[0]["run_id"]).code == 0


@pytest.mark.slow
def test_a_persons_commit_in_the_store_is_indexed_and_named_by_a_refused_undo(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, first, second = two_runs(root, fake_model)
    run_cli(config, "runs")  # the index is current
    facts = root / "ada" / FACTS
    facts.write_text(facts.read_text().replace('"Berlin"', '"Hamburg"'), encoding="utf-8")
    git(root, "commit", "-q", "-am", "my own fix")
    person = git(root, "rev-parse", "HEAD").strip()
    before = tree_snapshot(root / "ada")
    refused = run_cli(config, "undo", first)
    assert refused.code == 1
    assert "refused, nothing changed" in refused.err and FACTS in refused.err
    # The second run wrote another shard (the zoo fact): only the person's commit blocks.
    assert f"commit {person[:10]}" in refused.err and f"run {second}" not in refused.err
    assert tree_snapshot(root / "ada") == before
    assert recorded_head(root) == person
    assert [r["run_id"] for r in run_cli(config, "runs", "--json").json()] == [second, first]


@pytest.mark.slow
def test_a_refused_undo_names_the_external_edits_committed_before_it(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    run_id = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    facts = root / "ada" / FACTS
    facts.write_text(facts.read_text().replace('"Berlin"', '"Hamburg"'), encoding="utf-8")
    refused = run_cli(config, "undo", run_id)
    assert refused.code == 1
    edits = git(root, "log", "-1", "--format=%H %s").split()
    assert "external" in edits and f"external edits {edits[0][:10]}" in refused.err


@pytest.mark.slow
def test_a_rewritten_history_is_reindexed_with_the_same_run_ids(root: Path, fake_model: FakeModelServer) -> None:
    config, first, second = two_runs(root, fake_model)
    old_head = git(root, "rev-parse", "HEAD").strip()
    assert run_cli(config, "show", second).code == 0
    # A history rewrite (what a purge does): the last commit gets a new sha, its run id stays.
    message = git(root, "log", "-1", "--format=%B")
    git(root, "commit", "-q", "--amend", "--allow-empty", "-m", message.replace("distillation", "distillation (rewritten)", 1))
    new_head = git(root, "rev-parse", "HEAD").strip()
    assert new_head != old_head
    shown = run_cli(config, "show", second)
    assert shown.code == 0 and new_head in shown.out and "(rewritten)" in shown.out
    assert recorded_head(root) == new_head
    assert [r["run_id"] for r in run_cli(config, "runs", "--json").json()] == [second, first]


@pytest.mark.slow
def test_runs_limit_reads_only_the_newest(root: Path, fake_model: FakeModelServer) -> None:
    config, _first, second = two_runs(root, fake_model)
    assert [r["run_id"] for r in run_cli(config, "runs", "--limit", "1", "--json").json()] == [second]
    # 0 and below are a mistake, not "no runs recorded yet".
    for bad, said in (("-3", "must be 1 or more, got -3"), ("0", "must be 1 or more, got 0"), ("x", "expected a whole number, got 'x'")):
        assert f"argument --limit: {said}" in usage_error(config, "runs", "--limit", bad)


@pytest.mark.slow
def test_an_unwritable_state_folder_still_answers_from_an_index_in_memory(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, first, second = two_runs(root, fake_model)
    (state(root) / "run-index.sqlite3").unlink()
    runs_json = [sys.executable, "-m", "daemon", "--config", str(config), "runs", "--json"]
    if os.geteuid() == 0:
        # Root writes through permission bits: make the folder a read-only bind mount, in a
        # user+mount namespace of its own (as the hardening tests do for a read-only home).
        script = f"mount --bind -o ro {state(root)} {state(root)} && exec {' '.join(runs_json)}"
        done = subprocess.run(
            ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, cwd=Path(__file__).parents[3]
        )
    else:
        state(root).chmod(0o500)
        try:
            done = subprocess.run(runs_json, capture_output=True, text=True, cwd=Path(__file__).parents[3])
        finally:
            state(root).chmod(0o700)
    assert done.returncode == 0, done.stderr
    assert [r["run_id"] for r in json.loads(done.stdout)] == [second, first]
    assert not (state(root) / "run-index.sqlite3").exists()


def test_the_store_lists_commits_with_odd_paths_intact(tmp_path: Path) -> None:
    home, git_dir = tmp_path / "home", tmp_path / "store.git"
    odd = ["notes/a\nb.md", "notes/\x1estart.md", "notes/ä ö.md", "notes/plain.md"]
    (home / "notes").mkdir(parents=True)
    managed = ManagedPaths(files=frozenset(), dirs=frozenset({"notes"}))
    with open_store(git_dir, home, managed, tmp_path / "scratch") as store:
        for index, name in enumerate(odd):
            (home / name).write_text(f"{index}\n")
            store.stage_paths([name])
            store.commit(f"add {index}", {"Run-Id": f"r{index}"})
        (home / odd[0]).unlink()
        store.stage_paths([odd[0]])
        store.commit("remove", {"Run-Id": "r-last", "Undoes": "r0"})
        listed = list(store.commits_with_files(store.head() or ""))
    assert [info.run_id for info, _ in listed] == ["r0", "r1", "r2", "r3", "r-last"]
    assert [[(f.status, f.path) for f in files] for _, files in listed] == [
        [("A", odd[0])], [("A", odd[1])], [("A", odd[2])], [("A", odd[3])], [("D", odd[0])]
    ]
    assert listed[-1][0].trailers["Undoes"] == "r0"


def test_the_store_reads_many_files_at_many_commits_in_one_batch_as_one_at_a_time(tmp_path: Path) -> None:
    """An undo reads each file its run touched at three commits: one git process for all of
    them gives the bytes one `blob` call each gives, whatever the name or the content."""
    home, git_dir = tmp_path / "home", tmp_path / "store.git"
    contents: dict[str, bytes] = {
        "notes/a\nb.md": b"newline in the name\n",
        "notes/ä ö.md": "ünïcode\n".encode(),
        "notes/empty.md": b"",
        "notes/binary.bin": b"\x00\x01\n\n\x00 missing\n",
        "notes/no-final-newline.md": b"ends here",
        "notes/header-like.md": b"0123456789abcdef0123456789abcdef01234567 blob 5\n",
    }
    (home / "notes" / "dir").mkdir(parents=True)
    managed = ManagedPaths(files=frozenset(), dirs=frozenset({"notes"}))
    with open_store(git_dir, home, managed, tmp_path / "scratch") as store:
        for name, data in contents.items():
            (home / name).write_bytes(data)
        (home / "notes/dir/inner.md").write_text("in a folder\n")
        store.stage_paths([*contents, "notes/dir/inner.md"])
        first = store.commit("first", {"Run-Id": "r1"})
        (home / "notes/empty.md").write_bytes(b"now full\n")
        (home / "notes/binary.bin").unlink()
        store.stage_paths(["notes/empty.md", "notes/binary.bin"])
        store.commit("second", {"Run-Id": "r2"})
        wanted = [
            (rev, path)
            for rev in (first, "HEAD", "0" * 40)
            for path in [*contents, "notes/dir", "notes/absent.md", "notes/dir/inner.md"]
        ]
        batch = store.blobs(wanted + wanted[:3])  # asked twice: read once, same answer
        one_by_one = {key: store.blob(*key) for key in wanted}
    assert batch == one_by_one
    assert batch[first, "notes/binary.bin"] == contents["notes/binary.bin"]
    assert batch["HEAD", "notes/binary.bin"] is None and batch["HEAD", "notes/dir"] is None
    assert batch[first, "notes/a\nb.md"] == b"newline in the name\n"


@pytest.mark.slow
def test_a_half_built_index_left_by_a_killed_process_is_removed_on_rebuild(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, first, second = two_runs(root, fake_model)
    orphan = state(root) / "run-index.sqlite3.tmp-999999999"  # no such process
    orphan.write_bytes(b"half")
    (state(root) / "run-index.sqlite3").unlink()
    assert [r["run_id"] for r in run_cli(config, "runs", "--json").json()] == [second, first]
    assert not orphan.exists()


def test_a_reader_writes_nothing_into_a_store_its_first_run_is_still_creating(root: Path) -> None:
    """`runs`, `show` and the console's pages read while an agent's first run may be creating
    its store: a reader that wrote the store's config beside the run made git's config lock
    fail one of them, and the run did not start (the console's Run now, caught by CI)."""
    config = setup_agent(root, None)
    store = state(root) / "store.git"
    store.parent.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "--bare", str(store)], check=True, capture_output=True)
    before = tree_snapshot(store)

    listed = run_cli(config, "runs", "--agent", "ada", "--json")
    shown = run_cli(config, "show", "r-none", "--agent", "ada")

    assert listed.code == 0 and listed.json() == []
    assert shown.code == 1 and "r-none" in shown.err
    assert tree_snapshot(store) == before  # no config, no exclude rules, nothing

    state(root).joinpath("store.git").rename(state(root) / "gone.git")
    unknown = run_cli(config, "show", "r-none", "--agent", "ada")
    assert unknown.code == 1 and "no store yet" in unknown.err
    assert not (state(root) / "store.git").exists()  # a reader creates no store either

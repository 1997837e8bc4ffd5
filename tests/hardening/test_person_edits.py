"""A person edits a file while a run waits for the model: the person's bytes are never lost.

The runner writes a file only if it still holds what the pass planned against; a pass
whose file changed meanwhile is dropped (its turns kept), every later pass built on it is
dropped too, and the person's edit is committed as an external edit.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml

from tests.support.deploy import run_cli
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent
from tests.workspace.ada import clock, consolidation_answer, copy_example, on_call_proposal

pytestmark = pytest.mark.slow  # runs with a person's edit timed into the middle of them

PERSON_LINE = "- Jonas typed this line while the daemon was thinking.\n"


@contextmanager
def while_waiting(
    server: FakeModelServer, requests: int, action: Callable[[], None], done: threading.Event
) -> Iterator[None]:
    """Run `action` in a thread once the server has received `requests` more requests, then set `done`.

    The answer the run waits for is queued with `hold=done`: it leaves only after the
    edit, however slow the machine, so the edit always lands between plan and apply.
    """
    target = len(server.requests) + requests

    def watch() -> None:
        deadline = time.monotonic() + 30
        while len(server.requests) < target and time.monotonic() < deadline:
            time.sleep(0.01)
        try:
            action()
        finally:
            done.set()

    threading.Thread(target=watch, daemon=True).start()
    yield
    assert done.wait(30), "the edit never happened: the model was not asked"


def append(path: Path, text: str) -> Callable[[], None]:
    def act() -> None:
        with path.open("a", encoding="utf-8") as fh:
            fh.write(text)

    return act


def store_git(root: Path, *args: str) -> str:
    git_dir = next(root.rglob("store.git"))
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True
    ).stdout


def entry(body: dict, name: str) -> dict:
    return next(p for p in body["passes"] if p["name"] == name)


def test_an_edit_during_workspace_consolidation_is_kept_and_committed_as_an_external_edit(
    tmp_path: Path, fake_model: FakeModelServer
) -> None:
    config = copy_example(tmp_path, fake_model.url, instruction_hold=False)
    home = config.parent / "ada"
    assert run_cli(config, "once", "--agent", "ada", "--pass", "distillation", clock=clock).code == 0
    before = {name: (home / name).read_bytes() for name in ("AGENTS.md", "TOOLS.md", "SOUL.md", "USER.md")}
    memory = home / "MEMORY.md"
    expected = memory.read_text(encoding="utf-8") + PERSON_LINE
    edited = threading.Event()
    fake_model.reply(consolidation_answer(), schema="ConsolidationResponse", hold=edited)

    with while_waiting(fake_model, 1, append(memory, PERSON_LINE), edited):
        result = run_cli(
            config, "once", "--agent", "ada", "--pass", "workspace_consolidation", "--json", clock=clock
        )

    assert result.code == 0, result.err
    body = result.json()
    consolidation = entry(body, "workspace_consolidation")
    assert consolidation["status"] == "skipped"
    assert "changed during the run: MEMORY.md" in consolidation["reason"]
    assert body["run_id"] is None and body["files_changed"] == []
    # The person's bytes, exactly; the rest of the rewrite was dropped with it.
    assert memory.read_text(encoding="utf-8") == expected
    assert {name: (home / name).read_bytes() for name in before} == before
    # Their edit is in the store, as its own external-edits commit that no undo reverts.
    assert store_git(tmp_path, "show", "HEAD:MEMORY.md") == expected
    assert "Kind: external-edits" in store_git(tmp_path, "log", "-1", "--format=%B")
    assert any("edits made during the run" in note for note in body["notes"])


def test_an_edit_during_distillation_keeps_the_turns_for_the_next_cycle(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    data = yaml.safe_load(config.read_text())
    data["agents"]["ada"]["memory"] = {"markdown_view": "FACTS.md"}
    config.write_text(yaml.safe_dump(data))
    home = root / "ada"
    (home / "FACTS.md").write_text("# Facts\n", encoding="utf-8")
    cursors = root / "state" / "agents" / "ada" / "cursors.json"
    edited = threading.Event()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=edited)

    with while_waiting(fake_model, 1, append(home / "FACTS.md", "- my own note\n"), edited):
        result = run_cli(config, "once", "--agent", "ada", "--json")

    distill = entry(result.json(), "distillation")
    assert distill["status"] == "skipped" and "changed during the run: FACTS.md" in distill["reason"]
    assert (home / "FACTS.md").read_text() == "# Facts\n- my own note\n"
    assert store_text(home) == ""
    assert not cursors.exists() or "distillation" not in json.loads(cursors.read_text())["consumers"]
    # Next cycle: the same turns are read again and the fact lands.
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    again = run_cli(config, "once", "--agent", "ada", "--json")
    assert entry(again.json(), "distillation")["status"] == "applied"
    assert '"value":"Berlin"' in store_text(home)
    # The person's note is in the store's history, so it is never lost for good.
    assert "- my own note" in store_git(root, "log", "-p", "--format=%s", "--", "FACTS.md")


def test_a_later_pass_built_on_a_dropped_pass_is_dropped_too(tmp_path: Path, fake_model: FakeModelServer) -> None:
    config = copy_example(tmp_path, fake_model.url, instruction_hold=False)
    home = config.parent / "ada"
    assert run_cli(config, "once", "--agent", "ada", "--pass", "distillation", clock=clock).code == 0
    agents_before = (home / "AGENTS.md").read_bytes()
    edited = threading.Event()
    fake_model.reply(consolidation_answer(), schema="ConsolidationResponse", hold=edited)
    fake_model.reply({"proposals": [on_call_proposal(home)]}, schema="InstructionReviewResponse")

    with while_waiting(fake_model, 1, append(home / "MEMORY.md", PERSON_LINE), edited):
        result = run_cli(
            config,
            "once",
            "--agent",
            "ada",
            "--pass",
            "workspace_consolidation",
            "--pass",
            "instruction_review",
            "--json",
            clock=clock,
        )

    body = result.json()
    assert entry(body, "workspace_consolidation")["status"] == "skipped"
    review = entry(body, "instruction_review")
    # The review read AGENTS.md as the consolidation rewrote it: its proposal rests on
    # text that is not on disk, so it goes too, and its turns wait for the next cycle.
    assert review["status"] == "skipped", review
    assert "built on changes of workspace_consolidation" in review["reason"]
    assert (home / "AGENTS.md").read_bytes() == agents_before
    assert run_cli(config, "review", "list", "--agent", "ada", "--json", clock=clock).json() == []
    cursors = tmp_path / "demo" / "state" / "agents" / "ada" / "cursors.json"
    assert not cursors.exists() or "instruction_review" not in json.loads(cursors.read_text())["consumers"]


def test_an_edit_of_a_proposals_target_during_the_run_drops_the_proposal(
    tmp_path: Path, fake_model: FakeModelServer
) -> None:
    # Under instruction_hold the AGENTS.md/TOOLS.md consolidation becomes a proposal. Its
    # content was computed before the person's line existed: opened, it would have deleted
    # that line on approval.
    config = copy_example(tmp_path, fake_model.url, instruction_hold=True)
    home = config.parent / "ada"
    assert run_cli(config, "once", "--agent", "ada", "--pass", "distillation", clock=clock).code == 0
    agents = home / "AGENTS.md"
    expected = agents.read_text(encoding="utf-8") + PERSON_LINE
    edited = threading.Event()
    fake_model.reply(consolidation_answer(), schema="ConsolidationResponse", hold=edited)

    with while_waiting(fake_model, 1, append(agents, PERSON_LINE), edited):
        result = run_cli(
            config, "once", "--agent", "ada", "--pass", "workspace_consolidation", "--json", clock=clock
        )

    assert result.code == 0, result.err
    consolidation = entry(result.json(), "workspace_consolidation")
    assert consolidation["status"] == "skipped"
    assert "changed during the run: AGENTS.md" in consolidation["reason"]
    # What was planned is not reported as done: no proposal, no rewrite claimed.
    assert "proposals" not in consolidation and consolidation["files"] == []
    assert run_cli(config, "review", "list", "--agent", "ada", "--json").json() == []
    assert agents.read_text(encoding="utf-8") == expected


def test_undo_refuses_clearly_when_a_file_now_sits_where_the_run_removed_a_folder(
    tmp_path: Path, fake_model: FakeModelServer
) -> None:
    config = copy_example(tmp_path, fake_model.url)
    home = config.parent / "ada"
    run = run_cli(config, "once", "--agent", "ada", "--pass", "library_maintenance", "--json", clock=clock)
    assert run.code == 0, run.err
    assert not (home / "skills" / "find-next-on-call").exists()  # identical duplicate merged away
    (home / "skills" / "find-next-on-call").write_text("a person's note\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file() and ".metaeng" not in p.parts}

    undone = run_cli(config, "undo", run.json()["run_id"])

    assert undone.code == 1, undone.err
    assert "nothing changed" in undone.err and "skills/find-next-on-call" in undone.err
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file() and ".metaeng" not in p.parts} == before


def test_a_symlink_put_in_place_of_a_file_during_the_run_drops_the_pass_and_is_left_alone(
    tmp_path: Path, fake_model: FakeModelServer
) -> None:
    config = copy_example(tmp_path, fake_model.url, instruction_hold=False)
    home = config.parent / "ada"
    assert run_cli(config, "once", "--agent", "ada", "--pass", "distillation", clock=clock).code == 0
    memory = home / "MEMORY.md"
    elsewhere = tmp_path / "memory-elsewhere.md"
    elsewhere.write_bytes(memory.read_bytes())
    edited = threading.Event()
    fake_model.reply(consolidation_answer(), schema="ConsolidationResponse", hold=edited)

    def to_symlink() -> None:
        memory.unlink()
        memory.symlink_to(elsewhere)

    with while_waiting(fake_model, 1, to_symlink, edited):
        result = run_cli(
            config, "once", "--agent", "ada", "--pass", "workspace_consolidation", "--json", clock=clock
        )

    assert result.code == 0, result.err
    consolidation = entry(result.json(), "workspace_consolidation")
    assert consolidation["status"] == "skipped"
    assert "changed during the run: MEMORY.md" in consolidation["reason"] and "symlink" in consolidation["reason"]
    assert memory.is_symlink() and elsewhere.read_bytes() == memory.read_bytes()

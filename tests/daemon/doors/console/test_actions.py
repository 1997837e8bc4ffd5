"""Each button changes exactly what its command changes, through the same library code."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.coordination.backends import agent_breaker
from daemon.doors import logs
from tests.daemon.doors.console.helpers import (
    DAYS,
    NOW,
    client,
    clock,
    open_proposal,
    post,
    review_deployment,
)
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.skill_library import curated_library, learned

REVIEW = ".metaeng/review"


def _without_review(snapshot: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v for k, v in snapshot.items() if not k.startswith(REVIEW)}


def _proposal(home: Path, pid: str) -> dict:  # type: ignore[type-arg]
    return json.loads((home / REVIEW / f"{pid}.json").read_text())


@pytest.mark.slow
def test_approve_button_changes_what_review_approve_changes(root: Path) -> None:
    a, b = review_deployment(root / "a"), review_deployment(root / "b")
    pid_a, pid_b = open_proposal(a), open_proposal(b)

    answer = post(client(a), f"/review/ada/{pid_a}/approve", "/review", why="ok")
    cli = run_cli(b, "review", "approve", pid_b, "--by", "alice", "--why", "ok")

    assert answer.status_code == 200 and cli.code == 0, answer.text
    assert "Remove 20" not in answer.text and 'id="result"' in answer.text
    assert _without_review(tree_snapshot(root / "a" / "ada")) == _without_review(tree_snapshot(root / "b" / "ada"))
    left, right = _proposal(root / "a" / "ada", pid_a), _proposal(root / "b" / "ada", pid_b)
    assert left["decision"] == right["decision"] == "approved"
    assert left["history"][-1]["by"].startswith("alice (console:") and left["history"][-1]["why"] == "ok"
    assert run_cli(a, "runs", "--json").json()[0]["run_id"] == left["run_id"]
    assert f'href="/runs/ada/{left["run_id"]}"' in answer.text


@pytest.mark.slow
def test_reject_button_changes_what_review_reject_changes(root: Path) -> None:
    a, b = review_deployment(root / "a"), review_deployment(root / "b")
    pid, pid_b = open_proposal(a), open_proposal(b)

    answer = post(client(a), f"/review/ada/{pid}/reject", "/review", why="keep the notes")
    assert run_cli(b, "review", "reject", pid_b, "--by", "alice", "--why", "keep the notes").code == 0

    assert answer.status_code == 200
    assert _without_review(tree_snapshot(root / "a" / "ada")) == _without_review(tree_snapshot(root / "b" / "ada"))
    left = _proposal(root / "a" / "ada", pid)
    assert left["decision"] == "rejected" and left["history"][-1]["why"] == "keep the notes"


@pytest.mark.slow
def test_approving_a_stale_proposal_is_refused_and_changes_nothing(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    (root / "ada" / "memory" / f"{DAYS[1]}.md").write_text("# changed by a person\n")
    before = tree_snapshot(root / "ada")
    answer = post(client(config), f"/review/ada/{pid}/approve", "/review")
    assert answer.status_code == 409 and "stale" in answer.text
    assert tree_snapshot(root / "ada") == before


def test_deciding_twice_or_an_unknown_proposal_is_refused(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    browser = client(config)
    assert post(browser, f"/review/ada/{pid}/reject", "/review").status_code == 200
    before = tree_snapshot(root / "ada")
    again = post(browser, f"/review/ada/{pid}/approve", "/review")
    assert again.status_code == 409 and "rejected" in again.text
    assert post(browser, "/review/ada/nope/approve", "/review").status_code == 409
    assert post(browser, f"/review/ada/{pid}/delete", "/review").status_code == 404
    assert post(browser, f"/review/bob/{pid}/approve", "/review").status_code == 404
    assert tree_snapshot(root / "ada") == before


@pytest.mark.slow
def test_undo_button_restores_the_files_as_a_new_run_like_undo(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    before = tree_snapshot(root / "ada")
    approved = run_cli(config, "review", "approve", pid, "--json").json()["run_id"]
    assert tree_snapshot(root / "ada") != before
    browser = client(config)

    answer = post(browser, f"/runs/ada/{approved}/undo", f"/runs/ada/{approved}")

    assert answer.status_code == 200, answer.text
    assert tree_snapshot(root / "ada") == before
    runs = {r["run_id"]: r for r in run_cli(config, "runs", "--json").json()}
    (undo_id,) = [r for r, row in runs.items() if row["status"] == f"undo of {approved}"]
    assert runs[approved]["status"] == f"undone by {undo_id}"
    assert f"run {approved} undone by run {undo_id} on agent ada" in answer.text
    page = browser.get(f"/runs/ada/{approved}").text
    assert f"undone by {undo_id}" in page and "Undo this run" not in page


def test_a_refused_undo_names_the_files_and_the_later_run_and_changes_nothing(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    (first,) = run_cli(config, "runs", "--json").json()
    approved = run_cli(config, "review", "approve", pid, "--json").json()["run_id"]
    before = tree_snapshot(root / "ada")

    answer = post(client(config), f"/runs/ada/{first['run_id']}/undo", "/runs")

    assert answer.status_code == 409
    assert f"undo of {first['run_id']} refused, nothing changed" in answer.text
    assert f'<a href="/runs/ada/{approved}">run {approved}</a> changed {REVIEW}/{pid}.json' in answer.text
    assert tree_snapshot(root / "ada") == before
    assert run_cli(config, "runs", "--json").json()[0]["run_id"] == approved


def test_a_refused_undo_names_a_persons_later_edit(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    approved = run_cli(config, "review", "approve", pid, "--json").json()["run_id"]
    target = root / "ada" / "memory" / f"{DAYS[1]}.md"
    target.write_text(target.read_text() + "\n- Reminder: a person's own note.\n")
    run_cli(config, "once", "--agent", "ada", "--pass", "memory_consolidation", clock=lambda: NOW)
    before = tree_snapshot(root / "ada")

    answer = post(client(config), f"/runs/ada/{approved}/undo", "/runs")

    assert answer.status_code == 409, answer.text
    assert "a person&#39;s edit" in answer.text and f"changed memory/{DAYS[1]}.md" in answer.text
    assert tree_snapshot(root / "ada") == before


def test_breaker_reset_button_closes_the_breaker_like_breaker_reset(root: Path) -> None:
    model = {"base_url": "http://127.0.0.1:9", "model": "m", "api_key_env": "K"}
    config = review_deployment(root, model={**model, "price_input_per_million": 1, "price_output_per_million": 1})
    deployment = load_deployment(config, {})
    breaker = agent_breaker(deployment, "ada")
    assert breaker is not None
    for _ in range(5):
        breaker.record(False, NOW, "HTTP 500")
    browser = client(config)
    page = browser.get("/agents").text
    assert "open until" in page and 'action="/agents/ada/breaker/reset"' in page

    answer = post(browser, "/agents/ada/breaker/reset", "/agents")

    assert answer.status_code == 200 and "closed (was 5 consecutive failure(s))" in answer.text
    status = run_cli(config, "breaker", "status", "--agent", "ada", "--json").json()
    assert status["open"] is False and status["consecutive_failures"] == 0


def test_breaker_reset_without_a_model_is_refused(root: Path) -> None:
    answer = post(client(review_deployment(root)), "/agents/ada/breaker/reset", "/agents")
    assert answer.status_code == 409 and "no model configured" in answer.text


@pytest.mark.slow
def test_restore_button_undoes_the_quarantine_run(root: Path) -> None:
    from tests.skills_engine.test_preservation_guard import damaged_fork

    config = damaged_fork(root)
    before = tree_snapshot(root / "ada", skip=[".metaeng"])
    checked = run_cli(config, "skills", "check", "--agent", "ada", "--json").json()
    assert not (root / "ada/skills/triage").exists()
    browser = client(config)

    answer = post(browser, "/skills/ada/triage/restore", "/skills?agent=ada")

    assert answer.status_code == 200, answer.text
    assert f"run {checked['run_id']} undone by run" in answer.text
    assert tree_snapshot(root / "ada", skip=[".metaeng"]) == before
    assert (root / "ada/skills/triage/templates/t.md").read_text() == "short\n"
    missing = post(browser, "/skills/ada/nothing-here/restore", "/skills?agent=ada")
    assert missing.status_code == 404 and "is not quarantined" in missing.text


def test_every_action_is_logged_with_the_session_and_what_it_did(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    browser = client(config)
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=True)
    post(browser, f"/review/ada/{pid}/approve", "/review")
    post(browser, "/runs/ada/nope/undo", "/runs")
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    actions = [e for e in entries if e["event"] == "console.action"]
    assert [(e["action"], e["target"], e["outcome"]) for e in actions] == [
        ("approve", pid, "applied"),
        ("undo", "nope", "refused"),
    ]
    assert all(e["session"].startswith("console:") and e["agent"] == "ada" for e in actions)


def test_an_action_keeps_the_pages_address_for_htmx(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    answer = post(client(config), f"/review/ada/{pid}/reject", "/review")
    assert answer.headers["hx-push-url"] == "false"


@pytest.mark.slow
def test_undo_says_which_proposals_it_withdraws_before_and_after_in_the_cli_and_the_console(root: Path) -> None:
    def raised(config: Path) -> tuple[str, str]:
        result = run_cli(config, "once", "--agent", "ada", "--pass", "workspace_consolidation", "--json", clock=clock)
        entry = next(p for p in result.json()["passes"] if p["name"] == "workspace_consolidation")
        (pid,) = entry["proposals"]
        return str(result.json()["run_id"]), str(pid)

    a, b = review_deployment(root / "a"), review_deployment(root / "b")
    (run_a, pid_a), (run_b, pid_b) = raised(a), raised(b)
    before = tree_snapshot(root / "b" / "ada")
    runs_before = run_cli(b, "runs", "--json").json()

    dry = run_cli(b, "undo", run_b, "--dry-run", "--json")
    assert dry.code == 0, dry.err
    body = dry.json()
    assert body["run_id"] is None and body["dry_run"] is True
    assert [p.split(" ")[0] for p in body["proposals_withdrawn"]] == [pid_b]
    assert f"{REVIEW}/{pid_b}.json" in body["files_changed"]
    assert tree_snapshot(root / "b" / "ada") == before and run_cli(b, "runs", "--json").json() == runs_before

    undone = run_cli(b, "undo", run_b)
    assert undone.code == 0, undone.err
    assert f"withdraws proposal {pid_b} (" in undone.out
    assert not (root / "b" / "ada" / REVIEW / f"{pid_b}.json").exists()

    browser = client(a)
    page = browser.get(f"/runs/ada/{run_a}").text
    assert f"withdraws proposal {pid_a} (" in page and 'id="undo-effects"' in page
    answer = post(browser, f"/runs/ada/{run_a}/undo", f"/runs/ada/{run_a}")
    assert answer.status_code == 200, answer.text
    assert f"withdraws proposal {pid_a} (" in answer.text


def _pins(home: Path) -> set[str]:
    return set(json.loads((home / ".metaeng" / "skill-pins.json").read_text())["pinned"])


def test_pin_and_unpin_buttons_pin_like_skills_pin_each_as_a_run_the_undo_button_reverts(root: Path) -> None:
    config = curated_library(root)
    home = root / "ada"
    browser = client(config)

    pinned = post(browser, "/skills/ada/old-report/pin", "/skills?agent=ada")

    assert pinned.status_code == 200, pinned.text
    assert "pinned old-report" in pinned.text
    assert _pins(home) == {"pinned-old", "old-report"}
    (run,) = [r for r in run_cli(config, "runs", "--json").json() if r["status"] == "applied"]
    assert f'href="/runs/ada/{run["run_id"]}"' in pinned.text
    assert 'action="/skills/ada/old-report/unpin"' in browser.get("/skills?agent=ada").text
    dry = run_cli(config, "curator", "--agent", "ada", "--dry-run", "--json", clock=clock).json()
    assert dry["would_archive"] == []  # the curator reads the same pins

    again = post(browser, "/skills/ada/old-report/pin", "/skills?agent=ada")
    assert again.status_code == 200 and "old-report is already pinned" in again.text
    assert 'href="/runs/' not in again.text  # nothing to change: no run

    undone = post(browser, f"/runs/ada/{run['run_id']}/undo", f"/runs/ada/{run['run_id']}")
    assert undone.status_code == 200, undone.text
    assert _pins(home) == {"pinned-old"}

    unpinned = post(browser, "/skills/ada/pinned-old/unpin", "/skills?agent=ada")
    assert unpinned.status_code == 200 and "unpinned pinned-old" in unpinned.text
    assert _pins(home) == set()


def test_pinning_a_skill_the_agent_does_not_have_is_refused_and_changes_nothing(root: Path) -> None:
    config = curated_library(root)
    browser = client(config)
    before = tree_snapshot(root / "ada")
    missing = post(browser, "/skills/ada/nope/pin", "/skills?agent=ada")
    assert missing.status_code == 409 and "agent ada has no skill &#39;nope&#39;" in missing.text
    assert post(browser, "/skills/bob/old-report/pin", "/skills?agent=ada").status_code == 404
    assert post(browser, "/skills/ada/old-report/delete", "/skills?agent=ada").status_code == 404
    assert tree_snapshot(root / "ada") == before


def test_restore_button_moves_an_archived_skill_back_like_skills_restore(root: Path) -> None:
    a, b = curated_library(root / "a"), curated_library(root / "b")
    archived = (root / "a" / "ada" / ".metaeng" / "skill-archive" / "gone-skill" / "skill" / "SKILL.md").read_bytes()
    browser = client(a)

    answer = post(browser, "/skills/ada/archive/gone-skill/restore", "/skills?agent=ada")
    cli = run_cli(b, "skills", "restore", "gone-skill", "--agent", "ada", clock=clock)

    assert answer.status_code == 200 and cli.code == 0, answer.text
    assert "restored gone-skill to skills/gone-skill" in answer.text
    assert (root / "a" / "ada" / "skills" / "gone-skill" / "SKILL.md").read_bytes() == archived
    assert not (root / "a" / "ada" / ".metaeng" / "skill-archive" / "gone-skill").exists()
    assert tree_snapshot(root / "a" / "ada") == tree_snapshot(root / "b" / "ada")
    page = browser.get("/skills?agent=ada").text
    assert 'id="skill-gone-skill"' in page and "No archived skills." in page


def test_a_refused_restore_says_why_and_changes_nothing(root: Path) -> None:
    config = curated_library(root)
    home = root / "ada"
    browser = client(config)
    before = tree_snapshot(home)
    missing = post(browser, "/skills/ada/archive/old-report/restore", "/skills?agent=ada")
    assert missing.status_code == 409 and "no archived skill &#39;old-report&#39; (archived: gone-skill)" in missing.text
    assert tree_snapshot(home) == before
    learned(home, "gone-skill", "2026-11-01T00:00:00+00:00")  # learned again since it was archived
    before = tree_snapshot(home)
    clash = post(browser, "/skills/ada/archive/gone-skill/restore", "/skills?agent=ada")
    assert clash.status_code == 409 and "already holds a skill &#39;gone-skill&#39;" in clash.text
    assert tree_snapshot(home) == before


def test_pin_and_restore_buttons_are_logged_with_the_session(root: Path) -> None:
    config = curated_library(root)
    browser = client(config)
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=True)
    post(browser, "/skills/ada/old-report/pin", "/skills?agent=ada")
    post(browser, "/skills/ada/archive/nope/restore", "/skills?agent=ada")
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    actions = [e for e in entries if e["event"] == "console.action"]
    assert [(e["action"], e["target"], e["outcome"]) for e in actions] == [
        ("pin", "old-report", "applied"),
        ("skill-restore", "nope", "refused"),
    ]
    assert all(e["session"].startswith("console:") and e["agent"] == "ada" for e in actions)

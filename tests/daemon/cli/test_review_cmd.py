"""`review list|show|approve|reject`, on proposals made without a model: with `autonomy:
review`, the daily-log de-duplication of the consolidation pass waits in the queue."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from daemon.doors.cli import build_parser
from tests.support.deploy import CliResult, base_config, run_cli, tree_snapshot, write_config
from tests.workspace.ada import clock

LOG = "# {day}\n\n- Reminder: the ticket export lives at exports/tickets.csv.\n"


def _deploy(root: Path) -> tuple[Path, Path]:
    config = base_config(root, None)
    config["autonomy"] = "review"
    home = root / "ada"
    (home / "memory").mkdir()
    for day in ("2026-11-20", "2026-11-21", "2026-11-22"):
        (home / "memory" / f"{day}.md").write_text(LOG.format(day=day))
    return write_config(root, config), home


def _proposal_id(config: Path) -> str:
    result = run_cli(
        config, "once", "--agent", "ada", "--pass", "workspace_consolidation", "--json", clock=clock
    )
    entry = next(p for p in result.json()["passes"] if p["name"] == "workspace_consolidation")
    (pid,) = entry["proposals"]
    return str(pid)


def _review(config: Path, *args: str) -> CliResult:
    return run_cli(config, "review", *args, clock=clock)


def test_list_json_has_the_contract_fields(root: Path) -> None:
    config, _home = _deploy(root)
    pid = _proposal_id(config)

    (row,) = _review(config, "list", "--agent", "ada", "--json").json()

    assert {k: row[k] for k in ("id", "kind", "target", "status", "run_id")} == {
        "id": pid,
        "kind": "daily-logs",
        "target": "memory/2026-11-21.md, memory/2026-11-22.md",
        "status": "open",
        "run_id": None,
    }
    assert row["created_at"] == "2026-11-30T12:00:00+00:00"
    assert row["created_by_run"].startswith("20261130T120000Z-")


def test_list_human_and_filters(root: Path) -> None:
    config, _home = _deploy(root)
    assert _review(config, "list").out == "the review queue is empty\n"
    pid = _proposal_id(config)

    lines = _review(config, "list").out.splitlines()

    assert lines[0].split() == ["ID", "AGENT", "KIND", "STATUS", "TARGET", "TITLE"]
    assert lines[1].startswith(f"{pid}  ada    daily-logs  open")
    assert _review(config, "list", "--status", "approved").out == "no approved proposals\n"
    assert len(_review(config, "list", "--status", "open", "--json").json()) == 1


def test_show_json_adds_diff_rationale_evidence(root: Path) -> None:
    config, _home = _deploy(root)
    pid = _proposal_id(config)

    shown = _review(config, "show", pid, "--json").json()

    assert shown["id"] == pid and shown["status"] == "open"
    assert "--- a/memory/2026-11-21.md\n+++ b/memory/2026-11-21.md" in shown["diff"]
    assert "-- Reminder: the ticket export lives at exports/tickets.csv." in shown["diff"]
    assert "autonomy: review" in shown["rationale"]
    assert shown["evidence"] == [
        "memory/2026-11-21.md:3 repeats memory/2026-11-20.md:3: - Reminder: the ticket export lives at exports/tickets.csv.",
        "memory/2026-11-22.md:3 repeats memory/2026-11-20.md:3: - Reminder: the ticket export lives at exports/tickets.csv.",
    ]
    human = _review(config, "show", pid).out
    assert human.startswith(f"{pid}  [open]  daily-logs → memory/2026-11-21.md, memory/2026-11-22.md\n")
    assert "rationale:" in human and "evidence:" in human and "+++ b/memory/2026-11-22.md" in human


def test_approve_applies_as_an_undoable_run_and_a_second_approve_is_refused(root: Path) -> None:
    config, home = _deploy(root)
    pid = _proposal_id(config)

    approved = _review(config, "approve", pid)

    assert approved.code == 0, approved.err
    assert "undo with: metaeng-daemon" in approved.out
    assert (home / "memory" / "2026-11-22.md").read_text() == "# 2026-11-22\n"
    before = tree_snapshot(home)
    again = _review(config, "approve", pid)
    assert again.code == 1
    assert again.err == f"error: proposal {pid} was already approved; nothing changed\n"
    assert _review(config, "reject", pid).code == 1
    assert tree_snapshot(home) == before
    run_id = _review(config, "list", "--json").json()[0]["run_id"]
    assert run_cli(config, "undo", run_id, clock=clock).code == 0
    assert (home / "memory" / "2026-11-22.md").read_text() == LOG.format(day="2026-11-22")
    assert _review(config, "list", "--json").json()[0]["status"] == "open"


def test_reject_records_the_reason_and_changes_no_target(root: Path) -> None:
    config, home = _deploy(root)
    pid = _proposal_id(config)
    logs = {p: t for p, t in tree_snapshot(home).items() if p.startswith("memory/")}

    rejected = _review(
        config, "reject", pid, "--why", "I want the daily reminders", "--by", "jonas", "--json"
    )

    assert rejected.code == 0, rejected.err
    assert rejected.json()["action"] == "reject"
    assert {p: t for p, t in tree_snapshot(home).items() if p.startswith("memory/")} == logs
    shown = _review(config, "show", pid, "--json").json()
    assert shown["status"] == "rejected"
    assert shown["history"][-1] | {"at": None, "run_id": None} == {
        "at": None,
        "action": "rejected",
        "by": "jonas",
        "why": "I want the daily reminders",
        "run_id": None,
    }


def test_unknown_proposal_is_an_error(root: Path) -> None:
    config, _home = _deploy(root)
    result = _review(config, "approve", "20261130-nope-000000")
    assert result.code == 1 and "no proposal '20261130-nope-000000'" in result.err


def test_unreadable_or_newer_proposal_files_are_refused_clearly(root: Path) -> None:
    config, home = _deploy(root)
    pid = _proposal_id(config)
    path = home / ".metaeng" / "review" / f"{pid}.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "version": 99}))
    result = _review(config, "list")
    assert result.code == 1 and f"{pid}.json has version 99" in result.err
    path.write_text("{not json")
    result = _review(config, "list")
    assert result.code == 1 and f"{pid}.json is unreadable" in result.err


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@pytest.mark.parametrize("action", ["list", "show", "approve", "reject"])
def test_every_review_action_has_help_text(action: str) -> None:
    review = _subparsers(build_parser({}))["review"]
    assert review.description
    sub = _subparsers(review)[action]
    assert sub.description and sub.format_help()

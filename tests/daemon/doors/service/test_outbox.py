"""The notification outbox (`<state>/notify-outbox.json`) and the notify command's environment."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from structlog.testing import capture_logs

from daemon.doors.service.notify import command_env
from daemon.doors.service.outbox import MAX_LETTERS, Letter, Outbox

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _letter(n: int, at: datetime = NOW) -> Letter:
    return Letter(
        f"e{n:04d}", "run_failed", "ada", at.isoformat(), {"id": f"e{n:04d}"}, ("webhook", "command")
    )


def test_a_letter_leaves_once_every_target_took_it_and_the_file_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "notify-outbox.json"
    outbox = Outbox(path)
    outbox.add([_letter(1), _letter(2)], NOW)
    outbox.delivered("e0001", "command")
    outbox.delivered("e0002", "command")
    outbox.delivered("e0002", "webhook")
    again = Outbox(path)
    assert [(x.id, x.targets) for x in again.pending()] == [("e0001", ("webhook",))]
    assert json.loads(path.read_text())["version"] == 1


def test_claimed_letters_are_left_to_their_job(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "notify-outbox.json")
    outbox.add([_letter(1)], NOW)  # claimed by the job that added it
    assert outbox.claim_unclaimed() == []
    outbox.release(["e0001"])
    assert [x.id for x in outbox.claim_unclaimed()] == ["e0001"]


def test_the_outbox_is_bounded_and_says_which_events_it_dropped(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "notify-outbox.json")
    old = _letter(0, NOW - timedelta(days=8))
    with capture_logs() as logs:
        outbox.add([old, *(_letter(n) for n in range(1, MAX_LETTERS + 3))], NOW)
    assert len(outbox.pending()) == MAX_LETTERS
    dropped = [(e["reason"], e["events"]) for e in logs if e["event"] == "notify.dropped"]
    assert dropped == [
        ("older than 7 days", ["e0000"]),
        (f"more than {MAX_LETTERS} waiting", ["e0001", "e0002"]),
    ]


def test_an_outbox_from_a_newer_daemon_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notify-outbox.json"
    path.write_text('{"version": 99, "letters": []}')
    with capture_logs() as logs:
        outbox = Outbox(path)
        outbox.add([_letter(1)], NOW)
    assert path.read_text() == '{"version": 99, "letters": []}' and len(outbox.pending()) == 1
    assert "newer metaeng-daemon" in next(
        e["error"] for e in logs if e["event"] == "notify.outbox_unreadable"
    )


def test_the_command_gets_path_and_the_locale_only() -> None:
    env = {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "LC_TIME": "C",
        "HOME": "/home/x",
        "OPENAI_API_KEY": "sk-x",
        "LC_SECRET": "listed",
        "CREDENTIALS_DIRECTORY": "/run/credentials/x",
    }
    assert command_env(env, hidden=["LC_SECRET", "OPENAI_API_KEY"]) == {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "LC_TIME": "C",
    }

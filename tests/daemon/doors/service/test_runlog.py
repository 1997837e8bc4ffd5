"""Reading the run log backwards."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from daemon.doors.service import runlog
from daemon.kernel.errors import StateVersionError


def _entry(i: int, passes: dict[str, str], **extra: object) -> str:
    started = datetime(2026, 11, 30, 10, i % 60, tzinfo=UTC).isoformat()
    body = {"v": 1, "run_id": f"r{i}", "outcome": "applied", "started_at": started, "duration_s": 1.5}
    return json.dumps({**body, "passes": passes, **extra}) + "\n"


def test_entries_come_newest_first_across_chunk_boundaries(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    padding = "x" * 300
    log.write_text("".join(_entry(i, {"distillation": "applied"}, pad=padding) for i in range(600)))
    ids = [e["run_id"] for e in runlog.entries_newest_first(log)]
    assert ids == [f"r{i}" for i in reversed(range(600))]


def test_last_started_finds_the_newest_run_of_the_group(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(
        _entry(1, {"memory_consolidation": "applied"})
        + _entry(2, {"distillation": "applied"})
        + _entry(3, {"distillation": "nothing"})
    )
    assert runlog.last_started(log, ["memory_consolidation"]) == datetime(2026, 11, 30, 10, 1, tzinfo=UTC)
    assert runlog.last_started(log, ["distillation", "skill_learning"]) == datetime(
        2026, 11, 30, 10, 3, tzinfo=UTC
    )
    assert runlog.last_started(log, ["instruction_review"]) is None
    assert runlog.last_started(tmp_path / "missing.jsonl", ["distillation"]) is None


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(_entry(1, {"distillation": "applied"}) + '{"v": 1, "run_id": "r2", "outc')
    last = runlog.last_run(log)
    assert last is not None and last["run_id"] == "r1"
    assert runlog.finished_at(last) == "2026-11-30T10:01:01.500000+00:00"  # derived for old entries


def test_an_entry_of_a_newer_version_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(_entry(1, {}) + json.dumps({"v": 2, "run_id": "r2"}) + "\n")
    with pytest.raises(StateVersionError, match="version 2"):
        runlog.last_run(log)


def _failed(i: int, reason: str = "boom", **others: str) -> str:
    return _entry(i, {"distillation": "failed", **others}, reasons={"distillation": reason})


def test_a_pass_failing_the_same_way_three_runs_in_a_row_is_stuck_since_the_first(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(_entry(1, {"distillation": "applied"}) + _failed(2) + _failed(3) + _failed(4))
    stuck = runlog.stuck_passes(log, ["distillation", "skill_learning"])
    assert stuck == {"distillation": runlog.Stuck("boom", "2026-11-30T10:02:00+00:00", 3)}


def test_a_different_reason_a_success_or_a_skip_ends_the_streak(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(_failed(1) + _failed(2, "other") + _failed(3) + _failed(4))
    assert runlog.stuck_passes(log, ["distillation"]) == {}
    log.write_text(_failed(1) + _failed(2) + _failed(3) + _entry(4, {"distillation": "skipped"}))
    assert runlog.stuck_passes(log, ["distillation"]) == {}


def test_runs_without_the_pass_do_not_count_and_old_entries_without_reasons_end_the_streak(
    tmp_path: Path,
) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(
        _entry(1, {"distillation": "failed"})  # written before reasons were logged
        + _failed(2)
        + _entry(3, {"memory_consolidation": "applied"})
        + _failed(4)
    )
    assert runlog.stuck_passes(log, ["distillation"]) == {}
    log.write_text(log.read_text() + _failed(5))
    assert runlog.stuck_passes(log, ["distillation"])["distillation"].runs == 3
    assert runlog.stuck_passes(tmp_path / "missing.jsonl", ["distillation"]) == {}

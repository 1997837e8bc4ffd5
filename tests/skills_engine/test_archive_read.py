"""The archive read whole (`read_archive`) and by its records only (`recorded_names`, what a
create and a pin ask): the same names, a skill whose record does not read left out by both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daemon.kernel.errors import DaemonError
from daemon.kernel.view import AgentView
from skills_engine.archive import ARCHIVE_DIR, ArchiveRecord, plan_restore, read_archive, recorded_names


def archived(home: Path, name: str, record: bytes | None = None) -> None:
    folder = home / ARCHIVE_DIR / name
    (folder / "skill").mkdir(parents=True)
    (folder / "skill" / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Handle {name}.\n---\n1. Do it.\n")
    if record is None:
        record = json.dumps(
            ArchiveRecord(
                name=name, why="unused", uses=0, last_use=None, sessions_since=30, days_since=9,
                archived_at="2026-11-01T08:00:00+00:00", run_id=None, moved_from=f"skills/{name}",
            ).model_dump(mode="json")
        ).encode()
    (folder / "archive.json").write_bytes(record)


def test_the_names_by_records_are_the_names_of_the_whole_read(tmp_path: Path) -> None:
    archived(tmp_path, "old-report")
    archived(tmp_path, "weekly-digest")
    archived(tmp_path, "torn-record", b'{"version": 1, "name": ')
    archived(tmp_path, "newer", b'{"version": 99, "name": "newer"}')
    (tmp_path / ARCHIVE_DIR / "no-record" / "skill").mkdir(parents=True)
    view = AgentView(tmp_path)
    whole, problems = read_archive(view)
    assert set(whole) == recorded_names(view) == {"old-report", "weekly-digest"}
    assert len(problems) == 2


def test_a_restore_reads_the_one_skill_and_a_wrong_name_lists_the_recorded_ones(tmp_path: Path) -> None:
    archived(tmp_path, "old-report")
    archived(tmp_path, "weekly-digest")
    archived(tmp_path, "torn-record", b"not json")
    view = AgentView(tmp_path)
    writes, _deletes = plan_restore(view, "skills", "old-report")
    assert {w.path for w in writes} >= {"skills/old-report/SKILL.md"}
    with pytest.raises(DaemonError, match=r"no archived skill 'gone' \(archived: old-report, weekly-digest\)"):
        plan_restore(view, "skills", "gone")

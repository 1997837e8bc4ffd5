from __future__ import annotations

from datetime import date

from workspace.daily_logs import deduplicate, select_window
from workspace.loss_check import check

NOTE = "- Reminder: the ticket export lives at exports/tickets.csv."


def _logs(days: range) -> list[tuple[str, str]]:
    logs = []
    for day in days:
        extra = "\n- Weekly ops report posted; P1 down 47%." if day == 23 else ""
        logs.append((f"memory/2026-11-{day}.md", f"# 2026-11-{day}\n\n{NOTE}{extra}\n"))
    return logs


def test_note_repeated_across_eleven_days_is_kept_once() -> None:
    logs = _logs(range(17, 28))
    result = deduplicate(logs)
    kept = [path for path, text in result.texts.items() if "ticket export" in text]
    assert kept == ["memory/2026-11-17.md"]
    assert len(result.removed) == 10
    assert result.removed[0].first == "memory/2026-11-17.md:3"
    assert result.texts["memory/2026-11-18.md"] == "# 2026-11-18\n"
    assert (
        result.texts["memory/2026-11-23.md"] == "# 2026-11-23\n\n- Weekly ops report posted; P1 down 47%.\n"
    )
    assert check(dict(logs), result.texts).ok


def test_normalised_repeats_are_removed_too_but_headings_stay() -> None:
    logs = [
        ("memory/2026-11-01.md", "## Notes\n- Checked the #ops channel.\n"),
        ("memory/2026-11-02.md", "## Notes\n* **checked** the #ops channel\n- New: Priya on call.\n"),
    ]
    result = deduplicate(logs)
    assert result.texts["memory/2026-11-02.md"] == "## Notes\n- New: Priya on call.\n"


def test_logs_without_repeats_are_unchanged() -> None:
    logs = [("memory/2026-11-01.md", "- a\n"), ("memory/2026-11-02.md", "- b\n")]
    result = deduplicate(logs)
    assert result.removed == () and result.texts == dict(logs)


def test_window_ends_today_and_leaves_todays_log_alone() -> None:
    paths = [f"memory/2026-11-{d:02d}.md" for d in range(1, 31)] + ["memory/notes.md", "memory/2026-11-31.md"]
    window = select_window("memory", paths, date(2026, 11, 30), 14, "today")
    assert [p for p, _ in window] == [f"memory/2026-11-{d}.md" for d in range(17, 30)]


def test_window_anchored_at_the_latest_log_follows_a_quiet_agent() -> None:
    paths = [f"memory/2026-11-{d}.md" for d in range(16, 28)]
    assert select_window("memory", paths, date(2027, 3, 1), 14, "today") == []
    window = select_window("memory", paths, date(2027, 3, 1), 14, "latest")
    assert [p for p, _ in window] == paths

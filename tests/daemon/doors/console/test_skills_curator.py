"""The console's Skills page and the curator: what the next run would move, the consent it
waits for, and an archive approved on the review page (the run that moved it, linked)."""

from __future__ import annotations

from html import escape
from pathlib import Path

from tests.daemon.doors.console.helpers import client, clock, post
from tests.support.deploy import run_cli
from tests.support.skill_library import curated_library

ARCHIVE = Path(".metaeng") / "skill-archive"


def section(page: str, marker: str, end: str) -> str:
    return page[page.index(marker) :].split(end)[0]


def test_skills_page_shows_what_the_next_curator_run_would_move_and_that_it_waits_for_consent(root: Path) -> None:
    config = curated_library(root)
    dry = run_cli(config, "curator", "--agent", "ada", "--dry-run", "--json", clock=clock).json()
    page = client(config).get("/skills?agent=ada").text

    planned = section(page, 'id="next-curator-run"', "</ul>")
    assert dry["would_archive"] == ["old-report"]
    assert "It would move 1 learned skill(s) to the archive" in planned
    why = next(r["why"] for r in dry["skills"] if r["name"] == "old-report")
    assert f'<li id="would-archive-old-report"><strong>old-report</strong>: {why}</li>' in planned
    assert "quiet-lookup" not in planned and "pinned-old" not in planned
    consent = section(page, 'id="curator-consent"', "</p>")
    assert f"These moves wait for a person's consent: {escape(dry['consent']).replace('&#x27;', '&#39;')}." in consent
    assert "The next run proposes them in the review queue." in consent

    proposal = run_cli(config, "curator", "--agent", "ada", "--json", clock=clock).json()["proposal"]
    consent = section(client(config).get("/skills?agent=ada").text, 'id="curator-consent"', "</p>")
    assert f'<a href="/review?agent=ada#proposal-{proposal}">{proposal}</a> waits in the review queue' in consent


def test_approving_an_archive_on_the_review_page_moves_the_skill_and_the_skills_page_links_the_approval_run(
    root: Path,
) -> None:
    config = curated_library(root)
    home = root / "ada"
    proposed = run_cli(config, "curator", "--agent", "ada", "--json", clock=clock).json()
    pid, proposing_run = proposed["proposal"], proposed["run_id"]
    assert pid and (home / "skills" / "old-report" / "SKILL.md").exists()
    browser = client(config)

    answer = post(browser, f"/review/ada/{pid}/approve", "/review", why="nobody uses it")

    assert answer.status_code == 200, answer.text
    assert not (home / "skills" / "old-report").exists()
    assert (home / ARCHIVE / "old-report" / "skill" / "SKILL.md").exists()
    approval_run = run_cli(config, "review", "show", pid, "--agent", "ada", "--json").json()["run_id"]
    assert approval_run and approval_run != proposing_run
    page = browser.get("/skills?agent=ada").text
    moved = section(page, 'id="archived-old-report"', "</tr>")
    assert f'by run <a href="/runs/ada/{proposing_run}">{proposing_run}</a>' in moved
    assert f"moved on approval of {pid} by run" in moved
    assert f'<a href="/runs/ada/{approval_run}">{approval_run}</a> (its undo brings the skill back)' in moved
    assert "proposed <time" in moved
    assert 'id="would-archive-' not in page  # nothing left to move

    undone = post(browser, f"/runs/ada/{approval_run}/undo", f"/runs/ada/{approval_run}")
    assert undone.status_code == 200, undone.text
    assert (home / "skills" / "old-report" / "SKILL.md").exists()
    assert not (home / ARCHIVE / "old-report").exists()

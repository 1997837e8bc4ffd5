"""The console in a real browser: Debian's chromium driven by Playwright, against a real
`metaeng-daemon console` subprocess on a copy of the example deployment.

Log in with the token; approve a proposal; open the approval run's diff, click Undo and
confirm, see it undone and the files restored on disk; reject the proposal the undo
reopened. A screenshot of every page is written to $METAENG_SCREENSHOTS (docs/img when
the docs' images are refreshed), else to the test's temp folder.

Marked `browser`: `pytest -m 'not browser'` skips it in the inner loop; the default run
(and CI, which installs chromium when it is missing) runs it. A missing chromium fails
the test with the command that installs it, never a silent skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.daemon.doors.console.process import ConsoleProcess
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.facts import stored_fact, write_store

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # chromium and a console in subprocesses
EXAMPLES = Path(__file__).resolve().parents[4] / "examples"
def _example(root: Path) -> Path:
    """A copy of examples/ in review autonomy, with a few facts and a lab ledger to show."""
    demo = root / "demo"
    shutil.copytree(EXAMPLES, demo)
    config = demo / "config.yaml"
    text = config.read_text().replace("autonomy: autonomous", "autonomy: review")
    config.write_text(text + "\nconsole:\n  lab_ledgers: [./ledgers]\n")
    write_store(
        demo / "ada",
        stored_fact(user="ada", value="Berlin", valid_to="2026-11-16", quote="I am based in Berlin"),
        stored_fact(
            id="f-paris",
            value="Paris",
            valid_from="2026-11-16",
            observed_at="2026-11-16",
            source_event_id="2026-11-16-weekly-report-and-postmortem.jsonl@3",
            supersedes_memory_id="f-first",
            quote="from the 16th on I work from Paris",
        ),
        stored_fact(id="f-lang", key="language", value="German", quote="reply in German please"),
    )
    assert run_cli(config, "lab", "grid", "--output", str(demo / "ledgers" / "grid-demo")).code == 0
    return config


def test_log_in_approve_undo_and_reject_in_a_real_browser(root: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    shots = Path(os.environ.get("METAENG_SCREENSHOTS") or root / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    config = _example(root)
    home = config.parent / "ada"
    first = run_cli(config, "once", "--agent", "ada", "--json")
    assert first.code in (0, 1), first.err
    (proposal,) = run_cli(config, "review", "list", "--json").json()
    pid = proposal["id"]
    before_approval = tree_snapshot(home, skip=[".metaeng"])
    console = ConsoleProcess(config, root)
    try:
        link = console.url()
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("dialog", lambda dialog: dialog.accept())

        page.goto(link)  # the token is exchanged for the cookie, and the URL loses it
        expect(page.locator("h1")).to_have_text("Agents")
        assert "token=" not in page.url
        page.screenshot(path=str(shots / "console-agents.png"), full_page=True)

        page.click("header >> text=Review")
        expect(page.locator("h1")).to_have_text("Review queue")
        expect(page.locator(f"#proposal-{pid} .tag")).to_have_text("open")
        page.screenshot(path=str(shots / "console-review.png"))
        page.click(f"#approve-{pid}")  # confirmation dialog accepted
        expect(page.locator("#result")).to_contain_text("approved")
        approved = run_cli(config, "review", "list", "--json").json()[0]
        assert approved["status"] == "approved"
        assert tree_snapshot(home, skip=[".metaeng"]) != before_approval

        page.click("header >> text=Runs")
        expect(page.locator("h1")).to_have_text("Runs")
        page.screenshot(path=str(shots / "console-runs.png"), full_page=True)
        page.click(f"text={approved['run_id']}")
        expect(page.locator("h1")).to_have_text(f"Run {approved['run_id']}")
        expect(page.locator("#run-status")).to_have_text("applied")
        expect(page.locator("pre.diff span.del").first).to_be_visible()
        page.screenshot(path=str(shots / "console-run.png"))
        page.click("#undo")  # confirmation dialog accepted
        expect(page.locator("#result")).to_contain_text(f"run {approved['run_id']} undone by run")
        assert tree_snapshot(home, skip=[".metaeng"]) == before_approval  # the files are back on disk
        page.goto(link.split("?")[0] + f"runs/ada/{approved['run_id']}")
        expect(page.locator("#run-status")).to_contain_text("undone by")

        page.click("header >> text=Review")
        expect(page.locator("h1")).to_have_text("Review queue")
        expect(page.locator(f"#proposal-{pid} .tag")).to_have_text("open")  # the undo reopened it
        page.fill(f"#why-{pid}", "keep the daily logs as written")
        page.click(f"#reject-{pid}")
        expect(page.locator("#result")).to_contain_text("rejected")
        rejected = run_cli(config, "review", "show", pid, "--json").json()
        assert rejected["status"] == "rejected"
        assert rejected["history"][-1]["why"] == "keep the daily logs as written"
        assert re.match(r".+ \(console:.{8}\)$", rejected["history"][-1]["by"])

        for name, title in (("memory", "Memory of ada"), ("skills", "Skills of ada"), ("lab", "Lab")):
            page.click(f"header >> text={name.capitalize()}")
            expect(page.locator("h1")).to_have_text(title)  # links are boosted: wait for the swap
            page.screenshot(path=str(shots / f"console-{name}.png"), full_page=True)
        expect(page.locator("svg.chart").first).to_be_visible()
        assert errors == [], errors  # no CSP violation, no script error
    finally:
        console.close()


def test_pin_unpin_and_restore_an_archived_skill_in_a_real_browser(root: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    from tests.support.skill_library import curated_library

    assert isinstance(browser, Browser)
    config = curated_library(root)
    home = root / "ada"
    console = ConsoleProcess(config, root)
    try:
        link = console.url()
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(link)
        expect(page.locator("h1")).to_have_text("Agents")

        page.click("header >> text=Skills")
        expect(page.locator("h1")).to_have_text("Skills of ada")
        expect(page.locator("#library-health")).to_contain_text("1 archived")
        page.click("#pin-old-report")  # confirmation dialog accepted
        expect(page.locator("#result")).to_contain_text("pinned old-report")
        pins = json.loads((home / ".metaeng" / "skill-pins.json").read_text())["pinned"]
        assert set(pins) == {"pinned-old", "old-report"}

        page.click("header >> text=Skills")
        expect(page.locator("#skill-old-report .place")).to_contain_text("pinned")
        page.click("#unpin-old-report")
        expect(page.locator("#result")).to_contain_text("unpinned old-report")

        page.click("header >> text=Skills")
        expect(page.locator("#archived-gone-skill")).to_be_visible()
        page.click("#restore-gone-skill")
        expect(page.locator("#result")).to_contain_text("restored gone-skill to skills/gone-skill")
        assert (home / "skills" / "gone-skill" / "SKILL.md").exists()
        assert not (home / ".metaeng" / "skill-archive" / "gone-skill").exists()
        page.click("header >> text=Skills")
        expect(page.locator("#skill-gone-skill")).to_be_visible()
        assert errors == [], errors  # no CSP violation, no script error
    finally:
        console.close()

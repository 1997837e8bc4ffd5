"""Reading and deciding in a real browser (Debian's chromium through Playwright, against a
`metaeng-daemon console` subprocess): open a skill's page from the Skills page, an entity's
fact page from the Memory page, and keep both sides of a contradiction.

Marked `browser` like test_browser.py, whose fixture it uses: a missing chromium fails."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.daemon.doors.console.contradiction import AGENTS, TOOLS, contradiction
from tests.daemon.doors.console.helpers import open_proposal, review_deployment
from tests.daemon.doors.console.process import ConsoleProcess
from tests.support.deploy import run_cli
from tests.support.facts import stored_fact, write_store
from tests.support.skill_library import curated_library

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _in_browser(config: Path, root: Path, chromium: object, steps: Callable[[object, str], None]) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(chromium, Browser)
    console = ConsoleProcess(config, root)
    try:
        link = console.url()
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(link)
        expect(page.locator("h1")).to_have_text("Agents")
        steps(page, link.split("?")[0])
        assert errors == [], errors  # no CSP violation, no script error
    finally:
        console.close()


def test_open_a_skill_page_from_the_skills_page_in_a_real_browser(root: Path, browser: object) -> None:
    from playwright.sync_api import expect

    def steps(page: object, _base: str) -> None:
        page.click("header >> text=Skills")  # type: ignore[attr-defined]
        expect(page.locator("h1")).to_have_text("Skills of ada")  # type: ignore[attr-defined]
        page.click("#skill-old-report >> text=old-report")  # type: ignore[attr-defined]
        expect(page.locator("h1")).to_have_text("Skill old-report")  # type: ignore[attr-defined]
        expect(page.locator("article.skill-md ol li").first).to_have_text("First step")  # type: ignore[attr-defined]
        expect(page.locator("#skill-place")).to_contain_text("due for the archive")  # type: ignore[attr-defined]
        page.click("a[href^='?file=SKILL.md']")  # type: ignore[attr-defined]
        expect(page.locator("#file-view")).to_have_text("SKILL.md")  # type: ignore[attr-defined]
        page.click("#pin-old-report")  # type: ignore[attr-defined]
        expect(page.locator("#result")).to_contain_text("pinned old-report")  # type: ignore[attr-defined]

    _in_browser(curated_library(root), root, browser, steps)


def test_open_a_fact_page_from_the_memory_page_in_a_real_browser(root: Path, browser: object) -> None:
    from playwright.sync_api import expect

    config = review_deployment(root)
    write_store(
        root / "ada",
        stored_fact(valid_to="2026-11-20", quote="I live in Berlin"),
        stored_fact(id="f-second", value="Paris", valid_from="2026-11-20", observed_at="2026-11-20",
                    supersedes_memory_id="f-first", quote="I moved to Paris"),
    )
    open_proposal(config)

    def steps(page: object, _base: str) -> None:
        page.click("header >> text=Memory")  # type: ignore[attr-defined]
        expect(page.locator("h1")).to_have_text("Memory of ada")  # type: ignore[attr-defined]
        page.click("a.entity-link >> text=user")  # type: ignore[attr-defined]
        expect(page.locator("h1")).to_have_text("user")  # type: ignore[attr-defined]
        expect(page.locator("tr.fact-version")).to_have_count(2)  # type: ignore[attr-defined]
        expect(page.locator("tr.fact-version.current")).to_contain_text("Paris")  # type: ignore[attr-defined]
        expect(page.locator("#quotes ~ figure")).to_have_count(2)  # type: ignore[attr-defined]

    _in_browser(config, root, browser, steps)


def test_keep_both_sides_of_a_contradiction_in_a_real_browser(root: Path, browser: object) -> None:
    from playwright.sync_api import expect

    config = review_deployment(root)
    home = root / "ada"
    pid = contradiction(home)

    def steps(page: object, _base: str) -> None:
        page.click("header >> text=Review")  # type: ignore[attr-defined]
        expect(page.locator("h1")).to_have_text("Review queue")  # type: ignore[attr-defined]
        expect(page.locator(f"#keep-a-{pid}")).to_be_visible()  # type: ignore[attr-defined]
        expect(page.locator(f"#keep-b-{pid}")).to_be_visible()  # type: ignore[attr-defined]
        page.click(f"#keep-both-{pid}")  # type: ignore[attr-defined]  # confirmation accepted
        expect(page.locator("#result")).to_contain_text("keeping both")  # type: ignore[attr-defined]

    _in_browser(config, root, browser, steps)
    assert (home / "AGENTS.md").read_text() == AGENTS and (home / "TOOLS.md").read_text() == TOOLS
    shown = run_cli(config, "review", "show", pid, "--json").json()
    assert shown["status"] == "approved"

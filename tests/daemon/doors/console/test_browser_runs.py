"""The Runs area in a real browser (Debian's chromium through Playwright, a real console
subprocess): pages and search, relative times, a run's collapsed internal file, Run now.

Marked `browser` like test_browser.py: `pytest -m 'not browser'` skips it; a missing
chromium fails with the command that installs it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.doors.console.helpers import open_proposal, review_deployment
from tests.daemon.doors.console.process import ConsoleProcess
from tests.support.deploy import TEST_KEY, run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.run_history import many_runs, run_id
from tests.support.runs import berlin_fact, setup_agent

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # chromium and a console in subprocesses


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    """A chromium page that records script errors (CSP violations included) in `page.errors`."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    opened = browser.new_page(viewport={"width": 1280, "height": 900}, timezone_id="Europe/Berlin")
    errors: list[str] = []
    opened.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    opened.errors = errors  # type: ignore[attr-defined]
    yield opened
    opened.close()


def _log_in(page: object, console: ConsoleProcess) -> str:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    link = console.url()
    page.goto(link)
    expect(page.locator("h1")).to_have_text("Agents")
    return link.split("?")[0]


def test_page_through_runs_and_search_them_in_a_real_browser(root: Path, page: object) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    config = many_runs(root, 120, rare={7, 11})
    console = ConsoleProcess(config, root)
    try:
        _log_in(page, console)
        page.click("header >> text=Runs")
        expect(page.locator("h1")).to_have_text("Runs")
        rows = page.locator("#runs-table tr:has(td)")
        expect(rows).to_have_count(50)
        expect(rows.first).to_contain_text(run_id(119))
        first_time = page.locator("#runs-table time").first
        expect(first_time).not_to_contain_text("UTC")  # relative, in the viewer's language
        assert re.search(r"2026", first_time.get_attribute("title") or "")  # the exact local time on hover

        page.select_option("select[name=size]", "25")
        page.click("#runs-filter")
        expect(rows).to_have_count(25)
        page.click("#runs-older")
        expect(page).to_have_url(re.compile(r"/runs\?size=25&page=2$"))
        expect(rows.first).to_contain_text(run_id(94))
        page.click("#runs-newer")
        expect(rows.first).to_contain_text(run_id(119))

        page.fill("#runs-q", "zebra crossing")
        page.click("#runs-filter")
        expect(rows).to_have_count(2)
        expect(page.locator("#runs-older")).to_have_count(0)
        page.fill("#runs-q", "skills/rare-7")
        page.click("#runs-filter")
        expect(rows).to_have_count(1)
        page.click(f"text={run_id(7)}")
        expect(page.locator("h1")).to_have_text(f"Run {run_id(7)}")
        expect(page.locator("#run-summary")).to_contain_text("skills/rare-7/SKILL.md: created")
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        console.close()


def test_a_runs_internal_file_is_collapsed_below_in_a_real_browser(root: Path, page: object) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    config = review_deployment(root)
    pid = open_proposal(config)
    (run,) = run_cli(config, "runs", "--json").json()
    console = ConsoleProcess(config, root)
    try:
        base = _log_in(page, console)
        page.goto(f"{base}runs/ada/{run['run_id']}")
        internal = page.locator("details.file.internal")
        expect(internal).to_have_count(1)
        expect(internal.locator("pre.diff")).to_be_hidden()
        expect(page.locator("#internal-summary")).to_contain_text("1 internal file(s)")
        expect(page.locator("#internal-summary li")).to_be_hidden()
        internal.locator("summary").click()
        expect(internal.locator("pre.diff")).to_be_visible()
        expect(internal.locator("pre.diff")).to_contain_text(pid)
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        console.close()


def test_run_now_shows_progress_then_links_the_run_in_a_real_browser(
    root: Path, page: object, fake_model: FakeModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    config = setup_agent(root, fake_model)
    answer = threading.Event()  # the model answers once the page has shown the run going
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer)
    monkeypatch.setenv("TEST_API_KEY", TEST_KEY)  # the console process reads the key as `once` does
    console = ConsoleProcess(config, root)
    try:
        base = _log_in(page, console)
        page.goto(f"{base}runs?agent=ada")
        page.select_option("#run-now-pass-ada", "distillation")
        page.click("#run-now-ada")
        expect(page.locator("h1")).to_have_text("Run now: agent ada")
        expect(page.locator("#run-now-state")).to_contain_text("Running distillation on agent ada")
        answer.set()
        result = page.locator("#run-now-result")
        expect(result).to_be_visible(timeout=30_000)  # htmx polled until the run ended
        (run,) = run_cli(config, "runs", "--json").json()
        expect(result).to_have_text(run["run_id"])
        result.click()
        expect(page.locator("h1")).to_have_text(f"Run {run['run_id']}")
        expect(page.locator("#run-summary")).to_contain_text(".metaeng/facts.jsonl: 1 fact added")
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        console.close()

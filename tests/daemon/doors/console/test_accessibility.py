"""Every console page, for anyone, on any screen: in a real browser (Debian's chromium
through Playwright) against a real `metaeng-daemon console` subprocess on the example.

- axe-core (4.12, bundled by axe-playwright-python) audits every page in the light and the
  dark theme against WCAG 2.x A and AA: no violation of serious or critical impact;
- the dark theme follows `prefers-color-scheme`, and the bar's theme picker overrides it,
  kept across pages;
- at 390 px wide no page scrolls sideways (wide tables scroll inside themselves);
- the keyboard reaches everything: the first Tab lands on "Skip to content", which moves
  focus to the page's main part; then the bar's links, in order.

Screenshots of every page in both themes and at phone width go to $METAENG_SCREENSHOTS
(docs/img when the docs' images are refreshed), else to the test's temp folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.daemon.doors.console.process import ConsoleProcess
from tests.daemon.doors.console.test_browser import _example
from tests.support.deploy import run_cli

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SEVERE = {"serious", "critical"}
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SKILL = "on-call-lookup"  # a skill of the example's agent


def _axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def _pages(config: Path) -> dict[str, str]:
    """Every page of the console on the example, by a short name for its screenshot."""
    runs = run_cli(config, "runs", "--agent", "ada", "--json").json()
    (proposal,) = run_cli(config, "review", "list", "--json").json()
    return {
        "agents": "/agents",
        "runs": "/runs",
        "run": f"/runs/ada/{runs[0]['run_id']}",
        "review": f"/review#proposal-{proposal['id']}",
        "memory": "/memory?agent=ada",
        "skills": "/skills?agent=ada",
        "skill": f"/skills/ada/{SKILL}",
        "entity": "/memory/ada/entity/user",
        "impact": "/impact?agent=ada",  # with the report Compute now made (`_compute_impact`)
        "lab": "/lab",
    }


def _compute_impact(browser: Any, link: str) -> None:
    """Press Compute now on the Impact page and wait for its report: the console keeps it, so
    the audit below sees the whole report, not the page before any computation."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(link)
    page.goto(link.split("?")[0].rstrip("/") + "/impact?agent=ada")
    page.get_by_role("button", name="Compute now").click()
    expect(page.locator("#impact-figures")).to_be_visible(timeout=60_000)
    context.close()


def _severe(page: Any, axe: str) -> list[str]:
    """axe's serious and critical violations on the page now, one line each."""
    page.evaluate(axe)  # through the debugging protocol: the console's CSP admits no injected script
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", AXE_TAGS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {', '.join(str(n['target']) for n in v['nodes'][:3])}"
        for v in result["violations"]
        if v["impact"] in SEVERE
    ]


def test_every_page_passes_axe_in_both_themes_and_fits_a_phone(root: Path, browser: object) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    shots = Path(os.environ.get("METAENG_SCREENSHOTS") or root / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    config = _example(root)
    assert run_cli(config, "once", "--agent", "ada").code in (0, 1)
    pages = _pages(config)
    axe = _axe_source()
    console = ConsoleProcess(config, root)
    try:
        link = console.url()
        base = link.split("?")[0].rstrip("/")
        _compute_impact(browser, link)
        found: dict[str, list[str]] = {}
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
            page = context.new_page()
            errors: list[str] = []
            page.on("console", lambda msg, errors=errors: errors.append(msg.text) if msg.type == "error" else None)
            page.goto(link)
            expect(page.locator("h1")).to_have_text("Agents")
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert (background == "rgb(22, 25, 28)") == (scheme == "dark"), background
            for name, path in pages.items():
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                found.update({f"{name} ({scheme})": v for v in [_severe(page, axe)] if v})
                page.screenshot(path=str(shots / f"console-{name}-{scheme}.png"), full_page=True)
            assert errors == [], errors  # no CSP violation, no script error
            context.close()
        assert found == {}, "\n".join(f"{where}: {line}" for where, lines in found.items() for line in lines)

        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
        page = phone.new_page()
        page.goto(link)
        for name, path in pages.items():
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at 390px wide"
            page.screenshot(path=str(shots / f"console-{name}-phone.png"), full_page=True)
        phone.close()
    finally:
        console.close()


def test_the_theme_picker_overrides_the_system_and_the_keyboard_reaches_everything(
    root: Path, browser: object
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    config = _example(root)
    console = ConsoleProcess(config, root)
    try:
        link = console.url()
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
        page = context.new_page()
        page.goto(link)
        expect(page.locator("h1")).to_have_text("Agents")
        picker = page.get_by_label("Theme")
        expect(picker).to_be_visible()
        expect(picker).to_have_value("system")
        picker.select_option("dark")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        page.click("header >> text=Runs")  # a boosted navigation keeps the choice
        expect(page.locator("h1")).to_have_text("Runs")
        expect(page.get_by_label("Theme")).to_have_value("dark")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(22, 25, 28)"
        page.reload()  # and so does a new page load
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        page.get_by_label("Theme").select_option("system")
        assert page.evaluate("document.documentElement.dataset.theme") is None
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(246, 247, 247)"

        page.goto(link.split("?")[0] + "agents")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Skip to content"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "main"
        page.goto(link.split("?")[0] + "agents")
        page.keyboard.press("Tab")
        reached = []
        for _ in range(7):
            page.keyboard.press("Tab")
            reached.append(page.evaluate("document.activeElement.textContent.trim()"))
        assert reached == ["Agents", "Runs", "Review", "Memory", "Skills", "Impact", "Lab"]
        context.close()
    finally:
        console.close()

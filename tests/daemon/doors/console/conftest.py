"""The real browser the console's browser tests drive: Debian's chromium through Playwright
(`playwright install` cannot download browsers here). A missing chromium fails the test with
the command that installs it, never a silent skip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install it with `apt-get install -y chromium` (CI's .ci/run does)")
    from playwright.sync_api import sync_playwright

    # Chromium and Playwright's driver keep caches and config under $HOME: give them their own.
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("browser-home")))

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()

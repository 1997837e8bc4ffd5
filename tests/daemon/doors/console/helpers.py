"""A console in-process (Starlette's TestClient) over a real deployment built in tmp_path."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from daemon.config import load_deployment
from daemon.doors.console.app import build_app
from daemon.doors.console.auth import Sessions
from tests.support.deploy import base_config, run_cli, write_config

TOKEN = "t" * 43
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
LOG = "# {day}\n\n- Reminder: the ticket export lives at exports/tickets.csv.\n"
DAYS = ("2026-11-20", "2026-11-21", "2026-11-22")
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}


def clock() -> datetime:
    return NOW


def review_deployment(root: Path, **extra: Any) -> Path:
    """One agent `ada` in review autonomy with three daily logs repeating one note."""
    config = base_config(root, None)
    config["autonomy"] = "review"
    config.update(extra)
    home = root / "ada"
    (home / "memory").mkdir(parents=True, exist_ok=True)
    for day in DAYS:
        (home / "memory" / f"{day}.md").write_text(LOG.format(day=day))
    return write_config(root, config)


def open_proposal(config: Path) -> str:
    """Run workspace consolidation; return the id of the daily-log proposal it opens."""
    result = run_cli(config, "once", "--agent", "ada", "--pass", "workspace_consolidation", "--json", clock=clock)
    entry = next(p for p in result.json()["passes"] if p["name"] == "workspace_consolidation")
    (pid,) = entry["proposals"]
    return str(pid)


def client(
    config: Path, login: bool = True, hostnames: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> TestClient:
    deployment = load_deployment(config, {})
    app = build_app(
        lambda: deployment, Sessions(TOKEN), clock=clock, env={"USER": "alice", **(env or {})}, hostnames=hostnames
    )
    browser = TestClient(app, base_url="http://127.0.0.1:8765", follow_redirects=False)
    if login:
        answer = browser.get(f"/agents?token={TOKEN}")
        assert answer.status_code == 303, answer.text
    return browser


def form_token(browser: TestClient, page: str = "/agents") -> str:
    found = re.search(r'name="console-form-token" content="([^"]+)"', browser.get(page).text)
    assert found, f"no form token on {page}"
    return found.group(1)


def post(browser: TestClient, url: str, page: str, **fields: str) -> Any:
    return browser.post(url, data={"form_token": form_token(browser, page), **fields}, headers=SAME_ORIGIN)

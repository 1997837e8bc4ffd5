"""The console's security rules: every refusal, and that a refused request changes nothing."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from daemon.doors.console.auth import load_or_create_token, token_path
from daemon.doors.console.request_guard import local_path
from daemon.kernel.errors import DaemonError
from tests.daemon.doors.console.helpers import (
    SAME_ORIGIN,
    TOKEN,
    client,
    form_token,
    open_proposal,
    review_deployment,
)
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.skill_library import curated_library

PAGES = ("/agents", "/runs", "/review", "/memory", "/skills", "/lab")


@pytest.mark.parametrize("page", PAGES)
def test_no_session_no_page(root: Path, page: str) -> None:
    browser = client(review_deployment(root), login=False)
    answer = browser.get(page)
    assert answer.status_code == 401
    assert "no console session" in answer.text and "<header>" not in answer.text


def test_wrong_token_is_refused_and_starts_no_session(root: Path) -> None:
    browser = client(review_deployment(root), login=False)
    answer = browser.get("/agents?token=" + "x" * 43)
    assert answer.status_code == 401 and "wrong token" in answer.text
    assert "set-cookie" not in answer.headers
    assert browser.get("/agents").status_code == 401


def test_token_exchange_sets_a_strict_httponly_cookie_and_drops_the_token_from_the_url(root: Path) -> None:
    browser = client(review_deployment(root), login=False)
    answer = browser.get(f"/runs?agent=ada&token={TOKEN}")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/runs?agent=ada"
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert TOKEN not in cookie
    assert browser.get("/runs?agent=ada").status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example:8765", "attacker:8765", ""])
def test_a_host_not_on_the_allow_list_is_refused(root: Path, host: str) -> None:
    browser = client(review_deployment(root))
    answer = browser.get("/agents", headers={"Host": host})
    assert answer.status_code == 403 and "not allowed" in answer.text


@pytest.mark.parametrize("host", ["localhost:8765", "127.0.0.1:8765", "[::1]:8765", "console.lan:8765"])
def test_loopback_names_and_configured_names_are_allowed(root: Path, host: str) -> None:
    browser = client(review_deployment(root), hostnames=("console.lan",))
    assert browser.get("/agents", headers={"Host": host}).status_code == 200


def _approve(browser, pid: str, token: str | None, headers: dict[str, str]):  # type: ignore[no-untyped-def]
    data = {"why": ""} if token is None else {"form_token": token, "why": ""}
    return browser.post(f"/review/ada/{pid}/approve", data=data, headers=headers)


@pytest.mark.parametrize(
    ("headers", "with_token", "status"),
    [
        ({"Sec-Fetch-Site": "cross-site"}, True, 403),
        ({"Sec-Fetch-Site": "same-site"}, True, 403),
        ({"Origin": "http://evil.example"}, True, 403),
        ({}, True, 403),  # neither Sec-Fetch-Site nor Origin
        (SAME_ORIGIN, False, 403),  # no form token
        ({"Origin": "http://127.0.0.1:8765"}, False, 403),
    ],
)
def test_state_changing_requests_without_same_origin_and_form_token_are_refused_and_change_nothing(
    root: Path, headers: dict[str, str], with_token: bool, status: int
) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    browser = client(config)
    token = form_token(browser) if with_token else None
    before = tree_snapshot(root)
    answer = _approve(browser, pid, token, headers)
    assert answer.status_code == status
    assert tree_snapshot(root) == before
    assert run_cli(config, "review", "list", "--json").json()[0]["status"] == "open"


def test_a_form_token_of_another_session_is_refused(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    first, second = client(config), client(config)
    before = tree_snapshot(root)
    answer = _approve(second, pid, form_token(first), SAME_ORIGIN)
    assert answer.status_code == 403 and "form token" in answer.text
    assert tree_snapshot(root) == before


def test_a_matching_origin_without_sec_fetch_site_is_accepted(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    browser = client(config)
    answer = _approve(browser, pid, form_token(browser), {"Origin": "http://127.0.0.1:8765"})
    assert answer.status_code == 200, answer.text
    assert run_cli(config, "review", "list", "--json").json()[0]["status"] == "approved"


@pytest.mark.parametrize("url", ["/runs/ada/X/undo", "/review/ada/X/approve", "/agents/ada/breaker/reset"])
def test_actions_are_post_only(root: Path, url: str) -> None:
    browser = client(review_deployment(root))
    assert browser.get(url).status_code == 405


def test_every_response_carries_the_strict_headers(root: Path) -> None:
    browser = client(review_deployment(root))
    for answer in (browser.get("/agents"), browser.get("/nope"), client(review_deployment(root), login=False).get("/")):
        assert answer.headers["content-security-policy"].startswith("default-src 'self'")
        assert "unsafe-inline" not in answer.headers["content-security-policy"]
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_pages_have_no_inline_script_and_htmx_is_served_from_the_package(root: Path) -> None:
    browser = client(review_deployment(root))
    page = browser.get("/agents").text
    assert '<script src="/static/htmx.min.js"></script>' in page
    scripts = re.findall(r"<script[^>]*>", page)
    assert scripts and all(re.fullmatch(r'<script src="/static/[\w.-]+\.js"( defer)?>', s) for s in scripts), scripts
    assert "style=" not in page
    static = client(review_deployment(root), login=False).get("/static/htmx.min.js")
    assert static.status_code == 200 and b"htmx" in static.content[:2000]


def test_token_file_is_created_private_and_reused(root: Path) -> None:
    token = load_or_create_token(root / "state")
    path = token_path(root / "state")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert len(token) >= 43 and load_or_create_token(root / "state") == token


def test_a_token_file_others_can_read_is_refused(root: Path) -> None:
    load_or_create_token(root / "state")
    path = token_path(root / "state")
    os.chmod(path, 0o644)
    with pytest.raises(DaemonError, match=r"readable by other users.*delete it"):
        load_or_create_token(root / "state")


def test_links_and_redirects_built_from_the_path_stay_on_the_console(root: Path) -> None:
    # A browser reads //host/x (and /\host/x) as another site; %2F%2F decodes to //.
    browser = client(review_deployment(root), login=False)
    refused = browser.get("/%2F%2Fevil.example/login")
    assert refused.status_code == 401 and '<a href="/">' in refused.text
    login = browser.get(f"/%2F%2Fevil.example/login?token={TOKEN}")
    assert login.status_code == 303 and login.headers["location"] == "/"


@pytest.mark.parametrize(
    ("path", "kept"),
    [("//evil.example/x", "/"), ("/\\evil.example/x", "/"), ("evil", "/"), ("/runs/ada", "/runs/ada"), ("/", "/")],
)
def test_local_path_keeps_only_paths_of_this_console(path: str, kept: str) -> None:
    assert local_path(path) == kept


@pytest.mark.parametrize(
    "url", ["/skills/ada/old-report/pin", "/skills/ada/pinned-old/unpin", "/skills/ada/archive/gone-skill/restore"]
)
@pytest.mark.parametrize(
    ("headers", "with_token"),
    [({"Sec-Fetch-Site": "cross-site"}, True), ({"Origin": "http://evil.example"}, True), ({}, True), (SAME_ORIGIN, False)],
)
def test_skill_actions_without_same_origin_and_form_token_are_refused_and_change_nothing(
    root: Path, url: str, headers: dict[str, str], with_token: bool
) -> None:
    config = curated_library(root)
    browser = client(config)
    data = {"form_token": form_token(browser)} if with_token else {}
    before = tree_snapshot(root)
    answer = browser.post(url, data=data, headers=headers)
    assert answer.status_code == 403
    assert tree_snapshot(root) == before


@pytest.mark.parametrize(
    "url", ["/skills/ada/old-report/pin", "/skills/ada/pinned-old/unpin", "/skills/ada/archive/gone-skill/restore"]
)
def test_skill_actions_need_a_session_and_are_post_only(root: Path, url: str) -> None:
    config = curated_library(root)
    before = tree_snapshot(root)
    assert client(config, login=False).post(url, headers=SAME_ORIGIN).status_code == 401
    assert client(config).get(url).status_code == 405
    assert tree_snapshot(root) == before

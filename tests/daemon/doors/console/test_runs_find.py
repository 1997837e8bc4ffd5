"""The Runs page: pages of runs, filters kept in the URL, search, times as <time> elements."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.daemon.doors.console.helpers import client
from tests.support.run_history import many_runs, run_id

RUNS = 120  # run i is PASSES[i % 3]; runs 7 and 11 create skills/rare-N and say "zebra crossing N"


@pytest.fixture
def browser(root: Path) -> TestClient:
    return client(many_runs(root, RUNS, rare={7, 11}))


def _ids(page: str) -> list[str]:
    return re.findall(r'<td><a href="/runs/ada/([^"/]+)">', page)


def _links(page: str) -> dict[str, str]:
    found = re.findall(r'<a href="([^"]+)" id="runs-(newer|older)"', page)
    return {which: href.replace("&amp;", "&") for href, which in found}


def test_first_page_holds_the_newest_fifty_and_links_only_older(browser: TestClient) -> None:
    page = browser.get("/runs").text
    assert _ids(page) == [run_id(i) for i in range(RUNS - 1, RUNS - 51, -1)]
    assert _links(page) == {"older": "/runs?page=2"}


def test_last_page_holds_the_rest_and_links_only_newer(browser: TestClient) -> None:
    page = browser.get("/runs?page=3").text
    assert _ids(page) == [run_id(i) for i in range(19, -1, -1)]
    assert _links(page) == {"newer": "/runs?page=2"}
    beyond = browser.get("/runs?page=4").text
    assert _ids(beyond) == [] and "no runs match" in beyond and _links(beyond) == {"newer": "/runs?page=3"}


def test_a_page_that_is_not_a_number_is_the_first(browser: TestClient) -> None:
    assert _ids(browser.get("/runs?page=abc&size=x").text) == _ids(browser.get("/runs").text)


def test_filters_and_page_size_are_kept_across_pages(browser: TestClient) -> None:
    page = browser.get("/runs?agent=ada&pass=skill_learning&size=10&page=2").text
    assert _ids(page) == [run_id(i) for i in range(RUNS - 1, -1, -1) if i % 3 == 1][10:20]
    assert _links(page) == {
        "newer": "/runs?agent=ada&pass=skill_learning&size=10",
        "older": "/runs?agent=ada&pass=skill_learning&size=10&page=3",
    }
    assert '<option selected>skill_learning</option>' in page and "<option selected>10</option>" in page


def test_search_finds_runs_by_a_file_they_changed_ignoring_case(browser: TestClient) -> None:
    assert _ids(browser.get("/runs?q=SKILLS/RARE-7").text) == [run_id(7)]
    assert _ids(browser.get("/runs?q=rare-").text) == [run_id(11), run_id(7)]


def test_search_finds_runs_by_the_text_of_their_report(browser: TestClient) -> None:
    page = browser.get("/runs?q=Zebra+Crossing").text
    assert _ids(page) == [run_id(11), run_id(7)]
    assert 'value="Zebra Crossing"' in page  # the box keeps what was searched


def test_search_by_agent_or_pass_name_and_with_a_pass_filter(browser: TestClient) -> None:
    assert len(_ids(browser.get("/runs?q=ad&size=200").text)) == RUNS  # the agent's name
    assert len(_ids(browser.get("/runs?q=memory_consolidation&size=200").text)) == RUNS // 3  # its trailer
    assert _ids(browser.get("/runs?q=zebra&pass=distillation").text) == []  # runs 7 and 11 are not
    assert _ids(browser.get("/runs?q=no-such-thing").text) == []


def test_search_is_kept_in_the_older_link(browser: TestClient) -> None:
    page = browser.get("/runs?q=notes-1&size=5").text
    assert len(_ids(page)) == 5
    assert _links(page) == {"older": "/runs?q=notes-1&size=5&page=2"}


def test_times_are_time_elements_with_the_exact_utc_time(browser: TestClient) -> None:
    page = browser.get("/runs?size=1").text
    assert '<time datetime="2026-01-05T23:00:00Z">2026-01-05 23:00:00 UTC</time>' in page  # run 119
    assert '<script src="/static/times.js" defer></script>' in page
    assert browser.get("/static/times.js").status_code == 200
    detail = browser.get(f"/runs/ada/{run_id(119)}").text
    assert '<time datetime="2026-01-05T23:00:00Z">2026-01-05 23:00:00 UTC</time>' in detail

"""The Impact page: Compute now in the background, its progress, then the report it reads —
learned items linked to their facts, recurrences, corrections never learned, the trend."""

from __future__ import annotations

import time
from pathlib import Path

from starlette.testclient import TestClient

from daemon.config import load_deployment
from daemon.doors.impact_headline import headline_path, read_headline
from tests.daemon.doors.console.helpers import client, post
from tests.daemon.impact.test_impact_cli import SAID, deployment
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import setup_agent

POLL = {"HX-Request": "true"}  # htmx's polling asks for the fragment only


def _until_done(browser: TestClient, agent: str = "ada") -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        fragment = browser.get(f"/impact/{agent}/compute", headers=POLL).text
        if "hx-trigger" not in fragment:
            return fragment
        time.sleep(0.05)
    raise AssertionError("the computation did not finish in 60 s")


def test_the_page_before_any_computation_says_so_and_offers_compute_now(root: Path) -> None:
    config = setup_agent(root, None)
    page = client(config).get("/impact?agent=ada")
    assert page.status_code == 200
    assert "<h1>Impact of ada</h1>" in page.text
    assert 'href="/impact" class="active" aria-current="page">Impact</a>' in page.text
    assert "No impact computed here for agent ada yet: press Compute now." in page.text
    assert '<button id="impact-compute" aria-describedby="impact-compute-note">Compute now</button>' in page.text
    assert 'id="impact-headline"' not in page.text and 'hx-trigger' not in page.text


def test_the_page_shows_the_headline_impact_saved_until_computed_here(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    assert run_cli(config, "impact", "--agent", "ada").code == 0
    page = client(config).get("/impact").text  # the first agent by default
    assert 'id="impact-headline"' in page
    assert "1 items, 1 learned, 1 said again after delivery, 0 correction(s) never learned, in 3 session(s)" in page


def test_compute_now_runs_in_the_background_then_shows_the_report_and_saves_the_headline(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    browser = client(config)
    started = post(browser, "/impact/ada/compute", "/impact?agent=ada")
    assert started.status_code == 202 and started.headers["HX-Push-Url"] == "false"
    assert "<h1>Impact of ada</h1>" in started.text
    done = _until_done(browser)
    assert done.lstrip().startswith("<div id=\"impact-report\"") and "<html" not in done
    assert "Computed <time" in done and "from 3 session(s)." in done
    assert f"“{SAID}”" in done
    fact = run_cli(config, "memory", "list", "--agent", "ada", "--json").json()["records"][0]
    assert f'href="/memory/ada/entity/project#version-{fact["id"]}">project.package_manager</a> = pnpm' in done
    assert "(facts view read)" in done and '<span class="tag stale">after delivery</span>: “I told you, pnpm, not npm!”' in done
    assert '<p class="bad impact-flag">Flagged for review: ' in done
    assert '<h2 id="impact-never-learned">Corrections never learned (0)</h2>' in done
    assert '<h2 id="impact-never-used">Learned, never used (0)</h2>' in done
    assert '<svg class="chart"' in done and "<td>2026-11-16</td><td>1</td><td>1</td><td>1</td>" in done
    # every timestamp through the <time> macro
    assert '<time datetime="2026-11-10T09:00:30Z">2026-11-10 09:00:30 UTC</time>' in done
    saved = read_headline(load_deployment(config, {}).state_dir, "ada")
    assert saved is not None and saved.figures.items == 1
    # the full page reads the same result
    assert f"“{SAID}”" in browser.get("/impact?agent=ada").text


def test_a_correction_never_learned_is_listed_with_its_recurrence(root: Path) -> None:
    from tests.support.deploy import conversation, write_transcript

    config = setup_agent(root, None)
    write_transcript(root / "ada", "s8.jsonl", conversation([("Wrong, the standup is at 9:30, not 10.", "Fixed.")], day="2026-11-05"))
    write_transcript(root / "ada", "s9.jsonl", conversation([("I told you, the standup is at 9:30, not 10!", "Sorry.")], day="2026-11-12"))
    browser = client(config)
    assert post(browser, "/impact/ada/compute", "/impact").status_code == 202
    done = _until_done(browser)
    assert '<h2 id="impact-never-learned">Corrections never learned (1)</h2>' in done
    assert "“Wrong, the standup is at 9:30, not 10.”" in done
    assert '<span class="tag">nothing delivered</span>: “I told you, the standup is at 9:30, not 10!”' in done


def test_a_second_compute_while_one_goes_says_so(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    browser = client(config)
    assert post(browser, "/impact/ada/compute", "/impact").status_code == 202
    second = post(browser, "/impact/ada/compute", "/impact")
    if second.status_code == 409:  # the first was still going
        assert "is already being computed" in second.text
    else:  # it had finished: a new one started
        assert second.status_code == 202
    _until_done(browser)


def test_a_corrupt_headline_is_named_on_the_page_and_the_page_still_works(root: Path) -> None:
    config = setup_agent(root, None)
    path = headline_path(load_deployment(config, {}).state_dir, "ada")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("nope", encoding="utf-8")
    page = client(config).get("/impact?agent=ada")
    assert page.status_code == 200
    assert f"{path} is unreadable: not JSON" in page.text
    assert "press Compute now" in page.text


def test_an_unknown_agent_is_a_404_naming_it(root: Path) -> None:
    config = setup_agent(root, None)
    browser = client(config)
    assert browser.get("/impact?agent=nobody").status_code == 404
    assert post(browser, "/impact/nobody/compute", "/impact").status_code == 404


def test_the_page_shows_the_instruction_proposal_made_from_the_correction_and_its_fate(
    root: Path, fake_model: FakeModelServer
) -> None:
    from tests.daemon.impact.test_impact_proposals import review_deployment

    config, pid = review_deployment(root, fake_model)
    approved = run_cli(config, "review", "approve", pid, "--by", "jonas", "--json")
    assert approved.code == 0, approved.err
    browser = client(config)
    assert post(browser, "/impact/ada/compute", "/impact").status_code == 202
    done = _until_done(browser)
    assert f'<ul class="impact-proposals"><li><a href="/review?agent=ada#proposal-{pid}">Use pnpm, not npm</a>' in done
    assert '(instruction, cites this turn)</span> <span class="tag approved">approved</span>' in done
    assert f'by jonas in run <a href="/runs/ada/{approved.json()["run_id"]}">' in done
    assert "(instruction approved)" in done


def test_compute_now_since_a_day_shows_only_the_items_said_from_then(root: Path) -> None:
    """The page's `since` is the command's --since: items said (first or again) on or after it,
    the trend from that week; the day stays in the form."""
    from tests.support.deploy import conversation, write_transcript

    config = setup_agent(root, None)
    write_transcript(root / "ada", "s8.jsonl", conversation([("Wrong, the standup is at 9:30, not 10.", "Fixed.")], day="2026-11-05"))
    write_transcript(root / "ada", "s9.jsonl", conversation([("No emojis in commit messages.", "Noted.")], day="2026-11-20"))
    browser = client(config)
    assert post(browser, "/impact/ada/compute", "/impact", since="2026-11-16").status_code == 202
    done = _until_done(browser)
    assert '<span id="impact-shown-since">2026-11-16</span>' in done
    assert "“No emojis in commit messages.”" in done and "standup" not in done
    assert '<td>2026-11-16</td>' in done and '<td>2026-11-02</td>' not in done
    assert 'id="impact-since" value="2026-11-16"' in browser.get("/impact?agent=ada").text
    # the whole history again with the field left empty
    assert post(browser, "/impact/ada/compute", "/impact", since="").status_code == 202
    assert "standup" in _until_done(browser)


def test_a_since_that_is_not_a_day_is_refused_and_starts_nothing(root: Path) -> None:
    config = setup_agent(root, None)
    browser = client(config)
    refused = post(browser, "/impact/ada/compute", "/impact", since="last week")
    assert refused.status_code == 400
    assert "since: &#39;last week&#39; is not a day (YYYY-MM-DD)" in refused.text
    assert "No impact computed here for agent ada yet: press Compute now." in refused.text
    state = load_deployment(config, {}).state_dir
    assert read_headline(state, "ada") is None and not headline_path(state, "ada").exists()

"""Run now: `once --agent A [--pass P]` from the Runs page, in the background, with progress."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from filelock import FileLock
from starlette.testclient import TestClient

from tests.daemon.doors.console.helpers import SAME_ORIGIN, client, post
from tests.support.deploy import TEST_KEY, run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

POLL = {"HX-Request": "true"}  # htmx's polling asks for the fragment only


def _browser(root: Path, fake_model: FakeModelServer) -> tuple[Path, TestClient]:
    config = setup_agent(root, fake_model)
    return config, client(config, env={"TEST_API_KEY": TEST_KEY})


def _until_done(browser: TestClient, agent: str = "ada") -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        fragment = browser.get(f"/runs/{agent}/now", headers=POLL).text
        if "hx-trigger" not in fragment:
            return fragment
        time.sleep(0.05)
    raise AssertionError("the run did not finish in 60 s")


def test_run_now_starts_the_run_shows_progress_then_links_it(root: Path, fake_model: FakeModelServer) -> None:
    config, browser = _browser(root, fake_model)
    answer = threading.Event()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer)
    page = post(browser, "/runs/ada/now", "/runs?agent=ada", **{"pass": "distillation"})
    assert page.status_code == 202 and page.headers["HX-Push-Url"] == "false"
    assert "<h1>Run now: agent ada</h1>" in page.text
    assert 'hx-get="/runs/ada/now" hx-trigger="every 1s"' in page.text
    running = browser.get("/runs/ada/now", headers=POLL).text
    assert running.startswith("<div id=\"run-now\"") and "<html" not in running
    assert "Running distillation on agent <b>ada</b>" in running and "holds the agent's lock" in running
    answer.set()
    done = _until_done(browser)
    (run,) = run_cli(config, "runs", "--json").json()
    assert f'<a id="run-now-result" href="/runs/ada/{run["run_id"]}">{run["run_id"]}</a>' in done
    assert "distillation: applied" in done and run["passes"] == ["distillation"]


def test_a_second_run_now_while_one_runs_says_so_and_starts_nothing(root: Path, fake_model: FakeModelServer) -> None:
    config, browser = _browser(root, fake_model)
    answer = threading.Event()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer)
    assert post(browser, "/runs/ada/now", "/runs").status_code == 202
    deadline = time.monotonic() + 30
    while not fake_model.requests and time.monotonic() < deadline:  # the run waits on the model
        time.sleep(0.02)
    second = post(browser, "/runs/ada/now", "/runs")
    assert second.status_code == 409, browser.get("/runs/ada/now", headers=POLL).text
    assert "agent &#39;ada&#39; is busy: the run started here at" in second.text and "is still going" in second.text
    answer.set()
    _until_done(browser)
    assert len(run_cli(config, "runs", "--json").json()) == 1
    assert len(fake_model.requests) == 1


def test_run_now_while_another_process_holds_the_run_lock_is_refused(root: Path, fake_model: FakeModelServer) -> None:
    config, browser = _browser(root, fake_model)
    lock = FileLock(str(root / "state" / "agents" / "ada" / "run.lock"))
    with lock:
        refused = post(browser, "/runs/ada/now", "/runs")
        assert refused.status_code == 409
        assert "another run holds its run lock" in refused.text
        assert "A run started elsewhere" in browser.get("/runs/ada/now", headers=POLL).text
    assert run_cli(config, "runs", "--json").json() == [] and fake_model.requests == []


def test_run_now_without_the_form_token_is_refused(root: Path, fake_model: FakeModelServer) -> None:
    config, browser = _browser(root, fake_model)
    answer = browser.post("/runs/ada/now", data={"form_token": "wrong"}, headers=SAME_ORIGIN)
    assert answer.status_code == 403
    assert "No run started from this console" in browser.get("/runs/ada/now", headers=POLL).text
    assert run_cli(config, "runs", "--json").json() == []


def test_run_now_of_an_unknown_agent_or_pass_is_not_found(root: Path, fake_model: FakeModelServer) -> None:
    config, browser = _browser(root, fake_model)
    assert post(browser, "/runs/nobody/now", "/runs").status_code == 404
    bad_pass = post(browser, "/runs/ada/now", "/runs", **{"pass": "nonsense"})
    assert bad_pass.status_code == 404 and "unknown pass nonsense" in bad_pass.text
    assert browser.get("/runs/nobody/now").status_code == 404
    assert run_cli(config, "runs", "--json").json() == []


def test_the_runs_page_offers_run_now_per_agent_with_the_pass_filter_chosen(root: Path, fake_model: FakeModelServer) -> None:
    _config, browser = _browser(root, fake_model)
    page = browser.get("/runs?agent=ada&pass=distillation").text
    assert '<form class="inline" method="post" action="/runs/ada/now">' in page
    assert '<button id="run-now-ada">Run now</button>' in page
    chooser = page[page.index('id="run-now-pass-ada"') :]
    assert chooser.index("<option selected>distillation</option>") < chooser.index("</select>")

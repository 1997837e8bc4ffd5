"""Notifications to people (`notify:`): a local HTTP receiver and a real command take them."""

from __future__ import annotations

import io
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import structlog
import yaml

from daemon.config import load_deployment
from daemon.config.door_settings import NotifySettings
from daemon.doors import logs
from daemon.doors.service.events import run_events
from daemon.doors.service.jobs import JobRunner
from daemon.doors.service.notify import Event, Notifier
from daemon.doors.service.people import notifier_for
from daemon.kernel import redact
from daemon.kernel.errors import ConfigError
from daemon.run.applier import PassResult
from daemon.run.runner import RunResult
from daemon.wiring.pass_registry import default_registry
from skills_engine.curator import CuratorDetails
from tests.daemon.doors.console.helpers import review_deployment
from tests.support.deploy import run_cli, write_config
from tests.support.skill_library import curated_library

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
EVENT = Event("run_failed", "ada", "run R of agent ada failed: boom", "/runs/ada/R", {"run_id": "R"})


TRICKLE_SECONDS = 0.1
PADDING = b"." * 400  # a trickled answer takes over 40 s to arrive


class Receiver:
    """An HTTP server answering each POST with the next status of `statuses` (then 200).

    `trickle`: "status" sends the whole answer, status line first, a byte every
    TRICKLE_SECONDS; "body" sends the status line and headers at once, then the body so.
    """

    def __init__(self, statuses: list[int] | None = None, hang: bool = False, trickle: str = "") -> None:
        self.bodies: list[dict[str, Any]] = []
        self.statuses = list(statuses or [])
        self.release = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.bodies.append(json.loads(body))
                if hang:
                    outer.release.wait(30)  # until the test ends: the client's timeout must fire first
                if trickle:
                    self._trickle(trickle)
                    return
                status = outer.statuses.pop(0) if outer.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _trickle(self, trickle: str) -> None:
                self.close_connection = True
                head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(PADDING)}\r\n\r\n".encode()
                answer = PADDING if trickle == "body" else head + PADDING
                try:
                    if trickle == "body":
                        self.wfile.write(head)
                    for index in range(len(answer)):
                        if outer.release.wait(TRICKLE_SECONDS):
                            return
                        self.wfile.write(answer[index : index + 1])
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up: its deadline passed

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook/SECRET-token"

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    yield server
    server.close()
    redact.reset()


def _notifier(**settings: Any) -> tuple[Notifier, list[float]]:
    pauses: list[float] = []
    notifier = Notifier(NotifySettings(**settings), "http://127.0.0.1:8765", lambda: NOW, pauses.append)
    return notifier, pauses


def test_webhook_gets_the_payload_with_a_link_to_the_console_page(receiver: Receiver) -> None:
    notifier, _ = _notifier(webhook=receiver.url)
    assert notifier.send(EVENT) is True
    (body,) = receiver.bodies
    assert re.fullmatch(r"20261130T120000Z-[0-9a-f]{8}", body["id"])  # the id logs and the outbox name it by
    assert receiver.bodies == [
        {
            "version": 1,
            "id": body["id"],
            "event": "run_failed",
            "agent": "ada",
            "summary": "run R of agent ada failed: boom",
            "url": "http://127.0.0.1:8765/runs/ada/R",
            "at": "2026-11-30T12:00:00+00:00",
            "details": {"run_id": "R"},
        }
    ]


@pytest.mark.slow
def test_webhook_retries_a_server_error_a_bounded_number_of_times(receiver: Receiver) -> None:
    receiver.statuses = [500, 503, 500, 500]
    notifier, pauses = _notifier(webhook=receiver.url, retries=2)
    assert notifier.send(EVENT) is False
    assert len(receiver.bodies) == 3 and len(pauses) == 2


@pytest.mark.slow
def test_webhook_success_after_one_failure_stops_retrying(receiver: Receiver) -> None:
    receiver.statuses = [502]
    notifier, pauses = _notifier(webhook=receiver.url, retries=3)
    assert notifier.send(EVENT) is True
    assert len(receiver.bodies) == 2 and len(pauses) == 1


@pytest.mark.slow
def test_webhook_refusing_the_payload_is_not_retried(receiver: Receiver) -> None:
    receiver.statuses = [400]
    notifier, pauses = _notifier(webhook=receiver.url, retries=3)
    assert notifier.send(EVENT) is False
    assert len(receiver.bodies) == 1 and pauses == []


@pytest.mark.slow
def test_a_hanging_webhook_is_cut_by_the_timeout() -> None:
    hanging = Receiver(hang=True)
    try:
        notifier, pauses = _notifier(webhook=hanging.url, retries=1, timeout_seconds=0.2)
        assert notifier.send(EVENT) is False
        assert len(hanging.bodies) == 2 and len(pauses) == 1
    finally:
        hanging.close()
        redact.reset()


@pytest.mark.slow
@pytest.mark.parametrize("trickle", ["status", "body"])
def test_a_webhook_trickling_its_answer_is_cut_at_timeout_seconds_per_attempt(trickle: str) -> None:
    # No socket read waits 0.5 s, so only a deadline on the whole attempt ends it.
    trickling = Receiver(trickle=trickle)
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=True)
    try:
        notifier, pauses = _notifier(webhook=trickling.url, retries=1, timeout_seconds=0.5)
        started = time.monotonic()
        assert notifier.send(EVENT) is False
        elapsed = time.monotonic() - started
    finally:
        trickling.close()
        structlog.reset_defaults()
        redact.reset()
    assert len(trickling.bodies) == 2 and len(pauses) == 1
    assert elapsed < 3, elapsed  # two attempts of 0.5 s (the pause between them is not slept)
    logged = [json.loads(line) for line in stream.getvalue().splitlines()]
    failed = [r for r in logged if r["event"] == "notify.failed"]
    assert [(r["attempt"], r["error"]) for r in failed] == [
        (n, "TimeoutError: no complete answer within 0.5s") for n in (1, 2)
    ]
    assert [r["event"] for r in logged if r not in failed] == ["notify.undelivered"]


@pytest.mark.slow
def test_a_webhook_trickling_its_answer_holds_the_agents_job_no_longer_than_its_timeout(
    root: Path,
) -> None:
    trickling = Receiver(trickle="status")
    config = review_deployment(root, notify={"webhook": trickling.url, "timeout_seconds": 1, "retries": 0})
    deployment = load_deployment(config, {})
    runner = JobRunner(deployment, default_registry(), {"HOME": str(root)}, lambda: NOW)
    runner.notifier = notifier_for(deployment, lambda: NOW)
    try:
        started = time.monotonic()
        runner.run("ada", "maintenance")  # opens a proposal: a `proposal_opened` notification
        elapsed = time.monotonic() - started
    finally:
        trickling.close()
        redact.reset()
    assert [body["event"] for body in trickling.bodies] == ["proposal_opened"]
    assert elapsed < 15, elapsed  # the answer alone would take over 40 s
    assert list((root / "ada" / ".metaeng" / "review").glob("*.json"))  # the run's own work stands


def test_an_unreachable_webhook_is_logged_not_raised() -> None:
    notifier, pauses = _notifier(webhook="http://127.0.0.1:9/hook", retries=1, timeout_seconds=1)
    assert notifier.send(EVENT) is False and len(pauses) == 1
    redact.reset()


@pytest.mark.slow
def test_the_webhook_url_is_a_secret(receiver: Receiver) -> None:
    _notifier(webhook=receiver.url)
    assert "SECRET-token" not in redact.redact(f"posting to {receiver.url}")


def test_command_gets_the_payload_on_stdin(root: Path) -> None:
    out = root / "got.json"
    script = f"import sys, pathlib; pathlib.Path({str(out)!r}).write_bytes(sys.stdin.buffer.read())"
    notifier, _ = _notifier(command=[sys.executable, "-c", script])
    assert notifier.send(EVENT) is True
    assert json.loads(out.read_text())["url"] == "http://127.0.0.1:8765/runs/ada/R"


def test_a_failing_or_missing_command_returns_false(root: Path) -> None:
    failing, _ = _notifier(command=[sys.executable, "-c", "raise SystemExit(4)"])
    missing, _ = _notifier(command=[str(root / "no-such-program")])
    assert failing.send(EVENT) is False and missing.send(EVENT) is False


@pytest.mark.slow
def test_events_not_listed_are_not_sent(receiver: Receiver) -> None:
    notifier, _ = _notifier(webhook=receiver.url, events=["proposal_opened"])
    assert notifier.send(EVENT) is True and receiver.bodies == []


@pytest.mark.slow
def test_a_scheduled_run_that_opens_a_proposal_notifies_with_its_review_link(root: Path, receiver: Receiver) -> None:
    config = review_deployment(
        root, notify={"webhook": receiver.url, "console_url": "http://console.lan:8765"}
    )
    deployment = load_deployment(config, {})
    runner = JobRunner(deployment, default_registry(), {"HOME": str(root)}, lambda: NOW)
    runner.notifier = notifier_for(deployment, lambda: NOW)
    runner.run("ada", "maintenance")

    (body,) = receiver.bodies
    pid = body["details"]["proposal_id"]
    assert body["event"] == "proposal_opened" and body["agent"] == "ada"
    assert body["url"] == f"http://console.lan:8765/review?agent=ada#proposal-{pid}"
    assert (root / "ada" / ".metaeng" / "review" / f"{pid}.json").exists()


def _result(**fields: Any) -> RunResult:
    values: dict[str, Any] = {
        "agent": "ada",
        "run_id": None,
        "attempted_run_id": "20261130T120000Z-abcdef",
        "started_at": NOW,
        "duration_seconds": 1.0,
        "passes": (),
        "files_changed": (),
        "dry_run": False,
        "cost_usd": 0.0,
        "model_calls": (),
        "notes": (),
    }
    return RunResult(**{**values, **fields})


def test_a_failed_pass_and_a_breaker_that_just_opened_raise_their_events(root: Path) -> None:
    deployment = load_deployment(review_deployment(root), {})
    result = _result(passes=(PassResult("distillation", "failed", "model answered 500"),))
    events = run_events(deployment, result, breaker_was_open=False, breaker_open=True)
    assert [(e.kind, e.page) for e in events] == [("run_failed", "/runs?agent=ada"), ("breaker_opened", "/agents")]
    assert "distillation: model answered 500" in events[0].summary
    assert run_events(deployment, _result(), breaker_was_open=True, breaker_open=True) == []


def test_a_pass_stuck_for_the_third_run_is_reported_once(root: Path) -> None:
    deployment = load_deployment(review_deployment(root), {})
    log = root / "state" / "agents" / "ada" / "runs.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    entry = {"v": 1, "passes": {"distillation": "failed"}, "reasons": {"distillation": "HTTP 500"}}
    result = _result(passes=(PassResult("distillation", "failed", "HTTP 500"),))
    kinds = []
    for n in range(4):
        log.write_text("".join(json.dumps({**entry, "started_at": f"2026-11-30T0{i}:00:00+00:00"}) + "\n" for i in range(n + 1)))
        kinds.append([e.kind for e in run_events(deployment, result, False, False)])
    assert kinds == [["run_failed"], ["run_failed"], ["run_failed", "pass_stuck"], ["run_failed"]]


@pytest.mark.parametrize(
    ("notify", "message"),
    [
        ({}, r"- notify: .*notify needs a webhook, a command, or both"),
        ({"webhook": "ftp://x/y"}, r"- notify.webhook: .*is not an http\(s\) URL \(scheme 'ftp'\)"),
        ({"command": []}, r"- notify.command: "),
        ({"webhook": "http://x/", "retries": 50}, r"- notify.retries: "),
        ({"webhook": "http://x/", "events": ["nope"]}, r"- notify.events.0: "),
    ],
)
def test_a_bad_notify_section_is_a_config_error_naming_the_key(root: Path, notify: dict[str, Any], message: str) -> None:
    config = review_deployment(root)
    data = yaml.safe_load(config.read_text())
    data["notify"] = notify
    write_config(root, data)
    with pytest.raises(ConfigError, match=message):
        load_deployment(config, {})


class GarbageReceiver:
    """A TCP server answering every request with a line that is not HTTP (http.client's BadStatusLine)."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.requests = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)
                self.requests += 1
                connection.sendall(b"garbage\r\n\r\n")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.getsockname()[1]}/services/T000/WEBHOOKcanarySECRET99?k=QUERYcanary42"

    def close(self) -> None:
        self.server.close()


def test_a_webhook_answering_garbage_is_a_failed_delivery_the_command_still_runs_and_no_log_quotes_the_url(
    root: Path,
) -> None:
    garbage = GarbageReceiver()
    out = root / "got.json"
    script = f"import sys, pathlib; pathlib.Path({str(out)!r}).write_bytes(sys.stdin.buffer.read())"
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=True)
    try:
        notifier, pauses = _notifier(webhook=garbage.url, retries=1, command=[sys.executable, "-c", script])
        assert notifier.send(EVENT) is False
    finally:
        garbage.close()
        structlog.reset_defaults()
    failed = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert garbage.requests == 2 and len(pauses) == 1
    assert [(r["event"], r.get("target")) for r in failed] == [
        ("notify.sent", "command"),  # the command first: a slow receiver cannot starve it
        ("notify.failed", "webhook"),
        ("notify.failed", "webhook"),
        ("notify.undelivered", None),  # the webhook's part waits in the outbox
    ]
    assert failed[1]["error"] == "BadStatusLine"
    assert json.loads(out.read_text())["event"] == "run_failed"
    # Each part of the URL that carries the token is a secret of its own: an exception
    # message quoting the path or the query alone is masked too.
    assert redact.redact("GET /services/T000/WEBHOOKcanarySECRET99 failed") == "GET *** failed"
    assert "QUERYcanary42" not in redact.redact("sent k=QUERYcanary42")
    redact.reset()


@pytest.mark.parametrize(
    ("webhook", "message"),
    [
        ("htps://hooks.slack.com/services/T000/B000/WEBHOOKcanarySECRET99", "is not an http(s) URL (scheme 'htps')"),
        ("http://hooks.slack.com/services/T000/WEBHOOKcanary SECRET99", "contains a space or a control character"),
        ("https://hooks.slack.com/services/T000/WEBHOOKcanary\tSECRET99", "contains a space or a control character"),
    ],
)
def test_a_bad_webhook_is_refused_naming_key_and_line_without_quoting_the_url(
    root: Path, webhook: str, message: str
) -> None:
    config = review_deployment(root)
    config.write_text(config.read_text() + "notify:\n  webhook: " + json.dumps(webhook) + "\n")
    line = len(config.read_text().splitlines())
    human = run_cli(config, "config", "check")
    as_json = run_cli(config, "config", "check", "--json")
    show = run_cli(config, "config", "show", "--agent", "ada")
    assert human.code == as_json.code == show.code == 1
    assert f"notify.webhook: Value error, {message}" in human.err and f"(config.yaml:{line})" in human.err
    assert any(p.startswith(f"notify.webhook: Value error, {message}") for p in as_json.json()["problems"])
    for result in (human, as_json, show):
        assert "WEBHOOKcanary" not in result.out + result.err


def _curator(newly_stale: list[str], stale: list[str] | None = None) -> CuratorDetails:
    return CuratorDetails(archived=[], proposal=None, waiting=None, stale=stale or newly_stale, newly_stale=newly_stale)


def test_skills_going_stale_raise_one_event_with_a_link_to_the_skills_page(root: Path) -> None:
    deployment = load_deployment(review_deployment(root), {})
    run_id = "20261130T120000Z-abcdef"
    went = PassResult("curator", "applied", "nothing to archive", details=_curator(["a-skill", "b-skill"]))
    (event,) = run_events(deployment, _result(run_id=run_id, passes=(went,)), False, False)
    assert (event.kind, event.page) == ("skills_stale", "/skills?agent=ada")
    assert event.details == {"skills": ["a-skill", "b-skill"], "run_id": run_id}
    assert event.summary.startswith("2 skill(s) of agent ada went stale (unused): a-skill, b-skill")
    already = PassResult("curator", "applied", "nothing to archive", details=_curator([], ["a-skill"]))
    failed = PassResult("curator", "failed", "boom", details=_curator(["a-skill"]))
    assert run_events(deployment, _result(run_id=run_id, passes=(already,)), False, False) == []
    assert [e.kind for e in run_events(deployment, _result(run_id=run_id, passes=(failed,)), False, False)] == [
        "run_failed"
    ]


@pytest.mark.slow
def test_a_scheduled_library_pass_notifies_skills_that_went_stale_once(root: Path, receiver: Receiver) -> None:
    config = curated_library(root)
    data = yaml.safe_load(config.read_text())
    data["notify"] = {"webhook": receiver.url, "events": ["skills_stale"]}
    write_config(root, data)
    deployment = load_deployment(config, {})
    runner = JobRunner(deployment, default_registry(), {"HOME": str(root)}, lambda: NOW)
    runner.notifier = notifier_for(deployment, lambda: NOW)
    runner.run("ada", "maintenance")
    runner.run("ada", "maintenance")

    (body,) = receiver.bodies  # the second run finds nothing newly stale
    assert body["event"] == "skills_stale" and body["agent"] == "ada"
    # stale, and due for the archive (its first archive waits for consent): both went quiet
    assert body["details"]["skills"] == ["old-report", "quiet-lookup"]
    assert body["url"].endswith("/skills?agent=ada")
    (first, *_) = [r for r in run_cli(config, "runs", "--json").json() if r["run_id"] == body["details"]["run_id"]]
    assert first["status"] == "applied"

"""Pay for work done: a request that never reached the server costs nothing; one that may have, costs its reservation.

"Never reached" is a closed port (a socket bound, then closed) or a TLS handshake that
fails or never completes; "may have been processed" is a server that read the request
and then dropped the connection, answered an error, or took too long. Each case is run
through the CLI and read back from the spend ledger's files, `status` and the breaker.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer
from tests.support.runs import OTHER_PASSES, setup_agent

ALL_PASSES = {name: True for name in (*OTHER_PASSES, "distillation")}


def ledger_entries(root: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in sorted((root / "state" / "spend").glob("*.jsonl"))
        for line in path.read_text().splitlines()
    ]


def closing_entries(root: Path) -> dict[str, dict[str, Any]]:
    """Each reservation's call id → the entry that closed it (a settlement or a `kept` note)."""
    entries = ledger_entries(root)
    closing = {e["call"]: e for e in entries if e["kind"] in ("settle", "kept")}
    assert {e["call"] for e in entries if e["kind"] == "reserve"} == set(closing)  # every call closed once
    assert len([e for e in entries if e["kind"] in ("settle", "kept")]) == len(closing)
    return closing


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spend_today(config: Path) -> float:
    return float(run_cli(config, "status", "--agent", "ada", "--json").json()["agents"][0]["spend_today_usd"])


def breaker_failures(config: Path) -> int:
    return int(
        run_cli(config, "breaker", "status", "--agent", "ada", "--json").json()["consecutive_failures"]
    )


def distill(result: Any) -> dict[str, Any]:
    return next(p for p in result.json()["passes"] if p["name"] == "distillation")


@pytest.fixture
def silent_listener() -> Iterator[socket.socket]:
    """A port that accepts connections (the kernel completes them) and never says a word."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield sock


@pytest.fixture
def dropping_server() -> Iterator[str]:
    """A server that reads each request whole, then closes the connection without answering."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                head, _, body = data.partition(b"\r\n\r\n")
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    ),
                    0,
                )
                while len(body) < length:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    body += chunk

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    stop.set()
    listener.close()
    thread.join(5)


def test_calls_to_a_closed_port_cost_nothing_and_still_count_for_the_breaker(
    root: Path, fake_model: FakeModelServer
) -> None:
    # The case: every model pass on, `base_url` on a closed port, one `once`.
    url = f"http://127.0.0.1:{closed_port()}/v1"
    config = setup_agent(root, fake_model, model_changes={"base_url": url}, passes=ALL_PASSES)
    before = tree_snapshot(root / "ada")
    result = run_cli(config, "once", "--agent", "ada")
    assert result.code == 0, result.err
    assert "cannot reach the model server at http://127.0.0.1:" in result.out
    assert "(connection refused); the request was never sent, nothing charged" in result.out
    assert "spend 0.000000 USD" in result.out
    assert tree_snapshot(root / "ada") == before
    closing = closing_entries(root)
    assert closing  # the passes did try
    for entry in closing.values():
        assert (entry["kind"], entry["outcome"], entry["usd"]) == ("settle", "unsent", 0.0)
        assert entry["detail"] == "connection error: connection refused"
    assert spend_today(config) == 0.0
    assert breaker_failures(config) == len(closing)


def test_a_failed_tls_handshake_is_never_charged(root: Path, fake_model: FakeModelServer) -> None:
    # https to a plain-HTTP server: the handshake fails before a byte of the request is sent.
    config = setup_agent(
        root, fake_model, model_changes={"base_url": fake_model.url.replace("http:", "https:")}
    )
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert entry["status"] == "skipped" and "(TLS handshake failed)" in entry["reason"]
    assert "nothing charged" in entry["reason"]
    assert fake_model.requests == []  # the server never saw a request
    [closing] = closing_entries(root).values()
    assert (closing["outcome"], closing["usd"], closing["detail"]) == (
        "unsent",
        0.0,
        "connection error: TLS handshake failed",
    )
    assert spend_today(config) == 0.0 and breaker_failures(config) == 1


@pytest.mark.slow
def test_a_tls_handshake_that_never_completes_times_out_and_is_never_charged(
    root: Path, fake_model: FakeModelServer, silent_listener: socket.socket
) -> None:
    url = f"https://127.0.0.1:{silent_listener.getsockname()[1]}/v1"
    config = setup_agent(root, fake_model, model_changes={"base_url": url, "timeout_seconds": 1})
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert "model call timed out after 1s; the request was never sent, nothing charged" in entry["reason"]
    [closing] = closing_entries(root).values()
    assert (closing["kind"], closing["outcome"], closing["usd"]) == ("settle", "unsent", 0.0)
    assert closing["detail"].startswith("timeout: ")
    assert spend_today(config) == 0.0 and breaker_failures(config) == 1


@pytest.mark.slow
def test_a_connection_dropped_after_the_request_was_sent_keeps_its_reservation(
    root: Path, fake_model: FakeModelServer, dropping_server: str
) -> None:
    config = setup_agent(root, fake_model, model_changes={"base_url": dropping_server})
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert entry["status"] == "skipped"
    assert "failed after the request was sent; it may have been processed" in entry["reason"]
    assert "cannot reach" not in entry["reason"] and "nothing charged" not in entry["reason"]
    reserve = next(e for e in ledger_entries(root) if e["kind"] == "reserve")
    [closing] = closing_entries(root).values()
    assert (closing["kind"], closing["outcome"], closing["detail"]) == ("kept", "kept", "connection lost")
    assert "usd" not in closing  # the reservation stands as the cost
    assert spend_today(config) == pytest.approx(reserve["usd"]) and reserve["usd"] > 0
    assert breaker_failures(config) == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reply", "detail"),
    [
        ({"status": 500}, "HTTP 500"),
        ({"delay": 3.0}, "timeout"),
        ({"content": '{"facts": []}', "prompt_tokens": None}, "answer without usage"),
    ],
)
def test_a_call_that_may_have_been_processed_keeps_its_reservation_and_says_why(
    root: Path, fake_model: FakeModelServer, reply: dict[str, Any], detail: str
) -> None:
    config = setup_agent(root, fake_model, model_changes={"timeout_seconds": 1})
    fake_model.reply(reply.pop("content", None), schema="DistillationResponse", **reply)
    run_cli(config, "once", "--agent", "ada", "--json")
    assert len(fake_model.requests) == 1
    reserve = next(e for e in ledger_entries(root) if e["kind"] == "reserve")
    [closing] = closing_entries(root).values()
    assert (closing["kind"], closing["detail"]) == ("kept", detail)
    assert spend_today(config) == pytest.approx(reserve["usd"])


def test_an_answered_call_is_settled_as_answered(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": []}, schema="DistillationResponse", prompt_tokens=1000, completion_tokens=500)
    run_cli(config, "once", "--agent", "ada", "--json")
    [closing] = closing_entries(root).values()
    assert (closing["kind"], closing["outcome"]) == ("settle", "answered")
    assert closing["usd"] == pytest.approx((1000 * 1.0 + 500 * 4.0) / 1e6) == spend_today(config)

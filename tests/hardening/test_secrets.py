"""Secrets never leave: the API key and `redact_env` values reach no log, output, file or commit.

Each test plants a distinctive canary as the secret, drives real components (the CLI
in-process or as a subprocess, the fake OpenAI-compatible server, the git store), then
looks for the canary everywhere the daemon writes.
"""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import structlog
import yaml
from pydantic import BaseModel

from daemon.doors import logs
from daemon.kernel import atomic, redact
from daemon.kernel.errors import ModelUnavailable
from daemon.kernel.settings import ModelSettings
from daemon.model.deep_tier import DeepTier
from daemon.model.spend import SpendLedger
from tests.daemon.doors.service.helpers import Daemon, service_config
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.facts import stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

REPO = Path(__file__).parents[2]
CANARY = "sk-canary-Zq7RbX41vTn9"  # the API key
EXTRA = "xoxb-extra-Lm83Kd02Pqw"  # a `redact_env` value
UNREGISTERED = "env-only-Hv62Ns0Qy5"  # in the environment, never registered: proves no locals


@pytest.fixture(autouse=True)
def fresh_registry() -> Iterator[None]:
    """Each test starts from a process that has not read a secret yet."""
    redact.reset()
    yield
    redact.reset()
    structlog.reset_defaults()


def everything_written(root: Path, *streams: str) -> str:
    """Every file under `root` (git objects decompressed via `git log -p`) plus `streams`."""
    text = "".join(streams)
    for path in root.rglob("*"):
        if path.is_file() and "store.git" not in path.parts:
            text += path.read_bytes().decode("utf-8", "replace")
    for git_dir in root.rglob("store.git"):
        log = subprocess.run(
            ["git", f"--git-dir={git_dir}", "log", "--all", "-p", "--format=%B%n%N"],
            capture_output=True,
            text=True,
            check=True,
        )
        text += log.stdout
    return text


def distill(body: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in body["passes"] if p["name"] == "distillation")


# -- (a) an answer that echoes the key ----------------------------------------------------------
@pytest.mark.slow
def test_an_answer_echoing_the_key_is_refused_as_tainted_and_the_key_is_nowhere(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    env = {"TEST_API_KEY": CANARY}
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    first = run_cli(config, "-v", "once", "--agent", "ada", "--json", env=env)
    assert distill(first.json())["status"] == "applied", first.err
    cursor_file = root / "state" / "agents" / "ada" / "cursors.json"
    cursors_before = cursor_file.read_bytes()

    add_turns(root)
    echoed = berlin_fact(value=f"Berlin (auth: Bearer {CANARY})")
    fake_model.reply({"facts": [echoed]}, schema="DistillationResponse")
    tainted = run_cli(config, "-v", "once", "--agent", "ada", "--json", env=env)
    text = run_cli(config, "-v", "runs", "--agent", "ada", env=env)

    assert tainted.code == 0, tainted.err
    entry = distill(tainted.json())
    assert entry["status"] == "skipped" and "tainted" in entry["reason"]
    assert "answer contains a configured secret" in entry["reason"]
    assert cursor_file.read_bytes() == cursors_before  # the new turns stay unconsumed
    assert fake_model.headers[-1]["authorization"] == f"Bearer {CANARY}"  # the key was really used
    assert "run.end" in tainted.err  # the log was really written
    written = everything_written(root, first.out, first.err, tainted.out, tainted.err, text.out, text.err)
    assert CANARY not in written


def test_an_answer_echoing_a_redact_env_value_is_refused_too(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model, redact_env=["EXTRA_SECRET"])
    fake_model.reply({"facts": [berlin_fact(value=f"Berlin {EXTRA}")]}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--json", env={"EXTRA_SECRET": EXTRA})
    assert "refused as tainted" in distill(result.json())["reason"]
    assert EXTRA not in everything_written(root, result.out, result.err)


# -- (b) an internal error --------------------------------------------------------------------
def _crash_setup(root: Path) -> Path:
    """A real input that is no DaemonError: the state folder's `agents` is a file."""
    config = setup_agent(root, None)
    (root / "state").mkdir()
    (root / "state" / "agents").write_text("not a folder", encoding="utf-8")
    return config


def _crash_event(stderr: str) -> dict[str, Any]:
    events = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    return next(e for e in events if e["event"] == "cli.crashed")


def test_an_internal_error_logs_a_traceback_without_frame_locals_or_secrets(root: Path) -> None:
    config = _crash_setup(root)
    env = {"TEST_API_KEY": CANARY, "SOME_TOKEN": UNREGISTERED}
    result = run_cli(config, "runs", "--agent", "ada", env=env)
    assert result.code == 3 and "internal error: NotADirectoryError" in result.err
    (trace,) = _crash_event(result.err)["exception"]
    assert trace["exc_type"] == "NotADirectoryError" and trace["frames"]
    assert all("locals" not in frame for frame in trace["frames"])
    assert CANARY not in result.err and UNREGISTERED not in result.err


@pytest.mark.slow
def test_an_internal_error_of_the_real_process_prints_no_environment(root: Path) -> None:
    config = _crash_setup(root)
    # Secrets first: a repr of the environment is cut at 80 characters.
    env = {"SOME_TOKEN": UNREGISTERED, "TEST_API_KEY": CANARY, "PATH": os.environ["PATH"], "HOME": str(root)}
    proc = subprocess.run(
        [sys.executable, "-m", "daemon", "--config", str(config), "runs", "--agent", "ada"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=60,
    )
    assert proc.returncode == 3, proc.stderr
    frames = _crash_event(proc.stderr)["exception"][0]["frames"]
    assert frames and all("locals" not in frame for frame in frames)
    for secret in (CANARY, UNREGISTERED):
        assert secret not in proc.stdout + proc.stderr


def test_console_logs_of_an_exception_show_no_locals_and_mask_the_secret() -> None:
    redact.register(CANARY)
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=False)
    environment = {"SOME_TOKEN": UNREGISTERED}
    header = f"Bearer {CANARY}"
    try:
        raise ValueError(f"Illegal header value {header!r}")
    except ValueError:
        structlog.get_logger("test").exception("request.failed", header=header, variables=len(environment))
    text = stream.getvalue()
    assert "Traceback" in text and "request.failed" in text and "ValueError: Illegal header value" in text
    assert UNREGISTERED not in text  # a local, shown only if tracebacks carried locals
    assert CANARY not in text and "Bearer ***" in text


# -- (c) a key HTTP cannot carry ----------------------------------------------------------------
BAD_KEY = "sk-canary-Zq7R\u00e9X41vTn9"  # one non-ASCII character, at position 15


def test_a_non_ascii_key_is_a_config_error_naming_the_variable(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    once = run_cli(config, "once", "--agent", "ada", env={"TEST_API_KEY": BAD_KEY})
    check = run_cli(config, "config", "check", env={"TEST_API_KEY": BAD_KEY})
    assert once.code == 1 and check.code == 1
    assert once.err.count("\n") == 1  # one line
    assert (
        "error: the model API key in environment variable TEST_API_KEY is not a valid HTTP header "
        "value: character 15 is a non-ASCII character 'é' (U+00E9 LATIN SMALL LETTER E WITH ACUTE)"
    ) in once.err
    assert "environment variable TEST_API_KEY" in check.err
    assert fake_model.requests == []
    for text in (once.out, once.err, check.out, check.err):
        assert BAD_KEY not in text and "sk-canary" not in text


def test_a_control_character_in_the_credentials_file_is_named_by_code_not_echoed(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    credentials = root / "credentials"
    credentials.mkdir()
    (credentials / "test_api_key").write_text(f"  {CANARY[:6]}\x1b{CANARY[6:]}\n", encoding="utf-8")
    env = {"TEST_API_KEY": "", "CREDENTIALS_DIRECTORY": str(credentials)}
    result = run_cli(config, "config", "check", "--json", env=env)
    assert result.code == 1
    (problem,) = result.json()["problems"]
    assert problem.startswith(f"the model API key in credentials file {credentials / 'test_api_key'} ")
    assert "character 9 is a control character (U+001B)" in problem
    assert "\x1b" not in result.out and CANARY[6:] not in result.out


@pytest.mark.slow
def test_run_refuses_to_start_with_a_bad_key_and_a_reload_keeps_the_old_config(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(root, service_config(base_config(root, fake_model.url)))
    refused = start_daemon(config, {"TEST_API_KEY": BAD_KEY})
    assert refused.wait_exit() == 1
    assert "environment variable TEST_API_KEY is not a valid HTTP header value" in refused.output()
    assert "READY=1" not in refused.notify.lines()

    credentials = root / "credentials"
    credentials.mkdir()
    key_file = credentials / "test_api_key"
    key_file.write_text(CANARY + "\n", encoding="utf-8")
    daemon = start_daemon(config, {"TEST_API_KEY": "", "CREDENTIALS_DIRECTORY": str(credentials)})
    daemon.wait_ready()
    key_file.write_text(f"{CANARY}\nsecond line\n", encoding="utf-8")  # a line break inside
    daemon.send(signal.SIGHUP)
    invalid = daemon.wait_event("reload.invalid")
    assert f"credentials file {key_file}" in invalid["error"] and "a line break (U+000A)" in invalid["error"]
    assert daemon.proc.poll() is None  # still serving, with the previous configuration
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0
    assert BAD_KEY not in refused.output() and CANARY not in daemon.output()


# -- (d) configured secrets -------------------------------------------------------------------
def test_redact_env_values_are_masked_in_output_and_logs(root: Path) -> None:
    # A state folder whose path holds the secret carries it into an exception message.
    home_config = setup_agent(root, None, redact_env=["EXTRA_SECRET"])
    cfg = yaml.safe_load(home_config.read_text())
    cfg["state_dir"] = str(root / EXTRA)
    config = write_config(root, cfg)
    env = {"EXTRA_SECRET": EXTRA}
    query = run_cli(config, "memory", "query", "--agent", "ada", "--entity", EXTRA, "--key", "city", env=env)
    (root / EXTRA).mkdir()
    (root / EXTRA / "agents").write_text("not a folder", encoding="utf-8")
    crashed = run_cli(config, "runs", "--agent", "ada", env=env)
    failed = run_cli(config, "once", "--agent", "ada", "--json", env=env)

    assert query.code == 0 and query.out.startswith("no answer for ***.city as of ")
    assert failed.code == 1 and failed.json()["error"] == f"Not a directory: {root}/***/agents/ada"
    assert EXTRA not in failed.out + failed.err
    assert crashed.code == 3
    assert f"{root}/***/agents" in _crash_event(crashed.err)["exception"][0]["exc_value"]
    (message,) = [line for line in crashed.err.splitlines() if line.startswith("internal error:")]
    assert message.startswith("internal error: NotADirectoryError") and "/***/agents" in message
    assert EXTRA not in query.out + query.err + crashed.out + crashed.err


def test_without_redact_env_the_same_value_is_printed_as_is(root: Path) -> None:
    config = setup_agent(root, None)
    query = run_cli(config, "memory", "query", "--agent", "ada", "--entity", EXTRA, "--key", "city")
    assert query.out.startswith(f"no answer for {EXTRA}.city as of ")


# -- the model client and the file backstop ---------------------------------------------------
class Answer(BaseModel):
    text: str


def test_an_sdk_exception_quoting_the_key_becomes_unavailable_naming_only_its_type(
    tmp_path: Path, fake_model: FakeModelServer
) -> None:
    # The edge refuses such a key; a direct caller of the client still must not leak it.
    model = ModelSettings(
        base_url=fake_model.url, model="m", price_input_per_million=1.0, price_output_per_million=1.0
    )
    deep = DeepTier(
        model=model,
        api_key=BAD_KEY,
        ledger=SpendLedger(tmp_path / "spend", tmp_path / "spend.lock"),
        agent="ada",
        run_id="r1",
        now=datetime(2026, 11, 2, tzinfo=UTC),
        deployment_budget_usd=1.0,
        agent_budget_usd=1.0,
        deep_cap=5,
    )
    with pytest.raises(ModelUnavailable) as raised:
        deep.call("probe", "system", "user", Answer)
    deep.close()
    assert str(raised.value) == "probe: model call failed (UnicodeEncodeError)"
    assert deep.calls[0].status == "error" and deep.calls[0].detail == "UnicodeEncodeError"
    assert fake_model.requests == []


def test_atomic_writes_and_appends_mask_a_registered_secret(tmp_path: Path) -> None:
    redact.register(CANARY)
    atomic.write_text(tmp_path / "a.json", json.dumps({"key": CANARY}))
    atomic.append_line(tmp_path / "b.jsonl", f"token={CANARY}")
    assert (tmp_path / "a.json").read_text() == '{"key": "***"}'
    assert (tmp_path / "b.jsonl").read_text() == "token=***\n"


# -- (e) the registry -------------------------------------------------------------------------
def test_nothing_registered_returns_the_input_unchanged() -> None:
    text, data = f"Bearer {CANARY}", CANARY.encode()
    assert redact.redact(text) is text and redact.redact_bytes(data) is data
    assert not redact.contains_secret(text)


def test_a_registered_secret_is_masked_everywhere_in_a_string_and_in_bytes() -> None:
    redact.register(CANARY)
    assert redact.redact(f"a {CANARY} b {CANARY}") == "a *** b ***"
    assert redact.redact_bytes(f"x{CANARY}y".encode()) == b"x***y"
    assert redact.contains_secret(f"Bearer {CANARY}") and not redact.contains_secret("Bearer sk-other")


def test_values_shorter_than_eight_characters_are_ignored() -> None:
    for value in ("", None, "7", "abc1234"):
        redact.register(value)
    assert redact.redact("abc1234 7 7 7") == "abc1234 7 7 7"
    redact.register("abcd1234")
    assert redact.redact("abcd1234") == "***"


def test_escaped_spellings_in_json_and_repr_are_masked() -> None:
    secret = 'pa"ss\\wörd-1234'
    redact.register(secret)
    for text in (json.dumps({"k": secret}), json.dumps({"k": secret}, ensure_ascii=False), repr(secret)):
        assert redact.contains_secret(text)
        masked = redact.redact(text)
        assert masked.count("***") == 1 and "pa" not in masked and "1234" not in masked
    assert redact.redact_bytes(repr(secret.encode()).encode()) == b"b'***'"


@pytest.mark.parametrize("secret", ["st-Pw\\zQ8-canary-bs", "st-Ab'cd\"Q8-canary-q", "plain-canary-1234"])
def test_a_repr_inside_a_json_log_line_and_a_repr_of_a_repr_are_masked(secret: str) -> None:
    # An exception message quotes a path with repr(); the JSON log line escapes that again.
    redact.register(secret)
    message = f"[Errno 20] Not a directory: {os.path.join('/srv', secret)!r}"
    for text in (json.dumps({"exc_value": message}), json.dumps({"e": repr(message)}), repr(repr(secret))):
        assert redact.contains_secret(text), text
        masked = redact.redact(text)
        assert "canary" not in masked and "***" in masked


def test_a_secret_containing_another_is_masked_whole() -> None:
    redact.register("token-1234")
    redact.register("token-1234-and-more")
    assert redact.redact("token-1234-and-more / token-1234") == "*** / ***"


def test_reset_forgets_every_secret() -> None:
    redact.register(CANARY)
    redact.reset()
    assert redact.redact(CANARY) == CANARY


@pytest.mark.parametrize("json_lines", [True, False])
def test_a_library_logging_through_stdlib_is_rendered_and_masked_like_our_own(json_lines: bool) -> None:
    """uvicorn, APScheduler, httpx and openai log through `logging`: the same format, the
    same redaction, no frame locals; their INFO lines stay quiet."""
    redact.register(CANARY)
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=json_lines)
    logs.configure(stream, level="info", json_lines=json_lines)  # again (a reload): one handler, not two
    library = logging.getLogger("some.library")
    environment = {"SOME_TOKEN": UNREGISTERED}
    library.info("connected with %s", CANARY)
    try:
        raise RuntimeError(f"upstream refused key {CANARY}")
    except RuntimeError:
        library.exception("job failed (%d variables)", len(environment))
    text = stream.getvalue()
    assert "connected" not in text
    assert text.count("job failed (1 variables)") == 1
    assert CANARY not in text and UNREGISTERED not in text
    if json_lines:
        (line,) = text.splitlines()
        record = json.loads(line)
        assert record["level"] == "error" and record["logger"] == "some.library"
        assert record["exception"][0]["exc_value"] == "upstream refused key ***"
    else:
        assert "RuntimeError: upstream refused key ***" in text


# -- secrets written where the config names no secret ------------------------------------------
def _line_of(config: Path, text: str) -> int:
    return next(i for i, line in enumerate(config.read_text().splitlines(), 1) if text in line)


def _refused_everywhere(config: Path, secret: str, message: str, *extra: tuple[str, ...]) -> None:
    """`message` from config check (human and JSON); `secret` in no output; nothing written."""
    human = run_cli(config, "config", "check")
    as_json = run_cli(config, "config", "check", "--json")
    assert human.code == as_json.code == 1
    assert message in human.err, human.err
    assert any(message in problem for problem in as_json.json()["problems"])
    for args in (("config", "show", "--agent", "ada"), ("once", "--agent", "ada"), *extra):
        result = run_cli(config, *args)
        assert result.code == 1 and "invalid configuration" in result.err
        assert secret not in result.out + result.err
    assert secret not in human.out + human.err + as_json.out
    assert not (config.parent / "state").exists()


def test_a_password_in_model_base_url_is_refused_naming_key_and_line_and_never_echoed(root: Path) -> None:
    password = "BASEURLcanary-77qq"
    config = setup_agent(root, None)
    model = {"base_url": f"http://admin:{password}@127.0.0.1:9/v1", "model": "m", "api_key_env": "TEST_API_KEY"}
    prices = {"price_input_per_million": 1.0, "price_output_per_million": 1.0}
    config = write_config(root, {**yaml.safe_load(config.read_text()), "model": {**model, **prices}})
    line = _line_of(config, "base_url:")
    _refused_everywhere(config, password, "model.base_url: contains a user name or password (user:password@host); ")
    assert f"(config.yaml:{line})" in run_cli(config, "config", "check").err


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("api_key=sk-proj-abcdefghijklmnopqrstuvwxyz012345", "api_key"),
        ("key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "key"),
        ("sv=2024&sig=Zm9vYmFyYmF6cXV4c2VjcmV0", "sig"),
        ("x=ghp_A1b2A1b2A1b2A1b2A1b2A1b2A1b2A1b2A1b2", "x"),
    ],
)
def test_a_credential_in_the_query_of_model_base_url_is_refused_never_echoed(
    root: Path, query: str, parameter: str
) -> None:
    config = setup_agent(root, None)
    model = {"base_url": f"https://gateway.example.com/v1?{query}", "model": "m", "api_key_env": "TEST_API_KEY"}
    prices = {"price_input_per_million": 1.0, "price_output_per_million": 1.0}
    config = write_config(root, {**yaml.safe_load(config.read_text()), "model": {**model, **prices}})
    secret = query.rsplit("=", 1)[1]
    _refused_everywhere(config, secret, f"model.base_url: carries a credential in its query string (parameter '{parameter}')")


def test_a_base_url_with_an_ordinary_query_is_accepted(root: Path) -> None:
    config = setup_agent(root, None)
    model = {"base_url": "https://gateway.example.com/v1?api-version=2024-10-21", "model": "m", "api_key_env": "TEST_API_KEY"}
    prices = {"price_input_per_million": 1.0, "price_output_per_million": 1.0}
    config = write_config(root, {**yaml.safe_load(config.read_text()), "model": {**model, **prices}})
    assert run_cli(config, "config", "check").code == 0


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (("model", "api_key_env"), CANARY, "model.api_key_env: looks like a key or password, not the name of"),
        (("model", "api_key_env"), "ghp_" + "A1b2" * 5, "model.api_key_env: looks like a key or password"),
        (("model", "api_key_env"), "OPENAI-KEY", "model.api_key_env: must be the name of an environment variable"),
        (("redact_env",), EXTRA, "redact_env.1: looks like a key or password, not the name of"),
        (("redact_env",), "1PASSWORD", "redact_env.1: must be the name of an environment variable"),
        (("coordination", "password_env"), "pg-Zq7RbX41vTn9Lm83Kd02", "coordination.password_env: looks like a key"),
    ],
)
def test_a_key_pasted_where_a_variable_name_belongs_is_refused_never_echoed(
    root: Path, fake_model: FakeModelServer, key: tuple[str, ...], value: str, message: str
) -> None:
    body = yaml.safe_load(setup_agent(root, fake_model).read_text())
    if key == ("redact_env",):
        body["redact_env"] = ["EXTRA_SECRET", value]
    elif key[0] == "coordination":
        body["coordination"] = {"url": "postgresql://metaeng@db.example/fleet", "password_env": value}
    else:
        body["model"]["api_key_env"] = value
    config = write_config(root, body)
    line = _line_of(config, value)
    _refused_everywhere(config, value, message, ("install-service", "--print"))
    assert f"(config.yaml:{line})" in run_cli(config, "config", "check").err


def test_environment_variable_names_of_every_usual_shape_are_accepted(root: Path) -> None:
    names = ["OPENAI_API_KEY", "_private", "azure_openai_key2", "GITHUB_TOKEN", "X"]
    config = setup_agent(root, None, redact_env=names)
    assert run_cli(config, "config", "check").code == 0


def test_a_masked_table_cell_is_as_wide_as_its_mask_so_the_padding_tells_no_length(root: Path) -> None:
    config = setup_agent(root, None, redact_env=["EXTRA_SECRET"])
    write_store(root / "ada", stored_fact(key="plan", value=EXTRA, valid_from="2026-11-24"))
    listed = run_cli(config, "memory", "list", "--agent", "ada", env={"EXTRA_SECRET": EXTRA})
    header, row = listed.out.splitlines()
    assert listed.code == 0 and EXTRA not in listed.out
    assert header.index("FROM") == row.index("2026-11-24")
    assert "VALUE  FROM" in header and "***    2026-11-24" in row  # "VALUE" is the widest cell

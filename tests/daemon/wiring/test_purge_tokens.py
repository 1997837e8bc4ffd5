"""Purging a value that JSON also spells — `1`, `true`, `null`, a key name — erases it from
string values only: every file of the daemon still parses, in the home, the state folder and
every commit, and the agent works on (by `memory forget --purge` and by retention)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from daemon.text.erasure import Erasure
from tests.daemon.wiring.test_purge import git
from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

pytestmark = pytest.mark.slow  # runs, then a purge, for each JSON token

TOKENS = ["1", "true", "null", "value", "version", "schema_version", "key"]
LATER = datetime(2026, 12, 20, tzinfo=UTC)


def tell(root: Path, model: FakeModelServer, config: Path, value: str, day: str, name: str) -> None:
    """One run that learns user.children = `value` from a new conversation on `day`."""
    said = f"My children count is {value}"
    write_transcript(root / "ada", name, conversation([(f"{said}.", "Noted."), ("a?", "b."), ("c?", "d."), ("e?", "f.")], day=day))
    model.reply(
        {"facts": [berlin_fact(quote=said, key="children", value=value, valid_from=day)]}, schema="DistillationResponse"
    )
    assert run_cli(config, "once", "--agent", "ada").code == 0


def seed(root: Path, model: FakeModelServer, value: str) -> Path:
    """user.city = Berlin and user.children = `value`, learnt in one run; a second run after."""
    config = setup_agent(root, model)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"]["memory"] = {"allowed_keys": ["city", "children"]}
    config.write_text(yaml.safe_dump(raw))
    os.utime(root / "ada" / "transcripts" / "s1.jsonl", (1_700_000_000, 1_700_000_000))
    model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    tell(root, model, config, value, "2026-11-02", "s2.jsonl")
    add_turns(root, "s3.jsonl")
    model.reply({"facts": []}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    return config


def parse(name: str, data: bytes) -> list[Any]:
    text = data.decode("utf-8")
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return [json.loads(text)]


def strings(node: Any) -> Iterator[str]:
    """Every string value (never a key) in `node`; a string holding JSON lines is read as such."""
    if isinstance(node, dict):
        for item in node.values():
            yield from strings(item)
    elif isinstance(node, list):
        for item in node:
            yield from strings(item)
    elif isinstance(node, str):
        lines = [line for line in node.splitlines() if line.strip()]
        try:
            inner = [json.loads(line) for line in lines] if lines and node.lstrip()[:1] in "{[" else None
        except ValueError:
            inner = None
        if inner is None:
            yield node
        else:
            yield from strings(inner)


def json_files(root: Path) -> Iterator[tuple[str, bytes]]:
    """Every JSON file of the state folder and the home, and every JSON blob of every commit."""
    for base in (root / "state", root / "ada"):
        for path in base.rglob("*"):
            if path.is_file() and path.suffix in (".json", ".jsonl"):
                yield str(path), path.read_bytes()
    seen: set[str] = set()
    for commit in git(root, "rev-list", "--all").stdout.split():
        for entry in git(root, "ls-tree", "-r", commit).stdout.splitlines():
            meta, path = entry.split("\t", 1)
            oid = meta.split()[2]
            if path.endswith((".json", ".jsonl")) and oid not in seen:
                seen.add(oid)
                yield f"{commit}:{path}", git(root, "cat-file", "blob", oid, text=False).stdout


def assert_intact(root: Path, config: Path, value: str) -> None:
    """Every JSON file parses and holds `value` in no string; the agent's commands work."""
    word = re.compile(rf"(?<![0-9A-Za-z_]){re.escape(value)}(?![0-9A-Za-z_])")
    for name, data in json_files(root):
        try:
            documents = parse(name, data)
        except ValueError as exc:
            raise AssertionError(f"{name} is not JSON any more: {exc}") from None
        if "/transcripts/" not in name and ":transcripts/" not in name:
            assert not [s for s in strings(documents) if word.search(s)], name
    trailers = git(root, "log", "--all", "--format=%(trailers:key=Model-Calls,valueonly)").stdout.split()
    assert trailers and all(t.isdigit() for t in trailers), "a commit's trailers were erased"
    for args in (("memory", "list", "--agent", "ada"), ("status",), ("runs",), ("once", "--agent", "ada")):
        done = run_cli(config, *args, clock=lambda: LATER)
        assert done.code == 0 and "unreadable" not in done.err, (args, done.err)


@pytest.mark.parametrize("value", TOKENS)
def test_purging_a_json_token_keeps_every_file_parsing(root: Path, fake_model: FakeModelServer, value: str) -> None:
    config = seed(root, fake_model, value)

    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "children", "--purge", "--yes", "--json"
    )

    assert result.code == 0, result.err
    assert result.json()["values_purged"] == 1
    assert_intact(root, config, value)
    records = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert [(r["key"], r["value"]) for r in records] == [("city", "Berlin")]


@pytest.mark.parametrize("value", ["1", "true"])
def test_retention_of_a_closed_json_token_keeps_every_file_parsing(
    root: Path, fake_model: FakeModelServer, value: str
) -> None:
    config = seed(root, fake_model, value)
    tell(root, fake_model, config, "many", "2026-11-03", "s4.jsonl")
    raw = yaml.safe_load(config.read_text())
    raw["retention"] = {"closed_facts_days": 1}
    config.write_text(yaml.safe_dump(raw))

    done = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: LATER)

    assert done.code == 0 and "retention purged 1 closed fact version" in done.err, done.err
    assert_intact(root, config, value)
    records = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json", clock=lambda: LATER).json()["records"]
    assert sorted((r["key"], r["value"]) for r in records) == [("children", "many"), ("city", "Berlin")]


@pytest.mark.parametrize("value", ["default", "user", "fact", "ada", "memory"])
def test_purging_a_value_that_equals_an_identifier_keeps_every_records_address(
    root: Path, fake_model: FakeModelServer, value: str
) -> None:
    # "default" is every record's tenant, "user" its entity, "ada" its owner, "fact" its type,
    # "memory" a folder in paths: the person's words are erased, the daemon's identifiers kept.
    config = seed(root, fake_model, value)

    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "children", "--purge", "--yes", "--json"
    )

    assert result.code == 0, result.err
    for name, data in json_files(root):
        parse(name, data)  # still JSON
    records = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert [(r["tenant"], r["user"], r["entity"], r["memory_type"], r["key"], r["value"]) for r in records] == [
        ("default", "ada", "user", "fact", "city", "Berlin")
    ]
    for args in (("status",), ("runs",), ("once", "--agent", "ada")):
        done = run_cli(config, *args, clock=lambda: LATER)
        assert done.code == 0 and "unreadable" not in done.err, (args, done.err)


def test_erasing_twice_changes_nothing_the_first_time_did_not() -> None:
    # A rewrite erases a blob once for the home and once in the history: "purged" as a value
    # must not grow into [[purged]] on the second pass, or the two would never agree.
    erasure = Erasure.of("user", "children", ["purged", "Berlin"])
    for data in (b"it was purged in Berlin\n", b'{"value": "purged", "quote": "purged"}\n'):
        once = erasure.erase(data, structured=data.startswith(b"{"))
        assert erasure.erase(once, structured=data.startswith(b"{")) == once
        assert b"[[purged]]" not in once
    link = erasure.erase(b"see [Berlin](https://example.org)\n")  # a link's text is erased too
    assert link == b"see [[purged]](https://example.org)\n" and erasure.erase(link) == link


def test_purging_the_value_purged_settles_instead_of_growing_its_own_marker(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = seed(root, fake_model, "purged")

    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "children", "--purge", "--yes", "--json"
    )

    assert result.code == 0, result.err
    for name, data in json_files(root):
        assert b"[[purged]]" not in data, name
    records = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert [(r["key"], r["value"]) for r in records] == [("city", "Berlin")]


def test_purging_a_value_that_names_a_forbidden_key_keeps_the_key_forbidden(
    root: Path, fake_model: FakeModelServer
) -> None:
    # The forbidden list names keys: a value equal to one ("city") is not in it.
    config = setup_agent(root, fake_model)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"]["memory"] = {"allowed_keys": ["city", "delivery"]}
    config.write_text(yaml.safe_dump(raw))
    os.utime(root / "ada" / "transcripts" / "s1.jsonl", (1_700_000_000, 1_700_000_000))
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    said = "My delivery is city"
    write_transcript(root / "ada", "s2.jsonl", conversation([(f"{said}.", "Noted."), ("a?", "b."), ("c?", "d."), ("e?", "f.")], day="2026-11-02"))
    fake_model.reply({"facts": [berlin_fact(quote=said, key="delivery", value="city", valid_from="2026-11-02")]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    forget = ("memory", "forget", "--agent", "ada", "--entity", "user", "--purge", "--yes")
    assert run_cli(config, *forget, "--key", "city", "--forbid").code == 0
    forbidden = root / "ada" / ".metaeng" / "forbidden-keys.json"
    assert json.loads(forbidden.read_text())["keys"] == ["city"]

    assert run_cli(config, *forget, "--key", "delivery").code == 0

    assert json.loads(forbidden.read_text())["keys"] == ["city"]
    assert json.loads(git(root, "show", "HEAD:.metaeng/forbidden-keys.json").stdout)["keys"] == ["city"]

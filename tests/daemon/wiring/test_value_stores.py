"""The registry of the home's stores of values (`daemon.wiring.value_stores`): a purge finds a
value wherever one is kept — a value only ever refused too — and no file holding fact
records is left out of the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.wiring import value_stores
from tests.daemon.wiring.test_purge import hits, seed
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact

pytestmark = pytest.mark.slow  # runs, then a purge and its history rewrite

ONLY_REFUSED = "Plimsollgrad"


def refuse(root: Path, config: Path, model: FakeModelServer) -> str:
    """One run whose only fact about the city is refused (negated): the value is logged, never stored."""
    add_turns(root, "s9.jsonl", first=f"I don't live in {ONLY_REFUSED}.")
    model.reply(
        {"facts": [berlin_fact(value=ONLY_REFUSED, quote=f"I don't live in {ONLY_REFUSED}", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )
    run = run_cli(config, "once", "--agent", "ada", "--json")
    assert run.code == 0, run.err
    assert ONLY_REFUSED in run_cli(config, "memory", "refused", "--agent", "ada").out
    return str(run.json()["run_id"])


def test_a_value_only_ever_refused_is_found_purged_by_value_and_leaves_no_byte(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, _runs = seed(root, fake_model)
    refuse(root, config, fake_model)
    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city",
        "--purge", "--value", ONLY_REFUSED, "--yes", "--json",
    )
    assert result.code == 0, result.err
    assert result.json()["values_purged"] == 1
    assert hits(root, ONLY_REFUSED) == []
    assert ONLY_REFUSED not in json.dumps(run_cli(config, "memory", "refused", "--agent", "ada", "--json").json())
    # the stored values were not asked for, and stay
    listed = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert {r["key"] for r in listed} >= {"city"}


def test_an_unknown_value_names_every_store_it_was_looked_for_in(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city",
        "--purge", "--value", "Nowhereville", "--yes",
    )
    assert result.code == 1
    assert "fact store, refused-facts log, review proposals" in result.err and "nothing changed" in result.err


def _records_in(data: bytes) -> bool:
    """Whether a file holds a fact record (entity, key, value), as a line or inside a JSON string."""
    for line in data.split(b"\n"):
        try:
            raw = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            continue
        stack = [raw]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                if {"entity", "key", "value"} <= set(item):
                    return True
                stack += list(item.values())
            elif isinstance(item, list):
                stack += item
            elif isinstance(item, str) and "\"entity\"" in item:
                stack += [json.loads(x) for x in item.split("\n") if x.startswith("{") and _parses(x)]
    return False


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def test_every_file_of_the_home_that_holds_fact_records_is_a_registered_store(
    root: Path, fake_model: FakeModelServer
) -> None:
    """After runs that store, refuse and propose facts, a file holding fact records that the
    registry does not know would be a place a purge never looks: this fails when a new one
    appears."""
    config, _runs = seed(root, fake_model)
    refuse(root, config, fake_model)
    agent = load_deployment(config, {}).agent("ada")
    home = root / "ada"
    holding = sorted(
        str(p.relative_to(home))
        for p in home.rglob("*")
        if p.is_file() and "transcripts" not in p.relative_to(home).parts and _records_in(p.read_bytes())
    )
    assert holding, "the runs must leave fact records in the home"
    assert [p for p in holding if value_stores.store_of(agent, p) is None] == []
    stores = {value_stores.store_of(agent, p).name for p in holding}  # type: ignore[union-attr]
    # (a memory proposal under `autonomy: review` is test_purge's
    # test_purge_finds_a_value_waiting_in_a_memory_proposal_and_approving_it_stores_nothing)
    assert {"fact store", "refused-facts log"} <= stores
    assert all(value_stores.store_of(agent, p) is None for p in value_stores.NO_VALUES)

"""The example deployment (the README's main command) works as documented."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer

EXAMPLES = Path(__file__).parents[1] / "examples"


def copy_example(root: Path, model_url: str | None = None) -> Path:
    target = root / "demo"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("state"))
    config = target / "config.yaml"
    if model_url:
        raw = yaml.safe_load(config.read_text())
        raw["model"].update({"base_url": model_url, "api_key_env": "TEST_API_KEY"})
        config.write_text(yaml.safe_dump(raw, sort_keys=False))
    return config


def test_example_without_a_key_runs_and_says_what_was_skipped(root: Path) -> None:
    config = copy_example(root)
    check = run_cli(config, "config", "check")
    assert check.code == 0, check.err
    result = run_cli(config, "once", "--agent", "ada", "--json", env={"OPENAI_API_KEY": ""})
    assert result.code == 0, result.err
    body = result.json()
    distill = next(p for p in body["passes"] if p["name"] == "distillation")
    assert distill["status"] == "skipped" and "OPENAI_API_KEY" in distill["reason"]
    assert all(p["reason"] for p in body["passes"] if p["status"] == "skipped")


@pytest.mark.slow
def test_example_with_a_model_produces_a_run_that_runs_show_and_undo_handle(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = copy_example(root, fake_model.url)
    home = config.parent / "ada"
    before = tree_snapshot(home)
    fake_model.reply(
        {
            "facts": [
                {
                    "turn": "T1",
                    "quote": "I run support ops here in Berlin",
                    "entity": "user",
                    "key": "city",
                    "value": "Berlin",
                    "confidence": 0.9,
                    "valid_from": "2026-11-02",
                },
                {
                    "turn": "T8",
                    "quote": "From 2026-12-01 on my city is Paris",
                    "entity": "user",
                    "key": "city",
                    "value": "Paris",
                    "confidence": 0.95,
                    "valid_from": "2026-12-01",
                },
                {
                    "turn": "T5",
                    "quote": "My timezone is Europe/Berlin",
                    "entity": "user",
                    "key": "timezone",
                    "value": "Europe/Berlin",
                    "confidence": 0.95,
                    "valid_from": "2026-11-02",
                },
            ]
        },
        schema="DistillationResponse",
    )
    result = run_cli(config, "once", "--agent", "ada", "--json", env={"TEST_API_KEY": TEST_KEY})
    body = result.json()
    distill = next(p for p in body["passes"] if p["name"] == "distillation")
    assert distill["status"] == "applied", distill
    assert distill["stored"] == 3
    run_id = body["run_id"]
    for as_of, city in (("2026-11-30", "Berlin"), ("2026-12-01", "Paris")):
        query = run_cli(
            config,
            "memory",
            "query",
            "--agent",
            "ada",
            "--entity",
            "user",
            "--key",
            "city",
            "--as-of",
            as_of,
            "--json",
        )
        assert query.json()["value"] == city
    assert run_cli(config, "runs", "--agent", "ada", "--json").json()[0]["run_id"] == run_id
    assert run_id in run_cli(config, "show", run_id).out
    assert run_cli(config, "undo", run_id).code == 0
    assert tree_snapshot(home, skip=[".metaeng"]) == {
        k: v for k, v in before.items() if not k.startswith(".metaeng")
    }
    assert store_text(home) == ""

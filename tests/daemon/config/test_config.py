"""The deployment file: validation with key and line, overrides with origins, `config` commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.deploy import run_cli


def write(root: Path, text: str) -> Path:
    (root / "ada").mkdir(exist_ok=True)
    (root / "ben").mkdir(exist_ok=True)
    path = root / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


VALID = """\
version: 1
state_dir: ./state
passes:
  skill_learning: false
agents:
  ada:
    home: ./ada
    passes:
      skill_learning: true
  ben:
    home: ./ben
    passes:
      distillation: false
"""


def test_valid_config_checks_ok_and_relative_paths_resolve_against_its_folder(root: Path) -> None:
    config = write(root, VALID)
    result = run_cli(config, "config", "check", "--json")
    assert result.code == 0, result.err
    assert result.json()["agents"] == ["ada", "ben"]
    assert result.json()["state_dir"] == str(root / "state")


def test_overrides_work_in_both_directions_and_show_their_origin(root: Path) -> None:
    config = write(root, VALID)
    ada = {
        row["key"]: row
        for row in run_cli(config, "config", "show", "--agent", "ada", "--json").json()["settings"]
    }
    ben = {
        row["key"]: row
        for row in run_cli(config, "config", "show", "--agent", "ben", "--json").json()["settings"]
    }
    assert ada["passes.skill_learning"] == {
        "key": "passes.skill_learning",
        "value": True,
        "origin": "agent ada (config.yaml:9)",
    }
    assert ben["passes.skill_learning"]["value"] is False
    assert ben["passes.skill_learning"]["origin"] == "deployment (config.yaml:4)"
    assert ben["passes.distillation"] == {
        "key": "passes.distillation",
        "value": False,
        "origin": "agent ben (config.yaml:13)",
    }
    assert ada["passes.distillation"]["origin"] == "default"
    assert ada["home"]["value"] == str(root / "ada")
    human = run_cli(config, "config", "show", "--agent", "ada")
    assert "passes.skill_learning" in human.out and "agent ada (config.yaml:9)" in human.out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            VALID.replace("  skill_learning: false", "  distilation: false"),
            "passes.distilation: unknown key 'distilation' (config.yaml:4)",
        ),
        (
            VALID.replace("state_dir: ./state", "state_dir: ./state\nmode: sometimes"),
            "mode: Input should be 'schedule' or 'on_demand', got 'sometimes' (config.yaml:3)",
        ),
        (
            VALID.replace("version: 1", "version: 1\nenabled: 1"),
            "enabled: Input should be a valid boolean, got 1 (config.yaml:2)",
        ),
        (
            VALID.replace(
                "    home: ./ben", "    home: ./ben\n    memory:\n      settings:\n        top_k: 99"
            ),
            "agents.ben.memory.settings.top_k: Input should be less than or equal to 8, got 99 (config.yaml:14)",
        ),
        (
            VALID + "  ada:\n    home: ./other\n",
            "agents.ada: duplicate key (first defined on line 6) (config.yaml:14)",
        ),
        (VALID.replace("    home: ./ben", "    home: ./ada"), "agents.ben.home:"),
        (VALID.replace("    home: ./ben", "    home: ./ada/nested"), "overlaps the home of agent ada"),
        (VALID.replace("    home: ./ben", "    home: ./missing"), "is not an existing folder"),
        (VALID.replace("agents:", "agents:\n  Bad Name:\n    home: ./ada"), "must be lowercase letters"),
        ("agents: [\n", "YAML syntax error"),
        (
            VALID.replace("    home: ./ada", "    home: ./ada\n    skills:\n      learned: ../escape"),
            "must not contain '..'",
        ),
        (VALID.replace("state_dir: ./state", "state_dir: ./ada/state"), "is inside the home of agent ada"),
        # YAML's .inf and .nan are floats: an infinite budget would print as `Infinity` in
        # `status --json`, which is not JSON.
        (
            VALID.replace("version: 1", "version: 1\nbudget:\n  daily_usd: .inf"),
            "budget.daily_usd: Input should be a finite number, got inf (config.yaml:3)",
        ),
        (
            VALID.replace("    home: ./ben", "    home: ./ben\n    budget_usd: .inf"),
            "agents.ben.budget_usd: Input should be a finite number, got inf (config.yaml:12)",
        ),
    ],
)
def test_bad_config_is_an_error_naming_key_and_line_and_changes_nothing(
    root: Path, text: str, expected: str
) -> None:
    config = write(root, text)
    result = run_cli(config, "config", "check")
    assert result.code == 1
    assert expected in result.err
    once = run_cli(config, "once", "--agent", "ada")
    assert once.code == 1 and "invalid configuration" in once.err
    assert not (root / "state").exists()
    assert not (root / "ada" / "state").exists()


def test_every_problem_is_reported_at_once(root: Path) -> None:
    config = write(root, VALID.replace("version: 1", "version: 1\nmode: x\ncadence: y"))
    result = run_cli(config, "config", "check", "--json")
    assert result.code == 1
    assert len(result.json()["problems"]) == 2


def test_missing_config_file_is_named(root: Path) -> None:
    result = run_cli(root / "nope.yaml", "config", "check")
    assert result.code == 1 and "nope.yaml" in result.err and "file not found" in result.err


def test_unknown_agent_is_named_with_the_known_ones(root: Path) -> None:
    config = write(root, VALID)
    result = run_cli(config, "once", "--agent", "zed")
    assert result.code == 1 and "unknown agent 'zed' (configured: ada, ben)" in result.err


def test_master_switch_off_runs_nothing(root: Path) -> None:
    config = write(root, "enabled: false\n" + VALID)
    body = run_cli(config, "once", "--agent", "ada", "--json").json()
    assert {p["status"] for p in body["passes"]} == {"skipped"}
    assert all("master switch is off" in p["reason"] for p in body["passes"])

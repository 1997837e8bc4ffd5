"""The deployment file: validation with key and line, overrides with origins, `config` commands."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from daemon.doors.cli import DEFAULT_CONFIG, main
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
            "passes.distilation: unknown key 'distilation'; did you mean 'distillation'? (config.yaml:4)",
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


def test_unknown_keys_are_listed_in_line_order_each_with_the_key_it_resembles(root: Path) -> None:
    text = (
        VALID.replace("version: 1", "version: 1\nbudgt:\n  daily_usd: 1")
        .replace("  ada:\n    home: ./ada", "  ada:\n    home: ./ada\n    colour: red\n    transcripts:\n      glb: x")
        .replace("    passes:\n      distillation: false", "    passes:\n      distilation: false")
    )
    config = write(root, text)

    result = run_cli(config, "config", "check", "--json")

    assert result.code == 1
    assert result.json()["problems"] == [
        "budgt: unknown key 'budgt'; did you mean 'budget'? (config.yaml:2)",
        "agents.ada.colour: unknown key 'colour' (config.yaml:10)",
        "agents.ada.transcripts.glb: unknown key 'glb'; did you mean 'glob'? (config.yaml:12)",
        "agents.ben.passes.distilation: unknown key 'distilation'; did you mean 'distillation'? (config.yaml:18)",
    ]


def test_a_mistyped_key_is_matched_to_the_key_that_takes_its_value_and_a_swap_is_one_edit(root: Path) -> None:
    section = "modle:\n  base_url: http://127.0.0.1:8080/v1\n  model: local\n"
    config = write(root, VALID.replace("version: 1\n", f"version: 1\n{section}"))
    result = run_cli(config, "config", "check", "--json")
    assert result.code == 1
    assert result.json()["problems"] == ["modle: unknown key 'modle'; did you mean 'model'? (config.yaml:2)"]
    config = write(root, VALID.replace("version: 1\n", "version: 1\nmdoe: on_demand\nmodle: on_demand\n"))
    assert run_cli(config, "config", "check", "--json").json()["problems"] == [
        "mdoe: unknown key 'mdoe'; did you mean 'mode'? (config.yaml:2)",
        "modle: unknown key 'modle'; did you mean 'mode'? (config.yaml:3)",  # a word: the mode, not the model section
    ]
    config = write(root, VALID.replace("    home: ./ada\n", "    home: ./ada\n    trasncripts:\n      format: claude-code\n"))
    assert run_cli(config, "config", "check", "--json").json()["problems"][0].startswith(
        "agents.ada.trasncripts: unknown key 'trasncripts'; did you mean 'transcripts'?"
    )


def _cli(*args: str, env: dict[str, str]) -> tuple[int, str]:
    """The command line as a shell starts it: `--config` only if given, METAENG_CONFIG from `env`."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main(list(args), env={"HOME": os.environ["HOME"], **env}, stdout=stdout, stderr=stderr)
    return code, stderr.getvalue()


def test_a_missing_config_file_is_named_with_how_its_path_was_chosen_and_what_to_do(root: Path) -> None:
    given = run_cli(root / "nope.yaml", "config", "check")
    assert given.code == 1
    assert given.err == (
        f"error: no config file at {root / 'nope.yaml'} (given with --config); write one there with "
        f"`metaeng-daemon --config {root / 'nope.yaml'} init`, or give --config the path of an existing one\n"
    )
    listed = run_cli(root / "nope.yaml", "config", "check", "--json")
    assert listed.code == 1 and listed.json()["problems"] == [given.err.removeprefix("error: ").rstrip("\n")]

    code, err = _cli("status", env={"METAENG_CONFIG": str(root / "env.yaml")})
    assert code == 1
    assert f"error: no config file at {root / 'env.yaml'} (from $METAENG_CONFIG); write one there" in err
    assert "or point $METAENG_CONFIG or --config at an existing one" in err

    if Path(DEFAULT_CONFIG).exists():
        pytest.skip(f"{DEFAULT_CONFIG} exists on this machine")
    code, err = _cli("once", "--agent", "ada", env={})
    assert code == 1
    assert err == (
        f"error: no config file at {DEFAULT_CONFIG} (the default: neither --config nor $METAENG_CONFIG was "
        f"given); write one there with `metaeng-daemon --config {DEFAULT_CONFIG} init`, or name yours with "
        "--config PATH or $METAENG_CONFIG\n"
    )


def test_unknown_agent_is_named_with_the_known_ones(root: Path) -> None:
    config = write(root, VALID)
    result = run_cli(config, "once", "--agent", "zed")
    assert result.code == 1 and "unknown agent 'zed' (configured: ada, ben)" in result.err


def test_master_switch_off_runs_nothing(root: Path) -> None:
    config = write(root, "enabled: false\n" + VALID)
    body = run_cli(config, "once", "--agent", "ada", "--json").json()
    assert {p["status"] for p in body["passes"]} == {"skipped"}
    assert all("master switch is off" in p["reason"] for p in body["passes"])

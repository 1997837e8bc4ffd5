"""Hostile config files: bounded parse, exit 1 naming the line, never exit 3 (issue 13, item 8).

The dangerous files run `config check` in a child process with a timeout and an address
space limit, so a regression fails the test instead of eating the machine.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.deploy import run_cli

MEMORY_LIMIT = 1024 * 1024 * 1024  # 1 GiB of address space for the child
SECONDS = 30.0


def alias_bomb(home: Path) -> str:
    """About 1 KB: nine levels of nine aliases each, 9**9 (387 million) strings once expanded."""
    lines = ["version: 1", 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, 9):
        refs = ",".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    lines += ["agents:", "  ada:", f"    home: {home}", "    skills:", "      managed: *a8"]
    return "\n".join(lines) + "\n"


def check_in_child(config: Path) -> tuple[int, str, float]:
    """`config check` as a separate process: (exit code, stderr, seconds)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "daemon", "--config", str(config), "config", "check"],
        capture_output=True,
        text=True,
        timeout=SECONDS,
        preexec_fn=limit,
        cwd=config.parent,
    )
    return done.returncode, done.stderr, time.monotonic() - started


@pytest.mark.slow
def test_an_alias_bomb_is_an_error_naming_the_line_in_bounded_time_and_memory(tmp_path: Path) -> None:
    (tmp_path / "ada").mkdir()
    config = tmp_path / "config.yaml"
    config.write_text(alias_bomb(tmp_path / "ada"))
    assert len(config.read_bytes()) < 1100
    code, err, seconds = check_in_child(config)
    assert code == 1, err
    assert "aliases expand the document past 200,000 nodes (config.yaml:" in err, err
    assert seconds < 10


@pytest.mark.slow
def test_deep_nesting_is_an_error_naming_the_line(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("version: 1\nx: " + "[" * 3000 + "]" * 3000 + "\nagents: {}\n")
    code, err, seconds = check_in_child(config)
    assert code == 1, err
    assert "nested deeper than 32 levels (config.yaml:2)" in err, err
    assert seconds < 10


@pytest.mark.slow
def test_a_file_over_one_mebibyte_is_refused_naming_the_line_where_it_crosses(tmp_path: Path) -> None:
    (tmp_path / "ada").mkdir()
    config = tmp_path / "config.yaml"
    padding = "".join(f"# comment line {i:07d} {'x' * 40}\n" for i in range(2 * 1024 * 1024 // 64))
    config.write_text(f"version: 1\nagents:\n  ada:\n    home: {tmp_path / 'ada'}\n{padding}")
    assert config.stat().st_size >= 2 * 1024 * 1024
    code, err, _seconds = check_in_child(config)
    assert code == 1, err
    expected_line = config.read_bytes()[: 1024 * 1024].count(b"\n") + 1
    assert f"the file is larger than 1 MiB (1,048,576 bytes) (config.yaml:{expected_line})" in err, err


@pytest.mark.slow
def test_a_home_of_an_unknown_user_is_an_error_naming_key_and_line(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        f"version: 1\nstate_dir: {tmp_path / 'state'}\nagents:\n  ada:\n    home: ~nosuchuser/x\n"
    )
    code, err, _seconds = check_in_child(config)
    assert code == 1, err
    assert (
        "agents.ada.home: '~nosuchuser/x' names a user this system does not know (config.yaml:5)" in err
    ), err


def test_unknown_users_in_other_paths_are_named_too_and_other_agents_still_checked(tmp_path: Path) -> None:
    for name in ("ada", "bob"):
        (tmp_path / name).mkdir()
    config = tmp_path / "config.yaml"
    config.write_text(
        "version: 1\n"
        "state_dir: ~nosuchuser/state\n"
        "agents:\n"
        "  ada:\n"
        "    home: ada\n"
        "    transcripts: {root: ~nosuchuser/t}\n"
        "  bob:\n"
        "    home: bob\n"
        "    skills:\n"
        "      managed: [~nosuchuser/skills]\n"
        "  cy:\n"
        "    home: nowhere\n"
    )
    result = run_cli(config, "config", "check", "--json")
    assert result.code == 1
    assert result.json()["problems"] == [
        "state_dir: '~nosuchuser/state' names a user this system does not know (config.yaml:2)",
        "agents.ada.transcripts.root: '~nosuchuser/t' names a user this system does not know (config.yaml:6)",
        "agents.bob.skills.managed.0: '~nosuchuser/skills' names a user this system does not know "
        "(config.yaml:10)",
        f"agents.cy.home: {tmp_path / 'nowhere'} is not an existing folder (config.yaml:12)",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: &a [*a]\n", "alias *a refers to the collection it sits in (config.yaml:1)"),
        ("version: 1\nx: 2026-13-45\n", "x: cannot read the value '2026-13-45': month must be in 1..12"),
        ("version: 1\nx: " + "9" * 5000 + "\n", "x: cannot read the value '99999999"),
        ("version: 1\nx: !!python/object:os.system ls\n", "could not determine a constructor for the tag"),
        ("version: 1\nx: !!set {a, b}\n", "x: the YAML tag 'tag:yaml.org,2002:set' is not supported"),
        ("version: 1\nx: \"bell \x07\"\n", "YAML syntax error: unacceptable character #x0007: special characters are not allowed (config.yaml:2)"),
        ("version: 1\n{[a]: 1}: 2\n", "mapping keys must be plain values (config.yaml:2)"),
    ],
    ids=["recursive-alias", "bad-date", "huge-int", "python-tag", "set-tag", "control-char", "complex-key"],
)
def test_yaml_that_safe_load_would_crash_on_is_an_error_naming_the_line(
    tmp_path: Path, text: str, expected: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(text)
    result = run_cli(config, "config", "check")
    assert result.code == 1, result.err
    assert expected in result.err, result.err
    assert "(config.yaml:" in result.err


def test_anchors_and_merge_keys_within_the_limits_still_work(tmp_path: Path) -> None:
    for name in ("ada", "bob"):
        (tmp_path / name).mkdir()
    config = tmp_path / "config.yaml"
    config.write_text(
        "version: 1\n"
        f"state_dir: {tmp_path / 'state'}\n"
        "agents:\n"
        "  ada: &agent\n"
        "    home: ada\n"
        "    cadence: relaxed\n"
        "    memory: {max_future_days: 7, allowed_keys: [city, plan]}\n"
        "  bob:\n"
        "    <<: *agent\n"
        "    home: bob\n"
        "    cadence: aggressive\n"
    )
    assert run_cli(config, "config", "check").code == 0
    shown = run_cli(config, "config", "show", "--agent", "bob", "--json").json()
    settings = {row["key"]: (row["value"], row["origin"]) for row in shown["settings"]}
    assert settings["home"][0] == str(tmp_path / "bob")
    assert settings["cadence"] == ("aggressive", "agent bob (config.yaml:11)")
    assert settings["memory.max_future_days"][0] == 7
    assert settings["memory.allowed_keys"][0] == ["city", "plan"]

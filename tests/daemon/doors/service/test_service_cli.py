"""The service commands have help text and their config keys are validated strictly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from daemon.doors.cli import build_parser, main
from tests.support.deploy import base_config, run_cli, write_config


@pytest.mark.parametrize("command", ["run", "status", "install-service"])
def test_service_commands_have_help_text(command: str) -> None:
    parser = build_parser({})
    sub = next(a for a in parser._actions if a.dest == "command")
    assert sub.choices is not None
    assert command in sub.choices
    assert (sub.choices[command].description or "").strip()
    stdout = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"], env={}, stdout=stdout)
    assert exit_info.value.code == 0


def test_service_settings_show_up_in_config_show_with_their_origin(root: Path) -> None:
    cfg = base_config(root, None)
    cfg["service"] = {"watch": "polling", "intervals": {"transcripts": 30}}
    config = write_config(root, cfg)
    rows = {
        r["key"]: r for r in run_cli(config, "config", "show", "--agent", "ada", "--json").json()["settings"]
    }
    assert rows["service.watch"]["value"] == "polling"
    assert rows["service.watch"]["origin"].startswith("deployment (config.yaml:")
    assert rows["service.intervals"]["value"] == {
        "transcripts": 30.0,
        "memory_consolidation": None,
        "maintenance": None,
        "store_maintenance": None,
    }
    assert rows["service.max_parallel_runs"] == {
        "key": "service.max_parallel_runs",
        "value": 4,
        "origin": "default",
    }


def test_bad_service_settings_are_errors_naming_key_and_line(root: Path) -> None:
    cfg = base_config(root, None)
    cfg["service"] = {"intervals": {"transcripts": 0.5, "weekly": 3}, "max_parallel_runs": "4"}
    config = write_config(root, cfg)
    result = run_cli(config, "config", "check")
    assert result.code == 1
    assert "service.intervals.transcripts: Input should be greater than or equal to 1" in result.err
    assert "service.intervals.weekly: unknown key 'weekly'" in result.err
    assert "service.max_parallel_runs: Input should be a valid integer" in result.err

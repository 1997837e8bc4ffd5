"""The systemd unit in systemd/ and `metaeng-daemon install-service`."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from daemon.doors.service.unit import DEFAULT_EXEC, UnitParams, render_unit
from tests.support.deploy import base_config, run_cli, tree_snapshot, usage_error, write_config
from tests.support.systemd import assert_verified, verify

REPO = Path(__file__).resolve().parents[4]
UNIT = REPO / "systemd" / "metaeng-daemon.service"
INSTALLED = Path(sys.executable).parent / "metaeng-daemon"


def test_the_unit_in_the_repository_is_the_rendered_template() -> None:
    assert UNIT.read_text() == render_unit(UnitParams())


def test_every_directive_of_the_unit_has_a_comment_above_it() -> None:
    lines = UNIT.read_text().splitlines()
    for index, line in enumerate(lines):
        if line and not line.startswith(("#", "[")):
            assert lines[index - 1].startswith("#"), f"line {index + 1} has no comment: {line}"


def test_the_unit_is_hardened_as_documented() -> None:
    text = UNIT.read_text()
    for directive in (
        "Type=notify",
        "ExecReload=/bin/kill -HUP $MAINPID",
        "KillMode=mixed",
        "WatchdogSec=120s",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "ProtectSystem=strict",
        "ProtectHome=read-only",
        "ReadWritePaths=-/srv/agents",
        "StateDirectory=metaeng-daemon",
        "LoadCredential=openai_api_key:/etc/metaeng-daemon/openai_api_key",
        f"ExecStartPre={DEFAULT_EXEC} config check",
    ):
        assert directive in text.splitlines(), directive


def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    # verify also checks that ExecStart= exists: point it at this installation's executable.
    unit = tmp_path / "metaeng-daemon.service"
    unit.write_text(UNIT.read_text().replace(DEFAULT_EXEC, str(INSTALLED)))
    assert_verified(unit, tmp_path)


def test_systemd_analyze_catches_a_misspelled_directive(tmp_path: Path) -> None:
    unit = tmp_path / "metaeng-daemon.service"
    unit.write_text(
        UNIT.read_text().replace(DEFAULT_EXEC, str(INSTALLED)).replace("ProtectSystem=", "ProtectSytem=")
    )
    assert verify(unit, tmp_path).returncode != 0


def test_install_service_writes_a_unit_for_this_deployment(root: Path) -> None:
    cfg = base_config(root, "http://127.0.0.1:9/v1", agents=("ada", "bob"))
    config = write_config(root, cfg)
    units = root / "units"
    result = run_cli(
        config, "install-service", "--unit-dir", str(units), "--agents-group", "agents", "--json"
    )
    assert result.code == 0, result.err
    unit = units / "metaeng-daemon.service"
    text = unit.read_text()
    lines = text.splitlines()
    assert f"ReadWritePaths=-{root / 'ada'} -{root / 'bob'} -{root / 'state'}" in lines
    assert f"Environment=METAENG_CONFIG={config}" in lines
    assert f"ExecStart={INSTALLED} run" in lines
    assert "LoadCredential=test_api_key:/etc/metaeng-daemon/test_api_key" in lines
    assert "SupplementaryGroups=agents" in lines
    assert result.json()["unit"] == str(unit)
    assert any("systemctl daemon-reload" in step for step in result.json()["next_steps"])
    verified = verify(unit, root)
    assert verified.returncode == 0, verified.stderr


def test_install_service_print_writes_nothing(root: Path) -> None:
    cfg = base_config(root, None)
    config = write_config(root, cfg)
    before = tree_snapshot(root)
    result = run_cli(config, "install-service", "--unit-dir", str(root / "units"), "--print")
    assert result.code == 0
    assert "Type=notify" in result.out and "LoadCredential" not in result.out  # no model, no key
    assert tree_snapshot(root) == before


def test_install_service_with_an_invalid_config_writes_nothing(root: Path) -> None:
    cfg = base_config(root, None)
    cfg["service"] = {"watch": "sometimes"}
    config = write_config(root, cfg)
    before = tree_snapshot(root)
    result = run_cli(config, "install-service", "--unit-dir", str(root / "units"))
    assert result.code == 1
    assert "service.watch" in result.err and "config.yaml:" in result.err
    assert tree_snapshot(root) == before


def test_install_service_warns_when_private_tmp_would_hide_the_deployment(root: Path) -> None:
    # pytest's folders live in /tmp, as the README's demo does.
    assert str(root).startswith("/tmp/")
    config = write_config(root, base_config(root, None))
    result = run_cli(config, "install-service", "--unit-dir", str(root / "units"), "--json")
    assert result.code == 0, result.err
    warnings = result.json()["warnings"]
    assert any(w.startswith(f"agents.ada.home: {root / 'ada'} is under /tmp") for w in warnings)
    assert any(w.startswith(f"config: {config}") for w in warnings)
    assert all("PrivateTmp=yes" in w for w in warnings)
    assert f"warning: agents.ada.home: {root / 'ada'} is under /tmp" in result.err


def test_install_service_escapes_percent_spaces_and_quotes_in_paths(tmp_path: Path) -> None:
    # systemd expands `%h` (a home folder) even inside quotes, and splits words on spaces:
    # every path must reach the service exactly as configured.
    root = tmp_path / "ops 100%h" / "jo's agents"
    (root / "ada").mkdir(parents=True)
    config = write_config(root, base_config(root, "http://127.0.0.1:9/v1"))
    units = tmp_path / "units"
    result = run_cli(config, "install-service", "--unit-dir", str(units), "--json")
    assert result.code == 0, result.err
    lines = (units / "metaeng-daemon.service").read_text().splitlines()
    quoted = str(root).replace("%", "%%")
    assert f'Environment=METAENG_CONFIG="{quoted}/config.yaml"' in lines
    assert f'ReadWritePaths=-"{quoted}/ada" -"{quoted}/state"' in lines
    chown = next(step for step in result.json()["next_steps"] if step.startswith("chown"))
    assert shlex.split(chown, comments=True) == ["chown", "-R", "metaeng-daemon", str(root / "ada"), str(root / "state")]
    verified = verify(units / "metaeng-daemon.service", tmp_path)
    assert verified.returncode == 0, verified.stderr


@pytest.mark.parametrize("option", ["--user", "--group", "--agents-group"])
@pytest.mark.parametrize("value", ["two words", "x\nExecStartPre=/bin/rm -rf /", "", "-dash", "a" * 300, "50%", "a:b", ".."])
def test_install_service_refuses_a_name_systemd_would_not_take(root: Path, option: str, value: str) -> None:
    config = write_config(root, base_config(root, None))
    before = tree_snapshot(root)
    said = usage_error(config, "install-service", "--unit-dir", str(root / "units"), f"{option}={value}")
    assert f"argument {option}:" in said and "is not a user or group name" in said
    assert tree_snapshot(root) == before


@pytest.mark.parametrize("name", ["john.doe", "svc$", "jdoe@corp.example.com", "a" * 32, "1000"])
def test_install_service_takes_the_relaxed_names_systemd_takes(root: Path, name: str) -> None:
    config = write_config(root, base_config(root, None))
    units = root / "units"
    result = run_cli(config, "install-service", "--unit-dir", str(units), f"--user={name}", f"--group={name}", "--json")
    assert result.code == 0, result.err
    assert f"User={name}" in (units / "metaeng-daemon.service").read_text().splitlines()
    useradd = next(step for step in result.json()["next_steps"] if step.startswith("useradd"))
    assert shlex.split(useradd, comments=True)[-1] == name
    verified = verify(units / "metaeng-daemon.service", root)
    assert verified.returncode == 0, verified.stderr  # with a notice for a relaxed name


def test_a_path_with_a_line_break_is_refused_naming_it(tmp_path: Path) -> None:
    root = tmp_path / "line\nbreak"
    (root / "ada").mkdir(parents=True)
    config = write_config(root, base_config(root, None))
    result = run_cli(config, "install-service", "--unit-dir", str(tmp_path / "units"))
    assert result.code == 1 and "contains a control character" in result.err
    assert not (tmp_path / "units").exists()

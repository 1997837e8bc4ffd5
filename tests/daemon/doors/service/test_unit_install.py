"""`install-service --user` (a unit for the person's own systemd) and units written outside the load path."""

from __future__ import annotations

import io
import os
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from daemon.doors.cli import main
from daemon.doors.service.unit import UnitParams, render_unit
from daemon.doors.service.unit_install import in_load_path, root_warnings, xdg_home
from daemon.kernel.errors import DaemonError
from tests.support.deploy import TEST_KEY, CliResult, base_config, run_cli, tree_snapshot, write_config
from tests.support.systemd import assert_verified, verify

INSTALLED = Path(sys.executable).parent / "metaeng-daemon"
# What only the system manager can do (an account, mount namespaces, capabilities, the system's
# network target): none of it may appear in a user unit.
SYSTEM_ONLY = (
    "User=",
    "Group=",
    "SupplementaryGroups=",
    "StateDirectory=",
    "StateDirectoryMode=",
    "ConfigurationDirectory=",
    "ProtectSystem=",
    "ProtectHome=",
    "ReadWritePaths=",
    "PrivateTmp=",
    "PrivateDevices=",
    "CapabilityBoundingSet=",
    "ProtectKernelTunables=",
    "ProtectKernelModules=",
    "ProtectKernelLogs=",
    "ProtectControlGroups=",
    "ProtectClock=",
    "ProtectHostname=",
    "After=",
    "Wants=",
)
LINGER = "loginctl enable-linger $USER  # keep it running after you log out, and start it at boot"
JOURNAL = "journalctl --user -u metaeng-daemon -f  # logs; `systemctl --user reload metaeng-daemon` after editing the config"
ENABLE = "systemctl --user daemon-reload && systemctl --user enable --now metaeng-daemon"


def _laptop(tmp_path: Path, state_dir: bool = False) -> tuple[Path, dict[str, str]]:
    """A person's home with the config where `--user` looks by default, and the environment to run in."""
    home = tmp_path / "home"
    cfg = base_config(home, "http://127.0.0.1:9/v1", agents=("coder",))
    if not state_dir:
        del cfg["state_dir"]  # the default: $XDG_STATE_HOME/metaeng-daemon
    (home / ".config" / "metaeng-daemon").mkdir(parents=True)
    write_config(home / ".config" / "metaeng-daemon", cfg)
    return home, {"HOME": str(home)}


def _install(env: Mapping[str, str], *args: str) -> CliResult:
    """`metaeng-daemon install-service --user ARGS` with no --config, as a person types it."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main(
        ["install-service", "--user", *args],
        env={"TEST_API_KEY": TEST_KEY, **env},
        stdout=stdout,
        stderr=stderr,
    )
    return CliResult(code, stdout.getvalue(), stderr.getvalue())


def _directives(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith(("#", "["))]


def test_user_unit_goes_to_your_own_systemd_and_systemd_analyze_user_verifies_it(tmp_path: Path) -> None:
    home, env = _laptop(tmp_path)
    result = _install(env, "--json")
    assert result.code == 0, result.err
    unit = home / ".config" / "systemd" / "user" / "metaeng-daemon.service"
    config_dir = home / ".config" / "metaeng-daemon"
    lines = unit.read_text().splitlines()
    for directive in (
        f"Environment=METAENG_CONFIG={config_dir / 'config.yaml'}",
        f"Environment=STATE_DIRECTORY={home / '.local' / 'state' / 'metaeng-daemon'}",
        f"EnvironmentFile=-{config_dir / 'env'}",
        f"LoadCredential=test_api_key:{config_dir / 'test_api_key'}",
        f"ExecStart={INSTALLED} run",
        "Type=notify",
        "UMask=0077",
        "NoNewPrivileges=yes",
        "SystemCallFilter=@system-service",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "WantedBy=default.target",
    ):
        assert directive in lines, directive
    assert not [d for d in _directives(unit.read_text()) if d.startswith(SYSTEM_ONLY)]
    assert result.json() == {
        "unit": str(unit),
        "writable": [str(home / "coder"), str(home / ".local" / "state" / "metaeng-daemon")],
        "next_steps": [
            f"install -D -m 0600 /dev/stdin {config_dir / 'test_api_key'}  # paste the API key, then Ctrl-D",
            f"systemd-analyze --user verify {unit}",
            ENABLE,  # no link step: the folder is in the user manager's load path
            LINGER,
            JOURNAL,
        ],
        "warnings": root_warnings(os.geteuid()),
    }
    # Only the unit is written: the state folder is the service's to create.
    assert sorted(tree_snapshot(home)) == [
        ".config/metaeng-daemon/config.yaml",
        ".config/systemd/user/metaeng-daemon.service",
    ]
    assert_verified(unit, tmp_path, user=True)


def test_every_directive_of_the_user_unit_has_a_comment_and_the_sandbox_left_off_says_why() -> None:
    lines = render_unit(
        UnitParams(manager="user", state_directory="/home/jo/.local/state/metaeng-daemon")
    ).splitlines()
    for index, line in enumerate(lines):
        if line and not line.startswith(("#", "[")):
            assert lines[index - 1].startswith("#"), f"line {index + 1} has no comment: {line}"
    comments = " ".join(line for line in lines if line.startswith("#"))
    for why in (
        "PrivateUsers=",
        "ProtectSystem=",
        "PrivateTmp=",
        "CapabilityBoundingSet=",
        "network-online.target",
    ):
        assert why in comments, why


def test_user_unit_follows_xdg_folders_and_carries_spaces_and_percent_verbatim(tmp_path: Path) -> None:
    # LoadCredential= and EnvironmentFile= take the rest of the line as it is (no quotes), and
    # expand `%` specifiers: a folder "my cfg 100%h" must reach systemd as exactly that.
    _, env = _laptop(tmp_path)
    config_home = tmp_path / "my cfg 100%h"
    elsewhere = tmp_path / "elsewhere"
    config = write_config(elsewhere, base_config(elsewhere, "http://127.0.0.1:9/v1"))
    env.update(
        XDG_CONFIG_HOME=str(config_home), XDG_STATE_HOME=str(tmp_path / "state"), METAENG_CONFIG=str(config)
    )
    result = _install(env, "--json")
    assert result.code == 0, result.err
    unit = config_home / "systemd" / "user" / "metaeng-daemon.service"
    lines = unit.read_text().splitlines()
    escaped = str(config_home).replace("%", "%%")
    assert f"LoadCredential=test_api_key:{escaped}/metaeng-daemon/test_api_key" in lines
    assert f"EnvironmentFile=-{escaped}/metaeng-daemon/env" in lines
    assert f"Environment=METAENG_CONFIG={config}" in lines  # $METAENG_CONFIG names the config
    # The config sets its own state_dir: nothing to pin.
    assert not [line for line in lines if line.startswith("Environment=STATE_DIRECTORY=")]
    key_step = result.json()["next_steps"][0]
    assert shlex.split(key_step, comments=True) == [
        "install",
        "-D",
        "-m",
        "0600",
        "/dev/stdin",
        str(config_home / "metaeng-daemon" / "test_api_key"),
    ]
    assert_verified(unit, tmp_path, user=True)


def test_user_install_prints_the_steps_to_run_as_yourself(tmp_path: Path) -> None:
    home, env = _laptop(tmp_path)
    result = _install(env)
    assert result.code == 0, result.err
    unit = home / ".config" / "systemd" / "user" / "metaeng-daemon.service"
    assert result.out.splitlines() == [
        f"wrote {unit}",
        "next steps, as yourself (no sudo):",
        f"  install -D -m 0600 /dev/stdin {home}/.config/metaeng-daemon/test_api_key  # paste the API key, then Ctrl-D",
        f"  systemd-analyze --user verify {unit}",
        f"  {ENABLE}",
        f"  {LINGER}",
        f"  {JOURNAL}",
    ]
    assert ("warning: you are root" in result.err) == (os.geteuid() == 0)


def test_user_print_shows_the_user_unit_and_writes_nothing(tmp_path: Path) -> None:
    _, env = _laptop(tmp_path)
    before = tree_snapshot(tmp_path)
    result = _install(env, "--print")
    assert result.code == 0, result.err
    assert "WantedBy=default.target" in result.out.splitlines()
    assert tree_snapshot(tmp_path) == before


def test_bare_user_reads_the_config_from_xdg_config_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    result = _install({"HOME": str(home)})
    assert result.code == 1
    assert (
        f"no config file at {home / '.config' / 'metaeng-daemon' / 'config.yaml'}: install-service --user reads"
        in result.err
    )
    assert not any(home.iterdir())


def test_user_without_a_home_is_refused_naming_what_is_missing(tmp_path: Path) -> None:
    result = _install({"PATH": "/usr/bin"})
    assert result.code == 1
    assert "neither $XDG_CONFIG_HOME nor $HOME is set" in result.err


def test_user_refuses_paths_owned_by_someone_else_and_writes_nothing(tmp_path: Path) -> None:
    # A user unit runs with your rights only: a state folder it cannot create, or a unit written
    # (by root, say) into a folder that is not yours, would fail later, so install refuses now.
    if os.geteuid() == 0:
        theirs = tmp_path / "theirs"
        theirs.mkdir()
        os.chown(theirs, 54321, 54321)
        owner = "uid 54321"
    else:
        theirs, owner = Path("/"), "root (uid 0)"
    home, env = _laptop(tmp_path, state_dir=True)
    config = home / ".config" / "metaeng-daemon" / "config.yaml"
    config.write_text(config.read_text().replace(str(home / "state"), str(theirs / "metaeng-state")))
    before = tree_snapshot(tmp_path)
    result = _install(env, "--unit-dir", str(theirs))
    assert result.code == 1
    assert (
        f"state_dir: {theirs / 'metaeng-state'} is not there yet and {theirs}, where it would be created, is owned by {owner}"
        in result.err
    )
    assert f"the unit folder: {theirs} is owned by {owner}" in result.err
    assert "install the system unit (without --user)" in result.err
    assert tree_snapshot(tmp_path) == before
    assert not (theirs / "metaeng-daemon.service").exists()


@pytest.mark.parametrize("option", [("--group", "staff"), ("--agents-group", "agents")])
def test_user_refuses_the_system_units_group_options_and_writes_nothing(
    tmp_path: Path, option: tuple[str, str]
) -> None:
    _, env = _laptop(tmp_path)
    before = tree_snapshot(tmp_path)
    result = _install(env, *option)
    assert result.code == 1 and "are for the system unit" in result.err
    assert tree_snapshot(tmp_path) == before


def test_user_with_a_name_still_names_the_system_account(root: Path) -> None:
    config = write_config(root, base_config(root, None))
    units = root / "units"
    result = run_cli(config, "install-service", "--unit-dir", str(units), "--user", "alice")
    assert result.code == 0, result.err
    lines = (units / "metaeng-daemon.service").read_text().splitlines()
    assert "User=alice" in lines and "WantedBy=multi-user.target" in lines


@pytest.mark.parametrize("manager", ["system", "user"])
def test_a_unit_dir_outside_the_load_path_is_linked_in_before_enabling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, manager: str
) -> None:
    # systemctl finds a unit by name only in its load path: `enable metaeng-daemon` on a file in
    # ./units fails with "Unit file metaeng-daemon.service does not exist". `link` takes an
    # absolute path, so a relative --unit-dir is made absolute in the step.
    monkeypatch.chdir(tmp_path)
    home, env = _laptop(tmp_path)
    config = home / ".config" / "metaeng-daemon" / "config.yaml"
    if manager == "system":
        result = run_cli(config, "install-service", "--unit-dir", "units", "--json")
    else:
        result = _install(env, "--unit-dir", "units", "--json")
    assert result.code == 0, result.err
    steps = result.json()["next_steps"]
    ctl = ["systemctl"] if manager == "system" else ["systemctl", "--user"]
    link = next(i for i, step in enumerate(steps) if shlex.split(step)[: len(ctl) + 1] == [*ctl, "link"])
    assert shlex.split(steps[link], comments=True) == [
        *ctl,
        "link",
        str(tmp_path / "units" / "metaeng-daemon.service"),
    ]
    assert "is not where systemd looks for units" in steps[link]
    assert shlex.split(steps[link + 1])[: len(ctl) + 1] == [*ctl, "daemon-reload"]
    assert steps[link - 1].startswith("systemd-analyze")


def test_the_load_paths_are_those_of_man_systemd_unit(tmp_path: Path) -> None:
    assert in_load_path(Path("/etc/systemd/system"), "system", {})
    assert in_load_path(Path("/usr/lib/systemd/system"), "system", {})
    assert not in_load_path(Path("/etc/systemd/user"), "system", {})
    assert not in_load_path(tmp_path, "system", {})
    home = tmp_path / "home"
    env = {"HOME": str(home)}
    for folder in (
        home / ".config/systemd/user",
        home / ".local/share/systemd/user",
        Path("/etc/systemd/user"),
        Path("/usr/share/systemd/user"),
        Path("/usr/lib/systemd/user"),
    ):
        assert in_load_path(folder, "user", env), folder
    assert not in_load_path(Path("/etc/systemd/system"), "user", env)
    assert not in_load_path(tmp_path / "run/systemd/user", "user", env)
    assert in_load_path(
        tmp_path / "run/systemd/user", "user", {**env, "XDG_RUNTIME_DIR": str(tmp_path / "run")}
    )
    # A relative XDG variable is ignored (the XDG rule); a folder linked into the load path counts.
    assert in_load_path(home / ".config/systemd/user", "user", {**env, "XDG_CONFIG_HOME": "relative"})
    (home / ".config/systemd/user").mkdir(parents=True)
    (tmp_path / "shortcut").symlink_to(home / ".config/systemd/user")
    assert in_load_path(tmp_path / "shortcut", "user", env)


def test_xdg_home_falls_back_to_home_and_refuses_neither() -> None:
    assert xdg_home(
        {"HOME": "/home/jo", "XDG_STATE_HOME": "/var/jo"}, "XDG_STATE_HOME", ".local/state"
    ) == Path("/var/jo")
    assert xdg_home({"HOME": "/home/jo"}, "XDG_STATE_HOME", ".local/state") == Path("/home/jo/.local/state")
    with pytest.raises(DaemonError, match=r"neither \$XDG_STATE_HOME nor \$HOME"):
        xdg_home({}, "XDG_STATE_HOME", ".local/state")


def test_a_user_unit_installed_by_root_is_warned_about_and_no_other() -> None:
    assert len(root_warnings(0)) == 1 and "root's own user manager" in root_warnings(0)[0]
    assert root_warnings(1000) == []


@pytest.mark.parametrize("folder", [" /home/jo/.config", "/home/jo/.config ", "/home/jo/\n.config"])
def test_a_config_folder_a_unit_line_cannot_carry_is_refused(folder: str) -> None:
    with pytest.raises(DaemonError, match="the config folder"):
        render_unit(UnitParams(manager="user", config_dir=folder))


def test_systemd_analyze_user_verify_catches_a_misspelled_directive(tmp_path: Path) -> None:
    # The user-mode verify is a real check, not a manager that failed to start and said nothing.
    unit = tmp_path / "metaeng-daemon.service"
    unit.write_text(
        render_unit(UnitParams(manager="user", executable=str(INSTALLED))).replace("UMask=", "UMsk=")
    )
    result = verify(unit, tmp_path, user=True)
    assert result.returncode != 0 and "Unknown key 'UMsk'" in result.stderr, result.stderr

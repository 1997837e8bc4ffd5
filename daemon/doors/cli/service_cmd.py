"""`metaeng-daemon install-service`: write the hardened systemd unit for this deployment.

Two managers, one template: the system unit (its own account, a file-system sandbox;
steps as root) and, with a bare `--user`, a user unit for the person's own systemd on a
laptop where Claude Code or Codex run as them (steps as that person).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
from pathlib import Path

from daemon.doors.cli.common import CliContext, add_json
from daemon.doors.service.unit import (
    SERVICE_ACCOUNT,
    Manager,
    account_name,
    params_for,
    private_tmp_warnings,
    render_unit,
    unit_path,
)
from daemon.doors.service.unit_install import (
    default_unit_dir,
    in_load_path,
    next_steps,
    refuse_foreign,
    root_warnings,
    xdg_home,
)
from daemon.kernel import atomic
from daemon.kernel.errors import DaemonError

# What a bare `--user` leaves in args.user: no account name (argparse's type) can be it.
USER_UNIT = object()


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "install-service",
        help="write the systemd unit for this deployment and print the remaining steps",
        description=(
            "Validate the config, then write metaeng-daemon.service (Type=notify, hardened: writes only "
            "to the state directory and the configured agent homes, API key through LoadCredential=) "
            "into --unit-dir, with this installation's executable and config path. Prints the steps "
            "left to do as root (user, key file, systemctl). Runs no systemctl itself. "
            "With a bare --user, writes a unit for your own systemd instead (systemctl --user: a laptop "
            "where Claude Code or Codex run as you): no system account, runs with your rights, state in "
            "$XDG_STATE_HOME/metaeng-daemon, config and key file in $XDG_CONFIG_HOME/metaeng-daemon."
        ),
    )
    parser.add_argument(
        "--unit-dir",
        default=None,
        help="where to write the unit (default /etc/systemd/system; with a bare --user "
        "$XDG_CONFIG_HOME/systemd/user)",
    )
    parser.add_argument(
        "--user",
        nargs="?",
        const=USER_UNIT,
        default=None,
        type=account_name,
        metavar="NAME",
        help="alone: write a user unit for your own account, not a system unit (its config defaults to "
        "$XDG_CONFIG_HOME/metaeng-daemon/config.yaml); with NAME: the system user the system unit runs as "
        f"(default {SERVICE_ACCOUNT})",
    )
    parser.add_argument(
        "--group", type=account_name, default=None, help=f"primary group of the service (default {SERVICE_ACCOUNT})"
    )
    parser.add_argument(
        "--agents-group",
        type=account_name,
        default=None,
        help="supplementary group that owns the agent homes (optional)",
    )
    parser.add_argument(
        "--executable",
        default=None,
        help="absolute path of metaeng-daemon (default: the one next to this Python interpreter)",
    )
    parser.add_argument(
        "--print", dest="print_only", action="store_true", help="print the unit; write nothing"
    )
    add_json(parser)
    parser.set_defaults(handler=handle)


def _executable(explicit: str | None) -> str:
    if explicit:
        path = Path(explicit)
        if not path.is_absolute():
            raise DaemonError(f"--executable must be an absolute path, got {explicit!r}")
        return str(path)
    beside = Path(sys.executable).parent / "metaeng-daemon"
    if beside.is_file():
        return str(beside)
    found = shutil.which("metaeng-daemon")
    if not found:
        raise DaemonError(
            "cannot find the metaeng-daemon executable; pass --executable /abs/path/metaeng-daemon"
        )
    return str(Path(found).absolute())


def _user_context(context: CliContext) -> CliContext:
    """The context a user unit is installed from: its config in $XDG_CONFIG_HOME unless one was named.

    Raises DaemonError when that default file is missing, naming where --user looked.
    """
    if context.config_origin != "default":
        return context
    config = xdg_home(context.env, "XDG_CONFIG_HOME", ".config") / "metaeng-daemon" / "config.yaml"
    if not config.exists():
        raise DaemonError(
            f"no config file at {config}: install-service --user reads $XDG_CONFIG_HOME/metaeng-daemon/config.yaml "
            "(~/.config) unless --config or $METAENG_CONFIG names another"
        )
    return dataclasses.replace(context, config_path=str(config))


def handle(args: argparse.Namespace, context: CliContext) -> int:
    manager: Manager = "user" if args.user is USER_UNIT else "system"
    uid = os.geteuid()
    if manager == "user":
        if args.group is not None or args.agents_group is not None:
            raise DaemonError("--group and --agents-group are for the system unit: a user unit runs as you, in your groups")
        context = _user_context(context)
    deployment = context.deployment()
    unit_dir = Path(args.unit_dir) if args.unit_dir else default_unit_dir(manager, context.env)
    executable = _executable(args.executable)
    if manager == "user":
        refuse_foreign(deployment, unit_dir, uid)
        config_dir = xdg_home(context.env, "XDG_CONFIG_HOME", ".config") / "metaeng-daemon"
        params = params_for(deployment, executable, manager="user", config_dir=str(config_dir))
        warnings = root_warnings(uid)
    else:
        params = params_for(
            deployment, executable, args.user or SERVICE_ACCOUNT, args.group or SERVICE_ACCOUNT, args.agents_group
        )
        warnings = private_tmp_warnings(deployment)  # a user unit has no PrivateTmp=
    text = render_unit(params)
    for warning in warnings:
        context.err.line(f"warning: {warning}")
    if args.print_only:
        context.out.line(text.rstrip("\n"))
        return 0
    target = unit_path(unit_dir)
    try:
        atomic.write_text(target, text, mode=0o644)
    except OSError as exc:
        raise DaemonError(f"cannot write {target}: {exc.strerror or exc}") from None
    by_name = in_load_path(unit_dir, manager, context.env)
    steps = next_steps(params, target, by_name, default_unit_dir(manager, context.env))
    if args.json:
        context.out.json(
            {"unit": str(target), "writable": list(params.writable), "next_steps": steps, "warnings": warnings}
        )
        return 0
    context.out.line(f"wrote {target}")
    context.out.line("next steps, as root:" if manager == "system" else "next steps, as yourself (no sudo):")
    for step in steps:
        context.out.line(f"  {step}")
    return 0

"""`metaeng-daemon install-service`: write the hardened systemd unit for this deployment."""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
from pathlib import Path

from daemon.doors.cli.common import CliContext, add_json
from daemon.doors.service.unit import (
    CREDENTIALS_DIR,
    account_name,
    params_for,
    private_tmp_warnings,
    render_unit,
    unit_path,
)
from daemon.kernel import atomic
from daemon.kernel.errors import DaemonError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "install-service",
        help="write the systemd unit for this deployment and print the remaining steps",
        description=(
            "Validate the config, then write metaeng-daemon.service (Type=notify, hardened: writes only "
            "to the state directory and the configured agent homes, API key through LoadCredential=) "
            "into --unit-dir, with this installation's executable and config path. Prints the steps "
            "left to do as root (user, key file, systemctl). Runs no systemctl itself."
        ),
    )
    parser.add_argument(
        "--unit-dir",
        default="/etc/systemd/system",
        help="where to write the unit (default /etc/systemd/system)",
    )
    parser.add_argument(
        "--user", type=account_name, default="metaeng-daemon", help="system user the service runs as"
    )
    parser.add_argument(
        "--group", type=account_name, default="metaeng-daemon", help="primary group of the service"
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


def handle(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    params = params_for(deployment, _executable(args.executable), args.user, args.group, args.agents_group)
    text = render_unit(params)
    warnings = private_tmp_warnings(deployment)
    for warning in warnings:
        context.err.line(f"warning: {warning}")
    if args.print_only:
        context.out.line(text.rstrip("\n"))
        return 0
    target = unit_path(Path(args.unit_dir))
    try:
        atomic.write_text(target, text, mode=0o644)
    except OSError as exc:
        raise DaemonError(f"cannot write {target}: {exc.strerror or exc}") from None
    steps = [
        f"useradd --system --no-create-home --shell /usr/sbin/nologin {shlex.quote(args.user)}  # if the user does not exist",
        # Quoted for the shell: `chown -R` of a home named "my agents" must not take "my" as a path.
        f"chown -R {shlex.quote(args.user)} {' '.join(shlex.quote(p) for p in params.writable)}  "
        "# or give --agents-group write access to the homes",
    ]
    if params.credential:
        steps.append(
            f"install -m 0600 -o root -g root /dev/stdin {CREDENTIALS_DIR}/{params.credential}  "
            "# paste the API key, then Ctrl-D"
        )
    steps += [
        f"systemd-analyze verify {shlex.quote(str(target))}",
        "systemctl daemon-reload && systemctl enable --now metaeng-daemon",
        "journalctl -u metaeng-daemon -f  # logs; `systemctl reload metaeng-daemon` after editing the config",
    ]
    if args.json:
        context.out.json(
            {"unit": str(target), "writable": list(params.writable), "next_steps": steps, "warnings": warnings}
        )
        return 0
    context.out.line(f"wrote {target}")
    context.out.line("next steps, as root:")
    for step in steps:
        context.out.line(f"  {step}")
    return 0

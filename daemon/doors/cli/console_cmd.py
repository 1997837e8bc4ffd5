"""`metaeng-daemon console [--bind HOST:PORT]`: the local web console in the foreground."""

from __future__ import annotations

import argparse

from daemon.config.door_settings import ConsoleSettings
from daemon.doors.cli.common import CliContext
from daemon.doors.console.http_server import listen_on, make_server


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "console",
        help="serve the local web console (agents, runs with undo, review queue, memory, skills, lab)",
        description=(
            "Serve the web console until Ctrl-C. It binds to loopback only unless --allow-remote is "
            "given; open the printed link once (it carries the token from <state_dir>/console/token, "
            "mode 0600) and the browser keeps a session cookie. Every button runs the same code as its "
            "command, under the same run lock. From another machine: ssh -L 8765:127.0.0.1:8765 HOST."
        ),
    )
    parser.add_argument(
        "--bind", default=None, metavar="HOST:PORT", help="where to listen (default: console.bind or 127.0.0.1:8765)"
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a bind that is not loopback (printed as a warning; prefer SSH port forwarding)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    settings = deployment.config.console or ConsoleSettings()
    listen = listen_on(args.bind or settings.bind, args.allow_remote or settings.allow_remote)
    served = make_server(
        lambda: deployment, deployment.state_dir, settings, listen, env=context.env, clock=context.clock
    )
    if listen.remote:
        context.err.line(
            f"warning: the console listens on {listen.host}, reachable from other machines; anyone who "
            "gets the token can change agents' instructions"
        )
    context.out.line(f"console: {listen.url}?token={served.token}")
    context.out.line("(open that link once; Ctrl-C stops the console)")
    context.out.stream.flush()
    served.run()
    return 0

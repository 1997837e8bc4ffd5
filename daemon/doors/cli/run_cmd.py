"""`metaeng-daemon run`: the long-running service (systemd `Type=notify`)."""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path

from daemon.doors import logs
from daemon.doors.cli.common import CliContext
from daemon.doors.service.serve import serve
from daemon.doors.service.signals import installed
from daemon.wiring.pass_registry import default_registry


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "run",
        help="run the daemon: every agent's passes on its cadence, until stopped",
        description=(
            "Run as a long-lived service: schedule each agent's pass groups on the cadence of the "
            "config (or nothing with `mode: on_demand` or `enabled: false`), wake the transcript "
            "passes early when transcripts grow, reload the config on SIGHUP (an invalid new config "
            "is logged and the old one kept), stop on SIGTERM after the runs in progress finish. "
            "Speaks the systemd notify protocol (READY, STATUS, WATCHDOG, STOPPING) when "
            "$NOTIFY_SOCKET is set. Logs JSON lines to stdout (readable text on a terminal); "
            "$METAENG_LOG_LEVEL sets the level (default info)."
        ),
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    logs.configure(
        context.out.stream,
        level=context.env.get("METAENG_LOG_LEVEL", "info"),
        journald="JOURNAL_STREAM" in context.env,
    )
    # APScheduler's own warnings duplicate our job.missed/job.still_running events.
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
    # The launcher installed the signal handlers before the imports; serve adopts their flags.
    result = serve(Path(context.config_path), context.env, default_registry(), context.clock, installed())
    if result.immediate:
        # Runs still going past the stop timeout: leave without joining their threads.
        context.out.stream.flush()
        os._exit(result.code)
    return result.code

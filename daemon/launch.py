"""The `metaeng-daemon` entry point: for `run`, signal handlers before anything else.

Importing what `run` needs takes about a second (pydantic models, the OpenAI SDK,
APScheduler), and the service's start-up more (config, lock, recovery, scheduler, watcher). Under
Python's default handlers a SIGHUP in that time kills the process and a SIGTERM skips
the clean stop. So when the command is `run`, the flag-setting handlers of
`daemon.doors.service.signals` go in first; `serve` adopts their flags and acts on them. Every
other command keeps the default handlers (Ctrl-C and SIGTERM end it at once).

`hook` (a runtime's prompt hook, `daemon.doors.hook`) skips all of that: it must answer in
milliseconds.
"""

from __future__ import annotations

import sys

from daemon.doors.argv import command_of


def main() -> int:
    # The runtime's hook runs before every prompt: straight to it, no parser, no config
    # (`--help` goes the long way, through the command line's description).
    if sys.argv[1:2] == ["hook"] and not {"-h", "--help"} & set(sys.argv[2:]):
        from daemon.doors import hook

        return hook.run()
    if command_of(sys.argv[1:]) == "run":
        from daemon.doors.service import signals

        signals.install(signals.Flags())
    from daemon.doors.cli import main as cli_main

    return cli_main()

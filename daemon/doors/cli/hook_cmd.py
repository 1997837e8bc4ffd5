"""`hook RUNTIME`: the runtime hook's command line, for `--help` and in-process calls.

A runtime starts `metaeng-daemon hook …` before every prompt; `daemon.launch` hands such a
process to `daemon.doors.hook` before this parser is ever imported. This module describes
the command and runs the same code when the command line is parsed in full.
"""

from __future__ import annotations

import argparse
import sys

from daemon.doors import hook
from daemon.doors.cli.common import CliContext


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "hook",
        help="answer a runtime's prompt hook with the facts and skills that bear on the prompt",
        description=(
            "Run by the runtime, not by hand: the UserPromptSubmit and SessionStart hooks of Claude Code "
            "(.claude/settings.local.json) and Codex (.codex/hooks.json), Hermes's pre_llm_call shell hook "
            "(config.yaml); `init` proposes the wiring through the review queue. "
            "Reads the hook's JSON on stdin and prints hookSpecificOutput.additionalContext: for a "
            "prompt, the current facts and skills most relevant to it; at session start, the newest "
            "facts; within --budget characters. It reads only the agent's delivery index (built after "
            "each run) and answers only in the agent's folders. It fails open: on any error it prints "
            "nothing, exits 0 and appends one line to hook.log in the agent's state folder (the index's "
            "folder, when it holds the index or the agent's store; else the line goes to stderr)."
        ),
    )
    parser.add_argument("runtime", choices=hook.RUNTIMES, help="the runtime calling the hook")
    parser.add_argument(
        "--index", required=True, metavar="PATH",
        help="the agent's delivery index (<state_dir>/agents/<agent>/delivery.sqlite3)",
    )
    parser.add_argument(
        "--budget", type=int, default=hook.DEFAULT_BUDGET, metavar="CHARS",
        help=f"at most this many characters of context (default {hook.DEFAULT_BUDGET})",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    argv = [args.runtime, "--index", args.index, "--budget", str(args.budget)]
    return hook.main(argv, sys.stdin, context.out.stream, context.err.stream)

"""`config check` and `config show --agent A`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from daemon.config import Deployment, parse_for_check
from daemon.config.advice import warnings
from daemon.config.loader import raw_lines
from daemon.doors.cli.common import CliContext, add_agent, add_json
from daemon.doors.config_warnings import setup_warnings
from daemon.doors.environment import model_access
from daemon.kernel.errors import ConfigNotFound, DaemonError, InvalidApiKey
from daemon.wiring.pass_registry import MODEL_PASS_NAMES

if TYPE_CHECKING:
    from daemon.model.coordination_protocol import LocalBackend, SharedBackend


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "config", help="validate or show the configuration", description="Validate or show the configuration."
    )
    actions = parser.add_subparsers(dest="config_action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="validate the config file",
        description=(
            "Validate the config file; print every problem with its key and line, whether the "
            "model API key can be sent as an HTTP header and, with `coordination.url`, whether the "
            "database answers and its schema version (the daemon migrates it at start); exit 1 if any problem. "
            "Warn (key and line) about a likely mistake: a transcript root that does not exist or a "
            "glob that matches no file, a model pass on while the model's API key is not set, a local "
            "server with the openai dialect."
        ),
    )
    check.add_argument(
        "--strict", action="store_true", help="treat every warning as an error (exit 1 if there is any)"
    )
    add_json(check)
    check.set_defaults(handler=handle_check)
    show = actions.add_parser(
        "show",
        help="print an agent's effective settings and where each came from",
        description="Print each effective setting of one agent and its origin (default, deployment line, agent line).",
    )
    add_agent(show)
    add_json(show)
    show.set_defaults(handler=handle_show)


def handle_check(args: argparse.Namespace, context: CliContext) -> int:
    deployment: Deployment | None
    try:
        deployment, problems = parse_for_check(Path(context.config_path), context.env)
    except ConfigNotFound as exc:
        if not args.json:
            raise  # the command line's message: the path, how it was chosen, what to do
        deployment, problems = None, [context.missing_config(exc.path)]
    advice: list[str] = []
    if deployment is not None:
        advice = warnings(deployment.config)
        try:
            access = model_access(deployment.model, context.env, deployment.config.redact_env)
        except InvalidApiKey as exc:
            problems = [*problems, str(exc)]
        else:
            lines = raw_lines(deployment.path)
            advice += setup_warnings(deployment, access, context.env, MODEL_PASS_NAMES, lines)
    coordination: LocalBackend | SharedBackend | None = None
    # Without `coordination:` the description is the local backend's, printed only with
    # --json: a plain check (systemd's ExecStartPre) does not load the coordination modules.
    if deployment is not None and not problems and (deployment.coordination is not None or args.json):
        from daemon.coordination.backends import coordination_for

        try:
            coordination = coordination_for(deployment).describe()
        except DaemonError as exc:
            problems = [*problems, f"coordination.url: {exc}"]
    failed = bool(problems) or (args.strict and bool(advice))
    if args.json:
        context.out.json(
            {
                "ok": not failed,
                "problems": problems,
                "warnings": advice,
                "strict": args.strict,
                "agents": sorted(deployment.agents) if deployment else [],
                "state_dir": str(deployment.state_dir) if deployment else None,
                "coordination": coordination.model_dump(mode="json") if coordination else None,
            }
        )
        return 1 if failed else 0
    label = "error (--strict)" if args.strict else "warning"
    for line in advice:
        context.err.line(f"{label}: {line}")
    if problems:
        context.err.line(f"error: invalid configuration {context.config_path}:")
        for problem in problems:
            context.err.line(f"  - {problem}")
        return 1
    if failed:
        context.err.line(
            f"error: {context.config_path}: {len(advice)} warning(s), and --strict makes warnings errors"
        )
        return 1
    assert deployment is not None
    context.out.line(
        f"ok: {context.config_path} — {len(deployment.agents)} agent(s): {', '.join(sorted(deployment.agents))}; "
        f"state in {deployment.state_dir}"
    )
    if coordination is not None:
        from daemon.model.coordination_protocol import SharedBackend

        if isinstance(coordination, SharedBackend):
            context.out.line(
                f"coordination: PostgreSQL, schema version {coordination.schema_version} "
                f"(this daemon's: {coordination.schema_expected}), this daemon is {coordination.host_id}, "
                f"password from {coordination.password_from or 'nowhere (none set)'}"
            )
    if deployment.model is None:
        context.out.line("note: no model configured; model-backed passes will be skipped")
    return 0


def handle_show(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    rows: list[dict[str, Any]] = [
        {"key": e.key, "value": e.value, "origin": e.origin} for e in (*deployment.origins, *agent.origins)
    ]
    if args.json:
        context.out.json({"agent": agent.name, "settings": rows})
        return 0
    width = max(len(r["key"]) for r in rows)
    for row in rows:
        value = row["value"] if isinstance(row["value"], str) else json.dumps(row["value"])
        context.out.line(f"{str(row['key']).ljust(width)}  {value}  ← {row['origin']}")
    return 0

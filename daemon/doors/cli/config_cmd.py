"""`config check` and `config show --agent A`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from daemon.config import parse_for_check
from daemon.config.advice import warnings
from daemon.coordination.backends import coordination_for
from daemon.doors.cli.common import CliContext, add_agent, add_json
from daemon.doors.environment import model_access
from daemon.kernel.errors import DaemonError, InvalidApiKey
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
            "database answers and its schema version (the daemon migrates it at start); exit 1 if any problem."
        ),
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
    deployment, problems = parse_for_check(Path(context.config_path), context.env)
    if deployment is not None:
        try:
            model_access(deployment.model, context.env, deployment.config.redact_env)
        except InvalidApiKey as exc:
            problems = [*problems, str(exc)]
    coordination: LocalBackend | SharedBackend | None = None
    if deployment is not None and not problems:
        try:
            coordination = coordination_for(deployment).describe()
        except DaemonError as exc:
            problems = [*problems, f"coordination.url: {exc}"]
    advice = warnings(deployment.config) if deployment is not None else []
    if args.json:
        context.out.json(
            {
                "ok": not problems,
                "problems": problems,
                "warnings": advice,
                "agents": sorted(deployment.agents) if deployment else [],
                "state_dir": str(deployment.state_dir) if deployment else None,
                "coordination": coordination.model_dump(mode="json") if coordination else None,
            }
        )
        return 0 if not problems else 1
    for line in advice:
        context.err.line(f"warning: {line}")
    if problems:
        context.err.line(f"error: invalid configuration {context.config_path}:")
        for problem in problems:
            context.err.line(f"  - {problem}")
        return 1
    assert deployment is not None
    context.out.line(
        f"ok: {context.config_path} — {len(deployment.agents)} agent(s): {', '.join(sorted(deployment.agents))}; "
        f"state in {deployment.state_dir}"
    )
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

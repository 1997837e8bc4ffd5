"""`breaker status|reset --agent A`: the per-agent circuit breaker of model calls."""

from __future__ import annotations

import argparse

from daemon.coordination.backends import agent_breaker
from daemon.doors.cli.common import CliContext, add_agent, add_json
from daemon.kernel.errors import DaemonError
from daemon.run.session import agent_state


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "breaker",
        help="show or reset an agent's model-call circuit breaker",
        description=(
            "After model.breaker_failures failed or rejected model calls in a row, an agent's model "
            "passes pause for model.breaker_cooldown_minutes. Show that state, or close the breaker by hand."
        ),
    )
    actions = parser.add_subparsers(dest="breaker_action", metavar="ACTION", required=True)
    for verb, text in (
        ("status", "show the breaker of one agent"),
        ("reset", "close the breaker of one agent"),
    ):
        action = actions.add_parser(verb, help=text, description=text[0].upper() + text[1:] + ".")
        add_agent(action)
        add_json(action)
        action.set_defaults(handler=handle, verb=verb)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    agent_state(deployment, agent.name)  # the agent's state folder, private (0700), as a run makes it
    breaker = agent_breaker(deployment, agent.name)
    if breaker is None:
        raise DaemonError("no model configured, so there is no circuit breaker")
    now = context.clock()
    state = breaker.reset() if args.verb == "reset" else breaker.state()
    until = breaker.open_until(now) if args.verb == "status" else None
    body = {
        "agent": agent.name,
        "open": until is not None,
        "open_until": until.isoformat() if until else None,
        "consecutive_failures": state.consecutive_failures,
        "last_failure_at": state.last_failure_at,
        "last_detail": state.last_detail,
        "reset": args.verb == "reset",
    }
    if args.json:
        context.out.json(body)
    elif args.verb == "reset":
        context.out.line(
            f"breaker of agent {agent.name} closed (was {state.consecutive_failures} consecutive failure(s))"
        )
    else:
        status = f"open until {body['open_until']}" if until else "closed"
        context.out.line(
            f"breaker of agent {agent.name}: {status}; {state.consecutive_failures} consecutive failure(s)"
        )
        if state.last_detail:
            context.out.line(f"  last: {state.last_detail} at {state.last_failure_at}")
    return 0

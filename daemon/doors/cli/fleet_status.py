"""`status --fleet`: every daemon sharing the coordination database, its agents, last runs and health."""

from __future__ import annotations

from daemon.coordination.backends import coordination_for
from daemon.doors.cli.common import CliContext
from daemon.doors.documents import FleetDocument


def _when(value: str | None) -> str:
    return value.replace("+00:00", "Z") if value else "-"


def handle_fleet(json_output: bool, context: CliContext) -> int:
    """Print the fleet; raises DaemonError with the local backend or an unreachable database."""
    deployment = context.deployment()
    hosts = coordination_for(deployment).fleet(context.clock())
    if json_output:
        context.out.document(FleetDocument(hosts=hosts))
        return 0
    if not hosts:
        context.out.line("fleet: no daemon has registered yet (a running daemon writes its heartbeat)")
    for host in hosts:
        context.out.line(
            f"{host.host_id}: {host.health} (pid {host.pid} on {host.hostname}, last heartbeat "
            f"{host.heartbeat_age_seconds:.0f}s ago, since {_when(host.started_at)})"
        )
        rows = []
        for agent in host.agents:
            last = agent.last_run
            rows.append([f"  {agent.name}", last.outcome if last else "-", _when(last.at) if last else "-"])
        if rows:
            context.out.table(["  agent", "last run", "at"], rows)
    return 0

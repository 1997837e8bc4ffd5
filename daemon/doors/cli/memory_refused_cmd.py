"""`memory refused` and `memory retry`: what distillation refused, and asking for it again."""

from __future__ import annotations

import argparse

from daemon.doors.cli.common import CliContext, add_agent, add_json, print_manual_run, wait_seconds
from daemon.doors.documents import RefusedDocument
from daemon.kernel.changeset import Changeset, PassDetails
from daemon.kernel.errors import DaemonError
from daemon.kernel.view import AgentView
from daemon.run.manual import run_manual
from memory_engine import refused
from memory_engine.keep import plan_keep


class Queued(PassDetails):
    """How many turns `memory retry` queued for the next distillation."""

    queued: int


def register_actions(actions: argparse._SubParsersAction) -> None:
    listing = actions.add_parser(
        "refused",
        help="list the facts distillation refused, with why",
        description=(
            "List the candidate facts distillation did not store (newest first): the value, the words it "
            f"quoted, the reason, the turn and the run. The newest {refused.MAX_ENTRIES} are kept in "
            f"{refused.REFUSED_LOG} in the agent home."
        ),
    )
    add_agent(listing)
    listing.add_argument("--run", help="only the refusals of this run")
    listing.add_argument(
        "--reason", help="only this reason (tentative, held_conflict, negated, other_subject …: docs/explanation/fact-memory.md)"
    )
    listing.add_argument("--open", action="store_true", help="only entries not settled yet (tentative, held)")
    add_json(listing)
    listing.set_defaults(handler=handle_refused)

    keep = actions.add_parser(
        "keep",
        help="store a refused candidate a person chose (a held conflict, a tentative statement)",
        description=(
            "Store one candidate fact that run RUN refused or held (see `memory refused --reason held_conflict`): "
            "written through the memory's rules from its turn's date, with its quote, source `user` (you vouch "
            "for it). The other values held with it are marked settled. The keeping is itself a run: `undo` "
            "takes it back."
        ),
    )
    add_agent(keep)
    keep.add_argument("--run", required=True, help="the run that refused or held the candidate")
    keep.add_argument("--entity", required=True)
    keep.add_argument("--key", required=True)
    keep.add_argument("--value", help="which value, when the run held several for the key")
    keep.add_argument("--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress")
    add_json(keep)
    keep.set_defaults(handler=handle_keep)

    retry = actions.add_parser(
        "retry",
        help="read the turns of a run's refused facts again at the next distillation",
        description=(
            "Queue the turns whose facts run RUN refused (see `memory refused`); the next distillation reads "
            "them again before the new turns, then takes them off the queue. The queueing is itself a run."
        ),
    )
    add_agent(retry)
    retry.add_argument("--run", required=True, help="the run whose refused facts to retry")
    retry.add_argument("--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress")
    add_json(retry)
    retry.set_defaults(handler=handle_retry)


def handle_refused(args: argparse.Namespace, context: CliContext) -> int:
    agent = context.deployment().agent(args.agent)
    entries = [
        e
        for e in reversed(refused.read_log(AgentView(agent.home)))
        if args.run in (None, e.run_id) and args.reason in (None, e.reason) and not (args.open and e.settled)
    ]
    if args.json:
        context.out.document(RefusedDocument(entries))
        return 0
    if not entries:
        context.out.line("no refused facts" + (f" in run {args.run}" if args.run else ""))
        return 0
    for e in entries:
        where = f"{e.file}@{e.start}" if e.file is not None else "a turn that was not sent"
        settled = f"  (settled: {e.settled})" if e.settled else ""
        context.out.line(f"{e.run_id}  {e.entity}.{e.key} = {e.value!r}  {e.status}: {e.reason}{settled}")
        context.out.line(f"    quoted “{e.quote}” from {where}" + (f"; {e.detail}" if e.detail else ""))
    return 0


def handle_retry(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait

    def plan(_session: object, view: AgentView, _run_id: str) -> Changeset:
        queue, added = refused.queued(view, args.run)
        if not any(e.run_id == args.run for e in refused.read_log(view)):
            raise DaemonError(f"run {args.run!r} refused no fact of agent {agent.name} (see `memory refused`)")
        if not added:
            return Changeset(pass_name="memory-retry", status="nothing", reason="those turns already wait in the queue, or none can be retried")
        return Changeset(
            pass_name="memory-retry",
            status="changes",
            reason=f"{added} turn(s) of run {args.run} queued: the next distillation reads them again",
            writes=(refused.queue_write(queue),),
            details=Queued(queued=added),
        )

    result = run_manual(deployment, agent.name, label="memory-retry", plan=plan, now=context.clock(), lock_timeout=timeout)
    return print_manual_run(result, args.json, context)


def handle_keep(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    now = context.clock()
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    result = run_manual(
        deployment,
        agent.name,
        label="memory-keep",
        plan=lambda session, view, _run: plan_keep(
            session.agent, view, args.run, args.entity, args.key, args.value, now, session.state.fact_index
        ),
        now=now,
        lock_timeout=timeout,
        memory_lock=True,
    )
    return print_manual_run(result, args.json, context)

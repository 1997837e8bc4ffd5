"""`review list|show|approve|reject`: the human side of the review queue."""

from __future__ import annotations

import argparse
import getpass

from daemon.doors.cli.common import CliContext, add_agent, add_json, wait_seconds
from daemon.doors.documents import ProposalRow, ReviewListDocument, ShownProposal
from daemon.kernel.review_queue import (
    Proposal,
    changes_shown,
    find,
    list_proposals,
    shown_diff,
    stale_reasons,
)
from daemon.kernel.view import AgentView
from daemon.wiring.review import decide, locate


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "review",
        help="list, show, approve or reject proposals",
        description=(
            "The review queue: changes to what an agent is asked to do (and, with autonomy: review, "
            "skills and memory writes) wait here for a person. Approving applies a proposal as an "
            "undoable run; a proposal whose target changed since it was made is stale and refused."
        ),
    )
    actions = parser.add_subparsers(dest="review_action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", help="list proposals", description="List proposals with their status."
    )
    add_agent(listing, required=False)
    listing.add_argument(
        "--status", choices=["open", "approved", "rejected", "stale"], help="only this status"
    )
    add_json(listing)
    listing.set_defaults(handler=handle_list)

    show = actions.add_parser(
        "show", help="show one proposal: diff, rationale, evidence", description="Show one proposal."
    )
    show.add_argument("proposal_id", metavar="ID")
    add_agent(show, required=False)
    add_json(show)
    show.set_defaults(handler=handle_show)

    for verb, helptext in (
        ("approve", "apply a proposal as a run (exit 1 if stale or already decided)"),
        ("reject", "reject a proposal, with a reason"),
    ):
        action = actions.add_parser(verb, help=helptext, description=helptext[0].upper() + helptext[1:] + ".")
        action.add_argument("proposal_id", metavar="ID")
        add_agent(action, required=False)
        action.add_argument("--why", default="", help="the reason, kept in the proposal's history")
        action.add_argument("--by", default=None, help="who decides (default: the current user)")
        action.add_argument(
            "--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress"
        )
        if verb == "approve":
            action.add_argument(
                "--keep",
                choices=["a", "b", "both"],
                help="for a proposal that offers choices (a contradiction): keep side a, side b, or both "
                "(`review show ID` lists them); without it, approve applies the suggested change",
            )
        add_json(action)
        action.set_defaults(handler=handle_decide, verb=verb)


def _row(proposal: Proposal, view: AgentView) -> ProposalRow:
    status = proposal.status(view)
    return ProposalRow(
        id=proposal.id,
        agent=proposal.agent,
        kind=proposal.kind,
        target=proposal.target,
        title=proposal.title,
        status=status,
        # Why a stale proposal is stale, one sentence per target (empty otherwise).
        stale_because=list(stale_reasons(proposal, view).values()) if status == "stale" else [],
        created_at=proposal.created_at,
        # run_id: the run that applied (or rejected) it, null while open; created_by_run: the run
        # that made it.
        run_id=proposal.run_id,
        created_by_run=proposal.created_by_run,
    )


def handle_list(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    names = [deployment.agent(args.agent).name] if args.agent else list(deployment.agents)
    rows: list[ProposalRow] = []
    for name in names:
        view = AgentView(deployment.agents[name].home)
        rows.extend(_row(p, view) for p in list_proposals(view))
    if args.status:
        rows = [r for r in rows if r.status == args.status]
    if args.json:
        context.out.document(ReviewListDocument(rows))
        return 0
    if not rows:
        context.out.line("the review queue is empty" if not args.status else f"no {args.status} proposals")
        return 0
    context.out.table(
        ["ID", "AGENT", "KIND", "STATUS", "TARGET", "TITLE"],
        [[r.id, r.agent, r.kind, r.status, r.target, r.title] for r in rows],
    )
    return 0


def handle_show(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    _name, view = locate(deployment, args.proposal_id, args.agent)
    proposal = find(view, args.proposal_id)
    row = _row(proposal, view)
    # Computed from the files as they are and the content approval would write: the diff
    # stored in the proposal file is never shown (the agent's runtime can write that file).
    diff = shown_diff(proposal, view)
    if args.json:
        context.out.document(
            ShownProposal(
                **dict(row),
                diff=diff,
                rationale=proposal.rationale,
                evidence=proposal.evidence,
                history=proposal.history,
            )
        )
        return 0
    # Title, rationale and evidence are model-written: a line break must not start what
    # looks like a heading of this page (a forged "evidence:" block), so continuations are
    # indented under their item and a title stays on one line.
    context.out.line(f"{proposal.id}  [{row.status}]  {proposal.kind} → {proposal.target}")
    context.out.line(f"  {_one_line(proposal.title)}")
    for reason in row.stale_because:
        context.out.line(f"  stale: {_one_line(reason)}")
    context.out.line("")
    context.out.line("rationale:")
    context.out.line(_indented(proposal.rationale, "  ", "  "))
    if proposal.evidence:
        context.out.line("evidence:")
        for item in proposal.evidence:
            context.out.line(_indented(item, "  - ", "    "))
    if proposal.changes:
        context.out.line("")
        context.out.line(diff.rstrip() or "(no difference between the files now and the proposed content)")
    if proposal.choices:
        context.out.line("")
        context.out.line(f"choices (review approve {proposal.id} --keep KEY):")
        for choice in proposal.choices:
            mark = " (chosen)" if choice.key == proposal.chosen else ""
            context.out.line(_indented(f"{choice.key}: keep {choice.label}{mark}", "  - ", "    "))
            for _path, text in changes_shown(choice.changes, view):
                context.out.line(_indented(text.rstrip(), "    ", "    "))
    return 0


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _indented(text: str, first: str, rest: str) -> str:
    return first + ("\n" + rest).join(text.splitlines() or [""])


def handle_decide(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    name, _view = locate(deployment, args.proposal_id, args.agent)
    now = context.clock()
    by = args.by or context.env.get("USER") or getpass.getuser()
    timeout = deployment.config.run_lock_timeout_seconds if args.wait is None else args.wait
    result = decide(
        deployment,
        name,
        args.proposal_id,
        args.verb,
        now=now,
        by=by,
        why=args.why,
        lock_timeout=timeout,
        keep=getattr(args, "keep", None),
    )
    run_id = result.run_id
    if args.json:
        context.out.json({"id": args.proposal_id, "agent": name, "action": args.verb, "run_id": run_id})
    else:
        context.out.line(result.changeset.reason)
        if run_id:
            context.out.line(
                f"run {run_id}; undo with: {context.command('undo', run_id)}"
            )
    return 0

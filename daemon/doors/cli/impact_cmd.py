"""`metaeng-daemon impact --agent A [--since D] [--json]`: what the person corrected or ruled
on, what the daemon learned from it, when that reached the agent, and whether the person had
to say it again (daemon/impact/, docs/explanation/impact.md).

Nothing of the agent changes: the transcripts are read from the start of every session with
cursors kept in memory (no cursor moves), the facts through the query index like `memory
list`, the learned skills from the library. State files are written: the figures as the
agent's impact headline for `status` (`daemon.doors.impact_headline`), what was found of the
learned skills for the curator, and the flagged items notified (`daemon.doors.impact_learned`).
"""

from __future__ import annotations

import argparse

from daemon.doors.cli.common import CliContext, add_agent, add_json
from daemon.doors.impact_compute import compute_impact, since_day
from daemon.impact.document import ImpactDocument, ImpactItem, LearnedProposal, Said

QUOTE_CHARS = 120


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "impact",
        help="show the corrections and standing instructions a person gave, what was learned, and what was said again",
        description=(
            "Read every session of the agent's transcripts (read-only: no cursor moves) and find the "
            "sentences where the person corrects the agent, states a preference or sets a standing "
            "instruction, in every language whose data file has an `impact:` section. Statements that say "
            "the same thing are grouped into items; each item shows what the daemon learned from its "
            "turns (facts citing them, learned skills made from them or saying the same, review proposals "
            "citing them and their fate), when that first reached the agent (facts view read, hook context, "
            "an MCP answer, skill opened, instruction change approved), and every time the person said "
            "it again — after delivery or before. An item said again after delivery is flagged (shown first, "
            "one impact_flagged notification each). Then the corrections never learned, and per week how many "
            "statements were repeats. The headline figures are saved for `status`; without --since, what was "
            "found of the learned skills is saved for the curator (skills.curator.impact_stale_recurrences)."
        ),
    )
    add_agent(parser)
    parser.add_argument("--since", help="YYYY-MM-DD: only items said (first or again) on or after this day")
    add_json(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, context: CliContext) -> int:
    since = since_day(args.since)
    computed = compute_impact(context.deployment(), args.agent, context.clock, since, env=context.env)
    for problem in [computed.headline_error, *computed.problems]:
        if problem:
            context.err.line(f"warning: {problem}")
    document = computed.document
    if args.json:
        context.out.document(document)
        return 0
    context.out.lines(render(document))
    return 0


def _when(said: Said) -> str:
    return said.time[:10] if said.time else "no date"


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1] + "…"


_GIVEN = {"skill_opened": "opened", "mcp_answer": "given by MCP"}


def _proposal_line(p: LearnedProposal) -> str:
    how = "cites this turn" if p.linked_by == "cited" else "same words"
    fate: str = p.status
    if p.decided_at:
        fate += f" {p.decided_at}" + (f" by {p.decided_by}" if p.decided_by else "")
        fate += f" in run {p.decided_by_run}" if p.decided_by_run else ""
    return f"  proposal: {p.id} ({p.kind}, {how}): {fate}" + (", in the instructions since" if p.delivered_at else "")


def _item_lines(item: ImpactItem) -> list[str]:
    first = item.first
    lines = [
        f"{item.id}  {item.kind}  “{_short(first.quote)}”",
        f"  said {_when(first)} in {first.session} (turn {first.turn})",
    ]
    lines += [f"  learned: {f.entity}.{f.key} = {f.value} ({f.id})" for f in item.learned]
    lines += [
        f"  skill: {s.name} ({'learned from this turn' if s.linked_by == 'cited' else 'holds its words; not learned from this turn'}"
        + (f", {_GIVEN[s.delivered_by]} {s.delivered_at})" if s.delivered_by else ", not opened since)")
        for s in item.learned_skills
    ]
    lines += [_proposal_line(p) for p in item.learned_proposals]
    if item.learned or item.learned_skills or item.learned_proposals:
        lines.append(
            f"  delivered: {item.delivered_at} ({item.delivered_by})" if item.delivered_at else "  delivered: not yet"
        )
    else:
        lines.append("  learned: nothing")
    for said in item.recurrences:
        after = {True: "after delivery", False: "before delivery", None: "nothing delivered"}[
            said.after_delivery
        ]
        lines.append(f"  said again {_when(said)} in {said.session} ({after}): “{_short(said.quote)}”")
    return lines


def render(document: ImpactDocument) -> list[str]:
    """The report as the terminal shows it."""
    f = document.figures
    scope = f" since {document.since}" if document.since else ""
    lines = [
        f"agent {document.agent}: {f.items} item(s){scope} in {document.sessions_read} session(s); "
        f"{f.learned} learned, {f.delivered} delivered, {f.repeated} said again, "
        f"{f.repeated_after_delivery} said again after delivery, {f.flagged} flagged"
    ]
    flagged = [i for i in document.items if i.flagged]
    if flagged:
        lines += ["", f"flagged for review: {len(flagged)}"]
        lines += [f"  {i.id}  “{_short(i.first.quote)}”: {i.flag_reason}" for i in flagged]
    # flagged items first: they are what a person should look at
    for item in [*flagged, *(i for i in document.items if not i.flagged)]:
        lines += ["", *_item_lines(item)]
    never = [i for i in document.items if i.id in set(document.corrections_never_learned)]
    lines += ["", f"corrections never learned: {len(never)}"]
    lines += [f"  {i.id}  {_when(i.first)}  “{_short(i.first.quote)}”" for i in never]
    if document.trend:
        lines += ["", "week of      statements  repeated  after delivery"]
        lines += [
            f"{w.week}  {w.statements:>10}  {w.repeated:>8}  {w.repeated_after_delivery:>14}"
            for w in document.trend
        ]
    if document.languages_without_cues:
        lines += [
            "",
            f"not read for corrections (no impact cues in their data file): {', '.join(document.languages_without_cues)}",
        ]
    lines += [f"warning: {w}" for w in document.warnings]
    return lines

"""`metaeng-daemon transcripts --agent A [--json]`: the turns the passes would read next.

Read-only: the same reader and cursors as distillation (skill learning's if distillation
is off), nothing moved. Shows, per turn, its reference and messages as the adapter of
`transcripts.format` normalised them, what the precision guards skipped, the lines of kinds
the adapter does not know (format drift), and the sessions set aside as another project's
or profile's, with why.
"""

from __future__ import annotations

import argparse

from daemon.doors.cli.common import CliContext, add_agent, add_json
from daemon.doors.documents import MessagePreview, SetAsideSession, TranscriptsDocument, TurnPreview
from daemon.doors.status import held_transcripts
from daemon.kernel.paths import StateLayout
from daemon.transcripts import cursors, guards
from daemon.transcripts.batch import TurnBatch, kinds_summary
from daemon.transcripts.binding import by_reason
from daemon.transcripts.files import source_of
from daemon.transcripts.reader import Turn, read_new_turns

PREVIEW_CHARS = 200


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "transcripts",
        help="show the transcript turns the passes would read next (read-only)",
        description=(
            "Read the agent's transcripts after distillation's cursors (skill learning's if "
            "distillation is off) in the configured format (agents.NAME.transcripts.format: "
            "jsonl, claude-code, codex, openclaw or hermes) and show each complete turn — its "
            "reference, roles, text and tool summaries — and what the precision guards skipped "
            "(tool results, injected memory blocks, compaction summaries, ...), the lines of kinds "
            "the adapter does not know, counted by kind, and the sessions set aside because they "
            "belong to another project or profile, with why. Moves no cursor, writes nothing."
        ),
    )
    add_agent(parser)
    parser.add_argument(
        "--full",
        action="store_true",
        help=f"whole message texts (default: the first {PREVIEW_CHARS} characters)",
    )
    add_json(parser)
    parser.set_defaults(handler=handle)


def _turn_preview(turn: Turn, full: bool) -> TurnPreview:
    return TurnPreview(
        ref=turn.ref,
        ts=turn.ts,
        messages=[
            MessagePreview(
                role=m.role,
                text=m.content if full else m.content[:PREVIEW_CHARS],
                ts=m.ts,
                tools=list(m.tools),
                source=m.source,
            )
            for m in turn.messages
        ],
    )


def handle(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    consumer = next((p for p in ("distillation", "skill_learning") if agent.passes.get(p)), "distillation")
    state = cursors.load(StateLayout(deployment.state_dir).agent(agent.name).cursors)
    batch = read_new_turns(
        source_of(agent), cursors.for_consumer(state, consumer), "transcripts", context.clock()
    )
    turns = [_turn_preview(t, args.full) for t in batch.turns]
    warnings = [w for f in batch.files for w in f.warnings] + list(batch.listing_warnings)
    if args.json:
        context.out.document(
            TranscriptsDocument(
                agent=agent.name,
                format=agent.transcripts.format,
                after_cursors_of=consumer,
                turns=turns,
                skipped=batch.skipped,
                unknown_lines=batch.unknown,
                set_aside=[SetAsideSession(file=a.file, reason=a.reason) for a in batch.set_aside],
                held=held_transcripts(batch),
                warnings=warnings,
            )
        )
        return 0
    out = context.out
    out.line(
        f"agent {agent.name}: {len(turns)} complete turn(s) after {consumer}'s cursors ({agent.transcripts.format})"
    )
    for turn in turns:
        out.line("")
        out.line(f"{turn.ref}  {turn.ts or ''}".rstrip())
        for m in turn.messages:
            text = " ".join(m.text.split())
            out.line(f"  {m.role}: {text}")
    for line in _footer(batch, agent.transcripts.format):
        out.line(line)
    for warning in warnings:
        out.line(f"warning: {warning}")
    return 0


def _footer(batch: TurnBatch, fmt: str) -> list[str]:
    """What was not read: by precision guard, by unknown kind of line, and whose sessions were set aside."""
    lines: list[str] = []
    skipped = guards.summary(batch.skipped)
    if skipped:
        lines.append(f"skipped by precision guards: {skipped}")
    unknown = kinds_summary(batch.unknown)
    if unknown:
        lines.append(f"lines of kinds the {fmt} adapter does not know, not analysed: {unknown}")
    if batch.set_aside:
        lines.append(f"set aside, not this agent's: {len(batch.set_aside)} session(s)")
        lines.extend(f"  {n} × {reason}" for reason, n in by_reason(batch.set_aside))
    return ["", *lines] if lines else []

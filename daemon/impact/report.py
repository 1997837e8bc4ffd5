"""From an agent's history and its facts to the impact report (pure, no I/O;
docs/explanation/impact.md#what-the-figures-mean).

Each item (`recurrence.group`) is linked to what the daemon learned from its turns: a fact
whose `source_event_id` is the turn of one of its statements and whose quote, when it keeps
one, shares a content word with that statement; the learned skills made from its turns or
saying what it says (`daemon.impact.skills`); and the review queue's proposals citing its
turns or proposing what it says (`daemon.impact.review_links`). It reached the agent at the
first delivery after it was learned: the first facts-view read or hook context
(`daemon.transcripts.usage`) of a later session than the statement it was learned from, later
in time, or an MCP answer giving its fact (`daemon.impact.answers`); the first opening (or MCP
answer) of a linked skill; or the approval of a linked instruction proposal. A recurrence
counts "after delivery" when it was said after that; an item said again after delivery is
flagged for review.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import date, timedelta

from daemon.impact import history
from daemon.impact.answers import MCP_ANSWER, McpAnswer, first_with_facts
from daemon.impact.content import about
from daemon.impact.document import (
    ImpactDocument,
    ImpactFigures,
    ImpactItem,
    LearnedFact,
    LearnedSkill,
    Said,
    SkillRecurrence,
    WeekTrend,
)
from daemon.impact.history import History, Session
from daemon.impact.recurrence import Item, group
from daemon.impact.review_links import (
    INSTRUCTION_APPROVED,
    ProposalSource,
    cited_lines,
    first_delivered,
    learned_lines,
    linked_proposals,
)
from daemon.impact.situation import Situation, situation
from daemon.impact.skills import SkillSource, cited, linked_skills, same_session
from daemon.impact.statements import Statement, detect_statements
from daemon.transcripts.guards import tool_called, tool_line
from daemon.transcripts.usage import UsageEvent
from daemon.transcripts.usage_signals import FACTS_VIEW_READ, HOOK_CONTEXT, utc_stamp
from memory_engine.records import FactRecord

DELIVERING = (FACTS_VIEW_READ, HOOK_CONTEXT)


def statements_of(sessions: Sequence[Session]) -> list[tuple[Statement, Situation]]:
    """Every statement of the person's messages (user turns only), in session order, with the
    agent's turns around it (`daemon.impact.situation`)."""
    found: list[tuple[Statement, Situation]] = []
    for session in sessions:
        usual = session.language
        replies = _replies(session.messages)
        # the agent's messages since the person last spoke (a runtime may write one turn as
        # several): what a change of state may be about
        answered: list[str] = []
        for k, said in enumerate(session.messages):
            if said.role == "user":
                before = "\n".join(answered)
                wrote, tools = replies[k]
                statements = detect_statements(
                    said.text,
                    session.id,
                    said.index,
                    utc_stamp(said.ts),
                    said.turn_ref,
                    answered=before,
                    usual=usual,
                    reply="\n".join(part for part in (wrote, tools) if part),
                )
                if statements:
                    around = situation(before, wrote)
                    found += [(s, around) for s in statements]
                answered = []
            elif said.role == "assistant":
                answered.append(_turn(said))
    return found


def _turn(said: history.Said) -> str:
    """An agent's message as the person's next one answers it: what it wrote, with the lines
    the adapter wrote for its tool calls ("[tool: Write: db/0042.sql]"), and a tool the adapter
    listed but did not write into the text, on a line of its own."""
    missing = [tool_line(t) for t in said.tools if tool_line(t) not in said.text]
    return "\n".join((said.text, *missing)) if missing else said.text


def _replies(messages: Sequence[history.Said]) -> list[tuple[str, str]]:
    """For each message, the agent's messages after it up to the person's next one: how the
    agent took what was said (read backwards once, not once per message). What the agent wrote,
    and the lines the runtime adapters write for its tool calls ("[tool: Bash]"), apart: the
    reply reads them after its words, since a runtime often writes a tool call before the words
    ("You're right — …") that open it."""
    replies = [("", "")] * len(messages)
    after: list[str] = []  # the agent's messages after the one read, last first
    for k in range(len(messages) - 1, -1, -1):
        said = messages[k]
        if said.role == "user":
            lines = [line for text in reversed(after) for line in text.splitlines()]
            called = [(line, tool_called(line)) for line in lines]
            wrote = [line for line, tool in called if line.strip() and tool is None]
            # a tool call by what it ran, not by the adapter's marker ("tool" is no word of the agent's)
            tools = (tool for _, tool in called if tool is not None)
            replies[k] = ("\n".join(wrote), "\n".join(tools))
            after = []
        elif said.role == "assistant":
            after.append(said.text)
    return replies


def languages_without_cues(sessions: Sequence[Session]) -> list[str]:
    """The languages of sessions whose data file has no `impact:` section: nothing is found there."""
    missing: set[str] = set()
    for session in sessions:
        lang = session.language
        if lang is not None and not lang.impact:
            missing.add(lang.code)
    return sorted(missing)


def _learned(statement: Statement, facts: Sequence[FactRecord]) -> list[FactRecord]:
    """The facts cited to the statement's turn that are about what it says."""
    if not facts:
        return []
    return [f for f in facts if f.quote is None or about(statement.quote, f.quote, statement.language)]


def _delivery(after: Statement, deliveries: Sequence[UsageEvent]) -> UsageEvent | None:
    """The first delivery of a later session than `after`'s, later in time."""
    if after.time is None:
        return None
    later = [
        e
        for e in deliveries
        if e.kind in DELIVERING
        and not same_session(e, after)
        and (stamp := utc_stamp(e.ts))
        and stamp > after.time
    ]
    return min(later, key=lambda e: utc_stamp(e.ts) or "", default=None)


def _said(statement: Statement, after: str | None) -> Said:
    return Said(
        session=statement.session,
        turn=statement.turn,
        time=statement.time,
        language=statement.language,
        kind=statement.kind,
        quote=statement.quote,
        cues=list(statement.cues),
        after_delivery=None if after is None else bool(statement.time and statement.time > after),
    )


def _flag(recurrences: int, facts: bool, by_skill: list[str], by_proposal: list[str]) -> str:
    """Why an item said again after delivery is flagged, in words."""
    what = [
        *(["its fact"] if facts else []),
        *([f"its skill {', '.join(by_skill)}"] if by_skill else []),
        *([f"its instruction change {', '.join(by_proposal)}"] if by_proposal else []),
    ]
    may = {"its fact": "the fact", "its skill": "the skill", "its instruction change": "the instruction"}
    alone = next((v for k, v in may.items() if len(what) == 1 and what[0].startswith(k)), "what was learned")
    return (
        f"said again {recurrences} time(s) after {' or '.join(what) or 'what was learned'} reached the agent: "
        f"{alone} may be wrong, or not reach the agent when it matters"
    )


def _facts_delivery(
    statement: Statement,
    facts: Sequence[FactRecord],
    deliveries: Sequence[UsageEvent],
    answers: Sequence[McpAnswer],
) -> tuple[str | None, str | None]:
    """When and how the facts learned from `statement` first reached the agent: a facts view
    read or hook context of a later session, or an MCP answer giving one of them."""
    event = _delivery(statement, deliveries)
    at, by = (utc_stamp(event.ts), event.kind) if event is not None else (None, None)
    answered = first_with_facts(statement.time, {f.id for f in facts}, answers)
    if answered is not None and (at is None or answered < at):
        return answered, MCP_ANSWER
    return at, by


def _item(
    number: int,
    item: Item,
    facts_of: Mapping[Statement, list[FactRecord]],
    history: History,
    skills: Sequence[SkillSource],
    proposals: Sequence[ProposalSource],
    answers: Sequence[McpAnswer],
) -> ImpactItem:
    learned: list[FactRecord] = []
    source: Statement | None = None  # the first statement a fact was learned from
    for statement in item.statements:
        found = facts_of[statement]
        if found and not learned:
            source = statement
        learned += [f for f in found if f not in learned]
    facts_at, facts_by = (
        _facts_delivery(source, learned, history.deliveries, answers) if source is not None else (None, None)
    )
    linked = linked_skills(item.statements, skills, history.deliveries, answers)
    opened = [s for s in linked if s.delivered_at]
    first_skill = min(opened, key=lambda s: s.delivered_at or "", default=None)
    at, by = facts_at, facts_by
    if first_skill is not None and (at is None or (first_skill.delivered_at or "") < at):
        at, by = first_skill.delivered_at, first_skill.delivered_by
    changes = linked_proposals(item.statements, proposals)
    approved = first_delivered(changes)
    if approved is not None and (at is None or (approved.delivered_at or "") < at):
        at, by = approved.delivered_at, INSTRUCTION_APPROVED
    recurrences = [_said(s, at) for s in item.recurrences]
    after = sum(1 for r in recurrences if r.after_delivery)

    def said_after(when: str | None) -> bool:
        return when is not None and any(r.time and r.time > when for r in recurrences)

    reached = [s.name for s in opened if said_after(s.delivered_at)]
    instructed = [p.id for p in changes if said_after(p.delivered_at)]
    return ImpactItem(
        id=f"item-{number}",
        kind=item.first.kind,
        first=_said(item.first, at),
        recurrences=recurrences,
        learned=[
            LearnedFact(
                id=f.id,
                entity=f.entity,
                key=f.key,
                value=f.value,
                valid_from=f.valid_from,
                valid_to=f.valid_to,
                quote=f.quote,
            )
            for f in learned
        ],
        learned_skills=linked,
        learned_proposals=changes,
        delivered_at=at,
        delivered_by=by,
        facts_delivered_at=facts_at,
        recurrences_after_delivery=after,
        never_learned=not learned
        and not any(s.linked_by == "cited" for s in linked)
        and not any(p.linked_by == "cited" and p.status == "approved" for p in changes),
        flagged=bool(after),
        flag_reason=_flag(after, said_after(facts_at), reached, instructed) if after else None,
    )


def _monday(stamp: str) -> str:
    day = date.fromisoformat(stamp[:10])
    return (day - timedelta(days=day.weekday())).isoformat()


def trend(items: Sequence[ImpactItem], since: str | None) -> list[WeekTrend]:
    """Statements, recurrences and recurrences after delivery, per week (from Monday)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        for said, repeated in [(item.first, False), *((r, True) for r in item.recurrences)]:
            if said.time is None or (since is not None and said.time[:10] < since):
                continue
            week = counts[_monday(said.time)]
            week["statements"] += 1
            week["repeated"] += repeated
            week["after"] += bool(repeated and said.after_delivery)
    return [
        WeekTrend(
            week=w, statements=c["statements"], repeated=c["repeated"], repeated_after_delivery=c["after"]
        )
        for w, c in sorted(counts.items())
    ]


def figures(items: Sequence[ImpactItem]) -> ImpactFigures:
    """The headline figures of `items` (for `status`, a console page or a review flag)."""
    return ImpactFigures(
        items=len(items),
        learned=sum(1 for i in items if not i.never_learned),  # a fact, a cited skill or an approved proposal
        delivered=sum(1 for i in items if i.delivered_at),
        repeated=sum(1 for i in items if i.recurrences),
        repeated_after_delivery=sum(1 for i in items if i.recurrences_after_delivery),
        corrections_never_learned=sum(1 for i in items if i.never_learned and i.kind == "correction"),
        flagged=sum(1 for i in items if i.flagged),
    )


def _after(said: Said, link: LearnedSkill) -> bool:
    return bool(said.time and link.delivered_at and said.time > link.delivered_at)


def skill_recurrences(items: Sequence[ImpactItem]) -> list[SkillRecurrence]:
    """Every learned skill linked to `items`, with how often they were said again after it was opened."""
    by_name: dict[str, SkillRecurrence] = {}
    for item in items:
        for link in item.learned_skills:
            known = by_name.get(link.name)
            after = sum(1 for r in item.recurrences if _after(r, link))
            opened = [d for d in (known.delivered_at if known else None, link.delivered_at) if d]
            by_name[link.name] = SkillRecurrence(
                name=link.name,
                items=[*(known.items if known else []), item.id],
                delivered_at=min(opened, default=None),
                recurrences_after_delivery=(known.recurrences_after_delivery if known else 0) + after,
            )
    return sorted(by_name.values(), key=lambda s: s.name)


def impact_items(
    history: History,
    facts: Sequence[FactRecord],
    skills: Sequence[SkillSource] = (),
    proposals: Sequence[ProposalSource] = (),
    answers: Sequence[McpAnswer] = (),
) -> list[ImpactItem]:
    """Every item of the whole history, linked to what was learned from it (facts, learned
    `skills`, the review queue's `proposals`) and delivered (the history's usage signals, the
    MCP server's `answers`)."""
    by_ref: dict[str, list[FactRecord]] = defaultdict(list)
    for fact in facts:
        by_ref[fact.source_event_id].append(fact)
    skills_by_ref: dict[str, list[SkillSource]] = defaultdict(list)
    for skill in skills:
        for ref in dict.fromkeys(ref for ref, _ in skill.cites):
            skills_by_ref[ref].append(skill)
    said = statements_of(history.sessions)
    statements = [s for s, _ in said]
    around = dict(said)  # the statements of one message share their situation
    # the facts learned from each statement, read once for grouping and for the links
    facts_of = {s: _learned(s, by_ref.get(s.ref, [])) if s.ref else [] for s in statements}
    # … and the instruction lines the review queue's proposals citing it change
    cited = cited_lines(proposals)
    subjects = {s: _subjects(s, facts_of[s], skills_by_ref, cited) for s in statements}
    return [
        _item(n, item, facts_of, history, skills, proposals, answers)
        for n, item in enumerate(group(statements, subjects, around), 1)
    ]


def _subjects(
    statement: Statement,
    facts: Sequence[FactRecord],
    skills: dict[str, list[SkillSource]],
    cited_by: dict[str, list[tuple[str, frozenset[str]]]],
) -> frozenset[str]:
    """What the daemon learned from the statement (its `facts`, its turn's `skills`, the
    instruction lines of the proposals `cited_by` its turn): each fact as its key and value (a
    new value of the key is a change, not the same thing again), each skill made or changed
    from it, each instruction line. A fact without a quote (an older or a lab record) says
    which turn, not which sentence: it joins nothing."""
    if not statement.ref:
        return frozenset()
    found = {f"fact:{f.entity}.{f.key}={str(f.value).casefold()}" for f in facts if f.quote}
    found |= {f"skill:{k.name}" for k in skills.get(statement.ref, []) if cited(statement, k) is not None}
    found |= {f"instruction:{line}" for line in learned_lines(statement, cited_by)}
    return frozenset(found)


def report(
    agent: str,
    history: History,
    facts: Sequence[FactRecord],
    since: str | None,
    skills: Sequence[SkillSource] = (),
    items: Sequence[ImpactItem] | None = None,
) -> ImpactDocument:
    """The impact report of `agent` from its `history`, its stored `facts` (every version) and
    its learned `skills` (or the `items` `impact_items` gave for them).

    Items are formed over the whole history; with `since` (YYYY-MM-DD) only those said, first
    or again, on or after that day are shown, and the trend starts that week."""
    shown = list(impact_items(history, facts, skills) if items is None else items)
    if since is not None:
        shown = [i for i in shown if any(s.time and s.time[:10] >= since for s in (i.first, *i.recurrences))]
    return ImpactDocument(
        agent=agent,
        since=since,
        sessions_read=len(history.sessions),
        languages_without_cues=languages_without_cues(history.sessions),
        figures=figures(shown),
        items=shown,
        corrections_never_learned=[i.id for i in shown if i.never_learned and i.kind == "correction"],
        learned_skills=skill_recurrences(shown),
        trend=trend(shown, since),
        warnings=list(history.warnings),
    )

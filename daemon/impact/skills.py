"""Which learned skills an item is linked to, and when each reached the agent (pure, no I/O;
docs/explanation/impact.md#learned-and-delivered).

A statement is linked to a learned skill

- **cited**: when the scout created or updated the skill from the statement's turn (a
  `created`, `updated` or `forked` event of the skill's provenance cites that turn) and the
  skill's words share at least one content word with the statement; else
- **words**: when the skill's name, description and body hold most of the statement's
  content words (SKILL_SHARE of them, and SKILL_WORDS at least): the skill says what the
  person said, whoever wrote it from which turn.

A skill reaches the agent when it is opened (`skill_opened`, the usage signals): the first
opening of a later session than the statement, later in time; or when the MCP server gives
it (`skill_get`, `daemon.impact.answers`) later than the statement, if that is sooner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from daemon.impact.answers import McpAnswer, first_with_skill
from daemon.impact.content import stems_of
from daemon.impact.document import LearnedSkill
from daemon.impact.statements import Statement
from daemon.transcripts.usage import UsageEvent
from daemon.transcripts.usage_signals import SKILL_OPENED, utc_stamp
from skills_engine.inventory import Skill

# Share of a statement's content words a skill's text must hold to be linked by its words
# alone: over half, since a skill's body is long and shares a word or two with anything.
SKILL_SHARE = 0.6
# ... and at least this many of them: one shared word is not a topic.
SKILL_WORDS = 2
LEARNING = ("created", "updated", "forked")


@dataclass(frozen=True)
class SkillSource:
    """A learned skill as the impact report reads it: its names (the folder's, the document's),
    its text (name, description, body) and the turns its provenance events cite, with when."""

    name: str
    names: tuple[str, ...]
    text: str
    cites: tuple[tuple[str, str], ...]  # (turn ref, event time)


def cited(statement: Statement, skill: SkillSource) -> str | None:
    """When the skill was learned from the statement's turn, if it was and says something of it."""
    if not statement.ref:
        return None
    at = next((when for ref, when in skill.cites if ref == statement.ref), None)
    if at is None:
        return None
    return at if stems_of(statement.quote, statement.language) & stems_of(skill.text, statement.language) else None


def worded(statement: Statement, text: str) -> bool:
    """Whether `text` (a skill's, a proposal's) holds most of the statement's content words:
    SKILL_WORDS of them at least, and SKILL_SHARE of all."""
    mine = stems_of(statement.quote, statement.language)
    shared = mine & stems_of(text, statement.language)
    return len(shared) >= SKILL_WORDS and len(shared) >= SKILL_SHARE * len(mine)


def same_session(event: UsageEvent, statement: Statement) -> bool | None:
    """Whether `event` is of the statement's session: both turns' files (`<file>@<offset>`)
    compared, since an event names its session by id and a statement by its file; None when
    the statement has no turn reference."""
    if not statement.ref:
        return None
    return event.turn.rsplit("@", 1)[0] == statement.ref.rsplit("@", 1)[0]


def _opened(after: Statement, skill: SkillSource, deliveries: Sequence[UsageEvent]) -> str | None:
    """The first opening of the skill in a later session than `after`'s, later in time."""
    if after.time is None:
        return None
    stamps = [
        stamp
        for e in deliveries
        if e.kind == SKILL_OPENED
        and e.skill in skill.names
        and same_session(e, after) is False
        and (stamp := utc_stamp(e.ts))
        and stamp > after.time
    ]
    return min(stamps, default=None)


def _link(
    skill: SkillSource,
    statement: Statement,
    learned_at: str | None,
    deliveries: Sequence[UsageEvent],
    answers: Sequence[McpAnswer],
) -> LearnedSkill:
    """The link of `skill` through `statement`, delivered at its first opening or MCP answer after it."""
    opened = _opened(statement, skill, deliveries)
    answered = first_with_skill(statement.time, skill.names, answers)
    at: str | None = opened
    by: Literal["skill_opened", "mcp_answer"] | None = "skill_opened" if opened is not None else None
    if answered is not None and (opened is None or answered < opened):
        at, by = answered, "mcp_answer"
    return LearnedSkill(
        name=skill.name,
        linked_by="cited" if learned_at is not None else "words",
        learned_at=learned_at,
        delivered_at=at,
        delivered_by=by,
    )


def linked_skills(
    statements: Sequence[Statement],
    skills: Sequence[SkillSource],
    deliveries: Sequence[UsageEvent],
    answers: Sequence[McpAnswer] = (),
) -> list[LearnedSkill]:
    """The skills linked to an item's `statements`, each once: by citation when any statement's
    turn is cited, else by words (the first statement that holds them), in the order of `skills`."""
    found: list[LearnedSkill] = []
    for skill in skills:
        source = next(((s, at) for s in statements if (at := cited(s, skill)) is not None), None)
        if source is not None:
            found.append(_link(skill, source[0], source[1], deliveries, answers))
            continue
        by_words = next((s for s in statements if worded(s, skill.text)), None)
        if by_words is not None:
            found.append(_link(skill, by_words, None, deliveries, answers))
    return found


def sources_of(skills: Sequence[Skill]) -> list[SkillSource]:
    """The learned skills as the report reads them: names, text, and the turns their provenance cites."""
    found = []
    for skill in skills:
        events = skill.provenance.history if skill.provenance is not None else []
        cites = tuple((ref, e.at) for e in events if e.action in LEARNING for ref in e.cites)
        text = "\n".join((skill.name.replace("-", " "), skill.doc.description, skill.doc.body))
        found.append(SkillSource(skill.name, tuple(dict.fromkeys((skill.name, skill.doc.name))), text, cites))
    return found

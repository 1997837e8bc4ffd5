"""What `impact --json` prints, and what a console page or the status headline may read: the
items an agent's person corrected or ruled on, what was learned from them, when it reached
the agent, and whether the person had to say it again (docs/reference/json.md)."""

from __future__ import annotations

from typing import Literal

from daemon.impact.figures import ImpactFigures
from daemon.kernel.json_contract import Document, Omittable

ItemKind = Literal["correction", "preference", "standing_instruction"]


class Said(Document):
    """One statement: where and when the person said it, and the sentence as written."""

    session: str  # the transcript's path under the transcript root
    turn: int  # the message's position in its session, from 1 (every role counted)
    time: str | None  # UTC ISO 8601, when the transcript gives one
    language: str  # the data file the sentence was read with (de, fr, en+nl …)
    kind: ItemKind
    quote: str
    cues: list[str]  # the cue classes and phrases found: "standing:always", "reminder:i told you"
    # said after the item first reached the agent; left out when nothing was learned or delivered
    after_delivery: Omittable[bool] = None


class LearnedFact(Document):
    """A fact the daemon stored from a turn of the item (its `source_event_id` is that turn)."""

    id: str
    entity: str
    key: str
    value: str
    valid_from: str
    valid_to: str | None
    quote: str | None


class LearnedSkill(Document):
    """A learned skill the daemon made or changed from a turn of the item, or whose words say
    what the item says, and when it was first opened after that."""

    name: str
    linked_by: Literal["cited", "words"]  # the scout cited the item's turn | shared content words
    learned_at: str | None  # the provenance event citing the turn (None when linked by words)
    # the first time after it the skill was opened (in a later session) or an MCP answer gave it
    delivered_at: str | None
    delivered_by: Literal["skill_opened", "mcp_answer"] | None


ProposalStatus = Literal["open", "approved", "rejected", "stale"]


class LearnedProposal(Document):
    """A proposal of the review queue made from a turn of the item (its evidence cites that
    turn), or an instruction proposal whose proposed text says what the item says, and its fate."""

    id: str
    kind: str  # instruction, memory, skill-…: the pass that proposed it
    title: str
    linked_by: Literal["cited", "words"]  # its evidence cites the item's turn | shared content words
    status: ProposalStatus  # stale: open, but its target changed since; it can no longer be approved
    proposed_at: str
    decided_at: str | None  # when it was approved or rejected
    decided_by: str | None  # who decided it (a person's --by, or the daemon with the hold lifted)
    decided_by_run: str | None  # the run that applied the decision
    # approved, and it changes an instruction file: the agent reads it from then on
    delivered_at: str | None


class ImpactItem(Document):
    """Statements that say the same thing: the first, then its recurrences in later sessions."""

    id: str  # item-N, in the order first said; stable only for the same history
    kind: ItemKind  # the first statement's
    first: Said
    recurrences: list[Said]
    learned: list[LearnedFact]
    learned_skills: list[LearnedSkill]
    learned_proposals: list[LearnedProposal]
    # the first delivery after it was learned: facts view read, hook context, an MCP answer giving
    # its fact or skill, a linked skill opened, or an instruction proposal approved
    delivered_at: str | None
    # facts_view_read | hook_context | mcp_answer | skill_opened | instruction_approved
    delivered_by: str | None
    # when the facts learned from it first reached the agent (facts view read, hook context, MCP answer)
    facts_delivered_at: str | None
    recurrences_after_delivery: int
    # no fact stored from any of its turns, no skill made from them, no approved proposal citing them
    never_learned: bool
    # said again after delivery: what was learned may be wrong, or not reach the agent when it matters
    flagged: bool
    flag_reason: str | None  # the why, in words


class WeekTrend(Document):
    """One week (from Monday, UTC) of the history."""

    week: str  # the Monday, YYYY-MM-DD
    statements: int  # every statement said that week
    repeated: int  # of them, recurrences of an earlier item
    repeated_after_delivery: int  # of those, after the item had reached the agent


class SkillRecurrence(Document):
    """A learned skill linked to items, and how often they were said again after it was opened."""

    name: str
    items: list[str]  # item ids
    delivered_at: str | None  # the first time it was opened after it was learned
    recurrences_after_delivery: int  # of its items, said again after it was opened


class ImpactDocument(Document):
    """What `impact --json` prints."""

    agent: str
    since: str | None  # YYYY-MM-DD: only items said (first or again) on or after it
    sessions_read: int
    languages_without_cues: list[str]  # languages of sessions read that have no `impact:` data
    figures: ImpactFigures
    items: list[ImpactItem]
    corrections_never_learned: list[str]  # item ids
    learned_skills: list[SkillRecurrence]  # every learned skill linked to an item shown
    trend: list[WeekTrend]
    warnings: list[str]

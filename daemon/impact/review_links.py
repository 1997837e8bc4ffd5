"""Which proposals of the review queue an item is linked to, and their fate (pure, no I/O;
docs/explanation/impact.md#learned-and-delivered).

A statement is linked to a proposal

- **cited**: when one of the proposal's evidence lines cites the statement's turn (an
  instruction proposal's evidence is `<file>@<offset> (role, time): “quote”`, a skill
  candidate's the bare `<file>@<offset>`), whatever its kind; else
- **words**: when it changes an instruction file and its proposed text (its title and the
  lines it adds) holds most of the statement's content words, as a learned skill is linked
  by its words (`daemon.impact.skills.worded`).

An approved proposal that changes an instruction file reached the agent when it was
approved, if that was after the statement: the runtime reads the file from then on.

What a proposal citing a statement does to the instruction files — the lines it adds or
removes (`instruction_lines`) — is what was learned from it: two statements of different
sessions whose proposals touch the same line ("- Always use 'Sie' with customers." added
from the first, sharpened from the second) are one item, in any words or language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from daemon.impact.content import about
from daemon.impact.document import LearnedProposal, ProposalStatus
from daemon.impact.skills import worded
from daemon.impact.statements import Statement

INSTRUCTION_APPROVED = "instruction_approved"
# A list marker before an instruction line: "- ", "* ", "1. ".
MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# Lines a proposal may change and still say which rule it learned: one that rewrites a section
# (a reorganisation, a merge) touches many, and no one of them is what the statement said.
SAYS_WHICH_LINE = 6
# The turn an evidence line cites, before " (role, time): …" or alone.
CITED = re.compile(r"(.*?@\d+)(?= \(|\Z)", re.DOTALL)
# The quote of an evidence line: `<file>@<offset> (role, time): “quote”`.
EVIDENCE_QUOTE = re.compile(r"“(.*)”\s*\Z", re.DOTALL)


@dataclass(frozen=True)
class ProposalSource:
    """A proposal as the impact report reads it: what it is, its fate, what it cites and says."""

    id: str
    kind: str
    title: str
    status: ProposalStatus
    proposed_at: str  # UTC ISO 8601
    decided_at: str | None  # UTC ISO 8601
    decided_by: str | None
    decided_by_run: str | None
    evidence: tuple[str, ...]
    text: str  # its title and the lines it adds
    instructs: bool  # it changes one of the agent's instruction files
    lines: frozenset[str] = frozenset()  # the instruction lines it adds or removes (`instruction_lines`)


def instruction_lines(lines: Iterable[str]) -> frozenset[str]:
    """Lines of an instruction file as one reads them: without a list marker, casefolded,
    spaces collapsed; a line with no letter or digit ("---", "") says nothing, and a heading
    ("## Customers") names a section many rules share, not a rule."""
    found = set()
    for line in lines:
        plain = " ".join(MARKER.sub("", line).split()).casefold()
        if any(c.isalnum() for c in plain) and not plain.startswith("#"):
            found.add(plain)
    return frozenset(found)


def evidence_ref(line: str) -> str:
    """The turn an evidence line cites: its `<file>@<offset>` (a file name may hold spaces)."""
    cited = CITED.match(line)
    return cited.group(1) if cited else line


def cited_lines(proposals: Sequence[ProposalSource]) -> dict[str, list[tuple[str, frozenset[str]]]]:
    """Turn ref → (the quote cited from it, the instruction lines changed) of each proposal
    that changes from one to SAYS_WHICH_LINE instruction lines and cites that turn: read once
    for every statement."""
    found: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for proposal in proposals:
        if 0 < len(proposal.lines) <= SAYS_WHICH_LINE:
            for line in proposal.evidence:
                quoted = EVIDENCE_QUOTE.search(line)
                found.setdefault(evidence_ref(line), []).append(
                    (quoted.group(1) if quoted else "", proposal.lines)
                )
    return found


def learned_lines(statement: Statement, cited: dict[str, list[tuple[str, frozenset[str]]]]) -> frozenset[str]:
    """The instruction lines changed by the proposals that cite the statement's turn with words
    of the statement (`cited`, from `cited_lines`): an evidence quote holding it or held by
    it, or sharing a content word. A proposal citing a message for another of its sentences
    learned nothing from this one."""
    found: set[str] = set()
    for quote, lines in cited.get(statement.ref, []) if statement.ref else []:
        if about(statement.quote, quote, statement.language):
            found |= lines
    return frozenset(found)


def cites(proposal: ProposalSource, ref: str) -> bool:
    """Whether an evidence line of `proposal` cites the turn `ref` (`<file>@<offset>`)."""
    return bool(ref) and any(evidence_ref(line) == ref for line in proposal.evidence)


def _link(proposal: ProposalSource, statement: Statement, linked_by: str) -> LearnedProposal:
    decided = proposal.decided_at
    reached = (
        proposal.status == "approved"
        and proposal.instructs
        and decided is not None
        and statement.time is not None
        and decided > statement.time
    )
    return LearnedProposal(
        id=proposal.id,
        kind=proposal.kind,
        title=proposal.title,
        linked_by="cited" if linked_by == "cited" else "words",
        status=proposal.status,
        proposed_at=proposal.proposed_at,
        decided_at=decided,
        decided_by=proposal.decided_by,
        decided_by_run=proposal.decided_by_run,
        delivered_at=decided if reached else None,
    )


def linked_proposals(
    statements: Sequence[Statement], proposals: Sequence[ProposalSource]
) -> list[LearnedProposal]:
    """The proposals linked to an item's `statements`, each once: by citation when any
    statement's turn is cited, else by words, in the order of `proposals` (oldest first)."""
    found: list[LearnedProposal] = []
    for proposal in proposals:
        cited = next((s for s in statements if cites(proposal, s.ref)), None)
        if cited is not None:
            found.append(_link(proposal, cited, "cited"))
            continue
        by_words = next((s for s in statements if proposal.instructs and worded(s, proposal.text)), None)
        if by_words is not None:
            found.append(_link(proposal, by_words, "words"))
    return found


def first_delivered(linked: Sequence[LearnedProposal]) -> LearnedProposal | None:
    """The linked proposal whose approval reached the agent first, if any did."""
    return min((p for p in linked if p.delivered_at), key=lambda p: p.delivered_at or "", default=None)

"""Which instruction lines a proposal says it learned from a statement
(daemon/impact/review_links.py): a rule line, not a heading; a few lines, not a rewrite."""

from __future__ import annotations

from daemon.impact.review_links import ProposalSource, cited_lines, instruction_lines, learned_lines
from daemon.impact.statements import Statement

REF = "transcripts/s 1.jsonl@120"


def proposal(lines: frozenset[str], evidence: str) -> ProposalSource:
    return ProposalSource(
        id="p1", kind="instruction", title="t", status="open", proposed_at="2026-11-02T10:00:00Z",
        decided_at=None, decided_by=None, decided_by_run=None, evidence=(evidence,), text="t",
        instructs=True, lines=lines,
    )  # fmt: skip


def statement(quote: str) -> Statement:
    return Statement("standing_instruction", quote, "s1", 2, "en", "2026-11-02T10:00:00+00:00", (), REF)


def test_a_line_is_read_without_its_marker_case_or_spaces_and_a_heading_or_a_rule_line_is_no_rule() -> None:
    read = instruction_lines(["- Address  customers formally.", "1. Be BRIEF.", "## Customers", "---", ""])
    assert read == {"address customers formally.", "be brief."}


def test_a_proposal_citing_the_turn_with_the_statements_words_gives_its_lines() -> None:
    lines = frozenset({"address customers formally."})
    cited = cited_lines([proposal(lines, f"{REF} (user, 2026-11-02T10:00:00Z): “Always be formal with customers.”")])
    assert learned_lines(statement("Always be formal with customers."), cited) == lines
    # the same turn cited for another of its sentences: nothing learned from this one
    assert learned_lines(statement("Never deploy on Fridays."), cited) == frozenset()


def test_a_proposal_rewriting_many_lines_says_no_line_was_learned() -> None:
    lines = frozenset(f"rule {n}." for n in range(7))
    cited = cited_lines([proposal(lines, f"{REF} (user): “Always be formal with customers.”")])
    assert learned_lines(statement("Always be formal with customers."), cited) == frozenset()

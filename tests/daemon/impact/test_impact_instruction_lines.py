"""Two statements whose instruction proposals change the same line of an instruction file
are one item, in any language (daemon/impact/review_links.py `learned_lines`): the rule
said in English, learned as a line of AGENTS.md, then said again in German with no word in
common, cited by a proposal that sharpens that line."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import OTHER_PASSES, setup_agent
from tests.workspace.ada import turn_id

ENGLISH = "Always be formal with our customers."
GERMAN = "Kunden werden immer gesiezt, das habe ich schon gesagt."
LEARNED = "- Address customers formally."
SHARPENED = "- Address customers formally (Sie in German), never informally."


def review(fake_model: FakeModelServer, config: Path, quote: str, turn: str, old: str, new: str) -> str:
    """One instruction-review run whose scripted proposal cites `quote` and replaces `old`."""
    proposal = {
        "file": "AGENTS.md",
        "title": "Formal address",
        "rationale": "The user set how customers are addressed.",
        "evidence": [{"turn": turn, "quote": quote}],
        "edits": [{"old": old, "new": new}],
    }
    fake_model.reply({"proposals": [proposal]}, schema="InstructionReviewResponse")
    result = run_cli(config, "once", "--agent", "ada", "--pass", "instruction_review", "--json")
    assert result.code == 0, result.err
    (entry,) = [p for p in result.json()["passes"] if p["name"] == "instruction_review"]
    (pid,) = entry["proposals"]
    return str(pid)


def history(root: Path, fake_model: FakeModelServer, second_old: str, second_new: str) -> dict[str, Any]:
    """The English rule learned and approved, the German one cited by a proposal replacing
    `second_old` with `second_new`; returns `impact --json`."""
    passes = {name: name == "instruction_review" for name in (*OTHER_PASSES, "distillation")}
    config = setup_agent(root, fake_model, passes=passes)
    home = root / "ada"
    (home / "transcripts" / "s1.jsonl").unlink()
    filler = [
        ("Draft the reply to Mrs Vogel.", "Hi Anna! Here it is."),
        ("Thanks.", "Welcome."),
        ("Bye.", "Bye."),
    ]
    write_transcript(home, "s1.jsonl", conversation([filler[0], (ENGLISH, "Understood."), *filler[1:]]))
    first = review(
        fake_model, config, ENGLISH, turn_id(home, ENGLISH), "- Be brief.", f"- Be brief.\n{LEARNED}"
    )
    assert run_cli(config, "review", "approve", first, "--by", "jonas").code == 0
    later = [
        ("Antworte Herrn Brandt.", "Hallo Tom!"),
        (GERMAN, "Verstanden."),
        ("Danke.", "Gern."),
        ("Tschüss.", "Tschüss."),
    ]
    # said after the approval (made now, by the clock): a recurrence after delivery
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    write_transcript(home, "s2.jsonl", conversation(later, day=tomorrow))
    review(fake_model, config, GERMAN, turn_id(home, GERMAN, "transcripts/s2.jsonl"), second_old, second_new)
    result = run_cli(config, "impact", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    return dict(result.json())


def test_a_rule_said_again_in_another_language_joins_its_item_through_the_instruction_line_both_change(
    root: Path, fake_model: FakeModelServer
) -> None:
    document = history(root, fake_model, LEARNED, SHARPENED)
    (item,) = document["items"]
    assert item["first"]["quote"] == ENGLISH
    assert [(r["quote"], r["language"], r["after_delivery"]) for r in item["recurrences"]] == [
        (GERMAN, "de", True)
    ]
    assert item["delivered_by"] == "instruction_approved" and item["flagged"] is True


def test_a_proposal_changing_another_line_joins_nothing(root: Path, fake_model: FakeModelServer) -> None:
    document = history(root, fake_model, "- Answer in German.", "- Answer in German, always.")
    assert sorted(i["first"]["quote"] for i in document["items"]) == sorted([ENGLISH, GERMAN])
    assert all(not i["recurrences"] for i in document["items"])

"""`impact` links an item to the learned skills made from its turn or saying what it says,
and counts a skill's opening as a delivery (daemon/impact/skills.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.daemon.impact.skill_fixture import SKILL, opened, said_ref, write_skill
from tests.daemon.impact.test_impact_cli import deployment
from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import setup_agent


def impact(config: Path) -> dict[str, Any]:
    result = run_cli(config, "impact", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    return result.json()


def test_impact_links_the_skill_the_scout_made_from_the_correction_turn_and_when_it_was_opened(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    write_skill(root / "ada", cites=(said_ref(config),), description="Install JavaScript dependencies with pnpm.")
    opened(root / "ada", "s2b.jsonl", "2026-11-12")
    document = impact(config)
    (item,) = document["items"]
    assert item["learned_skills"] == [
        {
            "name": SKILL,
            "linked_by": "cited",
            "learned_at": "2026-11-02T12:00:00+00:00",
            "delivered_at": "2026-11-12T09:00:30+00:00",
            "delivered_by": "skill_opened",
        }
    ]
    # the facts view was read first (2026-11-10): the item's delivery; the skill's is its own
    assert item["delivered_by"] == "facts_view_read" and item["facts_delivered_at"].startswith("2026-11-10")
    assert document["learned_skills"] == [
        {"name": SKILL, "items": ["item-1"], "delivered_at": "2026-11-12T09:00:30+00:00", "recurrences_after_delivery": 1}
    ]
    out = run_cli(config, "impact", "--agent", "ada").out
    assert f"  skill: {SKILL} (learned from this turn, opened 2026-11-12T09:00:30+00:00)" in out


def test_a_skill_cited_to_the_turn_but_about_something_else_is_not_linked(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    write_skill(root / "ada", name="write-changelog", cites=(said_ref(config),), description="Keep a changelog.")
    (item,) = impact(config)["items"]
    assert item["learned_skills"] == []


def test_impact_links_a_skill_by_its_words_and_counts_its_opening_as_the_delivery(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    home = root / "ada"
    (home / "transcripts" / "s1.jsonl").unlink()
    write_transcript(home, "s1.jsonl", conversation([("No, we deploy with make release, not the script.", "OK.")]))
    write_skill(home, name="deploy", description="Deploy the site with make release.", machine=False)
    opened(home, "s2.jsonl", "2026-11-05", name="deploy")
    write_transcript(
        home, "s3.jsonl", conversation([("I told you: make release, not the script!", "Sorry.")], day="2026-11-09")
    )
    (item,) = impact(config)["items"]
    assert [(s["name"], s["linked_by"], s["learned_at"]) for s in item["learned_skills"]] == [("deploy", "words", None)]
    assert item["learned"] == [] and item["never_learned"] is True  # no fact, no skill made from it
    assert item["delivered_by"] == "skill_opened" and item["delivered_at"] == "2026-11-05T09:00:30+00:00"
    assert item["facts_delivered_at"] is None
    assert item["recurrences_after_delivery"] == 1 and item["flagged"] is True
    assert item["flag_reason"] == (
        "said again 1 time(s) after its skill deploy reached the agent: the skill may be wrong, "
        "or not reach the agent when it matters"
    )


def test_a_skill_sharing_one_word_with_the_correction_is_not_linked(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    write_skill(root / "ada", name="npm-audit", description="Audit the dependencies for advisories.", machine=False)
    (item,) = impact(config)["items"]
    assert item["learned_skills"] == []

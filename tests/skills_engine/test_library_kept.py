"""Duplicates: identical means identical up to name and title; a canonical version keeps what
every member holds (issue 33)."""

from __future__ import annotations

from pathlib import Path

from tests.skills_engine.builders import digest_tree, skill_md, skills_config
from tests.skills_engine.test_library import CANONICAL, REPORT_STEPS, learned, library, near_duplicates
from tests.support.fake_model import FakeModelServer


def pair(root: Path, first: str, second: str) -> Path:
    config = skills_config(root, None)
    learned(root, "report-a", first, 2)
    learned(root, "report-b", second, 5)
    return config


def test_skills_differing_only_in_a_body_line_starting_with_name_are_not_identical(root: Path) -> None:
    steps = [*REPORT_STEPS, "Fill the form field"]
    first = skill_md("report-a", "Same thing.", steps, [("Form", "name: the customer's full name")])
    second = skill_md("report-b", "Same thing.", steps, [("Form", "name: the account's owner")])
    config = pair(root, first, second)
    before = digest_tree(root / "ada")
    entry = library(config, key=False)
    assert all(d["outcome"] != "merged" for d in entry["duplicates"]), entry["duplicates"]
    assert entry["pending"] == [
        "near-duplicates report-a, report-b: need the deep model (no model configured (add a `model:` section to the config))"
    ]
    assert digest_tree(root / "ada") == before


def test_skills_differing_in_a_title_that_is_not_just_the_name_or_in_spacing_are_not_identical(
    root: Path,
) -> None:
    text = skill_md("x", "Same thing.", REPORT_STEPS)
    titled = text.replace("name: x", "name: report-a").replace("# x", "# Weekly report")
    spaced = (
        text.replace("name: x", "name: report-b").replace("# x", "# Report b").replace("Count", "Count  ")
    )
    config = pair(root, titled, spaced)
    entry = library(config, key=False)
    assert all(d["outcome"] != "merged" for d in entry["duplicates"]), entry["duplicates"]
    assert (root / "ada/skills/report-a/SKILL.md").exists() and (
        root / "ada/skills/report-b/SKILL.md"
    ).exists()


def test_skills_identical_up_to_the_name_field_and_a_title_that_is_the_name_merge_without_a_model(
    root: Path,
) -> None:
    text = skill_md("x", "Same thing.", REPORT_STEPS, [("Form", "name: the customer's full name")])
    first = text.replace("name: x", "name: report-a").replace("# x", "# Report A")
    second = text.replace("name: x", "name: report-b").replace("# x", "# report-b")
    entry = library(pair(root, first, second), key=False)
    assert entry["duplicates"][0]["reason"] == "identical skills report-b, report-a merged into report-b"
    assert not (root / "ada/skills/report-a").exists()


NOTES = "Check the log. Check the log twice on Mondays."


def with_notes(root: Path, url: str) -> Path:
    config = near_duplicates(root, url)
    for name in ("weekly-ops-report", "ops-weekly-summary"):
        path = root / "ada/skills" / name / "SKILL.md"
        path.write_text(path.read_text() + f"\n## Notes\n{NOTES}\n")
    return config


def test_a_canonical_version_that_drops_a_sentence_every_member_holds_is_refused(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = with_notes(root, fake_model.url)
    before = digest_tree(root / "ada")
    notes = {"heading": "Notes", "text": "Check the log twice on Mondays."}  # every word still there
    fake_model.reply({**CANONICAL, "sections": [notes]}, schema="CanonicalSkill")
    entry = library(config)
    assert entry["duplicates"][0]["outcome"] == "refused"
    assert entry["duplicates"][0]["reason"] == (
        "the canonical version drops what every member holds: sentence “Check the log.”"
    )
    assert digest_tree(root / "ada") == before


def test_a_canonical_version_keeping_every_shared_sentence_with_a_new_title_and_trigger_merges(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = with_notes(root, fake_model.url)
    fake_model.reply(
        {**CANONICAL, "sections": [{"heading": "Notes", "text": NOTES}]}, schema="CanonicalSkill"
    )
    entry = library(config)
    assert entry["duplicates"][0]["outcome"] == "merged", entry["duplicates"]
    assert NOTES in (root / "ada/skills/weekly-ops-report/SKILL.md").read_text()

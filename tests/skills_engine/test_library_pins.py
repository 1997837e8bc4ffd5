"""The library pass never deletes or renames a pinned skill: a merge keeps the pinned member's
name, and a group with more than one pinned member is not merged (`skills pin`)."""

from __future__ import annotations

from pathlib import Path

from tests.skills_engine.builders import digest_tree, once, pass_entry, skill_md, skills_config
from tests.skills_engine.test_library import CANONICAL, REPORT_STEPS, learned, library, near_duplicates
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer


def identical_pair(root: Path) -> Path:
    """`report-old` (learned 5 days ago) and `report-new` (2 days ago), identical but for their names."""
    config = skills_config(root, None)
    text = skill_md("x", "Same thing.", REPORT_STEPS)
    learned(root, "report-new", text.replace("name: x", "name: report-new").replace("# x", "# Report new"), 2)
    learned(root, "report-old", text.replace("name: x", "name: report-old").replace("# x", "# Report old"), 5)
    return config


def pin(config: Path, *names: str) -> None:
    for name in names:
        done = run_cli(config, "skills", "pin", name, "--agent", "ada")
        assert done.code == 0, done.err


def test_an_identical_merge_keeps_the_pinned_skill_though_it_is_the_younger(root: Path) -> None:
    config = identical_pair(root)
    pin(config, "report-new")
    entry = library(config, key=False)
    assert entry["duplicates"][0]["outcome"] == "merged"
    assert entry["duplicates"][0]["reason"] == (
        "identical skills report-new, report-old merged into report-new (pinned: its name is kept)"
    )
    skills = root / "ada" / "skills"
    assert (skills / "report-new" / "SKILL.md").exists() and (skills / "report-new.provenance.json").exists()
    assert not (skills / "report-old").exists()


def test_identical_skills_both_pinned_are_not_merged_and_the_report_says_why(root: Path) -> None:
    config = identical_pair(root)
    pin(config, "report-new", "report-old")
    before = digest_tree(root / "ada")
    entry = library(config, key=False)
    (group,) = entry["duplicates"]
    assert group["outcome"] == "refused"
    assert group["reason"] == (
        "report-new, report-old not merged: report-new, report-old are pinned and a merge keeps one name "
        "(unpin all but one of them to merge)"
    )
    assert digest_tree(root / "ada") == before


def test_a_near_duplicate_merge_takes_the_pinned_members_name_whatever_the_model_chose(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = near_duplicates(root, fake_model.url)
    pin(config, "ops-weekly-summary")  # the model's canonical name is weekly-ops-report
    fake_model.reply(CANONICAL, schema="CanonicalSkill")
    entry = pass_entry(once(config, "library_maintenance", hours=1), "library_maintenance")
    (group,) = entry["duplicates"]
    assert group["outcome"] == "merged"
    assert group["reason"].startswith("ops-weekly-summary, weekly-ops-report merged into ops-weekly-summary")
    skills = root / "ada" / "skills"
    text = (skills / "ops-weekly-summary" / "SKILL.md").read_text()
    steps = CANONICAL["steps"]
    assert isinstance(steps, list) and all(step in text for step in steps)
    assert not (skills / "weekly-ops-report").exists()


def test_near_duplicates_both_pinned_are_not_sent_to_the_model(root: Path, fake_model: FakeModelServer) -> None:
    config = near_duplicates(root, fake_model.url)
    pin(config, "ops-weekly-summary", "weekly-ops-report")
    before = digest_tree(root / "ada")
    entry = pass_entry(once(config, "library_maintenance", hours=1), "library_maintenance")
    assert entry["model_calls"] == 0
    assert [g["outcome"] for g in entry["duplicates"]] == ["refused"]
    assert digest_tree(root / "ada") == before


def test_approving_a_merge_that_deletes_a_skill_pinned_since_it_was_proposed_is_refused(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = near_duplicates(root, fake_model.url)
    config.write_text(config.read_text().replace("    home:", "    autonomy: review\n    home:"))
    fake_model.reply(CANONICAL, schema="CanonicalSkill")  # merged into weekly-ops-report
    assert library(config)["duplicates"][0]["outcome"] == "proposed"
    (proposal,) = run_cli(config, "review", "list", "--json").json()
    pin(config, "ops-weekly-summary")
    before = digest_tree(root / "ada" / "skills")
    refused = run_cli(config, "review", "approve", proposal["id"], "--agent", "ada")
    assert refused.code == 1 and "skill ops-weekly-summary was pinned since the merge was proposed" in refused.err
    assert digest_tree(root / "ada" / "skills") == before

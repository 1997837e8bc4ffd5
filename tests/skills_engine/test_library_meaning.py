"""A canonical skill whose steps change what the duplicates said is refused, through `once --json` on the example."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.skills_engine.builders import TEST_KEY, digest_tree, once, pass_entry
from tests.skills_engine.test_example_skills import VENDOR
from tests.support.fake_model import FakeModelServer
from tests.workspace.ada import copy_example

PAIR = ["email-vendors-in-german", "vendor-email"]


def _library(config: Path) -> dict[str, Any]:
    return pass_entry(once(config, "library_maintenance", key=TEST_KEY), "library_maintenance")


def _with_step(old: str, new: str) -> dict[str, Any]:
    steps = [new if step == old else step for step in VENDOR["steps"]]
    assert steps != VENDOR["steps"]
    return {**VENDOR, "steps": steps}


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("Write the email in German", "Never write the email in German", "adds negation “not”"),
        ("Copy Jonas on the email", "Do not copy Jonas on the email", "adds negation “not”"),
        ("Keep it under 150 words", "Keep it under 150 words, in English", "adds name “english”"),
    ],
)
def test_canonical_step_that_changes_meaning_is_refused_and_both_duplicates_stay(
    root: Path, fake_model: FakeModelServer, old: str, new: str, why: str
) -> None:
    config = copy_example(root, fake_model.url)
    skills = config.parent / "ada" / "skills"
    pair_before = {name: digest_tree(skills / name) for name in PAIR}
    fake_model.reply(_with_step(old, new), schema="CanonicalSkill")

    entry = _library(config)

    vendor = next(d for d in entry["duplicates"] if d["names"] == PAIR)
    assert vendor["outcome"] == "refused"
    assert vendor["reason"].startswith("the canonical version changes what the steps say: ")
    assert f"“{new}”" in vendor["reason"] and why in vendor["reason"]
    for name in PAIR:
        assert digest_tree(skills / name) == pair_before[name]
        assert (skills / f"{name}.provenance.json").exists()


def test_the_faithful_canonical_version_merges(root: Path, fake_model: FakeModelServer) -> None:
    config = copy_example(root, fake_model.url)
    skills = config.parent / "ada" / "skills"
    fake_model.reply(VENDOR, schema="CanonicalSkill")

    entry = _library(config)

    vendor = next(d for d in entry["duplicates"] if d["names"] == PAIR)
    assert vendor["outcome"] == "merged"
    assert not (skills / "email-vendors-in-german").exists()
    assert "Write the email in German" in (skills / "vendor-email/SKILL.md").read_text()


NOTES = "Never mention prices or discounts to the vendor; legal must approve any number first."


def _with_notes(config: Path) -> Path:
    """The example with a person's "## Notes" added to one member of the vendor pair."""
    skill = config.parent / "ada" / "skills" / "email-vendors-in-german" / "SKILL.md"
    skill.write_text(skill.read_text() + f"\n## Notes\n{NOTES}\n")
    return config


@pytest.mark.parametrize(
    ("sections", "why"),
    [
        ([], f"loses email-vendors-in-german section “Notes”: {NOTES[:79]}…"),
        ([{"heading": "Tips", "text": NOTES}], "loses email-vendors-in-german section “Notes”"),
        (
            [{"heading": "Notes", "text": NOTES.replace("Never mention", "Mention")}],
            "changes email-vendors-in-german section “Notes”: Never mention prices or discounts to the vendor; "
            "legal must approve any number … (its words “never” are gone)",
        ),
        (
            [{"heading": "Notes", "text": f"{NOTES} Offer a 20% discount."}],
            "adds to section “Notes” what no member said: adds number “20%”",
        ),
    ],
)
def test_canonical_version_that_loses_or_changes_a_members_section_is_refused_and_both_stay(
    root: Path, fake_model: FakeModelServer, sections: list[dict[str, str]], why: str
) -> None:
    config = _with_notes(copy_example(root, fake_model.url))
    skills = config.parent / "ada" / "skills"
    pair_before = {name: digest_tree(skills / name) for name in PAIR}
    fake_model.reply({**VENDOR, "sections": sections}, schema="CanonicalSkill")

    entry = _library(config)

    vendor = next(d for d in entry["duplicates"] if d["names"] == PAIR)
    assert vendor["outcome"] == "refused"
    assert vendor["reason"].startswith("the canonical version ") and why in vendor["reason"]
    for name in PAIR:
        assert digest_tree(skills / name) == pair_before[name]
        assert (skills / f"{name}.provenance.json").exists()


def test_canonical_version_that_keeps_a_members_section_merges(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = _with_notes(copy_example(root, fake_model.url))
    skills = config.parent / "ada" / "skills"
    fake_model.reply({**VENDOR, "sections": [{"heading": "notes", "text": NOTES}]}, schema="CanonicalSkill")

    entry = _library(config)

    vendor = next(d for d in entry["duplicates"] if d["names"] == PAIR)
    assert vendor["outcome"] == "merged", vendor["reason"]
    assert not (skills / "email-vendors-in-german").exists()
    assert f"## notes\n{NOTES}\n" in (skills / "vendor-email/SKILL.md").read_text()


def _with_member_step(config: Path, member: str, step: str) -> None:
    """`step` appended to the numbered steps of one member of the vendor pair."""
    skill = config.parent / "ada" / "skills" / member / "SKILL.md"
    text = skill.read_text().rstrip("\n")
    number = int(text.splitlines()[-1].split(".")[0]) + 1
    skill.write_text(f"{text}\n{number}. {step}\n")


@pytest.mark.parametrize(
    ("heading", "note", "replacement"),
    [
        # Russian, Greek, Armenian: scripts with case and spaces — the content words are read (the
        # notes start in lower case: a capitalised first word would be kept as a name anyway).
        ("Заметки", "⚠️ цены поставщику не называть; юрист утверждает каждую цифру.", "⚠️ пиши вежливо и кратко."),
        ("Σημειώσεις", "⚠️ μην αναφέρεις τιμές στον προμηθευτή.", "⚠️ γράψε ευγενικά."),
        ("Նշումներ", "⚠️ գները մատակարարին չասել։", "⚠️ գրիր քաղաքավարի։"),
        # Only short words (no content word): carried only by a text holding all of them.
        ("Notes", "⚠️ go up.", "⚠️ be nice."),
        # Chinese (no spaces): the meaning check keeps every word of it.
        ("注意", "不要告诉供应商价格。", "请礼貌。"),
    ],
)
def test_a_members_section_in_any_script_replaced_by_other_text_is_refused_and_both_stay(
    root: Path, fake_model: FakeModelServer, heading: str, note: str, replacement: str
) -> None:
    config = copy_example(root, fake_model.url)
    skills = config.parent / "ada" / "skills"
    member = skills / "email-vendors-in-german" / "SKILL.md"
    member.write_text(member.read_text() + f"\n## {heading}\n{note}\n")
    pair_before = {name: digest_tree(skills / name) for name in PAIR}
    fake_model.reply({**VENDOR, "sections": [{"heading": heading, "text": replacement}]}, schema="CanonicalSkill")

    entry = _library(config)

    vendor = next(d for d in entry["duplicates"] if d["names"] == PAIR)
    assert vendor["outcome"] == "refused", vendor["reason"]
    assert f"changes email-vendors-in-german section “{heading}”: {note}" in vendor["reason"]
    for name in PAIR:
        assert digest_tree(skills / name) == pair_before[name]


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ("Проверь счёт поставщика", "Проверь адрес поставщика"),
        ("Έλεγξε το τιμολόγιο του προμηθευτή", "Έλεγξε τη διεύθυνση του προμηθευτή"),
        ("Vérifier le côté", "Vérifier la couleur"),
    ],
)
def test_a_members_step_in_another_script_changed_into_another_step_is_lost_and_both_stay(
    root: Path, fake_model: FakeModelServer, mine: str, theirs: str
) -> None:
    config = copy_example(root, fake_model.url)
    skills = config.parent / "ada" / "skills"
    _with_member_step(config, "email-vendors-in-german", mine)
    _with_member_step(config, "vendor-email", theirs)
    pair_before = {name: digest_tree(skills / name) for name in PAIR}
    fake_model.reply({**VENDOR, "steps": [*VENDOR["steps"], theirs]}, schema="CanonicalSkill")

    entry = _library(config)

    vendor = next(d for d in entry["duplicates"] if d["names"] == PAIR)
    assert vendor["outcome"] == "refused"
    assert vendor["reason"] == f"the canonical version lost 1 step(s): email-vendors-in-german step 4: {mine}"
    for name in PAIR:
        assert digest_tree(skills / name) == pair_before[name]


def test_a_canonical_version_keeping_both_steps_in_another_script_merges(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = copy_example(root, fake_model.url)
    skills = config.parent / "ada" / "skills"
    _with_member_step(config, "email-vendors-in-german", "Проверь счёт поставщика")
    _with_member_step(config, "vendor-email", "Проверь адрес поставщика")
    steps = [*VENDOR["steps"], "Проверь адрес поставщика", "Проверь счёт поставщика"]
    fake_model.reply({**VENDOR, "steps": steps}, schema="CanonicalSkill")

    entry = _library(config)

    vendor = next(d for d in entry["duplicates"] if d["names"] == PAIR)
    assert vendor["outcome"] == "merged", vendor["reason"]
    assert "Проверь счёт поставщика" in (skills / "vendor-email/SKILL.md").read_text()

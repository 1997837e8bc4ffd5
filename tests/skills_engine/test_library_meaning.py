"""A canonical skill whose steps change what the duplicates said is refused, through `once --json` on the example."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.skills_engine.builders import TEST_KEY, digest_tree, once, pass_entry
from tests.skills_engine.test_example import VENDOR
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

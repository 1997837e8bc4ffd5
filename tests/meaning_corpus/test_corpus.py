"""The meaning corpus through the real checks: every planted change refused, few legitimate merges refused."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.meaning_corpus.judge import Verdict, verdicts

pytestmark = pytest.mark.slow  # the whole meaning corpus through every check

CATEGORIES = {
    "number",
    "negation",
    "polarity",
    "name",
    "email",
    "url",
    "path",
    "code",
    "date",
    "environment",
    "host",
    "channel",
    "secret",
    "strike-through",
    "invention",
    "uncased-word",
    "modality",
    "condition",
}
LEGITIMATE = {
    "rewording",
    "reordering",
    "duplicate",
    "case-punctuation",
    "plural",
    "union",
    "inflection",
    "pro-drop",
    "sentence-start",
}
MAX_FALSE_REFUSALS = 0.10


@pytest.fixture(scope="module")
def found() -> list[Verdict]:
    """The whole corpus through every check once for the module (some 12 s), not once per test."""
    return list(verdicts())


def test_the_corpus_plants_every_category_several_times_and_holds_legitimate_merges(found: list[Verdict]) -> None:
    planted = Counter(v.category for v in found if v.planted)
    legitimate = Counter(v.category for v in found if not v.planted)
    assert sum(planted.values()) >= 60 and sum(legitimate.values()) >= 40
    assert set(planted) == CATEGORIES and min(planted.values()) >= 4, planted
    assert set(legitimate) == LEGITIMATE and min(legitimate.values()) >= 3, legitimate
    assert len({v.id for v in found if v.planted}) == sum(planted.values())


def test_every_planted_meaning_change_is_refused_by_every_check_that_runs_it(found: list[Verdict]) -> None:
    missed = [f"{v.id}: {v.refused}" for v in found if v.planted and not v.correct]
    assert missed == [], f"catch rate below 100%: {missed}"


def test_legitimate_merges_are_refused_at_most_one_time_in_ten(found: list[Verdict]) -> None:
    legitimate = [v for v in found if not v.planted]
    refused = [f"{v.id}: {v.reasons}" for v in legitimate if not v.correct]
    assert len(refused) <= MAX_FALSE_REFUSALS * len(legitimate), refused

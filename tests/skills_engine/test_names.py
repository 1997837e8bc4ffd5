from __future__ import annotations

import random
from difflib import SequenceMatcher

import pytest

from skills_engine.names import NEAR_IDENTICAL_RATIO, NameRefused, near_identical, normalise, sanitise


@pytest.mark.parametrize(
    "raw",
    [
        "../../etc/evil",
        "/etc/passwd",
        "a/b",
        "a\\b",
        "..",
        "~root",
        ".hidden",
        "",
        "x" * 201,
        "a\x00b",
        "héllo",
    ],
)
def test_path_like_or_invalid_names_are_refused(raw: str) -> None:
    with pytest.raises(NameRefused):
        sanitise(raw)


def test_names_are_folded_to_the_skill_form() -> None:
    assert sanitise("  Weekly Ops_Report ") == "weekly-ops-report"


def test_name_longer_than_64_is_refused() -> None:
    with pytest.raises(NameRefused, match="longer than 64"):
        sanitise("a" * 65)


def test_near_identical_names() -> None:
    assert normalise("Weekly-Ops-Reports") == "weeklyopsreport"
    assert near_identical("weekly-ops-reports", ["weekly-ops-report", "other"]) == "weekly-ops-report"
    assert near_identical("weekly-op-report", ["weekly-ops-report"]) == "weekly-ops-report"
    assert near_identical("vendor-email", ["weekly-ops-report", "incident-postmortem"]) is None


def test_near_identical_rules_out_no_pair_the_full_ratio_would_accept() -> None:
    """The cheap bounds tried first (length, letters shared in any order) never exceed what
    difflib's ratio gives, so the first near-identical name found is the same."""
    rng = random.Random(20261206)
    alphabet = "abcdefghijklor-s"
    for _ in range(4000):
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        others = [_edited(rng, name, alphabet) for _ in range(4)]
        others += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14))) for _ in range(2)]
        key = normalise(name)
        expected = next(
            (
                o
                for o in sorted(set(others))
                if normalise(o) == key or SequenceMatcher(None, key, normalise(o)).ratio() >= NEAR_IDENTICAL_RATIO
            ),
            None,
        )
        assert near_identical(name, others) == expected, (name, others)


def _edited(rng: random.Random, name: str, alphabet: str) -> str:
    """`name` with one to three letters changed, added or taken out: pairs near the ratio."""
    letters = list(name)
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(letters))
        what = rng.choice(("change", "add", "drop"))
        if what == "add" or not letters:
            letters.insert(at, rng.choice(alphabet))
        elif what == "change":
            letters[min(at, len(letters) - 1)] = rng.choice(alphabet)
        else:
            del letters[min(at, len(letters) - 1)]
    return "".join(letters) or "a"

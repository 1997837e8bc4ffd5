from __future__ import annotations

import pytest

from skills_engine.names import NameRefused, near_identical, normalise, sanitise


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

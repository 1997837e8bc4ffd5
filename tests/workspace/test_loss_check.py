from __future__ import annotations

from workspace.loss_check import DeclaredMerge, check

AGENTS = """# Instructions

## Reports
- Post the weekly ops report in #ops.
- Flag any ticket priority that grew more than 20% week over week.
- Always flag priorities that grew by more than 20% compared with last week.

## Language
- Vendor emails are written in German.

```bash
python scripts/export_tickets.py --since last-monday > exports/tickets.csv
```

See the [escalation policy](https://wiki.example.com/ops/escalation) before paging anyone.
"""


def test_identical_text_keeps_every_unit() -> None:
    report = check({"AGENTS.md": AGENTS}, {"AGENTS.md": AGENTS})
    assert report.ok
    assert report.units_before == report.units_after == 6


def test_rewrite_that_drops_one_instruction_is_rejected_naming_that_unit() -> None:
    new = AGENTS.replace("- Vendor emails are written in German.\n", "")
    report = check({"AGENTS.md": AGENTS}, {"AGENTS.md": new})
    assert not report.ok
    assert [(f.file, f.line, f.kind, f.text) for f in report.lost] == [
        ("AGENTS.md", 9, "bullet", "Vendor emails are written in German.")
    ]
    assert "not in the new text" in report.lost[0].reason


def test_merge_of_two_phrasings_with_declared_mapping_passes() -> None:
    new = AGENTS.replace("- Always flag priorities that grew by more than 20% compared with last week.\n", "")
    merge = DeclaredMerge(
        kept="Flag any ticket priority that grew more than 20% week over week.",
        merged=("Always flag priorities that grew by more than 20% compared with last week.",),
    )
    report = check({"AGENTS.md": AGENTS}, {"AGENTS.md": new}, [merge])
    assert report.ok, report.lost
    assert report.units_after == report.units_before - 1
    assert report.merges[0].merged.startswith("Always flag priorities")
    assert report.merges[0].similarity >= 0.5


def test_the_same_merge_undeclared_is_a_loss() -> None:
    new = AGENTS.replace("- Always flag priorities that grew by more than 20% compared with last week.\n", "")
    report = check({"AGENTS.md": AGENTS}, {"AGENTS.md": new})
    assert [f.text for f in report.lost] == [
        "Always flag priorities that grew by more than 20% compared with last week."
    ]


def test_code_block_changed_by_one_byte_is_rejected() -> None:
    new = AGENTS.replace("--since last-monday", "--since last-mondaY")
    report = check({"AGENTS.md": AGENTS}, {"AGENTS.md": new})
    assert [f.kind for f in report.lost] == ["code"]
    assert "byte for byte" in report.lost[0].reason
    # The changed block is also new content nobody declared.
    assert [f.kind for f in report.added] == ["code"]


def test_code_block_cannot_be_declared_merged() -> None:
    new = AGENTS.replace("--since last-monday", "--since monday")
    block = AGENTS[AGENTS.index("```bash") : AGENTS.index("```\n\nSee") + 3]
    merge = DeclaredMerge(kept=new[new.index("```bash") : new.index("```\n\nSee") + 3], merged=(block,))
    report = check({"AGENTS.md": AGENTS}, {"AGENTS.md": new}, [merge])
    assert not report.ok
    assert report.lost[0].kind == "code"


def test_link_changed_is_rejected_even_in_case_only() -> None:
    new = AGENTS.replace("https://wiki.example.com/ops/escalation", "https://wiki.example.com/ops/Escalation")
    report = check({"AGENTS.md": AGENTS}, {"AGENTS.md": new})
    assert [f.kind for f in report.lost] == ["sentence"]
    assert report.lost[0].text.startswith("See the [escalation policy]")


def test_normalised_prose_counts_as_kept() -> None:
    new = AGENTS.replace("- Post the weekly ops report in #ops.", "* post the **weekly** ops report in #ops")
    assert check({"AGENTS.md": AGENTS}, {"AGENTS.md": new}).ok


def test_moving_a_unit_to_another_file_is_not_a_loss() -> None:
    old = {
        "SOUL.md": "- Be brief.\n- Jonas prefers bullet points over prose.\n",
        "USER.md": "- Jonas runs ops.\n",
    }
    new = {
        "SOUL.md": "- Be brief.\n",
        "USER.md": "- Jonas runs ops.\n- Jonas prefers bullet points over prose.\n",
    }
    assert check(old, new).ok


def test_merge_that_drops_a_number_is_refused() -> None:
    old = {"A.md": "- Flag growth above 20%.\n- Flag big growth week over week.\n"}
    new = {"A.md": "- Flag big growth week over week.\n"}
    merge = DeclaredMerge(kept="Flag big growth week over week.", merged=("Flag growth above 20%.",))
    report = check(old, new, [merge])
    assert len(report.lost) == 1
    assert "changes what it says: drops number “20%”" in report.lost[0].reason


def test_merge_that_drops_a_negation_is_refused() -> None:
    old = {"A.md": "- Never share customer data outside #ops.\n- Share the weekly report in #ops.\n"}
    new = {"A.md": "- Share customer data and the weekly report in #ops.\n"}
    merge = DeclaredMerge(
        kept="Share customer data and the weekly report in #ops.",
        merged=("Never share customer data outside #ops.", "Share the weekly report in #ops."),
    )
    report = check(old, new, [merge])
    assert [f.text for f in report.lost] == ["Never share customer data outside #ops."]
    assert "negation" in report.lost[0].reason


def test_merge_into_an_unrelated_sentence_is_refused() -> None:
    old = {"A.md": "- Vendor emails are written in German.\n- Be brief.\n"}
    new = {"A.md": "- Be brief.\n"}
    merge = DeclaredMerge(kept="Be brief.", merged=("Vendor emails are written in German.",))
    report = check(old, new, [merge])
    assert "not similar enough" in report.lost[0].reason


def test_merge_into_a_sentence_missing_from_the_new_text_is_refused() -> None:
    old = {"A.md": "- Be brief.\n- Keep answers short.\n"}
    new = {"A.md": "- Be brief.\n"}
    merge = DeclaredMerge(kept="Be brief and keep answers short.", merged=("Keep answers short.",))
    report = check(old, new, [merge])
    assert "not in the new text" in report.lost[0].reason


def test_invented_content_is_reported_as_added() -> None:
    old = {"A.md": "- Be brief.\n"}
    new = {"A.md": "# Style\n\n- Be brief.\n- Always share customer data with vendors.\n"}
    report = check(old, new)
    assert not report.ok
    assert [f.text for f in report.added] == ["Always share customer data with vendors."]


def test_table_rows_are_units() -> None:
    old = {"T.md": "| who | when |\n| --- | --- |\n| Priya | week 49 |\n| Omar | week 50 |\n"}
    new = {"T.md": "| who | when |\n|---|---|\n| Priya | week 49 |\n"}
    report = check(old, new)
    assert [(f.kind, f.text) for f in report.lost] == [("row", "| Omar | week 50 |")]

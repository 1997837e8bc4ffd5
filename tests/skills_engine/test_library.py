from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from skills_engine import provenance
from skills_engine.provenance import Event, Provenance
from tests.skills_engine.builders import (
    NOW,
    digest_tree,
    make_skill,
    once,
    pass_entry,
    skill_md,
    skills_config,
)
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer

REPORT_STEPS = ["Read exports/tickets.csv", "Count tickets by priority", "Flag growth over 20 percent"]


def learned(root: Path, name: str, text: str, age_days: int = 0, files: dict[str, str] | None = None) -> None:
    make_skill(root / "ada" / "skills", name, text, files)
    at = (NOW - timedelta(days=age_days)).isoformat()
    record = Provenance(
        name=name, kind="created", created_at=at, history=[Event(at=at, run_id="r", action="created")]
    )
    write = provenance.sidecar_write("skills", record)
    (root / "ada" / write.path).write_bytes(write.content)


def library(config: Path, hours: int = 1, key: bool = True) -> dict[str, Any]:
    return pass_entry(
        once(config, "library_maintenance", key="sk-test-SECRET-0123456789" if key else None, hours=hours),
        "library_maintenance",
    )


def near_duplicates(root: Path, url: str | None) -> Path:
    config = skills_config(root, url)
    learned(
        root,
        "weekly-ops-report",
        skill_md("weekly-ops-report", "Weekly ops report from the ticket export.", REPORT_STEPS),
        3,
        {"templates/report.md": "# Report\n"},
    )
    learned(
        root,
        "ops-weekly-summary",
        skill_md(
            "ops-weekly-summary",
            "Summarise weekly ops tickets by priority.",
            ["Read exports/tickets.csv", "Count tickets by priority", "Post the summary to #ops"],
        ),
        1,
        {"templates/report.md": "# Summary\n"},
    )
    learned(
        root,
        "vendor-email",
        skill_md("vendor-email", "Write vendor emails in German.", ["Write in German", "Copy the manager"]),
    )
    make_skill(root / "packs", "incident-postmortem")
    return config


CANONICAL = {
    "duplicates": True,
    "reason": "both build the weekly ops report",
    "name": "weekly-ops-report",
    "description": "Build the weekly ops report from the ticket export and post it to #ops.",
    "trigger": "When asked for the weekly ops report",
    "steps": [
        "Read exports/tickets.csv",
        "Count tickets by priority",
        "Flag growth over 20 percent",
        "Post the summary to #ops",
    ],
    "sections": [],
}


def test_identical_duplicates_merge_without_a_model(root: Path) -> None:
    config = skills_config(root, None)
    text = skill_md("x", "Same thing.", REPORT_STEPS)
    learned(root, "report-a", text.replace("name: x", "name: report-a").replace("# x", "# Report a"), 2)
    learned(root, "report-b", text.replace("name: x", "name: report-b").replace("# x", "# Report b"), 5)
    make_skill(root / "ada" / "skills", "report-c", text.replace("name: x", "name: report-c"))  # hand-written
    entry = library(config, key=False)
    assert entry["status"] == "applied"
    assert entry["duplicates"][0]["outcome"] == "merged"
    assert entry["duplicates"][0]["reason"] == "identical skills report-b, report-a merged into report-b"
    skills = root / "ada" / "skills"
    assert not (skills / "report-a").exists() and not (skills / "report-a.provenance.json").exists()
    assert (skills / "report-b/SKILL.md").exists() and (skills / "report-c/SKILL.md").exists()
    record = json.loads((skills / "report-b.provenance.json").read_text())
    assert record["merged_from"] == ["report-a"]
    assert record["history"][-1]["action"] == "merged-duplicates"


def test_near_duplicates_without_a_model_are_pending(root: Path) -> None:
    config = near_duplicates(root, None)
    before = digest_tree(root / "ada")
    entry = library(config, key=False)
    assert entry["status"] == "skipped"
    assert entry["pending"] == [
        "near-duplicates ops-weekly-summary, weekly-ops-report: need the deep model "
        "(no model configured (add a `model:` section to the config))"
    ]
    assert digest_tree(root / "ada") == before


def test_near_duplicates_merge_with_every_step_kept_and_one_undo_restores_all(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = near_duplicates(root, fake_model.url)
    library_before = tree_snapshot(root / "ada", skip=["transcripts"])
    packs_before = digest_tree(root / "packs")
    fake_model.reply(CANONICAL, schema="CanonicalSkill")
    result = once(config, "library_maintenance", hours=1)
    entry = pass_entry(result, "library_maintenance")
    assert entry["duplicates"] == [
        {
            "names": ["ops-weekly-summary", "weekly-ops-report"],
            "outcome": "merged",
            "reason": "ops-weekly-summary, weekly-ops-report merged into weekly-ops-report: both build the weekly ops report",
        }
    ]
    skills = root / "ada" / "skills"
    assert not (skills / "ops-weekly-summary").exists()
    text = (skills / "weekly-ops-report/SKILL.md").read_text()
    for step in CANONICAL["steps"]:
        assert step in text
    # Both members had a templates/report.md: both contents are kept.
    assert (skills / "weekly-ops-report/templates/report.md").read_text() == "# Report\n"
    assert (skills / "weekly-ops-report/templates/report.ops-weekly-summary.md").read_text() == "# Summary\n"
    record = json.loads((skills / "weekly-ops-report.provenance.json").read_text())
    assert record["kind"] == "merged" and record["merged_from"] == ["ops-weekly-summary"]
    assert (skills / "vendor-email/SKILL.md").exists()
    assert digest_tree(root / "packs") == packs_before
    shown = run_cli(config, "show", result["run_id"]).out
    assert "skills/ops-weekly-summary/SKILL.md" in shown and "duplicates merged" in shown
    assert run_cli(config, "undo", result["run_id"]).code == 0
    assert tree_snapshot(root / "ada", skip=["transcripts"]) == library_before


def test_a_canonical_version_that_loses_a_step_is_refused(root: Path, fake_model: FakeModelServer) -> None:
    config = near_duplicates(root, fake_model.url)
    before = digest_tree(root / "ada")
    fake_model.reply({**CANONICAL, "steps": CANONICAL["steps"][:3]}, schema="CanonicalSkill")
    entry = library(config)
    assert entry["duplicates"][0]["outcome"] == "refused"
    assert (
        "lost 1 step(s): ops-weekly-summary step 3: Post the summary to #ops"
        in entry["duplicates"][0]["reason"]
    )
    assert digest_tree(root / "ada") == before


def test_a_canonical_name_colliding_outside_the_group_is_refused(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = near_duplicates(root, fake_model.url)
    fake_model.reply({**CANONICAL, "name": "vendor-emails"}, schema="CanonicalSkill")
    entry = library(config)
    assert "collides with skill vendor-email" in entry["duplicates"][0]["reason"]


DISTINCT = {
    **CANONICAL,
    "duplicates": False,
    "reason": "one writes to vendors, the other to customers",
    "name": "",
    "steps": [],
    "sections": [],
}


@pytest.mark.slow
def test_a_nonsense_distinct_verdict_is_not_remembered_and_counts_as_a_failure(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = near_duplicates(root, fake_model.url)
    echo = {**DISTINCT, "reason": "empty if not duplicates"}  # a small model echoing the schema
    fake_model.reply(echo, schema="CanonicalSkill")
    first = library(config)
    (group,) = first["duplicates"]
    assert group["outcome"] == "pending" and "repeats the answer's own schema" in group["reason"]
    state_file = root / "ada/.metaeng/skill-library.json"
    assert not state_file.exists() or json.loads(state_file.read_text())["distinct"] == {}
    fake_model.reply(DISTINCT, schema="CanonicalSkill")
    second = library(config, hours=2)
    assert second["model_calls"] == 1 and second["duplicates"][0]["outcome"] == "distinct"  # asked again


def test_groups_judged_distinct_are_not_asked_again(root: Path, fake_model: FakeModelServer) -> None:
    config = near_duplicates(root, fake_model.url)
    fake_model.reply(DISTINCT, schema="CanonicalSkill")
    first = library(config)
    assert first["duplicates"][0]["outcome"] == "distinct" and first["model_calls"] == 1
    state = json.loads((root / "ada/.metaeng/skill-library.json").read_text())
    assert state["version"] == 1 and len(state["distinct"]) == 1
    second = library(config, hours=2)
    assert second["model_calls"] == 0 and second["duplicates"] == [] and second["status"] == "nothing"


def test_review_autonomy_proposes_model_merges(root: Path, fake_model: FakeModelServer) -> None:
    config = near_duplicates(root, fake_model.url)
    raw = config.read_text().replace("    home:", "    autonomy: review\n    home:")
    config.write_text(raw)
    before = digest_tree(root / "ada" / "skills")
    fake_model.reply(CANONICAL, schema="CanonicalSkill")
    entry = library(config)
    assert entry["duplicates"][0]["outcome"] == "proposed"
    assert digest_tree(root / "ada" / "skills") == before
    assert [p["kind"] for p in run_cli(config, "review", "list", "--json").json()] == ["skill-merge"]
    again = library(config, hours=2)
    assert again["model_calls"] == 0 and "waits in the review queue" in again["pending"][0]


def test_tidy_renumbers_steps_of_machine_written_skills_only(root: Path) -> None:
    config = skills_config(root, None)
    messy = skill_md("messy", "Messy.", ["One"]).replace("1. One", "1. One\n1. Two\n5. Three\n1. One")
    learned(root, "messy", messy)
    make_skill(root / "ada" / "skills", "hand", messy.replace("name: messy", "name: hand"))
    entry = library(config, key=False)
    assert entry["tidied"] == [
        {"name": "messy", "changes": ["removed repeated step 1: One", "renumbered steps 1..n"]}
    ]
    assert "1. One\n2. Two\n3. Three\n" in (root / "ada/skills/messy/SKILL.md").read_text()
    assert (root / "ada/skills/hand/SKILL.md").read_text() == messy.replace("name: messy", "name: hand")


def test_tidy_never_takes_steps_in_other_scripts_for_repeats(root: Path) -> None:
    # Steps written in Cyrillic, Chinese, Greek, Hindi or only in symbols are each their own
    # step: tidying removes a step only when it repeats an earlier one word for word.
    steps = ["Открыть очередь", "Закрыть дубликаты", "打开队列", "关闭重复", "Κλείσε το αίτημα", "टिकट खोलें", "✅", "🚀"]
    text = skill_md("polyglot", "Triage in several languages.", steps)
    learned(root, "polyglot", text)
    config = skills_config(root, None)

    entry = library(config, key=False)

    assert entry["tidied"] == []
    assert (root / "ada/skills/polyglot/SKILL.md").read_text() == text
    # A true repeat in such a script is still removed.
    learned(root, "polyglot", text.replace("8. 🚀", "8. 🚀\n9. Открыть  очередь"))
    again = library(config, key=False, hours=2)
    assert again["tidied"] == [{"name": "polyglot", "changes": ["removed repeated step 9: Открыть  очередь"]}]
    assert (root / "ada/skills/polyglot/SKILL.md").read_text() == text


def test_a_skill_md_that_is_not_utf8_is_reported_with_its_line_and_never_stops_the_pass(root: Path) -> None:
    config = skills_config(root, None)
    messy = skill_md("messy", "Messy.", ["One"]).replace("1. One", "1. One\n1. Two")
    learned(root, "messy", messy)
    latin1 = skill_md("greet", "Greet.", ["Say hello"]).encode("utf-8") + "2. Sign with Grüße\n".encode(
        "latin-1"
    )
    learned(root, "greet", "")
    (root / "ada/skills/greet/SKILL.md").write_bytes(latin1)
    listed = run_cli(config, "skills", "list", "--agent", "ada")
    assert f"{root / 'ada/skills/greet/SKILL.md'}:10: not valid UTF-8 (byte 0xfc" in listed.err
    entry = library(config, key=False)
    assert entry["status"] == "applied", entry
    assert [t["name"] for t in entry["tidied"]] == ["messy"]
    assert (root / "ada/skills/greet/SKILL.md").read_bytes() == latin1


def test_a_model_failure_stops_further_calls_and_leaves_the_work_pending(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = near_duplicates(root, fake_model.url)
    steps = ["Open the on-call calendar", "Read next week's primary", "Reply with the name"]
    learned(root, "on-call-lookup", skill_md("on-call-lookup", "Find who is on call.", steps))
    learned(
        root,
        "oncall-finder",
        skill_md("oncall-finder", "Look up the on-call engineer.", [*steps[:2], "Post it"]),
    )
    before = digest_tree(root / "ada")
    fake_model.reply(status=500)
    entry = library(config)
    assert len(fake_model.requests) == 1
    assert entry["status"] == "skipped" and len(entry["pending"]) == 2
    assert "model server answered HTTP 500" in entry["pending"][0]
    assert digest_tree(root / "ada") == before


def test_a_corrupt_library_state_file_fails_the_pass_naming_it(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = near_duplicates(root, fake_model.url)
    state = root / "ada/.metaeng/skill-library.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text('{"version": 2, "distinct": {}}')
    before = digest_tree(root / "ada")
    result = once(config, "library_maintenance")
    entry = pass_entry(result, "library_maintenance")
    assert entry["status"] == "failed" and result["_code"] == 1
    assert entry["reason"].startswith(f"{state} has version 2; this daemon reads up to version 1")
    assert digest_tree(root / "ada") == before
    assert fake_model.requests == []


def test_tidy_keeps_steps_that_differ_only_in_a_vowel_sign_or_a_letter_case_folding_would_merge(
    root: Path,
) -> None:
    # मेल (mail) and माल (goods) differ only in a vowel sign, a combining mark; "Maßen" and
    # "Massen" only in a letter that case folding turns into "ss".
    steps = ["ग्राहक को मेल भेजें", "ग्राहक को माल भेजें", "बिल भेजें", "बेल भेजें", "In Maßen trinken", "In Massen trinken"]
    text = skill_md("dispatch", "Dispatch an order.", steps)
    learned(root, "dispatch", text)
    config = skills_config(root, None)

    entry = library(config, key=False)

    assert entry["tidied"] == []
    assert (root / "ada/skills/dispatch/SKILL.md").read_text() == text
    # True repeats are still removed, also one whose accent is typed as a combining mark.
    nfd = "IN MASSEN TRINKEN, Mu\u0308nchen"
    learned(root, "dispatch", text.replace("6. In Massen trinken", "6. In Massen trinken, München\n7. ग्राहक  को मेल भेजें\n8. " + nfd))
    again = library(config, key=False, hours=2)
    assert again["tidied"] == [
        {"name": "dispatch", "changes": ["removed repeated step 7: ग्राहक  को मेल भेजें", f"removed repeated step 8: {nfd}"]}
    ]
    assert (root / "ada/skills/dispatch/SKILL.md").read_text() == text.replace("In Massen trinken", "In Massen trinken, München")


def test_tidy_keeps_steps_that_differ_only_in_a_symbol_and_removes_a_repeat_in_other_punctuation(
    root: Path,
) -> None:
    # A currency, maths or number sign, or the # of C#, changes what a step says.
    steps = [
        "Refund up to $500 without approval",
        "Refund up to €500 without approval",
        "Write the parser in C++",
        "Write the parser in C#",
        "Set the clock offset to -5 hours",
        "Set the clock offset to 5 hours",
        "₹500 से कम हो तो भुगतान करें",
        "$500 से कम हो तो भुगतान करें",
        "Alert when latency ≥ 200 ms",
        "Alert when latency ≤ 200 ms",
        "Retry after 1.5 s",
        "Retry after 15 s",
        "Run `make`.",
    ]
    text = skill_md("payments", "Handle payments.", steps)
    learned(root, "payments", text)
    config = skills_config(root, None)

    entry = library(config, key=False)

    assert entry["tidied"] == []
    assert (root / "ada/skills/payments/SKILL.md").read_text() == text
    # Case, quotes, backticks, emphasis and sentence marks alone do not make a new step.
    learned(root, "payments", text.replace("13. Run `make`.", "13. Run `make`.\n14. run make\n15. **Write the parser in C#!**"))
    again = library(config, key=False, hours=2)
    assert again["tidied"] == [
        {"name": "payments", "changes": ["removed repeated step 14: run make", "removed repeated step 15: **Write the parser in C#!**"]}
    ]
    assert (root / "ada/skills/payments/SKILL.md").read_text() == text


def test_near_duplicate_skills_written_in_russian_are_a_candidate_group(root: Path) -> None:
    config = skills_config(root, None)
    steps = ["Открыть выгрузку заявок", "Посчитать заявки по приоритету", "Отметить рост больше 20 процентов"]
    learned(root, "tickets-weekly", skill_md("tickets-weekly", "Еженедельный отчёт по заявкам из выгрузки.", steps), 3)
    learned(
        root,
        "ops-summary",
        skill_md("ops-summary", "Еженедельная сводка заявок по приоритету.", [*steps[:2], "Отправить сводку в #ops"]),
        1,
    )
    learned(root, "vendor-letter", skill_md("vendor-letter", "Письмо поставщику на немецком.", ["Написать письмо"]))

    entry = library(config, key=False)

    assert entry["pending"] == [
        "near-duplicates ops-summary, tickets-weekly: need the deep model "
        "(no model configured (add a `model:` section to the config))"
    ]

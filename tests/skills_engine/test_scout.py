from __future__ import annotations

import json
from pathlib import Path

import pytest

from daemon.kernel.changeset import FileWrite
from skills_engine import provenance
from skills_engine.provenance import Event, Provenance
from tests.skills_engine.builders import (
    NOW,
    add_turns,
    candidate,
    digest_tree,
    make_skill,
    once,
    pass_entry,
    skill_md,
    skills_config,
)
from tests.support.deploy import conversation, run_cli, tree_snapshot, write_transcript
from tests.support.fake_model import FakeModelServer

POSTMORTEM = skill_md(
    "incident-postmortem",
    "Write a blameless postmortem. Use after a P1 incident.",
    ["Build the timeline with scripts/timeline.py", "Fill templates/postmortem.md", "Share it in #ops"],
    [("When to use", "After any P1."), ("Notes", "Keep it blameless.")],
)


def created_sidecar(home: Path, name: str) -> None:
    record = Provenance(
        name=name,
        kind="created",
        created_at=NOW.isoformat(),
        history=[Event(at=NOW.isoformat(), run_id="r0", action="created", cites=["t@0"])],
    )
    write: FileWrite = provenance.sidecar_write("skills", record)
    (home / write.path).write_bytes(write.content)


def scenario(root: Path, url: str, **agent: object) -> Path:
    config = skills_config(root, url, **agent)
    home = root / "ada"
    make_skill(
        root / "packs",
        "incident-postmortem",
        POSTMORTEM,
        {"templates/postmortem.md": "# Postmortem\n\n## Summary\n"},
    )
    make_skill(root / "managed", "web-research")
    make_skill(
        home / "skills",
        "weekly-report",
        skill_md("weekly-report", "Weekly report. Use on Mondays.", ["Pull tickets", "Post to #ops"]),
    )
    created_sidecar(home, "weekly-report")
    add_turns(home, 5)
    return config


SCRIPT = [
    candidate("skip", "web-research", reason="already covered"),
    candidate("update", "weekly-report", steps=["Mention who is on call next week"], cites=["T2"]),
    candidate(
        "update",
        "incident-postmortem",
        steps=["Add a Customer impact section"],
        cites=["T3"],
        file_additions=[{"path": "templates/postmortem.md", "text": "## Customer impact\n"}],
    ),
    candidate(
        "create",
        "vendor-email",
        description="Write vendor emails in German.",
        trigger="When writing to a vendor",
        steps=["Write in German", "Copy the account manager"],
        cites=["T1", "T4"],
    ),
    candidate("create", "weekly-reports", description="Dup.", steps=["Post the summary"]),
    candidate("create", "../../etc/evil", description="Evil.", steps=["x"]),
    candidate("update", "no-such-skill", steps=["x"]),
]


def test_scout_outcomes_on_disk_and_in_the_report(root: Path, fake_model: FakeModelServer) -> None:
    config = scenario(root, fake_model.url)
    home = root / "ada"
    pack_before = digest_tree(root / "packs")
    fake_model.reply({"candidates": SCRIPT}, schema="ScoutResponse")
    result = once(config, "skill_learning")
    entry = pass_entry(result, "skill_learning")
    outcomes = [(c["name"], c["outcome"]) for c in entry["candidates"]]
    assert outcomes == [
        ("web-research", "skipped"),
        ("weekly-report", "updated"),
        ("incident-postmortem", "forked"),
        ("vendor-email", "created"),
        ("weekly-reports", "stopped-near-duplicate"),
        ("../../etc/evil", "refused"),
        ("no-such-skill", "refused"),
    ]
    by_name = {c["name"]: c for c in entry["candidates"]}
    assert "weekly-report already exists" in by_name["weekly-reports"]["reason"]
    assert "path separator" in by_name["../../etc/evil"]["reason"]
    assert "no skill named 'no-such-skill'" in by_name["no-such-skill"]["reason"]
    assert all(c["action"] and "reason" in c for c in entry["candidates"])
    # On disk.
    own = (home / "skills/weekly-report/SKILL.md").read_text()
    assert own.endswith("1. Pull tickets\n2. Post to #ops\n3. Mention who is on call next week\n")
    fork = (home / "skills/incident-postmortem/SKILL.md").read_text()
    assert "4. Add a Customer impact section" in fork and "Keep it blameless." in fork
    assert (
        (home / "skills/incident-postmortem/templates/postmortem.md")
        .read_text()
        .endswith("## Customer impact\n")
    )
    created = (home / "skills/vendor-email/SKILL.md").read_text()
    assert "name: vendor-email" in created and "1. Write in German\n2. Copy the account manager" in created
    assert not (home / "skills/weekly-reports").exists()
    assert not (root / "etc").exists() and not (home / "etc").exists()
    assert digest_tree(root / "packs") == pack_before
    # Every create/update cites the turns it rests on, in the report and in the sidecar.
    cites = by_name["vendor-email"]["cites"]
    assert (
        len(cites) == 2
        and cites[0] == "transcripts/t1.jsonl@0"
        and cites[1].startswith("transcripts/t1.jsonl@")
    )
    sidecar = json.loads((home / "skills/vendor-email.provenance.json").read_text())
    assert sidecar["kind"] == "created" and sidecar["machine_written"] is True
    assert sidecar["history"][0]["cites"] == by_name["vendor-email"]["cites"]
    own_sidecar = json.loads((home / "skills/weekly-report.provenance.json").read_text())
    assert [e["action"] for e in own_sidecar["history"]] == ["created", "updated"]
    # The prompt carried the whole inventory, managed and pack skills included.
    prompt = fake_model.requests[-1]["messages"][1]["content"]
    for name in ("web-research", "incident-postmortem", "weekly-report"):
        assert f'"name":"{name}"' in prompt


def test_the_report_names_the_action_only_where_the_outcome_does_not_say_it(
    root: Path, fake_model: FakeModelServer
) -> None:
    # "created create vendor-email" said the verb twice.
    config = scenario(root, fake_model.url)
    fake_model.reply({"candidates": SCRIPT}, schema="ScoutResponse")

    result = run_cli(config, "once", "--agent", "ada", "--pass", "skill_learning")

    assert result.code == 0, result.err
    lines = [line.strip().split(":")[0] for line in result.out.splitlines() if line.startswith("      ")]
    assert lines == [
        "skipped web-research",
        "updated weekly-report",
        "forked incident-postmortem",
        "created vendor-email",
        "stopped-near-duplicate create weekly-reports",
        "refused create ../../etc/evil",
        "refused update no-such-skill",
    ]
    run_id = result.out.split()[1]
    shown = run_cli(config, "show", run_id).out
    assert "    created vendor-email: " in shown and "    skipped web-research: already covered" in shown
    assert "created create" not in shown and "skipped skip" not in shown


@pytest.mark.slow
def test_undo_of_a_scout_run_removes_created_skills_and_forks(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = scenario(root, fake_model.url)
    home = root / "ada"
    before = tree_snapshot(home, skip=["transcripts"])
    fake_model.reply({"candidates": SCRIPT}, schema="ScoutResponse")
    run_id = once(config, "skill_learning")["run_id"]
    assert (home / "skills/vendor-email").exists()
    undo = run_cli(config, "undo", run_id)
    assert undo.code == 0, undo.err
    after = tree_snapshot(home, skip=["transcripts"])
    assert after == before
    assert not (home / "skills/incident-postmortem").exists()
    assert not (home / ".metaeng/fork-bases/incident-postmortem").exists()


def test_fewer_than_four_turns_commits_offsets_without_a_model_call(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    add_turns(root / "ada", 3)
    entry = pass_entry(once(config, "skill_learning"), "skill_learning")
    assert entry["status"] == "nothing" and "fewer than 4" in entry["reason"]
    assert fake_model.requests == []
    add_turns(root / "ada", 3, name="t2.jsonl")
    # The first three turns were consumed: three new ones are again fewer than four.
    assert "3 new turn(s)" in pass_entry(once(config, "skill_learning", hours=1), "skill_learning")["reason"]


def test_without_a_model_the_scout_is_skipped_and_its_turns_kept(root: Path) -> None:
    config = skills_config(root, None)
    add_turns(root / "ada", 5)
    entry = pass_entry(once(config, "skill_learning"), "skill_learning")
    assert entry["status"] == "skipped" and "no model configured" in entry["reason"]
    again = pass_entry(once(config, "skill_learning", hours=1), "skill_learning")
    assert again["turns"] == 5


def test_invalid_model_answer_is_refused_and_changes_nothing(root: Path, fake_model: FakeModelServer) -> None:
    config = scenario(root, fake_model.url)
    before = tree_snapshot(root, skip=["state"])
    fake_model.reply({"candidates": [{"action": "destroy", "name": "x"}]}, schema="ScoutResponse")
    result = once(config, "skill_learning")
    entry = pass_entry(result, "skill_learning")
    assert entry["status"] == "skipped" and "model answer rejected" in entry["reason"]
    assert "does not match the schema" in entry["reason"]
    assert result["_code"] == 0
    assert tree_snapshot(root, skip=["state"]) == before


def test_uncited_or_wrongly_cited_candidates_are_refused(root: Path, fake_model: FakeModelServer) -> None:
    config = scenario(root, fake_model.url)
    fake_model.reply(
        {
            "candidates": [
                candidate("create", "new-one", description="d", steps=["s"], cites=[]),
                candidate("create", "new-two", description="d", steps=["s"], cites=["T99"]),
            ]
        },
        schema="ScoutResponse",
    )
    entry = pass_entry(once(config, "skill_learning"), "skill_learning")
    reasons = [(c["outcome"], c["reason"]) for c in entry["candidates"]]
    assert reasons == [("refused", "cites no turn"), ("refused", "cites turn(s) T99, which were not sent")]
    assert not (root / "ada/skills/new-one").exists()


def test_create_is_written_as_is_when_the_name_check_cannot_complete(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = scenario(root, fake_model.url)
    (root / "managed" / "web-research" / "SKILL.md").unlink()
    (root / "managed" / "web-research").rmdir()
    (root / "managed").rmdir()
    fake_model.reply(
        {"candidates": [candidate("create", "vendor-email", description="d", steps=["Write in German"])]},
        schema="ScoutResponse",
    )
    entry = pass_entry(once(config, "skill_learning"), "skill_learning")
    item = entry["candidates"][0]
    assert item["outcome"] == "created" and "name check could not complete" in item["as_is"]
    sidecar = json.loads((root / "ada/skills/vendor-email.provenance.json").read_text())
    assert "could not complete" in sidecar["as_is"]


def test_create_that_cannot_be_formatted_is_written_as_is(root: Path, fake_model: FakeModelServer) -> None:
    config = scenario(root, fake_model.url)
    fake_model.reply(
        {"candidates": [candidate("create", "loose-idea", description="", capability="Some idea", steps=[])]},
        schema="ScoutResponse",
    )
    item = pass_entry(once(config, "skill_learning"), "skill_learning")["candidates"][0]
    assert item["outcome"] == "created" and item["as_is"].startswith("formatting could not complete")
    text = (root / "ada/skills/loose-idea/SKILL.md").read_text()
    assert "name: loose-idea" in text and "Written as is by the skill scout" in text


def test_review_autonomy_turns_creates_and_updates_into_proposals(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = scenario(root, fake_model.url, autonomy="review")
    home = root / "ada"
    own_before = (home / "skills/weekly-report/SKILL.md").read_bytes()
    fake_model.reply({"candidates": SCRIPT[1:4]}, schema="ScoutResponse")
    entry = pass_entry(once(config, "skill_learning"), "skill_learning")
    assert [c["outcome"] for c in entry["candidates"]] == ["proposed", "proposed", "proposed"]
    assert (home / "skills/weekly-report/SKILL.md").read_bytes() == own_before
    assert not (home / "skills/vendor-email").exists() and not (home / "skills/incident-postmortem").exists()
    listing = run_cli(config, "review", "list", "--json").json()
    assert sorted(p["kind"] for p in listing) == ["skill-create", "skill-fork", "skill-update"]
    fork_id = next(p["id"] for p in listing if p["kind"] == "skill-fork")
    assert run_cli(config, "review", "approve", fork_id).code == 0
    assert "Add a Customer impact section" in (home / "skills/incident-postmortem/SKILL.md").read_text()
    assert (home / ".metaeng/fork-bases/incident-postmortem/SKILL.md").read_text() == POSTMORTEM


def test_file_additions_outside_the_skill_are_refused(root: Path, fake_model: FakeModelServer) -> None:
    config = scenario(root, fake_model.url)
    before = tree_snapshot(root, skip=["state"])
    fake_model.reply(
        {
            "candidates": [
                candidate(
                    "update", "weekly-report", file_additions=[{"path": "../../AGENTS.md", "text": "obey me"}]
                ),
                candidate("update", "weekly-report", file_additions=[{"path": "/etc/passwd", "text": "x"}]),
                candidate("update", "weekly-report", file_additions=[{"path": "missing.md", "text": "x"}]),
            ]
        },
        schema="ScoutResponse",
    )
    entry = pass_entry(once(config, "skill_learning"), "skill_learning")
    assert [c["outcome"] for c in entry["candidates"]] == ["refused", "refused", "refused"]
    assert "must not contain '..'" in entry["candidates"][0]["reason"]
    assert "absolute path" in entry["candidates"][1]["reason"]
    assert "missing.md is not a file of the skill" in entry["candidates"][2]["reason"]
    assert tree_snapshot(root, skip=["state"]) == before


def test_dry_run_plans_the_scout_and_applies_nothing(root: Path, fake_model: FakeModelServer) -> None:
    config = scenario(root, fake_model.url)
    before = tree_snapshot(root, skip=["state"])
    fake_model.reply({"candidates": SCRIPT[3:4]}, schema="ScoutResponse")
    result = run_cli(
        config, "once", "--agent", "ada", "--pass", "skill_learning", "--dry-run", "--with-model", "--json"
    ).json()
    assert "skills/vendor-email/SKILL.md" in result["files_changed"]
    assert "+1. Write in German" in result["preview"]
    assert tree_snapshot(root, skip=["state"]) == before


def test_an_update_adds_steps_written_in_any_script(root: Path, fake_model: FakeModelServer) -> None:
    config = scenario(root, fake_model.url)
    home = root / "ada"
    said = "Потом упомяни дежурного на следующей неделе. 然后提醒值班人员。"
    write_transcript(home, "t2.jsonl", conversation([(f"Weekly report, part {i}. {said}", "OK") for i in range(4)]))
    steps = ["Упомянуть дежурного на следующей неделе", "然后提醒值班人员"]
    fake_model.reply(
        {"candidates": [candidate("update", "weekly-report", steps=steps, cites=["T6"])]}, schema="ScoutResponse"
    )

    entry = pass_entry(once(config, "skill_learning"), "skill_learning")

    assert [(c["name"], c["outcome"]) for c in entry["candidates"]] == [("weekly-report", "updated")], entry
    assert (home / "skills/weekly-report/SKILL.md").read_text().endswith(
        "1. Pull tickets\n2. Post to #ops\n3. Упомянуть дежурного на следующей неделе\n4. 然后提醒值班人员\n"
    )



def test_an_update_adds_a_step_that_differs_only_in_a_symbol_but_not_a_repeat(
    root: Path, fake_model: FakeModelServer
) -> None:
    # "@ops" is not "#ops"; "post to #ops." only repeats step 2 in case and punctuation.
    config = scenario(root, fake_model.url)
    home = root / "ada"
    said = "Then post to @ops as well, and post to #ops."
    write_transcript(home, "t2.jsonl", conversation([(f"Weekly report, part {i}. {said}", "OK") for i in range(4)]))
    steps = ["Post to @ops", "post to #ops."]
    fake_model.reply(
        {"candidates": [candidate("update", "weekly-report", steps=steps, cites=["T6"])]}, schema="ScoutResponse"
    )

    entry = pass_entry(once(config, "skill_learning"), "skill_learning")

    assert [(c["name"], c["outcome"]) for c in entry["candidates"]] == [("weekly-report", "updated")], entry
    assert (home / "skills/weekly-report/SKILL.md").read_text().endswith(
        "1. Pull tickets\n2. Post to #ops\n3. Post to @ops\n"
    )

def test_steps_in_chinese_or_japanese_taken_from_the_cited_turns_are_learned_and_made_up_ones_refused(
    root: Path, fake_model: FakeModelServer
) -> None:
    # No spaces between the words: a step is a part of a clause, not a whole clause.
    config = skills_config(root, fake_model.url)
    home = root / "ada"
    zh = "每周报告：先导出工单，然后按优先级统计，最后提醒值班人员。"
    ja = "週次レポート：チケットを書き出して、優先度ごとに数えて、当番に知らせてください。"
    write_transcript(home, "t1.jsonl", conversation([(zh, "OK"), (ja, "OK"), (zh, "OK"), (ja, "OK")]))
    fake_model.reply(
        {
            "candidates": [
                candidate("create", "weekly-report", description="Weekly report.", steps=["导出工单", "按优先级统计", "提醒值班人员"]),
                candidate("create", "ticket-count", description="Weekly report.", cites=["T2"], steps=["チケットを書き出す", "優先度ごとに数える", "当番に知らせる"]),
                candidate("create", "cleanup", description="Cleanup.", steps=["导出工单", "删除所有客户数据", "关闭服务器"]),
            ]
        },
        schema="ScoutResponse",
    )

    entry = pass_entry(once(config, "skill_learning"), "skill_learning")

    outcomes = {c["name"]: (c["outcome"], c["reason"]) for c in entry["candidates"]}
    assert outcomes["weekly-report"][0] == "created" and outcomes["ticket-count"][0] == "created", outcomes
    assert outcomes["cleanup"] == ("refused", "ungrounded: the cited turns do not say “删除所有客户数据”; “关闭服务器”")
    assert "2. 按优先级统计" in (home / "skills/weekly-report/SKILL.md").read_text(encoding="utf-8")

"""`metaeng-daemon impact` on a small deployment in tmp_path: a plain transcript where the
person corrects the agent, a fact learned from it through `once` with the scripted model, a
later session that reads the facts view and one where the person says it again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from tests.support.deploy import conversation, message, run_cli, tree_snapshot, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

SAID = "No, we use pnpm, not npm."


def first_session(root: Path) -> None:
    """Replace the helper's transcript with a session of four turns, the first a correction."""
    (root / "ada" / "transcripts" / "s1.jsonl").unlink()
    pairs = [
        ("Install the deps.", "Running npm install."),
        (SAID, "OK, pnpm."),
        ("Thanks!", "Welcome."),
        ("Bye.", "Bye."),
    ]
    write_transcript(root / "ada", "s1.jsonl", conversation(pairs, day="2026-11-02"))


def learn(root: Path, fake_model: FakeModelServer, config: Path) -> None:
    fact = berlin_fact(
        turn="T2", quote="we use pnpm, not npm", entity="project", key="package_manager", value="pnpm"
    )
    fake_model.reply({"facts": [fact]}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    stored = run_cli(config, "memory", "list", "--agent", "ada", "--json").json()["records"]
    assert [(r["key"], r["value"]) for r in stored] == [("package_manager", "pnpm")]


def later_sessions(root: Path) -> None:
    """A session that reads the facts view (a delivery), then one where the person says it again."""
    view = json.dumps(
        {"role": "assistant", "content": "", "ts": "2026-11-10T09:00:30Z",
         "tool_calls": [{"function": {"name": "read_file", "arguments": json.dumps({"path": "FACTS.md"})}}]}
    )  # fmt: skip
    delivered = message("user", "Good morning.", "2026-11-10T09:00:00Z") + view + "\n"
    delivered += message("assistant", "Morning!", "2026-11-10T09:01:00Z") + '{"type": "session_end"}\n'
    write_transcript(root / "ada", "s2.jsonl", delivered)
    again = [("Set up CI.", "Adding npm ci to the workflow."), ("I told you, pnpm, not npm!", "Sorry, pnpm.")]
    write_transcript(root / "ada", "s3.jsonl", conversation(again, day="2026-11-17"))


def deployment(root: Path, fake_model: FakeModelServer) -> Path:
    config = setup_agent(root, fake_model)
    settings = yaml.safe_load(config.read_text(encoding="utf-8"))
    # package_manager among the keys; the facts view the agent reads in the next session
    settings["agents"]["ada"]["memory"] = {"allowed_keys": "coding", "markdown_view": "FACTS.md"}
    config.write_text(yaml.safe_dump(settings, sort_keys=False), encoding="utf-8")
    first_session(root)
    learn(root, fake_model, config)
    later_sessions(root)
    return config


def only_item(document: dict[str, Any]) -> dict[str, Any]:
    (item,) = document["items"]
    return item


def test_impact_links_the_correction_to_its_fact_and_counts_the_recurrence_after_delivery(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    result = run_cli(config, "impact", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    document = result.json()
    item = only_item(document)
    assert item["kind"] == "correction"
    assert (
        item["first"]["quote"] == SAID
        and item["first"]["session"].endswith("s1.jsonl")
        and item["first"]["turn"] == 3
    )
    assert [(f["key"], f["value"]) for f in item["learned"]] == [("package_manager", "pnpm")]
    assert item["delivered_by"] == "facts_view_read" and item["delivered_at"].startswith("2026-11-10")
    (again,) = item["recurrences"]
    assert again["quote"] == "I told you, pnpm, not npm!" and again["after_delivery"] is True
    assert item["recurrences_after_delivery"] == 1 and item["never_learned"] is False
    assert document["figures"]["repeated_after_delivery"] == 1
    assert document["corrections_never_learned"] == []
    assert [(w["week"], w["repeated_after_delivery"]) for w in document["trend"]] == [
        ("2026-11-02", 0),
        ("2026-11-16", 1),
    ]


def test_impact_prints_items_learned_delivered_and_said_again(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    result = run_cli(config, "impact", "--agent", "ada")
    assert result.code == 0, result.err
    out = result.out
    assert out.startswith(
        "agent ada: 1 item(s) in 3 session(s); 1 learned, 1 delivered, 1 said again, 1 said again after delivery"
    )
    assert f"item-1  correction  “{SAID}”" in out
    assert "learned: project.package_manager = pnpm" in out
    assert "delivered: 2026-11-10T09:00:30+00:00 (facts_view_read)" in out
    assert (
        "said again 2026-11-17 in transcripts/s3.jsonl (after delivery): “I told you, pnpm, not npm!”" in out
    )
    assert "corrections never learned: 0" in out


def test_impact_reads_without_moving_cursors(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    before = tree_snapshot(root / "state", skip=("fact_index",))
    assert run_cli(config, "impact", "--agent", "ada", "--json").code == 0
    after = tree_snapshot(root / "state", skip=("fact_index",))
    cursors = {k: v for k, v in after.items() if "cursor" in k}
    assert cursors and cursors == {k: v for k, v in before.items() if "cursor" in k}


def test_impact_since_keeps_the_items_said_on_or_after_the_day(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    write_transcript(
        root / "ada",
        "s4.jsonl",
        conversation([("Always write commit messages in English.", "Will do.")], day="2026-11-24"),
    )
    late = run_cli(config, "impact", "--agent", "ada", "--since", "2026-11-20", "--json").json()
    assert [i["first"]["quote"] for i in late["items"]] == ["Always write commit messages in English."]
    assert late["since"] == "2026-11-20" and [w["week"] for w in late["trend"]] == ["2026-11-23"]
    middle = run_cli(config, "impact", "--agent", "ada", "--since", "2026-11-15", "--json").json()
    assert [i["first"]["quote"] for i in middle["items"]] == [
        SAID,
        "Always write commit messages in English.",
    ]


def test_impact_without_a_fact_lists_the_correction_as_never_learned(root: Path) -> None:
    config = setup_agent(root, None)
    write_transcript(
        root / "ada",
        "s9.jsonl",
        conversation([("Wrong, the standup is at 9:30, not 10.", "Fixed.")], day="2026-11-05"),
    )
    document = run_cli(config, "impact", "--agent", "ada", "--json").json()
    item = only_item(document)
    assert item["never_learned"] is True and item["learned"] == [] and item["delivered_at"] is None
    assert document["corrections_never_learned"] == [item["id"]]
    text = run_cli(config, "impact", "--agent", "ada").out
    assert "corrections never learned: 1" in text and "learned: nothing" in text


def test_impact_of_an_unknown_agent_names_it_and_changes_nothing(root: Path) -> None:
    config = setup_agent(root, None)
    before = tree_snapshot(root)
    result = run_cli(config, "impact", "--agent", "nobody")
    assert result.code == 1
    assert "unknown agent 'nobody'" in result.err and "ada" in result.err
    assert tree_snapshot(root) == before


def test_impact_refuses_a_since_that_is_not_a_day(root: Path) -> None:
    config = setup_agent(root, None)
    result = run_cli(config, "impact", "--agent", "ada", "--since", "last week")
    assert result.code == 1 and "--since: 'last week' is not a day (YYYY-MM-DD)" in result.err

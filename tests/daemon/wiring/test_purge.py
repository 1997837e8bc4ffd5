"""`memory forget --purge`: the values leave the home, every commit, the state folder and
the lab ledgers; every other run is still listed, shown and undoable."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from daemon.kernel.review_queue import make_change, new_proposal, proposal_write
from daemon.kernel.view import AgentView
from memory_engine.markdown_text import facts_view
from memory_engine.records import FactRecord
from tests.support.deploy import conversation, run_cli, tree_snapshot
from tests.support.facts import shard_of, store_records, stored_fact
from tests.support.fake_model import FakeModelServer
from tests.support.request_layout import data_of
from tests.support.runs import add_turns, berlin_fact, setup_agent

pytestmark = pytest.mark.slow  # runs, then a purge and its history rewrite, in every test

FIRST, SECOND = "Zorblattheim", "Quuxtonbury"
FACTS = ".metaeng/facts.jsonl.d"


def facts_text(root: Path) -> str:
    """Every fact-store file of the home, concatenated (the layout is the fact store's business)."""
    return "".join(p.read_text() for p in sorted((root / "ada").rglob("facts.jsonl*")) if p.is_file()) + "".join(
        p.read_text() for p in sorted((root / "ada" / FACTS).rglob("*.jsonl"))
    )


def state(root: Path) -> Path:
    return root / "state" / "agents" / "ada"


def git(root: Path, *args: str, text: bool = True) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(
        ["git", f"--git-dir={state(root) / 'store.git'}", f"--work-tree={root / 'ada'}", *args],
        capture_output=True, text=text, env=env,
    )


def hits(root: Path, *values: str) -> list[str]:
    """Every place under the state folder, the home (but the runtime's own transcripts), the
    ledgers and the store's objects that still holds one of `values`."""
    found = []
    for base in (root / "state", root / "ada", root / "ledgers"):
        for path in base.rglob("*"):
            if path.is_file() and "transcripts" not in path.relative_to(root).parts:
                data = path.read_bytes()
                found += [f"{path}: {v}" for v in values if v.encode() in data]
    objects = git(root, "cat-file", "--batch-all-objects", "--batch", text=False).stdout
    found += [f"object: {v}" for v in values if v.encode() in objects]
    return found


def seed(root: Path, model: FakeModelServer) -> tuple[Path, list[str]]:
    """Three runs that learn, change and keep a city; a proposal and a ledger quoting it."""
    config = setup_agent(root, model)
    raw = yaml.safe_load(config.read_text())
    raw["console"] = {"lab_ledgers": ["ledgers"]}
    config.write_text(yaml.safe_dump(raw))
    home = root / "ada"
    (home / "transcripts" / "s1.jsonl").write_text(
        conversation([(f"I live in {FIRST}.", "Noted."), ("I speak German at work.", "Good."), ("Hi?", "Hi."), ("Ok.", "Ok.")])
    )
    os.utime(home / "transcripts" / "s1.jsonl", (1_700_000_000, 1_700_000_000))
    model.reply(
        {"facts": [berlin_fact(value=FIRST, quote=f"I live in {FIRST}"),
                   berlin_fact(turn="T2", quote="I speak German", key="language", value="German")]},
        schema="DistillationResponse",
    )
    runs = [run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]]
    add_turns(root, "s2.jsonl", first=f"I moved to {SECOND}.")
    model.reply(
        {"facts": [berlin_fact(value=SECOND, quote=f"I moved to {SECOND}", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )
    runs.append(run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"])
    add_turns(root, "s3.jsonl", first="My timezone is CET.")
    model.reply(
        {"facts": [berlin_fact(quote="My timezone is CET", key="timezone", value="CET", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )
    runs.append(run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"])
    now = datetime(2026, 11, 5, tzinfo=UTC)
    view = AgentView(home)
    proposal = new_proposal(
        kind="instruction", agent="ada", title=f"Mention {SECOND}", target="AGENTS.md",
        rationale=f"the user lives in {SECOND} (was {FIRST})", evidence=[f"I moved to {SECOND}"],
        changes=[make_change(view, "AGENTS.md", f"# Instructions\n\n- The user lives in {SECOND}.\n")],
        now=now, run_id=runs[-1],
    )
    write = proposal_write(proposal)
    (home / write.path).parent.mkdir(parents=True, exist_ok=True)
    (home / write.path).write_bytes(write.content)
    ledger = root / "ledgers" / "run-1"
    ledger.mkdir(parents=True)
    (ledger / "events.jsonl").write_text(json.dumps({"answer": f"{SECOND} and {FIRST}"}) + "\n")
    default_ledger = root / "state" / "lab" / "distill-20261105T000000Z"  # `lab distill`'s default place
    default_ledger.mkdir(parents=True)
    (default_ledger / "answers.jsonl").write_text(json.dumps({"facts": [FIRST, SECOND]}) + "\n")
    run_cli(config, "once", "--agent", "ada")  # the proposal enters the store as an external edit
    return config, [r for r in runs if r]


def test_purge_leaves_no_byte_of_the_values_and_every_other_run_works(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, runs = seed(root, fake_model)
    assert hits(root, FIRST, SECOND), "the seed must plant the values"
    before = {r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()}

    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge", "--yes", "--json"
    )

    assert result.code == 0, result.err
    body = result.json()
    assert body["values_purged"] == 2 and body["history_rewritten"] and len(body["value_hashes"]) == 2
    assert hits(root, FIRST, SECOND) == []
    git(root, "gc", "--aggressive", "--prune=now")
    assert hits(root, FIRST, SECOND) == []
    assert git(root, "fsck", "--strict").returncode == 0
    after = {r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()}
    assert before | {body["run_id"]} == after
    for run_id in runs:
        shown = run_cli(config, "show", run_id)
        assert shown.code == 0 and run_id in shown.out
    facts = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert sorted(r["key"] for r in facts) == ["language", "timezone"]
    undone = run_cli(config, "undo", runs[-1])
    assert undone.code == 0, undone.err
    assert "timezone" not in facts_text(root)
    listed = run_cli(config, "memory", "purges", "--agent", "ada", "--json").json()["purges"]
    assert [(p["entity"], p["key"], len(p["value_hashes"])) for p in listed] == [("user", "city", 2)]
    assert FIRST not in json.dumps(listed)


def test_purge_then_once_does_not_learn_the_value_again(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge", "--yes")
    fake_model.reply({"facts": [berlin_fact(value=FIRST, quote=f"I live in {FIRST}")]}, schema="DistillationResponse")
    asked = len(fake_model.schema_names())

    again = run_cli(config, "once", "--agent", "ada", "--json")

    assert again.code == 0
    assert len(fake_model.schema_names()) == asked  # no consumed turn is read again
    assert hits(root, FIRST, SECOND) == []


def test_purge_of_one_value_keeps_the_other_versions(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)

    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city",
        "--purge", "--value", FIRST, "--yes",
    )

    assert result.code == 0, result.err
    values = {r["value"] for r in run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]}
    assert SECOND in values and FIRST not in values
    assert hits(root, FIRST) == []


def test_purge_of_an_unknown_value_is_refused_and_changes_nothing(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    snapshot = tree_snapshot(root)

    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city",
        "--purge", "--value", "Atlantis", "--yes",
    )

    assert result.code == 1 and "--value" in result.err and "nothing changed" in result.err
    assert tree_snapshot(root, skip=("state/agents/ada/run-index.sqlite3",)) == {
        k: v for k, v in snapshot.items() if k != "state/agents/ada/run-index.sqlite3"
    }


def test_purge_without_yes_off_a_terminal_is_refused_and_changes_nothing(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    head = git(root, "rev-parse", "HEAD").stdout

    result = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge")

    assert result.code == 1 and "--yes" in result.err and "nothing changed" in result.err
    assert git(root, "rev-parse", "HEAD").stdout == head
    assert SECOND in facts_text(root)


def test_value_and_yes_need_purge(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)

    result = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--value", "x")

    assert result.code == 1 and "only go with --purge" in result.err
    assert SECOND in facts_text(root)


@pytest.mark.parametrize("purge", [(), ("--purge", "--yes"), ("--purge", "--yes", "--forbid")])
@pytest.mark.parametrize(("entity", "key", "named"), [("user", "city\x00", "--key"), ("us\ner", "city", "--entity")])
def test_a_control_character_in_entity_or_key_is_refused_by_name_and_changes_nothing(
    root: Path, fake_model: FakeModelServer, purge: tuple[str, ...], entity: str, key: str, named: str
) -> None:
    config, _runs = seed(root, fake_model)
    head = git(root, "rev-parse", "HEAD").stdout

    result = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", entity, "--key", key, *purge)

    assert result.code == 1, result.err
    assert result.err.startswith(f"error: {named}: must not contain a control character") and "nothing changed" in result.err
    assert git(root, "rev-parse", "HEAD").stdout == head


def test_purge_of_nothing_says_so(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)

    result = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "nobody", "--key", "city", "--purge", "--yes")

    assert result.code == 0 and "nothing to purge" in result.out
    assert run_cli(config, "memory", "purges", "--agent", "ada").out.strip() == "no purges"


def test_forbid_keeps_new_turns_from_teaching_the_key_again(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city",
        "--purge", "--forbid", "--yes", "--json",
    )
    assert result.code == 0 and result.json()["forbidden"], result.err
    add_turns(root, "s4.jsonl", first=f"I live in {FIRST} again.")
    fake_model.reply(
        {"facts": [berlin_fact(value=FIRST, quote=f"I live in {FIRST} again", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )

    again = run_cli(config, "once", "--agent", "ada", "--json")

    assert again.code == 0, again.err
    assert "city" not in data_of(fake_model.requests[-1], "memory_keys")["allowed_keys"]
    assert hits(root, FIRST, SECOND) == []
    assert FIRST not in facts_text(root)


def test_without_forbid_new_turns_teach_the_value_again(root: Path, fake_model: FakeModelServer) -> None:
    config, _runs = seed(root, fake_model)
    run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge", "--yes")
    add_turns(root, "s4.jsonl", first=f"I live in {FIRST} again.")
    fake_model.reply(
        {"facts": [berlin_fact(value=FIRST, quote=f"I live in {FIRST} again", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )

    assert run_cli(config, "once", "--agent", "ada").code == 0

    assert FIRST in facts_text(root)


def test_a_refused_version_is_purged_too_and_retry_cannot_bring_it_back(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, _runs = seed(root, fake_model)
    add_turns(root, "s5.jsonl", first="Weather is fine.")
    fake_model.reply(
        {"facts": [berlin_fact(value=FIRST, quote=f"I adore {FIRST}", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )
    refused_run = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    assert FIRST in run_cli(config, "memory", "refused", "--agent", "ada").out

    run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge", "--yes")

    assert run_cli(config, "memory", "refused", "--agent", "ada", "--json").json() == []
    retried = run_cli(config, "memory", "retry", "--agent", "ada", "--run", refused_run, "--json")
    assert retried.code in (0, 1)
    assert retried.code == 1 or retried.json()["run_id"] is None
    assert hits(root, FIRST, SECOND) == []


def test_purge_rerenders_the_facts_view_from_what_remains(root: Path, fake_model: FakeModelServer) -> None:
    """The view after a purge is the view of the remaining store, byte for byte (the erased
    shards read from the home, the untouched ones from the query index)."""
    config, _runs = seed(root, fake_model)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"]["memory"] = {"markdown_view": "FACTS.md"}
    config.write_text(yaml.safe_dump(raw))
    home = root / "ada"
    for i in range(300):
        path = home / shard_of(entity=f"e{i:03d}")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as shard:
            shard.write(json.dumps(stored_fact(id=f"f-{i:03d}", entity=f"e{i:03d}", value=f"v{i}", valid_from="2026-10-01")) + "\n")
    assert run_cli(config, "memory", "query", "--agent", "ada", "--entity", "e001", "--key", "city").code == 0

    result = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge", "--yes")

    assert result.code == 0, result.err
    records = [FactRecord.model_validate(r) for r in store_records(home)]
    assert len(records) == 302  # language, timezone and the 300
    assert (home / "FACTS.md").read_bytes() == facts_view(records, datetime.now(UTC).date().isoformat())
    assert hits(root, FIRST, SECOND) == []


@pytest.mark.parametrize("forbid", [True, False], ids=["forbid", "no-forbid"])
def test_purge_finds_a_value_waiting_in_a_memory_proposal_and_approving_it_stores_nothing(
    root: Path, fake_model: FakeModelServer, forbid: bool
) -> None:
    config = setup_agent(root, fake_model, autonomy="review")
    home = root / "ada"
    (home / "transcripts" / "s1.jsonl").write_text(
        conversation([(f"I live in {FIRST}.", "Noted."), ("I speak German.", "Ok."), ("Hi?", "Hi."), ("Ok.", "Ok.")])
    )
    os.utime(home / "transcripts" / "s1.jsonl", (1_700_000_000, 1_700_000_000))
    fake_model.reply({"facts": [berlin_fact(value=FIRST, quote=f"I live in {FIRST}")]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    (proposal,) = run_cli(config, "review", "list", "--json").json()
    assert hits(root, FIRST)

    result = run_cli(
        config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city",
        "--purge", *(["--forbid"] if forbid else []), "--yes", "--json",
    )

    assert result.code == 0, result.err
    assert result.json()["values_purged"] == 1 and result.json()["history_rewritten"]
    assert hits(root, FIRST) == []
    approved = run_cli(config, "review", "approve", proposal["id"])
    # Applied with nothing left to store (the purge emptied it): no empty shard either.
    assert approved.code == 0, approved.err
    assert run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"] == []
    assert not [p for p in (home / ".metaeng").rglob("*.jsonl") if p.stat().st_size == 0]
    assert hits(root, FIRST) == []

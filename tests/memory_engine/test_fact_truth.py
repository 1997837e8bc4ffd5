"""What distillation learns, beyond the claim check, through the CLI with a scripted model:
candidates for one key and date are weighed, not taken first come first served; a held
conflict waits for `memory keep`; a tentative statement is confirmed by a later turn; a
stated start sets valid_from; the project's facts are grounded by "we" and "our"."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.memory_engine.test_fact_grounding import distill_said
from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact


def refused(root: Path, *extra: str) -> list[dict[str, Any]]:
    result = run_cli(root / "config.yaml", "memory", "refused", "--agent", "ada", "--json", *extra)
    assert result.code == 0, result.err
    entries: list[dict[str, Any]] = result.json()
    return entries


def facts(root: Path) -> list[tuple[str, str, str, str]]:
    listing = run_cli(root / "config.yaml", "memory", "list", "--agent", "ada", "--all", "--json").json()
    return [(r["entity"], r["key"], r["value"], r["valid_from"]) for r in listing["records"]]


def listing_id(root: Path) -> str:
    (record,) = run_cli(root / "config.yaml", "memory", "list", "--agent", "ada", "--json").json()["records"]
    return str(record["id"])


def store_files(root: Path) -> str:
    """Every file of the agent home and its git history, as one comparable listing."""
    home = root / "ada"
    files = sorted(
        (str(p.relative_to(home)), p.read_bytes()) for p in home.rglob("*") if p.is_file() and ".git" not in p.parts
    )
    head = subprocess.run(["git", "-C", str(home), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    return repr((files, head))


def test_a_weaker_candidate_never_blocks_a_firmer_one_whatever_the_order(root: Path, fake_model: FakeModelServer) -> None:
    said = "I live in Mitte, Berlin. I live in Berlin since I took the job."
    weaker = berlin_fact(quote="I live in Mitte, Berlin", value="Berlin Mitte")  # every word, not as written
    firmer = berlin_fact(quote="I live in Berlin since I took the job")
    entry = distill_said(root, fake_model, said, weaker, firmer)
    assert entry["stored"] == 1 and entry["rejected"] == 1, entry
    assert "weaker_conflict" in entry["rejected_facts"][0] and "'Berlin'" in entry["rejected_facts"][0]
    assert facts(root) == [("user", "city", "Berlin", "2026-11-02")]


def test_two_values_as_firm_as_each_other_are_both_held_until_a_person_keeps_one(
    root: Path, fake_model: FakeModelServer
) -> None:
    said = "I live in Berlin. Well, I live in Paris too, half the year."
    entry = distill_said(
        root, fake_model, said, berlin_fact(), berlin_fact(quote="I live in Paris too", value="Paris")
    )
    assert "stored" not in entry and "rejected" not in entry and entry["held"] == 2, entry
    assert facts(root) == []
    held = refused(root, "--reason", "held_conflict")
    assert sorted(e["value"] for e in held) == ["Berlin", "Paris"]
    assert all(e["status"] == "held" and e["settled"] is None for e in held)
    config = root / "config.yaml"
    run = held[0]["run_id"]

    before = store_files(root)
    ambiguous = run_cli(config, "memory", "keep", "--agent", "ada", "--run", run, "--entity", "user", "--key", "city")
    assert ambiguous.code == 1 and "'Berlin', 'Paris'" in ambiguous.err and "--value" in ambiguous.err
    unknown = run_cli(config, "memory", "keep", "--agent", "ada", "--run", "r-none", "--entity", "user", "--key", "city")
    assert unknown.code == 1 and "refused no user.city" in unknown.err
    assert store_files(root) == before

    kept = run_cli(
        config, "memory", "keep", "--agent", "ada", "--run", run, "--entity", "user", "--key", "city",
        "--value", "Paris", "--json",
    )
    assert kept.code == 0, kept.err
    body = kept.json()
    assert (body["value"], body["valid_from"]) == ("Paris", "2026-11-02")
    assert facts(root) == [("user", "city", "Paris", "2026-11-02")]
    settled = {e["value"]: e["settled"] for e in refused(root)}
    assert settled["Paris"] == f"kept as {body['record_id']} by a person"
    assert settled["Berlin"] == f"not kept: another value was kept as {body['record_id']}"
    assert refused(root, "--open") == []
    again = run_cli(
        config, "memory", "keep", "--agent", "ada", "--run", run, "--entity", "user", "--key", "city", "--value", "Paris"
    )
    assert again.code == 1 and "already settled" in again.err

    undone = run_cli(config, "undo", body["run_id"], "--agent", "ada")
    assert undone.code == 0, undone.err
    assert facts(root) == [] and len(refused(root, "--open")) == 2


def test_a_tentative_statement_is_no_fact_until_a_later_turn_confirms_it(root: Path, fake_model: FakeModelServer) -> None:
    entry = distill_said(root, fake_model, "I might move to Berlin next year.", berlin_fact(quote="I might move to Berlin"))
    assert entry["rejected"] == 1 and ": tentative — " in entry["rejected_facts"][0]
    assert facts(root) == []
    (tentative,) = refused(root, "--reason", "tentative")
    assert tentative["settled"] is None
    pairs = [("We signed the lease: I live in Berlin now.", "Congratulations!"), ("Thanks.", "Sure."), ("Ok.", "Ok."), ("Bye.", "Bye.")]
    write_transcript(root / "ada", "s2.jsonl", conversation(pairs, day="2026-11-20"))
    fake_model.reply(
        {"facts": [berlin_fact(quote="I live in Berlin now", valid_from="2026-11-20")]}, schema="DistillationResponse"
    )
    result = run_cli(root / "config.yaml", "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    entry = next(p for p in result.json()["passes"] if p["name"] == "distillation")
    assert entry["stored"] == 1
    assert facts(root) == [("user", "city", "Berlin", "2026-11-20")]
    (confirmed,) = refused(root, "--reason", "tentative")
    assert confirmed["settled"] == f"confirmed by {listing_id(root)}"
    assert refused(root, "--open") == []


def test_a_start_the_quote_states_sets_valid_from(root: Path, fake_model: FakeModelServer) -> None:
    entry = distill_said(
        root, fake_model, "I have lived in Berlin since March 2023.", berlin_fact(quote="I have lived in Berlin since March 2023")
    )
    assert entry["stored"] == 1, entry
    assert facts(root) == [("user", "city", "Berlin", "2023-03-01")]


def test_a_start_in_another_language_sets_valid_from(root: Path, fake_model: FakeModelServer) -> None:
    entry = distill_said(
        root, fake_model, "Ich wohne seit 2021 in Berlin.", berlin_fact(quote="Ich wohne seit 2021 in Berlin")
    )
    assert entry["stored"] == 1, entry
    assert facts(root) == [("user", "city", "Berlin", "2021-01-01")]


def coding(root: Path) -> None:
    """Agent ada with the coding key preset."""
    path = root / "config.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config["agents"]["ada"]["memory"] = {"allowed_keys": "coding"}
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def project_fact(quote: str, key: str, value: str) -> dict[str, Any]:
    return berlin_fact(quote=quote, entity="project", key=key, value=value)


def test_the_projects_facts_are_grounded_by_we_and_our(root: Path, fake_model: FakeModelServer) -> None:
    said = "Our staging DB is db-staging.internal and we deploy with `make ship`. We don't use yarn."
    distill_said(root, fake_model, "Hello.")  # sets the agent up; its one answer stores nothing
    coding(root)
    pairs = [(said, "Noted."), ("Thanks.", "Sure."), ("Ok.", "Ok."), ("Bye.", "Bye.")]
    write_transcript(root / "ada", "s2.jsonl", conversation(pairs))
    fake_model.reply(
        {
            "facts": [
                project_fact("Our staging DB is db-staging.internal", "staging_url", "db-staging.internal"),
                project_fact("we deploy with `make ship`", "deploy_command", "make ship"),
                project_fact("We don't use yarn", "package_manager", "yarn"),
                project_fact("Our staging DB is db-staging.internal", "editor", "vim"),
            ]
        },
        schema="DistillationResponse",
    )
    result = run_cli(root / "config.yaml", "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    entry = next(p for p in result.json()["passes"] if p["name"] == "distillation")
    assert entry["stored"] == 2, entry
    assert sorted(facts(root)) == [
        ("project", "deploy_command", "make ship", "2026-11-02"),
        ("project", "staging_url", "db-staging.internal", "2026-11-02"),
    ]
    reasons = sorted(e["reason"] for e in refused(root))
    assert reasons == ["negated", "ungrounded"]


def test_a_project_fact_without_we_or_the_projects_name_is_refused(root: Path, fake_model: FakeModelServer) -> None:
    entry = distill_said(
        root, fake_model, "The README says pnpm.", project_fact("The README says pnpm", "city", "pnpm")
    )
    assert entry["rejected"] == 1
    assert "does not name 'project' nor speak of it as \"we\" or \"our\"" in entry["rejected_facts"][0]


def test_a_runtime_chooses_the_key_preset_and_config_show_says_so(root: Path, tmp_path: Path) -> None:
    home = tmp_path / "coder"
    home.mkdir()
    config = tmp_path / "config.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "version": 1,
                "state_dir": str(tmp_path / "state"),
                "agents": {
                    "coder": {"home": str(home), "transcripts": {"format": "claude-code", "root": str(tmp_path / "cc")}},
                    "chat": {"home": str(tmp_path / "chat"), "memory": {"allowed_keys": ["city", "pet"]}},
                },
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / "chat").mkdir()
    (tmp_path / "cc").mkdir()
    shown = run_cli(config, "config", "show", "--agent", "coder")
    assert shown.code == 0, shown.err
    line = next(x for x in shown.out.splitlines() if "memory.allowed_keys" in x)
    assert "test_command" in line and "coding preset for runtime claude-code" in line
    chat = run_cli(config, "config", "show", "--agent", "chat")
    line = next(x for x in chat.out.splitlines() if "memory.allowed_keys" in x)
    assert "pet" in line and "test_command" not in line and "preset" not in line

    bad = yaml.safe_load(config.read_text(encoding="utf-8"))
    bad["agents"]["chat"]["memory"]["allowed_keys"] = "codeing"
    config.write_text(yaml.safe_dump(bad), encoding="utf-8")
    check = run_cli(config, "config", "check")
    assert check.code == 1 and "'codeing' is not a key preset (chat, coding)" in check.err


@pytest.mark.parametrize(
    ("said", "quote", "key", "value"),
    [
        ("Everything here goes through pnpm.", "Everything here goes through pnpm", "package_manager", "pnpm"),
        ("Tests run with `npm test -- --runInBand`.", "Tests run with `npm test -- --runInBand`", "test_command", "npm test -- --runInBand"),
        ("On déploie avec `make deploy-prod` depuis main.", "On déploie avec `make deploy-prod`", "deploy_command", "make deploy-prod"),
        ("Usamos pnpm en este repo.", "Usamos pnpm en este repo", "package_manager", "pnpm"),
    ],
)
def test_a_project_fact_said_without_we_is_grounded_by_here_or_its_key(
    root: Path, fake_model: FakeModelServer, said: str, quote: str, key: str, value: str
) -> None:
    distill_said(root, fake_model, "Hello.")
    coding(root)
    pairs = [(said, "Noted."), ("Thanks.", "Sure."), ("Ok.", "Ok."), ("Bye.", "Bye.")]
    write_transcript(root / "ada", "s2.jsonl", conversation(pairs))
    fake_model.reply({"facts": [project_fact(quote, key, value)]}, schema="DistillationResponse")
    result = run_cli(root / "config.yaml", "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    entry = next(p for p in result.json()["passes"] if p["name"] == "distillation")
    assert entry.get("stored") == 1, entry
    assert facts(root) == [("project", key, value, "2026-11-02")]

"""Transcript paths resolve inside the agent home or its transcript root (issue 12, item 7).

Real files, real symlinks; passes run through `once --json` against the scripted model
server, so "nothing sent to the model" is what the server received.
"""

from __future__ import annotations

import dataclasses
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from daemon.config.loader import load_deployment
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts.files import OutsideRoot, TranscriptSource, list_transcripts, source_of
from daemon.transcripts.reader import read_file
from tests.support.deploy import base_config, conversation, run_cli, tree_snapshot, write_config
from tests.support.runs import FOUR_TURNS, OTHER_PASSES, berlin_fact

SECRET = [(f"Ben's private question {i}?", f"Ben's private answer {i}.") for i in range(4)]
NOW_TS = 1_700_000_000
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def deployment(root: Path, url: str, **ada: Any) -> Path:
    """Agents ada and ben, distillation only; `ada` keys merged into ada's config."""
    config = base_config(root, url, agents=("ada", "ben"))
    config["passes"] = {name: name == "distillation" for name in ("distillation", *OTHER_PASSES)}
    config["agents"]["ada"].update(ada)
    return write_config(root, config)


def jsonl(path: Path, pairs: list[tuple[str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(conversation(pairs), encoding="utf-8")
    os.utime(path, (NOW_TS, NOW_TS))
    return path


def distillation(result_json: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in result_json["passes"] if p["name"] == "distillation")


def consumed(root: Path, agent: str = "ada") -> dict[str, Any]:
    path = root / "state" / "agents" / agent / "cursors.json"
    body = json.loads(path.read_text()) if path.exists() else {}
    files: dict[str, Any] = body.get("consumers", {}).get("distillation", {})
    return files


def test_a_transcripts_symlink_to_another_agents_folder_is_refused_and_never_read(
    root: Path, fake_model: Any
) -> None:
    config = deployment(root, fake_model.url)
    jsonl(root / "ben" / "transcripts" / "s1.jsonl", SECRET)
    (root / "ada" / "transcripts").symlink_to(root / "ben" / "transcripts", target_is_directory=True)
    ben_before = tree_snapshot(root / "ben")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distillation(result.json())
    assert entry["status"] == "nothing" and entry["turns"] == 0
    assert entry["warnings"] == [
        f"transcripts: resolves to {root}/ben/transcripts, outside the transcript root {root}/ada; not read"
    ]
    assert fake_model.requests == []
    assert consumed(root) == {}
    assert tree_snapshot(root / "ben") == ben_before
    assert not (root / "state" / "agents" / "ben").exists()
    status = run_cli(config, "status", "--agent", "ada", "--json").json()["agents"][0]
    assert status["pending_turns"] == 0


def test_a_symlinked_subfolder_is_not_descended_and_the_rest_is_read(root: Path, fake_model: Any) -> None:
    config = deployment(root, fake_model.url)
    jsonl(root / "ben" / "transcripts" / "s1.jsonl", SECRET)
    jsonl(root / "ada" / "transcripts" / "s1.jsonl", FOUR_TURNS)
    (root / "ada" / "transcripts" / "ben").symlink_to(root / "ben" / "transcripts", target_is_directory=True)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distillation(result.json())
    assert entry["status"] == "applied" and entry["turns"] == 4
    assert "transcripts/ben: folder is a symlink; not followed" in entry["warnings"]
    sent = json.dumps(fake_model.requests)
    assert "I live in Berlin." in sent and "private" not in sent
    assert list(consumed(root)) == ["transcripts/s1.jsonl"]


def test_a_symlink_back_inside_the_home_is_followed_only_while_its_real_path_stays_inside(
    root: Path, fake_model: Any
) -> None:
    config = deployment(root, fake_model.url)
    jsonl(root / "ada" / "sessions" / "s1.jsonl", FOUR_TURNS)
    (root / "ada" / "transcripts").symlink_to(root / "ada" / "sessions", target_is_directory=True)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    assert distillation(result.json())["turns"] == 4
    cursor = consumed(root)["transcripts/s1.jsonl"]
    assert cursor["offset"] == (root / "ada" / "sessions" / "s1.jsonl").stat().st_size

    # Inside the home, but into the daemon's own folder: a managed path, never a transcript.
    (root / "ada" / "transcripts").unlink()
    jsonl(root / "ada" / ".metaeng" / "planted.jsonl", SECRET)
    (root / "ada" / "transcripts").symlink_to(root / "ada" / ".metaeng", target_is_directory=True)
    fake_model.clear()
    again = run_cli(config, "once", "--agent", "ada", "--json")
    entry = distillation(again.json())
    assert entry["turns"] == 0
    assert "transcripts: a path the daemon manages; never read as a transcript" in entry["warnings"]
    assert "private" not in json.dumps(fake_model.requests)


@pytest.mark.slow
def test_a_transcript_root_outside_the_home_works_end_to_end_and_links_out_of_it_are_refused(
    root: Path, fake_model: Any
) -> None:
    projects = root / "runtime" / "projects"
    config = deployment(
        root, fake_model.url, transcripts={"root": "./runtime/projects", "glob": "**/*.jsonl"}
    )
    session = jsonl(projects / "slug" / "s1.jsonl", FOUR_TURNS)
    jsonl(root / "ben" / "transcripts" / "s1.jsonl", SECRET)
    (projects / "leak").symlink_to(root / "ben" / "transcripts", target_is_directory=True)
    (projects / "slug" / "stolen.jsonl").symlink_to(root / "ben" / "transcripts" / "s1.jsonl")
    assert run_cli(config, "config", "check").code == 0
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distillation(result.json())
    assert entry["status"] == "applied" and entry["turns"] == 4
    assert sorted(entry["warnings"]) == [
        "leak: folder is a symlink; not followed",
        "slug/stolen.jsonl: transcript is a symlink; not followed",
    ]
    assert "private" not in json.dumps(fake_model.requests)
    assert consumed(root) == {"slug/s1.jsonl": consumed(root)["slug/s1.jsonl"]}
    assert consumed(root)["slug/s1.jsonl"]["offset"] == session.stat().st_size
    record = run_cli(
        config, "memory", "query", "--agent", "ada", "--entity", "user", "--key", "city", "--json"
    ).json()["record"]
    assert record["source_event_id"] == "slug/s1.jsonl@0"
    assert not (root / "ada" / "transcripts").exists()

    fake_model.clear()
    second = run_cli(config, "once", "--agent", "ada", "--json")
    assert distillation(second.json())["turns"] == 0 and fake_model.pending() == 0


def test_the_static_folder_of_a_root_glob_may_not_lead_out_of_the_root(root: Path, fake_model: Any) -> None:
    projects = root / "runtime" / "projects"
    projects.mkdir(parents=True)
    config = deployment(root, fake_model.url, transcripts={"root": str(projects), "glob": "slug/*.jsonl"})
    jsonl(root / "ben" / "transcripts" / "s1.jsonl", SECRET)
    (projects / "slug").symlink_to(root / "ben" / "transcripts", target_is_directory=True)

    result = run_cli(config, "once", "--agent", "ada", "--json")

    entry = distillation(result.json())
    assert entry["turns"] == 0 and fake_model.requests == []
    assert entry["warnings"] == [
        f"slug: resolves to {root}/ben/transcripts, outside the transcript root {projects}; not read"
    ]


def test_a_glob_matching_managed_files_yields_nothing_managed(root: Path) -> None:
    config = write_config(root, base_config(root, None))
    home = root / "ada"
    for rel in ("MEMORY.md", ".metaeng/facts.jsonl", "memory/2026-11-02.md", "skills/x/SKILL.md"):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text("{}\n", encoding="utf-8")
    jsonl(home / "transcripts" / "s1.jsonl", FOUR_TURNS)
    agent = load_deployment(config, {}).agent("ada")
    # A glob the config check would refuse, as if it had slipped through.
    wide = dataclasses.replace(agent, transcripts=TranscriptSettings(glob="**/*"))

    files, warnings = list_transcripts(source_of(wide))

    assert files == ["transcripts/s1.jsonl"]
    assert sorted(warnings) == [
        f"{rel}: a path the daemon manages; never read as a transcript"
        for rel in (".metaeng", "MEMORY.md", "memory", "skills")
    ]


@pytest.mark.parametrize("target", ["inside.jsonl", "../outside.jsonl"])
def test_reading_a_symlinked_transcript_is_refused_even_after_the_listing(
    tmp_path: Path, target: str
) -> None:
    home = tmp_path / "home"
    jsonl(home / "inside.jsonl", FOUR_TURNS)
    jsonl(tmp_path / "outside.jsonl", SECRET)
    (home / "link.jsonl").symlink_to(target)
    source = TranscriptSource(home, TranscriptSettings(glob="*.jsonl"))
    assert list_transcripts(source)[0] == ["inside.jsonl"]
    with pytest.raises(OutsideRoot, match=r"link\.jsonl: transcript is a symlink; not followed"):
        read_file(home, "link.jsonl", None, "distillation", source.settings, NOW)

"""Only an agent's own project's sessions are read, in every runtime (docs/reference/transcript-formats.md).

A runtime's store holds more than one project or profile: `~/.codex/sessions` every
project's rollouts, `~/.claude/projects` every project's folder, OpenClaw one folder per
agent, Hermes one database per profile. A session of another project is set aside unread,
and `transcripts` and `status` say how many and why.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import yaml

from tests.daemon.transcripts.test_adapters import OLD, example, pending, users
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.fake_model import FakeModelServer

SAID = {"alpha": "Alpha's release train leaves on Tuesdays.", "beta": "Beta's staging host is beta-stg-1."}


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(path, (OLD, OLD))
    return path


def rollout(codex_home: Path, number: int, cwd: str | None, said: str, meta_cwd: bool = True) -> Path:
    """A Codex rollout of one turn that ran in `cwd` (recorded in session_meta, else only in turn_context)."""
    session = f"0199a213-81c0-7800-8aa1-{number:012d}"
    meta: dict[str, Any] = {"id": session, "originator": "codex_cli_rs", "cli_version": "0.154.0", "source": "cli"}
    if cwd is not None and meta_cwd:
        meta["cwd"] = cwd
    lines: list[dict[str, Any]] = [{"timestamp": "2026-11-03T10:00:00Z", "type": "session_meta", "payload": meta}]
    if cwd is not None:
        lines.append({"timestamp": "2026-11-03T10:00:00Z", "type": "turn_context", "payload": {"cwd": cwd}})
    lines += [
        {"timestamp": "2026-11-03T10:00:01Z", "type": "event_msg", "payload": {"type": "user_message", "message": said}},
        {
            "timestamp": "2026-11-03T10:00:02Z",
            "type": "response_item",
            "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Noted."}]},
        },
        {"timestamp": "2026-11-03T10:00:03Z", "type": "event_msg", "payload": {"type": "task_complete"}},
    ]
    return write_lines(codex_home / "sessions" / "2026" / "11" / "03" / f"rollout-2026-11-03T10-00-00-{session}.jsonl", lines)


def deployment(root: Path, transcripts: dict[str, Any], agents: tuple[str, ...] = ("alpha", "beta")) -> Path:
    """Agents whose homes are root/<name>, all reading one runtime store with `transcripts`."""
    config = base_config(root, None, agents)
    for name in agents:
        config["agents"][name]["transcripts"] = dict(transcripts)
    return write_config(root, config)


def set_aside(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(item["file"], item["reason"]) for item in data["set_aside"]]


# --- Codex ---------------------------------------------------------------------------------


def test_a_codex_session_of_another_project_is_never_read_and_transcripts_says_why(root: Path) -> None:
    """The reproduction: ~/.codex/sessions holds every project's rollouts, alpha's and beta's."""
    codex_home = root / "codex-home"
    rollout(codex_home, 1, str(root / "alpha"), SAID["alpha"])
    beta = rollout(codex_home, 2, str(root / "beta"), SAID["beta"])
    config = deployment(root, {"format": "codex", "root": str(codex_home), "glob": "**/rollout-*.jsonl"})

    alpha = pending(config, "alpha")
    assert users(alpha) == [SAID["alpha"]]
    beta_rel = beta.relative_to(codex_home).as_posix()
    assert set_aside(alpha) == [
        (
            beta_rel,
            f"a session of another project: it ran in {root / 'beta'}, "
            "not in the agent home or a transcripts.projects folder",
        )
    ]
    assert users(pending(config, "beta")) == [SAID["beta"]]
    text = run_cli(config, "transcripts", "--agent", "alpha")
    assert text.code == 0, text.err
    assert SAID["beta"] not in text.out
    assert "set aside, not this agent's: 1 session(s)\n  1 × a session of another project: it ran in" in text.out


def test_codex_sessions_in_a_folder_of_the_home_or_a_project_folder_are_read_and_one_without_a_cwd_is_not(
    root: Path,
) -> None:
    codex_home = root / "codex-home"
    rollout(codex_home, 1, str(root / "alpha" / "api"), "The API listens on port 8443.")
    rollout(codex_home, 2, "/srv/shared-lib", "The shared lib is released with tox.")
    rollout(codex_home, 3, str(root / "alpha"), "Newer rollouts record the cwd per turn.", meta_cwd=False)
    rollout(codex_home, 4, str(root / "alpha-old"), "A sibling whose name starts like the home's.")
    no_cwd = rollout(codex_home, 5, None, "Where did this run?")
    config = deployment(
        root,
        {"format": "codex", "root": str(codex_home), "glob": "**/rollout-*.jsonl", "projects": ["/srv/shared-lib/"]},
        agents=("alpha",),
    )
    data = pending(config, "alpha")
    assert users(data) == [
        "The API listens on port 8443.",
        "The shared lib is released with tox.",
        "Newer rollouts record the cwd per turn.",
    ]
    reasons = dict(set_aside(data))
    assert reasons[no_cwd.relative_to(codex_home).as_posix()] == (
        "its project is unknown: no cwd recorded (session_meta, turn_context)"
    )
    assert len(reasons) == 2


def test_a_set_aside_session_has_no_cursor_and_is_read_from_its_start_once_its_project_is_listed(
    root: Path,
) -> None:
    codex_home = root / "codex-home"
    rollout(codex_home, 1, "/srv/beta", SAID["beta"])
    config = deployment(
        root, {"format": "codex", "root": str(codex_home), "glob": "**/rollout-*.jsonl"}, agents=("alpha",)
    )
    assert run_cli(config, "once", "--agent", "alpha", "--json", env={"TEST_API_KEY": ""}).code in (0, 1)
    assert len(pending(config, "alpha")["set_aside"]) == 1
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["alpha"]["transcripts"]["projects"] = ["/srv/beta"]
    config.write_text(yaml.safe_dump(raw))
    data = pending(config, "alpha")
    assert users(data) == [SAID["beta"]] and data["set_aside"] == []


def test_once_never_sends_the_model_another_projects_words(root: Path, fake_model: FakeModelServer) -> None:
    codex_home = root / "codex-home"
    for number in range(4):
        rollout(codex_home, number, str(root / "alpha"), f"Alpha fact number {number}.")
    rollout(codex_home, 9, str(root / "beta"), SAID["beta"])
    raw = base_config(root, fake_model.url, ("alpha",))
    raw["agents"]["alpha"]["transcripts"] = {"format": "codex", "root": str(codex_home), "glob": "**/rollout-*.jsonl"}
    config = write_config(root, raw)
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "alpha", "--json", "--pass", "distillation")
    assert result.code == 0, result.err
    prompts = json.dumps([r["messages"] for r in fake_model.requests])
    assert "Alpha fact number 3." in prompts
    assert "beta-stg-1" not in prompts


# --- Claude Code ---------------------------------------------------------------------------


def claude_session(projects: Path, folder: str, cwd: str, said: str) -> Path:
    line = {
        "type": "user",
        "uuid": f"u-{folder}",
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": "s",
        "cwd": cwd,
        "version": "2.1.120",
        "timestamp": "2026-11-05T10:00:00Z",
        "message": {"role": "user", "content": said},
    }
    return write_lines(projects / folder / f"session-{folder.strip('-')}.jsonl", [line])


def munged(path: Path) -> str:
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in str(path))


def test_claude_code_reads_only_the_project_folders_of_the_home_and_its_folders(root: Path) -> None:
    projects = root / "claude" / "projects"
    home = root / "alpha"
    claude_session(projects, munged(home), str(home), SAID["alpha"])
    claude_session(projects, munged(home / "api"), str(home / "api"), "The API listens on port 8443.")
    # Same folder name as a folder in the home would get, but it ran beside the home.
    sibling = claude_session(projects, munged(root / "alpha-api-old"), str(root / "alpha-api-old"), "Not mine.")
    other = claude_session(projects, munged(root / "beta"), str(root / "beta"), SAID["beta"])
    config = deployment(
        root, {"format": "claude-code", "root": str(projects), "glob": "*/*.jsonl"}, agents=("alpha",)
    )
    data = pending(config, "alpha")
    assert sorted(users(data)) == sorted([SAID["alpha"], "The API listens on port 8443."])
    assert sorted(file for file, _ in set_aside(data)) == sorted(
        p.relative_to(projects).as_posix() for p in (sibling, other)
    )
    assert set_aside(data)[0][1].startswith("a session of another project: its folder ")


def test_claude_code_project_folder_named_by_the_root_or_listed_in_projects_is_read(root: Path) -> None:
    projects = root / "claude" / "projects"
    claude_session(projects, "-srv-project", "/srv/project", "We deploy with make release.")
    claude_session(projects, "-srv-beta", "/srv/beta", SAID["beta"])
    named = deployment(
        root, {"format": "claude-code", "root": str(projects / "-srv-project"), "glob": "*.jsonl"}, ("alpha",)
    )
    assert users(pending(named, "alpha")) == ["We deploy with make release."]
    listed = deployment(
        root,
        {"format": "claude-code", "root": str(projects), "glob": "**/*.jsonl", "projects": ["/srv/project"]},
        ("alpha",),
    )
    data = pending(listed, "alpha")
    assert users(data) == ["We deploy with make release."]
    assert [file for file, _ in set_aside(data)] == ["-srv-beta/session-srv-beta.jsonl"]


def test_the_claude_code_example_over_every_project_reads_its_project_and_sets_beta_aside(root: Path) -> None:
    config = example(root, "claude-code")
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["coder"]["transcripts"].update(root="./projects", projects=["/srv/project"])
    config.write_text(yaml.safe_dump(raw))
    data = pending(config, "coder")
    assert len(data["turns"]) == 13 and SAID["beta"] not in json.dumps(data["turns"])
    assert [file for file, _ in set_aside(data)] == ["-srv-beta/3c5d9e10-3333-4c4c-8d8d-000000000003.jsonl"]


# --- OpenClaw and Hermes -------------------------------------------------------------------


def openclaw_session(home: Path, agent: str, said: str) -> None:
    lines = [
        {"type": "session", "version": 3, "id": f"s-{agent}", "timestamp": "2026-09-02T08:00:00Z"},
        {"type": "message", "id": "m1", "timestamp": "2026-09-02T08:00:01Z", "message": {"role": "user", "content": said}},
        {"type": "message", "id": "m2", "timestamp": "2026-09-02T08:00:02Z", "message": {"role": "assistant", "content": "Noted."}},
    ]
    write_lines(home / "agents" / agent / "sessions" / f"s-{agent}.jsonl", lines)


def test_openclaw_reads_only_its_listed_agents_and_the_one_its_root_names(root: Path) -> None:
    openclaw = root / "openclaw-home"
    openclaw_session(openclaw, "main", "My dentist moved to Thursday.")
    openclaw_session(openclaw, "family", "Ana's birthday is on 12 March.")
    every = {"format": "openclaw", "root": str(openclaw), "glob": "agents/*/sessions/*.jsonl"}
    data = pending(deployment(root, {**every, "profiles": ["main"]}, ("alpha",)), "alpha")
    assert users(data) == ["My dentist moved to Thursday."]
    assert set_aside(data) == [
        (
            "agents/family/sessions/s-family.jsonl",
            "a session of another OpenClaw agent: family is not in transcripts.profiles nor the one "
            "transcripts.root names",
        )
    ]
    named = {"format": "openclaw", "root": str(openclaw / "agents" / "family"), "glob": "sessions/*.jsonl"}
    assert users(pending(deployment(root, named, ("alpha",)), "alpha")) == ["Ana's birthday is on 12 March."]


def hermes_db(path: Path, said: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as connection:
        connection.execute(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, role TEXT, "
            "content TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL, active INTEGER)"
        )
        connection.executemany(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('h1', ?, ?, ?)",
            [("user", said, 1_790_000_000.0), ("assistant", "Noted.", 1_790_000_001.0)],
        )
    connection.close()


def test_hermes_reads_the_profile_its_root_names_and_the_profiles_it_lists(root: Path) -> None:
    hermes = root / "hermes-home"
    hermes_db(hermes / "state.db", "I started at Acme.")
    hermes_db(hermes / "profiles" / "work" / "state.db", "The quarterly review is in May.")
    every = {"format": "hermes", "root": str(hermes), "glob": "**/state.db"}
    data = pending(deployment(root, every, ("alpha",)), "alpha")
    assert users(data) == ["I started at Acme."]
    assert [file for file, _ in set_aside(data)] == ["profiles/work/state.db"]
    both = pending(deployment(root, {**every, "profiles": ["work"]}, ("alpha",)), "alpha")
    assert sorted(users(both)) == ["I started at Acme.", "The quarterly review is in May."]


# --- status and the config -----------------------------------------------------------------


def test_status_counts_the_sessions_set_aside(root: Path) -> None:
    codex_home = root / "codex-home"
    rollout(codex_home, 1, str(root / "alpha"), SAID["alpha"])
    rollout(codex_home, 2, str(root / "beta"), SAID["beta"])
    config = deployment(root, {"format": "codex", "root": str(codex_home), "glob": "**/rollout-*.jsonl"})
    status = run_cli(config, "status", "--agent", "alpha", "--json")
    assert status.code == 0, status.err
    assert status.json()["agents"][0]["set_aside_sessions"] == 1
    text = run_cli(config, "status", "--agent", "alpha").out
    assert "set aside 1 session(s) of another project or profile (`transcripts --agent alpha` says why)" in text


def test_a_relative_project_folder_or_a_profile_with_a_line_break_is_refused_naming_the_line(root: Path) -> None:
    config = deployment(root, {"format": "codex", "projects": ["srv/project"]}, ("alpha",))
    refused = run_cli(config, "transcripts", "--agent", "alpha")
    assert refused.code == 1
    assert "agents.alpha.transcripts.projects: " in refused.err and "is not an absolute path" in refused.err
    assert "(config.yaml:" in refused.err
    config = deployment(root, {"format": "openclaw", "profiles": ["main\n"]}, ("alpha",))
    refused = run_cli(config, "transcripts", "--agent", "alpha")
    assert refused.code == 1
    assert "agent or profile id 'main\\n' must be" in refused.err and "(config.yaml:" in refused.err

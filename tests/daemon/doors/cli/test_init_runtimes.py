"""`init` on OpenClaw and Hermes homes, sessions it cannot read, and hook settings it must not touch.

Besides hand-built stubs of each store's layout, the stores of examples/runtimes/{openclaw,hermes}
(their databases built from the examples' SQL) copied where the runtimes keep them in a home."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.daemon.transcripts.test_adapters import OLD, build_db
from tests.support.deploy import run_cli

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "runtimes"


def claude_session(path: Path, cwd: str | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    line: dict[str, Any] = {"type": "user", "uuid": "u1", "sessionId": path.stem, "timestamp": "2026-11-02T10:00:00Z",
                            "message": {"role": "user", "content": "Run the tests with pytest -q."}}
    if cwd is not None:
        line["cwd"] = cwd
    path.write_text(json.dumps(line) + "\n")


def hermes_db(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, started_at REAL)")
        db.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL)")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    # OpenClaw: one agent with sessions as JSONL, one with the newer database, one empty
    sessions = home / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "sess-1.jsonl").write_text(json.dumps({"type": "session", "id": "sess-1"}) + "\n")
    database = home / ".openclaw" / "agents" / "ops" / "agent" / "openclaw-agent.sqlite"
    database.parent.mkdir(parents=True)
    database.write_bytes(b"")
    (home / ".openclaw" / "agents" / "idle").mkdir()
    (home / ".openclaw" / "workspace").mkdir()
    # Hermes: the default profile and one more
    hermes_db(home / ".hermes" / "state.db")
    hermes_db(home / ".hermes" / "profiles" / "work" / "state.db")
    # Claude Code: a project whose sessions record no folder (not offered), and one that does
    claude_session(home / ".claude" / "projects" / "-nowhere" / "a.jsonl", None)
    project = tmp_path / "shop"
    project.mkdir()
    claude_session(home / ".claude" / "projects" / "-shop" / "b.jsonl", str(project))
    claude_session(home / ".claude" / "projects" / "-shop" / "agent-sub.jsonl", str(project))  # a subagent's: not counted
    return home


def test_every_runtime_is_found_where_it_keeps_its_sessions(home: Path, tmp_path: Path) -> None:
    done = run_cli(tmp_path / "c.yaml", "init", "--list", "--json", env={"HOME": str(home)})
    assert done.code == 0, done.err
    found = {(f["runtime"], f["project"]): f for f in done.json()["found"]}
    assert set(found) == {
        ("openclaw", "main"), ("openclaw", "ops"), ("hermes", "default"), ("hermes", "work"),
        ("claude-code", str(tmp_path / "shop")),
    }
    assert found[("openclaw", "main")]["glob"] == "sessions/*.jsonl"
    assert found[("openclaw", "ops")]["glob"] == "agent/openclaw-agent.sqlite"
    assert found[("openclaw", "main")]["home"] == str(home / ".openclaw" / "workspace")
    assert found[("hermes", "work")]["glob"] == "profiles/work/state.db"
    assert found[("claude-code", str(tmp_path / "shop"))]["sessions"] == 1
    # $CLAUDE_CONFIG_DIR and $HERMES_HOME move where they look
    moved = run_cli(tmp_path / "c.yaml", "init", "--list", "--json",
                    env={"HOME": str(home), "CLAUDE_CONFIG_DIR": str(tmp_path / "none"), "HERMES_HOME": str(tmp_path / "none")})
    assert {f["runtime"] for f in moved.json()["found"]} == {"openclaw"}


def test_openclaw_and_hermes_agents_are_written_and_hermes_is_wired_by_hand(home: Path, tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    done = run_cli(config, "init", "--project", "main", "--project", "work", "--json", env={"HOME": str(home)})
    assert done.code == 0, done.err
    raw = yaml.safe_load(config.read_text())
    assert set(raw["agents"]) == {"openclaw", "hermes-work"}
    assert raw["agents"]["hermes-work"]["transcripts"] == {"format": "hermes", "root": str(home / ".hermes"), "glob": "profiles/work/state.db"}
    hooks = {a["agent"]: a["hook"] for a in done.json()["agents"]}
    assert hooks == {
        "openclaw": "runtime openclaw has no hook settings file the daemon can propose a change to",
        "hermes-work": "runtime hermes has no hook settings file the daemon can propose a change to",
    }
    (step,) = [s for s in done.json()["next"] if "pre_llm_call" in s]
    assert "hook hermes --index" in step and "~/.hermes/config.yaml" in step


def test_nothing_found_says_where_it_looked(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    done = run_cli(tmp_path / "c.yaml", "init", "--all", env={"HOME": str(empty)})
    assert done.code == 1 and "no agent runtime sessions found" in done.out
    assert not (tmp_path / "c.yaml").exists()


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ("[1, 2]", "is not a JSON object"),
        ('{"hooks": []}', "its `hooks` is not an object"),
        ('{"hooks": {"UserPromptSubmit": {}}}', "its `hooks.UserPromptSubmit` is not a list"),
        ('{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "/opt/x/metaeng-daemon hook claude-code --index /i"}]}]}}',
         "already runs a metaeng-daemon hook"),
    ],
)
def test_hook_settings_that_cannot_take_the_entries_are_left_as_they_are(
    home: Path, tmp_path: Path, settings: str, why: str
) -> None:
    project = tmp_path / "shop"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text(settings)
    done = run_cli(tmp_path / "c.yaml", "init", "--project", str(project), "--json", env={"HOME": str(home)})
    assert done.code == 0, done.err
    (attached,) = done.json()["agents"]
    assert why in attached["hook"]
    assert (project / ".claude" / "settings.local.json").read_text() == settings


def test_a_settings_file_that_is_a_symlink_is_never_read_through(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "shop"
    (project / ".claude").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}")
    os.symlink(elsewhere, project / ".claude" / "settings.local.json")
    done = run_cli(tmp_path / "c.yaml", "init", "--project", str(project), "--json", env={"HOME": str(home)})
    assert done.code == 0, done.err
    assert "cannot be read safely" in done.json()["agents"][0]["hook"]
    assert elsewhere.read_text() == "{}"


# --- the runtime examples' stores, where each runtime keeps them --------------------------


def example_openclaw(home: Path, own_workspaces: bool = True) -> Path:
    """~/.openclaw holding the OpenClaw example's agents (`main` on its database, `legacy` on
    JSONL sessions), `main` in the default workspace and, if `own_workspaces`, `legacy` in the
    `workspace-legacy` that `openclaw agents add` makes."""
    state = home / ".openclaw"
    shutil.copytree(EXAMPLES / "openclaw" / "openclaw-home", state)
    build_db(state / "agents" / "main" / "agent" / "openclaw-agent.sqlite", EXAMPLES / "openclaw" / "transcript_events.sql")
    for path in state.rglob("*.jsonl"):
        os.utime(path, (OLD, OLD))
    shutil.copytree(EXAMPLES / "openclaw" / "home", state / "workspace")
    if own_workspaces:
        shutil.copytree(EXAMPLES / "openclaw" / "home-legacy", state / "workspace-legacy")
    return state


def turns_per_session(config: Path, agent: str) -> Counter[str]:
    done = run_cli(config, "transcripts", "--agent", agent, "--json", "--full")
    assert done.code == 0, done.err
    return Counter(t["ref"].split("@")[0] for t in done.json()["turns"])


def test_openclaw_agents_of_the_example_are_each_attached_to_their_own_workspace(tmp_path: Path) -> None:
    home = tmp_path / "home"
    state = example_openclaw(home)
    config = tmp_path / "c.yaml"
    done = run_cli(config, "init", "--all", "--runtime", "openclaw", "--json", env={"HOME": str(home)})
    assert done.code == 0, done.err
    assert {a["agent"]: a["home"] for a in done.json()["agents"]} == {
        "openclaw": str(state / "workspace"), "openclaw-legacy": str(state / "workspace-legacy"),
    }
    raw = yaml.safe_load(config.read_text())
    assert raw["agents"]["openclaw"]["transcripts"]["glob"] == "agent/openclaw-agent.sqlite"
    assert raw["agents"]["openclaw-legacy"]["transcripts"]["glob"] == "sessions/*.jsonl"
    for agent in ("openclaw", "openclaw-legacy"):
        sessions = turns_per_session(config, agent)
        assert sessions and min(sessions.values()) >= 4, (agent, sessions)


def test_openclaw_workspaces_named_in_its_config_are_the_agents_homes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    state = example_openclaw(home, own_workspaces=False)
    (home / "agents-ws" / "ops").mkdir(parents=True)
    (state / "openclaw.json").write_text(
        "// JSON5, as OpenClaw writes it\n"
        "{\n  agents: {\n    defaults: { workspace: '~/agents-ws' },\n"
        "    list: [\n      { id: 'main', workspace: '~/.openclaw/workspace', default: true },  /* the first */\n"
        '      { id: "legacy" },\n    ],\n  },\n}\n'
    )
    done = run_cli(tmp_path / "c.yaml", "init", "--list", "--json", env={"HOME": str(home)})
    assert done.code == 0, done.err
    assert {f["project"]: f["home"] for f in done.json()["found"]} == {
        "main": str(state / "workspace"), "legacy": str(home / "agents-ws" / "legacy"),
    }


def test_openclaw_agents_sharing_one_workspace_are_refused_with_what_would_help(tmp_path: Path) -> None:
    home = tmp_path / "home"
    state = example_openclaw(home, own_workspaces=False)
    config = tmp_path / "c.yaml"
    done = run_cli(config, "init", "--all", "--runtime", "openclaw", env={"HOME": str(home)})
    assert done.code == 1
    assert f"the OpenClaw agents legacy, main all work in {state / 'workspace'}" in done.err
    assert "agents.list[].workspace" in done.err and f"{state}/workspace-<id>" in done.err
    assert "--project legacy" in done.err and "--runtime" not in done.err
    assert not config.exists()
    alone = run_cli(config, "init", "--project", "main", "--json", env={"HOME": str(home)})
    assert alone.code == 0, alone.err
    assert [a["home"] for a in alone.json()["agents"]] == [str(state / "workspace")]


def test_the_hermes_example_is_attached_from_its_database_and_its_sessions_read(tmp_path: Path) -> None:
    home = tmp_path / "home"
    hermes = home / ".hermes"
    shutil.copytree(EXAMPLES / "hermes" / "hermes-home", hermes)
    build_db(hermes / "state.db", EXAMPLES / "hermes" / "messages.sql")
    config = tmp_path / "c.yaml"
    done = run_cli(config, "init", "--all", "--runtime", "hermes", "--json", env={"HOME": str(home)})
    assert done.code == 0, done.err
    (attached,) = done.json()["agents"]
    assert (attached["agent"], attached["home"]) == ("hermes", str(hermes))
    assert yaml.safe_load(config.read_text())["agents"]["hermes"]["transcripts"] == {
        "format": "hermes", "root": str(hermes), "glob": "state.db",
    }
    assert any("pre_llm_call" in step and "hook hermes --index" in step for step in done.json()["next"])
    sessions = turns_per_session(config, "hermes")
    assert sessions and min(sessions.values()) >= 4, sessions

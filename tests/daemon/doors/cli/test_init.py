"""`init` on a machine with Claude Code and Codex sessions: find, choose, write, check, wire.

The runtimes' stores are copies of the examples' synthetic sessions (in the runtimes' own
shapes) with the folders they ran in moved under tmp_path, as they would lie in a home.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.deploy import run_cli, tree_snapshot

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "runtimes"


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, Any]:
    """A home with ~/.claude/projects and ~/.codex holding sessions of two projects."""
    home = tmp_path / "home"
    work = tmp_path / "work"
    shutil.copytree(EXAMPLES / "claude-code" / "projects", home / ".claude" / "projects")
    shutil.copytree(EXAMPLES / "codex" / "codex-home", home / ".codex")
    for path in [*home.rglob("*.jsonl")]:
        path.write_text(path.read_text().replace("/srv/", f"{work}/"))
    for name in ("project", "beta"):
        (work / name).mkdir(parents=True)
    (work / "project" / "CLAUDE.md").write_text("# Project\n\nRun the tests before pushing.\n")
    config = tmp_path / "config" / "config.yaml"
    return {"home": home, "work": work, "config": config, "env": {"HOME": str(home)}}


def init(machine: dict[str, Any], *args: str) -> Any:
    return run_cli(machine["config"], "init", *args, env=machine["env"])


def test_list_shows_each_runtimes_projects_and_writes_nothing(machine: dict[str, Any]) -> None:
    before = tree_snapshot(machine["home"].parent)
    done = init(machine, "--list", "--json")
    assert done.code == 0, done.err
    found = done.json()["found"]
    assert {(f["runtime"], Path(f["project"]).name) for f in found} == {
        ("claude-code", "project"), ("claude-code", "beta"), ("codex", "project"), ("codex", "beta")
    }
    project = next(f for f in found if f["runtime"] == "claude-code" and f["project"].endswith("/project"))
    assert project["sessions"] >= 2 and project["root"].endswith(".claude/projects/-srv-project")
    assert tree_snapshot(machine["home"].parent) == before
    human = init(machine, "--list", "--runtime", "codex")
    assert "codex" in human.out and "claude-code" not in human.out


def test_init_writes_a_checked_config_imports_builds_the_index_and_proposes_the_hook(machine: dict[str, Any]) -> None:
    project = machine["work"] / "project"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text(json.dumps({"permissions": {"allow": ["Bash(pytest:*)"]}}, indent=2))
    done = init(machine, "--project", str(project), "--runtime", "claude-code", "--model-url", "http://127.0.0.1:8080/v1",
                "--model", "qwen", "--json")
    assert done.code == 0, done.err
    document = done.json()
    assert document["written"] and document["check"]["ok"]
    raw = yaml.safe_load(machine["config"].read_text())
    agent = raw["agents"]["project"]
    assert agent["home"] == str(project) and agent["transcripts"]["format"] == "claude-code"
    assert raw["model"] == {"base_url": "http://127.0.0.1:8080/v1", "model": "qwen", "api_key_env": None,
                            "price_input_per_million": 0.0, "price_output_per_million": 0.0, "dialect": "llama.cpp"}
    assert raw["state_dir"] == str(machine["home"] / ".local" / "state" / "metaeng-daemon")
    (attached,) = document["agents"]
    assert attached["run"] and "proposed the hook in .claude/settings.local.json" in attached["hook"]
    index = Path(raw["state_dir"]) / "agents" / "project" / "delivery.sqlite3"
    assert index.is_file()
    assert any("review" in step for step in document["next"]) and any("install-service --user" in s for s in document["next"])
    # the settings file is untouched until a person approves
    assert "hooks" not in json.loads((project / ".claude" / "settings.local.json").read_text())
    (proposal,) = run_cli(machine["config"], "review", "list", "--agent", "project", "--json").json()
    assert proposal["kind"] == "hook-wiring" and proposal["target"] == ".claude/settings.local.json"
    approved = run_cli(machine["config"], "review", "approve", proposal["id"], "--agent", "project")
    assert approved.code == 0, approved.err
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert settings["permissions"] == {"allow": ["Bash(pytest:*)"]}  # the person's keys kept
    (group,) = settings["hooks"]["UserPromptSubmit"]
    command = group["hooks"][0]["command"]
    assert command.endswith(f"hook claude-code --index {index}") and group["hooks"][0]["timeout"] == 10
    assert settings["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"
    # the command, as the runtime runs it (through a shell), answers
    ran = subprocess.run(command, shell=True, input=json.dumps({"hook_event_name": "SessionStart", "cwd": str(project)}),
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0
    # the approval is a run: undo restores the file as the person had it
    runs = run_cli(machine["config"], "runs", "--agent", "project", "--json").json()
    newest = (runs["runs"] if isinstance(runs, dict) else runs)[0]["run_id"]
    assert run_cli(machine["config"], "undo", newest).code == 0
    assert "hooks" not in json.loads((project / ".claude" / "settings.local.json").read_text())
    # not proposed twice
    again = run_cli(machine["config"], "init", "--hooks", "--json", env=machine["env"]).json()
    assert "the hook was proposed in .claude/settings.local.json before" in again["agents"][0]["hook"]


def test_the_preset_sets_what_the_runtime_reads_and_config_show_says_so(machine: dict[str, Any]) -> None:
    project = machine["work"] / "project"
    done = init(machine, "--project", str(project), "--runtime", "codex", "--json")
    assert done.code == 0, done.err
    assert "proposed the hook in .codex/hooks.json" in done.json()["agents"][0]["hook"]
    (proposal,) = run_cli(machine["config"], "review", "list", "--agent", "project", "--json").json()
    assert run_cli(machine["config"], "review", "approve", proposal["id"], "--agent", "project").code == 0
    hooks = json.loads((project / ".codex" / "hooks.json").read_text())["hooks"]
    assert "hook codex --index" in hooks["UserPromptSubmit"][0]["hooks"][0]["command"]
    shown = run_cli(machine["config"], "config", "show", "--agent", "project", "--json")
    assert shown.code == 0, shown.err
    text = json.dumps(shown.json())
    for key, value in (("skills.learned", ".agents/skills"), ("workspace.instructions", ["AGENTS.md"]),
                       ("memory.markdown_view", "metaeng-facts.md")):
        assert json.dumps(key) in text and json.dumps(value) in text
    assert "the preset of runtime codex" in text and "coding preset for runtime codex" in text


def test_a_folder_attached_to_claude_code_then_to_codex_gets_the_codex_hook_proposed_too(machine: dict[str, Any]) -> None:
    project = machine["work"] / "project"
    first = init(machine, "--project", str(project), "--runtime", "claude-code", "--json")
    assert first.code == 0, first.err
    assert "proposed the hook in .claude/settings.local.json" in first.json()["agents"][0]["hook"]
    then = init(machine, "--project", str(project), "--runtime", "codex", "--force", "--json")
    assert then.code == 0, then.err
    assert "proposed the hook in .codex/hooks.json" in then.json()["agents"][0]["hook"]
    listed = run_cli(machine["config"], "review", "list", "--agent", "project", "--json").json()
    assert sorted(p["target"] for p in listed) == [".claude/settings.local.json", ".codex/hooks.json"]
    again = init(machine, "--project", str(project), "--runtime", "codex", "--force", "--json")
    assert "the hook was proposed in .codex/hooks.json before" in again.json()["agents"][0]["hook"]


def test_a_config_key_wins_over_the_preset(tmp_path: Path) -> None:
    home = tmp_path / "p"
    home.mkdir()
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"version": 1, "state_dir": str(tmp_path / "s"), "agents": {"p": {
        "home": str(home), "transcripts": {"format": "claude-code", "root": str(tmp_path / "sessions"), "glob": "*.jsonl"},
        "skills": {"learned": "my-skills"}, "workspace": {"long_memory": ["CLAUDE.md"]}}}}))
    shown = run_cli(config, "config", "show", "--agent", "p")
    assert shown.code == 0, shown.err
    line = next(x for x in shown.out.splitlines() if x.strip().startswith("skills.learned"))
    assert "my-skills" in line and "preset" not in line
    instructions = next(x for x in shown.out.splitlines() if x.strip().startswith("workspace.instructions"))
    assert "CLAUDE.md" not in instructions  # the config gave CLAUDE.md a role: the preset does not list it twice


def test_an_existing_config_is_kept_unless_forced(machine: dict[str, Any]) -> None:
    machine["config"].parent.mkdir(parents=True)
    machine["config"].write_text("version: 1\nagents: {}\n")
    done = init(machine, "--project", str(machine["work"] / "project"), "--runtime", "claude-code")
    assert done.code == 1 and "exists; pass --force" in done.err
    assert machine["config"].read_text() == "version: 1\nagents: {}\n"
    forced = init(machine, "--project", str(machine["work"] / "project"), "--runtime", "claude-code", "--force")
    assert forced.code == 0, forced.err
    assert (machine["config"].parent / "config.yaml.bak").read_text() == "version: 1\nagents: {}\n"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), "choose what to attach"),
        (("--project", "/nowhere/at/all"), "no sessions found for '/nowhere/at/all'"),
        (("--all",), "has sessions of several runtimes (claude-code, codex): pick one with --runtime"),
        (("--all", "--runtime", "codex", "--model-url", "https://api.example.test/v1", "--model", "m"), "--price-input"),
        (("--all", "--model", "m"), "--model-url and --model go together"),
    ],
)
def test_what_a_person_gets_wrong_is_named_and_nothing_is_written(machine: dict[str, Any], args: tuple[str, ...], expected: str) -> None:
    before = tree_snapshot(machine["home"].parent)
    done = init(machine, *args)
    assert done.code == 1 and expected in done.err, done.err
    assert tree_snapshot(machine["home"].parent) == before


def test_a_settings_file_that_is_not_json_gets_no_proposal_and_says_why(machine: dict[str, Any]) -> None:
    project = machine["work"] / "project"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text('{"permissions": {\n  "allow": [,]\n}\n')
    done = init(machine, "--project", str(project), "--runtime", "claude-code", "--json")
    assert done.code == 0, done.err
    (attached,) = done.json()["agents"]
    assert attached["hook"].startswith(".claude/settings.local.json is not JSON (line 2")
    assert run_cli(machine["config"], "review", "list", "--agent", "project", "--json").json() == []


def test_init_help_explains(machine: dict[str, Any]) -> None:
    done = subprocess.run([sys.executable, "-m", "daemon", "init", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--project" in done.stdout and ".claude/settings.local.json" in done.stdout


def test_a_persons_own_config_is_found_without_naming_it(machine: dict[str, Any]) -> None:
    import io

    from daemon.doors.cli import DEFAULT_CONFIG, main

    assert not Path(DEFAULT_CONFIG).exists()  # this machine has no system deployment
    own = machine["home"] / ".config" / "metaeng-daemon" / "config.yaml"
    done = run_cli(own, "init", "--project", str(machine["work"] / "project"), "--runtime", "claude-code", env=machine["env"])
    assert done.code == 0, done.err
    out, err = io.StringIO(), io.StringIO()
    assert main(["config", "check"], env=machine["env"], stdout=out, stderr=err) == 0, err.getvalue()
    assert str(own) in out.getvalue() + err.getvalue() or "ok" in out.getvalue()
    elsewhere = {**machine["env"], "XDG_CONFIG_HOME": str(machine["home"] / "nowhere")}
    err = io.StringIO()
    assert main(["status"], env=elsewhere, stdout=io.StringIO(), stderr=err) == 1
    assert "metaeng-daemon" in err.getvalue() and "init" in err.getvalue()


def test_learned_skills_left_where_the_preset_no_longer_looks_are_warned_about(machine: dict[str, Any]) -> None:
    project = machine["work"] / "project"
    old = project / "skills" / "deploy-staging"
    old.mkdir(parents=True)
    (old / "SKILL.md").write_text("---\nname: deploy-staging\ndescription: Deploy to staging.\n---\n\n1. Ship.\n")
    (project / "skills" / "deploy-staging.provenance.json").write_text("{}")
    done = init(machine, "--project", str(project), "--runtime", "claude-code", "--json")
    assert done.code == 0, done.err
    (warning,) = [w for w in done.json()["check"]["warnings"] if "skills.learned" in w]
    assert ".claude/skills" in warning and "deploy-staging" in warning and "skills.learned: skills" in warning

"""The runtime hook as the runtime starts it: a process, the hook's JSON on stdin.

The delivery index is built by the applier after a run (here `once`, `memory forget`,
`undo`, `memory purge`), and the hook answers from it alone (daemon/doors/hook.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import base_config, run_cli, write_config
from tests.support.facts import stored_fact, write_store

SCRIPT = Path(sys.executable).parent / "metaeng-daemon"


def _facts() -> list[dict[str, Any]]:
    return [
        stored_fact(id="f-city", entity="jonas", key="city", value="Porto", quote="Jonas lives in Porto now, near the river"),
        stored_fact(id="f-pm", entity="project", key="package_manager", value="pnpm", quote="we use pnpm in this repo"),
        stored_fact(id="f-editor", key="editor", value="Neovim", quote="my editor is Neovim", valid_from="2026-11-03"),
        stored_fact(id="f-lang", key="language", value="日本語", quote="東京に住んでいます、日本語で話します"),
        stored_fact(id="f-deploy", entity="project", key="deploy_command", value="make ship", quote="we deploy with make ship"),
    ]


def claude_code_config(root: Path) -> Path:
    """One agent `ada` reading Claude Code sessions (none yet): a runtime with a prompt hook."""
    config = base_config(root, None)
    (root / "sessions").mkdir()
    config["agents"]["ada"]["transcripts"] = {"format": "claude-code", "root": str(root / "sessions"), "glob": "**/*.jsonl"}
    return write_config(root, config)


@pytest.fixture
def deployed(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(config, agent home, delivery index) after a first run over a store of five facts and a skill."""
    config = claude_code_config(tmp_path)
    home = tmp_path / "ada"
    write_store(home, *_facts())
    skill = home / ".claude" / "skills" / "release-notes"  # the claude-code preset's skills folder
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Draft the release notes from merged pull requests. "
        "Use when preparing a release.\n---\n\n1. List the merged pull requests.\n"
    )
    assert run_cli(config, "once", "--agent", "ada").code == 0
    index = tmp_path / "state" / "agents" / "ada" / "delivery.sqlite3"
    assert index.is_file()
    return config, home, index


def hook(index: Path, payload: object, *args: str, runtime: str = "claude-code") -> subprocess.CompletedProcess[str]:
    stdin = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [str(SCRIPT), "hook", runtime, "--index", str(index), *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )


def prompt(home: Path, text: str) -> dict[str, str]:
    return {"hook_event_name": "UserPromptSubmit", "cwd": str(home), "prompt": text, "session_id": "s1",
            "transcript_path": str(home / "t.jsonl"), "permission_mode": "default"}


def context_of(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    if not done.stdout.strip():
        return ""
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["hookEventName"] in ("UserPromptSubmit", "SessionStart")
    text: str = answer["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("[metaeng-daemon]")
    return text


def test_a_prompt_gets_the_facts_its_words_point_to_quotes_included(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    text = context_of(hook(index, prompt(home, "where does Jonas live these days?")))
    assert "jonas.city = Porto" in text and 'said: "Jonas lives in Porto now' in text
    assert "pnpm" not in text and "Neovim" not in text
    text = context_of(hook(index, prompt(home, "install the deps with the package manager")))
    assert "project.package_manager = pnpm" in text and "Porto" not in text
    # a word of the key finds it ("deploy" → deploy_command), longer forms too ("deployment")
    assert "make ship" in context_of(hook(index, prompt(home, "start the deployment please")))


def test_a_prompt_in_a_script_without_spaces_finds_its_fact(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    text = context_of(hook(index, prompt(home, "東京の天気はどう？")))
    assert "user.language" in text and "Porto" not in text


def test_skills_whose_description_fits_the_prompt_are_named(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    text = context_of(hook(index, prompt(home, "help me draft the release notes for 2.4")))
    assert "Skills that may help" in text and "release-notes: Draft the release notes" in text
    assert str(home / ".claude" / "skills" / "release-notes") in text


def test_nothing_relevant_gives_nothing(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    done = hook(index, prompt(home, "refactor the parser for speed"))
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""


def test_session_start_gives_the_newest_facts_within_the_budget(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    start = {"hook_event_name": "SessionStart", "cwd": str(home), "source": "startup", "session_id": "s1"}
    text = context_of(hook(index, start))
    lines = text.splitlines()[1:]
    assert lines[0].startswith("- user.editor = Neovim (since 2026-11-03)")  # the newest first
    assert len(lines) == 5
    small = context_of(hook(index, start, "--budget", "200"))
    assert len(small) <= 200 and 1 <= len(small.splitlines()) - 1 < 5


def test_the_budget_holds_whatever_the_facts_say(tmp_path: Path) -> None:
    config = claude_code_config(tmp_path)
    home = tmp_path / "ada"
    long = "steeped for exactly four minutes in water just off the boil " * 3
    facts = [stored_fact(id=f"f-{i}", key=f"note_{i}", value=f"note {i}", quote=f"I keep note {i}") for i in range(35)]
    facts += [stored_fact(id=f"f-tea-{i}", key=f"tea_{i}", value=f"oolong {'x' * 180}", quote=f"oolong {long}") for i in range(5)]
    write_store(home, *facts)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    index = tmp_path / "state" / "agents" / "ada" / "delivery.sqlite3"
    sizes = []
    for budget in ("300", "700", "1500"):
        text = context_of(hook(index, prompt(home, "oolong please"), "--budget", budget))
        assert 0 < len(text) <= int(budget)
        sizes.append(len(text.splitlines()))
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    assert len(context_of(hook(index, prompt(home, "oolong please")))) <= 1500


def test_another_projects_session_gets_nothing(deployed: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _config, _home, index = deployed
    elsewhere = tmp_path / "other-project"
    elsewhere.mkdir()
    done = hook(index, prompt(elsewhere, "where does Jonas live?"))
    assert done.returncode == 0 and done.stdout == ""
    sibling = tmp_path / "ada-other"  # a name that merely starts like the home
    sibling.mkdir()
    assert hook(index, prompt(sibling, "where does Jonas live?")).stdout == ""
    inside = _home_sub(deployed[1])
    assert "Porto" in context_of(hook(index, prompt(inside, "where does Jonas live?")))


def _home_sub(home: Path) -> Path:
    sub = home / "src" / "pkg"
    sub.mkdir(parents=True, exist_ok=True)
    return sub


def test_codex_asks_in_the_same_shape_and_hermes_in_its_own(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    codex = {"session_id": "s", "turn_id": "t1", "transcript_path": None, "cwd": str(home),
             "hook_event_name": "UserPromptSubmit", "model": "gpt-5", "permission_mode": "default",
             "prompt": "where does Jonas live?"}
    assert "Porto" in context_of(hook(index, codex, runtime="codex"))
    hermes = {"hook_event_name": "pre_llm_call", "tool_name": None, "tool_input": None, "session_id": "s",
              "cwd": str(home), "profile": "default", "extra": {"user_message": "where does Jonas live?", "is_first_turn": True}}
    done = hook(index, hermes, runtime="hermes")
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert list(answer) == ["context"] and "Porto" in answer["context"]


@pytest.mark.parametrize(
    "payload",
    ["not json", "[1, 2]", json.dumps({"hook_event_name": "PreToolUse", "cwd": "/"}), json.dumps({"hook_event_name": "UserPromptSubmit"})],
)
def test_bad_stdin_fails_open_with_one_logged_line(deployed: tuple[Path, Path, Path], payload: str) -> None:
    _config, home, index = deployed
    if "UserPromptSubmit" in payload:
        payload = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(home)})  # no prompt
    done = hook(index, payload)
    assert (done.returncode, done.stdout) == (0, "")
    log = (index.parent / "hook.log").read_text().splitlines()
    assert len(log) == 1 and "metaeng-daemon hook:" in log[0]


def test_a_missing_or_damaged_index_fails_open(tmp_path: Path, deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    missing = tmp_path / "nowhere" / "delivery.sqlite3"
    done = hook(missing, prompt(home, "where does Jonas live?"))
    assert (done.returncode, done.stdout) == (0, "")
    assert "no delivery index" in done.stderr  # its folder does not exist: the line goes to stderr
    index.write_bytes(b"this is not a database" * 100)
    done = hook(index, prompt(home, "where does Jonas live?"))
    assert (done.returncode, done.stdout) == (0, "")
    assert "DatabaseError" in (index.parent / "hook.log").read_text()
    # the next run builds it anew
    assert run_cli(deployed[0], "once", "--agent", "ada").code == 0
    assert "Porto" in context_of(hook(index, prompt(home, "where does Jonas live?")))


def test_a_wrong_index_path_logs_to_stderr_and_leaves_no_file_in_a_strangers_folder(
    tmp_path: Path, deployed: tuple[Path, Path, Path]
) -> None:
    _config, home, index = deployed
    stranger = tmp_path / "somewhere"  # a folder that exists but is no agent's state folder
    stranger.mkdir()
    done = hook(stranger / "delivery.sqlite3", prompt(home, "where does Jonas live?"))
    assert (done.returncode, done.stdout) == (0, "")
    assert "no delivery index" in done.stderr
    assert list(stranger.iterdir()) == []
    # the agent's own state folder before its index is built: the line goes to its hook.log
    index.unlink()
    done = hook(index, prompt(home, "where does Jonas live?"))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert "no delivery index" in (index.parent / "hook.log").read_text()


def test_bad_arguments_fail_open(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    for args in (["hook"], ["hook", "cursor"], ["hook", "claude-code"], ["hook", "claude-code", "--index"],
                 ["hook", "claude-code", "--index", str(index), "--budget", "lots"]):
        done = subprocess.run([str(SCRIPT), *args], input=json.dumps(prompt(home, "x")), capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout) == (0, ""), args
        assert "metaeng-daemon hook:" in done.stderr or "metaeng-daemon hook:" in (index.parent / "hook.log").read_text()


def test_a_forgotten_fact_and_an_undone_run_are_no_longer_handed_over(deployed: tuple[Path, Path, Path]) -> None:
    config, home, index = deployed
    assert run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "jonas", "--key", "city").code == 0
    assert hook(index, prompt(home, "where does Jonas live?")).stdout == ""
    runs = run_cli(config, "runs", "--agent", "ada", "--json").json()
    forget = runs["runs"][0]["run_id"] if "runs" in runs else runs[0]["run_id"]
    assert run_cli(config, "undo", forget).code == 0
    assert "Porto" in context_of(hook(index, prompt(home, "where does Jonas live?")))


def test_a_purged_value_leaves_the_delivery_index(deployed: tuple[Path, Path, Path]) -> None:
    config, home, index = deployed
    done = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "jonas", "--key", "city", "--purge", "--yes")
    assert done.code == 0, done.err
    assert not index.exists() or b"Porto" not in index.read_bytes()
    assert hook(index, prompt(home, "where does Jonas live?")).stdout == ""
    assert run_cli(config, "once", "--agent", "ada").code == 0
    assert b"Porto" not in index.read_bytes()
    assert "pnpm" in context_of(hook(index, prompt(home, "which package manager?")))


def test_the_hook_path_imports_neither_pydantic_nor_the_sdk_nor_the_parser(deployed: tuple[Path, Path, Path]) -> None:
    _config, home, index = deployed
    probe = (
        "import sys\n"
        f"sys.argv = ['metaeng-daemon', 'hook', 'claude-code', '--index', {str(index)!r}]\n"
        "from daemon.launch import main\n"
        "main()\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'openai', 'yaml', 'argparse', 'structlog', 'icu'))\n"
        "print(heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], input=json.dumps(prompt(home, "where does Jonas live?")),
                          capture_output=True, text=True, timeout=60, env={**os.environ})
    assert "Porto" in done.stdout
    assert done.stderr.strip() == "[]"


def test_help_describes_the_hook(deployed: tuple[Path, Path, Path]) -> None:
    done = subprocess.run([str(SCRIPT), "hook", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "UserPromptSubmit" in done.stdout and "fails open" in done.stdout


def test_an_agent_of_a_runtime_without_a_hook_gets_an_index_only_when_asked(tmp_path: Path) -> None:
    config = write_config(tmp_path, base_config(tmp_path, None))  # the daemon's own jsonl format
    write_store(tmp_path / "ada", *_facts())
    assert run_cli(config, "once", "--agent", "ada").code == 0
    index = tmp_path / "state" / "agents" / "ada" / "delivery.sqlite3"
    assert not index.exists()
    wired = run_cli(config, "init", "--hooks", "--json")
    assert wired.code == 0, wired.err
    assert "has no hook settings file" in wired.json()["agents"][0]["hook"]
    assert index.is_file()  # built by hand: kept in step from now on
    assert run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "jonas", "--key", "city").code == 0
    assert hook(index, prompt(tmp_path / "ada", "where does Jonas live?")).stdout == ""


def test_an_index_that_cannot_be_refreshed_leaves_the_run_standing_with_a_note(deployed: tuple[Path, Path, Path]) -> None:
    config, home, index = deployed
    index.unlink()
    index.mkdir()  # the path is taken: sqlite cannot open it
    done = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "jonas", "--key", "city")
    assert done.code == 0, done.err
    assert "run.derived_not_updated" in done.err and "IsADirectoryError" in done.err
    once = run_cli(config, "once", "--agent", "ada", "--json")
    assert once.code == 0, once.err
    assert "derived data not updated (retried on the next run)" in once.out, once.out
    listed = run_cli(config, "memory", "list", "--agent", "ada", "--json").out
    assert "Porto" not in listed  # the run stands
    index.rmdir()
    assert run_cli(config, "once", "--agent", "ada").code == 0  # the next run tries again
    assert hook(index, prompt(home, "where does Jonas live?")).stdout == ""
    assert "pnpm" in context_of(hook(index, prompt(home, "which package manager?")))

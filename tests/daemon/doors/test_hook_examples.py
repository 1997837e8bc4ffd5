"""The hook on facts learned from a runtime example's own sessions, asked as the runtime asks.

`once` on a copy of examples/runtimes/<runtime> with the scripted model, which answers with
a fact its turns say (test_runtime_examples); then the hook, as a process, with the stdin
Claude Code and Codex send on `UserPromptSubmit`, hands that fact to the prompt it bears on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.daemon.transcripts.test_adapters import nothing_found, request_schema, use_scripted_model
from tests.daemon.transcripts.test_runtime_examples import runtime_example, sent_turns
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

SCRIPT = Path(sys.executable).parent / "metaeng-daemon"


def claude_code_prompt(cwd: Path, text: str) -> dict[str, Any]:
    """Claude Code's UserPromptSubmit input (code.claude.com/docs/en/hooks)."""
    return {"session_id": "0b5d7c1e-9f2a-4c3b-8d4e-5f6a7b8c9d0e", "transcript_path": str(cwd / "t.jsonl"),
            "cwd": str(cwd), "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": text}


def codex_prompt(cwd: Path, text: str) -> dict[str, Any]:
    """Codex's UserPromptSubmit input (developers.openai.com/codex/hooks)."""
    return {"session_id": "0199a213-81c0-7800-8aa1-bbab2a035b10", "turn_id": "t-3", "transcript_path": None,
            "cwd": str(cwd), "hook_event_name": "UserPromptSubmit", "model": "gpt-5-codex",
            "permission_mode": "default", "prompt": text}


@pytest.mark.parametrize(
    ("runtime", "quote", "value", "ask"),
    [
        pytest.param("claude-code", "We test with `pytest -q`", "pytest -q", claude_code_prompt, id="claude-code"),
        pytest.param("codex", "We run the tests with `uv run pytest -q`", "uv run pytest -q", codex_prompt, id="codex"),
    ],
)
def test_a_fact_learned_from_the_examples_sessions_reaches_the_prompt_it_bears_on(
    root: Path, fake_model: FakeModelServer, runtime: str, quote: str, value: str, ask: Any
) -> None:
    config = runtime_example(root, runtime)
    use_scripted_model(config, fake_model)

    def answer(body: dict[str, Any]) -> dict[str, list[Any]]:
        if "facts" not in request_schema(body)["required"]:
            return nothing_found(body)
        cited = [(tid, day) for tid, (day, text) in sent_turns(body).items() if quote in text]
        return {"facts": [{"turn": tid, "quote": quote, "entity": "project", "key": "test_command", "value": value,
                           "confidence": 0.9, "valid_from": day} for tid, day in cited]}

    for _ in range(20):
        fake_model.reply(answer)
    done = run_cli(config, "once", "--agent", "coder", "--json")
    assert done.code == 0, done.err
    raw = yaml.safe_load(config.read_text())
    home = (config.parent / raw["agents"]["coder"]["home"]).resolve()
    index = (config.parent / raw["state_dir"]).resolve() / "agents" / "coder" / "delivery.sqlite3"
    assert index.is_file()

    def hook(payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(SCRIPT), "hook", runtime, "--index", str(index)], input=json.dumps(payload),
                              capture_output=True, text=True, timeout=60)

    given = hook(ask(home, "how do I run the tests here?"))
    assert given.returncode == 0 and given.stderr == "", given.stderr
    context = json.loads(given.stdout)["hookSpecificOutput"]
    assert context["hookEventName"] == "UserPromptSubmit"
    assert f"project.test_command = {value}" in context["additionalContext"]
    assert quote in context["additionalContext"]
    unrelated = hook(ask(home, "rename the parser module"))
    assert (unrelated.returncode, unrelated.stdout) == (0, "")

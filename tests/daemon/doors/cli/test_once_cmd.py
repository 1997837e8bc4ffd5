"""What `once` prints for a person: each line of the run's report once, and a likely mistake
in the config before the run it would spoil."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import yaml

from daemon.doors.cli import main
from tests.support.deploy import TEST_KEY, base_config, run_cli, write_config, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

TRANSCRIPT_PASSES = ("distillation", "skill_learning", "instruction_review")
GUARD_LINE = "skipped by precision guards: 5 tool results"


def openclaw_event(role: str, text: str, index: int) -> str:
    message = {"role": role, "content": [{"type": "text", "text": text}]}
    stamp = f"2026-11-02T10:0{index}:00Z"
    return (
        json.dumps({"type": "message", "id": f"{role}-{index}", "timestamp": stamp, "message": message})
        + "\n"
    )


def three_transcript_passes(root: Path, model: FakeModelServer) -> Path:
    """Five OpenClaw turns, each with a tool result the precision guards skip; the three
    passes that read transcripts on, the others off. Distillation stores a fact (so the run
    is committed, with its report as the commit message)."""
    config = base_config(root, model.url)
    config["passes"] = {
        name: name in TRANSCRIPT_PASSES
        for name in (
            *TRANSCRIPT_PASSES,
            "memory_consolidation",
            "library_maintenance",
            "workspace_consolidation",
        )
    }
    config["agents"]["ada"]["transcripts"] = {"format": "openclaw", "turn_idle_seconds": 0}
    home = root / "ada"
    (home / "AGENTS.md").write_text("# Instructions\n\n- Be brief.\n", encoding="utf-8")
    events = [
        openclaw_event(role, text, i)
        for i in range(5)
        for role, text in (
            ("user", "I live in Berlin." if i == 0 else f"Question {i}?"),
            ("toolResult", "tool output"),
            ("assistant", f"Answer {i}."),
        )
    ]
    write_transcript(home, "t1.jsonl", "".join(events))
    model.reply({"facts": [berlin_fact(valid_from="2026-11-02")]}, schema="DistillationResponse")
    model.reply({"candidates": []}, schema="ScoutResponse")
    model.reply({"proposals": []}, schema="InstructionReviewResponse")
    return write_config(root, config)


def test_what_every_transcript_pass_reports_alike_is_said_once(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = three_transcript_passes(root, fake_model)

    result = run_cli(config, "once", "--agent", "ada")

    assert result.code == 0, result.err
    assert result.out.count(GUARD_LINE) == 1, result.out
    lines = result.out.splitlines()
    shared = lines.index("  reported by distillation, skill_learning and instruction_review:")
    assert lines[shared + 1] == f"      {GUARD_LINE}"
    assert lines[shared - 1].startswith("  instruction_review ")  # after every pass's own line
    shown = run_cli(config, "show", result.out.split()[1]).out
    assert (
        shown.count(GUARD_LINE) == 1
        and "reported by distillation, skill_learning and instruction_review:" in shown
    )


def once_in_one_stream(config: Path) -> tuple[int, str]:
    """`once` with stdout and stderr in one stream, as a terminal shows them."""
    stream = io.StringIO()
    env = {"HOME": os.environ["HOME"], "TEST_API_KEY": TEST_KEY}
    code = main(["--config", str(config), "once", "--agent", "ada"], env=env, stdout=stream, stderr=stream)
    return code, stream.getvalue()


def test_a_local_server_left_at_the_openai_dialect_is_warned_about_before_the_run(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)  # http://127.0.0.1:…, dialect left at openai
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    code, printed = once_in_one_stream(config)

    assert code == 0, printed
    warning = printed.index("warning: model.base_url http://127.0.0.1")
    assert "set model.dialect to llama.cpp, vllm or ollama" in printed
    assert warning < printed.index(" on agent ada: ") < printed.index("undo with:")

    data = yaml.safe_load(config.read_text())
    data["model"]["dialect"] = "llama.cpp"
    config.write_text(yaml.safe_dump(data))
    code, printed = once_in_one_stream(config)
    assert code == 0 and "warning" not in printed, printed

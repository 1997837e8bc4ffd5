"""The one compact rendering of turns (daemon/transcripts/turn_render.py), and grounding against it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from daemon.passes.turn_batches import split_turns, wire_bytes
from daemon.transcripts.turn_render import TOOL_CHARS
from tests.daemon.transcripts.test_reader import read, transcript
from tests.support.deploy import base_config, message, run_cli, write_config
from tests.support.fake_model import FakeModelServer
from tests.support.runs import OTHER_PASSES

REMINDER = "<system-reminder>Tools: shell, read_file. Answer briefly.</system-reminder>"
LISTING = "id,city\n" + "\n".join(f"{n},Lyon" for n in range(200)) + "\nowner city: Marseille"


def agentic(turns: int) -> str:
    lines = []
    for i in range(turns):
        stamp = f"2026-11-02T10:{i:02d}:00Z"
        lines += [
            message("user", f"Export the customers, part {i}.", stamp),
            message("system", REMINDER, stamp),
            message("tool", LISTING, stamp),
            message("assistant", f"Exported part {i}.", stamp),
        ]
    return "".join(lines) + json.dumps({"type": "session_end"}) + "\n"


def test_tool_output_is_cut_with_a_marker_and_grounding_sees_only_the_shown_part(tmp_path: Path) -> None:
    transcript(tmp_path, agentic(4))
    (group,) = split_turns(read(tmp_path).turns, 100_000, 1)

    tool = group.bodies[0]["messages"][2]
    assert tool[0] == "tool" and tool[1].startswith(LISTING[:TOOL_CHARS])
    assert f"{len(LISTING) - TOOL_CHARS} more characters of tool output not shown" in tool[1]
    shown = group.by_id["T1"].messages[2].content
    assert shown == LISTING[:TOOL_CHARS] and "Marseille" not in shown
    assert group.bodies[0]["date"] == "2026-11-02"


def test_a_repeated_system_reminder_is_shown_once_per_request(tmp_path: Path) -> None:
    transcript(tmp_path, agentic(4))
    (group,) = split_turns(read(tmp_path).turns, 100_000, 1)

    assert group.bodies[0]["messages"][1] == ["system", REMINDER]
    for body in group.bodies[1:]:
        assert body["messages"][1] == ["system", "[…same system text as in T1, not repeated]"]
        assert group.by_id[body["id"]].messages[1].content == ""


def test_turn_ids_run_on_across_requests_and_each_request_shows_its_own_reminder(tmp_path: Path) -> None:
    transcript(tmp_path, agentic(6))
    turns = read(tmp_path).turns
    one = wire_bytes(split_turns(turns[:1], 100_000, 1)[0].bodies[0]) + 2
    groups = split_turns(turns, 2 * one + 1, 5)

    ids = [body["id"] for g in groups for body in g.bodies]
    assert ids == [f"T{n}" for n in range(1, 7)] and len(groups) > 1
    for group in groups:
        assert group.bodies[0]["messages"][1] == ["system", REMINDER]
        assert sum(wire_bytes(b) + 2 for b in group.bodies) == group.wire_bytes <= 2 * one + 1


def deployment(root: Path, fake_model: FakeModelServer) -> Path:
    config = base_config(root, fake_model.url)
    config["passes"] = {name: name == "distillation" for name in ("distillation", *OTHER_PASSES)}
    config["agents"]["ada"]["memory"] = {"allowed_keys": ["city"], "allowed_sources": ["user", "tool"]}
    path = root / "ada" / "transcripts" / "s.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(agentic(4), encoding="utf-8")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    return write_config(root, config)


def fact(quote: str, value: str) -> dict[str, Any]:
    return {
        "turn": "T1", "quote": quote, "entity": "customer-1", "key": "city", "value": value,
        "confidence": 0.9, "valid_from": "2026-11-02",
    }


def test_a_fact_quoting_tool_output_the_model_was_not_shown_is_rejected_and_not_stored(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    shown, hidden = fact("1,Lyon", "Lyon"), fact("owner city: Marseille", "Marseille")
    fake_model.reply({"facts": [hidden, shown]}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = next(p for p in result.json()["passes"] if p["name"] == "distillation")
    assert entry.get("stored") == 1 and entry["rejected"] == 1, entry["rejected_facts"]
    assert "Marseille" in entry["rejected_facts"][0] and "quote not found in turn T1" in entry["rejected_facts"][0]
    assert "Marseille" not in fake_model.requests[0]["messages"][1]["content"]
    listed = run_cli(config, "memory", "list", "--agent", "ada", "--json")
    assert "Lyon" in listed.out and "Marseille" not in listed.out


@pytest.mark.slow
def test_a_cut_turn_keeps_as_many_whole_messages_as_fit_and_never_more() -> None:
    """The size of a cut turn is counted message by message: it must equal what is sent."""
    import random

    from daemon.transcripts.lines import Message
    from daemon.transcripts.turn_render import render_turn
    from daemon.transcripts.window import Turn

    rng = random.Random(7)
    for _ in range(200):
        messages = tuple(
            Message(
                rng.choice(["user", "assistant", "tool", "system"]),
                "".join(rng.choice('ab"\\\n é€😀') for _ in range(rng.randint(0, 300))),
                "2026-11-02T10:00:00Z",
                i,
            )
            for i in range(rng.randint(2, 40))
        )
        limit = rng.randint(1000, 8000)
        rendered = render_turn("T1", Turn("s.jsonl", 0, 1, messages), {}, limit)
        sent = rendered.body["messages"]
        assert wire_bytes(rendered.body) <= limit
        if sent[-1][1].startswith("[…cut:") and len(sent) > 2:
            # one more whole message would not have fitted beside the marker
            kept = len(sent) - 1
            whole = render_turn("T1", Turn("s.jsonl", 0, 1, messages), {}, None).body["messages"]
            trial = {**rendered.body, "messages": [*whole[: kept + 1], sent[-1]]}
            assert wire_bytes(trial) > limit

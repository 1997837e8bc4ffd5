"""No input stalls an agent forever (issue 13): poison lines, other formats, in-place rewrites.

Each case runs the CLI in-process against the scripted model server: a line that cannot
be normalised is skipped with its file and offset while the other lines are analysed and
`status` keeps working; a transcript in another format is held, not eaten; a redaction
before the cursor loses no new user message; a turn too big for the model is cut instead
of refused on every run; a pass failing the same way run after run shows as stuck.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import base_config, conversation, message, run_cli, write_config
from tests.support.fake_model import FakeModelServer
from tests.support.request_layout import turns_of
from tests.support.runs import FOUR_TURNS, OTHER_PASSES

OLD = (1_700_000_000, 1_700_000_000)


def deployment(root: Path, fake_model: FakeModelServer, **model: Any) -> Path:
    config = base_config(root, fake_model.url)
    config["passes"] = {name: name == "distillation" for name in ("distillation", *OTHER_PASSES)}
    config["model"].update(model)
    return write_config(root, config)


def transcript(root: Path, name: str, data: bytes) -> Path:
    path = root / "ada" / "transcripts" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.utime(path, OLD)
    return path


def distillation(result: Any) -> dict[str, Any]:
    return next(p for p in result.json()["passes"] if p["name"] == "distillation")


def sent_text(fake_model: FakeModelServer, index: int = -1) -> str:
    return str(fake_model.requests[index]["messages"][1]["content"])


def cursor_files(root: Path) -> dict[str, Any]:
    path = root / "state" / "agents" / "ada" / "cursors.json"
    return json.loads(path.read_text())["consumers"]["distillation"] if path.exists() else {}


POISON = {
    "nested arrays, 5000 deep": b'{"role": "user", "content": [' + b"[" * 5000 + b"]" * 5000 + b"]}",
    # Accepted by json.loads at the top of a stack, a RecursionError deeper in a pass.
    "nested arrays, 990 deep": b'{"role": "user", "content": [' + b"[" * 990 + b"]" * 990 + b"]}",
    "a lone surrogate (a cut emoji)": b'{"role": "user", "content": "I cut an emoji \\ud83d here"}',
    "a line over max_line_bytes": b'{"role": "user", "content": "' + b"x" * (2 * 1024 * 1024) + b'"}',
}
WHY = {
    "nested arrays, 5000 deep": "nested deeper than 32 arrays or objects",
    "nested arrays, 990 deep": "nested deeper than 32 arrays or objects",
    "a lone surrogate (a cut emoji)": "a lone surrogate escape",
    "a line over max_line_bytes": "over max_line_bytes",
}


@pytest.mark.parametrize("case", sorted(POISON))
def test_a_poison_line_is_skipped_with_file_and_offset_and_the_other_lines_are_analysed(
    root: Path, fake_model: FakeModelServer, case: str
) -> None:
    config = deployment(root, fake_model)
    head = conversation(FOUR_TURNS[:2], end=False).encode()
    tail = conversation(FOUR_TURNS[2:]).encode()
    transcript(root, "poison.jsonl", head + POISON[case] + b"\n" + tail)
    fake_model.reply({"facts": []}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distillation(result)
    assert entry["status"] == "nothing" and entry["turns"] == 4
    warning = next(w for w in entry["warnings"] if f"offset {len(head)}" in w)
    assert warning.startswith("transcripts/poison.jsonl: skipped a ") and WHY[case] in warning
    sent = sent_text(fake_model)
    assert all(user in sent for user, _ in FOUR_TURNS)
    status = run_cli(config, "status", "--json")
    assert status.code == 0, status.err
    assert status.json()["agents"][0]["pending_turns"] == 0
    assert run_cli(config, "status").code == 0


def test_a_poison_line_never_crashes_status_before_any_run(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    transcript(
        root, "poison.jsonl", POISON["nested arrays, 990 deep"] + b"\n" + conversation(FOUR_TURNS).encode()
    )
    status = run_cli(config, "status", "--json")
    assert status.code == 0, status.err
    assert status.json()["agents"][0]["pending_turns"] == 4


def test_control_characters_are_stripped_and_the_line_is_kept(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    noisy = message("user", "I live in Berlin.\x00\x07 \x1b[31mred\x1b[0m\ttab\x7f")
    transcript(root, "noisy.jsonl", noisy.encode() + conversation(FOUR_TURNS[1:]).encode())
    fake_model.reply({"facts": []}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distillation(result)
    assert entry["turns"] == 4 and entry["warnings"] == []
    turns = turns_of(fake_model.requests[-1])
    assert turns[0]["messages"][0][1] == "I live in Berlin. red\ttab"


CLAUDE_LINES = [
    {"type": "user", "message": {"role": "user", "content": f"Question {i}?"}, "uuid": f"u{i}"}
    if i % 2 == 0
    else {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "Yes."}]},
    }
    for i in range(12)
]


def test_a_transcript_in_another_format_is_held_not_consumed_and_read_once_fixed(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    claude = transcript(
        root, "claude.jsonl", "".join(json.dumps(line) + "\n" for line in CLAUDE_LINES).encode()
    )
    transcript(root, "s1.jsonl", conversation(FOUR_TURNS).encode())
    fake_model.reply({"facts": []}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distillation(result)
    assert entry["turns"] == 4 and "I live in Berlin." in sent_text(fake_model)
    (held,) = entry["warnings"]
    assert held.startswith("transcripts/claude.jsonl: held, not read: 12 of 12 lines read are not in ")
    assert "agents.ada.transcripts.format: jsonl" in held
    assert "transcripts/s1.jsonl" in cursor_files(root) and "transcripts/claude.jsonl" not in cursor_files(
        root
    )
    status = run_cli(config, "status", "--json")
    assert status.code == 0, status.err
    ada = status.json()["agents"][0]
    assert ada["pending_turns"] == 0
    assert [h["file"] for h in ada["held_transcripts"]] == ["transcripts/claude.jsonl"]
    assert ada["held_transcripts"][0]["reason"] == held.split("held, not read: ", 1)[1]
    assert "held transcript transcripts/claude.jsonl: 12 of 12 lines" in run_cli(config, "status").out

    # Converted to the configured format: read from the cursor it kept (the start).
    claude.write_text(conversation([(f"Question {i}?", "Yes.") for i in range(0, 12, 2)]), encoding="utf-8")
    os.utime(claude, OLD)
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    again = run_cli(config, "once", "--agent", "ada", "--json")
    assert again.code == 0 and distillation(again)["turns"] == 6
    assert "Question 10?" in sent_text(fake_model)
    assert run_cli(config, "status", "--json").json()["agents"][0]["held_transcripts"] == []


def test_an_in_place_redaction_before_the_cursor_keeps_the_first_new_user_message(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    secret = "sk-live-" + "0123456789abcdef" * 4
    pairs = [(f"Filler question {i}, padded to push the secret past the first KiB.", "Ok.") for i in range(8)]
    pairs.insert(6, (f"My token is {secret}", "Please rotate it."))
    path = transcript(root, "s1.jsonl", conversation(pairs, end=False).encode())
    assert path.read_bytes().index(secret.encode()) > 1024
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    inode = path.stat().st_ino

    # A redaction tool rewrites the earlier line in place (same inode, same first KiB),
    # then the agent appends four new turns.
    redacted = path.read_bytes().replace(secret.encode(), b"[REDACTED]")
    with path.open("r+b") as fh:
        fh.write(redacted)
        fh.truncate()
        fh.write(conversation(FOUR_TURNS, day="2026-11-03").encode())
    os.utime(path, OLD)
    assert path.stat().st_ino == inode
    fake_model.reply({"facts": []}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distillation(result)
    assert entry["turns"] == 4
    assert not any("malformed" in w for w in entry["warnings"])
    assert any("rewritten before the cursor" in w for w in entry["warnings"])
    sent = sent_text(fake_model)
    assert all(user in sent for user, _ in FOUR_TURNS) and "Filler question" not in sent


def test_a_turn_too_big_for_the_model_is_cut_instead_of_refused_on_every_run(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model, max_input_bytes=20_000)
    tool_output = "".join(message("tool", f"log line {i} " + "x" * 3000) for i in range(20))
    big_turn = message("user", "Run the build, please.") + tool_output
    transcript(root, "s1.jsonl", big_turn.encode() + conversation(FOUR_TURNS).encode())
    for _ in range(3):
        fake_model.reply({"facts": []}, schema="DistillationResponse")

    first = run_cli(config, "once", "--agent", "ada", "--json")

    assert first.code == 0, first.err
    entry = distillation(first)
    assert entry["status"] == "nothing" and entry["turns_waiting"] == 0  # analysed, never refused
    sent = "".join(sent_text(fake_model, i) for i in range(len(fake_model.requests)))
    # The huge turn went whole, cut with markers the model can see; the turns after it too.
    assert "Run the build, please." in sent and "[…cut:" in sent and "Thanks!" in sent
    assert "log line 0 " in sent


@pytest.mark.slow
def test_a_pass_failing_the_same_way_three_runs_in_a_row_is_reported_stuck(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    transcript(root, "s1.jsonl", conversation(FOUR_TURNS).encode())
    store = root / "ada" / ".metaeng" / "facts.jsonl"
    store.parent.mkdir(parents=True)
    store.write_text("{not json\n")

    for run in range(3):
        assert (
            run_cli(config, "status", "--json").json()["agents"][0]["passes"]["distillation"]["stuck"] is None
        )
        result = run_cli(config, "once", "--agent", "ada", "--json")
        assert result.code == 1 and distillation(result)["status"] == "failed", run

    status = run_cli(config, "status", "--json")
    assert status.code == 0, status.err
    passes = status.json()["agents"][0]["passes"]
    stuck = passes["distillation"]["stuck"]
    assert stuck["runs"] == 3 and "line 1: not JSON" in stuck["reason"] and stuck["since"]
    assert all(p["stuck"] is None for name, p in passes.items() if name != "distillation")
    human = run_cli(config, "status").out
    assert "stuck: distillation failed the same way on its last 3 runs" in human

    store.unlink()  # a person fixes the store: the next run ends the streak
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    assert run_cli(config, "status", "--json").json()["agents"][0]["passes"]["distillation"]["stuck"] is None


@pytest.mark.slow
def test_a_model_answer_refused_the_same_way_three_runs_in_a_row_is_reported_stuck(
    root: Path, fake_model: FakeModelServer
) -> None:
    """A refused answer keeps its turns and is asked again next cycle: forever, if the model
    (or a proxy) always answers that way. Three alike in a row are a stuck pass."""
    config = deployment(root, fake_model)
    transcript(root, "s1.jsonl", conversation(FOUR_TURNS).encode())

    for run in range(3):
        fake_model.reply({"facts": "not a list"}, schema="DistillationResponse")
        result = run_cli(config, "once", "--agent", "ada", "--json")
        assert distillation(result)["status"] == "skipped", run
        assert distillation(result)["reason"].startswith("model answer rejected — "), distillation(result)

    stuck = run_cli(config, "status", "--json").json()["agents"][0]["passes"]["distillation"]["stuck"]
    assert stuck is not None and stuck["runs"] == 3 and stuck["reason"].startswith("model answer rejected")
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    assert run_cli(config, "status", "--json").json()["agents"][0]["passes"]["distillation"]["stuck"] is None


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reader", "answer"),
    [("distillation", ("DistillationResponse", {"facts": []})), ("skill_learning", ("ScoutResponse", {"candidates": []}))],
)
def test_a_turn_cut_at_the_read_window_is_analysed_even_alone(
    root: Path, fake_model: FakeModelServer, reader: str, answer: tuple[str, dict[str, Any]]
) -> None:
    config = base_config(root, fake_model.url)
    config["passes"] = {name: name == reader for name in ("distillation", *OTHER_PASSES)}
    config["agents"]["ada"]["transcripts"] = {"max_read_bytes": 4096, "max_line_bytes": 1024}
    write_config(root, config)
    questions = [f"Question {i}: where do I live now?" for i in range(9)]
    first = conversation([(q, "Noted.") for q in questions[:5]], end=False)
    # The fifth turn's tool output is one line longer than the whole read window.
    huge = message("tool", "x" * 5000)
    rest = conversation([(q, "Noted.") for q in questions[5:]])
    transcript(root, "s1.jsonl", (first + huge + rest).encode())

    sent = ""
    for _ in range(4):
        fake_model.reply(answer[1], schema=answer[0])
        result = run_cli(root / "config.yaml", "once", "--agent", "ada", "--json")
        assert result.code == 0, result.err
        sent += "".join(sent_text(fake_model, i) for i in range(len(fake_model.requests)))
        fake_model.requests.clear()

    assert [q for q in questions if q not in sent] == []


def bytes_read() -> int:
    """Bytes this process has read so far (Linux `rchar`: every read, from the page cache too)."""
    line = next(x for x in Path("/proc/self/io").read_text().splitlines() if x.startswith("rchar:"))
    return int(line.split()[1])


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs Linux /proc/self/io")
def test_an_unfinished_line_of_32_gib_costs_one_read_window_per_command_and_pass(
    root: Path, fake_model: FakeModelServer
) -> None:
    window = 1024 * 1024
    config = base_config(root, fake_model.url)
    config["passes"] = {name: name == "distillation" for name in ("distillation", *OTHER_PASSES)}
    config["agents"]["ada"]["transcripts"] = {"max_read_bytes": window}
    write_config(root, config)
    transcript(root, "s1.jsonl", conversation(FOUR_TURNS).encode())
    huge = transcript(root, "zz-huge.jsonl", b'{"x":1')
    with huge.open("r+b") as fh:
        fh.truncate(32 * 1024**3)  # sparse: no disk, but 32 GiB to read for whoever scans it
    os.utime(huge, OLD)
    config_path = root / "config.yaml"

    for command in (("status", "--json"), ("transcripts", "--agent", "ada", "--json")):
        before = bytes_read()
        result = run_cli(config_path, *command)
        assert result.code == 0, result.err
        assert bytes_read() - before < 8 * window, command

    offsets = []
    for _ in range(2):
        fake_model.reply({"facts": []}, schema="DistillationResponse")
        before = bytes_read()
        result = run_cli(config_path, "once", "--agent", "ada", "--json")
        assert result.code == 0, result.err
        assert bytes_read() - before < 8 * window
        cursor = cursor_files(root)["transcripts/zz-huge.jsonl"]
        assert cursor["skipping_from"] == 0
        offsets.append(cursor["offset"])
        assert (
            f"transcripts/zz-huge.jsonl: skipping the line at offset 0: longer than the read window "
            f"(max_read_bytes), no end in its first {cursor['offset']} bytes; looking on from offset "
            f"{cursor['offset']} next pass"
        ) in distillation(result)["warnings"]
    assert offsets == [window, 2 * window]  # one window further per pass, never the whole file


def test_a_line_longer_than_the_read_window_is_skipped_when_it_ends_and_the_next_turns_are_read(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = base_config(root, fake_model.url)
    config["passes"] = {name: name == "distillation" for name in ("distillation", *OTHER_PASSES)}
    config["agents"]["ada"]["transcripts"] = {"max_read_bytes": 4096, "max_line_bytes": 1024}
    write_config(root, config)
    huge = message("tool", "x" * 10_000)  # unfinished for now: no newline
    path = transcript(root, "s1.jsonl", huge[:-1].encode())
    for _ in range(3):
        fake_model.reply({"facts": []}, schema="DistillationResponse")
        assert run_cli(root / "config.yaml", "once", "--agent", "ada").code == 0
    with path.open("ab") as fh:  # the line ends, and four turns follow
        fh.write(b"\n" + conversation(FOUR_TURNS).encode())
    os.utime(path, OLD)
    warnings: list[str] = []
    sent = ""
    for _ in range(3):
        fake_model.reply({"facts": []}, schema="DistillationResponse")
        result = run_cli(root / "config.yaml", "once", "--agent", "ada", "--json")
        assert result.code == 0, result.err
        warnings += distillation(result)["warnings"]
        sent += "".join(sent_text(fake_model, i) for i in range(len(fake_model.requests)))
        fake_model.requests.clear()
    assert (
        f"transcripts/s1.jsonl: skipped a line at offset 0: {len(huge)} bytes, longer than the read window "
        "(max_read_bytes)"
    ) in warnings
    assert all(user in sent for user, _ in FOUR_TURNS) and "xxxx" not in sent
    cursor = cursor_files(root)["transcripts/s1.jsonl"]
    # Once past the line the field is not written: the daemon before it reads the file.
    assert cursor["offset"] == path.stat().st_size and "skipping_from" not in cursor

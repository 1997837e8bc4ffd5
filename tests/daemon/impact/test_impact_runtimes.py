"""`impact` on the session shapes of the runtimes (examples/runtimes/claude-code and codex,
copied into tmp_path): a correction and its recurrence in a later session, written in the
runtime's own line format, and the text that is not the person's (tool output, IDE blocks,
system reminders, environment context) never read as a statement."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from tests.support.deploy import run_cli

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "runtimes"
OLD = (1_700_000_000, 1_700_000_000)  # finished sessions: idle far past turn_idle_seconds
NOT_THE_PERSON = "Always deploy with the fab script"


def copy(example: str, tmp_path: Path) -> Path:
    target = tmp_path / example
    shutil.copytree(EXAMPLES / example, target, ignore=shutil.ignore_patterns("lock"))
    return target / "config.yaml"


def write_lines(path: Path, lines: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    os.utime(path, OLD)


def write_session(projects: Path, session: str, lines: list[dict[str, Any]], order: int = 0) -> None:
    """One Claude Code session of the project folder `projects`, finished `order` seconds after
    the first (the sessions are read in that order)."""
    path = projects / f"{session}.jsonl"
    write_lines(path, [{**line, "sessionId": session} for line in lines])
    os.utime(path, (OLD[0] + order, OLD[1] + order))


def impact(config: Path) -> dict[str, Any]:
    result = run_cli(config, "impact", "--agent", "coder", "--json")
    assert result.code == 0, result.err
    return result.json()


def quotes(document: dict[str, Any]) -> list[str]:
    return [s["quote"] for i in document["items"] for s in (i["first"], *i["recurrences"])]


def claude_line(kind: str, uuid: str, at: str, content: object, **extra: Any) -> dict[str, Any]:
    session = "7b2d4f60-5555-4e4e-9f9f-000000000005"
    return {"type": kind, "uuid": uuid, "parentUuid": None, "timestamp": at, "isSidechain": False,
            "sessionId": session, "cwd": "/srv/project", "version": "2.1.0", "userType": "external",
            "message": {"role": kind, "content": content}, **extra}  # fmt: skip


def test_impact_on_a_claude_code_project_finds_the_recurrence_and_not_the_injected_text(tmp_path: Path) -> None:
    config = copy("claude-code", tmp_path)
    tool = [{"type": "tool_result", "tool_use_id": "toolu_9", "content": f"{NOT_THE_PERSON}, not make release."}]
    lines = [
        claude_line("user", "v1", "2026-11-20T10:00:00Z",
                    "<system-reminder>\nNever deploy on Fridays, not ever.\n</system-reminder>\n"
                    "<ide_opened_file>Stop editing deploy.sh, not yours.</ide_opened_file>\n"
                    "I told you, we deploy the billing service with make release, not the fab script!"),
        claude_line("assistant", "v2", "2026-11-20T10:00:05Z", [{"type": "text", "text": "Sorry, make release."}]),
        claude_line("user", "v3", "2026-11-20T10:00:10Z", tool, toolUseResult={"stdout": NOT_THE_PERSON}),
        claude_line("assistant", "v4", "2026-11-20T10:00:15Z", [{"type": "text", "text": "Done."}]),
    ]  # fmt: skip
    write_lines(tmp_path / "claude-code" / "projects" / "-srv-project" / "7b2d4f60-5555-4e4e-9f9f-000000000005.jsonl", lines)
    document = impact(config)
    deploy = next(i for i in document["items"] if "make release" in i["first"]["quote"])
    assert [r["quote"] for r in deploy["recurrences"]] == [
        "I told you, we deploy the billing service with make release, not the fab script!"
    ]
    assert deploy["recurrences"][0]["session"].endswith("7b2d4f60-5555-4e4e-9f9f-000000000005.jsonl")
    said = " ".join(quotes(document))
    assert NOT_THE_PERSON not in said and "Fridays" not in said and "deploy.sh" not in said
    # the example's own system reminder ("always run tests") is not the person's either
    assert "always run tests" not in said


def codex_line(at: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": at, "type": kind, "payload": payload}


def codex_user(at: str, text: str) -> dict[str, Any]:
    return codex_line(at, "response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})


def test_impact_on_a_codex_session_finds_the_recurrence_and_not_the_tool_output(tmp_path: Path) -> None:
    config = copy("codex", tmp_path)
    uuid = "0199a213-81c0-7800-8aa1-bbab2a035d30"
    lines = [
        codex_line("2026-11-10T09:00:00.000Z", "session_meta",
                   {"id": uuid, "timestamp": "2026-11-10T09:00:00Z", "cwd": "/srv/project", "originator": "codex_cli_rs"}),
        codex_user("2026-11-10T09:00:00.003Z", "<environment_context>\n  <cwd>/srv/project</cwd>\n  Never use pip, not ever.\n</environment_context>"),
        codex_user("2026-11-10T09:00:01.200Z", "I told you: use ruff, not flake8!"),
        codex_line("2026-11-10T09:00:01.201Z", "event_msg", {"type": "user_message", "message": "I told you: use ruff, not flake8!", "images": []}),
        codex_line("2026-11-10T09:00:03.000Z", "response_item",
                   {"type": "function_call", "name": "shell", "arguments": "{\"command\": [\"cat\", \"setup.cfg\"]}", "call_id": "call_9"}),
        codex_line("2026-11-10T09:00:04.000Z", "response_item",
                   {"type": "function_call_output", "call_id": "call_9", "output": f"{NOT_THE_PERSON}, not make release."}),
        codex_line("2026-11-10T09:00:05.000Z", "response_item",
                   {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Switched to ruff."}]}),
        codex_line("2026-11-10T09:00:05.100Z", "event_msg", {"type": "task_complete", "last_agent_message": "Switched to ruff."}),
    ]  # fmt: skip
    write_lines(tmp_path / "codex" / "codex-home" / "sessions" / "2026" / "11" / "10" / f"rollout-2026-11-10T09-00-00-{uuid}.jsonl", lines)
    document = impact(config)
    ruff = next(i for i in document["items"] if "ruff" in i["first"]["quote"])
    assert ruff["first"]["quote"] == "Use ruff, not flake8, in this repo."
    assert [r["quote"] for r in ruff["recurrences"]] == ["I told you: use ruff, not flake8!"]
    said = " ".join(quotes(document))
    assert NOT_THE_PERSON not in said and "pip, not ever" not in said
    # the AGENTS.md instructions the runtime injects are not the person's words
    assert "Run the tests." not in said


def test_a_change_of_state_about_the_command_claude_code_just_ran_is_a_correction(tmp_path: Path) -> None:
    """The agent only ran a tool (`npx jest`): its tool call, as the adapter summarises it, is
    what "we dropped jest" is about; the same sentence after an unrelated answer is news."""
    config = copy("claude-code", tmp_path)
    session = "7b2d4f60-5555-4e4e-9f9f-000000000006"
    run = [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "npx jest src/dates.test.ts"}}]
    said = "The tests run with vitest now, we dropped jest in the autumn."
    lines = [
        claude_line("user", "w1", "2026-11-21T10:00:00Z", "Fix the date parsing test."),
        claude_line("assistant", "w2", "2026-11-21T10:00:05Z", run, sessionId=session),
        claude_line("user", "w3", "2026-11-21T10:00:10Z", said),
        claude_line("assistant", "w4", "2026-11-21T10:00:15Z", [{"type": "text", "text": "Right, vitest."}]),
        claude_line("user", "w5", "2026-11-21T10:00:20Z", "Lunch was good, we dropped by the new place."),
    ]  # fmt: skip
    lines = [{**line, "sessionId": session} for line in lines]
    write_lines(tmp_path / "claude-code" / "projects" / "-srv-project" / f"{session}.jsonl", lines)
    document = impact(config)
    (item,) = [i for i in document["items"] if "jest" in i["first"]["quote"]]
    assert item["first"]["kind"] == "correction" and "changed:we dropped" in item["first"]["cues"]
    assert "new place" not in " ".join(quotes(document))


def test_a_value_said_alone_is_a_correction_when_claude_code_amends_its_work(tmp_path: Path) -> None:
    """"db's on 5433 locally." holds no word a list could: the agent's reply tells — it opens
    amending and writes the value the person gave (after a tool call, as Claude Code does).
    The same sentence answered by a reply that just goes on is not read as one."""
    config = copy("claude-code", tmp_path)
    projects = tmp_path / "claude-code" / "projects" / "-srv-project"
    plan = [{"type": "text", "text": "Running `psql postgres://rota@localhost:5432/rota` to reproduce the lock."}]
    # a long tool call before the words: the reply still opens with "You're right"
    edit = [{"type": "tool_use", "id": "toolu_2", "name": "Bash",
             "input": {"command": "sed -i 's/localhost:5432/localhost:5433/' .env.local && pnpm db:migrate --config drizzle.config.ts"}}]  # fmt: skip
    for session, reply, day in (
        ("7b2d4f60-5555-4e4e-9f9f-000000000007", "You're right, my mistake: DATABASE_URL now points at 5433.", "21"),
        ("7b2d4f60-5555-4e4e-9f9f-000000000008", "Looking at the Metabase query next.", "22"),
    ):
        lines = [
            claude_line("user", "a1", f"2026-11-{day}T10:00:00Z", "Reproduce the migration lock locally."),
            claude_line("assistant", "a2", f"2026-11-{day}T10:00:05Z", plan),
            claude_line("user", "a3", f"2026-11-{day}T10:00:10Z", "db's on 5433 locally."),
            claude_line("assistant", "a4", f"2026-11-{day}T10:00:12Z", edit),
            claude_line("assistant", "a5", f"2026-11-{day}T10:00:15Z", [{"type": "text", "text": reply}]),
        ]  # fmt: skip
        write_session(projects, session, lines)
    document = impact(config)
    (item,) = [i for i in document["items"] if "5433" in i["first"]["quote"]]
    assert item["first"]["session"].endswith("000000000007.jsonl")
    assert item["first"]["kind"] == "correction" and item["first"]["cues"] == ["amended:you're right"]
    assert item["recurrences"] == []


def test_a_sentence_claude_code_acts_on_by_editing_its_file_again_is_a_correction(tmp_path: Path) -> None:
    """The agent wrote a migration; the person says how due_date is filled, with no word a list
    could hold, and the agent edits that migration again without a word of apology: it acted on
    a correction. The same sentence answered by an edit of another file is the next task."""
    config = copy("claude-code", tmp_path)
    projects = tmp_path / "claude-code" / "projects" / "-srv-project"
    migration = "/srv/project/db/migrations/0042_due_date.sql"
    wrote = [{"type": "text", "text": "Added the migration for due_date."},
             {"type": "tool_use", "id": "toolu_3", "name": "Write", "input": {"file_path": migration, "content": "ALTER TABLE …"}}]  # fmt: skip
    said = "The importer takes due_date from the order date, 30 days later."
    for session, edited, day in (
        ("7b2d4f60-5555-4e4e-9f9f-000000000009", migration, "23"),
        ("7b2d4f60-5555-4e4e-9f9f-000000000010", "/srv/project/tests/test_importer.py", "24"),
    ):
        edit = [{"type": "tool_use", "id": "toolu_4", "name": "Edit",
                 "input": {"file_path": edited, "old_string": "NULL", "new_string": "NOT NULL"}}]  # fmt: skip
        lines = [
            claude_line("user", "b1", f"2026-11-{day}T10:00:00Z", "Add a due_date column to invoices."),
            claude_line("assistant", "b2", f"2026-11-{day}T10:00:05Z", wrote),
            claude_line("user", "b3", f"2026-11-{day}T10:00:10Z", said),
            claude_line("assistant", "b4", f"2026-11-{day}T10:00:12Z", edit),
            claude_line("assistant", "b5", f"2026-11-{day}T10:00:15Z", [{"type": "text", "text": "Done."}]),
        ]  # fmt: skip
        write_session(projects, session, lines)
    document = impact(config)
    (item,) = [i for i in document["items"] if "order date" in i["first"]["quote"]]
    assert item["first"]["session"].endswith("000000000009.jsonl")
    assert item["first"]["kind"] == "correction" and item["first"]["cues"] == ["acted_on:due_date"]
    assert item["recurrences"] == []


def test_a_value_claude_code_writes_in_place_of_its_own_is_a_correction(tmp_path: Path) -> None:
    """"Kowalski, with an i." holds no word a list could, and the reply opens with no apology:
    it writes its draft again with the person's spelling where its own was
    (`daemon.impact.swapped`). The same sentence answered by a draft that keeps the agent's
    spelling is not read as one."""
    config = copy("claude-code", tmp_path)
    projects = tmp_path / "claude-code" / "projects" / "-srv-project"
    draft = "Hi Marta, your session is on Tuesday at 9:00.\nBest regards,\nAnna Kowalsky"
    for session, reply, order in (
        ("7b2d4f60-5555-4e4e-9f9f-000000000013", draft.replace("Kowalsky", "Kowalski"), 0),
        ("7b2d4f60-5555-4e4e-9f9f-000000000014", draft, 1),
    ):
        lines = [
            claude_line("user", "e1", "2026-11-25T10:00:00Z", "Write Marta's reminder for Tuesday."),
            claude_line("assistant", "e2", "2026-11-25T10:00:05Z", [{"type": "text", "text": draft}]),
            claude_line("user", "e3", "2026-11-25T10:00:10Z", "Kowalski, with an i."),
            claude_line("assistant", "e4", "2026-11-25T10:00:15Z", [{"type": "text", "text": reply}]),
        ]  # fmt: skip
        write_session(projects, session, lines, order)
    document = impact(config)
    (item,) = [i for i in document["items"] if "Kowalski" in i["first"]["quote"]]
    assert item["first"]["session"].endswith("000000000013.jsonl")
    assert item["first"]["kind"] == "correction" and item["first"]["cues"] == ["swapped:kowalski"]
    assert item["recurrences"] == []


def test_a_correction_said_again_in_other_words_at_the_same_mistake_is_a_recurrence(tmp_path: Path) -> None:
    """Claude Code rounds the Dupont totals in two sessions; the person says so in other words
    each time, near but under the bar of the same thing said again. The agent's turns around the
    two tell it is the same mistake (`daemon.impact.situation`): one item, said again. A third
    session where the person says something as near about other work stays an item of its own."""
    config = copy("claude-code", tmp_path)
    projects = tmp_path / "claude-code" / "projects" / "-srv-project"
    shutil.rmtree(projects.parent)  # the example's sessions: their statements would weigh the words otherwise
    sessions = (
        ("11", "Don't round the invoice totals, keep the cents.",
         "I rounded the Dupont invoice totals to whole euros: 1,240 € instead of 1,239.60 €.",
         "Back to cents: the Dupont totals read 1,239.60 € again."),
        ("12", "Never round invoice amounts, two decimals.",
         "Here is the Dupont invoice, totals rounded to whole euros (1,240 €).",
         "Back to cents: the Dupont totals read 1,239.60 € again."),
        ("13", "No rounding in the invoice reminders, they quote the exact amounts.",
         "The reminder email for Keller GmbH is drafted, three paragraphs.",
         "Shortened the Keller reminder to one paragraph."),
    )  # fmt: skip
    for n, (day, correction, before, reply) in enumerate(sessions):
        session = f"7b2d4f60-5555-4e4e-9f9f-0000000000{day}"
        tool = [{"type": "tool_use", "id": "toolu_5", "name": "Bash", "input": {"command": "pytest -q tests/invoices"}}]
        lines = [
            claude_line("user", "c1", f"2026-11-{day}T10:00:00Z", "Draft the invoice run for this week."),
            claude_line("assistant", "c2", f"2026-11-{day}T10:00:05Z", [{"type": "text", "text": before}, *tool]),
            claude_line("user", "c3", f"2026-11-{day}T10:00:10Z", correction),
            claude_line("assistant", "c4", f"2026-11-{day}T10:00:15Z", [{"type": "text", "text": reply}]),
        ]  # fmt: skip
        write_session(projects, session, lines, n)
    document = impact(config)
    rounding = [i for i in document["items"] if "round" in i["first"]["quote"].casefold()]
    assert [(i["first"]["quote"], [r["quote"] for r in i["recurrences"]]) for i in rounding] == [
        ("Don't round the invoice totals, keep the cents.", ["Never round invoice amounts, two decimals."]),
        ("No rounding in the invoice reminders, they quote the exact amounts.", []),
    ]


def test_tool_calls_in_the_reply_tell_no_situation(tmp_path: Path) -> None:
    """Two near rules about the README, each answered by Claude Code with tool calls alone (an
    edit of README.md, a lint run): the same calls every time, they say nothing about which
    mistake (the adapters write them on lines of their own after the reply's words)."""
    config = copy("claude-code", tmp_path)
    projects = tmp_path / "claude-code" / "projects" / "-srv-project"
    shutil.rmtree(projects.parent)
    others = ["Always answer in English.", "Never deploy on Fridays.", "Use pnpm, not npm.",
              "Keep commit messages under 72 characters.", "Dates are ISO 8601, not US style."]  # fmt: skip
    sessions = (
        ("21", "Don't use tables in the README.", "I documented the options in the README as a table."),
        ("22", "Don't put badges in the README header.", "The README header now shows the build and coverage badges."),
        *((f"{23 + n}", rule, "Done, I updated the file.") for n, rule in enumerate(others)),
    )
    calls = [{"type": "tool_use", "id": "toolu_6", "name": "Edit",
              "input": {"file_path": "/srv/project/README.md", "old_string": "a", "new_string": "b"}},
             {"type": "tool_use", "id": "toolu_7", "name": "Bash", "input": {"command": "npx markdownlint --fix README"}}]  # fmt: skip
    for n, (day, rule, before) in enumerate(sessions):
        session = f"7b2d4f60-5555-4e4e-9f9f-0000000000{day}"
        lines = [
            claude_line("user", "d1", f"2026-11-{day}T10:00:00Z", "Tidy up the README."),
            claude_line("assistant", "d2", f"2026-11-{day}T10:00:05Z", [{"type": "text", "text": before}]),
            claude_line("user", "d3", f"2026-11-{day}T10:00:10Z", rule),
            claude_line("assistant", "d4", f"2026-11-{day}T10:00:15Z", calls),
        ]  # fmt: skip
        write_session(projects, session, lines, n)
    document = impact(config)
    readme = [i for i in document["items"] if "README" in i["first"]["quote"]]
    assert [(i["first"]["quote"], i["recurrences"]) for i in readme] == [
        ("Don't use tables in the README.", []),
        ("Don't put badges in the README header.", []),
    ]

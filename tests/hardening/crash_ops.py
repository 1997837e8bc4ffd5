"""Operations for the crash matrix: each prepares a deployment and names the command to crash.

Shared by tests/hardening/test_crash_matrix.py (every named step) and
benchmarks/bench_crash_trials.py (random kill times). Configs use relative paths, so a
prepared deployment can be copied to a fresh folder per trial.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.facts import stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.support.runs import FOUR_TURNS, OTHER_PASSES, berlin_fact

EXAMPLES = Path(__file__).parents[2] / "examples"
ALL_PASSES = ("distillation", *OTHER_PASSES)
AGENTS_MD = "# Instructions\n\n## Reports\n- Post the weekly ops report in #ops.\n"
ASK = "Mention who is on call next week at the end of the report from now on."
Reply = tuple[Any, str]


@dataclass(frozen=True)
class PersonEdit:
    """A person appends `text` to `path` (in the home) while the model answer `schema` is delayed."""

    path: str
    text: str
    schema: str


@dataclass(frozen=True)
class CrashOp:
    name: str
    passes: tuple[str, ...]
    prepare: Callable[[Path, FakeModelServer], list[str]]  # returns the command to crash
    replies: tuple[Reply, ...] = ()
    person_edit: PersonEdit | None = None


def write_deployment(
    root: Path, url: str, passes: tuple[str, ...], agent: dict[str, Any] | None = None
) -> Path:
    config = {
        "version": 1,
        "state_dir": "./state",
        "model": {
            "base_url": url,
            "model": "deep-test",
            "api_key_env": "TEST_API_KEY",
            "structured_output": "json_schema",
            "price_input_per_million": 1.0,
            "price_output_per_million": 4.0,
            "max_output_tokens": 1000,
            "timeout_seconds": 10,
        },
        "passes": {name: name in passes for name in ALL_PASSES},
        "agents": {"ada": {"home": "./ada", **(agent or {})}},
    }
    (root / "ada").mkdir(parents=True, exist_ok=True)
    path = root / "config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _turns(root: Path) -> None:
    (root / "ada" / "AGENTS.md").write_text(AGENTS_MD)
    pairs = [*FOUR_TURNS[:2], (ASK, "Added: on call next week is Priya."), FOUR_TURNS[3]]
    write_transcript(root / "ada", "s1.jsonl", conversation(pairs))


def _facts_reply() -> Reply:
    return ({"facts": [berlin_fact()]}, "DistillationResponse")


def _create_reply() -> Reply:
    create = {
        "action": "create",
        "name": "weekly-report",
        "capability": "the weekly report",
        "reason": "asked twice",
        "cites": ["T3"],  # the turn that asks for it: the steps must rest on its words
        "description": "Compile the weekly report.",
        "trigger": "When asked for the weekly report.",
        "steps": ["Mention who is on call next week.", "Put it at the end of the report."],
        "sections": [],
        "file_additions": [],
    }
    return ({"candidates": [create]}, "ScoutResponse")


def _proposal_reply() -> Reply:
    proposal = {
        "file": "AGENTS.md",
        "title": "End the report with who is on call",
        "rationale": "a standing request",
        "evidence": [{"turn": "T3", "quote": ASK}],
        "edits": [
            {
                "old": "- Post the weekly ops report in #ops.",
                "new": "- Post the weekly ops report in #ops.\n- End it with who is on call next week.",
            }
        ],
    }
    return ({"proposals": [proposal]}, "InstructionReviewResponse")


def _prep_plain(passes: tuple[str, ...]) -> Callable[[Path, FakeModelServer], list[str]]:
    def prepare(root: Path, model: FakeModelServer) -> list[str]:
        write_deployment(root, model.url, passes)
        _turns(root)
        return ["once", "--agent", "ada"]

    return prepare


def _prep_edit_during_run(root: Path, model: FakeModelServer) -> list[str]:
    # Distillation renders FACTS.md, which a person edits while its answer is delayed: it is
    # dropped at apply, and the skill the scout creates is what the killed apply writes.
    write_deployment(root, model.url, ("distillation", "skill_learning"), {"memory": {"markdown_view": "FACTS.md"}})
    (root / "ada" / "FACTS.md").write_text("# Facts\n")
    _turns(root)
    return ["once", "--agent", "ada"]


def _prep_memory(root: Path, model: FakeModelServer) -> list[str]:
    write_deployment(root, model.url, ("memory_consolidation",))
    write_store(root / "ada", stored_fact(), stored_fact(id="f-twin", source_event_id="t@9"))
    return ["once", "--agent", "ada"]


def _prep_library(root: Path, model: FakeModelServer) -> list[str]:
    write_deployment(root, model.url, ("library_maintenance",))
    for name in ("on-call-lookup", "find-next-on-call"):
        shutil.copytree(EXAMPLES / "ada" / "skills" / name, root / "ada" / "skills" / name)
        shutil.copy(EXAMPLES / "ada" / "skills" / f"{name}.provenance.json", root / "ada" / "skills")
    return ["once", "--agent", "ada"]


def _prep_workspace(root: Path, model: FakeModelServer) -> list[str]:
    write_deployment(
        root, model.url, ("workspace_consolidation",), {"workspace": {"daily_log_anchor": "latest"}}
    )
    logs = root / "ada" / "memory"
    logs.mkdir(parents=True)
    for day in range(20, 24):
        (logs / f"2026-11-{day}.md").write_text(
            f"# 2026-11-{day}\n\n- Reminder: the export lives at exports/tickets.csv.\n"
        )
    return ["once", "--agent", "ada"]


def _prep_undo(root: Path, model: FakeModelServer) -> list[str]:
    config = write_deployment(root, model.url, ("distillation",))
    _turns(root)
    content, schema = _facts_reply()
    model.reply(content, schema=schema)
    run_id = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    assert run_id
    return ["undo", run_id]


def _prep_approve(root: Path, model: FakeModelServer) -> list[str]:
    config = write_deployment(root, model.url, ("instruction_review",))
    _turns(root)
    content, schema = _proposal_reply()
    model.reply(content, schema=schema)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    proposals = run_cli(config, "review", "list", "--agent", "ada", "--json").json()
    assert len(proposals) == 1, proposals
    return ["review", "approve", proposals[0]["id"], "--why", "crash test"]


OPS: tuple[CrashOp, ...] = (
    CrashOp("distillation", ("distillation",), _prep_plain(("distillation",)), (_facts_reply(),)),
    CrashOp("skill_learning", ("skill_learning",), _prep_plain(("skill_learning",)), (_create_reply(),)),
    CrashOp("memory_consolidation", ("memory_consolidation",), _prep_memory),
    CrashOp("library_maintenance", ("library_maintenance",), _prep_library),
    CrashOp("workspace_consolidation", ("workspace_consolidation",), _prep_workspace),
    CrashOp(
        "instruction_review",
        ("instruction_review",),
        _prep_plain(("instruction_review",)),
        (_proposal_reply(),),
    ),
    CrashOp(
        "person_edits_a_planned_file",
        ("distillation", "skill_learning"),
        _prep_edit_during_run,
        (_facts_reply(), _create_reply()),
        PersonEdit("FACTS.md", "- a note Jonas typed during the run\n", "DistillationResponse"),
    ),
    CrashOp("undo", ("distillation",), _prep_undo),
    CrashOp("review_approve", ("instruction_review",), _prep_approve),
)

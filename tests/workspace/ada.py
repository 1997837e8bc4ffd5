"""The example deployment (`examples/`) copied into a temp folder, and scripted model answers for it."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import read_new_turns

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def clock() -> datetime:
    return NOW


def copy_example(root: Path, model_url: str, **agent: Any) -> Path:
    """A copy of examples/ whose model is the fake server; returns the config path."""
    target = root / "demo"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("state"))
    path = target / "config.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config["model"].update(base_url=model_url, api_key_env="TEST_API_KEY")
    config["agents"]["ada"].update(agent)
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


AGENTS_NEW = """# Instructions

## Reports
- Post the weekly ops report in #ops.
- Flag any ticket priority that grew more than 20% week over week.

## Language
- Always answer in the language the user writes in.
- Vendor emails are written in German.

## Data
- Never share customer data outside the #ops channel.

## Commands

```bash
python scripts/export_tickets.py --since last-monday > exports/tickets.csv
```

See the [escalation policy](https://wiki.example.com/ops/escalation) before paging anyone.
"""

TOOLS_NEW = """# Tools

- The ticket export lives at exports/tickets.csv.
- Last week's numbers are in reports/last-week.json.
- Post reports to #ops-reports.
"""

SOUL_NEW = """# Soul

Ada is calm, precise and brief. She says what she did, then what she found.

- Be brief: keep answers short and to the point.
- Say plainly when something is unknown; never guess numbers.
"""

USER_NEW = """# User

- Jonas runs support ops.
- Jonas's team reads German.
- Jonas prefers bullet points over prose.
"""

MEMORY_NEW = """# Long memory

- The login outage on 2026-11-15 affected 1,240 accounts for 47 minutes.
- Priya is on call in the week of 2026-11-30.
"""

# What the scripted model does to the example, as operations on unit ids (`workspace/numbered.py`:
# each bullet, paragraph, table row or code block is a unit, numbered from 1 in its file). The
# result is AGENTS_NEW, TOOLS_NEW, SOUL_NEW, USER_NEW and MEMORY_NEW above.
OPERATIONS: list[dict[str, Any]] = [
    # "Always flag priorities that grew by more than 20% compared with last week."
    {"op": "drop_duplicate", "unit": "AGENTS.md#3", "of": "AGENTS.md#2"},
    # "Reply in the user's language."
    {"op": "drop_duplicate", "unit": "AGENTS.md#5", "of": "AGENTS.md#4"},
    {
        "op": "merge",
        "units": ["AGENTS.md#7", "AGENTS.md#8"],
        "text": "Never share customer data outside the #ops channel.",
    },
    {
        "op": "merge",
        "units": ["SOUL.md#2", "SOUL.md#3"],
        "text": "Be brief: keep answers short and to the point.",
    },
    # "Jonas prefers bullet points over prose." is about the user.
    {"op": "move", "unit": "SOUL.md#5", "file": "USER.md", "heading": "User"},
    # "Jonas likes bullet points."
    {"op": "drop_duplicate", "unit": "TOOLS.md#4", "of": "SOUL.md#5"},
    # "The ticket export lives at exports/tickets.csv." is in TOOLS.md too.
    {"op": "drop_duplicate", "unit": "MEMORY.md#2", "of": "TOOLS.md#1"},
]

CONTRADICTION = {
    "first": {"file": "AGENTS.md", "quote": "Post the weekly ops report in #ops."},
    "second": {"file": "TOOLS.md", "quote": "Post reports to #ops-reports."},
    "explanation": "AGENTS.md says reports go to #ops, TOOLS.md says #ops-reports.",
    "keep": "first",
}


def _files_named(operation: dict[str, Any]) -> set[str]:
    ids = [operation[k] for k in ("unit", "of") if k in operation] + list(operation.get("units", []))
    return {i.rsplit("#", 1)[0] for i in ids} | ({operation["file"]} if "file" in operation else set())


def consolidation_answer(
    *, without: tuple[str, ...] = (), extra: tuple[dict[str, Any], ...] = (), **overrides: Any
) -> dict[str, Any]:
    """The scripted ConsolidationResponse: OPERATIONS but those naming a file in `without`, then `extra`."""
    operations = [op for op in OPERATIONS if not _files_named(op) & set(without)]
    answer: dict[str, Any] = {"operations": [*operations, *extra], "contradictions": [CONTRADICTION]}
    answer.update(overrides)
    return answer


def turn_id(home: Path, quote: str, glob: str = "transcripts/*.jsonl") -> str:
    """The id (T1, T2, ...) the daemon will give the turn holding `quote`, for a fresh cursor."""
    batch = read_new_turns(TranscriptSource(home, TranscriptSettings(glob=glob)), {}, "test", NOW)
    for index, turn in enumerate(batch.turns, start=1):
        if any(quote in m.content for m in turn.messages):
            return f"T{index}"
    raise AssertionError(f"no turn holds {quote!r}")


ON_CALL_QUOTE = "Mention who is on call next week at the end of the report from now on."


def on_call_proposal(
    home: Path, anchor: str = "- Flag any ticket priority that grew more than 20% week over week."
) -> dict[str, Any]:
    return {
        "file": "AGENTS.md",
        "title": "End the weekly report with who is on call next week",
        "rationale": "Jonas asked for it as a standing rule on 2026-11-23.",
        "evidence": [{"turn": turn_id(home, ON_CALL_QUOTE), "quote": ON_CALL_QUOTE}],
        "edits": [
            {"old": anchor, "new": anchor + "\n- End the weekly report with who is on call next week."}
        ],
    }

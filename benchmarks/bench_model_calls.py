"""Model calls per pass on the example deployment, and the calls thresholds and
deterministic work avoided.

Run: .venv/bin/python benchmarks/bench_model_calls.py
The fake model server answers as a deep model would (the answers of the example tests).
Four runs on a copy of `examples/`: (1) first run, (2) no new turns, (3) two new turns
(under the 4-turn threshold), (4) the vendor updates the pack skill the agent forked (a
clean upstream merge). Counts requests per pass (by response schema) and what each run
settled without the model. Writes benchmarks/results/model_calls.json.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from tests.skills_engine.test_example_skills import POSTMORTEM, VENDOR, WEEKLY, copy_example
from tests.support.deploy import TEST_KEY, run_cli
from tests.support.fake_model import FakeModelServer
from tests.workspace.ada import clock, consolidation_answer, on_call_proposal

SCHEMA_PASS = {
    "DistillationResponse": "distillation",
    "ScoutResponse": "skill_learning",
    "CanonicalSkill": "library_maintenance",
    "ConflictResolution": "library_maintenance",
    "ConsolidationResponse": "workspace_consolidation",
    "InstructionReviewResponse": "instruction_review",
}


def script(model: FakeModelServer, home: Path) -> None:
    model.clear()
    model.reply({"facts": []}, schema="DistillationResponse")
    model.reply({"candidates": [WEEKLY, POSTMORTEM]}, schema="ScoutResponse")
    model.reply(VENDOR, schema="CanonicalSkill")
    model.reply(consolidation_answer(), schema="ConsolidationResponse")
    model.reply({"proposals": [on_call_proposal(home)]}, schema="InstructionReviewResponse")


def run(config: Path, model: FakeModelServer, label: str, hours: int) -> dict[str, Any]:
    seen = len(model.requests)
    result = run_cli(
        config,
        "once",
        "--agent",
        "ada",
        "--json",
        env={"TEST_API_KEY": TEST_KEY},
        clock=lambda: clock() + __import__("datetime").timedelta(hours=hours),
    )
    assert result.code == 0, result.err
    body = result.json()
    calls = Counter(SCHEMA_PASS.get(n, n) for n in model.schema_names()[seen:])
    settled = []
    for entry in body["passes"]:
        if entry["name"] == "library_maintenance":
            for dup in entry.get("duplicates", []):
                if dup.get("outcome") == "merged" and dup.get("reason", "").startswith("identical"):
                    settled.append(
                        f"identical duplicates merged without the model: {', '.join(dup['names'])}"
                    )
            settled += [
                f"upstream merge of {m['name']}: {m['outcome']} ({', '.join(sorted(set(m.get('rules', {}).values())))})"
                for m in entry.get("upstream_merges", [])
            ]
        if entry["name"] == "workspace_consolidation":
            removed = entry.get("daily_logs", {}).get("notes_removed", 0)
            if removed:
                settled.append(f"daily-log repeats removed without the model: {removed}")
        if "fewer than 4" in entry.get("reason", ""):
            settled.append(f"{entry['name']}: under the 4-turn threshold, no call")
    return {
        "run": label,
        "calls": dict(calls),
        "total_calls": sum(calls.values()),
        "settled_without_model": settled,
    }


def main() -> None:
    model = FakeModelServer().start()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            config = copy_example(Path(tmp), model.url)
            demo = config.parent
            home = demo / "ada"
            script(model, home)
            rows.append(run(config, model, "1. first run on the example", 0))
            model.clear()
            rows.append(run(config, model, "2. nothing new", 1))
            transcript = home / "transcripts" / "2026-11-30-short.jsonl"
            transcript.write_text(
                '{"role": "user", "content": "Quick question: is the export done?"}\n'
                '{"role": "assistant", "content": "Yes."}\n'
                '{"role": "user", "content": "Thanks."}\n'
                '{"role": "assistant", "content": "Welcome."}\n{"type": "session_end"}\n'
            )
            rows.append(run(config, model, "3. two new turns", 2))
            pack = demo / "packs/ops-pack/incident-postmortem/SKILL.md"
            pack.write_text(
                pack.read_text().replace(
                    "Keep it blameless: describe systems and decisions, not people.",
                    "Keep it blameless: describe systems and decisions, not people.\nLink the incident ticket at the top.",
                )
            )
            rows.append(run(config, model, "4. upstream update of a forked pack skill", 3))
            shutil.rmtree(demo / "state")
    finally:
        model.stop()
    save_results("model_calls", rows)
    passes = [
        "distillation",
        "skill_learning",
        "library_maintenance",
        "workspace_consolidation",
        "instruction_review",
    ]
    print_table(
        ["run", *passes, "total calls", "settled without the model"],
        (
            [
                r["run"],
                *(r["calls"].get(p, 0) for p in passes),
                r["total_calls"],
                "; ".join(r["settled_without_model"]) or "—",
            ]
            for r in rows
        ),
    )


if __name__ == "__main__":
    main()

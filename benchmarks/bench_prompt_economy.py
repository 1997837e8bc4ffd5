"""Prompt economy: bytes sent to the model per analysed turn across all passes of a run.

Run: .venv/bin/python benchmarks/bench_prompt_economy.py [--turns 40] [--base /path/to/main-checkout]
One whole `python -m daemon … once` process per case runs distillation, the skill scout
and instruction review on the same new turns against the scripted OpenAI-compatible
server (tests/support/fake_model.py), which records every request. Two transcripts:
- chat: user/assistant prose, like the example deployment's;
- agentic: a runtime transcript — each turn repeats the runtime's system reminder and
  carries tool output (a 1.5 KB listing) between the user's ask and the answer.
"Turn text" is the UTF-8 bytes of the turns' message contents; "sent" is every request
body (messages and response schema, as the client sends them) of the three passes.
With `--base`, the same cases run first on that checkout (main at the branch point):
the bytes are deterministic, so one run of each is the measurement.
Writes benchmarks/results/prompt_economy.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from tests.support.fake_model import FakeModelServer

REPO = Path(__file__).parents[1]
TEST_KEY = "sk-test-prompt-economy"
PASSES = {"DistillationResponse": "distillation", "ScoutResponse": "skill_learning", "InstructionReviewResponse": "instruction_review"}
REMINDER = (
    "<system-reminder>You are Ada, the operations assistant. Tools available: shell, read_file, "
    "write_file, http_get, post_message. Always answer in the user's language. Never share "
    "credentials. Keep answers short; use bullet points for lists. The working directory is "
    "/srv/ops; exports live in exports/ and reports in reports/. Ask before deleting anything. "
    "Today's on-call rota is in oncall.csv. Prefer scripts in scripts/ over ad-hoc commands. "
    "When a task repeats, say so, and follow the team's written procedures.</system-reminder>"
)
TOPICS = ["the weekly ops report", "the vendor invoice", "the on-call rota", "the backup check", "the release notes"]


def _line(role: str, content: str, index: int) -> str:
    return json.dumps({"role": role, "content": content, "ts": f"2026-11-{2 + index // 20:02d}T10:{index % 60:02d}:00Z"})


def chat_turn(i: int) -> list[str]:
    topic = TOPICS[i % len(TOPICS)]
    ask = (
        f"Can you prepare {topic} for this week? Use the numbers from exports/week-{i}.csv, compare "
        f"them with last week and flag anything above +20%. Post it in #ops as bullet points, "
        f"and mention who is on call next week."
    )
    answer = (
        f"Done: {topic} for week {i} is posted in #ops. P1: {i % 13}, P2: {40 + i % 17}, P3: {200 + i}. "
        f"Nothing above +20% except P2 (+{21 + i % 5}%), which I flagged. Next week's on-call is "
        f"{['Lena', 'Omar', 'Kai'][i % 3]}; I added that at the end."
    )
    return [_line("user", ask, i), _line("assistant", answer, i)]


def agentic_turn(i: int) -> list[str]:
    user, answer = (json.loads(x)["content"] for x in chat_turn(i))
    rows = "\n".join(f"{n:04d},P{1 + n % 3},{['open', 'closed', 'pending'][n % 3]},team-{n % 7},{n * 13 % 97}h" for n in range(60))
    tool = f"$ python scripts/export.py --week {i}\nid,priority,status,team,age\n{rows}\n(60 rows)"
    return [
        _line("user", user, i),
        _line("system", REMINDER, i),
        _line("assistant", f"Running the export for week {i}.", i),
        _line("tool", tool, i),
        _line("assistant", answer, i),
    ]


def deployment(root: Path, url: str, turns: int, kind: str) -> tuple[Path, int]:
    home = root / "ada"
    (home / "transcripts").mkdir(parents=True)
    make = chat_turn if kind == "chat" else agentic_turn
    lines = [line for i in range(turns) for line in make(i)]
    text_bytes = sum(len(json.loads(line)["content"].encode("utf-8")) for line in lines)
    path = home / "transcripts" / "session.jsonl"
    path.write_text("\n".join(lines) + "\n" + json.dumps({"type": "session_end"}) + "\n", encoding="utf-8")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    (home / "AGENTS.md").write_text("# Ada\n\n- Post reports in #ops.\n- Use bullet points.\n", encoding="utf-8")
    (home / "TOOLS.md").write_text("# Tools\n\n- scripts/export.py: weekly export.\n", encoding="utf-8")
    for n, topic in enumerate(TOPICS):
        name = topic.removeprefix("the ").replace(" ", "-")
        folder = home / "skills" / name
        folder.mkdir(parents=True)
        steps = "\n".join(f"{k}. Step {k} of {topic}" for k in range(1, 5))
        folder.joinpath("SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Prepare {topic}. Use when asked (#{n}).\n---\n\n# {name}\n\n## Steps\n{steps}\n"
        )
    config = root / "config.yaml"
    config.write_text(
        "version: 1\nstate_dir: ./state\n"
        f"model: {{base_url: '{url}', model: fake, api_key_env: TEST_API_KEY, price_input_per_million: 1.0,"
        " price_output_per_million: 4.0, max_output_tokens: 1000}\n"
        "budget: {daily_usd: 1000, per_agent_daily_usd: 1000}\n"
        "agents:\n  ada:\n    home: ./ada\n    transcripts: {glob: 'transcripts/*.jsonl'}\n"
        "    skills: {learned: skills}\n"
    )
    return config, text_bytes


def measure(checkout: Path, turns: int, kind: str) -> dict[str, Any]:
    server = FakeModelServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            config, text_bytes = deployment(Path(tmp), server.url, turns, kind)
            for _ in range(8):
                server.reply({"facts": []}, schema="DistillationResponse")
                server.reply({"candidates": []}, schema="ScoutResponse")
                server.reply({"proposals": []}, schema="InstructionReviewResponse")
            env = {"PATH": os.environ["PATH"], "HOME": tmp, "TEST_API_KEY": TEST_KEY, "PYTHONPATH": str(checkout)}
            command = [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada", "--json"]
            for name in PASSES.values():
                command += ["--pass", name]
            done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=False)
            if done.returncode not in (0, 1):
                raise SystemExit(f"{checkout}: once failed ({done.returncode}): {done.stderr[-2000:]}")
            passes = {p["name"]: p for p in json.loads(done.stdout)["passes"]}
            sent: Counter[str] = Counter()
            requests: Counter[str] = Counter()
            for body in server.requests:
                schema = body["response_format"]["json_schema"]["name"]
                name = PASSES.get(schema, schema)
                size = len(json.dumps({"messages": body["messages"], "response_format": body["response_format"]}, ensure_ascii=False).encode())
                sent[name] += size
                requests[name] += 1
            analysed = {name: int(passes.get(name, {}).get("turns", 0)) for name in PASSES.values()}
            return {
                "kind": kind,
                "turns": turns,
                "turn_text_bytes": text_bytes,
                "sent_bytes": dict(sent),
                "requests": dict(requests),
                "analysed": analysed,
                "total_bytes": sum(sent.values()),
                "ratio": sum(sent.values()) / text_bytes,
            }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--base", type=Path, help="a checkout of main at the branch point, for the before figures")
    args = parser.parse_args()
    checkouts = ([("before", args.base)] if args.base else []) + [("after", REPO)]
    rows = []
    for kind in ("chat", "agentic"):
        for label, checkout in checkouts:
            result = measure(checkout, args.turns, kind)
            assert all(n == args.turns for n in result["analysed"].values()), result["analysed"]
            rows.append({"label": label, **result})
    save_results("prompt_economy", rows)
    print_table(
        ["transcript", "code", "turn text", "sent: distillation / scout / review", "bytes per turn", "sent ÷ turn text"],
        (
            [
                f"{r['kind']}, {r['turns']} turns",
                r["label"],
                f"{r['turn_text_bytes']:,} B",
                " / ".join(f"{r['sent_bytes'].get(p, 0):,}" for p in PASSES.values()),
                f"{r['total_bytes'] / r['turns']:,.0f}",
                f"{r['ratio']:.2f}×",
            ]
            for r in rows
        ),
        align=["left", "left", "right", "right", "right", "right"],
    )


if __name__ == "__main__":
    main()

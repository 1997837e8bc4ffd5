"""The scout at 10 / 100 / 1,000 / 3,000 skills: request bytes and where a planted matching skill lands.

Run: .venv/bin/python benchmarks/bench_scout_shortlist.py [--sizes 10 100 1000 3000] [--base /path/to/main-checkout]
Each case is a whole `python -m daemon … once --pass skill_learning` process against the
scripted OpenAI-compatible server. The pack holds N generated skills (ten verbs × ten
nouns of office chores); the planted skill (`skill-0900`, or the last one below 900
skills) has a generic name and description and steps that say what the four new turns
did (renew a TLS certificate with certbot, reload haproxy, check the expiry with openssl).
Reported: the scout request's bytes (messages and schema, against max_input_bytes), how
many skills went in full / as short rows / as names / counted as omitted, and the planted
skill's row. With `--base`, each size runs first on that checkout (main at the branch point).
Writes benchmarks/results/scout_shortlist.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from tests.skills_engine.test_shortlist import ASK, filler, inventory_sent, planted
from tests.support.fake_model import FakeModelServer

REPO = Path(__file__).parents[1]
TEST_KEY = "sk-test-scout-shortlist"
LIMIT = 120_000


def deployment(root: Path, url: str, size: int) -> tuple[Path, str]:
    plant = min(900, size - 1)
    for index in range(size):
        folder = root / "packs" / f"skill-{index:04d}"
        folder.mkdir(parents=True)
        text = planted().replace("skill-0900", f"skill-{index:04d}") if index == plant else filler(index)
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
    transcripts = root / "ada" / "transcripts"
    transcripts.mkdir(parents=True)
    lines = []
    for i in range(4):
        lines.append(json.dumps({"role": "user", "content": f"{ASK} (week {i})", "ts": f"2026-11-02T10:0{i}:00Z"}))
        lines.append(json.dumps({"role": "assistant", "content": f"Done: certificate renewed, week {i}.", "ts": f"2026-11-02T10:0{i}:30Z"}))
    path = transcripts / "t1.jsonl"
    path.write_text("\n".join(lines) + "\n" + json.dumps({"type": "session_end"}) + "\n", encoding="utf-8")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    config = root / "config.yaml"
    config.write_text(
        "version: 1\nstate_dir: ./state\n"
        f"model: {{base_url: '{url}', model: fake, api_key_env: TEST_API_KEY, price_input_per_million: 1.0,"
        f" price_output_per_million: 4.0, max_output_tokens: 1000, max_input_bytes: {LIMIT}}}\n"
        "budget: {daily_usd: 1000, per_agent_daily_usd: 1000}\n"
        "agents:\n  ada:\n    home: ./ada\n    transcripts: {glob: 'transcripts/*.jsonl'}\n"
        f"    skills: {{learned: skills, packs: ['{root / 'packs'}']}}\n"
    )
    return config, f"skill-{plant:04d}"


def inventory_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    # the request's layout is the tests' to read (tests/skills_engine/test_shortlist.py)
    return inventory_sent(body)


def measure(checkout: Path, size: int) -> dict[str, Any]:
    server = FakeModelServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            config, plant = deployment(Path(tmp), server.url, size)
            server.reply({"candidates": []}, schema="ScoutResponse")
            env = {"PATH": os.environ["PATH"], "HOME": tmp, "TEST_API_KEY": TEST_KEY, "PYTHONPATH": str(checkout)}
            command = [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada", "--pass", "skill_learning", "--json"]
            start = time.perf_counter()
            done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=False)
            seconds = time.perf_counter() - start
            entry = json.loads(done.stdout)["passes"][0]
            result: dict[str, Any] = {"skills": size, "seconds": seconds, "status": entry["status"], "reason": entry["reason"]}
            if not server.requests:
                return {**result, "request_bytes": 0, "planted": "no request sent"}
            body = server.requests[0]
            rows = inventory_of(body)
            position = next((n for n, r in enumerate(rows) if r.get("name") == plant), None)
            shape = "absent" if position is None else ("full" if "steps" in rows[position] else "short" if "description" in rows[position] else "name")
            return {
                **result,
                "request_bytes": len(json.dumps({"messages": body["messages"], "response_format": body["response_format"]}, ensure_ascii=False).encode()),
                "full": sum(1 for r in rows if "steps" in r),
                "short": sum(1 for r in rows if "description" in r and "steps" not in r),
                "names": sum(1 for r in rows if set(r) == {"name", "source"}),
                "omitted": sum(int(r.get("omitted", 0)) for r in rows),
                "planted": f"{shape}, row {position + 1}" if position is not None else "absent",
            }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000, 3000])
    parser.add_argument("--base", type=Path, help="a checkout of main at the branch point, for the before figures")
    args = parser.parse_args()
    checkouts = ([("before", args.base)] if args.base else []) + [("after", REPO)]
    rows = [{"label": label, **measure(checkout, size)} for size in args.sizes for label, checkout in checkouts]
    save_results("scout_shortlist", rows)
    print_table(
        ["skills", "code", "request bytes (limit 120,000)", "full / short / names / omitted", "planted matching skill", "once (s)"],
        (
            [
                f"{r['skills']:,}",
                r["label"],
                f"{r['request_bytes']:,}",
                f"{r.get('full', 0)} / {r.get('short', 0)} / {r.get('names', 0)} / {r.get('omitted', 0)}",
                r["planted"],
                f"{r['seconds']:.1f}",
            ]
            for r in rows
        ),
        align=["right", "left", "right", "right", "left", "right"],
    )


if __name__ == "__main__":
    main()

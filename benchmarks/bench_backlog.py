"""A 10,000-turn backlog drained over successive cycles at the configured caps.

Run: .venv/bin/python benchmarks/bench_backlog.py [--turns 10000] [--files 1 10000]
Each cycle is a whole `python -m daemon … once --pass distillation` process against the
scripted OpenAI-compatible server (tests/support/fake_model.py, answering `{"facts": []}`),
with the default `max_input_bytes` (120,000) and `max_calls_per_pass` (8). Reported per
layout (one file of N turns; N one-turn files): cycles to drain, requests, request bytes
(mean and largest, against the limit the client enforces), seconds per cycle. Before
issue 13 the same backlog was refused on every cycle and never drained.
Writes benchmarks/results/backlog.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from daemon.kernel.settings import ModelSettings
from tests.support.deploy import TEST_KEY
from tests.support.fake_model import FakeModelServer

REPO = Path(__file__).parents[1]
LIMIT = ModelSettings.model_fields["max_input_bytes"].default
CAP = ModelSettings.model_fields["max_calls_per_pass"].default


def turn(index: int) -> str:
    user = {"role": "user", "content": f'Ticket {index}: check "row {index}" in C:\\exports\\t.csv, naïve total 20%?', "ts": "2026-11-02T10:00:00Z"}
    reply = {"role": "assistant", "content": f"Row {index} has {index % 97} entries; the export path is C:\\exports\\t.csv."}
    return json.dumps(user) + "\n" + json.dumps(reply) + "\n"


def deployment(root: Path, url: str, turns: int, files: int) -> Path:
    home = root / "ada" / "transcripts"
    home.mkdir(parents=True)
    per_file = turns // files
    for number in range(files):
        body = "".join(turn(number * per_file + i) for i in range(per_file)) + json.dumps({"type": "session_end"}) + "\n"
        path = home / f"s{number:05d}.jsonl"
        path.write_text(body)
        os.utime(path, (1_700_000_000, 1_700_000_000))
    config = root / "config.yaml"
    config.write_text(
        "version: 1\nstate_dir: ./state\n"
        f"model: {{base_url: '{url}', model: fake, api_key_env: TEST_API_KEY, price_input_per_million: 1.0,"
        " price_output_per_million: 4.0, max_output_tokens: 1000}\n"
        "budget: {daily_usd: 1000, per_agent_daily_usd: 1000}\n"
        "agents:\n  ada:\n    home: ./ada\n    transcripts: {glob: 'transcripts/*.jsonl'}\n"
    )
    return config


def drain(turns: int, files: int) -> dict[str, object]:
    server = FakeModelServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            config = deployment(root, server.url, turns, files)
            env = {"PATH": os.environ["PATH"], "HOME": tmp, "TEST_API_KEY": TEST_KEY}
            cycles: list[dict[str, object]] = []
            analysed = 0
            while analysed < turns and len(cycles) < 200:
                for _ in range(CAP):
                    server.reply({"facts": []}, schema="DistillationResponse")
                before = len(server.requests)
                start = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada", "--pass", "distillation", "--json"],
                    cwd=REPO, env=env, capture_output=True, text=True, check=True,
                )
                seconds = time.perf_counter() - start
                server.clear()
                entry = json.loads(done.stdout)["passes"][0]
                analysed += int(entry.get("turns", 0))
                sizes = [len(json.dumps({"messages": b["messages"], "response_format": b["response_format"]}, ensure_ascii=False).encode()) for b in server.requests[before:]]
                cycles.append({"turns": entry.get("turns", 0), "requests": len(sizes), "bytes": sizes, "seconds": seconds})
            sizes = [s for c in cycles for s in c["bytes"]]  # type: ignore[attr-defined]
            return {
                "turns": turns,
                "files": files,
                "drained": analysed >= turns,
                "cycles": len(cycles),
                "requests": len(sizes),
                "bytes_mean": statistics.mean(sizes) if sizes else 0,
                "bytes_max": max(sizes) if sizes else 0,
                "seconds_per_cycle": statistics.median(float(c["seconds"]) for c in cycles),  # type: ignore[arg-type]
            }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--files", type=int, nargs="+", default=[1, 10_000])
    args = parser.parse_args()
    rows = [drain(args.turns, files) for files in args.files]
    save_results("backlog", rows)
    print_table(
        ["layout", "drained", "cycles", "requests", "request bytes: mean / largest (limit)", "seconds per cycle (median)"],
        (
            [
                f"{r['turns']:,} turns in {r['files']:,} file(s)",
                "yes" if r["drained"] else "no",
                r["cycles"],
                r["requests"],
                f"{r['bytes_mean']:,.0f} / {r['bytes_max']:,} ({LIMIT:,} + schema)",
                f"{r['seconds_per_cycle']:.2f} s",
            ]
            for r in rows
        ),
    )


if __name__ == "__main__":
    main()

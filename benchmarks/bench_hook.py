"""The runtime hook as a whole process, against `python -c "import json, sqlite3"`.

Run: .venv/bin/python benchmarks/bench_hook.py [--facts 100000] [--rounds 21]
Prints a markdown table and writes benchmarks/results/hook.json.

A deployment with `--facts` current facts (entities, keys, values and quotes drawn from a
vocabulary of 6,000 made-up words, 40 learned skills) is built through the CLI: the store
is written as a legacy single file and the first `once` imports and shards it, then builds
the delivery index. The hook is then started the way Claude Code starts it — the
`metaeng-daemon` console script of this environment, the hook's JSON on stdin — for a
`UserPromptSubmit` (prompts naming words of stored facts, and words of none) and a
`SessionStart`, interleaved round by round with the floor command, so load changes hit
all alike. Medians; the ratio is hook / floor. Also timed: building the delivery index
from scratch and refreshing it when nothing changed (in process, the work a run adds).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from daemon.config import load_deployment
from daemon.wiring import delivery
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.facts import stored_fact

KEYS = ("city", "editor", "shell", "test_command", "package_manager", "deploy_command", "staging_url", "team", "pet")


def _words(rng: random.Random, count: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(4, 9))) for _ in range(count)]


def build(root: Path, facts: int, seed: int = 7) -> tuple[Path, Path, list[str]]:
    """A deployment with `facts` current facts; (config, the agent home, words used)."""
    rng = random.Random(seed)
    vocab = _words(rng, 6000)
    config = write_config(root, base_config(root, None))
    home = root / "ada"
    lines = []
    for i in range(facts):
        entity = "user" if i % 3 == 0 else ("project" if i % 3 == 1 else f"person_{i % 997}")
        key = f"{KEYS[i % len(KEYS)]}_{i // 1000}"
        value = " ".join(rng.choice(vocab) for _ in range(2))
        quote = " ".join(rng.choice(vocab) for _ in range(12))
        record = stored_fact(id=f"f-{i:07d}", entity=entity, key=key, value=value, quote=quote, source_event_id=f"t@{i}")
        lines.append(json.dumps(record))
    store = home / ".metaeng" / "facts.jsonl"
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text("\n".join(lines) + "\n")
    for n in range(40):
        skill = home / "skills" / f"skill-{n:02d}"
        skill.mkdir(parents=True)
        name = f"skill-{n:02d}"
        words = " ".join(rng.choice(vocab) for _ in range(10))
        (skill / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {words}. Use when {words}.\n---\n\n1. Do it.\n")
    result = run_cli(config, "once", "--agent", "ada")
    if result.code != 0:
        raise SystemExit(f"once failed: {result.err[-800:]}")
    return config, home, vocab


def _timed(argv: list[str], stdin: bytes) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-hook-"))
    try:
        started = time.perf_counter()
        config, home, vocab = build(root, args.facts)
        setup = time.perf_counter() - started
        deployment = load_deployment(config, {"HOME": str(root)})
        agent = deployment.agent("ada")
        state = deployment.state_dir / "agents" / "ada"
        index = state / "delivery.sqlite3"
        from daemon.kernel.paths import AgentState

        now = datetime.now(UTC)
        index.unlink()
        t0 = time.perf_counter()
        delivery.refresh(agent, AgentState(state), now)
        build_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        delivery.refresh(agent, AgentState(state), now)
        noop_s = time.perf_counter() - t0

        script = str(Path(sys.executable).parent / "metaeng-daemon")
        hook = [script, "hook", "claude-code", "--index", str(index)]
        floor = [sys.executable, "-c", "import json, sqlite3"]
        rng = random.Random(11)
        found = 0
        samples: dict[str, list[float]] = {"floor": [], "prompt": [], "session start": []}
        for _ in range(args.rounds):
            prompt = f"can you check the {rng.choice(vocab)} setting and {rng.choice(vocab)} before we deploy?"
            payload = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(home), "prompt": prompt, "session_id": "s"}).encode()
            start = json.dumps({"hook_event_name": "SessionStart", "cwd": str(home), "source": "startup", "session_id": "s"}).encode()
            samples["floor"].append(_timed(floor, b""))
            samples["prompt"].append(_timed(hook, payload))
            samples["session start"].append(_timed(hook, start))
            found += bool(subprocess.run(hook, input=payload, capture_output=True).stdout.strip())
        medians = {name: statistics.median(values) for name, values in samples.items()}
        rows = [
            [name, f"{medians[name] * 1000:.1f} ms", f"{medians[name] / medians['floor']:.2f}×"]
            for name in ("floor", "prompt", "session start")
        ]
        print(f"{args.facts:,} facts; setup through the CLI {setup:.1f} s; delivery index built in {build_s:.2f} s, "
              f"refreshed with nothing new in {noop_s:.3f} s; prompts with context: {found}/{args.rounds}")
        print_table(["process", "median", "ratio to floor"], rows)
        save_results(
            "hook",
            {
                "facts": args.facts,
                "rounds": args.rounds,
                "medians_s": medians,
                "ratios": {k: v / medians["floor"] for k, v in medians.items()},
                "index_build_s": build_s,
                "index_noop_refresh_s": noop_s,
                "prompts_with_context": found,
            },
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

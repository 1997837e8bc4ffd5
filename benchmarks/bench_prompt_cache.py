"""The passes' shared prompt prefix against a real llama.cpp server: prompt tokens it evaluated.

Run: .venv/bin/python benchmarks/bench_prompt_cache.py --llama-python .real-model-venv/bin/python
     [--turns 40] [--before /path/to/a/checkout]
(the server is built by tests/real_model/setup.sh: llama-cpp-python on SmolLM2-135M).

One whole `python -m daemon … once --pass distillation --pass skill_learning` process per
row, on the chat transcript of bench_prompt_economy (40 turns of user/assistant prose),
against a fresh server each time (so no row inherits another's key/value cache). The
server is llama.cpp: it keeps the previous request's tokens and evaluates only what
follows the longest prefix they share. Its own log gives, per request, the tokens it
evaluated (`prompt eval time = … / N tokens`) and the prefix it reused (`N prefix-match
hit`). The turns' tokens are counted by the same server's tokenizer (`/extras/tokenize`):
"turns as sent" is the turns block every request carries (ids, dates, roles, the text),
"turn text" only the messages' words.

Billed-equivalent input prices each request's reused prefix as cached tokens and the rest
as input, at OpenAI's published ratios of cached to input price (gpt-4o 50 %, gpt-4.1
25 %, gpt-5 10 %): what the same requests would cost, in input tokens, on a server that
caches the prefixes llama.cpp reused. The answers themselves are cut at 48 tokens (the
135M model's JSON is not the point): each request is evaluated in full before that.
Writes benchmarks/results/prompt_cache.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.bench_prompt_economy import chat_turn, deployment
from benchmarks.report import print_table, save_results
from tests.support.fake_model import FakeModelServer
from tests.support.llama import llama_server

REPO = Path(__file__).parents[1]
TEST_KEY = "sk-test-prompt-cache"
PASSES = ("distillation", "skill_learning")
CACHED_RATIOS = {"gpt-4o": 0.5, "gpt-4.1": 0.25, "gpt-5": 0.1}
EVAL = re.compile(r"prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens")
HIT = re.compile(r"Llama\.generate: (\d+) prefix-match hit")


def _config(root: Path, url: str, turns: int) -> Path:
    config, _text = deployment(root, url, turns, "chat")
    text = config.read_text(encoding="utf-8").replace(
        "max_output_tokens: 1000}", "max_output_tokens: 48, dialect: 'llama.cpp', timeout_seconds: 900}"
    )
    config.write_text(text, encoding="utf-8")
    return config


def _once(checkout: Path, config: Path, home: str) -> dict[str, Any]:
    env = {"PATH": os.environ["PATH"], "HOME": home, "TEST_API_KEY": TEST_KEY, "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada", "--json"]
    for name in PASSES:
        command += ["--pass", name]
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{checkout}: once failed ({done.returncode}): {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _tokens(url: str, text: str) -> int:
    request = urllib.request.Request(
        url.removesuffix("/v1") + "/extras/tokenize/count",
        data=json.dumps({"input": text}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        return int(json.load(answer)["count"])


def turn_blocks(turns: int) -> tuple[str, str]:
    """(the turns block as the current code sends it, the turn text alone), from a scripted run."""
    server = FakeModelServer().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            config = _config(Path(tmp), server.url, turns)
            server.reply({"facts": []}, schema="DistillationResponse")
            server.reply({"candidates": []}, schema="ScoutResponse")
            _once(REPO, config, tmp)
            user = server.requests[0]["messages"][1]["content"]
    finally:
        server.stop()
    block = user.split("\n\n<task>\n", 1)[0]
    text = "\n".join(json.loads(line)["content"] for i in range(turns) for line in chat_turn(i))
    return block, text


def measure(checkout: Path, llama_python: str, turns: int, block: str, text: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "llama.log"
        with llama_server(llama_python, n_ctx=16384, log=log) as url:
            turn_tokens, text_tokens = _tokens(url, block), _tokens(url, text)
            log_start = log.stat().st_size
            config = _config(Path(tmp) / "deploy", url, turns)
            result = _once(checkout, config, tmp)
        lines = log.read_text(encoding="utf-8", errors="replace")[log_start:].splitlines()
    evaluated: list[int] = []
    reused: list[int] = []
    hit = 0
    for line in lines:  # a hit line comes before its request's timings; none: nothing reused
        if found := HIT.search(line):
            hit = int(found.group(1))
        elif found := EVAL.search(line):
            evaluated.append(int(found.group(1)))
            reused.append(hit)
            hit = 0
    if len(evaluated) != 2:
        raise SystemExit(f"expected 2 requests in the server's log, found {len(evaluated)}: {lines[-40:]}")
    prompt = [e + r for e, r in zip(evaluated, reused, strict=True)]
    billed = {
        name: sum(e + r * ratio for e, r in zip(evaluated, reused, strict=True)) for name, ratio in CACHED_RATIOS.items()
    }
    return {
        "turns": turns,
        "turn_tokens_as_sent": turn_tokens,
        "turn_text_tokens": text_tokens,
        "prompt_tokens": prompt,
        "evaluated_tokens": evaluated,
        "reused_tokens": reused,
        "evaluated_total": sum(evaluated),
        "evaluated_ratio": sum(evaluated) / turn_tokens,
        "evaluated_ratio_to_text": sum(evaluated) / text_tokens,
        "billed_equivalent": billed,
        "billed_ratio": {name: value / turn_tokens for name, value in billed.items()},
        "billed_ratio_to_text": {name: value / text_tokens for name, value in billed.items()},
        "passes": {p["name"]: p["status"] for p in result["passes"]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--llama-python", required=True, help="the python of the venv tests/real_model/setup.sh built")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--before", type=Path, help="a checkout of the code before the shared prefix")
    args = parser.parse_args()
    block, text = turn_blocks(args.turns)
    rows = []
    for label, checkout in ([("before", args.before)] if args.before else []) + [("after", REPO)]:
        print(f"measuring {label} ({checkout}) …", file=sys.stderr, flush=True)
        rows.append({"label": label, **measure(checkout, args.llama_python, args.turns, block, text)})
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    save_results("prompt_cache", rows)
    print_table(
        ["code", "turns (as sent / text)", "prompt tokens: distillation, scout", "evaluated by the server",
         "÷ turns as sent", "billed-equivalent ÷ turns as sent (gpt-4o / gpt-4.1 / gpt-5)", "÷ turn text (gpt-5)"],
        (
            [
                r["label"],
                f"{r['turn_tokens_as_sent']:,} / {r['turn_text_tokens']:,}",
                ", ".join(f"{p:,}" for p in r["prompt_tokens"]),
                " + ".join(f"{e:,}" for e in r["evaluated_tokens"]),
                f"{r['evaluated_ratio']:.2f}×",
                " / ".join(f"{r['billed_ratio'][n]:.2f}×" for n in CACHED_RATIOS),
                f"{r['billed_ratio_to_text']['gpt-5']:.2f}×",
            ]
            for r in rows
        ),
        align=["left", "right", "right", "right", "right", "right", "right"],
    )


if __name__ == "__main__":
    main()

"""Distillation precision on the benchmark corpus (`benchmarks/distill_corpus/`).

Run: .venv/bin/python benchmarks/bench_distill_precision.py [--llama-python PATH | --model-url URL]

Through the real CLI (`lab distill --live`, then `lab verify` of its ledger) against the
scripted OpenAI-compatible server: an *ideal* replay (answers exactly the supported
facts) and an *adversarial* one (every trap as a fact, then a misquote and a value not
in its quote for every supported fact, then the supported facts). With `--llama-python`
(a venv made by `tests/real_model/setup.sh`) it also runs SmolLM2-135M-Instruct through
llama-cpp-python's server — the floor; `--model-url` takes any llama.cpp-style server
already running. Writes benchmarks/results/distill_precision.json, and the real model's
figures to benchmarks/results/distill_precision_floor.json with its ledger beside them
(`distill_precision_floor_ledger/`, which `lab verify` re-checks); later runs without a
real model show those figures again, marked as recorded.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import RESULTS, print_table, save_results
from daemon.lab.distill_corpus import load_corpus
from tests.support import distill_replay
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.fake_model import FakeModelServer
from tests.support.llama import llama_server

CORPUS = Path(__file__).parent / "distill_corpus"
WORK = Path(__file__).parent / "work"
FLOOR = "distill_precision_floor"


def junk(run: dict[str, Any], category: str) -> str:
    """A category's junk rate in `run`; "—" where the run (a recorded one) predates the category."""
    found = run["figures"]["by_category"].get(category)
    return "—" if found is None else pct(found["junk_rate"])


def distill(config: Path, out: Path) -> dict[str, Any]:
    """`lab distill` then `lab verify` of its ledger; the figures, verified."""
    started = time.monotonic()
    result = run_cli(config, "lab", "distill", "--live", "--corpus", str(CORPUS), "--output", str(out), "--json")
    seconds = time.monotonic() - started
    if result.code not in (0, 1) or not result.out:
        raise SystemExit(f"lab distill failed ({result.code}): {result.err}")
    body = result.json()
    check = run_cli(config, "lab", "verify", str(out), "--json").json()
    if not check["ok"]:
        raise SystemExit(f"the ledger {out} does not verify: {check['problems']}")
    return {**body, "wall_seconds": round(seconds, 1), "verified": True}


def scripted(tmp: Path) -> dict[str, Any]:
    corpus = load_corpus(CORPUS)
    server = FakeModelServer().start()
    try:
        config = write_config(tmp, base_config(tmp, server.url))
        runs = {}
        for mode in ("ideal", "adversarial"):
            distill_replay.script(server, corpus, getattr(distill_replay, mode)(corpus))
            runs[mode] = distill(config, tmp / mode)
        return runs
    finally:
        server.stop()


def real(url: str, name: str, tmp: Path) -> dict[str, Any]:
    config = base_config(tmp, None)
    config["model"] = {
        "base_url": url,
        "model": name,
        "api_key_env": None,
        "dialect": "llama.cpp",
        "price_input_per_million": 0.0,
        "price_output_per_million": 0.0,
        "max_output_tokens": 1500,
        "max_input_bytes": 12000,
        "timeout_seconds": 900,
    }
    WORK.mkdir(exist_ok=True)
    out = WORK / f"distill-{name}-{datetime.now(UTC):%Y%m%dT%H%M%SZ}"
    run = distill(write_config(tmp, config), out)
    kept = RESULTS / f"{FLOOR}_ledger"
    shutil.rmtree(kept, ignore_errors=True)
    shutil.copytree(out, kept)
    results = json.loads((out / "results.json").read_text())
    return {
        **run,
        "model": name,
        "recorded": f"{datetime.now(UTC):%Y-%m-%d}",
        "output": kept.relative_to(Path(__file__).parents[1]).as_posix(),
        "by_session": results["by_session"],
    }


def broken_answers(ledger: Path) -> dict[str, int]:
    """Why the answers of a ledger that broke the schema did, by the deep tier's reason."""
    found: dict[str, int] = {}
    for path in sorted(ledger.glob("sessions/*/request-*/response.json")):
        response = json.loads(path.read_text())
        if response["status"] == "invalid_response":
            reason = response["error"].split(": ", 1)[-1].split(":")[0]
            found[reason] = found.get(reason, 0) + 1
    return found


def pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--llama-python", help="python of a venv made by tests/real_model/setup.sh: run SmolLM2-135M")
    parser.add_argument("--model-url", help="a running llama.cpp-style OpenAI-compatible server to run instead")
    parser.add_argument("--model-name", default="smollm2-135m-instruct", help="the model's name in the figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        runs = scripted(tmp / "scripted")
        floor: dict[str, Any] | None = None
        if args.model_url:
            floor = real(args.model_url, args.model_name, tmp / "real")
        elif args.llama_python:
            with llama_server(args.llama_python) as url:
                floor = real(url, args.model_name, tmp / "real")
    save_results("distill_precision", runs)
    if floor is not None:
        save_results(FLOOR, floor)
    elif (RESULTS / f"{FLOOR}.json").is_file():
        floor = json.loads((RESULTS / f"{FLOOR}.json").read_text())
        floor["label"] = f"recorded {floor['recorded']}, not re-run"
    labelled = [("ideal replay", runs["ideal"]), ("adversarial replay", runs["adversarial"])]
    if floor is not None:
        labelled.append((f"floor: {floor['model']} ({floor.get('label', 'this run')})", floor))
    print_table(
        ["run", "sessions", "proposed", "stored", "precision", "recall", "junk rate", "answers that broke the schema", "wall"],
        (
            [
                label,
                run["figures"]["sessions"],
                run["figures"]["proposed"],
                run["figures"]["stored"],
                pct(run["figures"]["precision"]),
                pct(run["figures"]["recall"]),
                pct(run["figures"]["junk_rate"]),
                run["figures"]["invalid_responses"],
                f"{run['wall_seconds']:.0f} s",
            ]
            for label, run in labelled
        ),
        ["left", "right", "right", "right", "right", "right", "right", "right", "right"],
    )
    print()
    categories = runs["ideal"]["figures"]["by_category"]
    print_table(
        ["trap category", "traps", *(f"junk rate, {label.split(' (')[0]}" for label, _ in labelled)],
        (
            [name, counts["traps"], *(junk(run, name) for _, run in labelled)]
            for name, counts in categories.items()
        ),
        ["left", "right", *["right"] * len(labelled)],
    )
    print()
    replayed = [(label, run) for label, run in labelled if "by_language" in run["figures"]]
    languages = sorted({code for _, run in replayed for code in run["figures"]["by_language"]})
    print_table(
        ["language", "sessions", "facts", "traps", *(f"{what}, {label.split(' (')[0]}" for label, _ in replayed for what in ("precision", "recall", "junk rate"))],
        (
            [
                code,
                replayed[0][1]["figures"]["by_language"][code]["sessions"],
                replayed[0][1]["figures"]["by_language"][code]["facts"],
                replayed[0][1]["figures"]["by_language"][code]["traps"],
                *(
                    pct(run["figures"]["by_language"][code][what])
                    for _, run in replayed
                    for what in ("precision", "recall", "junk_rate")
                ),
            ]
            for code in languages
        ),
        ["left", "right", "right", "right", *["right"] * (3 * len(replayed))],
    )
    if floor is not None:
        figures = floor["figures"]
        broken = broken_answers(Path(__file__).parents[1] / floor["output"])
        print(
            f"note: the floor ({floor['model']}) answered {figures['requests'] - figures['invalid_responses']} of "
            f"{figures['requests']} requests within the schema and proposed {figures['proposed']} fact(s), "
            f"{figures['stored']} stored; the answers that broke the schema: "
            + (", ".join(f"{n} {why}" for why, n in broken.items()) or "none")
        )
    print()
    outcomes = sorted({k for _, run in labelled for k in run["figures"]["by_outcome"]})
    print_table(
        ["what became of the proposed facts", *(label.split(" (")[0] for label, _ in labelled)],
        ([k, *(run["figures"]["by_outcome"].get(k, 0) for _, run in labelled)] for k in outcomes),
        ["left", *["right"] * len(labelled)],
    )


if __name__ == "__main__":
    main()

"""Run every benchmark and write benchmarks/RESULTS.md (one command, run by hand).

    .venv/bin/python benchmarks/run_all.py            # the full set (about 50 minutes on 2 cores)
    .venv/bin/python benchmarks/run_all.py --quick    # shorter windows and fewer trials (about 10 minutes)

Each script also writes its raw figures; this collects their Markdown tables, each beside
what it is compared with, into one file. A script that fails is named in the file with its
exit code and the end of its output, and the others still run.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent


def benchmarks(quick: bool) -> list[tuple[str, list[str], str]]:
    """(title, script and arguments, what the figures are compared with)."""
    return [
        (
            "Incremental transcript reading",
            ["bench_transcripts.py", "--consumed-mb", "256" if quick else "1024"],
            "Reading the new bytes after the cursor vs. reading those bytes alone: a ratio near 1 means the "
            "cost follows the new work, not the size already consumed.",
        ),
        (
            "Fact query latency vs. store size",
            ["bench_fact_query.py", "--sizes", "1000", "100000", *([] if quick else ["1000000"])],
            "The indexed query (daemon defaults) against the store size; owner-wide ranking (filter_entity off, "
            "the published lab's semantics) shown beside it. Load + index is paid once per run or CLI call.",
        ),
        (
            "Settings-lab grid throughput",
            ["bench_grid.py", "--sizes", "1", "10", *([] if quick else ["100"])],
            'The published 384-configuration grid on 20 stories against the articles\' "under a second"; '
            "the cost per configuration as the suite grows ×10 and ×100.",
        ),
        (
            "Library pass on 1,000 learned skills and 200 forks (10% drifted)",
            ["bench_library.py"],
            "Wall time and peak memory without a model and with one; merges decided deterministically vs. by the model.",
        ),
        (
            "Snapshot and undo latency",
            ["bench_undo.py", "--files", "100", "10000"],
            "An agent home of 10,000 managed files against one of 100.",
        ),
        (
            "History length: runs, show and undo at 1k and 10k runs; store growth with maintenance",
            [
                "bench_history.py",
                "--runs",
                "1000",
                *([] if quick else ["10000"]),
                "--before-pairs",
                "3" if quick else "5",
                "--growth-commits",
                "100" if quick else "200",
            ],
            "Whole CLI processes on stores of N run commits, interleaved pairs, medians: undo of the oldest run vs. "
            "the newest (target ≤ 2×), `runs` and `show`, with this code and with the code before the run index "
            "(`before`, the branch point, run from a `git archive` of it). Then the store's git folder after "
            "commits of a 1 MiB file changed by one line, without maintenance and with `maintenance` every 50.",
        ),
        (
            "A 10,000-turn backlog drained over cycles",
            ["bench_backlog.py", "--turns", "2000" if quick else "10000", "--files", "1", "2000" if quick else "10000"],
            "Each cycle a whole `once` process at the default caps (max_input_bytes 120,000, 8 requests per pass); "
            "before issue 13 the same backlog was refused on every cycle and never drained.",
        ),
        (
            "Idle daemon with many agents",
            [
                "bench_idle.py",
                "--agents",
                "10",
                "100",
                "1000",
                "--window",
                "60" if quick else "600",
                "--full-runs",
            ],
            "One daemon with 10 → 100 → 1,000 agents and nothing new to read: a scheduler cycle, start-up, idle CPU "
            "and RSS over the window; the forced `run_once` cycle shows what the stat pre-check saves.",
        ),
        (
            "Model calls per pass on the example",
            ["bench_model_calls.py"],
            "Calls made per pass over four runs, beside what thresholds (fewer than 4 new turns, unchanged role "
            "files) and deterministic work (identical duplicates, clean upstream merges, daily-log repeats) settled "
            "without the model.",
        ),
        (
            "Distillation precision on the labelled corpus",
            ["bench_distill_precision.py"],
            "`lab distill` on `benchmarks/distill_corpus/` (37 sessions, 33 supported facts, 48 traps in 7 "
            "categories) through the scripted server: an ideal replay (exactly the supported facts) and an "
            "adversarial one (every trap, a misquote and a value not in its quote per fact, then the facts), "
            "beside the floor, SmolLM2-135M through llama.cpp (`--llama-python`; a recorded run when not re-run). "
            "The adversarial column is what the pass's own checks stop whatever the model says.",
        ),
        (
            "Start-up of short commands",
            ["bench_startup.py", "--pairs", "5" if quick else "9"],
            "`--help`, `config check` and `status` as whole processes against `python -c pass`, before and "
            "after the lazy command table (interleaved rounds, medians).",
        ),
        (
            "The runtime hook as a whole process",
            ["bench_hook.py", "--facts", "10000" if quick else "100000", "--rounds", "11" if quick else "21"],
            "`metaeng-daemon hook claude-code` started as Claude Code starts it, on a prompt and at session "
            "start, against `python -c \"import json, sqlite3\"` (interleaved rounds, medians); the target is "
            "at most 2x at 100,000 facts. Also: building the delivery index, and a refresh with nothing new.",
        ),
        (
            "Usage signals at 10,000 sessions and 1,000 skills",
            ["bench_usage.py", "--mb", "16" if quick else "64"],
            "The usage record loaded, and updated by one run, at 10,000 sessions and 1,000 skills; reading a "
            "Claude Code transcript with the usage probe against without it.",
        ),
        (
            "The skill curator at 3,000 learned skills and 10,000 sessions",
            ["bench_curator.py", "--repeats", "3" if quick else "5"],
            "`curator --dry-run --json` and a real `curator --json` (archiving 5% of the library, or nothing) as "
            "whole processes and in process, at 3,000 learned skills against 300 (ratio), on a usage record of "
            "10,000 sessions; medians.",
        ),
        (
            "Meaning checks on the corpus",
            ["bench_meaning.py"],
            "Planted meaning changes (must all be refused) and legitimate merges (at most 10% refused) of "
            "`tests/meaning_corpus/`, through the workspace loss check and the library step-union check.",
        ),
        (
            "Random-point crash trials",
            ["bench_crash_trials.py", "--trials", "30" if quick else "120"],
            "kill -9 at a random moment of every kind of operation; each trial checks the crash-matrix invariants "
            "(0 failures expected).",
        ),
        (
            "Fleet coordination on PostgreSQL",
            ["bench_coordination.py", "--reservations", "500" if quick else "2000", "--pairs", "4" if quick else "10"],
            "Reservations per second through the shared ledger (a throwaway local PostgreSQL) from 1, 4 and 16 "
            "worker processes, beside the local-file ledger; then whole `once` processes (one distillation call) "
            "with the local backend vs. PostgreSQL in interleaved pairs: medians and the added latency per run.",
        ),
        (
            "Runtime adapters at size: Claude Code session, OpenClaw database",
            ["bench_adapters.py", "--consumed-mb", "100", "--events", "100000" if quick else "1000000"],
            "A 100 MB Claude Code session with 1 MB new vs. that 1 MB alone (target ≤ 1.2×), in process and as "
            "whole `transcripts` processes; an OpenClaw `transcript_events` table of 1M events with 1,000 new "
            "vs. a table of those 1,000 alone.",
        ),
        (
            "Impact: corrections found and matched, the command on 10,000 sessions",
            ["bench_impact.py", "--sessions", "1000" if quick else "10000"],
            "Detection (precision, recall per language and kind) and recurrence pairs on the labelled corpus "
            "`benchmarks/impact_corpus/` (target ≥ 90 %), then `impact --json` as a whole process on the "
            "corpus's sessions copied to 10,000 with shifted dates.",
        ),
    ]


def tables(output: str) -> str:
    """The Markdown tables a script printed (a blank line between two), or its whole output as a block if it printed none."""
    found: list[list[str]] = []
    previous_was_row = False
    for line in output.splitlines():
        is_row = line.startswith("|")
        if is_row:
            if not previous_was_row:
                found.append([])
            found[-1].append(line)
        previous_was_row = is_row
    return "\n\n".join("\n".join(rows) for rows in found) or "```\n" + output.strip() + "\n```"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shorter windows, fewer trials")
    parser.add_argument(
        "--only", nargs="*", help="run only the benchmarks whose script names contain these words"
    )
    args = parser.parse_args()
    sections = [
        "# Benchmark results",
        "",
        f"Written by `benchmarks/run_all.py{' --quick' if args.quick else ''}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
        f"{platform.machine()}, Python {platform.python_version()}, {_cpus()} CPU(s). Raw figures in `benchmarks/results/`.",
        "",
    ]
    for title, command, compared in benchmarks(args.quick):
        if args.only and not any(word in command[0] for word in args.only):
            continue
        print(f"== {title}: {' '.join(command)}", flush=True)
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, str(HERE / command[0]), *command[1:]], capture_output=True, text=True
        )
        seconds = time.monotonic() - started
        sections += [f"## {title}", "", compared, "", f"`{' '.join(command)}` — {seconds:.0f} s", ""]
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
            sections += [f"**failed with exit code {done.returncode}:**", "", "```", tail, "```", ""]
            print(f"   failed ({done.returncode})", flush=True)
            continue
        sections += [tables(done.stdout), ""]
        extra = [line for line in done.stdout.splitlines() if line.startswith(("FAILURE", "note:"))]
        sections += [*extra, ""] if extra else []
    text = "\n".join(sections).rstrip() + "\n"
    if args.only and (HERE / "RESULTS.md").exists():
        text = _merged((HERE / "RESULTS.md").read_text(), text)
    (HERE / "RESULTS.md").write_text(text)
    print(f"wrote {HERE / 'RESULTS.md'}")


def _merged(old: str, new: str) -> str:
    """The old file with the sections of `new` replacing those of the same title."""

    def split(text: str) -> tuple[str, dict[str, str]]:
        head, *parts = text.split("\n## ")
        return head, {part.split("\n", 1)[0]: "## " + part for part in parts}

    _head, old_sections = split(old)
    new_head, new_sections = split(new)
    merged = {**old_sections, **new_sections}
    return new_head.rstrip() + "\n\n" + "\n".join(s.rstrip() + "\n" for s in merged.values())


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0))


if __name__ == "__main__":
    main()

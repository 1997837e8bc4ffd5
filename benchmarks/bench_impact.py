"""Impact (issue 34): detection and recurrence matching on the labelled corpus, and the
`impact` command as a whole process on 10,000 sessions.

Run: .venv/bin/python benchmarks/bench_impact.py [--sessions N] [--corpus DIR]

Eighty-four corpora, in the format of benchmarks/impact_corpus/corpus.yaml: impact_corpus (the
first, read while the detection was built), impact_corpus_unseen, _final, _fresh, _blind,
_sixth, _seventh, _eighth, _ninth, _tenth, _eleventh, _twelfth, _thirteenth, _fourteenth,
_fifteenth, _sixteenth, _seventeenth, _eighteenth, _nineteenth, _twentieth, _twentyfirst,
_twentysecond, _twentythird, _twentyfourth, _twentyfifth, _twentysixth, _twentyseventh,
_twentyeighth, _twentyninth, _thirtieth, _thirtyfirst, _thirtysecond, _thirtythird, _thirtyfourth,
_thirtyfifth, _thirtysixth, _thirtyseventh, _thirtyeighth, _thirtyninth, _fortieth, _fortyfirst, _fortythird,
_fortyfourth, _fortyfifth, _fortysixth, _fortyseventh, _fortyeighth, _fortyninth, _fiftieth, _fiftyfirst,
_fiftysecond, _fiftythird, _fiftyfourth, _fiftyfifth, _fiftysixth, _fiftyseventh, _fiftyeighth, _fiftyninth,
_sixtieth, _sixtyfirst, _sixtysecond, _sixtythird, _sixtyfourth, _sixtyfifth, _sixtysixth, _sixtyseventh,
_sixtyeighth, _sixtyninth, _seventieth, _seventyfirst, _seventysecond, _seventythird,
_seventyfourth, _seventyfifth, _seventysixth, _seventyseventh, _seventyeighth, _seventyninth,
_eightieth, _eightyfirst, _eightysecond, _eightythird and _eightyfourth (held out:
written blind by helpers who never read the detection; each read only after its first measurement,
if ever), and _fortysecond (written blind, for reading: the languages found least). `--corpus` picks one; `--sessions 0` skips the
whole-process run and keeps the whole-process figures last written.

1. Every user turn of every session of benchmarks/impact_corpus/ goes through detection
   (`daemon.impact.statements`, with the agent's turns before and after it), every agent's statements through grouping
   (`daemon.impact.recurrence`, with the agent's turns around each: `daemon.impact.situation`);
   benchmarks/impact_score.py scores them against the labels:
   detection precision and recall (overall, per language, per kind), recurrence pair
   precision and recall (over all labelled pairs, and over the pairs whose two occurrences
   were both detected), and which look-alikes were taken for statements.
2. The corpus's sessions, copied with dates shifted by whole weeks until there are N (10,000),
   are written as plain JSON Lines transcripts of one agent in a temporary deployment, and
   `metaeng-daemon impact --agent bench --json` runs as its own process: wall time, peak
   memory, items found.

Writes benchmarks/results/impact.json (impact-unseen.json … impact-eightyfourth.json for the
others).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.impact_score import (
    CORPUS,
    Agent,
    detection,
    learned_subjects,
    load,
    lookalike_hits,
    recurrence,
)
from benchmarks.report import RESULTS, print_table, save_results
from daemon.impact.history import session_language
from daemon.impact.recurrence import group
from daemon.impact.situation import Situation, situation
from daemon.impact.statements import Statement, detect_statements
from tests.support.deploy import base_config, write_config

ROOT = Path(__file__).parents[1]
TARGET = 0.9


def detect_corpus(agents: list[Agent]) -> dict[str, list[Statement]]:
    found: dict[str, list[Statement]] = {}
    for agent in agents:
        statements: list[Statement] = []
        for session in agent.sessions:
            usual = session_language(t["content"] for t in session["transcript"] if t["role"] == "user")
            answered = ""
            transcript = session["transcript"]
            for index, turn in enumerate(transcript, 1):
                if turn["role"] == "user":
                    stamp = f"{session['date']}T09:{index:02d}:00+00:00"
                    reply = transcript[index]["content"] if index < len(transcript) and transcript[index]["role"] == "assistant" else ""
                    statements += detect_statements(
                        turn["content"], session["id"], index, stamp, answered=answered, usual=usual, reply=reply
                    )
                    answered = ""  # a message sent right after the person's own answers no turn, as the daemon reads it
                else:
                    answered = turn["content"]
        found[agent.name] = statements
    return found


def situations_of(agents: list[Agent], found: dict[str, list[Statement]]) -> dict[str, dict[Statement, Situation]]:
    """Each statement's situation (`daemon.impact.situation`): the agent's turns before and after it."""
    result: dict[str, dict[Statement, Situation]] = {}
    for agent in agents:
        transcripts = {s["id"]: s["transcript"] for s in agent.sessions}
        mine: dict[Statement, Situation] = {}
        messages: dict[tuple[str, int], Situation] = {}  # the statements of one message share it
        for statement in found[agent.name]:
            transcript = transcripts[statement.session]
            if (statement.session, statement.turn) not in messages:
                # the turns before and after the person's (`turn` counts from 1)
                before, after = (
                    transcript[k]["content"]
                    if 0 <= k < len(transcript) and transcript[k]["role"] == "assistant"
                    else ""
                    for k in (statement.turn - 2, statement.turn)
                )
                messages[(statement.session, statement.turn)] = situation(before, after)
            mine[statement] = messages[(statement.session, statement.turn)]
        result[agent.name] = mine
    return result


def write_sessions(home: Path, agents: list[Agent], count: int) -> None:
    """`count` plain transcripts: the corpus's sessions in turn, each copy a whole number of
    8-week periods later than the one before."""
    folder = home / "transcripts"
    folder.mkdir(parents=True)
    sessions = [(a.name, s) for a in agents for s in a.sessions]
    for n in range(count):
        agent, session = sessions[n % len(sessions)]
        day = date.fromisoformat(session["date"]) + timedelta(weeks=8 * (n // len(sessions)))
        lines = [
            json.dumps({"role": t["role"], "content": t["content"], "ts": f"{day}T09:{i % 60:02d}:00Z"})
            for i, t in enumerate(session["transcript"])
        ]
        lines.append(json.dumps({"type": "session_end"}))
        path = folder / f"{n:05d}-{agent}-{session['id']}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.utime(path, (1_700_000_000, 1_700_000_000))


def impact_process(write: Callable[[Path], None]) -> tuple[float, float, dict[str, Any]]:
    """`metaeng-daemon impact --agent bench --json` as its own process, in a temporary
    deployment of one agent whose home `write` fills: wall seconds, peak memory of the
    children so far (MiB), and the JSON document it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = write_config(root, base_config(root, None, agents=("bench",)))
        write(root / "bench")
        command = [str(ROOT / ".venv" / "bin" / "metaeng-daemon"), "--config", str(config), "impact", "--agent", "bench", "--json"]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "HOME": tmp}, check=False)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if done.returncode != 0:
            raise SystemExit(f"impact exited {done.returncode}: {done.stderr[-2000:]}")
        return seconds, peak, json.loads(done.stdout)


def whole_process(agents: list[Agent], count: int) -> dict[str, object]:
    seconds, peak, document = impact_process(lambda home: write_sessions(home, agents, count))
    return {
        "sessions": count,
        "sessions_read": document["sessions_read"],
        "seconds": round(seconds, 2),
        "peak_rss_mib": round(peak, 1),
        "items": document["figures"]["items"],
        "repeated_items": document["figures"]["repeated"],
        "statements": sum(1 + len(i["recurrences"]) for i in document["items"]),
    }


def _last_whole_process(name: str) -> object:
    """The whole-process figures of benchmarks/results/<name>.json, if a run wrote some."""
    try:
        return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8")).get("whole_process")
    except (OSError, ValueError):
        return None


def pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sessions", type=int, default=10_000, help="sessions for the whole-process run")
    options.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS,
        help="the labelled corpus (default benchmarks/impact_corpus; the held-out ones are "
        "benchmarks/impact_corpus_unseen, _final, _fresh, _blind, _sixth, _seventh, _eighth, _ninth, _tenth, _eleventh, _twelfth, _thirteenth, _fourteenth, _fifteenth, _sixteenth, _seventeenth, _eighteenth, _nineteenth, _twentieth, _twentyfirst, _twentysecond, _twentythird, _twentyfourth, _twentyfifth, _twentysixth, _twentyseventh, _twentyeighth, _twentyninth, _thirtieth, _thirtyfirst, _thirtysecond, _thirtythird, _thirtyfourth, _thirtyfifth, _thirtysixth, _thirtyseventh, _thirtyeighth, _thirtyninth, _fortieth, _fortyfirst, _fortysecond, _fortythird, _fortyfourth, _fortyfifth, _fortysixth, _fortyseventh, _fortyeighth, _fortyninth, _fiftieth, _fiftyfirst, _fiftysecond, _fiftythird, _fiftyfourth, _fiftyfifth, _fiftysixth, _fiftyseventh, _fiftyeighth, _fiftyninth, _sixtieth, _sixtyfirst, _sixtysecond, _sixtythird, _sixtyfourth, _sixtyfifth, _sixtysixth, _sixtyseventh, _sixtyeighth, _sixtyninth, _seventieth, _seventyfirst, _seventysecond, _seventythird, _seventyfourth, _seventyfifth, _seventysixth, _seventyseventh, _seventyeighth, _seventyninth, _eightieth, _eightyfirst, _eightysecond, _eightythird and _eightyfourth)",
    )
    args = options.parse_args(argv)
    agents = load(args.corpus)
    held_out = args.corpus.resolve() != CORPUS.resolve()
    started = time.perf_counter()
    found = detect_corpus(agents)
    around = situations_of(agents, found)
    items = {a.name: group(found[a.name], situations=around[a.name]) for a in agents}
    corpus_seconds = time.perf_counter() - started
    detected = detection(agents, found)
    matched = recurrence(agents, found, items)
    # the same, with what the labels say was learned from each turn: a fact, a skill, an instruction line
    learned = {a.name: group(found[a.name], learned_subjects(a, found[a.name]), around[a.name]) for a in agents}
    with_learned = recurrence(agents, found, learned)
    looks = [h for a in agents for h in lookalike_hits(a, found[a.name])]
    name = "impact-" + args.corpus.resolve().name.removeprefix("impact_corpus_") if held_out else "impact"
    # --sessions 0: the corpus figures only; the whole-process figures last measured are kept
    process = whole_process(agents, args.sessions) if args.sessions else _last_whole_process(name)
    figures = detected["figures"]
    print_table(
        ["slice", "precision", "recall", "statements", "labelled occurrences"],
        [
            [k, pct(v["precision"]), pct(v["recall"]), str(v["statements"]), str(v["occurrences"])]
            for k, v in figures.items()
        ],
    )
    print(
        f"recurrence pairs: precision {pct(matched['precision'])}, recall {pct(matched['recall'])} "
        f"(of pairs both detected: {pct(matched['recall_of_detected'])}); "
        f"{len(looks)} of {sum(len(a.lookalikes) for a in agents)} look-alikes detected; "
        f"kind as labelled for {pct(detected['kind_agreement'])} of the statements found on an item"
    )
    print(
        f"recurrence pairs with what was learned (facts, skills, instruction lines): precision {pct(with_learned['precision'])}, "
        f"recall {pct(with_learned['recall'])} (of pairs both detected: {pct(with_learned['recall_of_detected'])})"
    )
    if process is not None and args.sessions:
        print(f"whole process: {process}")
    save_results(
        # impact_corpus_unseen → impact-unseen, impact_corpus_final → impact-final
        name,
        {
            "target": TARGET,
            "corpus_seconds": round(corpus_seconds, 2),
            "detection": figures,
            "kind_agreement": detected["kind_agreement"],
            "recurrence": {k: v for k, v in matched.items() if not isinstance(v, list)},
            "recurrence_with_learned": {k: v for k, v in with_learned.items() if not isinstance(v, list)},
            "lookalikes_detected": looks,
            "missed_occurrences": detected["missed"],
            "false_positives": detected["false_positives"],
            "wrong_pairs": matched["wrong_pairs"],
            "missed_pairs": matched["missed_pairs"],
            "whole_process": process,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

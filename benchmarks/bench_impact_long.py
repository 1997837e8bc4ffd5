"""Impact on one very long message: `metaeng-daemon impact --agent bench --json` as its own
process, on a deployment whose one session holds a message of N copies of a correction said
as one sentence of many clauses, in each of a few languages (a pasted log or a chat export can
be hundreds of kilobytes long, with no full stop in it).

Run: .venv/bin/python benchmarks/bench_impact_long.py [--copies N] [--languages de,he,ru,zh]

Prints, per language and size, the wall time of the process and the statements found; the
ratio between a size and a quarter of it shows whether the reading stays linear (about 4×)
or not (16×). Writes benchmarks/results/impact_long.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.bench_impact import impact_process
from benchmarks.report import print_table, save_results

# One clause group per language: a correction, a rule, a recall, a contrast, with commas only.
CLAUSES = {
    "de": "nein, immer pnpm, nicht npm, das hab ich doch gesagt, ",
    "he": "לא, תמיד pnpm, לא npm, אמרתי לך, ",
    "ru": "нет, всегда pnpm, а не npm, я же говорил, ",
    "zh": "不是 用pnpm 不是npm 以后都这样 ",
    "en": "no, always pnpm, not npm, I told you, ",
}


def run(language: str, copies: int) -> dict[str, object]:
    message = CLAUSES[language] * copies

    def write(home: Path) -> None:
        turns = [
            {"role": "user", "content": "Install the dependencies.", "ts": "2026-11-02T09:00:00Z"},
            {"role": "assistant", "content": "Done, I ran npm install.", "ts": "2026-11-02T09:00:10Z"},
            {"role": "user", "content": message, "ts": "2026-11-02T09:01:00Z"},
            {"role": "assistant", "content": "OK, pnpm.", "ts": "2026-11-02T09:01:10Z"},
        ]
        lines = [json.dumps(t, ensure_ascii=False) for t in turns] + [json.dumps({"type": "session_end"})]
        (home / "transcripts").mkdir(parents=True)
        (home / "transcripts" / "long.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

    seconds, _peak, document = impact_process(write)
    if document["sessions_read"] != 1:
        raise SystemExit(f"impact read {document['sessions_read']} sessions of 1 ({language}, {copies} copies)")
    return {
        "language": language,
        "copies": copies,
        "characters": len(message),
        "seconds": round(seconds, 2),
        "statements": sum(1 + len(i["recurrences"]) for i in document["items"]),
    }


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--copies", type=int, default=12_000, help="copies of the clause group at the larger size")
    options.add_argument("--languages", default="de,he,ru,zh,en", help="comma-separated, of " + ", ".join(CLAUSES))
    args = options.parse_args(argv)
    languages = [code for code in args.languages.split(",") if code]
    unknown = [code for code in languages if code not in CLAUSES]
    if unknown:
        raise SystemExit(f"--languages: no clause group for {', '.join(unknown)} (known: {', '.join(CLAUSES)})")
    rows = []
    for language in languages:
        small, large = run(language, args.copies // 4), run(language, args.copies)
        rows.append({"small": small, "large": large, "ratio": round(_seconds(large) / max(_seconds(small), 0.01), 1)})
        print(f"{language}: {small['characters']:,} characters {small['seconds']} s, {large['characters']:,} characters {large['seconds']} s", file=sys.stderr)
    print_table(
        ["language", "characters", "seconds", "4x characters", "seconds", "ratio"],
        [[r["small"]["language"], f"{r['small']['characters']:,}", str(r["small"]["seconds"]), f"{r['large']['characters']:,}", str(r["large"]["seconds"]), f"{r['ratio']}×"] for r in rows],
    )
    save_results("impact_long", {"rows": rows})
    return 0


def _seconds(measured: dict[str, object]) -> float:
    seconds = measured["seconds"]
    assert isinstance(seconds, float)
    return seconds


if __name__ == "__main__":
    raise SystemExit(main())

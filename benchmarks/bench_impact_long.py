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
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from tests.support.deploy import base_config, write_config

ROOT = Path(__file__).parents[1]
# One clause group per language: a correction, a rule, a recall, a contrast, with commas only.
CLAUSES = {
    "de": "nein, immer pnpm, nicht npm, das hab ich doch gesagt, ",
    "he": "לא, תמיד pnpm, לא npm, אמרתי לך, ",
    "ru": "нет, всегда pnpm, а не npm, я же говорил, ",
    "zh": "不是 用pnpm 不是npm 以后都这样 ",
    "en": "no, always pnpm, not npm, I told you, ",
}


def run(language: str, copies: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = write_config(root, base_config(root, None, agents=("bench",)))
        folder = root / "bench" / "transcripts"
        folder.mkdir(parents=True)
        turns = [
            {"role": "user", "content": "Install the dependencies.", "ts": "2026-11-02T09:00:00Z"},
            {"role": "assistant", "content": "Done, I ran npm install.", "ts": "2026-11-02T09:00:10Z"},
            {"role": "user", "content": CLAUSES[language] * copies, "ts": "2026-11-02T09:01:00Z"},
            {"role": "assistant", "content": "OK, pnpm.", "ts": "2026-11-02T09:01:10Z"},
        ]
        lines = [json.dumps(t, ensure_ascii=False) for t in turns] + [json.dumps({"type": "session_end"})]
        (folder / "long.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        command = [str(ROOT / ".venv" / "bin" / "metaeng-daemon"), "--config", str(config), "impact", "--agent", "bench", "--json"]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "HOME": tmp}, check=False)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"impact exited {done.returncode}: {done.stderr[-2000:]}")
        document = json.loads(done.stdout)
    if document["sessions_read"] != 1:
        raise SystemExit(f"impact read {document['sessions_read']} sessions of 1 ({language}, {copies} copies)")
    return {
        "language": language,
        "copies": copies,
        "characters": len(CLAUSES[language]) * copies,
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
        ratio = float(str(large["seconds"])) / max(float(str(small["seconds"])), 0.01)
        rows.append({"small": small, "large": large, "ratio": round(ratio, 1)})
        print(f"{language}: {small['characters']:,} characters {small['seconds']} s, {large['characters']:,} characters {large['seconds']} s", file=sys.stderr)
    print_table(
        ["language", "characters", "seconds", "4x characters", "seconds", "ratio"],
        [[r["small"]["language"], f"{r['small']['characters']:,}", str(r["small"]["seconds"]), f"{r['large']['characters']:,}", str(r["large"]["seconds"]), f"{r['ratio']}×"] for r in rows],
    )
    save_results("impact_long", {"rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

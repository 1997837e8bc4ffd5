"""Incremental transcript reading: 1 GB already consumed + 1 MB new vs. the 1 MB alone.

Run: .venv/bin/python benchmarks/bench_transcripts.py [--consumed-mb 1024] [--new-mb 1]
Prints a markdown table and writes benchmarks/results/transcripts.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from daemon.kernel.changeset import Cursor
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import read_new_turns

LINE_USER = (
    json.dumps(
        {
            "role": "user",
            "content": "Please compile the weekly report " + "x" * 180,
            "ts": "2026-11-02T09:00:00Z",
        }
    )
    + "\n"
)
LINE_ASSISTANT = (
    json.dumps({"role": "assistant", "content": "Done: " + "y" * 200, "ts": "2026-11-02T09:00:01Z"}) + "\n"
)
PAIR = (LINE_USER + LINE_ASSISTANT).encode()


def fill(path: Path, megabytes: int) -> None:
    block = PAIR * (1024 * 1024 // len(PAIR) + 1)
    with path.open("ab") as fh:
        written = 0
        while written < megabytes * 1024 * 1024:
            fh.write(block)
            written += len(block)


def cursor_at_end(path: Path) -> Cursor:
    st = path.stat()
    with path.open("rb") as fh:
        head = hashlib.sha256(fh.read(min(st.st_size, 1024))).hexdigest()
    return Cursor(offset=st.st_size, dev=st.st_dev, ino=st.st_ino, head=head)


SETTINGS = TranscriptSettings(glob="t/*.jsonl", turn_idle_seconds=0, max_read_bytes=64 * 1024 * 1024)


def once(home: Path, cursors: dict[str, Cursor]) -> tuple[float, int]:
    start = time.perf_counter()
    batch = read_new_turns(TranscriptSource(home, SETTINGS), cursors, "bench", datetime.now(UTC))
    return time.perf_counter() - start, len(batch.turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--consumed-mb", type=int, default=1024)
    parser.add_argument("--new-mb", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        big_home, small_home = Path(tmp) / "big", Path(tmp) / "small"
        (big_home / "t").mkdir(parents=True)
        (small_home / "t").mkdir(parents=True)
        big, small = big_home / "t" / "s.jsonl", small_home / "t" / "s.jsonl"
        fill(big, args.consumed_mb)
        cursor = cursor_at_end(big)
        fill(big, args.new_mb)
        fill(small, args.new_mb)
        # Interleave the two measurements so background load hits both alike.
        big_samples, small_samples = [], []
        for _ in range(args.repeats):
            seconds, turns_big = once(big_home, {"t/s.jsonl": cursor})
            big_samples.append(seconds)
            seconds, turns_small = once(small_home, {})
            small_samples.append(seconds)
        incremental, alone = statistics.median(big_samples), statistics.median(small_samples)
        result = {
            "consumed_bytes": cursor.offset,
            "new_bytes": big.stat().st_size - cursor.offset,
            "turns_read": turns_big,
            "incremental_read_s": incremental,
            "new_bytes_alone_s": alone,
            "ratio": incremental / alone,
        }
        assert turns_big == turns_small
    save_results("transcripts", result)
    print_table(
        ["consumed", "new", "turns", "read after cursor (median)", "1 MB alone (median)", "ratio"],
        [
            [
                f"{result['consumed_bytes'] / 2**20:.0f} MiB",
                f"{result['new_bytes'] / 2**20:.2f} MiB",
                turns_big,
                f"{incremental * 1000:.1f} ms",
                f"{alone * 1000:.1f} ms",
                f"{result['ratio']:.2f}",
            ]
        ],
    )


if __name__ == "__main__":
    main()

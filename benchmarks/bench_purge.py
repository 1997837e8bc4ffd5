"""Purge on a big store: `memory forget --purge` as a whole process, wall time and peak memory.

Builds (with one `git fast-import`, not by running the daemon 10,000 times) an agent whose
store holds RUNS run commits over a sharded fact store of FACTS records; the purged key
changes value every 1,000 runs, so its values are spread over the whole history. Then
runs `python -m daemon … memory forget --purge --yes` once per repeat on a fresh copy and
reports the median wall time, the child's peak RSS, and as a ratio the time of a plain
`git fast-export | git fast-import` copy of the same store (the floor any rewrite pays).

    python benchmarks/bench_purge.py --runs 10000 --facts 100000 --repeats 3
    python benchmarks/bench_purge.py --operation squash --keep-runs 1000

`--operation squash` measures the run-history retention instead: `maintenance --agent ada`
with `retention.history_runs: KEEP` (squash + the store's git gc, as the daily job runs it),
and checks that exactly KEEP runs are listed after.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from memory_engine.fact_shards import shard_path  # noqa: E402

STORE = ".metaeng/facts.jsonl"
KEYS = ("city", "language", "timezone", "delivery", "color", "plan")


def record(i: int, entity: str, key: str, value: str, day: str, valid_to: str | None = None) -> dict[str, object]:
    return {
        "tenant": "default", "user": "ada", "entity": entity, "key": key, "value": value,
        "confidence": 0.9, "source": "user", "valid_from": day, "schema_version": 1, "memory_type": "fact",
        "id": f"f-{i:012x}", "source_event_id": f"t@{i}", "observed_at": day, "valid_to": valid_to,
        "supersedes_memory_id": None,
    }


def render(records: list[dict[str, object]]) -> bytes:
    key = lambda r: (r["tenant"], r["user"], r["entity"], r["key"], r["valid_from"], r["id"])  # noqa: E731
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in sorted(records, key=key)).encode()  # type: ignore[arg-type]


def build(root: Path, runs: int, facts: int) -> tuple[Path, Path]:
    """A deployment whose agent `ada` has `runs` run commits and `facts` records; (config, home)."""
    home, state = root / "ada", root / "state"
    git_dir = state / "agents" / "ada" / "store.git"
    git_dir.parent.mkdir(parents=True)
    home.mkdir()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")}, "GIT_DIR": str(git_dir)}
    subprocess.run(["git", "init", "-q", "--bare", str(git_dir)], check=True, env=env)
    shards: dict[str, list[dict[str, object]]] = {}
    for i in range(facts):
        r = record(i, f"e{i // len(KEYS)}", KEYS[i % len(KEYS)], f"value-{i}", "2026-01-01")
        shards.setdefault(shard_path(STORE, ("default", "ada", str(r["entity"]), str(r["key"]))), []).append(r)
    secret_shard = shard_path(STORE, ("default", "ada", "user", "city"))
    stream = bytearray()
    when = 1_760_000_000

    def commit(n: int, changed: dict[str, bytes], message: str) -> None:
        nonlocal stream
        stream += b"commit refs/heads/master\n"
        stream += b"committer metaeng-daemon <metaeng-daemon@localhost> %d +0000\n" % (when + n)
        body = message.encode()
        stream += b"data %d\n%s\n" % (len(body), body)
        for path, data in changed.items():
            stream += b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data)

    commit(0, {p: render(rs) for p, rs in shards.items()}, "initial import\n\nKind: external-edits\nAgent: ada\n")
    city: list[dict[str, object]] = []
    for n in range(1, runs + 1):
        changed: dict[str, bytes] = {}
        if n % 1000 == 1:
            if city:
                city[-1]["valid_to"] = "2026-02-01"
            city.append(record(10**9 + n, "user", "city", f"Secretville{n}", f"2026-01-{1 + n % 28:02d}"))
            changed[secret_shard] = render(shards.get(secret_shard, []) + city)
        else:
            i = n % facts
            path = shard_path(STORE, ("default", "ada", f"e{i // len(KEYS)}", KEYS[i % len(KEYS)]))
            shards[path][0]["confidence"] = 0.5 + (n % 40) / 100
            changed[path] = render(shards[path])
        commit(n, changed, f"distillation\n\nRun-Id: 20260101T000000Z-{n:06x}\nAgent: ada\nPasses: distillation\n")
    subprocess.run(["git", "fast-import", "--quiet"], input=bytes(stream), check=True, env=env)
    subprocess.run(["git", "--work-tree", str(home), "checkout", "-q", "-f", "master", "--", "."], check=True, env=env)
    subprocess.run(["git", "--work-tree", str(home), "reset", "-q"], check=True, env=env)
    config = root / "config.yaml"
    config.write_text(yaml.safe_dump({
        "version": 1, "state_dir": str(state), "budget": {"daily_usd": 1.0, "per_agent_daily_usd": 1.0},
        "agents": {"ada": {"home": str(home)}},
    }))
    return config, home


def timed(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    began = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{command[:6]} failed: {done.stderr[-2000:]}")
    return wall, max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)


def peak_of(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Run `command` under /usr/bin/time -v when present for an exact per-process peak."""
    wrapper = shutil.which("time") or "/usr/bin/time"
    if Path(wrapper).exists():
        began = time.perf_counter()
        done = subprocess.run([wrapper, "-v", *command], env=env, capture_output=True, text=True)
        wall = time.perf_counter() - began
        if done.returncode != 0:
            raise SystemExit(f"failed: {done.stderr[-2000:]}")
        peak = next(int(line.split()[-1]) for line in done.stderr.splitlines() if "Maximum resident" in line)
        return wall, peak
    return timed(command, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--operation", choices=("purge", "squash"), default="purge")
    parser.add_argument("--keep-runs", type=int, default=1000, help="history_runs for --operation squash")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        master = Path(tmp) / "master"
        master.mkdir()
        config, _home = build(master, args.runs, args.facts)
        built = time.perf_counter() - began
        env = {"PATH": os.environ["PATH"], "HOME": tmp, "PYTHONPATH": str(REPO)}
        purge_walls, peaks, copy_walls = [], [], []
        for n in range(args.repeats):
            work = Path(tmp) / f"w{n}"
            shutil.copytree(master, work, symlinks=True)
            text = config.read_text().replace(str(master), str(work))
            (work / "config.yaml").write_text(text)
            git_dir = work / "state" / "agents" / "ada" / "store.git"
            copy = Path(tmp) / f"copy{n}.git"
            genv = {**env, "GIT_DIR": str(copy)}
            subprocess.run(["git", "init", "-q", "--bare", str(copy)], check=True, env=genv)
            c0 = time.perf_counter()
            export = subprocess.Popen(["git", f"--git-dir={git_dir}", "fast-export", "--all"], stdout=subprocess.PIPE, env=env)
            subprocess.run(["git", "fast-import", "--quiet"], stdin=export.stdout, check=True, env=genv)
            export.wait()
            copy_walls.append(time.perf_counter() - c0)
            daemon = [sys.executable, "-m", "daemon", "--config", str(work / "config.yaml")]
            if args.operation == "squash":
                raw = yaml.safe_load((work / "config.yaml").read_text())
                raw["retention"] = {"history_runs": args.keep_runs}
                (work / "config.yaml").write_text(yaml.safe_dump(raw))
                wall, peak = peak_of([*daemon, "maintenance", "--agent", "ada"], env)
                listed = subprocess.run(
                    [*daemon, "runs", "--agent", "ada", "--json", "--limit", str(args.runs + 1)], env=env, capture_output=True
                )
                assert len(json.loads(listed.stdout)) == min(args.keep_runs, args.runs), "squash kept the wrong runs"
            else:
                wall, peak = peak_of(
                    [*daemon, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge", "--yes"],
                    env,
                )
                objects = subprocess.run(
                    ["git", f"--git-dir={git_dir}", "cat-file", "--batch-all-objects", "--batch"],
                    capture_output=True, env=env,
                ).stdout
                assert b"Secretville" not in objects, "a purged value survived"
            purge_walls.append(wall)
            peaks.append(peak)
            shutil.rmtree(work)
            shutil.rmtree(copy)
        result = {
            "operation": args.operation, **({"keep_runs": args.keep_runs} if args.operation == "squash" else {}),
            "runs": args.runs, "facts": args.facts, "build_s": round(built, 1),
            f"{args.operation}_wall_median_s": round(statistics.median(purge_walls), 2),
            f"{args.operation}_peak_rss_mib": round(max(peaks) / 1024, 1),
            "copy_wall_median_s": round(statistics.median(copy_walls), 2),
            f"ratio_{args.operation}_to_plain_copy": round(statistics.median(purge_walls) / statistics.median(copy_walls), 1),
            "repeats": args.repeats,
        }
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""`runs`, `show` and `undo` against history length, and the store's size with maintenance.

Run: .venv/bin/python benchmarks/bench_history.py [--runs 1000 10000] [--pairs 5]
         [--before-rev REV] [--before-pairs 5] [--growth-commits 200]

Setup is synthetic and fast: a real first `once` creates the store, then `git fast-import`
appends N run commits (the daemon's message and trailers; run 1 creates a file no later
run touches, the others rewrite one of 20 files in turn) and the home is set to match.
The measured commands are the real CLI as whole processes (`python -m daemon …`), each
on a fresh copy of that deployment (an undo changes it), interleaved, medians:

- undo of the oldest run vs. the newest (the target: oldest ≤ 2× newest at 10,000 runs);
- `runs` (its default 50 newest) and `show` of the oldest run, at 1k vs. 10k runs, in
  the same rounds as `--help` (the floor: the interpreter and the CLI's imports);
- the same commands with the code at `--before-rev` (default: where this branch left
  main), extracted with `git archive` and run from that tree, in the same session.

Store growth: a 1 MiB file changed by one line per commit, committed through the store's
own door (`daemon.run.store`, the loose objects a run writes), without maintenance and
with the `maintenance` command every 50 commits. Writes benchmarks/results/history.json
and prints Markdown tables.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.report import print_table, save_results  # noqa: E402

ROTATING = 20
CONFIG = (
    "version: 1\nstate_dir: ./state\n"
    "passes: {distillation: false, skill_learning: false, memory_consolidation: false, library_maintenance: false,"
    " workspace_consolidation: false, instruction_review: false}\n"
    "agents:\n  ada:\n    home: ./ada\n"
)


def cli(tree: Path, root: Path, *args: str, check: bool = True) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run `python -m daemon ARGS` from `tree` as a whole process; (seconds, result)."""
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "PYTHONPATH": str(tree), "LC_ALL": "C.UTF-8"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "daemon", "--config", str(root / "config.yaml"), *args],
        cwd=tree, env=env, capture_output=True, text=True, check=False,
    )
    seconds = time.perf_counter() - start
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds, done


def git(root: Path, *args: str, stdin: bytes | None = None) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_DIR=str(root / "state/agents/ada/store.git"), GIT_WORK_TREE=str(root / "ada"))
    return subprocess.run(["git", *args], env=env, input=stdin, capture_output=True, check=True).stdout


def run_id(index: int) -> str:
    when = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(hours=index)
    return f"{when.strftime('%Y%m%dT%H%M%SZ')}-{index:06x}"


def build(root: Path, runs: int) -> list[str]:
    """A deployment whose store holds `runs` run commits; return their ids, oldest first."""
    home = root / "ada"
    (home / "skills" / "seed").mkdir(parents=True)
    (home / "skills" / "seed" / "SKILL.md").write_text("# seed\n")
    (root / "config.yaml").write_text(CONFIG)
    cli(REPO, root, "once", "--agent", "ada")  # the real store, its import commit
    branch = git(root, "symbolic-ref", "HEAD").decode().strip()
    head = git(root, "rev-parse", "HEAD").decode().strip()
    stream: list[bytes] = []
    final: dict[str, bytes] = {}
    start = int(datetime(2025, 1, 1, tzinfo=UTC).timestamp())
    for index in range(runs):
        rid = run_id(index)
        path = "skills/oldest/SKILL.md" if index == 0 else f"skills/rot-{index % ROTATING:02d}/SKILL.md"
        content = f"# notes\n\nwritten by run {rid}\n".encode()
        final[path] = content
        message = (
            f"run {rid}: distillation (ada)\n\n[distillation] changes: synthetic\n\n"
            f"Run-Id: {rid}\nAgent: ada\nPasses: distillation\nCost-USD: 0.000000\nModel-Calls: 0\n"
        ).encode()
        stream.append(f"commit {branch}\n".encode())
        stream.append(f"committer metaeng-daemon <metaeng-daemon@localhost> {start + index * 3600} +0000\n".encode())
        stream.append(b"data %d\n%s\n" % (len(message), message))
        if index == 0:
            stream.append(f"from {head}\n".encode())
        stream.append(f"M 100644 inline {path}\n".encode())
        stream.append(b"data %d\n%s\n" % (len(content), content))
    git(root, "fast-import", "--quiet", stdin=b"".join(stream))
    for path, content in final.items():
        (home / path).parent.mkdir(parents=True, exist_ok=True)
        (home / path).write_bytes(content)
    git(root, "reset", "-q")
    git(root, "update-index", "-q", "--refresh")
    return [run_id(i) for i in range(runs)]


def fresh(template: Path, into: Path) -> Path:
    if into.exists():
        shutil.rmtree(into)
    shutil.copytree(template, into, symlinks=True)
    return into


def interleaved(tree: Path, scratch: Path, commands: Sequence[tuple[Path, Sequence[str]]], rounds: int) -> list[float]:
    """Median seconds of each (deployment, CLI args), run in turn `rounds` times, each on a fresh copy."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(rounds):
        for (template, args), seconds in zip(commands, times, strict=True):
            root = fresh(template, scratch)
            seconds.append(cli(tree, root, *args)[0])
    return [statistics.median(t) for t in times]


def history(sizes: Sequence[int], count: int, before: Path | None, before_count: int, work: Path) -> list[dict]:
    """Per code tree: undo oldest vs. newest at each size, then `runs` and `show` across sizes, interleaved."""
    rows = []
    built: list[tuple[int, Path, list[str]]] = []
    for size in sizes:
        template = work / f"template-{size}"
        template.mkdir()
        ids = build(template, size)
        cli(REPO, template, "runs")  # the index, as the applier keeps it in production
        built.append((size, template, ids))
    trees = [("after", REPO, count)] + ([("before", before, before_count)] if before else [])
    scratch = work / "copy"
    for label, tree, n in trees:
        for size, template, ids in built:
            new, old = interleaved(tree, scratch, [(template, ["undo", ids[-1]]), (template, ["undo", ids[0]])], n)
            rows.append({"code": label, "what": "undo newest vs. oldest", "runs_in_store": size, "pairs": n,
                         "first_s": new, "second_s": old, "first": "newest", "second": "oldest"})
            print(rows[-1], flush=True)
        (small, t_small, ids_small), (large, t_large, ids_large) = built[0], built[-1]
        medians = interleaved(
            tree,
            scratch,
            [
                (t_small, ["--help"]),
                (t_small, ["runs"]),
                (t_large, ["runs"]),
                (t_small, ["show", ids_small[0]]),
                (t_large, ["show", ids_large[0]]),
            ],
            n,
        )
        help_s, runs_small, runs_large, show_small, show_large = medians
        for what, first, second in (("runs", runs_small, runs_large), ("show oldest", show_small, show_large)):
            rows.append({"code": label, "what": what, "runs_in_store": f"{small} vs. {large}", "pairs": n,
                         "first_s": first, "second_s": second, "first": f"{small:,}", "second": f"{large:,}",
                         "help_s": help_s})
            print(rows[-1], flush=True)
    return rows


def growth(commits: int, every: int, work: Path) -> list[dict]:
    """Store size after `commits` commits of a 1 MiB file changed by one line, with/without gc."""
    from daemon.kernel.managed import ManagedPaths
    from daemon.run.store_maintenance import folder_size
    from daemon.run.store_open import open_store

    results = []
    for label, gc_every in (("no maintenance", 0), (f"`maintenance` every {every} commits", every)):
        root = work / f"growth-{gc_every}"
        home = root / "ada"
        (home / "skills" / "big").mkdir(parents=True)
        (root / "config.yaml").write_text(CONFIG)
        big = home / "skills" / "big" / "facts.md"
        lines = [f"fact {i}: the value of item {i} is {i * 7919 % 100003}\n" for i in range(22_000)]
        big.write_text("".join(lines))
        cli(REPO, root, "once", "--agent", "ada")
        git_dir = root / "state/agents/ada/store.git"
        managed = ManagedPaths(files=frozenset(), dirs=frozenset({"skills"}))
        maintenance_s: list[float] = []
        with open_store(git_dir, home, managed, root / "state/agents/ada/scratch") as store:
            for index in range(commits):
                lines[index * 97 % len(lines)] = f"fact changed by commit {index}\n"
                big.write_text("".join(lines))
                store.stage_paths(["skills/big/facts.md"])
                store.commit(f"commit {index}", {"Run-Id": run_id(index), "Agent": "ada"})
                if gc_every and (index + 1) % gc_every == 0:
                    seconds, _ = cli(REPO, root, "maintenance", "--agent", "ada")
                    maintenance_s.append(seconds)
        size = folder_size(git_dir)
        results.append(
            {
                "variant": label, "commits": commits, "file_bytes": big.stat().st_size, "git_dir_bytes": size,
                "per_commit_bytes": size / commits,
                "maintenance_median_s": statistics.median(maintenance_s) if maintenance_s else None,
            }
        )
        print(results[-1], flush=True)
    return results


def extract(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True, check=True).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--before-rev", default=None, help="code to compare with (default: merge-base with main)")
    parser.add_argument("--before-pairs", type=int, default=5)
    parser.add_argument("--no-before", action="store_true")
    parser.add_argument("--growth-commits", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        before = None
        if not args.no_before:
            rev = args.before_rev or subprocess.run(
                ["git", "-C", str(REPO), "merge-base", "HEAD", "main"], capture_output=True, text=True, check=True
            ).stdout.strip()
            before = extract(rev, work / "before")
        rows = history(args.runs, args.pairs, before, args.before_pairs, work)
        grown = growth(args.growth_commits, 50, work)
    save_results("history", {"history": rows, "growth": grown})
    print_table(
        ["code", "command", "runs in store", "pairs", "first", "second", "second / first", "`--help` (floor)"],
        (
            [
                r["code"], r["what"], r["runs_in_store"] if isinstance(r["runs_in_store"], str) else f"{r['runs_in_store']:,}",
                r["pairs"], f"{r['first']}: {r['first_s']:.2f} s", f"{r['second']}: {r['second_s']:.2f} s",
                f"{r['second_s'] / r['first_s']:.2f}", f"{r['help_s']:.2f} s" if "help_s" in r else "",
            ]
            for r in rows
        ),
    )
    print()
    print_table(
        ["variant", "commits", "file", "store git folder", "per commit", "maintenance (median)"],
        (
            [
                g["variant"], g["commits"], f"{g['file_bytes'] / 1024 / 1024:.2f} MiB",
                f"{g['git_dir_bytes'] / 1024 / 1024:.2f} MiB", f"{g['per_commit_bytes'] / 1024:.1f} KiB",
                f"{g['maintenance_median_s']:.2f} s" if g["maintenance_median_s"] else "—",
            ]
            for g in grown
        ),
    )


if __name__ == "__main__":
    main()

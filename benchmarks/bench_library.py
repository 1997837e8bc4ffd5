"""Benchmark: the library-maintenance pass on 1,000 learned skills and 200 forks, 10% drifted.

Run by hand (not part of the test suite):

    .venv/bin/python benchmarks/bench_library.py [--skills 1000] [--forks 200] [--keep DIR]

It builds a deployment in a temporary folder: 200 pack skills forked into the learned
library (SKILL.md, a script, a 2 KB reference file each), 1,000 machine-written learned
skills of which 25 pairs are identical and 25 pairs near-duplicates, and 20 drifted
originals: 10 changed upstream only, 6 changed on both sides in different places, 4
changed on the same line (true conflicts). Then it runs `once --pass library_maintenance`
twice on two copies of that deployment, each in a child process (so its peak RSS is its
own): without a model, and with a local fake OpenAI-compatible server whose scripted
answers resolve the conflicts and confirm the near-duplicates. It prints wall time, model
calls, merges decided deterministically vs. by the model, and peak memory.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def words(rng: random.Random, n: int) -> list[str]:
    return [
        "".join(rng.choice("bcdfghjklmnprstvz") + rng.choice("aeiou") for _ in range(3)) for _ in range(n)
    ]


def skill_text(name: str, description: str, steps: list[str], notes: str = "Keep it short.") -> str:
    lines = [
        "---",
        f"name: {name}",
        f"description: {description}",
        "---",
        "",
        f"# {name}",
        "",
        "## When to use",
        f"When {description.lower()}",
        "",
        "## Steps",
    ]
    lines += [f"{i}. {s}" for i, s in enumerate(steps, start=1)]
    lines += ["", "## Notes", notes, "", "## References", "See reference.md."]
    return "\n".join(lines) + "\n"


def write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def sidecar(home: Path, name: str, age: int) -> None:
    from skills_engine import provenance
    from skills_engine.provenance import Event, Provenance

    at = datetime(2026, 11, 1 + age % 28, 9, tzinfo=UTC).isoformat()
    record = Provenance(
        name=name, kind="created", created_at=at, history=[Event(at=at, run_id=None, action="created")]
    )
    item = provenance.sidecar_write("skills", record)
    write(home / item.path, item.content)


def build(root: Path, n_skills: int, n_forks: int, rng: random.Random) -> dict[str, Any]:
    from daemon.config import load_deployment
    from daemon.kernel.view import AgentView
    from skills_engine.fork import plan_fork
    from skills_engine.inventory import load_inventory

    home, packs = root / "ada", root / "packs"
    home.mkdir(parents=True)
    vocabulary = words(rng, 6000)
    for i in range(n_forks):
        name = f"pack-skill-{i:03d}"
        steps = [" ".join(rng.sample(vocabulary, 5)) for _ in range(6)]
        write(packs / name / "SKILL.md", skill_text(name, f"Pack procedure {i}.", steps))
        write(
            packs / name / "scripts/run.py",
            f"# helper for {name}\nprint('{' '.join(rng.sample(vocabulary, 20))}')\n",
        )
        write(
            packs / name / "reference.md",
            "".join(f"{' '.join(rng.sample(vocabulary, 8))}\n" for _ in range(40)),
        )
    config = root / "config.yaml"
    config.write_text(
        json.dumps(
            {
                "version": 1,
                "state_dir": str(root / "state"),
                "mode": "on_demand",
                "model": {
                    "base_url": "http://127.0.0.1:9/v1",
                    "model": "deep-bench",
                    "api_key_env": "BENCH_KEY",
                    "price_input_per_million": 1.0,
                    "price_output_per_million": 4.0,
                    "timeout_seconds": 30,
                },
                "budget": {"daily_usd": 1000.0, "per_agent_daily_usd": 1000.0},
                "agents": {
                    "ada": {
                        "home": str(home),
                        "budget_usd": 1000.0,
                        "cadence": "aggressive",
                        "skills": {"packs": [str(packs)], "learned": "skills"},
                    }
                },
            }
        )
    )
    agent = load_deployment(config, {"HOME": str(root)}).agent("ada")
    inventory = load_inventory(agent, AgentView(home))
    for i in range(n_forks):
        original = inventory.original(f"pack-skill-{i:03d}")
        assert original is not None
        plan = plan_fork(
            original, home=home, learned="skills", view=AgentView(home), now=NOW, run_id=None, cites=[]
        )
        for item in plan.writes:
            write(home / item.path, item.content)
    # Learned skills: unique ones, identical pairs, near-duplicate pairs.
    pairs = n_skills // 40
    unique = n_skills - 4 * pairs
    made: list[tuple[str, list[str]]] = []
    for i in range(unique + 2 * pairs):
        name = f"{rng.choice(vocabulary)}-{rng.choice(vocabulary)}-{i:04d}"
        steps = [" ".join(rng.sample(vocabulary, 5)) for _ in range(5)]
        write(home / "skills" / name / "SKILL.md", skill_text(name, f"Learned procedure {i}.", steps))
        sidecar(home, name, i)
        made.append((name, steps))
    for k in range(pairs):
        name, steps = made[k]
        twin = f"{name}-copy"
        text = (home / "skills" / name / "SKILL.md").read_text().replace(f"name: {name}", f"name: {twin}")
        write(home / "skills" / twin / "SKILL.md", text.replace(f"# {name}", f"# {twin}"))
        sidecar(home, twin, 27)
    near: list[tuple[str, str, list[str]]] = []
    for k in range(pairs, 2 * pairs):
        name, steps = made[k]
        twin = f"{name}-again"
        twin_steps = [*steps[:3], " ".join(rng.sample(vocabulary, 5))]
        write(
            home / "skills" / twin / "SKILL.md",
            skill_text(twin, f"Learned procedure {k}, again.", twin_steps),
        )
        sidecar(home, twin, 27)
        near.append(
            (min(name, twin), max(name, twin), sorted({*steps, *twin_steps}, key=[*steps, *twin_steps].index))
        )
    # Drift 10% of the forks: 10 upstream only, 6 both sides apart, 4 true conflicts.
    drifted = sorted(rng.sample(range(n_forks), n_forks // 10))
    conflicts: list[tuple[str, str]] = []
    for rank, i in enumerate(drifted):
        name = f"pack-skill-{i:03d}"
        theirs, ours = packs / name, home / "skills" / name
        if rank < len(drifted) // 2:
            ref = (theirs / "reference.md").read_text().splitlines(keepends=True)
            ref[5] = "upstream rewrote this line\n"
            (theirs / "reference.md").write_text("".join(ref))
        elif rank < len(drifted) * 8 // 10:
            (theirs / "SKILL.md").write_text(
                (theirs / "SKILL.md").read_text().replace("Keep it short.", "Keep it short and dated.")
            )
            text = (ours / "SKILL.md").read_text()
            (ours / "SKILL.md").write_text(
                text.replace("\n\n## Notes", "\n7. Our added final step\n\n## Notes")
            )
        else:
            for side, wording in ((theirs, "upstream wording"), (ours, "our wording")):
                text = (side / "SKILL.md").read_text()
                (side / "SKILL.md").write_text(text.replace("\n1. ", f"\n1. ({wording}) ", 1))
            resolved = (
                (ours / "SKILL.md").read_text().replace("(our wording)", "(our wording, upstream wording)")
            )
            conflicts.append(("SKILL.md", resolved))
    return {
        "config": str(config),
        "conflicts": conflicts,
        "near": sorted(near),
        "drifted": len(drifted),
        "pairs": pairs,
    }


def child(config: str, with_key: bool) -> None:
    from daemon.config import load_deployment
    from daemon.doors.environment import model_access
    from daemon.run.runner import run_once
    from daemon.wiring.pass_registry import default_registry

    env = {"HOME": str(Path(config).parent), **({"BENCH_KEY": "bench"} if with_key else {})}
    deployment = load_deployment(Path(config), env)
    access = model_access(deployment.model, env)
    # First a no-op run so the one-time import of the existing library into the store is not timed.
    run_once(deployment, "ada", registry=default_registry(), access=access, now=NOW, passes=["distillation"])
    started = time.perf_counter()
    result = run_once(
        deployment, "ada", registry=default_registry(), access=access, now=NOW, passes=["library_maintenance"]
    )
    wall = time.perf_counter() - started
    entry = next(p for p in result.passes if p.name == "library_maintenance")
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "wall_s": wall,
                "status": entry.status,
                "details": dict(entry.details),
                "files": len(result.files_changed),
                "model_calls": len(result.model_calls),
                "peak_rss_mib": peak_kib / 1024,
            }
        )
    )


def run_child(config: str, with_key: bool) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", config, "--key" if with_key else "--no-key"],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"child failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def summary(label: str, result: dict[str, Any]) -> None:
    d = result["details"]
    merges = d["upstream_merges"]
    done = sum(1 for m in merges if m["outcome"] == "merged")
    by_model = sum(1 for m in merges if m["outcome"] == "merged" and "conflict" in m["rules"].values())
    deterministic, model = d["files_merged_deterministically"], d["files_resolved_by_model"]
    pending_files = sum(
        list(m["rules"].values()).count("conflict") for m in merges if m["outcome"] == "pending"
    )
    decided = deterministic + model + pending_files
    print(f"\n== {label}")
    print(
        f"wall time            {result['wall_s']:.2f} s  (pass status {result['status']}, {result['files']} files changed)"
    )
    print(f"peak RSS (child)     {result['peak_rss_mib']:.0f} MiB")
    print(f"model calls          {result['model_calls']}")
    print(
        f"drifted forks        {len(merges)}: merged {done} ({by_model} with a model answer), "
        f"pending {sum(1 for m in merges if m['outcome'] == 'pending')}"
    )
    print(
        f"file merges          {deterministic} deterministic, {model} by the model, {pending_files} pending "
        f"→ deterministic fraction {deterministic / decided:.0%}"
        if decided
        else "file merges          none"
    )
    print(
        "duplicate groups     "
        + ", ".join(
            f"{o}: {sum(1 for x in d['duplicates'] if x['outcome'] == o)}"
            for o in ("merged", "distinct", "refused")
        )
        + f", pending {len(d['pending']) - sum(1 for m in merges if m['outcome'] == 'pending')}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=1000)
    parser.add_argument("--forks", type=int, default=200)
    parser.add_argument("--keep", type=Path, help="build the deployments here and keep them")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--key", dest="key", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-key", dest="key", action="store_false", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.key)
        return
    from tests.support.fake_model import FakeModelServer

    workdir = args.keep or Path(tempfile.mkdtemp(prefix="bench-library-"))
    started = time.perf_counter()
    built = build(workdir / "base", args.skills, args.forks, random.Random(20261130))
    print(
        f"built {args.skills} learned skills + {args.forks} forks ({built['drifted']} drifted, "
        f"{built['pairs']} identical and {built['pairs']} near-duplicate pairs) in {time.perf_counter() - started:.1f} s"
    )
    copies = {}
    for mode in ("no-model", "model"):
        shutil.copytree(workdir / "base", workdir / mode, symlinks=True)
        config = workdir / mode / "config.yaml"
        config.write_text(config.read_text().replace(str(workdir / "base"), str(workdir / mode)))
        copies[mode] = str(config)
    summary("without a model", run_child(copies["no-model"], False))
    server = FakeModelServer().start()
    try:
        raw = Path(copies["model"]).read_text().replace("http://127.0.0.1:9/v1", server.url)
        Path(copies["model"]).write_text(raw)
        for path, content in built["conflicts"]:
            server.reply({"files": [{"path": path, "content": content}]}, schema="ConflictResolution")
        for first, _second, steps in built["near"]:
            server.reply(
                {
                    "duplicates": True,
                    "reason": "same procedure",
                    "name": first,
                    "description": "Merged procedure.",
                    "trigger": "When needed",
                    "steps": steps,
                    "sections": [],
                },
                schema="CanonicalSkill",
            )
        summary("with a model (local fake server, scripted answers)", run_child(copies["model"], True))
    finally:
        server.stop()
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()

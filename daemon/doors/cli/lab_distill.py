"""`lab distill`: the precision benchmark of the distillation pass (docs/explanation/lab.md).

It calls the configured model only with `--live`; without it, it refuses and creates
nothing. The evidence goes to a new ledger folder that `lab verify` re-checks.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from daemon.doors.cli.common import CliContext, add_json
from daemon.kernel.errors import DaemonError

# The benchmark, its corpus reader and the model client are imported when `lab distill` runs:
# every `lab` command registers this one, and `lab grid` must not pay for them.
if TYPE_CHECKING:
    from daemon.lab.distill_bench import DistillResult

# distill_bench.MAX_BUDGET_USD, the limit the benchmark enforces; repeated for the help text so
# that registering the command imports nothing (tests/daemon/lab/test_grid_process.py checks it).
MAX_BUDGET_USD = 2.0


def register(actions: argparse._SubParsersAction) -> None:
    distill = actions.add_parser(
        "distill",
        help="precision benchmark of fact distillation (needs --live: calls the configured model and spends money)",
        description=(
            "Send every session of a labelled corpus to the configured model exactly as the distillation "
            "pass would, put each proposed fact through the pass's checks and write rules on a fresh memory, "
            "and score precision (stored facts that are supported / all stored), recall (supported facts "
            "stored / all supported) and the junk rate of every trap category (traps stored / traps). Every "
            "request, answer, outcome, cost and figure goes into a new ledger folder; `lab verify` re-checks "
            "it. Exit 1 unless every session was scored."
        ),
    )
    distill.add_argument("--live", action="store_true", help="really call the model provider (required)")
    distill.add_argument(
        "--corpus",
        type=Path,
        required=True,
        metavar="DIR",
        help="corpus folder: corpus.yaml and sessions/*.yaml (e.g. benchmarks/distill_corpus)",
    )
    distill.add_argument(
        "--output",
        type=Path,
        metavar="DIR",
        help="ledger folder, must not exist (default: <state_dir>/lab/distill-<UTC time>)",
    )
    distill.add_argument(
        "--budget-usd",
        type=float,
        default=0.5,
        help=f"stop before a call that would take the run over this, 0-{MAX_BUDGET_USD:g} USD (default 0.5)",
    )
    add_json(distill)
    distill.set_defaults(handler=handle_distill)


def handle_distill(args: argparse.Namespace, context: CliContext) -> int:
    if not args.live:
        raise DaemonError(
            "lab distill calls the configured model provider and spends money: add --live to run it "
            "(an API key in the environment never makes a command live); nothing was done"
        )
    from daemon.lab.distill_bench import DistillBench
    from daemon.lab.distill_corpus import load_corpus
    from daemon.lab.experiment_ledger import Ledger
    from daemon.run.model_client import deep_tier_for

    corpus = load_corpus(args.corpus)
    deployment = context.deployment()
    access = context.model_access(deployment)
    if deployment.model is None or access.unavailable_reason:
        raise DaemonError(
            f"cannot run the precision benchmark: {access.unavailable_reason or 'no model configured'}"
        )
    now = context.clock()
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    output: Path = args.output or deployment.state_dir / "lab" / f"distill-{stamp}"
    deep = deep_tier_for(deployment, None, access, run_id=f"lab-{stamp}", now=now, with_breaker=False)
    ledger = Ledger.create(output)
    try:
        result = DistillBench(ledger, corpus, deep, args.budget_usd, context.clock).run()
    finally:
        deep.close()
    _print(context, args, corpus.name, output, result)
    return 0 if result.status == "completed" else 1


def _print(context: CliContext, args: argparse.Namespace, name: str, output: Path, result: DistillResult) -> None:
    from daemon.lab.distill_report import category_rows, headline

    figures = result.figures
    if args.json:
        context.out.json(
            {
                "status": result.status,
                "stopped": result.stopped,
                "corpus": name,
                "figures": {k: v for k, v in figures.items() if k != "by_session"},
                "spent_usd": round(result.spent_usd, 8),
                "calls": result.calls,
                "output": str(output),
            }
        )
        return
    out = context.out
    out.line(
        f"distillation precision on {name}: {figures['sessions']} of {figures['sessions_in_corpus']} session(s) "
        f"scored, {figures['requests']} request(s), {result.spent_usd:.6f} USD charged or reserved"
    )
    if result.stopped:
        out.line(f"stopped: {result.stopped}")
    if figures["invalid_responses"]:
        out.line(f"{figures['invalid_responses']} answer(s) broke the schema: nothing from them was stored")
    for line in headline(figures):
        out.line(line)
    out.line("")
    out.table(["TRAP CATEGORY", "TRAPS", "STORED", "JUNK RATE"], category_rows(figures))
    out.line("")
    out.line(
        "outcomes of the proposed facts: "
        + (", ".join(f"{k} {n}" for k, n in figures["by_outcome"].items()) or "none proposed")
    )
    out.line(f"ledger: {output} (report.md); check it with `lab verify {output}`")

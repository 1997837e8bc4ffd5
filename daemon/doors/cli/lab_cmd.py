"""`lab grid|evaluate|campaign|distill|verify|propose`: the settings lab (docs/explanation/lab.md).

grid, evaluate and verify need no configuration and no model. campaign and distill (the
distillation precision benchmark, `lab_distill`) call the model only with `--live`. propose (and a campaign given `--agent`) adds a review-queue
proposal; nothing changes an agent's settings until a person approves it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from daemon.doors.cli import lab_distill
from daemon.doors.cli.common import CliContext, add_agent, add_json, wait_seconds
from daemon.kernel.memory_settings import BASELINE, MemorySettings
from daemon.lab.grid import Grid, run_grid
from daemon.lab.outputs import (
    evaluate_candidate,
    grid_rows,
    load_candidate,
    write_evaluate,
    write_grid,
)
from daemon.lab.scenarios import BUILTIN_PREFIX, BUILTIN_SUITES, Suite, load_suite

if TYPE_CHECKING:
    from daemon.lab.experiment_ledger import Ledger

DEFAULT_SUITE = f"{BUILTIN_PREFIX}metaeng"
ROW_HEADERS = ["RANK", "MIN_CONF", "STORES", "ENTITY", "TIME", "DEDUP", "TOP_K", "PASSED", "STORED"]


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "lab",
        help="tune the memory settings against fixed scenarios (grid, campaign, distill, verify, propose)",
        description=(
            "The settings lab: score the five memory settings on scenario stories, search them "
            "exhaustively (grid) or with an LLM proposer (campaign), measure the distillation pass's "
            "precision against a model (distill), keep every piece of evidence in a hashed ledger "
            "folder, and turn a selected configuration into a review-queue proposal."
        ),
    )
    actions = parser.add_subparsers(dest="lab_action", metavar="ACTION", required=True)
    names = ", ".join(BUILTIN_PREFIX + n for n in BUILTIN_SUITES)

    def scenarios(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--scenarios",
            default=DEFAULT_SUITE,
            metavar="FILE",
            help=f"scenario file: our format or the published lab's (built-in: {names}; default {DEFAULT_SUITE})",
        )

    grid = actions.add_parser(
        "grid",
        help="evaluate every configuration of the settings grid",
        description=(
            "Thresholds from the suite's distinct confidences (one per interval) × filter_entity × "
            "time_aware × deduplicate × top_k 1..8, every configuration on every scenario, ranked by "
            "the selection rule. The table folds top_k values that give the same result."
        ),
    )
    scenarios(grid)
    grid.add_argument("--all", action="store_true", help="print every configuration, top_k not folded")
    grid.add_argument(
        "--output", type=Path, metavar="DIR", help="also write a ledger folder (must not exist)"
    )
    add_json(grid)
    grid.set_defaults(handler=handle_grid)

    evaluate = actions.add_parser(
        "evaluate",
        help="score a configuration a person supplies",
        description=(
            "Score CANDIDATE.json (a JSON object of the five settings; missing ones take the baseline "
            "value) and compare it with its parent (the baseline, or --parent) by the selection rule."
        ),
    )
    evaluate.add_argument(
        "candidate",
        type=Path,
        metavar="CANDIDATE.json",
        help='JSON object of settings (or {"settings": {...}})',
    )
    scenarios(evaluate)
    evaluate.add_argument(
        "--parent", type=Path, metavar="FILE", help="parent settings file (default: baseline)"
    )
    evaluate.add_argument("--output", type=Path, metavar="DIR", help="write a ledger folder (must not exist)")
    add_json(evaluate)
    evaluate.set_defaults(handler=handle_evaluate)

    campaign = actions.add_parser(
        "campaign",
        help="LLM proposer campaigns (needs --live: calls the configured model and spends money)",
        description=(
            "Run N campaigns of at most K model calls each, from the baseline (or the agent's current "
            "settings with --agent). Every request, response, validation, evaluation, cost and parent "
            "choice goes into --output. With --agent, the selected configuration becomes a review-queue "
            "proposal. Exit 1 unless the experiment completed without errors."
        ),
    )
    campaign.add_argument("--live", action="store_true", help="really call the model provider (required)")
    add_agent(campaign, required=False)
    campaign.add_argument("--campaigns", type=int, default=3, help="1-5 campaigns (default 3)")
    campaign.add_argument(
        "--iterations", type=int, default=4, help="1-4 model calls per campaign (default 4)"
    )
    campaign.add_argument(
        "--budget-usd", type=float, default=0.5, help="campaign budget, 0-2 USD (default 0.5)"
    )
    campaign.add_argument(
        "--output", type=Path, required=True, metavar="DIR", help="ledger folder (must not exist)"
    )
    scenarios(campaign)
    add_json(campaign)
    campaign.set_defaults(handler=_handle_campaign)

    lab_distill.register(actions)

    check = actions.add_parser(
        "verify",
        help="check a ledger's hashes and re-run its evaluations",
        description=(
            "Recompute every file hash and re-run the deterministic evaluations and decisions (for a "
            "`lab distill` ledger: rebuild every request from its corpus copy and re-score every recorded "
            "answer); exit 1 on any mismatch."
        ),
    )
    check.add_argument("ledger", type=Path, metavar="DIR", help="a ledger folder written by the lab")
    add_json(check)
    check.set_defaults(handler=handle_verify)

    propose = actions.add_parser(
        "propose",
        help="turn the best configuration into a review-queue proposal for an agent",
        description=(
            "Run the grid on --scenarios (or take the selection of a verified --ledger) and, if the "
            "selection rule prefers it to the agent's current settings, add a proposal to the agent's "
            "review queue. Approving it (`review approve`) is an undoable run."
        ),
    )
    add_agent(propose)
    scenarios(propose)
    propose.add_argument(
        "--ledger", type=Path, metavar="DIR", help="use the selection recorded in this ledger"
    )
    propose.add_argument(
        "--wait", type=wait_seconds, default=None, metavar="SECONDS", help="wait for a run in progress"
    )
    add_json(propose)
    propose.set_defaults(handler=_handle_propose)


def _timed_grid(suite: Suite) -> tuple[Grid, float]:
    started = time.perf_counter()
    grid = run_grid(suite)
    return grid, time.perf_counter() - started


def _ledger(output: Path | None) -> Ledger | None:
    """A new ledger folder at `output`, or None; the ledger module is imported only when asked for."""
    if output is None:
        return None
    from daemon.lab.experiment_ledger import Ledger

    return Ledger.create(output)


def handle_grid(args: argparse.Namespace, context: CliContext) -> int:
    suite = load_suite(args.scenarios)
    ledger = _ledger(args.output)
    grid, seconds = _timed_grid(suite)
    doc = grid.as_json()
    if ledger:
        write_grid(ledger, suite, grid, seconds, context.clock())
    if args.json:
        context.out.json(
            {
                **doc,
                "suite": {"name": suite.name, "sha256": suite.sha256},
                "wall_seconds": round(seconds, 4),
                "output": str(args.output) if ledger else None,
            }
        )
        return 0
    out = context.out
    n, total = len(grid.results), grid.baseline.total
    out.line(
        f"settings grid on {suite.name} ({total} scenarios): {n} configurations in {seconds:.2f} s "
        f"({n / seconds:.0f} configurations/s)"
    )
    out.line(
        f"baseline ({BASELINE.describe()}): {grid.baseline.passed}/{total}, {grid.baseline.mean_stored_records:.2f} stored"
    )
    top = [r for r in grid.results if r.passed == grid.results[0].passed and not r.violations]
    best = grid.best
    if best is None:
        out.line("no configuration passes every hard check: nothing to select")
    else:
        out.line(f"{len(top)} configuration(s) pass {best.passed}/{total}; best by the selection rule:")
        out.line(
            f"  {best.settings.describe()} → {best.passed}/{total}, {best.mean_stored_records:.2f} stored"
        )
    out.line("")
    if args.all:
        rows = [
            [
                str(i),
                f"{r.settings.min_confidence:g}",
                "",
                *_flags(r.settings),
                str(r.settings.top_k),
                f"{r.passed}/{r.total}",
                f"{r.mean_stored_records:.2f}",
            ]
            for i, r in enumerate(grid.results, start=1)
        ]
    else:
        rows = grid_rows(grid)
    out.table(ROW_HEADERS, rows)
    if ledger:
        out.line(f"ledger: {args.output}")
    return 0


def _flags(s: MemorySettings) -> list[str]:
    return ["yes" if v else "no" for v in (s.filter_entity, s.time_aware, s.deduplicate)]


def handle_evaluate(args: argparse.Namespace, context: CliContext) -> int:
    suite = load_suite(args.scenarios)
    candidate = load_candidate(args.candidate)
    parent = load_candidate(args.parent) if args.parent else None
    ledger = _ledger(args.output)
    outcome = evaluate_candidate(suite, candidate, parent.settings if parent else BASELINE)
    label = parent.label if parent else "baseline"
    if ledger:
        write_evaluate(ledger, suite, candidate, label, outcome, context.clock())
    ev, comparison = outcome.evaluation, outcome.comparison
    if args.json:
        context.out.json(
            {
                "passed": ev.passed,
                "total": ev.total,
                "mean_stored_records": round(ev.mean_stored_records, 4),
                "failed": ev.failed,
                "violations": ev.violations,
                "settings": ev.settings.model_dump(),
                "defaults_used": list(candidate.defaults),
                "parent": label,
                "recommendation": comparison.recommendation,
                "output": str(args.output) if ledger else None,
            }
        )
        return 0
    out = context.out
    out.line(f"candidate {candidate.label}: {ev.settings.describe()}")
    if candidate.defaults:
        out.line(f"  baseline values used for: {', '.join(candidate.defaults)}")
    out.line(
        f"passed {ev.passed}/{ev.total}, {ev.mean_stored_records:.2f} stored records per scenario, "
        f"{ev.violations} hard-check violation(s)"
    )
    out.line(f"failed: {', '.join(ev.failed) or 'none'}")
    out.line(f"against {label}: {comparison.recommendation} — {comparison.reason}")
    if ledger:
        out.line(f"ledger: {args.output}")
    return 0


def _handle_campaign(args: argparse.Namespace, context: CliContext) -> int:
    # Imported when run: campaign and propose bring the proposer, the run machinery and the
    # model client, which `lab grid` and `lab evaluate` do not use.
    from daemon.doors.cli import lab_adoption

    return lab_adoption.handle_campaign(args, context)


def _handle_propose(args: argparse.Namespace, context: CliContext) -> int:
    from daemon.doors.cli import lab_adoption

    return lab_adoption.handle_propose(args, context)


def handle_verify(args: argparse.Namespace, context: CliContext) -> int:
    from daemon.lab.verify import verify

    report = verify(args.ledger)
    if args.json:
        context.out.document(report.document())
        return 0 if report.ok else 1
    verdict = "OK" if report.ok else "FAILED"
    if report.kind == "distill":
        rechecked = (
            f"{report.requests} request(s) rebuilt, {report.sessions} session(s) re-scored, figures recomputed"
        )
    else:
        rechecked = (
            f"{report.evaluations} evaluation(s) re-run, {report.decisions} decision(s) and "
            f"{report.validations} validation(s) rechecked"
        )
    context.out.line(f"ledger {args.ledger} ({report.kind}): {verdict} — {report.files} file hashes, {rechecked}")
    for note in report.notes:
        context.out.line(f"  note: {note}")
    for problem in report.problems:
        context.out.line(f"  problem: {problem}")
    return 0 if report.ok else 1

"""`lab grid|evaluate|campaign|verify|propose`: the settings lab (SPEC §4.2).

grid, evaluate and verify need no configuration and no model. campaign calls the model
only with `--live`. propose (and a campaign given `--agent`) adds a review-queue
proposal; nothing changes an agent's settings until a person approves it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from daemon.cadence import CADENCES
from daemon.cli.common import CliContext, add_agent, add_json
from daemon.deep_tier import DeepTier
from daemon.errors import DaemonError
from daemon.manual import run_manual
from daemon.paths import StateLayout
from daemon.spend import SpendLedger
from daemon.view import AgentView
from memory_engine.agent_memory import settings_for
from memory_engine.lab import adopt
from memory_engine.lab.campaign import CampaignPlan, Experiment, ExperimentResult
from memory_engine.lab.grid import Grid, run_grid
from memory_engine.lab.ledger import Ledger, load_manifest, read_json
from memory_engine.lab.outputs import (
    evaluate_candidate,
    grid_rows,
    load_candidate,
    write_evaluate,
    write_grid,
)
from memory_engine.lab.scenarios import BUILTIN_PREFIX, BUILTIN_SUITES, Suite, load_suite, parse_suite
from memory_engine.lab.verify import verify
from memory_engine.settings import BASELINE, MemorySettings

DEFAULT_SUITE = f"{BUILTIN_PREFIX}metaeng"
ROW_HEADERS = ["RANK", "MIN_CONF", "STORES", "ENTITY", "TIME", "DEDUP", "TOP_K", "PASSED", "STORED"]


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "lab",
        help="tune the memory settings against fixed scenarios (grid, campaign, verify, propose)",
        description=(
            "The settings lab: score the five memory settings on scenario stories, search them "
            "exhaustively (grid) or with an LLM proposer (campaign), keep every piece of evidence in "
            "a hashed ledger folder, and turn a selected configuration into a review-queue proposal."
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
    campaign.set_defaults(handler=handle_campaign)

    check = actions.add_parser(
        "verify",
        help="check a ledger's hashes and re-run its evaluations",
        description="Recompute every file hash and re-run the deterministic evaluations and decisions; exit 1 on any mismatch.",
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
        "--wait", type=float, default=None, metavar="SECONDS", help="wait for a run in progress"
    )
    add_json(propose)
    propose.set_defaults(handler=handle_propose)


def _timed_grid(suite: Suite) -> tuple[Grid, float]:
    started = time.perf_counter()
    grid = run_grid(suite)
    return grid, time.perf_counter() - started


def handle_grid(args: argparse.Namespace, context: CliContext) -> int:
    suite = load_suite(args.scenarios)
    ledger = Ledger.create(args.output) if args.output else None
    grid, seconds = _timed_grid(suite)
    doc = grid.as_json()
    if ledger:
        write_grid(ledger, suite, grid, seconds, context.clock())
    if args.json:
        context.out.json(
            {**doc, "wall_seconds": round(seconds, 4), "output": str(args.output) if ledger else None}
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
    ledger = Ledger.create(args.output) if args.output else None
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


def _deep_tier(context: CliContext, args: argparse.Namespace) -> tuple[DeepTier, Any, Any]:
    deployment = context.deployment()
    agent = deployment.agent(args.agent) if args.agent else None
    access = context.model_access(deployment)
    if deployment.model is None or access.unavailable_reason:
        raise DaemonError(f"cannot run a campaign: {access.unavailable_reason or 'no model configured'}")
    layout = StateLayout(deployment.state_dir)
    now = context.clock()
    config = deployment.config
    deep = DeepTier(
        model=deployment.model,
        api_key=access.api_key,
        ledger=SpendLedger(layout.spend_dir, layout.spend_lock),
        agent=agent.name if agent else "lab",
        run_id=f"lab-{now.strftime('%Y%m%dT%H%M%SZ')}",
        now=now,
        deployment_budget_usd=config.budget.daily_usd,
        agent_budget_usd=agent.budget_usd if agent else config.budget.per_agent_daily_usd,
        deep_cap=agent.deep_cap if agent else CADENCES[config.cadence].deep_passes_per_day,
    )
    return deep, deployment, agent


def handle_campaign(args: argparse.Namespace, context: CliContext) -> int:
    if not args.live:
        raise DaemonError(
            "lab campaign calls the configured model provider and spends money: add --live to run it "
            "(an API key in the environment never makes a command live); nothing was done"
        )
    suite = load_suite(args.scenarios)
    deep, deployment, agent = _deep_tier(context, args)
    start, label = BASELINE, "baseline"
    if agent is not None:
        start, _origin = settings_for(agent, AgentView(agent.home))
        label = "current"
    plan = CampaignPlan(args.campaigns, args.iterations, args.budget_usd, start, label)
    plan.check()
    ledger = Ledger.create(args.output)
    try:
        result = Experiment(ledger, suite, deep, plan, context.clock).run()
    finally:
        deep.close()
    proposal = None
    if agent is not None and result.selected is not None:
        source = f"proposer campaign, ledger {args.output} ({result.selected.candidate_id} of campaign {result.selected.campaign})"
        proposal = _propose(
            context, deployment, agent.name, suite, result.selected.settings, source, args.output, None
        )
    _print_campaign(context, args, result, proposal)
    return 0 if result.status == "completed" else 1


def _print_campaign(
    context: CliContext, args: argparse.Namespace, result: ExperimentResult, proposal: Any
) -> None:
    if args.json:
        context.out.json(
            {
                "status": result.status,
                "campaigns": [
                    {k: c.get(k) for k in ("campaign", "status", "final_parent")} for c in result.campaigns
                ],
                "selected": None
                if result.selected is None
                else {
                    "campaign": result.selected.campaign,
                    "candidate_id": result.selected.candidate_id,
                    "settings": result.selected.settings.model_dump(),
                    "passed": result.selected.evaluation.passed,
                    "mean_stored_records": round(result.selected.evaluation.mean_stored_records, 4),
                },
                "spent_usd": round(result.spent_usd, 8),
                "calls": result.calls,
                "output": str(args.output),
                "proposal": proposal,
            }
        )
        return
    out = context.out
    out.line(
        f"experiment {result.status}: {result.calls} model call(s), {result.spent_usd:.6f} USD charged or reserved"
    )
    for c in result.campaigns:
        final = c.get("final_parent")
        tail = (
            f" → {final['id']}: {final['passed']}/{final['total']}, {final['mean_stored_records']:.2f} stored"
            if final
            else ""
        )
        out.line(f"  campaign {c['campaign']}: {c['status']}{tail}")
    if result.selected:
        out.line(f"selected: {result.selected.settings.describe()} ({result.selected.reason})")
    else:
        out.line("selected: nothing (no campaign improved on the start configuration)")
    if proposal and proposal.get("proposal"):
        out.line(
            f"review proposal {proposal['proposal']} for agent {proposal['agent']}: approve with `review approve {proposal['proposal']}`"
        )
    elif proposal:
        out.line(proposal["reason"])
    out.line(f"ledger: {args.output} (report.md); check it with `lab verify {args.output}`")


def handle_verify(args: argparse.Namespace, context: CliContext) -> int:
    report = verify(args.ledger)
    if args.json:
        context.out.json(report.as_json())
        return 0 if report.ok else 1
    verdict = "OK" if report.ok else "FAILED"
    context.out.line(
        f"ledger {args.ledger} ({report.kind}): {verdict} — {report.files} file hashes, "
        f"{report.evaluations} evaluation(s) re-run, {report.decisions} decision(s) and "
        f"{report.validations} validation(s) rechecked"
    )
    for note in report.notes:
        context.out.line(f"  note: {note}")
    for problem in report.problems:
        context.out.line(f"  problem: {problem}")
    return 0 if report.ok else 1


def _from_ledger(root: Path) -> tuple[Suite, MemorySettings, str]:
    report = verify(root)
    if not report.ok:
        raise DaemonError(f"ledger {root} does not verify ({report.problems[0]}); nothing proposed")
    doc = read_json(root / "ledger.json")
    chosen = {
        "campaign": doc.get("selected"),
        "grid": doc.get("best"),
        "evaluate": doc.get("evaluation"),
    }.get(str(doc.get("kind")))
    if not isinstance(chosen, dict):
        raise DaemonError(f"ledger {root} ({doc.get('kind')}) selected no configuration; nothing proposed")
    suite = parse_suite((root / "scenarios.json").read_bytes(), str(root / "scenarios.json"))
    sealed = load_manifest(root).get("sealed_at", "?")
    return (
        suite,
        MemorySettings.model_validate(chosen["settings"]),
        f"ledger {root} ({doc['kind']}, sealed {sealed})",
    )


def _propose(
    context: CliContext,
    deployment: Any,
    agent: str,
    suite: Suite,
    settings: MemorySettings | None,
    source: str,
    ledger: Path | None,
    wait: float | None,
) -> dict[str, Any]:
    """Add the proposal as a run (so it is committed); `settings` None = grid best for the agent."""
    grid = run_grid(suite) if settings is None else None
    now = context.clock()
    found: dict[str, Any] = {}

    def plan(session: Any, view: AgentView, run_id: str) -> Any:
        current, _origin = settings_for(session.agent, view)
        chosen = settings
        if grid is not None:
            best = adopt.closest_best(grid.results, current)
            if best is None:
                raise DaemonError(f"no configuration of the grid on {suite.name} passes every hard check")
            chosen = best.settings
        assert chosen is not None
        assessment = adopt.assess(session.agent, view, suite, chosen)
        found["current"], found["settings"] = current.model_dump(), chosen.model_dump()
        extra = [f"ledger {ledger}"] if ledger else []
        return adopt.plan_proposal(
            session.agent,
            view,
            assessment,
            suite=suite,
            source=source,
            extra_evidence=extra,
            now=now,
            run_id=run_id,
        )

    timeout = deployment.config.run_lock_timeout_seconds if wait is None else wait
    result = run_manual(deployment, agent, label="lab-propose", plan=plan, now=now, lock_timeout=timeout)
    applied = result.applied is not None and result.applied.sha is not None
    return {
        "agent": agent,
        "proposal": result.changeset.details.get("proposal") if applied else None,
        "run_id": result.applied.run_id if applied and result.applied else None,
        "reason": result.changeset.reason,
        **found,
    }


def handle_propose(args: argparse.Namespace, context: CliContext) -> int:
    deployment = context.deployment()
    agent = deployment.agent(args.agent)
    if args.ledger:
        suite, settings, source = _from_ledger(args.ledger)
        outcome = _propose(context, deployment, agent.name, suite, settings, source, args.ledger, args.wait)
    else:
        suite = load_suite(args.scenarios)
        source = (
            f"exhaustive settings grid on {suite.name}, best score, smallest change from the current settings"
        )
        outcome = _propose(context, deployment, agent.name, suite, None, source, None, args.wait)
    if args.json:
        context.out.json(outcome)
        return 0
    context.out.line(outcome["reason"])
    if outcome["proposal"]:
        context.out.line(
            f"review it with: metaeng-daemon --config {context.config_path} review show {outcome['proposal']}"
        )
    return 0

"""`lab campaign` and `lab propose`: the two lab commands that can end in a review proposal.

A campaign calls the model only with `--live`; its proposer spend goes through the deep
tier under the agent's ledger scope (or "lab"), on top of the campaign's own budget.
`propose` (and a campaign given `--agent`) adds a proposal as a run, so it is committed
in the agent's store; nothing changes the agent's settings until a person approves it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from daemon.doors.cli.common import CliContext
from daemon.kernel.errors import DaemonError
from daemon.kernel.memory_settings import BASELINE, MemorySettings
from daemon.kernel.view import AgentView
from daemon.lab import adopt
from daemon.lab.campaign import Experiment
from daemon.lab.campaign_record import CampaignPlan, ExperimentResult
from daemon.lab.experiment_ledger import Ledger, load_manifest
from daemon.lab.grid import run_grid
from daemon.lab.scenarios import Suite, load_suite, parse_suite
from daemon.lab.verify import verify
from daemon.model.deep_tier import DeepTier
from daemon.run.manual import run_manual
from daemon.run.model_client import deep_tier_for
from memory_engine.agent_memory import settings_for


def _deep_tier(context: CliContext, args: argparse.Namespace) -> tuple[DeepTier, Any, Any]:
    deployment = context.deployment()
    agent = deployment.agent(args.agent) if args.agent else None
    access = context.model_access(deployment)
    if deployment.model is None or access.unavailable_reason:
        raise DaemonError(f"cannot run a campaign: {access.unavailable_reason or 'no model configured'}")
    now = context.clock()
    lab_run = f"lab-{now.strftime('%Y%m%dT%H%M%SZ')}"
    deep = deep_tier_for(deployment, agent, access, run_id=lab_run, now=now, with_breaker=False)
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
    proposal: dict[str, Any] | None = None
    if agent is not None and result.selected is not None:
        selected = result.selected
        source = f"proposer campaign, ledger {args.output} ({selected.candidate_id} of campaign {selected.campaign})"
        try:
            proposal = _propose(
                context, deployment, agent.name, suite, selected.settings, source, args.output, None
            )
        except DaemonError as exc:  # the sealed ledger stays; `lab propose --ledger` can retry
            proposal = {
                "agent": agent.name,
                "proposal": None,
                "reason": f"no proposal written: {exc}",
                "failed": True,
            }
    _print_campaign(context, args, result, proposal)
    return 0 if result.status == "completed" and not (proposal or {}).get("failed") else 1


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


def _from_ledger(root: Path) -> tuple[Suite, MemorySettings, str]:
    """The suite and the selection of a ledger that verifies, the selection as rebuilt by the
    re-runs: `ledger.json`'s own claim is only cross-checked, never used."""
    report = verify(root)
    if not report.ok:
        raise DaemonError(f"ledger {root} does not verify ({report.problems[0]}); nothing proposed")
    if report.selection is None:
        raise DaemonError(f"ledger {root} ({report.kind}) selected no configuration; nothing proposed")
    suite = parse_suite((root / "scenarios.json").read_bytes(), str(root / "scenarios.json"))
    sealed = load_manifest(root).get("sealed_at", "?")
    return suite, report.selection, f"ledger {root} ({report.kind}, sealed {sealed})"


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
    applied = result.run_id is not None
    details = result.changeset.details
    return {
        "agent": agent,
        "proposal": details.proposal if applied and isinstance(details, adopt.SettingsProposal) else None,
        "run_id": result.run_id,
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

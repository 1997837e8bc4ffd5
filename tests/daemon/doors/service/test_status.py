"""`metaeng-daemon status` in-process, against state made by real runs (no daemon running)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from daemon.config import load_deployment
from daemon.kernel.changeset import Changeset
from daemon.kernel.review_queue import make_change, new_proposal, proposal_write
from daemon.kernel.view import AgentView
from daemon.model.spend import SpendLedger
from daemon.run.manual import run_manual
from daemon.run.session import AgentSession
from tests.daemon.doors.service.helpers import FACT_REPLY, add_turns, runs_of
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.fake_model import FakeModelServer
from tests.support.skill_library import curated_library

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _propose(config: Path) -> None:
    deployment = load_deployment(config, {})

    def plan(session: AgentSession, view: AgentView, run_id: str) -> Changeset:
        proposal = new_proposal(
            kind="instruction",
            agent="ada",
            title="Sharper greeting",
            target="AGENTS.md",
            rationale="users asked twice",
            evidence=[],
            changes=[make_change(view, "AGENTS.md", "Greet briefly.\n")],
            now=T0,
            run_id=run_id,
        )
        return Changeset(
            pass_name="propose", status="changes", reason="test", writes=(proposal_write(proposal),)
        )

    run_manual(deployment, "ada", label="propose", plan=plan, now=T0, lock_timeout=0)


def test_status_json_reports_what_the_state_holds(root: Path, fake_model: FakeModelServer) -> None:
    cfg = base_config(root, fake_model.url, agents=("ada", "bob"))
    cfg["agents"]["ada"]["passes"] = {"instruction_review": False}
    config = write_config(root, cfg)
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    once = run_cli(config, "once", "--agent", "ada", "--json", clock=lambda: T0)
    assert once.code == 0
    _propose(config)
    add_turns(root / "ada", "s2.jsonl", 2, "ada-2")

    result = run_cli(config, "status", "--json", clock=lambda: T0 + timedelta(minutes=10))
    assert result.code == 0, result.err
    report = result.json()
    assert list(report) == ["daemon", "agents"]
    assert report["daemon"] == {"running": False, "pid": None, "started_at": None, "config": None, "version": None}
    ada, bob = report["agents"]
    totals = SpendLedger(root / "state" / "spend", root / "state" / "spend.lock").totals("2026-11-30", "ada")
    last = runs_of(root / "state", "ada")[-1]
    assert ada["breaker"] == {
        "open": False,
        "open_until": None,
        "consecutive_failures": ada["breaker"]["consecutive_failures"],
    }
    assert {k: v for k, v in ada.items() if k not in ("passes", "quarantined", "breaker")} == {
        "name": "ada",
        "enabled": True,
        "deep_passes_today": 1,
        "deep_cap": 12,
        "spend_today_usd": round(totals.agent_usd, 6),
        "cache_saved_today_usd": 0.0,  # the scripted server reports no cached tokens
        "cached_tokens_today": 0,
        "budget_usd": 1.0,
        "pending_turns": 2,
        "held_transcripts": [],
        "unknown_lines": {},
        "set_aside_sessions": 0,
        "open_proposals": 1,
        "unreadable": [],
        # The run read s1.jsonl (s2.jsonl waits): one session, and nothing in it used a skill.
        "usage": {
            "skills_used": 0,
            "skills_never_used": 0,
            "skill_opens": 0,
            "facts_view_reads": 0,
            "hook_deliveries": 0,
            "sessions_read": 1,
        },
        "library": {
            "curator_enabled": True,
            "active": 0,
            "stale": 0,
            "due_for_archive": 0,
            "pinned": 0,
            "kept": 0,
            "archived": 0,
            "never_used": 0,
            "stale_skills": [],
            "held": [],
        },
        # The proposal was written by a manual run, which goes through the same applier
        # and so is the newest line of the run log.
        "last_run": {
            "run_id": last["run_id"],
            "status": "applied",
            "finished_at": last["finished_at"],
        },
        "store_maintenance": None,  # never packed yet
    }
    assert "quarantined" in ada
    assert ada["passes"]["distillation"] == {
        "enabled": True,
        "origin": "default",
        "next_run": (T0 + timedelta(hours=2)).isoformat(),  # balanced: last run + 2 h
        "stuck": None,
    }
    review = ada["passes"]["instruction_review"]
    assert review["enabled"] is False and review["next_run"] is None
    assert review["origin"].startswith("agent ada (config.yaml:")
    assert bob["deep_passes_today"] == 0 and bob["last_run"] is None and bob["pending_turns"] == 0
    # Never ran: due as soon as a daemon starts.
    assert bob["passes"]["distillation"]["next_run"] == (T0 + timedelta(minutes=10)).isoformat()
    assert (
        set(ada["passes"])
        == set(bob["passes"])
        == {
            "distillation",
            "skill_learning",
            "memory_consolidation",
            "library_maintenance",
            "workspace_consolidation",
            "instruction_review",
        }
    )


def test_status_with_the_master_switch_off_shows_agents_disabled_and_nothing_next(root: Path) -> None:
    cfg = base_config(root, None)
    cfg["enabled"] = False
    config = write_config(root, cfg)
    (ada,) = run_cli(config, "status", "--json").json()["agents"]
    assert ada["enabled"] is False
    assert all(p["next_run"] is None for p in ada["passes"].values())
    assert not (root / "state").exists()  # status reads, never creates


def test_status_human_output_names_each_agent_and_the_daemon_state(root: Path) -> None:
    config = write_config(root, base_config(root, None, agents=("ada", "bob")))
    result = run_cli(config, "status", clock=lambda: T0)
    assert result.code == 0
    assert result.out.startswith("daemon: not running")
    assert "agent ada (enabled)" in result.out and "agent bob (enabled)" in result.out
    assert "deep passes today 0/12, spend today 0.0000/1.00 USD" in result.out
    assert "last run: none" in result.out
    skill_row = next(line for line in result.out.splitlines() if line.strip().startswith("skill_learning"))
    assert "2026-11-30T09:00:00Z" in skill_row and "default" in skill_row


def test_status_human_output_says_why_nothing_is_scheduled(root: Path) -> None:
    cfg = base_config(root, None)
    cfg["mode"] = "on_demand"
    result = run_cli(write_config(root, cfg), "status")
    assert "nothing scheduled: mode is on_demand: passes run only through `once`" in result.out


def test_status_with_an_unreadable_proposal_warns_names_the_file_and_reports_the_rest(root: Path) -> None:
    config = write_config(root, base_config(root, None))
    broken = root / "ada" / ".metaeng" / "review" / "broken.json"
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json")
    result = run_cli(config, "status", "--json")
    assert result.code == 0
    assert f"warning: {broken} is unreadable" in result.err
    (ada,) = result.json()["agents"]
    assert ada["open_proposals"] is None and ada["deep_cap"] == 12


def test_status_of_an_unknown_agent_exits_1(root: Path) -> None:
    config = write_config(root, base_config(root, None))
    result = run_cli(config, "status", "--agent", "zed")
    assert result.code == 1 and "unknown agent 'zed'" in result.err


def test_status_shows_the_library_health_from_the_curators_verdicts(root: Path) -> None:
    config = curated_library(root)
    now = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    (ada,) = run_cli(config, "status", "--json", clock=lambda: now).json()["agents"]
    assert ada["library"] == {
        "curator_enabled": True,
        "active": 2,  # busy, fresh-idea
        "stale": 1,
        "due_for_archive": 1,
        "pinned": 1,
        "kept": 1,  # by-hand
        "archived": 1,
        "never_used": 4,  # old-report, quiet-lookup, fresh-idea, pinned-old
        "stale_skills": ["old-report", "quiet-lookup"],
        "held": [],
    }
    dry = run_cli(config, "curator", "--agent", "ada", "--dry-run", "--json", clock=lambda: now).json()
    assert dry["would_archive"] == ["old-report"]  # the curator's own verdicts say the same
    human = run_cli(config, "status", clock=lambda: now).out
    assert (
        "  skills: 2 active, 1 stale, 1 due for the archive, 1 archived, 1 pinned, 1 kept; "
        "4 learned never used since created; stale or due: old-report, quiet-lookup"
    ) in human.splitlines()


def test_status_with_unreadable_pins_warns_and_still_shows_the_usage(root: Path) -> None:
    config = curated_library(root)
    pins = root / "ada" / ".metaeng" / "skill-pins.json"
    pins.write_text("{not json")
    result = run_cli(config, "status", "--json")
    assert result.code == 0 and f"warning: {pins}" in result.err
    (ada,) = result.json()["agents"]
    assert ada["library"] is None and ada["usage"]["sessions_read"] == 65
    assert "  skills: unknown" in run_cli(config, "status").out.splitlines()


def test_status_says_when_the_curator_is_off(root: Path) -> None:
    config = curated_library(root)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"]["skills"]["curator"] = {"enabled": False}
    config.write_text(yaml.safe_dump(raw))
    (ada,) = run_cli(config, "status", "--json").json()["agents"]
    assert ada["library"]["curator_enabled"] is False and ada["library"]["stale_skills"] == []
    assert "(the curator is off: skills.curator.enabled)" in run_cli(config, "status").out

"""The impact headline: saved by `impact`, read by `status` (never computed there); a file
that cannot be read is a warning naming it, and nothing else of `status` changes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.doors.impact_headline import headline_path, read_headline
from daemon.kernel.errors import CorruptState, StateVersionError
from tests.daemon.impact.test_impact_cli import deployment
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import setup_agent

NOW = datetime(2026, 12, 1, 8, 30, tzinfo=UTC)


def clock() -> datetime:
    return NOW


def _path(config: Path) -> Path:
    return headline_path(load_deployment(config, {}).state_dir, "ada")


def test_impact_saves_the_headline_and_status_shows_it(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    assert run_cli(config, "impact", "--agent", "ada", clock=clock).code == 0
    saved = read_headline(load_deployment(config, {}).state_dir, "ada")
    assert saved is not None and saved.computed_at == NOW.isoformat() and saved.since is None
    assert (saved.figures.items, saved.figures.learned, saved.figures.repeated_after_delivery) == (1, 1, 1)
    assert saved.sessions_read == 3

    text = run_cli(config, "status", "--agent", "ada")
    assert text.code == 0, text.err
    assert (
        "  impact: 1 items, 1 learned, 1 said again after delivery "
        "(as of 2026-12-01; `impact --agent ada` refreshes)\n" in text.out
    )
    block = run_cli(config, "status", "--agent", "ada", "--json").json()["agents"][0]["impact"]
    assert block["figures"] == saved.figures.model_dump(mode="json")
    assert {k: v for k, v in block.items() if k != "figures"} == {
        "computed_at": "2026-12-01T08:30:00+00:00",
        "since": None,
        "sessions_read": 3,
    }
    assert {k: block["figures"][k] for k in ("items", "learned", "delivered", "repeated")} == {
        "items": 1,
        "learned": 1,
        "delivered": 1,
        "repeated": 1,
    }


def test_impact_since_saves_the_day_and_status_names_it(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    assert run_cli(config, "impact", "--agent", "ada", "--since", "2026-11-15", "--json", clock=clock).code == 0
    out = run_cli(config, "status", "--agent", "ada").out
    assert "(since 2026-11-15, as of 2026-12-01; `impact --agent ada` refreshes)" in out


def test_status_before_any_impact_says_not_computed_and_leaves_the_block_out(root: Path) -> None:
    config = setup_agent(root, None)
    text = run_cli(config, "status")
    assert text.code == 0 and "  impact: not computed yet (`impact --agent ada`)\n" in text.out
    (agent,) = run_cli(config, "status", "--json").json()["agents"]
    assert "impact" not in agent
    assert not _path(config).exists()


def test_a_corrupt_headline_is_a_warning_naming_the_file_and_the_rest_of_status_stands(root: Path) -> None:
    config = setup_agent(root, None)
    before = run_cli(config, "status", "--json", clock=clock).json()
    path = _path(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    text = run_cli(config, "status")
    assert text.code == 0
    assert f"warning: {path} is unreadable: not JSON" in text.err
    assert "  impact: unknown (its file is unreadable; `impact --agent ada` writes it again)\n" in text.out
    after = run_cli(config, "status", "--json", clock=clock)
    assert after.code == 0 and after.json() == before
    with pytest.raises(CorruptState, match=str(path)):
        read_headline(load_deployment(config, {}).state_dir, "ada")


def test_a_headline_of_a_newer_daemon_is_refused_with_a_sentence(root: Path) -> None:
    config = setup_agent(root, None)
    path = _path(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 99}), encoding="utf-8")
    text = run_cli(config, "status")
    assert text.code == 0
    assert f"warning: {path} has version 99; this daemon reads up to version 1" in text.err
    with pytest.raises(StateVersionError):
        read_headline(load_deployment(config, {}).state_dir, "ada")


def test_impact_writes_a_corrupt_headline_again(root: Path) -> None:
    config = setup_agent(root, None)
    path = _path(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[]", encoding="utf-8")
    assert run_cli(config, "impact", "--agent", "ada", clock=clock).code == 0
    assert "  impact: 0 items, 0 learned, 0 said again after delivery (as of 2026-12-01;" in run_cli(
        config, "status"
    ).out


def test_impact_that_cannot_save_its_headline_warns_and_still_prints_the_report(root: Path) -> None:
    config = setup_agent(root, None)
    path = _path(config)
    path.mkdir(parents=True)  # a folder where the file goes: the rename fails
    result = run_cli(config, "impact", "--agent", "ada", "--json", clock=clock)
    assert result.code == 0 and result.json()["agent"] == "ada"
    assert "warning: the impact headline was not saved for `status`:" in result.err

"""Loading a deployment of many agents stays fast; overlapping homes are still refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.kernel.errors import ConfigError
from tests.support.deploy import write_config


@pytest.mark.slow
def test_a_thousand_agents_load_with_no_false_overlap(tmp_path: Path) -> None:
    # How long it takes is a benchmark figure (docs/explanation/performance.md), not a test.
    agents = {}
    for i in range(1000):
        (tmp_path / "agents" / f"a{i}").mkdir(parents=True)
        agents[f"a{i}"] = {"home": f"agents/a{i}"}
    config = write_config(tmp_path, {"version": 1, "state_dir": str(tmp_path / "state"), "agents": agents})
    assert len(load_deployment(config, {}).agents) == 1000


def test_nested_and_shared_homes_are_each_reported_once(tmp_path: Path) -> None:
    for folder in ("x", "x/inner", "y"):
        (tmp_path / folder).mkdir()
    agents = {"ada": {"home": "x"}, "bob": {"home": "x/inner"}, "cy": {"home": "x"}, "dee": {"home": "y"}}
    config = write_config(tmp_path, {"version": 1, "state_dir": str(tmp_path / "state"), "agents": agents})
    with pytest.raises(ConfigError) as error:
        load_deployment(config, {})
    overlaps = [p for p in error.value.problems if "overlaps" in p]
    assert [p.split(":")[0] for p in overlaps] == ["agents.bob.home", "agents.cy.home", "agents.cy.home"]
    assert "overlaps the home of agent ada" in overlaps[0] and "overlaps the home of agent bob" in overlaps[2]

from __future__ import annotations

from datetime import date
from pathlib import Path

from daemon.config.models import AgentConfig
from daemon.kernel.settings import AgentSettings, WorkspaceRoles
from daemon.kernel.view import AgentView
from workspace.roles import read_daily_logs, read_workspace, role_files


def _agent(home: Path, roles: WorkspaceRoles | None = None) -> AgentSettings:
    config = AgentConfig(home=str(home), workspace=roles or WorkspaceRoles())
    return AgentSettings(
        name="ada",
        home=home,
        enabled=True,
        autonomy="autonomous",
        cadence="balanced",
        deep_cap=12,
        instruction_hold=True,
        budget_usd=1.0,
        passes={},
        transcripts=config.transcripts,
        skills=config.skills,
        managed_skill_dirs=(),
        pack_skill_dirs=(),
        workspace=config.workspace,
        memory=config.memory,
    )


def test_default_roles() -> None:
    assert role_files(_agent(Path("/x"))) == [
        ("IDENTITY.md", "identity"),
        ("SOUL.md", "behaviour"),
        ("AGENTS.md", "instructions"),
        ("TOOLS.md", "instructions"),
        ("USER.md", "long_memory"),
        ("MEMORY.md", "long_memory"),
    ]


def test_configured_roles_are_used(tmp_path: Path) -> None:
    (tmp_path / "PROMPT.md").write_text("- Be kind.\n")
    roles = WorkspaceRoles(
        identity=[], behaviour=[], instructions=["PROMPT.md"], long_memory=[], daily_logs="logs"
    )
    workspace = read_workspace(_agent(tmp_path, roles), AgentView(tmp_path))
    assert [(f.path, f.role) for f in workspace.files] == [("PROMPT.md", "instructions")]


def test_missing_files_are_fine_unreadable_ones_are_reported(tmp_path: Path) -> None:
    (tmp_path / "SOUL.md").write_text("- Calm.\n")
    (tmp_path / "AGENTS.md").mkdir()
    (tmp_path / "TOOLS.md").write_bytes(b"- caf\xe9\n")
    (tmp_path / "USER.md").symlink_to("/etc/hostname")
    workspace = read_workspace(_agent(tmp_path), AgentView(tmp_path))
    assert workspace.texts() == {"SOUL.md": "- Calm.\n"}
    assert {f.path for f in workspace.files} == {"IDENTITY.md", "SOUL.md", "MEMORY.md"}
    problems = "\n".join(workspace.problems)
    assert "AGENTS.md: not a regular file" in problems
    assert "TOOLS.md: not UTF-8" in problems
    assert "USER.md" in problems and "symlink" in problems


def test_daily_logs_in_window(tmp_path: Path) -> None:
    (tmp_path / "memory").mkdir()
    for day in (1, 20, 29, 30):
        (tmp_path / "memory" / f"2026-11-{day:02d}.md").write_text(f"- day {day}\n")
    logs = read_daily_logs(_agent(tmp_path), AgentView(tmp_path), date(2026, 11, 30))
    assert [f.path for f in logs.files] == ["memory/2026-11-20.md", "memory/2026-11-29.md"]


def test_bad_window_settings_are_config_errors_naming_the_key(tmp_path: Path) -> None:
    import pytest
    import yaml

    from daemon.config import load_deployment
    from daemon.kernel.errors import ConfigError

    (tmp_path / "ada").mkdir()
    config = tmp_path / "config.yaml"
    agent = {"home": "ada", "workspace": {"daily_log_days": 0, "daily_log_anchor": "yesterday"}}
    config.write_text(yaml.safe_dump({"version": 1, "state_dir": "state", "agents": {"ada": agent}}))
    with pytest.raises(ConfigError) as caught:
        load_deployment(config, {})
    message = str(caught.value)
    assert "daily_log_days" in message and "daily_log_anchor" in message

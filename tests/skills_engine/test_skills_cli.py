from __future__ import annotations

from pathlib import Path

import pytest

from daemon.doors.cli import main
from tests.skills_engine.builders import fork_on_disk, make_skill, skills_config
from tests.support.deploy import run_cli


def test_every_skills_command_has_help_text(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["skills", "--help"], ["skills", "list", "--help"], ["skills", "check", "--help"]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv, env={})
        assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "shadows" in out and "preservation guard" in out


def test_list_json_follows_the_contract(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "triage")
    make_skill(root / "managed", "web-research")
    fork_on_disk(config, "triage")
    result = run_cli(config, "skills", "list", "--agent", "ada", "--json")
    assert result.code == 0 and result.err == ""
    rows = result.json()
    # a fork, a pack's and a managed skill: never curated (`kept`), each saying why
    assert [(r.pop("state"), "never archived" in r.pop("why")) for r in rows] == [("kept", True)] * len(rows)
    assert rows == [
        {
            "name": "triage",
            "source": "learned",
            "path": str(root / "ada/skills/triage"),
            "machine_written": True,
            "status": "active",
            "shadows": str(root / "packs/triage"),
            "uses": 0,
            "last_use": None,
            "sessions_since_last_use": None,
        },
        {
            "name": "triage",
            "source": "pack",
            "path": str(root / "packs/triage"),
            "machine_written": False,
            "status": "shadowed",
            "shadows": None,
            "uses": 0,
            "last_use": None,
            "sessions_since_last_use": None,
        },
        {
            "name": "web-research",
            "source": "managed",
            "path": str(root / "managed/web-research"),
            "machine_written": False,
            "status": "active",
            "shadows": None,
            "uses": 0,
            "last_use": None,
            "sessions_since_last_use": None,
        },
    ]


def test_list_shows_drift_and_what_shadows_what(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "triage")
    fork_on_disk(config, "triage")
    (root / "packs/triage/SKILL.md").write_text(
        (root / "packs/triage/SKILL.md").read_text() + "\nupstream note\n"
    )
    result = run_cli(config, "skills", "list", "--agent", "ada")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].split() == ["NAME", "SOURCE", "STATUS", "STATE", "WRITTEN", "BY", "USES", "LAST", "USE", "PATH"]
    assert lines[1].split()[:5] == ["triage", "learned", "drifted", "kept", "daemon"]
    assert lines[2].split()[:5] == ["triage", "pack", "shadowed", "kept", "upstream"]
    assert f"triage: {root / 'ada/skills/triage'} shadows {root / 'packs/triage'}" in lines
    assert "triage: drifted, upstream changed SKILL.md" in lines


def test_list_reports_malformed_skills_on_stderr(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "bad", "---\nname: Bad\ndescription: d\n---\n")
    result = run_cli(config, "skills", "list", "--agent", "ada", "--json")
    assert result.code == 0 and result.json() == []
    assert f"warning: {root / 'packs/bad/SKILL.md'}:2: name 'Bad' must be lowercase" in result.err


def test_unknown_agent_is_a_one_line_error(root: Path) -> None:
    config = skills_config(root, None)
    for action in ("list", "check"):
        result = run_cli(config, "skills", action, "--agent", "bob")
        assert result.code == 1 and result.err == "error: unknown agent 'bob' (configured: ada)\n"


def test_check_human_output_names_the_run_to_undo(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "triage", files={"big.md": "x" * 700})
    fork_on_disk(config, "triage")
    (root / "ada/skills/triage/big.md").write_text("x")
    result = run_cli(config, "skills", "check", "--agent", "ada")
    assert result.code == 0
    assert (
        result.out.splitlines()[0]
        == "quarantined triage (text-shrunk: big.md fell from 700 to 1 bytes (below half))"
    )
    assert "undo with: metaeng-daemon --config" in result.out

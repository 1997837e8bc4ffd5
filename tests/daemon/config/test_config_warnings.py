"""`config check` warns about a valid file that will do nothing: transcripts it cannot find, a model key that is not set.

Each warning names the key and its line (or `default`); `--strict` makes warnings errors
(exit 1, as for a problem of the file); `config check` never writes anything.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.deploy import conversation, run_cli, tree_snapshot, write_transcript

MODEL = """\
model:
  base_url: https://api.example.com/v1
  model: deep-test
  api_key_env: TEST_API_KEY
  price_input_per_million: 1.0
  price_output_per_million: 4.0
"""


def write(root: Path, agent: str, *, model: str = MODEL, passes: str = "") -> Path:
    (root / "ada").mkdir(exist_ok=True)
    path = root / "config.yaml"
    path.write_text(
        f"version: 1\nstate_dir: ./state\n{model}{passes}agents:\n  ada:\n{agent}", encoding="utf-8"
    )
    return path


def with_turns(root: Path) -> None:
    write_transcript(root / "ada", "s1.jsonl", conversation([("I live in Berlin.", "Noted.")]))


def test_a_transcript_root_that_does_not_exist_warns_with_key_and_line(root: Path) -> None:
    config = write(root, "    home: ./ada\n    transcripts:\n      root: ./sessions\n")
    before = tree_snapshot(root)
    result = run_cli(config, "config", "check")
    assert result.code == 0, result.err
    assert (
        f"warning: agents.ada.transcripts.root: {root / 'sessions'} does not exist (config.yaml:13); "
        "the agent reads no transcripts"
    ) in result.err
    body = run_cli(config, "config", "check", "--json").json()
    assert body["ok"] is True and body["problems"] == []
    assert [w.split(":")[0] for w in body["warnings"]] == ["agents.ada.transcripts.root"]
    assert tree_snapshot(root) == before  # a check writes nothing, not even the state folder
    (root / "sessions").write_text("a file, not a folder", encoding="utf-8")
    assert "sessions is not a folder (config.yaml:13)" in run_cli(config, "config", "check").err


def test_a_glob_that_matches_no_file_warns_until_a_transcript_appears(root: Path) -> None:
    config = write(root, "    home: ./ada\n")
    result = run_cli(config, "config", "check")
    assert result.code == 0
    assert (
        f"warning: agents.ada.transcripts.glob: transcripts/**/*.jsonl matches no file under {root / 'ada'} "
        "(default); the agent reads no transcripts until one appears"
    ) in result.err
    with_turns(root)
    assert run_cli(config, "config", "check", "--json").json()["warnings"] == []
    explicit = write(root, "    home: ./ada\n    transcripts:\n      glob: logs/*.jsonl\n")
    assert (
        f"agents.ada.transcripts.glob: logs/*.jsonl matches no file under {root / 'ada'} (config.yaml:13)"
    ) in run_cli(explicit, "config", "check").err


def test_a_model_pass_on_without_its_api_key_warns_naming_the_variable_and_the_passes(root: Path) -> None:
    config = write(root, "    home: ./ada\n    passes:\n      skill_learning: false\n")
    with_turns(root)
    result = run_cli(config, "config", "check", env={"TEST_API_KEY": ""})
    assert result.code == 0
    assert (
        "warning: model.api_key_env: environment variable TEST_API_KEY is not set (config.yaml:6); these model "
        "passes will be skipped on every run (agent ada: distillation, library_maintenance, "
        "workspace_consolidation, instruction_review)"
    ) in result.err
    under_systemd = run_cli(
        config, "config", "check", env={"TEST_API_KEY": "", "CREDENTIALS_DIRECTORY": str(root)}
    )
    assert f"TEST_API_KEY is not set and {root / 'test_api_key'} holds no key" in under_systemd.err
    assert run_cli(config, "config", "check", "--json").json()["warnings"] == []  # the key is set


def test_no_key_warning_when_no_model_pass_is_on_or_no_key_is_needed(root: Path) -> None:
    with_turns(root)
    off = "passes:\n" + "".join(
        f"  {name}: false\n"
        for name in (
            "distillation",
            "skill_learning",
            "library_maintenance",
            "workspace_consolidation",
            "instruction_review",
        )
    )
    config = write(root, "    home: ./ada\n", passes=off)
    assert run_cli(config, "config", "check", "--json", env={"TEST_API_KEY": ""}).json()["warnings"] == []
    keyless = write(root, "    home: ./ada\n", model=MODEL.replace("TEST_API_KEY", "null"))
    assert run_cli(keyless, "config", "check", "--json", env={"TEST_API_KEY": ""}).json()["warnings"] == []
    switched_off = write(root, "    home: ./ada\n    enabled: false\n    transcripts:\n      root: ./gone\n")
    assert (
        run_cli(switched_off, "config", "check", "--json", env={"TEST_API_KEY": ""}).json()["warnings"] == []
    )


def test_strict_makes_warnings_errors_and_changes_nothing(root: Path) -> None:
    config = write(root, "    home: ./ada\n    transcripts:\n      root: ./sessions\n")
    before = tree_snapshot(root)
    strict = run_cli(config, "config", "check", "--strict", env={"TEST_API_KEY": ""})
    assert strict.code == 1 and strict.out == ""
    assert "error (--strict): agents.ada.transcripts.root:" in strict.err
    assert "error (--strict): model.api_key_env: environment variable TEST_API_KEY is not set" in strict.err
    assert f"error: {config}: 2 warning(s), and --strict makes warnings errors" in strict.err
    body = run_cli(config, "config", "check", "--strict", "--json", env={"TEST_API_KEY": ""})
    assert body.code == 1
    assert body.json()["ok"] is False and body.json()["strict"] is True and len(body.json()["warnings"]) == 2
    assert tree_snapshot(root) == before
    (root / "sessions").mkdir()
    with_turns(root)
    fixed = write(root, "    home: ./ada\n    transcripts:\n      root: ./ada\n")
    clean = run_cli(fixed, "config", "check", "--strict")
    assert clean.code == 0 and clean.err == "", clean.err


def test_strict_with_a_problem_exits_1_listing_the_problem(root: Path) -> None:
    config = write(root, "    home: ./ada\n    colour: blue\n")
    result = run_cli(config, "config", "check", "--strict")
    assert result.code == 1
    assert "agents.ada.colour: unknown key 'colour' (config.yaml:12)" in result.err

"""Every rule for a name matches the whole name: a line break before or after it is refused.

Python's `$` matches before a final newline, so an agent named "ada\\n" stood beside "ada"
("2 agent(s): ada, ada") with a state folder `agents/ada\\n`. Every rule for a name is a
`daemon.kernel.name_patterns.NamePattern`; this file finds each one in the packages, feeds
it names with line breaks, and refuses each through the door that takes such a name (the
config file, a SKILL.md, a scenario suite, a command-line option), expecting a message that
names the key. A new `NamePattern` without a door here fails `test_every_name_rule_has_a_door`.
A pattern that ends in `$` (outside multi-line mode) must be one known to read lines or text.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from daemon.kernel.name_patterns import NamePattern
from tests.support.deploy import base_config, run_cli, usage_error, write_config

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("daemon", "memory_engine", "skills_engine", "workspace")


def _source_files() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (REPO / package).rglob("*.py"))


def _module(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")


def name_rules() -> dict[str, NamePattern]:
    """Every module-level `NAME = NamePattern(...)` of the packages, as "module.NAME"."""
    found: dict[str, NamePattern] = {}
    for path in _source_files():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id == "NamePattern"
            ):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    assert isinstance(target, ast.Name), f"{path}:{node.lineno}: name the NamePattern"
                    rule = getattr(importlib.import_module(_module(path)), target.id)
                    assert isinstance(rule, NamePattern)
                    found[f"{_module(path)}.{target.id}"] = rule
    return found


RULES = name_rules()


def _broken(name: str) -> list[str]:
    return [f"{name}\n", f"\n{name}", f"{name}\r\n", f"{name}\n{name}"]


@pytest.mark.parametrize("where", sorted(RULES))
def test_a_name_rule_refuses_a_line_break_before_or_after_a_good_name(where: str) -> None:
    rule = RULES[where]
    assert rule.accepts(rule.example)
    for bad in _broken(rule.example):
        assert not rule.accepts(bad), f"{where} accepts {bad!r}"
        assert repr(bad) in rule.refusal(bad) and rule.what in rule.refusal(bad)


# -- each rule through its door ------------------------------------------------------------
# A door takes a name as a person gives it and returns what was said when refusing it.


def _config_check(root: Path, config: dict[str, Any]) -> str:
    result = run_cli(write_config(root, config), "config", "check")
    assert result.code == 1, f"accepted: {result.out}"
    return result.err


def _agent_door(root: Path, bad: str) -> str:
    config = base_config(root, None)
    (root / "other").mkdir()
    config["agents"][bad] = {"home": str(root / "other")}
    return _config_check(root, config)


def _agent_setting(path: tuple[str, ...], value: Callable[[str], object]) -> Callable[[Path, str], str]:
    def door(root: Path, bad: str) -> str:
        config = base_config(root, None)
        section = config["agents"]["ada"]
        for key in path[:-1]:
            section = section.setdefault(key, {})
        section[path[-1]] = value(bad)
        return _config_check(root, config)

    return door


def _env_door(root: Path, bad: str) -> str:
    config = base_config(root, "http://127.0.0.1:9/v1")
    config["model"]["api_key_env"] = bad
    return _config_check(root, config)


def _account_door(root: Path, bad: str) -> str:
    config = write_config(root, base_config(root, None))
    return usage_error(config, "install-service", "--unit-dir", str(root / "units"), f"--user={bad}")


def _scenario_door(root: Path, bad: str) -> str:
    from daemon.lab.scenarios import ScenarioError, parse_suite

    query = {
        "action": "query",
        "at": "2026-01-02",
        "tenant": "t",
        "user": "u",
        "entity": "home",
        "key": "city",
    }
    raw = json.dumps([{"id": bad, "events": [query]}]).encode()
    with pytest.raises(ScenarioError) as refused:
        parse_suite(raw, "suite.json")
    return str(refused.value)


def _skill_door(root: Path, bad: str) -> str:
    from skills_engine.skillfile import SkillParseError, parse

    text = f"---\nname: {json.dumps(bad)}\ndescription: Fill PDF forms.\n---\n\n1. Open the form.\n"
    with pytest.raises(SkillParseError) as refused:
        parse(text, "skills/fill-pdf-forms/SKILL.md")
    return str(refused.value)


# rule → (door, what the refusal must name: the key, the option or the file and line)
DOORS: dict[str, tuple[Callable[[Path, str], str], str]] = {
    "daemon.config.models.AGENT_NAME": (_agent_door, "agents:"),
    "daemon.config.secret_keys.ENV_NAME": (_env_door, "model.api_key_env"),
    "daemon.kernel.settings.OWNER_NAME": (
        _agent_setting(("memory", "owner", "tenant"), str),
        "agents.ada.memory.owner.tenant",
    ),
    "daemon.kernel.settings.MEMORY_KEY": (
        _agent_setting(("memory", "allowed_keys"), lambda bad: ["language", bad]),
        "agents.ada.memory.allowed_keys",
    ),
    "daemon.kernel.settings.RUNTIME_PROFILE": (
        _agent_setting(("transcripts", "profiles"), lambda bad: [bad]),
        "agents.ada.transcripts.profiles",
    ),
    "daemon.doors.service.unit.ACCOUNT_NAME": (_account_door, "argument --user:"),
    "daemon.lab.scenarios.SCENARIO_ID": (_scenario_door, "id:"),
    "skills_engine.skillfile.SKILL_NAME": (_skill_door, "skills/fill-pdf-forms/SKILL.md:2"),
}


def test_every_name_rule_has_a_door() -> None:
    assert sorted(RULES) == sorted(DOORS), "add a door to DOORS for every NamePattern (and only for those)"


@pytest.mark.parametrize("side", ["trailing", "leading"])
@pytest.mark.parametrize("where", sorted(DOORS))
def test_a_door_refuses_a_name_with_a_line_break_naming_the_key(root: Path, where: str, side: str) -> None:
    door, key = DOORS[where]
    rule = RULES[where]
    bad = f"{rule.example}\n" if side == "trailing" else f"\n{rule.example}"
    said = door(root, bad)
    assert key in said, said
    if where != "daemon.config.secret_keys.ENV_NAME":  # a key's place never quotes its value
        assert repr(bad) in said, said


def test_an_agent_name_with_a_trailing_newline_beside_the_same_name_is_refused(root: Path) -> None:
    config = base_config(root, None)
    (root / "other").mkdir()
    config["agents"]["ada\n"] = {"home": str(root / "other")}
    result = run_cli(write_config(root, config), "config", "check")
    assert result.code == 1
    assert "agent name 'ada\\n' must be lowercase letters" in result.err
    assert "ada, ada" not in result.out + result.err
    assert not (root / "state").exists()


# -- patterns that end in `$` --------------------------------------------------------------
# Each reads text or one line of it (split without its line break), where `$` before a final
# newline changes nothing a person would see; none validates a name. A new one is either
# added here with its reason, or (a name) a NamePattern.
READS_LINES_OR_TEXT = {
    "daemon.config.secret_keys": "CREDENTIAL_PARAM: a query parameter's name, to mask more, never to accept one",
    "daemon.run.store_git": "TRAILER: one line of a commit message",
    "daemon.text.markdown_blocks": "HEADING, RULE, BULLET, TABLE_SEPARATOR: one line of a markdown text",
    "daemon.text.meaning": "CLAUSE: a clause break in running text",
    "daemon.text.verbatim": "FLAG: a command-line flag in running text",
    "daemon.text.words": "ORDINAL: one word of a sentence",
    "daemon.transcripts.codex": "_SESSION_ID: the id in a file name the transcript glob matched",
    "skills_engine.skillfile": "HEADING, STEP, TRIGGER_SENTENCE: one line of a SKILL.md",
    "workspace.numbered": "HEADING_MARKS: one line of a workspace file",
}
_CALLS = ("compile", "match", "search", "fullmatch")


def _ends_in_dollar(node: ast.Call) -> str | None:
    """The pattern of a regex call (or `Field(pattern=…)`) that may end at a `$`, else None."""
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    if name == "Field":
        args = [k.value for k in node.keywords if k.arg == "pattern"]
    elif name in _CALLS:
        args = list(node.args[:1])
    else:
        return None
    if not args or not isinstance(args[0], ast.Constant) or not isinstance(args[0].value, str | bytes):
        return None
    pattern = args[0].value if isinstance(args[0].value, str) else args[0].value.decode("latin-1")
    flags = " ".join(ast.unparse(a) for a in node.args[1:]) + " ".join(
        ast.unparse(k.value) for k in node.keywords if k.arg == "flags"
    )
    if re.search(r"\bre\.(M|MULTILINE)\b", flags) or re.match(r"\(\?[a-zA-Z]*m", pattern):
        return None  # multi-line mode: `$` is the end of each line, by design
    return pattern if re.search(r"(?<!\\)\$", pattern) else None


def test_no_pattern_ends_at_a_dollar_unless_it_reads_lines_or_text() -> None:
    found: dict[str, list[str]] = {}
    for path in _source_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (pattern := _ends_in_dollar(node)) is not None:
                found.setdefault(_module(path), []).append(
                    f"{path.relative_to(REPO)}:{node.lineno}: {pattern!r}"
                )
    unknown = [line for module, lines in found.items() if module not in READS_LINES_OR_TEXT for line in lines]
    assert not unknown, (
        "a pattern ends at `$`, which matches before a final newline: validate a name with a NamePattern "
        "(daemon/kernel/name_patterns.py), end with \\Z, or add the module to READS_LINES_OR_TEXT with "
        "why:\n" + "\n".join(unknown)
    )
    stale = sorted(set(READS_LINES_OR_TEXT) - set(found))
    assert not stale, f"no longer holds a pattern ending at `$`: {stale}"

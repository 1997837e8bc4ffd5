from __future__ import annotations

import pytest

from skills_engine.skillfile import SkillParseError, headings_of, parse, render, render_body, steps_of
from tests.skills_engine.builders import skill_md


def test_valid_skill_parses_name_description_trigger_steps_and_headings() -> None:
    text = skill_md("weekly-report", "Build the report. Use when asked on Mondays.", ["Pull data", "Post it"])
    doc = parse(text, "x/SKILL.md", folder_name="weekly-report")
    assert doc.name == "weekly-report"
    assert doc.trigger == "Use when asked on Mondays."
    assert [s.text for s in doc.steps] == ["Pull data", "Post it"]
    assert doc.headings == ["weekly-report", "Steps"]


def test_trigger_comes_from_metadata_first() -> None:
    text = skill_md("a", metadata="metadata:\n  trigger: On Fridays")
    assert parse(text, "SKILL.md").trigger == "On Fridays"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("# no frontmatter\n", 1, "must start with a '---'"),
        ("---\nname: a\n", 1, "never closed"),
        ("---\nname: a\ndescription: [unclosed\n---\n", 3, "invalid YAML"),
        ("---\nname: Bad_Name\ndescription: d\n---\n", 2, "lowercase letters"),
        ("---\nname: other\ndescription: d\n---\n", 2, "does not match its folder"),
        ("---\nname: a\ndescription: |\n  two\n  lines\n---\n", 3, "one line"),
        ("---\nname: a\ndescription: d\nmetadata:\n  n: 3\n---\n", 4, "map of strings"),
        ("---\nname: a\n---\n", 2, "non-empty `description`"),
        ("---\nname: a\ndescription: 12\n---\n", 3, "description is a number, not a string"),
        ("---\nname: a\ndescription: [x]\n---\n", 3, "description is a list, not a string"),
    ],
)
def test_parse_errors_name_the_file_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(SkillParseError) as caught:
        parse(text, "skills/a/SKILL.md", folder_name="a")
    assert caught.value.line == line
    assert str(caught.value).startswith(f"skills/a/SKILL.md:{line}: ")
    assert fragment in str(caught.value)


def test_description_over_1024_characters_is_refused() -> None:
    with pytest.raises(SkillParseError, match="at most 1024"):
        parse(f"---\nname: a\ndescription: {'x' * 1025}\n---\n", "SKILL.md")


def test_unknown_frontmatter_key_is_a_warning_not_an_error() -> None:
    doc = parse("---\nname: a\ndescription: d\nvendor-key: 1\n---\n", "S.md")
    assert doc.warnings == ("S.md:4: unknown frontmatter key 'vendor-key'",)


def test_steps_and_headings_inside_code_fences_are_ignored() -> None:
    body = "## Real\n1. one\n```\n# not a heading\n2. not a step\n```\n2. two\n    continued\n"
    assert headings_of(body) == ["Real"]
    assert [s.text for s in steps_of(body)] == ["one", "two continued"]


def test_render_round_trips_and_keeps_provenance_out_of_frontmatter() -> None:
    text = render(
        "a-b", "Does it: with a colon", {"trigger": "when #ops asks"}, render_body("A b", "t", ["x"], [])
    )
    doc = parse(text, "SKILL.md", folder_name="a-b")
    assert doc.description == "Does it: with a colon"
    assert doc.metadata == {"trigger": "when #ops asks"}
    assert "sha256" not in text


def test_render_refuses_an_invalid_name() -> None:
    with pytest.raises(ValueError):
        render("../x", "d", {}, "body")

"""The `SKILL.md` model: YAML frontmatter (Agent Skills convention) plus numbered steps.

Frontmatter rules (what `parse` checks; `render` only ever writes what passes them):
- `name`: lowercase letters, digits and single hyphens, at most 64 characters, equal to
  the folder name;
- `description`: one line, 1 to 1,024 characters;
- `metadata`: a map of strings to strings (the daemon keeps the trigger there, under
  `trigger`); hashes and provenance never go in the frontmatter — they live in a sidecar;
- `license`, `compatibility`, `allowed-tools` are accepted; any other key is a warning.

A parse error names the file and the line (1-based, counted in the whole file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml

from daemon.kernel.errors import DaemonError
from daemon.kernel.name_patterns import NamePattern

MAX_NAME = 64
SKILL_NAME = NamePattern(
    "skill name",
    re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*"),
    f"lowercase letters, digits and single hyphens, at most {MAX_NAME} characters",
    "fill-pdf-forms",
)
MAX_DESCRIPTION = 1024
KNOWN_KEYS = ("name", "description", "metadata", "license", "compatibility", "allowed-tools")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
STEP = re.compile(r"^ {0,3}(\d{1,4})[.)]\s+(.*\S)\s*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
# libyaml's loader when available: a library pass parses every SKILL.md several times.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TRIGGER_SENTENCE = re.compile(r"\b(Use (?:when|after|before|for|if|whenever)\b.*)$", re.IGNORECASE)


class SkillParseError(DaemonError):
    def __init__(self, file: str, line: int, detail: str) -> None:
        self.file = file
        self.line = line
        self.detail = detail
        super().__init__(f"{file}:{line}: {detail}")


@dataclass(frozen=True)
class Step:
    number: int
    text: str
    line: int  # 1-based line in the file


@dataclass(frozen=True)
class SkillDoc:
    name: str
    description: str
    metadata: dict[str, str]
    extra: dict[str, Any]
    body: str
    body_line: int  # 1-based line where the body starts
    warnings: tuple[str, ...] = ()

    @property
    def trigger(self) -> str:
        """When to use the skill: `metadata.trigger`, else the description's "Use when…" sentence."""
        if self.metadata.get("trigger"):
            return self.metadata["trigger"]
        match = TRIGGER_SENTENCE.search(self.description)
        return match.group(1) if match else ""

    @property
    def headings(self) -> list[str]:
        return headings_of(self.body)

    @property
    def steps(self) -> list[Step]:
        return steps_of(self.body, self.body_line)


def valid_name(name: str) -> bool:
    return len(name) <= MAX_NAME and SKILL_NAME.accepts(name)


def _lines_outside_fences(text: str) -> list[tuple[int, str]]:
    """(0-based index, line) of every line not inside a fenced code block."""
    found = []
    fenced = False
    for index, line in enumerate(text.splitlines()):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            found.append((index, line))
    return found


def headings_of(markdown: str) -> list[str]:
    """ATX headings (`#`…`######`) outside code fences, text only, in order."""
    out = []
    for _index, line in _lines_outside_fences(markdown):
        match = HEADING.match(line)
        if match:
            out.append(match.group(2).strip())
    return out


def normalise_heading(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def steps_of(markdown: str, first_line: int = 1) -> list[Step]:
    """Top-level numbered list items outside code fences (continuation lines joined)."""
    steps: list[Step] = []
    lines = markdown.splitlines()
    outside = dict(_lines_outside_fences(markdown))
    for index, line in sorted(outside.items()):
        match = STEP.match(line)
        if not match:
            continue
        text = match.group(2)
        follow = index + 1
        while follow in outside and lines[follow].startswith("    ") and lines[follow].strip():
            if STEP.match(lines[follow]):
                break
            text += " " + lines[follow].strip()
            follow += 1
        steps.append(Step(int(match.group(1)), text, first_line + index))
    return steps


def _key_lines(front: str, first_line: int) -> dict[str, int]:
    lines: dict[str, int] = {}
    for index, line in enumerate(front.splitlines()):
        match = re.match(r"^([A-Za-z0-9_-]+)\s*:", line)
        if match and match.group(1) not in lines:
            lines[match.group(1)] = first_line + index
    return lines


def split_frontmatter(text: str, file: str) -> tuple[str, int, str, int]:
    """(frontmatter text, its first line, body, body first line); raise SkillParseError."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        raise SkillParseError(file, 1, "SKILL.md must start with a '---' line opening the YAML frontmatter")
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r") == "---":
            front = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :])
            return front, 2, body, index + 2
    raise SkillParseError(file, 1, "the YAML frontmatter opened on line 1 is never closed by a '---' line")


@lru_cache(maxsize=8192)
def parse(text: str, file: str, folder_name: str | None = None) -> SkillDoc:
    """Parse a SKILL.md; raise SkillParseError naming `file` and the line at fault (results are cached)."""
    front, front_line, body, body_line = split_frontmatter(text, file)
    try:
        data = yaml.load(front, Loader=YAML_LOADER) if front.strip() else None
    except yaml.YAMLError as exc:
        # The context mark (where the broken construct starts) names the line a person fixes.
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        line = front_line + (mark.line if mark is not None else 0)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise SkillParseError(file, line, f"invalid YAML frontmatter: {problem}") from None
    if not isinstance(data, dict):
        raise SkillParseError(
            file, front_line, "the frontmatter must be a YAML mapping with name and description"
        )
    key_lines = _key_lines(front, front_line)

    def where(key: str) -> int:
        return key_lines.get(key, front_line)

    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise SkillParseError(file, where("name"), "frontmatter needs a `name` (a string)")
    if not valid_name(name):
        raise SkillParseError(
            file,
            where("name"),
            f"name {name!r} must be lowercase letters, digits and single hyphens, at most {MAX_NAME} characters",
        )
    if folder_name is not None and name != folder_name:
        raise SkillParseError(file, where("name"), f"name {name!r} does not match its folder {folder_name!r}")
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        kinds = {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a mapping"}
        kind = kinds.get(type(description), f"a YAML {type(description).__name__}")
        raise SkillParseError(
            file, where("description"), f'description is {kind}, not a string (quote it: description: "…")'
        )
    if not isinstance(description, str) or not description.strip():
        raise SkillParseError(file, where("description"), "frontmatter needs a non-empty `description`")
    if "\n" in description.strip():
        raise SkillParseError(file, where("description"), "description must be one line")
    if len(description) > MAX_DESCRIPTION:
        raise SkillParseError(
            file,
            where("description"),
            f"description has {len(description)} characters (at most {MAX_DESCRIPTION})",
        )
    metadata = data.get("metadata", {})
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
    ):
        raise SkillParseError(file, where("metadata"), "metadata must be a map of strings to strings")
    warnings = tuple(
        f"{file}:{where(str(key))}: unknown frontmatter key {key!r}" for key in data if key not in KNOWN_KEYS
    )
    extra = {k: v for k, v in data.items() if k not in ("name", "description", "metadata")}
    return SkillDoc(name, description.strip(), dict(metadata), extra, body, body_line, warnings)


def render(
    name: str, description: str, metadata: dict[str, str], body: str, extra: dict[str, Any] | None = None
) -> str:
    """A SKILL.md text for these fields; ValueError if they break the frontmatter rules."""
    if not valid_name(name):
        raise ValueError(f"invalid skill name {name!r}")
    description = " ".join(description.split())
    if not description or len(description) > MAX_DESCRIPTION:
        raise ValueError("description must be one line of 1 to 1,024 characters")
    front: dict[str, Any] = {"name": name, "description": description}
    front.update(extra or {})
    if metadata:
        front["metadata"] = {str(k): " ".join(str(v).split()) for k, v in metadata.items()}
    dumped = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1_000_000)
    return f"---\n{dumped}---\n\n{body.strip()}\n"


def render_body(title: str, trigger: str, steps: list[str], sections: list[tuple[str, str]]) -> str:
    """A skill body: title, "When to use", numbered "Steps", then extra sections."""
    parts = [f"# {title.strip()}", ""]
    if trigger.strip():
        parts += ["## When to use", " ".join(trigger.split()), ""]
    parts.append("## Steps")
    parts += [f"{i}. {' '.join(step.split())}" for i, step in enumerate(steps, start=1)]
    for heading, text in sections:
        parts += ["", f"## {' '.join(heading.split())}", text.strip()]
    return "\n".join(parts) + "\n"

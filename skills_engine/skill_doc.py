"""A `SKILL.md` as a reader is shown it (the console's skill page): its description, its
metadata and its body, read leniently — a file that does not parse is shown as written,
with why — and the rule a skill's name follows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from skills_engine.skillfile import SKILL_NAME, SkillParseError, parse


@dataclass(frozen=True)
class ShownDoc:
    description: str
    metadata: Mapping[str, str] = field(default_factory=dict)
    body: str = ""  # the Markdown after the frontmatter (the whole file when it does not parse)
    problem: str | None = None  # why it did not parse, or that there is no SKILL.md


def shown_doc(raw: bytes | None, label: str) -> ShownDoc:
    """The parts of the `SKILL.md` bytes `raw` (None: the skill has none); `label` names it."""
    if raw is None:
        return ShownDoc("", problem="it has no SKILL.md")
    text = raw.decode("utf-8", "replace")
    try:
        doc = parse(text, label)
    except SkillParseError as exc:
        return ShownDoc("", body=text, problem=f"SKILL.md cannot be parsed ({exc}); shown as written")
    return ShownDoc(doc.description, dict(doc.metadata), doc.body)


def name_refusal(name: str) -> str | None:
    """Why `name` cannot be a skill's (a path, `..`, a line break), or None if it can."""
    return None if SKILL_NAME.accepts(name) else SKILL_NAME.refusal(name)

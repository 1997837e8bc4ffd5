"""The section check of a canonical skill: every member's other sections kept, nothing invented (pure).

The step-union check (`step_union`) covers numbered steps; a member's other text — a
"## Notes" a person added, "## Examples", a paragraph among its steps — must survive the
merge too, since the member's folder is deleted:

- a *headed* section (any heading but the title, "When to use" and "Steps") is carried
  by a canonical section with the same heading (case and spacing ignored);
- text without a heading of its own (under the title, or between the steps) is carried by
  any canonical section;
- *carried* means the canonical section lacks nothing of it (`duplicates.missing`: all its
  content words, of any script written with spaces; a section without any — Chinese, Thai
  …, only short words — is never carried by just any text) and says what it said: no
  meaning-carrying token of it dropped (`daemon.text.meaning`);
- *nothing invented*: a canonical section says nothing that no member's `SKILL.md` said.

"When to use" is left out: the canonical version picks the clearest trigger by design.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from daemon.text import meaning_compare
from skills_engine.duplicates import missing
from skills_engine.inventory import SKILL_FILE, Skill
from skills_engine.skillfile import FENCE, HEADING, STEP, normalise_heading, parse

TRIGGER = "when to use"
UNHEADED = ("", TRIGGER, "steps")  # a canonical version need not keep these headings
SHOWN = 80


@dataclass(frozen=True)
class Section:
    heading: str  # as written; "" before the first heading
    own: bool  # a heading a canonical version keeps (not the title, "When to use" or "Steps")
    text: str

    @property
    def key(self) -> str:
        return normalise_heading(self.heading)


def sections_of(body: str) -> list[Section]:
    """The text of a SKILL.md body per heading, numbered steps (and their continuation lines,
    `skillfile.steps_of`) left out; sections left empty are omitted."""
    found: list[Section] = []
    heading, own = "", False
    lines: list[str] = []
    fenced = in_step = False

    def close() -> None:
        text = "\n".join(lines).strip()
        if text:
            found.append(Section(heading, own, text))

    for line in body.splitlines():
        match = None if fenced else HEADING.match(line)
        if match:
            close()
            heading, lines, in_step = match.group(2).strip(), [], False
            own = len(match.group(1)) > 1 and normalise_heading(heading) not in UNHEADED
            continue
        if FENCE.match(line):
            fenced = not fenced
        if not fenced and STEP.match(line):
            in_step = True
            continue
        if in_step and line.startswith("    ") and line.strip():
            continue
        in_step = False
        lines.append(line)
    close()
    return found


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def check_sections(group: Sequence[Skill], canonical_text: str) -> str | None:
    """Why the canonical `SKILL.md` text loses, changes or invents a member's section (None: it does not)."""
    canonical = sections_of(parse(canonical_text, SKILL_FILE).body)
    problems: list[str] = []
    for skill in group:
        for section in sections_of(skill.doc.body):
            if section.key == TRIGGER:
                continue
            label = f"section “{section.heading}”" if section.own else "text"
            where = f"{skill.name} {label}: {_short(section.text)}"
            targets = [
                c.text
                for c in canonical
                if c.key != TRIGGER and (not section.own or (c.own and c.key == section.key))
            ]
            lacks = [missing(section.text, t) for t in targets]
            carriers = [t for t, gone in zip(targets, lacks, strict=True) if not gone]
            if not carriers and section.own and targets:
                gone = min(lacks, key=len)
                problems.append(f"changes {where} (its words {', '.join(f'“{w}”' for w in gone)} are gone)")
                continue
            if not carriers:
                problems.append(f"loses {where}")
                continue
            drops = [meaning_compare.compare([section.text], t).dropped for t in carriers]
            if all(drops):
                problems.append(f"changes {where} ({meaning_compare.Change(dropped=drops[0]).describe()})")
    members = [s.folder.files[SKILL_FILE].decode("utf-8", "replace") for s in group]
    for section in canonical:
        if section.key == TRIGGER:
            continue
        added = meaning_compare.compare(members, section.text).added
        if added:
            shown = meaning_compare.Change(added=added).describe()
            problems.append(f"adds to section “{section.heading}” what no member said: {shown}")
    if not problems:
        return None
    return f"the canonical version {'; '.join(problems[:5])}"

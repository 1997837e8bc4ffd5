"""The step-union check of a canonical skill: every member's step kept, nothing changed or invented (pure).

A canonical version of a group of near-duplicate skills must hold the union of their steps:

- *carried*: a member step is carried by a canonical step holding all its content words
  (`duplicates.words`: words of three letters or more of any script written with spaces,
  the language's function words left out, inflection folded by its stem); a step without any (Chinese, Thai …, only
  short words, only symbols) by one that lacks nothing of it (`duplicates.missing`); a
  member step no canonical step carries is **lost**;
- *said*: a carrying canonical step must say what the member step said — the same
  meaning-carrying tokens (`daemon.text.meaning`: numbers, negations and polarity words, names,
  addresses, paths, dates, environments …). Content words alone would let "Never write
  the email in German" carry "Write the email in German";
- *nothing more*: a canonical step may say nothing the member steps it carries did not say
  together (a step that carries none is compared with every member step), and no
  canonical text may add a secret-looking token absent from every member's `SKILL.md`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from daemon.text import meaning_compare
from daemon.text.language import detect
from skills_engine.duplicates import lacking, missing, words
from skills_engine.inventory import SKILL_FILE, Skill


@dataclass(frozen=True)
class MemberStep:
    skill: str
    number: int
    text: str

    def label(self) -> str:
        return f"{self.skill} step {self.number}: {self.text}"


@dataclass(frozen=True)
class UnionReport:
    lost: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.lost and not self.changed

    def refusal(self) -> str | None:
        """Why the canonical version is refused, in one line (None when it passes)."""
        if self.lost:
            return f"the canonical version lost {len(self.lost)} step(s): {'; '.join(self.lost[:5])}"
        if self.changed:
            return f"the canonical version changes what the steps say: {'; '.join(self.changed[:5])}"
        return None


def member_steps(group: Sequence[Skill]) -> list[MemberStep]:
    return [MemberStep(s.name, step.number, step.text) for s in group for step in s.doc.steps]


def check_union(
    steps: Sequence[MemberStep],
    canonical: Sequence[str],
    *,
    members_text: Sequence[str] = (),
    canonical_text: str = "",
) -> UnionReport:
    """Judge `canonical` (the canonical steps) against the members' `steps`. Secret-looking
    tokens are compared between `members_text` and `canonical_text` (the whole texts; by
    default the steps alone)."""
    lang = detect([*(s.text for s in steps), *canonical])  # one language, so stems compare
    targets = [words(step, lang) for step in canonical]
    carries = [[s for s in steps if words(s.text, lang) and not lacking(words(s.text, lang), target)] for target in targets]
    lost: list[str] = []
    changed: list[str] = []
    for step in steps:
        need = words(step.text, lang)
        if need:
            carriers = [i for i, target in enumerate(targets) if not lacking(need, target)]
        else:
            carriers = [i for i, text in enumerate(canonical) if not missing(step.text, text, lang)]
        if not carriers:
            lost.append(step.label())
            continue
        drops = [meaning_compare.compare([step.text], canonical[i]).dropped for i in carriers]
        if all(drops):
            first = carriers[0]
            change = meaning_compare.Change(dropped=drops[0]).describe()
            changed.append(f"canonical step {first + 1} “{canonical[first]}” {change} of {step.label()}")
    for index, text in enumerate(canonical):
        sources = carries[index] or list(steps)
        added = meaning_compare.compare([s.text for s in sources], text).added
        if added:
            against = ", ".join(f"{s.skill} step {s.number}" for s in sources)
            shown = meaning_compare.Change(added=added).describe()
            changed.append(f"canonical step {index + 1} “{text}” {shown} (against {against})")
    before = members_text or [s.text for s in steps]
    secrets = meaning_compare.compare(before, canonical_text or "\n".join(canonical)).secrets
    if secrets:
        changed.append(f"the canonical version {meaning_compare.Change(secrets=secrets).describe()}")
    return UnionReport(tuple(lost), tuple(dict.fromkeys(changed)))


def check_group(group: Sequence[Skill], canonical_steps: Sequence[str], canonical_text: str) -> UnionReport:
    """`check_union` for real skills: their steps, and their `SKILL.md` texts against every
    text of the canonical version (`canonical_text`) for secrets."""
    texts = [s.folder.files[SKILL_FILE].decode("utf-8", "replace") for s in group]
    return check_union(
        member_steps(group), canonical_steps, members_text=texts, canonical_text=canonical_text
    )

"""Duplicate and near-duplicate learned skills: deterministic candidates and the no-step-lost check.

Only machine-written skills the daemon created or merged take part (forks keep their
original's name and are merged with upstream instead; hand-written skills belong to a
person). A skill that shadows an original is left out too: deleting it would change
what serves.

- Identical: SKILL.md byte-identical once the frontmatter's `name` field and a title heading
  that is just the name are set aside (nothing else: a body line "name: …" stays), and every
  other file byte-identical. Merging them loses nothing; anything else goes to the model.
- Near-duplicate candidates: pairs whose word sets (name, description, trigger, steps:
  `words`, of any script written with spaces) overlap by Jaccard ≥ 0.5; or ≥ 0.2 when
  half the steps of the shorter skill are shared; or ≥ 0.3 when half their name words
  are shared or the names are near-identical. An inverted index over words keeps this far below comparing every
  pair; very common words are ignored. The model confirms each group.
- Whether a canonical version keeps every step (and says what each said) is the
  step-union check, `step_union`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from daemon.text import meaning_compare
from daemon.text.language import Language, detect
from daemon.text.stems import same_stem
from daemon.text.unicode_words import uncased
from daemon.text.words import is_content, tokens
from skills_engine import skill_words
from skills_engine.inventory import SKILL_FILE, Skill
from skills_engine.names import near_identical
from skills_engine.skill_words import spaced_words
from skills_engine.step_key import step_key

JACCARD = 0.5
JACCARD_WITH_STEPS = 0.2
JACCARD_WITH_NAME = 0.3
HALF = 0.5
MAX_GROUP = 5


def _every_word(text: str, lang: Language | None = None) -> set[str]:
    """Every word of `text` outside the scripts written without spaces, as the text layer
    compares them (`daemon.text.words.tokens`: case, inflection, number words folded)."""
    lang = lang if lang is not None else detect([text])
    return set(tokens(" ".join(spaced_words(text)), lang))


def words(text: str, lang: Language | None = None) -> set[str]:
    """The content words of `text` (read as `lang`, or the language it is detected in): its
    words of any script written with spaces — Latin with accents, Cyrillic, Greek, Hebrew,
    Arabic, Devanagari … — through the text layer (`daemon.text.words`: stems, number words),
    of three characters or more (or of a script without case), the language's function words
    left out. Chinese, Japanese, Thai, Lao, Khmer and Myanmar text has none: see `missing`."""
    lang = lang if lang is not None else detect([text])
    return {w for w in _every_word(text, lang) if is_content(w, lang) and (len(w) >= 3 or uncased(w))}


def lacking(need: set[str], have: set[str]) -> list[str]:
    """The words of `need` that no word of `have` is a form of (`stems.same_stem`)."""
    return sorted(w for w in need if w not in have and not any(same_stem(w, h) for h in have))


def missing(text: str, target: str, lang: Language | None = None) -> list[str]:
    """What `target` lacks of `text` (nothing: `target` carries `text`). For a text with content
    words (`words`), those `target` lacks. A text without any — a clause of a script written
    without spaces, only short words ("go up"), only symbols (✅) — is never carried by just
    any target: it needs all its words of any length, nothing of it the meaning check finds
    dropped as a word of a script without case (it keeps every such word), and for symbols
    only, the text itself."""
    lang = lang if lang is not None else detect([text, target])
    need = words(text, lang)
    if need:
        return lacking(need, words(target, lang))
    if not skill_words.words(text):
        shown = " ".join(text.split())
        return [] if shown in " ".join(target.split()) else [shown]
    gone = _every_word(text, lang) - _every_word(target, lang)
    gone |= {t.value for t in meaning_compare.compare([text], target).dropped if t.category == "word"}
    return sorted(gone)


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def token_set(skill: Skill) -> frozenset[str]:
    doc = skill.doc
    text = " ".join(
        [skill.name.replace("-", " "), doc.description, doc.trigger, *(s.text for s in doc.steps)]
    )
    return frozenset(words(text))


def _is_name(title: str, name: str) -> bool:
    """Whether a title heading is just the skill's name ("On-call lookup" for `on-call-lookup`)."""
    return " ".join(re.split(r"[\s_-]+", title.strip().casefold())) == " ".join(name.split("-"))


def without_name(data: bytes, name: str) -> bytes:
    """A SKILL.md's bytes without the frontmatter's `name` field and, if the first line of the
    body is a title heading that is just the name, without that line — nothing else changed
    (a body line "name: …", another heading, a space: all stay)."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].lstrip("\ufeff").rstrip("\r\n") != "---":
        return data
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") == "---"), None)
    if close is None:
        return data
    field = next((i for i in range(1, close) if re.match(r"name\s*:", lines[i])), None)
    body = next((i for i in range(close + 1, len(lines)) if lines[i].strip()), None)
    title = re.match(r"# (.*\S)\s*\Z", lines[body]) if body is not None else None
    drop = {field} | ({body} if title and _is_name(title.group(1), name) else set())
    kept = "".join(line for i, line in enumerate(lines) if i not in drop)
    return kept.encode("utf-8", "surrogateescape")


def identity_key(skill: Skill) -> str:
    """Equal for skills identical up to their name and title: SKILL.md byte for byte without
    the frontmatter's `name` field and a title that is just the name (`without_name`), every
    other file byte for byte."""
    digest = hashlib.sha256(without_name(skill.folder.files[SKILL_FILE], skill.name))
    for rel, data in sorted(skill.folder.files.items()):
        if rel != SKILL_FILE:
            digest.update(b"\0" + rel.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def verdict_key(skill: Skill) -> str:
    """The key a group's remembered verdict is fingerprinted by (`dedupe.group_fingerprint`):
    SKILL.md with every `name:` line and the first title set aside, whitespace collapsed.

    Frozen, not for judging identity (`identity_key` does): the library state remembers the
    groups the model judged distinct by it, so a new key would ask about each of them again."""
    text = skill.folder.files[SKILL_FILE].decode("utf-8", "replace")
    text = re.sub(r"(?m)^name:.*$", "", text)
    text = re.sub(r"(?m)^# .*$", "", text, count=1)
    digest = hashlib.sha256(" ".join(text.split()).encode("utf-8"))
    for rel, data in sorted(skill.folder.files.items()):
        if rel != SKILL_FILE:
            digest.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def eligible(skills: Iterable[Skill]) -> list[Skill]:
    return [
        s
        for s in skills
        if s.source == "learned"
        and s.quarantine is None
        and s.status == "active"
        and s.shadows is None
        and s.provenance is not None
        and s.provenance.machine_written
        and s.provenance.kind in ("created", "merged")
    ]


@dataclass(frozen=True)
class Groups:
    identical: list[list[Skill]]
    near: list[list[Skill]]
    oversized: list[list[Skill]]


def _union_find(pairs: Iterable[tuple[int, int]], size: int) -> list[list[int]]:
    parent = list(range(size))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for i in range(size):
        groups.setdefault(root(i), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def candidate_pairs(skills: Sequence[Skill]) -> set[tuple[int, int]]:
    """Index pairs of near-duplicate candidates (see the module docstring)."""
    tokens = [token_set(s) for s in skills]
    steps = [{step_key(st.text) for st in s.doc.steps} for s in skills]
    names = [set(s.name.split("-")) for s in skills]
    index: dict[str, list[int]] = {}
    for i, toks in enumerate(tokens):
        for tok in toks:
            index.setdefault(tok, []).append(i)
    common = max(25, len(skills) // 20)
    shared: dict[tuple[int, int], int] = {}
    for members in index.values():
        if len(members) > common:
            continue
        for a, b in combinations(members, 2):
            shared[(a, b)] = shared.get((a, b), 0) + 1
    pairs = set()
    for (a, b), count in shared.items():
        union = len(tokens[a] | tokens[b]) or 1
        score = count / union
        if (
            score >= JACCARD
            or (score >= JACCARD_WITH_STEPS and _overlap(steps[a], steps[b]) >= HALF)
            or (
                score >= JACCARD_WITH_NAME
                and (
                    _overlap(names[a], names[b]) >= HALF
                    or near_identical(skills[a].name, [skills[b].name]) is not None
                )
            )
        ):
            pairs.add((a, b))
    return pairs


def find_groups(skills: Sequence[Skill]) -> Groups:
    """Identical groups, then near-duplicate groups among the rest (each sorted by name)."""
    by_key: dict[str, list[Skill]] = {}
    for skill in skills:
        by_key.setdefault(identity_key(skill), []).append(skill)
    identical = [sorted(g, key=lambda s: s.name) for g in by_key.values() if len(g) > 1]
    # One representative per identical group takes part in near-duplicate search.
    rest = [g[0] for g in by_key.values()]
    rest.sort(key=lambda s: s.name)
    near: list[list[Skill]] = []
    oversized: list[list[Skill]] = []
    for group in _union_find(candidate_pairs(rest), len(rest)):
        members = sorted((rest[i] for i in group), key=lambda s: s.name)
        (oversized if len(members) > MAX_GROUP else near).append(members)
    return Groups(
        sorted(identical, key=lambda g: g[0].name), sorted(near, key=lambda g: g[0].name), oversized
    )

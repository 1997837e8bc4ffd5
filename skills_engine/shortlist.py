"""The scout's shortlist: which skills the model sees in full, at any inventory size.

Skills are ranked by BM25 (Robertson–Spärck Jones, k1 = 1.2, b = 0.75) against the words
of the new turns. A skill's document is its name (weight 3), description and trigger
(weight 2 each) and steps (weight 1): a skill whose steps describe what the turns did
ranks high even when its name is generic. Ranking is deterministic — ties go by name —
and needs no index or service: a few milliseconds per thousand skills.

The inventory rows are then laid out within `budget` bytes of request body, best first:
full rows (description, trigger, steps, files) while they take at most FULL_SHARE of the
budget, short rows (description and trigger cut) up to SHORT_SHARE, then names, then one
row counting the skills left out. The budget bounds the request whatever the inventory holds (3,000
skills included); the near-duplicate check before any create still sees every skill.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from daemon.text.language import detect
from daemon.text.words import is_content
from daemon.text.words import tokens as text_tokens
from daemon.transcripts.turn_render import wire_bytes
from skills_engine.inventory import Inventory, Skill

K1 = 1.2
B = 0.75
FIELD_WEIGHTS = {"name": 3, "description": 2, "trigger": 2, "steps": 1}
# Shares of the inventory's budget: full rows up to 55 %, short rows up to 75 %, names the
# rest — so past a few hundred skills the model still sees a few hundred more names.
FULL_SHARE, SHORT_SHARE = 0.55, 0.75
OMITTED_ROW_BYTES = 160
MAX_STEPS, STEP_CHARS, MAX_FILES, SHORT_CHARS = 30, 300, 30, 160



def tokens(text: str) -> list[str]:
    """Words of `text` for ranking, through the text layer (`daemon.text.words`): in any
    script, each as its stem in the text's language (reports, reporting → report), number
    words as digits; function words of the language and words under 3 letters left out."""
    lang = detect([text])
    return [w for w in text_tokens(text, lang) if len(w) >= 3 and is_content(w, lang)]


# A pass ranks the library again after each skill it writes, and fields repeat across skills
# ("Use when asked…"): words of one field text, a pure function of it, are found once. Sized for
# the four fields of a few thousand skills; words interned, so a library's stems are held once.
@lru_cache(maxsize=16_384)
def _field_tokens(text: str) -> tuple[str, ...]:
    return tuple(sys.intern(w) for w in tokens(text))


def forget() -> None:
    """Drop the memoised field words (a pass is over): held between runs, every edited version
    of a skill would stay until the memo fills."""
    _field_tokens.cache_clear()


def _document(skill: Skill) -> Counter[str]:
    doc = skill.doc
    fields = {
        "name": skill.name.replace("-", " "),
        "description": doc.description,
        "trigger": doc.trigger,
        "steps": " ".join(step.text for step in doc.steps[:MAX_STEPS]),
    }
    terms: Counter[str] = Counter()
    for field_name, text in fields.items():
        for word in _field_tokens(text):
            terms[word] += FIELD_WEIGHTS[field_name]
    return terms


def rank(skills: Sequence[Skill], query: Iterable[str]) -> list[tuple[Skill, float]]:
    """`skills` with their BM25 score against the query words, best first, ties by name."""
    wanted = Counter(query)
    docs = [_document(s) for s in skills]
    count = len(docs)
    if not count:
        return []
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / count or 1.0
    frequency: Counter[str] = Counter()
    for d in docs:
        frequency.update(t for t in d if t in wanted)
    idf = {t: math.log(1 + (count - n + 0.5) / (n + 0.5)) for t, n in frequency.items()}
    # A word the turns repeat matters more, but with diminishing returns.
    weight = {t: 1 + math.log(n) for t, n in wanted.items()}
    scored = []
    for skill, d, length in zip(skills, docs, lengths, strict=True):
        norm = K1 * (1 - B + B * length / average)
        score = sum(
            idf[t] * weight[t] * d[t] * (K1 + 1) / (d[t] + norm) for t in d.keys() & idf.keys()
        )
        scored.append((skill, score))
    scored.sort(key=lambda pair: (-pair[1], pair[0].name, pair[0].source))
    return scored


def full_row(skill: Skill) -> dict[str, Any]:
    return {
        **short_row(skill, None),
        "steps": [step.text[:STEP_CHARS] for step in skill.doc.steps[:MAX_STEPS]],
        "files": sorted(skill.folder.files)[:MAX_FILES],
    }


def short_row(skill: Skill, cut: int | None = SHORT_CHARS) -> dict[str, Any]:
    return {
        "name": skill.name,
        "source": skill.source,
        "status": skill.status,
        "description": skill.doc.description[:cut] if cut else skill.doc.description,
        "trigger": skill.doc.trigger[:cut] if cut else skill.doc.trigger,
    }


def name_row(skill: Skill) -> dict[str, Any]:
    return {"name": skill.name, "source": skill.source}


def inventory_rows(inventory: Inventory, budget: int, query: Sequence[str]) -> list[dict[str, Any]]:
    """The inventory as the scout shows it, within `budget` bytes of request body (see module doc)."""
    skills = [s for s in inventory.skills if s.status != "quarantined"]
    ranked = [skill for skill, _score in rank(skills, query)]
    rows: list[dict[str, Any]] = []
    used = 0
    shapes = ((full_row, int(budget * FULL_SHARE)), (short_row, int(budget * SHORT_SHARE)), (name_row, budget))
    index = 0
    for shape, limit in shapes:
        while index < len(ranked):
            row = shape(ranked[index])
            cost = wire_bytes(row) + 2
            if used + cost > limit - OMITTED_ROW_BYTES:
                break
            rows.append(row)
            used += cost
            index += 1
    if index < len(ranked):
        rows.append({"omitted": len(ranked) - index, "note": "more skills exist; they are less related to these turns"})
    return rows

"""The deterministic loss check of a workspace rewrite (pure: texts in, verdict out).

Rule (SPEC §4.4): every unique unit of the old text — each sentence of a bullet or
paragraph, each table row, each code block — must still be in the new text, either

- exactly or normalised (see `workspace.units.normalise`; code spans, links and URLs
  inside a sentence count byte for byte), or
- as a *declared merge*: the rewriter names the old unit and the unit that now carries
  it, and the check verifies that the kept unit is really in the new text, carries every
  critical token of the old one (numbers, #channels, @mentions, paths, code spans, links)
  verbatim, and is similar enough (`MERGE_MIN_SIMILARITY`, see `units.similarity`).

Code blocks are never merged: they are kept byte for byte or lost. A unit of the new
text that is neither in the old text nor the kept side of an accepted merge is *added*:
a consolidation reorganises, it does not invent. Any lost or added unit rejects the whole
rewrite; the caller writes nothing. Units are compared across the whole set of files, so
moving a sentence to the file it belongs in is not a loss.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workspace.units import Unit, critical_tokens, negated, similarity, units_of

MERGE_MIN_SIMILARITY = 0.5


@dataclass(frozen=True)
class DeclaredMerge:
    """The rewriter's claim: these old units now live in `kept`."""

    kept: str
    merged: tuple[str, ...]


@dataclass(frozen=True)
class Finding:
    """A lost (or added) unit, where it was, and why it counts as lost."""

    file: str
    line: int
    kind: str
    text: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "kind": self.kind,
            "text": self.text,
            "reason": self.reason,
        }

    def label(self) -> str:
        return f"{self.file}:{self.line} {self.kind} “{self.text}”: {self.reason}"


@dataclass(frozen=True)
class AcceptedMerge:
    merged: str
    kept: str
    similarity: float


@dataclass(frozen=True)
class LossReport:
    units_before: int
    units_after: int
    lost: tuple[Finding, ...]
    added: tuple[Finding, ...]
    merges: tuple[AcceptedMerge, ...]

    @property
    def ok(self) -> bool:
        return not self.lost and not self.added


def unique_units(files: Mapping[str, str]) -> list[Unit]:
    """Units of all files, first occurrence of each key only, in file order."""
    seen: set[str] = set()
    found: list[Unit] = []
    for path in files:
        for unit in units_of(path, files[path]):
            if unit.key not in seen:
                seen.add(unit.key)
                found.append(unit)
    return found


def _keys(text: str) -> list[str]:
    return [u.key for u in units_of("", text)]


def _judge(unit: Unit, kept: str, new_keys: set[str]) -> tuple[float, str | None]:
    """Similarity of a declared merge, and the reason it is refused (None = accepted)."""
    kept_keys = _keys(kept)
    if not kept_keys or any(k not in new_keys for k in kept_keys):
        return 0.0, f"declared merged into “{kept}”, which is not in the new text"
    missing = sorted(critical_tokens(unit.text) - critical_tokens(kept))
    if missing:
        return 0.0, f"declared merged into “{kept}”, which lacks {', '.join(missing)}"
    if negated(unit.text) and not negated(kept):
        return 0.0, f"declared merged into “{kept}”, which drops its negation"
    score = similarity(unit.text, kept)
    if score < MERGE_MIN_SIMILARITY:
        return score, (
            f"declared merged into “{kept}”, but they are not similar enough "
            f"({score:.2f} < {MERGE_MIN_SIMILARITY})"
        )
    return score, None


def check(old: Mapping[str, str], new: Mapping[str, str], merges: Sequence[DeclaredMerge] = ()) -> LossReport:
    """Compare the old and new texts of a set of files (path → text)."""
    old_units = unique_units(old)
    new_units = unique_units(new)
    new_keys = {u.key for u in new_units}
    old_by_key = {u.key: u for u in old_units}
    accepted: dict[str, AcceptedMerge] = {}
    refused: dict[str, str] = {}
    kept_keys: set[str] = set()
    for merge in merges:
        for text in merge.merged:
            for key in _keys(text):
                unit = old_by_key.get(key)
                if unit is None or unit.kind == "code":
                    continue
                score, refusal = _judge(unit, merge.kept, new_keys)
                if refusal:
                    refused.setdefault(key, refusal)
                    continue
                kept_keys.update(_keys(merge.kept))
                if key not in accepted or score > accepted[key].similarity:
                    accepted[key] = AcceptedMerge(unit.text, merge.kept, round(score, 2))
    lost: list[Finding] = []
    merged: list[AcceptedMerge] = []
    for unit in old_units:
        if unit.key in new_keys:
            continue
        if unit.kind == "code":
            lost.append(
                _finding(unit, "code blocks are kept byte for byte; no identical block in the new text")
            )
        elif unit.key in accepted:
            merged.append(accepted[unit.key])
        else:
            reason = refused.get(
                unit.key, "not in the new text, exactly or normalised, and not declared merged"
            )
            lost.append(_finding(unit, reason))
    old_keys = set(old_by_key)
    added = [
        _finding(u, "not in the old text and not the kept side of an accepted merge")
        for u in new_units
        if u.key not in old_keys and u.key not in kept_keys
    ]
    return LossReport(len(old_units), len(new_units), tuple(lost), tuple(added), tuple(merged))


def _finding(unit: Unit, reason: str) -> Finding:
    text = unit.text if len(unit.text) <= 300 else unit.text[:297] + "…"
    return Finding(unit.file, unit.line, unit.kind, text, reason)


def findings_as_dicts(findings: Iterable[Finding]) -> list[dict[str, Any]]:
    return [f.as_dict() for f in findings]

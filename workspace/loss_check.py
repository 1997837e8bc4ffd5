"""The deterministic loss check of a workspace rewrite (pure: texts in, verdict out).

Rule (docs/explanation/workspace.md): every unique unit of the old text — each sentence of a bullet or
paragraph, each table row, each code block — must still be in the new text, either

- exactly or normalised (see `workspace.units.normalise`; code spans, links and URLs
  inside a sentence count byte for byte), or
- as a *declared merge*: the rewriter names the old unit and the unit that now carries
  it, and the check verifies that the kept unit is really in the new text, is similar
  enough (`MERGE_MIN_SIMILARITY`, see `units.similarity`), and says what the old one said:
  every meaning-carrying token of it (`daemon.text.meaning`: numbers, negations and polarity
  words, names, e-mail addresses, URLs, paths, code spans, dates, environments, hosts,
  #channels and @handles) is in the kept unit. The kept unit, in turn, may say nothing
  that the union of the units merged into it (and the old unit it was, if any) did not
  say, and may add no secret-looking token; otherwise every merge into it is refused.

Code blocks are never merged: they are kept byte for byte or lost. A unit of the new
text that is neither in the old text nor the kept side of an accepted merge is *added*:
a consolidation reorganises, it does not invent. Any lost or added unit rejects the whole
rewrite; the caller writes nothing. Units are compared across the whole set of files, so
moving a sentence to the file it belongs in is not a loss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from daemon.text import meaning_compare
from workspace.units import Unit, similarity, units_of

MERGE_MIN_SIMILARITY = 0.5
# A pass checks the same texts and declared merges several times (all answers together, each
# alone, the final result), so the pure steps below are memoised on the texts themselves.
FILES_CACHED = 16  # a parsed 500 KB file holds about 4 MB: old and new texts of a pass's files
MERGES_CACHED = 1 << 14


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
        for unit in _file_units(path, files[path]):
            if unit.key not in seen:
                seen.add(unit.key)
                found.append(unit)
    return found


@lru_cache(maxsize=FILES_CACHED)
def _file_units(path: str, text: str) -> tuple[Unit, ...]:
    return tuple(units_of(path, text))


@lru_cache(maxsize=MERGES_CACHED)
def _keys(text: str) -> tuple[str, ...]:
    return tuple(u.key for u in units_of("", text))


def forget() -> None:
    """Drop what the memos hold (a pass is over): no person's text stays in a daemon's memory
    between runs, and a large file's units (some 4 MB for 500 KB) are not held for nothing."""
    for memo in (_file_units, _keys, _verdict, _adds):
        memo.cache_clear()


def _judge(unit: Unit, kept: str, new_keys: set[str]) -> tuple[float, str | None]:
    """Similarity of a declared merge, and the reason it is refused (None = accepted)."""
    kept_keys = _keys(kept)
    if not kept_keys or any(k not in new_keys for k in kept_keys):
        return 0.0, f"declared merged into “{kept}”, which is not in the new text"
    return _verdict(unit.text, kept)


@lru_cache(maxsize=MERGES_CACHED)
def _verdict(merged: str, kept: str) -> tuple[float, str | None]:
    """`_judge` once `kept` is known to be in the new text."""
    score = similarity(merged, kept)
    if score < MERGE_MIN_SIMILARITY:
        return score, (
            f"declared merged into “{kept}”, but they are not similar enough "
            f"({score:.2f} < {MERGE_MIN_SIMILARITY})"
        )
    change = meaning_compare.compare([merged], kept)
    if change.dropped:
        # What took a dropped token's place (same category) is worth naming; other additions
        # may come from the other sentences merged into `kept`.
        swapped = tuple(t for t in change.added if t.category in {d.category for d in change.dropped})
        return 0.0, (
            f"declared merged into “{kept}”, which changes what it says: "
            f"{meaning_compare.Change(change.dropped, swapped).describe()}"
        )
    return score, None


@lru_cache(maxsize=MERGES_CACHED)
def _adds(kept: str, sources: tuple[str, ...]) -> str | None:
    """Why `kept` says more than the union of `sources` (None = it does not)."""
    change = meaning_compare.compare(sources, kept)
    if change.secrets:
        return f"declared merged into a sentence that {meaning_compare.Change(secrets=change.secrets).describe()}"
    if change.added:
        return (
            f"declared merged into “{kept}”, which says more than what it merges: "
            f"{meaning_compare.Change(added=change.added).describe()}"
        )
    return None


def check(old: Mapping[str, str], new: Mapping[str, str], merges: Sequence[DeclaredMerge] = ()) -> LossReport:
    """Compare the old and new texts of a set of files (path → text)."""
    old_units = unique_units(old)
    new_units = unique_units(new)
    new_keys = {u.key for u in new_units}
    old_by_key = {u.key: u for u in old_units}
    refused: dict[str, str] = {}
    # Per kept text: the old units declared merged into it (all, and the accepted ones with
    # their similarity); what they say together is all the kept text may say.
    groups: dict[tuple[str, ...], tuple[str, list[str], dict[str, float]]] = {}
    for merge in merges:
        keys = _keys(merge.kept)
        _kept, declared, scores = groups.setdefault(keys, (merge.kept, list(keys), {}))
        # Whether a merge is accepted counts only for a lost unit, and for the kept side only
        # when it is not in the old text (else it is never added): judging a unit still in the
        # new text merged into old units would change no verdict.
        moot = all(k in old_by_key for k in keys)
        for text in merge.merged:
            for key in _keys(text):
                unit = old_by_key.get(key)
                if unit is None or unit.kind == "code":
                    continue
                declared.append(key)
                if moot and key in new_keys:
                    continue
                score, refusal = _judge(unit, merge.kept, new_keys)
                if refusal:
                    refused.setdefault(key, refusal)
                else:
                    scores[key] = max(score, scores.get(key, 0.0))
    accepted: dict[str, AcceptedMerge] = {}
    kept_keys: set[str] = set()
    for keys, (kept, declared, scores) in groups.items():
        sources = tuple(
            old_by_key[k].text
            for k in dict.fromkeys(declared)
            if k in old_by_key and old_by_key[k].kind != "code"
        )
        too_much = _adds(kept, sources) if scores else None
        for key, score in scores.items():
            if too_much:
                refused.setdefault(key, too_much)
            elif key not in accepted or score > accepted[key].similarity:
                accepted[key] = AcceptedMerge(old_by_key[key].text, kept, round(score, 2))
        if scores and not too_much:
            kept_keys.update(keys)
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


"""Does a merged text say what it merges? The comparisons built on `daemon.text.meaning.read`.

`compare` judges a merge of sources (the workspace loss check, the library's step and
section unions); `compare_three_way` judges a conflict resolution region by region on a
diff3 of lines (`daemon.kernel.line_regions`). Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from daemon.kernel.line_regions import Region, regions, shared_lines
from daemon.text.language import Language, detect
from daemon.text.meaning import CONCORD_NOT, DETECT, INVENTED_ALLOWANCE, NOT, Meaning, Token, read
from daemon.text.stems import same_word
from daemon.text.unicode_words import spaceless

FORGOTTEN_ALLOWANCE = 1  # content words a merge may leave out beyond the new ones it brings


@dataclass(frozen=True)
class Change:
    """What a merged text lost or gained against what it merges; empty when it says the same."""

    dropped: tuple[Token, ...] = ()
    added: tuple[Token, ...] = ()
    secrets: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not (self.dropped or self.added or self.secrets)

    def describe(self) -> str:
        """One phrase, e.g. `drops negation “not”; adds number “4”` (a secret is never quoted whole)."""
        parts = []
        if self.dropped:
            parts.append("drops " + ", ".join(map(str, self.dropped)))
        if self.added:
            parts.append("adds " + ", ".join(map(str, self.added)))
        if self.secrets:
            shown = ", ".join(s if len(s) < 16 else f"{s[:3]}… ({len(s)} characters)" for s in self.secrets)
            parts.append(f"adds a secret-looking token ({shown})")
        return "; ".join(parts)


def _kept(token: Token, words: frozenset[str], lang: Language | None = None) -> bool:
    """A name may change case, place or inflection (Krakowa, Krakowie): kept if a word of the
    other side is a form of it (`stems.same_word`; a name with a digit only as it is)."""
    if token.category != "name":
        return False
    if token.value in words:
        return True
    if lang is None or any(c.isdigit() for c in token.value):
        return False
    return any(same_word(token.value, w, lang.stemmer) for w in words)


def _invented(before: list[Meaning], after: Meaning) -> tuple[Token, ...]:
    """The content words `after` adds that no text of `before` has (by `lemma`), if they are more
    than `INVENTED_ALLOWANCE` beyond the content words of `before` it leaves out: a rewording
    swaps words ("respond" → "answer"), an invention adds them ("… and forward every answer
    to the vendor")."""
    known = {after.lemma(w) for m in before for w in m.words}
    # A capitalised word opening a sentence may be an ordinary word: new, it is content.
    content = after.content | after.initial_names
    new = {after.lemma(w): w for w in sorted(content, reverse=True) if after.lemma(w) not in known}
    kept = {after.lemma(w) for w in after.words}
    left_out = {after.lemma(w) for m in before for w in m.content} - kept
    # In no known language every word is kept (`Meaning.kept`), and none may be added either.
    allowance = INVENTED_ALLOWANCE if after.language is not None else 0
    if len(new) - len(left_out) <= allowance:
        return ()
    return tuple(Token("word", w) for w in sorted(new.values()))


def _forgotten(before: list[Meaning], after: Meaning) -> tuple[Token, ...]:
    """The content words of `before` that `after` leaves out (by `lemma`), if they are more than
    `FORGOTTEN_ALLOWANCE` beyond the new words it brings: a rewording swaps a word or drops
    one ("Use `make test` to run the suite" → "Run the suite with `make test`"), a merge that
    drops "monthly sales" from "the monthly sales report" loses what the note said."""
    known = {after.lemma(w) for m in before for w in m.words}
    content = after.content | after.initial_names
    new = {after.lemma(w) for w in content if after.lemma(w) not in known}
    kept = {after.lemma(w) for w in after.words}
    left_out = {after.lemma(w): w for m in before for w in m.content if after.lemma(w) not in kept}
    if len(left_out) - len(new) <= FORGOTTEN_ALLOWANCE:
        return ()
    return tuple(Token("word", w) for w in sorted(left_out.values()))


def _left_out(before: list[Meaning], after: Meaning) -> tuple[Token, ...]:
    """The must-keep words (`Meaning.kept`: of a script without case, or of a text in no known
    language) that a text of `before` holds and `after` lacks (by `lemma`), adjacent Chinese or
    Japanese ones joined (王伟): nothing there marks a name or a key word, so each is kept like
    a name — rewording such a text is refused."""
    kept = {after.lemma(w) for w in after.words}
    lost: set[str] = set()
    for meaning in before:
        for run in meaning.kept:
            phrase = ""
            for word in (*run, ""):
                # a word of a script without spaces is kept wherever the text holds it: the
                # dictionary may cut 喝茶 as one word on one side and 喝 · 茶 on the other
                if word and after.lemma(word) not in kept and not (spaceless(word[0]) and word in after.text):
                    phrase += word
                elif phrase:
                    lost.add(phrase)
                    phrase = ""
    return tuple(Token("word", w) for w in sorted(lost))


def compare(sources: Iterable[str], merged: str, language: Language | Literal["detect"] | None = DETECT) -> Change:
    """Does `merged` say what the union of `sources` says? Every source token must be in it (as
    many negations as the source with the most), and every content word of a script without
    case (`_left_out`); it may add no token (no more negations than the sources together), no
    secret-looking token, and no more than one content word beyond the ones it leaves out
    (`_invented`)."""
    sources = list(sources)
    lang = detect([*sources, merged]) if isinstance(language, str) else language
    before = [read(s, lang) for s in sources]
    after = read(merged, lang)
    words = frozenset().union(*(m.words for m in before))
    everything = sorted(frozenset().union(*(m.tokens for m in before)) | after.tokens)
    dropped = tuple(
        t
        for t in everything
        if after.count(t) < max((m.count(t) for m in before), default=0) and not _kept(t, after.words, lang)
    ) + _left_out(before, after) + _forgotten(before, after)
    added = tuple(
        t
        for t in everything
        if after.count(t) > sum(m.count(t) for m in before)
        and not _kept(t, words, lang)
        and not (t.category == "name" and t.value in after.initial_names)  # judged as content (`_invented`)
    ) + _invented(before, after)
    secrets = after.secrets - frozenset().union(*(m.secrets for m in before))
    return Change(dropped, added, tuple(sorted(secrets)))


def _region_bounds(
    region: Region, token: Token, read_lines: Callable[[tuple[str, ...]], Meaning]
) -> tuple[int, int]:
    """(at least, at most) how often `token` may appear in the merge of one region."""
    cb, co, ct = (read_lines(lines).count(token) for lines in (region.base, region.ours, region.theirs))
    if region.kind in ("stable", "ours", "same"):
        return co, co
    if region.kind == "theirs":
        return ct, ct
    do, dt = co - cb, ct - cb
    high = max(co, ct, co + ct - cb)
    if do < 0 and dt < 0:
        return cb + min(do, dt), high  # both removed: possibly the same removal
    if do > 0 and dt > 0 and region.rewritten_by_both():
        return cb + max(do, dt), high  # both rewrote one line: possibly the same addition, reworded
    # Independent changes (or one side adding where the other removes): each counts; a line
    # both sides added verbatim counts once.
    ours_added, theirs_added = region.added()
    twice = read_lines(shared_lines(ours_added, theirs_added)).count(token)
    return max(0, cb + do + dt - twice), max(high, cb + do + dt - twice)


def _dropped_words(
    parts: list[Region],
    sides: tuple[Meaning, Meaning, Meaning, Meaning],
    read_lines: Callable[[tuple[str, ...]], Meaning],
) -> tuple[Token, ...]:
    """The content words a side added in a region it changed (absent from that region of the
    base) that `merged` lacks, unless the other side removed them (the base has them, it does
    not): a change that carries no token ("… using the new taxonomy") must stay too."""
    lemma = sides[0].lemma
    base, ours, theirs, merged = ({lemma(w) for w in m.words} for m in sides)
    dropped: dict[str, str] = {}
    for part in parts:
        if part.kind == "stable":
            continue
        before = {lemma(w) for w in read_lines(part.base).words}
        for lines, other in ((part.ours, theirs), (part.theirs, ours)):
            for word in sorted(read_lines(lines).content):
                stem = lemma(word)
                removed = stem in base and stem not in other
                if stem not in before and stem not in merged and not removed:
                    dropped.setdefault(stem, word)
    return tuple(Token("word", w) for w in sorted(dropped.values()))


def compare_three_way(base: str, ours: str, theirs: str, merged: str) -> Change:
    """Does `merged` keep what ours and theirs each changed from `base`? A token a side added
    must stay, one both kept must stay, one a side removed may go; nothing neither side has.

    Judged region by region (`line_regions`), so a change on one side never cancels a
    change on the other: a region only one side changed counts as that side, an identical
    change counts once, and a conflict keeps both sides' additions (and allows both sides'
    removals). Negations are counted (the regions' bounds add up); every other token must
    be present if any region requires it, and may be present if any region allows it. The
    content words a side added must stay as well (`_dropped_words`)."""
    lang = detect([base, ours, theirs, merged])
    b, o, t, r = (read(text, lang) for text in (base, ours, theirs, merged))
    cache: dict[tuple[str, ...], Meaning] = {}

    def read_lines(lines: tuple[str, ...]) -> Meaning:
        if lines not in cache:
            cache[lines] = read("\n".join(lines), lang)
        return cache[lines]

    parts = regions(base.splitlines(), ours.splitlines(), theirs.splitlines())
    words = o.words | t.words
    dropped, added = [], []
    for token in sorted(b.tokens | o.tokens | t.tokens | r.tokens):
        bounds = [_region_bounds(part, token, read_lines) for part in parts]
        low, high = sum(lo for lo, _ in bounds), sum(hi for _, hi in bounds)
        if token not in (NOT, CONCORD_NOT):  # negations are counted
            low, high = min(low, 1), min(high, 1)
        nr = r.count(token)
        if nr < low and not _kept(token, r.words, lang):
            dropped.append(token)
        elif nr > high and not _kept(token, words, lang):
            added.append(token)
    dropped += _dropped_words(parts, (b, o, t, r), read_lines)
    secrets = r.secrets - (b.secrets | o.secrets | t.secrets)
    return Change(tuple(dropped), tuple(added), tuple(sorted(secrets)))

"""Finding a language's phrases in a sentence's words (`daemon.text.keyboard.find`): a list is
looked up by its phrases' first words, and finds what reading it phrase by phrase finds
(phrases written for these tests)."""

from __future__ import annotations

import random

import pytest

from daemon.text.keyboard import find, said_at
from daemon.text.language import known

PHRASES = frozenset({("no",), ("não", "sei"), ("você", "está", "certo"), ("from", "now", "on"), ("now",)})


@pytest.mark.parametrize(
    ("low", "hits"),
    [
        (("no", "from", "now", "on"), [(0, ("no",)), (1, ("from", "now", "on")), (2, ("now",))]),
        # a phrase of several words with its words typed without accents
        (("nao", "sei", "voce", "esta", "certo"), [(0, ("não", "sei")), (2, ("você", "está", "certo"))]),
        # a single word is read as written: "nao" alone is not "não"
        (("nao",), []),
        # a phrase longer than what is left of the sentence
        (("from", "now"), [(1, ("now",))]),
        ((), []),
    ],
)
def test_a_list_is_found_by_position(low: tuple[str, ...], hits: list[tuple[int, tuple[str, ...]]]) -> None:
    assert find(low, PHRASES) == hits
    assert find(low, list(PHRASES)) == hits  # phrases given one by one, the same hits


def test_the_lookup_finds_what_each_phrase_read_at_each_position_finds() -> None:
    lists = [ps for lang in known().values() for ps in (*lang.impact.values(), *lang.claim.values()) if ps]
    rng = random.Random(7)
    for _ in range(3000):
        phrases = rng.choice(lists)
        pool = [w for p in rng.sample(sorted(phrases), min(3, len(phrases))) for w in p] + ["x", "nao", "ja"]
        low = tuple(rng.choice(pool) for _ in range(rng.randint(0, 10)))
        expected = sorted((i, p) for p in phrases if p for i in range(len(low)) if said_at(low, i, p))
        assert sorted(find(low, phrases)) == expected

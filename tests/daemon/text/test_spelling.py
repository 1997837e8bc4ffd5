"""`daemon.text.spelling.distance`: edits between two spellings, a swap of neighbours one."""

from __future__ import annotations

import random

import pytest

from daemon.text.spelling import distance


def _reference(a: str, b: str) -> int:
    """The optimal string alignment distance, the whole table kept."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


@pytest.mark.parametrize(
    ("a", "b", "edits"),
    [("model", "modle", 1), ("costos_envios", "costos_envio", 1), ("orders", "users", 3), ("", "abc", 3), ("ab", "ab", 0)],
)
def test_edits_count_a_swap_of_neighbours_as_one(a: str, b: str, edits: int) -> None:
    assert distance(a, b) == edits == distance(b, a)


def test_a_bound_stops_the_count_and_says_one_more_than_it() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        a = "".join(rng.choice("abc") for _ in range(rng.randint(0, 8)))
        b = "".join(rng.choice("abc") for _ in range(rng.randint(0, 8)))
        full = _reference(a, b)
        assert distance(a, b) == full
        for most in range(4):
            assert distance(a, b, most) == min(full, most + 1)


def test_two_long_unlike_strings_are_told_apart_at_once_with_a_bound() -> None:
    assert distance("a" * 50_000, "b" * 50_000, 2) == 3

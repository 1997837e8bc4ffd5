from __future__ import annotations

from daemon.kernel.line_regions import regions


def _kinds(base: str, ours: str, theirs: str) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    return [(r.kind, r.ours, r.theirs) for r in regions(base.split(), ours.split(), theirs.split())]


def test_each_region_is_classified_by_who_changed_it() -> None:
    base = "a b c d e f g"
    ours = "a B c d e F g"  # b and f
    theirs = "a b c D e F g"  # d and f, f identically
    assert _kinds(base, ours, theirs) == [
        ("stable", ("a",), ("a",)),
        ("ours", ("B",), ("b",)),
        ("stable", ("c",), ("c",)),
        ("theirs", ("d",), ("D",)),
        ("stable", ("e",), ("e",)),
        ("same", ("F",), ("F",)),
        ("stable", ("g",), ("g",)),
    ]


def test_different_changes_of_one_place_are_a_conflict_and_insertions_count() -> None:
    found = regions(["a", "b"], ["a", "x", "b"], ["a", "y", "b", "z"])
    assert [(r.kind, r.base, r.ours, r.theirs) for r in found] == [
        ("stable", ("a",), ("a",), ("a",)),
        ("conflict", (), ("x",), ("y",)),
        ("stable", ("b",), ("b",), ("b",)),
        ("theirs", (), (), ("z",)),
    ]
    assert found[1].added() == (("x",), ("y",)) and not found[1].rewritten_by_both()


def test_regions_partition_every_side() -> None:
    base, ours, theirs = list("abcdefgh"), list("axcdqfgh"), list("abcyyfh")
    found = regions(base, ours, theirs)
    assert [line for r in found for line in r.base] == base
    assert [line for r in found for line in r.ours] == ours
    assert [line for r in found for line in r.theirs] == theirs
    assert regions([], [], []) == []

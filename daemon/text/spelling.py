"""How far apart two spellings are (pure, no I/O): the config's "did you mean" (`modle:` is
`model:`) and impact's names in code set right ("costos_envios" / "costos_envio") read it."""

from __future__ import annotations


def distance(a: str, b: str, most: int | None = None) -> int:
    """Edits from `a` to `b` — a letter added, left out or changed, or two neighbouring letters
    swapped, each one edit (the optimal string alignment distance): "modle" is one from
    "model". With `most`, it stops once the distance is sure to be more, and says `most + 1`
    (two long strings unlike each other cost a few rows, not their lengths multiplied)."""
    if most is not None and abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
        # no row's least can fall below the row's before it
        if most is not None and min(row) > most:
            return most + 1
    return row[-1] if most is None else min(row[-1], most + 1)

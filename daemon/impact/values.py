"""How two values compare, whatever their notation (pure, no I/O): names in code by their
parts ("AR-03" is ("ar", "3")), numbers by what they may be worth ("1,000" is 1000 or 1.0),
parts of words by their spelling. `daemon.impact.setright` reads with them whether the person
set a value of the agent's right, or only wrote the agent's own another way ("08:15" / "8:15",
"６０" / "60", "$19.99" / "19.99")."""

from __future__ import annotations

import re
import unicodedata

from daemon.text.spelling import distance

# Letters a word part must have for its spelling to be compared ("usd"; not "it").
SHORTEST = 3
# A chunk of text between spaces, without the punctuation around it.
CHUNK = re.compile(r"(?:[^\s\"'`«»“”‘’()\[\]{}<>,;!?]|(?<=\d),(?=\d))+")
PART = re.compile(r"[^\W_]+")
# A time of day: a new one is as often a booking ("lunch thursday at 12:45") as a correction.
TIME = re.compile(r"\d{1,2}[:h]\d{2}(?::\d{2})?(?:[-–]\d{1,2}[:h]\d{2})?")
OPEN = "\0open"  # the part of a name in code left open in its shapes
ANY_ORDER = "\0any order"  # the first of a shape that holds the parts in any order
# Letters a part of a name in code may differ by and still be the agent's respelled.
NEAR = 2


def near(mine: str, theirs: str) -> bool:
    """Whether a part of a name in code set right is near the agent's: a number, or a word
    spelled nearly alike ("costos_envios" / "costos_envio"). A wholly other word names a
    sibling ("src/api/orders.ts" / "src/api/users.ts"), not a respelling."""
    if mine.isdigit() and theirs.isdigit():
        return True
    return min(len(mine), len(theirs)) >= SHORTEST and distance(mine, theirs, NEAR) <= NEAR


def shapes(parts: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """What a name in code is matched by, each with the part it leaves open: its parts in any
    order ("stripe/webhook" and "webhooks/stripe"), and, of several parts, the parts with one
    left open ("ar-03" and "ar-01")."""
    found = [((ANY_ORDER, *sorted(map(_singular, parts))), "")]
    if len(parts) >= 2:
        found += [((*parts[:k], OPEN, *parts[k + 1 :]), parts[k]) for k in range(len(parts))]
    return found


def same(mine: str, theirs: str) -> bool:
    """Whether two numbers are one value in two notations ("05" / "5", "1,000" / "1000",
    "６０" / "60")."""
    return not _values(mine).isdisjoint(_values(theirs))


def same_or_next(mine: str, theirs: str) -> bool:
    """Whether two parts of names in code are one value, or the person's is the next after
    the agent's: "1.2.4" after "1.2.3" is the next release, not the agent's set right."""
    a, b = _values(mine), _values(theirs)
    return bool(a & b) or any(x == y + 1 for x in a for y in b if x.is_integer() and y.is_integer())


def _values(number: str) -> frozenset[float]:
    """What a number written with "." or "," may be worth: either may part thousands or
    decimals ("1,000" is 1000 or 1.0)."""
    plain = "".join(str(unicodedata.digit(c)) if c.isdigit() else c for c in number)
    found = set()
    for decimal, thousands in ((".", ","), (",", ".")):
        try:
            found.add(float(plain.replace(thousands, "").replace(decimal, ".")))
        except ValueError:
            continue
    return frozenset(found)


def chunks(text: str) -> list[str]:
    return [c for c in (edged(m.group()) for m in CHUNK.finditer(text)) if c]


def edged(chunk: str) -> str:
    """A chunk without what may stand before or after a name in code ("./src/", "$19.99")."""
    return chunk.strip(".:/=$€£¥…")


def parts(chunk: str) -> tuple[str, ...]:
    """The parts of a name in code or a number: its letters and digits, digits of any script
    as ASCII without leading zeros ("08" is "8", "６０" is "60")."""
    return tuple(_part(p) for p in PART.findall(unicodedata.normalize("NFKC", chunk).casefold()))


def _part(part: str) -> str:
    if not part.isdigit():
        return part
    return "".join(str(unicodedata.digit(c)) for c in part).lstrip("0") or "0"


def coded(chunk: str) -> bool:
    """Whether a chunk is a name in code or a number: it holds a digit, an underscore, a slash
    or a dot between two parts ("AR-03", "resa_dev", "route.ts"); "follow-up" is none."""
    return any(c.isdigit() or c in "_/." for c in chunk)


def _singular(part: str) -> str:
    return part[:-1] if len(part) > SHORTEST and part.endswith("s") else part


def numeric(word: str) -> bool:
    return bool(word) and word[0].isdigit() and all(c.isdigit() or c in ".,:" for c in word)


def times(text: str) -> frozenset[int]:
    """Where the numbers of a time of day start ("12" and "45" of "12:45"), read once per sentence."""
    return frozenset(
        m.start() + n.start()
        for m in CHUNK.finditer(text)
        if TIME.fullmatch(edged(m.group()))
        for n in re.finditer(r"\d+", m.group())
    )

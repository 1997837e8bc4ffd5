"""Secret-looking tokens in a text (pure): what a merge of text must never add.

A merge that says "log in as admin with password hunter2" where none of the merged texts
had a password invents a credential (or leaks one from elsewhere). These are recognised:
the words password, passwd, passphrase, secret, api key, access key, private key, token,
credential; the shapes of common keys (`sk-…`, `ghp_…` and the other GitHub prefixes,
`github_pat_…`, `AKIA…`, `xox?-…`, `glpat-…`, a PEM private-key header); and a long
random-looking string (20+ characters of letters and digits in mixed case with high
entropy, or 32+ hexadecimal characters). The caller compares before and after: only a
token absent from every source counts.
"""

from __future__ import annotations

import math
import re

SECRET_WORD = re.compile(
    r"\b(pass(?:word|wd|phrase)|secret|api[ _-]?key|access[ _-]?key|private[ _-]?key|token|credential)s?\b",
    re.IGNORECASE,
)
SECRET_SHAPE = re.compile(
    r"\bsk-[\w-]{8,}|\bgh[pousr]_[A-Za-z0-9]{16,}|\bgithub_pat_\w{20,}|\bAKIA[0-9A-Z]{16}\b"
    r"|\bxox[abposr]-[\w-]{10,}|\bglpat-[\w-]{16,}|-----BEGIN [A-Z ]*PRIVATE KEY-----"
)
RANDOM_RUN = re.compile(r"(?<![\w/.-])[A-Za-z0-9+/_=-]{20,}(?![\w/.-])")


def secret_tokens(text: str) -> frozenset[str]:
    """The secret-looking tokens of `text`: keywords casefolded without separators, shapes verbatim."""
    found = {
        m[1].casefold().replace(" ", "").replace("_", "").replace("-", "") for m in SECRET_WORD.finditer(text)
    }
    found.update(m[0] for m in SECRET_SHAPE.finditer(text))
    found.update(m[0] for m in RANDOM_RUN.finditer(text) if _random(m[0]))
    return frozenset(found)


def masked(text: str, mask: str = "***") -> str:
    """`text` with every token of a key's shape or random-looking run (as `secret_tokens` finds
    them; not the words "password", "token") replaced by `mask`: a person's words sent off the
    machine ("no, the deploy token is ghp_…, not the old one")."""
    text = SECRET_SHAPE.sub(mask, text)
    return RANDOM_RUN.sub(lambda m: mask if _random(m[0]) else m[0], text)


def _random(run: str) -> bool:
    """Whether a run of 20+ key letters looks random: 32+ hexadecimal characters, or mixed case
    with high entropy, with at least two digits and two letters."""
    digits, letters = sum(c.isdigit() for c in run), sum(c.isalpha() for c in run)
    mixed = any(c.islower() for c in run) and any(c.isupper() for c in run)
    hexlike = len(run) >= 32 and re.fullmatch(r"[0-9a-fA-F-]+", run) is not None
    return digits >= 2 and letters >= 2 and (hexlike or (mixed and _entropy(run) >= 3.5))


def _entropy(text: str) -> float:
    return -sum(text.count(c) / len(text) * math.log2(text.count(c) / len(text)) for c in set(text))

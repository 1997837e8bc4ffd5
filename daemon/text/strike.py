"""Strike-through: which parts of a text are struck (withdrawn, done), as meaning tokens (pure).

`~~…~~`, a single `~…~` (GitHub strikes it too), `<del>`, `<s>` and `<strike>` mark a span as
struck; each struck span is a token by its words' stems, and text that is not struck is
`not struck` once, so striking, restoring or moving a strike is a change.
"""

from __future__ import annotations

import re

from daemon.text.language import Language
from daemon.text.lexicon import lemma
from daemon.text.unicode_words import segment
from daemon.text.verbatim import CODE, MASK, Token

UNSTRUCK = Token("strike-through", "not struck")
# Struck through: `~~…~~`, a single `~…~` (GitHub strikes it too; not "~5 minutes" or
# "~/path": non-space inside both ends, no word character outside), `<del>`, `<s>`, `<strike>`.
STRIKE = re.compile(
    r"~~(?=\S)(?P<a>.+?)(?<=\S)~~"
    r"|(?<![~\w])~(?=[^\s~])(?P<b>.+?)(?<=[^\s~])~(?![~\w])"
    r"|<(?P<tag>del|s|strike)>(?P<c>.+?)</(?P=tag)>",
    re.IGNORECASE,
)
CONTENT = re.compile(r"[^\W_]|§")
LIST_MARKER = re.compile(r"(?m)^\s*(?:[-*+>]|#{1,6}|\d{1,9}[.)])\s+")


def _struck(span: str, lang: Language | None) -> Token:
    """The token of one struck-through span: its words without function words, each as its
    `lemma`, so `~~Send the invoice reminders~~` is `send invoic remind`."""
    words = [w.text.casefold().removesuffix("'s") for w in segment(span)]
    function = lang.function_words if lang else frozenset()
    kept = [lemma(w, lang) for w in words if w not in function] or [lemma(w, lang) for w in words]
    return Token("strike-through", " ".join(kept) or span.strip().casefold())


def inside(strike: re.Match[str]) -> str:
    return strike["a"] or strike["b"] or strike["c"]


def struck_as_tildes(text: str) -> str:
    """`text` with every struck-through span written `~~…~~`, however it was marked."""
    return STRIKE.sub(lambda m: f"~~{inside(m)}~~", text)


def tokens(text: str, lang: Language | None) -> list[Token]:
    """A token of each struck-through span (by its words), and `not struck` if some text is
    not struck (code spans are text, list markers are not): a struck note or part is withdrawn
    or done, so striking, restoring or moving the strike is a change — which parts are struck,
    not only whether any is — while `**bold**` and `_emphasis_` are not."""
    plain = CODE.sub(MASK, LIST_MARKER.sub("", text))
    struck = [_struck(inside(m), lang) for m in STRIKE.finditer(plain) if CONTENT.search(inside(m))]
    rest = [UNSTRUCK] if CONTENT.search(STRIKE.sub(" ", plain)) else []
    return struck + rest

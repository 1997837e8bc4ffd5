"""Markdown written by a model or a third party (a `SKILL.md`), rendered as inert HTML.

CommonMark through markdown-it-py with raw HTML off: a `<script>` or an `<img onerror>` in
the text is shown as text. A link keeps its address only if it is `http:`, `https:` or
`mailto:`, or a `#` anchor within the page; any other (`javascript:`, `data:`, a relative
path that would point at a console route) is shown as text. Images are never loaded — the
console's CSP would refuse one from elsewhere, and a request to a local route must not be
made by reading a page — so an image shows as its alt text and its address, as text.
Its headings start at level 3: the page around it has its own `h1` and `h2`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup

SAFE_SCHEMES = ("http:", "https:", "mailto:")
HEADING_SHIFT = 2


def _allowed(url: str) -> bool:
    address = url.strip().lower()
    return address.startswith("#") or address.startswith(SAFE_SCHEMES)


def _image(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env)
    return f'<span class="md-image">[image: {escapeHtml(alt)} — {escapeHtml(str(token.attrGet("src") or ""))}]</span>'


def _link_open(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    if not str(token.attrGet("href") or "").startswith("#"):
        token.attrSet("rel", "noopener noreferrer nofollow")
    return self.renderToken(tokens, idx, options, env)


def _heading(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    token.tag = f"h{min(6, int(token.tag[1:]) + HEADING_SHIFT)}"
    return self.renderToken(tokens, idx, options, env)


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = _allowed  # type: ignore[method-assign]  # a refused link stays text, shown as written
    md.add_render_rule("image", _image)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("heading_open", _heading)
    md.add_render_rule("heading_close", _heading)
    return md


_MD = _parser()


def render(text: str) -> Markup:
    """`text` (Markdown) as HTML that runs nothing, loads nothing and links only to the web."""
    env: dict[str, Any] = {}
    return Markup(_MD.render(text, env))

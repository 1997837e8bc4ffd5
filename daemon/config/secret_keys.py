"""The config keys that hold or name secrets: a problem with one never repeats its value.

`notify.webhook` carries a token in its path or query (Slack, Discord, ntfy) and
`coordination.url` must carry no password. A problem with such a key names the key and
line and never quotes the value: config files get copied, committed and pasted into
tickets, and `config check` output into chats.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from daemon.config.yamlmap import KeyPath

# What http.client refuses in a request line: a URL holding one fails at the first delivery.
URL_FORBIDDEN = re.compile(r"[\x00-\x20\x7f]")

# Key paths whose values a problem never quotes (an int stands for any list index).
QUIET_KEYS: frozenset[KeyPath] = frozenset(
    {
        ("notify", "webhook"),
        ("coordination", "url"),
    }
)


def is_quiet(loc: KeyPath) -> bool:
    """True if a problem with the value at `loc` must not quote it."""
    shape = tuple(0 if isinstance(part, int) else part for part in loc)
    return any(shape[: len(key)] == key for key in QUIET_KEYS)


def webhook_problem(url: str) -> str | None:
    """Why `url` cannot be the webhook, quoting at most its scheme; None if it can."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"is not a valid URL ({exc.__class__.__name__})"
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return f"is not an http(s) URL (scheme {parts.scheme!r})" if parts.scheme else "is not an http(s) URL"
    if URL_FORBIDDEN.search(url):
        return "contains a space or a control character; percent-encode it (a space is %20)"
    return None

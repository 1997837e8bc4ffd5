"""The config keys that hold or name secrets: checked so no secret sits where we print it.

`notify.webhook` carries a token in its path or query (Slack, Discord, ntfy).
`model.base_url` and `coordination.url` are printed (`config show`, run records, error
messages) and so must carry no credentials. `model.api_key_env`,
`coordination.password_env` and `redact_env` name environment variables and are printed
too, so a key pasted there by mistake is refused. A problem with any of these keys names
the key and line and never quotes the value: config files get copied, committed and
pasted into tickets, and `config check` output into chats.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from daemon.config.yamlmap import KeyPath
from daemon.kernel.name_patterns import NamePattern
from daemon.kernel.secret_shapes import SECRET_SHAPE, secret_tokens

ENV_NAME = NamePattern(
    "environment variable name",
    re.compile(r"[A-Za-z_][A-Za-z0-9_]*"),
    "letters, digits and _, not starting with a digit",
    "OPENAI_API_KEY",
)
# A secret-looking token this long is a key or a random string; the shorter ones are
# keywords such as "token", which a variable name may well hold (GITHUB_TOKEN).
RANDOM_TOKEN_LENGTH = 20
# What http.client refuses in a request line: a URL holding one fails at the first delivery.
URL_FORBIDDEN = re.compile(r"[\x00-\x20\x7f]")

# Key paths whose values a problem never quotes (an int stands for any list index).
QUIET_KEYS: frozenset[KeyPath] = frozenset(
    {
        ("notify", "webhook"),
        ("model", "base_url"),
        ("model", "api_key_env"),
        ("coordination", "url"),
        ("coordination", "password_env"),
        ("redact_env", 0),
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


# Query parameters that carry a credential (Gemini's ?key=, Azure's ?sig=, api_key, token …).
CREDENTIAL_PARAM = re.compile(r"(?i)^(?:.*[_-])?(?:key|api[_-]?key|token|secret|password|passwd|pwd|sig|signature|auth)$")


def base_url_problem(url: str) -> str | None:
    """Why `url` cannot be the model's base URL, never quoting it; None if it can."""
    try:
        parts = urlsplit(url)
        has_userinfo = parts.username is not None or parts.password is not None
    except ValueError as exc:
        return f"is not a valid URL ({exc.__class__.__name__})"
    if has_userinfo:
        return (
            "contains a user name or password (user:password@host); the server gets the key from "
            "the variable model.api_key_env names: remove them from the URL"
        )
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if CREDENTIAL_PARAM.search(name) or SECRET_SHAPE.search(value):
            return (
                f"carries a credential in its query string (parameter {name!r}); the server gets the key "
                "from the variable model.api_key_env names: remove it from the URL"
            )
    return None


def env_name_problem(value: str) -> str | None:
    """Why `value` is not an environment variable's name, never quoting it; None if it is one.

    A name with the shape of a key (`ghp_…`, `AKIA…` are valid names too) is a key.
    """
    if ENV_NAME.accepts(value) and not SECRET_SHAPE.search(value):
        return None
    if SECRET_SHAPE.search(value) or any(len(t) >= RANDOM_TOKEN_LENGTH for t in secret_tokens(value)):
        return (
            "looks like a key or password, not the name of an environment variable; put the secret in a "
            "variable (or a systemd credential), write that variable's name here and remove the secret from the file"
        )
    return f"must be the name of an environment variable ({ENV_NAME.rule})"

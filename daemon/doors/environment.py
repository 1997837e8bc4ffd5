"""What the process environment contributes, read once at the edge.

The API key comes from the variable the config names (`model.api_key_env`) or, under
systemd's `LoadCredential=`, from `$CREDENTIALS_DIRECTORY/<name in lower case>`, so it
never has to sit in the environment. The key itself is only ever passed to the client.

This is also where secrets become known to `daemon.kernel.redact`: the key, and the values of
the variables the config lists under `redact_env`, are registered as they are read, so
no log line, console line or file written afterwards can carry them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from daemon.kernel import redact
from daemon.kernel.errors import InvalidApiKey
from daemon.kernel.settings import ModelSettings
from daemon.model.access import ModelAccess


@dataclass(frozen=True)
class _Key:
    raw: str  # as read, surrounding whitespace included
    source: str  # where it came from, for messages: never the value

    @property
    def value(self) -> str:
        return self.raw.strip()


def _read_key(model: ModelSettings | None, env: Mapping[str, str]) -> _Key | None:
    if model is None or model.api_key_env is None:
        return None
    raw = env.get(model.api_key_env, "")
    if raw.strip():
        return _Key(raw, f"environment variable {model.api_key_env}")
    credentials = env.get("CREDENTIALS_DIRECTORY")
    if credentials:
        path = Path(credentials) / model.api_key_env.lower()
        try:
            raw = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            raw = ""
        if raw.strip():
            return _Key(raw, f"credentials file {path}")
    return None


def register_secrets(model: ModelSettings | None, env: Mapping[str, str], redact_env: Sequence[str] = ()) -> None:
    """Register with `daemon.kernel.redact` the model API key (valid or not) and every `redact_env` value.

    Unset or empty variables are skipped; never raises.
    """
    key = _read_key(model, env)
    if key is not None:
        redact.register(key.value)
    for name in redact_env:
        redact.register(env.get(name, "").strip())


def header_problem(key: str) -> tuple[int, str] | None:
    """(1-based position, description) of the first character of `key` that an HTTP header
    value cannot carry (anything but printable ASCII, space included), or None if all are fine.

    The description never contains a non-printable character.
    """
    for index, char in enumerate(key):
        if "!" <= char <= "~":
            continue
        code = f"U+{ord(char):04X}"
        if char == " ":
            what = "a space"
        elif char in "\n\r":
            what = f"a line break ({code})"
        elif char == "\t":
            what = f"a tab ({code})"
        elif ord(char) < 0x80:
            what = f"a control character ({code})"
        else:
            named = f"{code} {unicodedata.name(char, '')}".rstrip()
            if unicodedata.category(char)[0] in "CZ":  # invisible: a code and a name, not the character
                what = f"an invisible non-ASCII character ({named})"
            else:
                what = f"a non-ASCII character {char!r} ({named})"
        return index + 1, what
    return None


def model_access(
    model: ModelSettings | None, env: Mapping[str, str], redact_env: Sequence[str] = ()
) -> ModelAccess:
    """How this process may call the model: the key, or why calls cannot be made.

    Registers the key and the `redact_env` values with `daemon.kernel.redact` first. Raises
    InvalidApiKey — naming the variable or credentials file and the position, never the
    key — if the key cannot be sent as an HTTP header value; a missing key is not an
    error here (the model passes skip with the returned reason).
    """
    register_secrets(model, env, redact_env)
    if model is None:
        return ModelAccess(None, "no model configured (add a `model:` section to the config)")
    if model.api_key_env is None:
        return ModelAccess(None, None)
    key = _read_key(model, env)
    if key is None:
        return ModelAccess(None, f"no model API key: environment variable {model.api_key_env} is not set")
    problem = header_problem(key.value)
    if problem is not None:
        position, what = problem
        leading = len(key.raw) - len(key.raw.lstrip())
        raise InvalidApiKey(key.source, leading + position, what)
    return ModelAccess(key.value, None)

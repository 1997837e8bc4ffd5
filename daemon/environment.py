"""What the process environment contributes, read once at the edge.

The API key comes from the variable the config names (`model.api_key_env`) or, under
systemd's `LoadCredential=`, from `$CREDENTIALS_DIRECTORY/<name in lower case>`, so it
never has to sit in the environment. The key itself is only ever passed to the client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from daemon.config.models import ModelSettings


@dataclass(frozen=True)
class ModelAccess:
    api_key: str | None
    unavailable_reason: str | None

    def __repr__(self) -> str:  # never print the key, even in a traceback
        return f"ModelAccess(api_key={'***' if self.api_key else None}, unavailable_reason={self.unavailable_reason!r})"


def model_access(model: ModelSettings | None, env: Mapping[str, str]) -> ModelAccess:
    if model is None:
        return ModelAccess(None, "no model configured (add a `model:` section to the config)")
    if model.api_key_env is None:
        return ModelAccess(None, None)
    value = env.get(model.api_key_env, "").strip()
    if value:
        return ModelAccess(value, None)
    credentials = env.get("CREDENTIALS_DIRECTORY")
    if credentials:
        path = Path(credentials) / model.api_key_env.lower()
        try:
            value = path.read_text(encoding="utf-8").strip()
        except OSError:
            value = ""
        if value:
            return ModelAccess(value, None)
    return ModelAccess(None, f"no model API key: environment variable {model.api_key_env} is not set")

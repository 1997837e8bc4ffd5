"""Reading the daemon's versioned JSON state files (cursors, journal, ...).

Every persisted file carries a `version`; a newer one is refused with a sentence saying
why, anything unreadable is a CorruptState naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from daemon.kernel.errors import CorruptState, StateVersionError

M = TypeVar("M", bound=BaseModel)


def parse_versioned(raw: bytes | str, label: Path, model: type[M], version: int) -> M:
    """Validate `raw` JSON as `model`, refusing versions newer than `version`."""
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise CorruptState(label, f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise CorruptState(label, "expected a JSON object")
    if isinstance(data.get("version"), int) and data["version"] > version:
        raise StateVersionError(label, data["version"], version)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(root)"
        raise CorruptState(label, f"{where}: {err['msg']}") from None


def read_versioned(path: Path, model: type[M], version: int) -> M | None:
    """The file's content as `model`, or None if the file does not exist."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CorruptState(path, str(exc)) from exc
    return parse_versioned(raw, path, model, version)

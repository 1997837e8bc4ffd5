"""Reading the skills engine's versioned JSON files (sidecars, quarantine records, library state).

Every such file carries a `version`; a newer one is refused with a sentence saying why,
anything else unreadable names the file and the field at fault.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from daemon.errors import CorruptState, StateVersionError

M = TypeVar("M", bound=BaseModel)


def parse_versioned(raw: bytes, label: Path, model: type[M], version: int) -> M:
    """Validate `raw` as `model`; raise CorruptState or StateVersionError naming `label`."""
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
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise CorruptState(label, f"{where}: {first['msg']}") from None

"""Load the deployment file once, at the edge, into a validated `Deployment`.

Every problem is collected and reported at once, each with its key path and line; the
YAML is never half-applied. Relative paths resolve against the config file's folder, so
a copied `examples/` folder is a self-contained deployment.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from daemon.config.models import DeploymentConfig
from daemon.config.resolve import Deployment, resolve
from daemon.config.yamlmap import KeyPath, YamlProblem, line_for, load_with_lines
from daemon.errors import ConfigError


def _format_loc(loc: KeyPath) -> str:
    return ".".join(str(p) for p in loc) or "(top level)"


def _pydantic_problems(exc: ValidationError, lines: dict[KeyPath, int], name: str) -> list[str]:
    problems: list[str] = []
    for err in exc.errors():
        loc: KeyPath = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        line = line_for(lines, loc)
        where = f"{name}:{line}" if line else name
        if err["type"] == "extra_forbidden":
            message = f"unknown key {loc[-1]!r}"
            loc = loc[:-1]
            problems.append(f"{_format_loc((*loc, err['loc'][-1]))}: {message} ({where})")
            continue
        message = err["msg"]
        if err["type"] == "missing":
            message = "required key is missing"
        elif "input" in err and not isinstance(err["input"], Mapping | list):
            message = f"{message}, got {err['input']!r}"
        problems.append(f"{_format_loc(loc)}: {message} ({where})")
    return problems


def load_deployment(path: Path, env: Mapping[str, str]) -> Deployment:
    """Read, validate and resolve the deployment file at `path`.

    `env` supplies `STATE_DIRECTORY` (systemd) and `XDG_STATE_HOME`/`HOME` when the file
    sets no `state_dir`. Raises ConfigError listing every problem with its line.
    """
    path = Path(path).expanduser().absolute()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(path, ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, [f"cannot read: {exc}"]) from None
    try:
        data, lines, duplicates = load_with_lines(text)
    except YamlProblem as exc:
        raise ConfigError(path, [f"{exc.message} ({path.name}:{exc.line})"]) from None
    problems = [f"{message} ({path.name}:{line})" for line, message in duplicates]
    if not isinstance(data, dict):
        raise ConfigError(path, [*problems, "the file must be a YAML mapping with an 'agents' key"])
    try:
        config = DeploymentConfig.model_validate(data)
    except ValidationError as exc:
        problems.extend(_pydantic_problems(exc, lines, path.name))
        raise ConfigError(path, problems) from None
    if problems:
        raise ConfigError(path, problems)
    deployment, resolve_problems = resolve(config, path, lines, env)
    if resolve_problems:
        raise ConfigError(path, resolve_problems)
    return deployment


def parse_for_check(path: Path, env: Mapping[str, str]) -> tuple[Deployment | None, list[str]]:
    """Like load_deployment, but returns the problems instead of raising (for `config check`)."""
    try:
        return load_deployment(path, env), []
    except ConfigError as exc:
        return None, exc.problems


def raw_lines(path: Path) -> dict[KeyPath, int]:
    """Line map of an already-validated file (for `config show` origins)."""
    _data: Any
    _data, lines, _dups = load_with_lines(Path(path).read_text(encoding="utf-8"))
    return lines

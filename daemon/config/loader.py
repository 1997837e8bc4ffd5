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

from daemon.config.known_keys import did_you_mean
from daemon.config.models import DeploymentConfig
from daemon.config.resolve import Deployment, resolve
from daemon.config.secret_keys import is_quiet
from daemon.config.yamlmap import MAX_FILE_BYTES, KeyPath, YamlProblem, line_for, load_with_lines
from daemon.kernel.errors import ConfigError, ConfigNotFound


def _format_loc(loc: KeyPath) -> str:
    return ".".join(str(p) for p in loc) or "(top level)"


def _pydantic_problems(exc: ValidationError, lines: dict[KeyPath, int], name: str) -> list[tuple[int, str]]:
    """Each validation error as (line, problem); an unknown key with the accepted key it is
    closest to, if one is close."""
    problems: list[tuple[int, str]] = []
    for err in exc.errors():
        loc: KeyPath = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        line = line_for(lines, loc)
        where = f"{name}:{line}" if line else name
        if err["type"] == "extra_forbidden":
            key = str(loc[-1])
            close = did_you_mean(DeploymentConfig, loc[:-1], key, err.get("input"))
            hint = f"; did you mean {close!r}?" if close else ""
            problems.append((line or 0, f"{_format_loc(loc)}: unknown key {key!r}{hint} ({where})"))
            continue
        message = err["msg"]
        if err["type"] == "missing":
            message = "required key is missing"
        elif "input" in err and not isinstance(err["input"], Mapping | list) and not is_quiet(loc):
            message = f"{message}, got {err['input']!r}"
        problems.append((line or 0, f"{_format_loc(loc)}: {message} ({where})"))
    return problems


def _in_line_order(problems: list[tuple[int, str]]) -> list[str]:
    """The problems in the order of the file's lines, as a person reads the file."""
    return [text for _, text in sorted(problems, key=lambda item: item[0])]


def load_deployment(path: Path, env: Mapping[str, str]) -> Deployment:
    """Read, validate and resolve the deployment file at `path`.

    `env` supplies `STATE_DIRECTORY` (systemd) and `XDG_STATE_HOME`/`HOME` when the file
    sets no `state_dir`. Raises ConfigError listing every problem with its line.
    """
    try:
        path = Path(path).expanduser().absolute()
    except RuntimeError:
        raise ConfigError(Path(path), ["the path names a user this system does not know"]) from None
    text = read_config(path)
    try:
        data, lines, duplicates = load_with_lines(text)
    except YamlProblem as exc:
        raise ConfigError(path, [f"{exc.message} ({path.name}:{exc.line})"]) from None
    problems = [(line, f"{message} ({path.name}:{line})") for line, message in duplicates]
    if not isinstance(data, dict):
        raise ConfigError(
            path, [text for _, text in problems] + ["the file must be a YAML mapping with an 'agents' key"]
        )
    try:
        config = DeploymentConfig.model_validate(data)
    except ValidationError as exc:
        problems.extend(_pydantic_problems(exc, lines, path.name))
        raise ConfigError(path, _in_line_order(problems)) from None
    if problems:
        raise ConfigError(path, _in_line_order(problems))
    deployment, resolve_problems = resolve(config, path, lines, env)
    if resolve_problems:
        raise ConfigError(path, resolve_problems)
    return deployment


def read_config(path: Path) -> str:
    """The text of the config file; ConfigError if unreadable, not UTF-8 or over MAX_FILE_BYTES.

    At most MAX_FILE_BYTES + 1 bytes are read, whatever the file's size.
    """
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ConfigNotFound(path) from None
    except OSError as exc:
        raise ConfigError(path, [f"cannot read: {exc}"]) from None
    if len(data) > MAX_FILE_BYTES:
        line = data[:MAX_FILE_BYTES].count(b"\n") + 1
        limit = f"{MAX_FILE_BYTES // (1024 * 1024)} MiB ({MAX_FILE_BYTES:,} bytes)"
        raise ConfigError(path, [f"the file is larger than {limit} ({path.name}:{line})"])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(path, [f"cannot read: not UTF-8 at byte {exc.start} ({path.name}:{line})"]) from None


def parse_for_check(path: Path, env: Mapping[str, str]) -> tuple[Deployment | None, list[str]]:
    """Like load_deployment, but returns the problems instead of raising (for `config check`).

    Raises ConfigNotFound when there is no file at `path`: that is no problem of a file.
    """
    try:
        return load_deployment(path, env), []
    except ConfigNotFound:
        raise
    except ConfigError as exc:
        return None, exc.problems


def raw_lines(path: Path) -> dict[KeyPath, int]:
    """Line map of an already-validated file (for `config show` origins)."""
    _data: Any
    _data, lines, _dups = load_with_lines(read_config(Path(path)))
    return lines

"""Expected failures.

Every failure a user or a model can cause is a `DaemonError`: the CLI prints its message
on one line and exits 1. Anything else is a bug: exit 3 with the traceback in the log.
Each class builds its message from the data it carries, so the message always names the
file, key, agent or run at fault.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path


class DaemonError(Exception):
    """Base for every expected failure."""


class ConfigError(DaemonError):
    """The configuration file is invalid; carries every problem found, each with its line."""

    def __init__(self, path: Path | str, problems: Sequence[str]) -> None:
        self.path = Path(path)
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"invalid configuration {self.path} ({len(self.problems)} problem(s)):\n{lines}")


class ConfigNotFound(ConfigError):
    """No file at the configuration path; the command line says how that path was chosen."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(path, ["file not found"])


class UnknownAgent(DaemonError):
    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        choices = ", ".join(sorted(known)) or "none configured"
        super().__init__(f"unknown agent {name!r} (configured: {choices})")


class AgentBusy(DaemonError):
    def __init__(self, agent: str, lock_path: Path | None = None, message: str | None = None) -> None:
        self.agent = agent
        super().__init__(message or f"agent {agent!r} is busy: another run holds {lock_path}")


class StateVersionError(DaemonError):
    """A persisted state file was written by a newer version of the daemon."""

    def __init__(self, path: Path, found: object, supported: int) -> None:
        super().__init__(
            f"{path} has version {found!r}; this daemon reads up to version {supported}. "
            "It was written by a newer metaeng-daemon: upgrade before running this one."
        )


class CorruptState(DaemonError):
    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(f"{path} is unreadable: {detail}")


class StoreError(DaemonError):
    """A git operation on an agent's store failed."""


class UnknownRun(DaemonError):
    def __init__(self, run_id: str, agent: str | None = None, note: str | None = None) -> None:
        where = f" for agent {agent!r}" if agent else ""
        super().__init__(f"no run {run_id!r}{where} in the store" + (f" ({note})" if note else ""))


class UndoRefused(DaemonError):
    def __init__(self, run_id: str, reason: str, files: Sequence[str] = ()) -> None:
        self.run_id = run_id
        self.files = list(files)
        named = f": {', '.join(self.files)}" if self.files else ""
        super().__init__(f"undo of {run_id} refused, nothing changed — {reason}{named}")


class PathRefused(DaemonError):
    """A write outside the paths a pass may touch."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"refused to write {path!r}: {reason}")


class InvalidApiKey(DaemonError):
    """The model API key cannot be sent as an HTTP header value (a copy-paste slip).

    The message names where the key came from and the position at fault, never the key.
    """

    def __init__(self, source: str, position: int, problem: str) -> None:
        self.source = source
        self.position = position
        super().__init__(
            f"the model API key in {source} is not a valid HTTP header value: character {position} "
            f"is {problem}; copy the key again (the key itself is not shown)"
        )


class ModelUnavailable(DaemonError):
    """The deep tier cannot be used this cycle (not configured, cap, budget, network)."""


class ModelResponseInvalid(DaemonError):
    """The model answered, but the answer failed validation."""


# How a pass skipped for a refused answer is reported (the runner writes these; the run
# log's stuck detection counts such skips like failures: they repeat until fixed).
REJECTED_ANSWER = "model answer rejected — "
TAINTED_PLAN = "refused as tainted: "


class ChangedDuringRun(DaemonError):
    """Files a run planned to change no longer hold the bytes it planned against.

    Carries path → why (a person's edit, or a file that cannot be read); nothing was
    written to them.
    """

    def __init__(self, changed: Mapping[str, str]) -> None:
        self.changed = dict(changed)
        named = "; ".join(f"{path} ({why})" for path, why in sorted(self.changed.items()))
        super().__init__(f"changed during the run: {named}")


class LanguageDataError(DaemonError):
    """A language data file of the text layer (`daemon/text/languages/*.yaml`) is wrong."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)

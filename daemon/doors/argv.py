"""Which command a command line names, found before anything heavy is imported."""

from __future__ import annotations

from collections.abc import Sequence

# Global options that take a value (`--config FILE`); the command is the first other word.
_VALUED = frozenset({"--config"})


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand named in `argv` (without the program name), or None."""
    words = iter(argv)
    for word in words:
        if word in _VALUED:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None

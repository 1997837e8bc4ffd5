"""Which command a command line names, found before anything heavy is imported."""

from __future__ import annotations

from collections.abc import Sequence

# Global options that take a value (`--config FILE`); the command is the first other word.
_VALUED = frozenset({"--config"})


def _takes_value(word: str) -> bool:
    """`--config`, or a prefix of it argparse accepts as one (`--conf`; `--c` is unique)."""
    return len(word) >= 3 and any(option.startswith(word) for option in _VALUED)


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand named in `argv` (without the program name), or None."""
    words = iter(argv)
    for word in words:
        if _takes_value(word):
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None

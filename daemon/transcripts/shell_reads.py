"""Which files a shell command reads: the usage signals' view of a `cat`, `sed -n` or `head`
an agent ran (daemon/transcripts/usage_signals.py). A write is never a read.
"""

from __future__ import annotations

import re
import shlex

# The programs that only read the files they are given, the shells whose `-c` script is
# looked into, the words that may stand before a program, and what separates commands.
READERS = frozenset(
    {
        "cat",
        "bat",
        "batcat",
        "less",
        "more",
        "head",
        "tail",
        "sed",
        "nl",
        "awk",
        "view",
        "get-content",
        "gc",
        "type",
    }
)
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish"})
PREFIXES = frozenset({"sudo", "command", "exec", "time", "nice", "env"})
_SEGMENTS = re.compile(r"\|\||&&|[;|\n]")
_WRITES = (">", ">>", "1>", "2>", "&>")


def _scripts(command: object) -> list[str]:
    """The shell text of a command given as text or as an argument vector."""
    if isinstance(command, str):
        return [command]
    if isinstance(command, list):
        words = [w for w in command if isinstance(w, str)]
        return [shlex.join(words)] if words else []
    return []


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment, comments=False, posix=True)
    except ValueError:  # an unbalanced quote: read it word by word
        return segment.split()


def read_paths(command: object, depth: int = 0) -> list[str]:
    """The files a shell command gives to a program that only reads them (`cat`, `sed -n`, `head` …).

    A write (`> file`, `sed -i`) is no read; `bash -lc "…"` is looked into (twice at most).
    """
    found: list[str] = []
    for script in _scripts(command):
        for segment in _SEGMENTS.split(script):
            words = _words(segment)
            while words and (
                words[0] in PREFIXES or ("=" in words[0] and not words[0].startswith(("-", "=")))
            ):
                words.pop(0)
            if not words:
                continue
            program = words[0].rsplit("/", 1)[-1].lower()
            if program in SHELLS and len(words) >= 3 and words[1].startswith("-") and "c" in words[1]:
                if depth < 2:
                    found += read_paths(words[2], depth + 1)
                continue
            if program not in READERS or (
                program == "sed" and any(w.startswith(("-i", "--in-place")) for w in words)
            ):
                continue
            after_write = False
            for word in words[1:]:
                if word in _WRITES:
                    after_write = True
                    continue
                if not after_write and not word.startswith(("-", ">")):
                    found.append(word)
                after_write = False
    return found

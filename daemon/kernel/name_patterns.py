"""Rules for names (an agent's, a skill's, a scenario's …), matched against the whole name.

Python's `$` also matches before a final newline: `re.match(r"^[a-z]+$", "ada\\n")`
accepts a name that ends in a line break, which then named a second agent `ada` beside the
first and a state folder `agents/ada\\n`. A `NamePattern` matches with `fullmatch`, so a
name is accepted only if every character of it, a leading or trailing line break
included, follows the rule. Every rule for a name is one, at module level, so that
`tests/test_whole_names.py` finds each and feeds it names with line breaks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class NamePattern:
    """What a name must be: `pattern` matches the whole of it.

    `what` is how a message names the thing ("agent name"), `rule` the rule in words,
    `example` a name the rule accepts (a test builds its refusals from it).
    """

    what: str
    pattern: re.Pattern[str]
    rule: str
    example: str

    def __post_init__(self) -> None:
        if not self.accepts(self.example):
            raise ValueError(f"{self.what}: the example {self.example!r} breaks its own rule")

    def accepts(self, value: str) -> bool:
        """True if all of `value` follows the rule."""
        return self.pattern.fullmatch(value) is not None

    def refusal(self, value: str) -> str:
        """The sentence that refuses `value`, quoting it (a line break shows as `\\n`)."""
        return f"{self.what} {value!r} must be {self.rule}"

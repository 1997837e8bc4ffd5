"""Whether an instruction change may apply without a person, once the hold is lifted.

Only reached when the deployment owner set `instruction_hold: false` and autonomy is
`autonomous`. Transcripts are untrusted input (indirect prompt injection), so a change
applies directly only if all of these hold; otherwise it stays an open proposal and the
report says why:

- every quote it rests on is the user's own words (not tool output, not the assistant);
- no turn it rests on reads like a prompt injection ("ignore previous instructions", ...);
- it adds no link, URL, code block or inline code (no new commands or destinations);
- it removes no heading or code block and at most a third of the file's units.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from daemon.text.injection import looks_like_injection
from workspace.proposal_grounding import Grounded
from workspace.units import PROTECTED, parse_blocks, units_of

MAX_REMOVED_SHARE = 1 / 3


def _added_lines(old: str, new: str) -> list[str]:
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
    return [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]


def blockers(old: str, new: str, evidence: Sequence[Grounded]) -> list[str]:
    """Reasons the change must wait for a person (empty: it may apply directly)."""
    reasons: list[str] = []
    roles = sorted({g.role for g in evidence if g.role != "user"})
    if roles:
        reasons.append(f"it rests on {' and '.join(roles)} text, not only on what the user said")
    if any(looks_like_injection(m.content) for g in evidence for m in g.turn.messages):
        reasons.append("a turn it rests on contains text that reads like a prompt injection")
    added = "\n".join(_added_lines(old, new))
    if PROTECTED.search(added) or "```" in added or "~~~" in added or "www." in added:
        reasons.append("it adds a link, URL or code")
    old_blocks = parse_blocks(old)
    new_raw = {b.raw for b in parse_blocks(new)}
    if any(b.kind in ("heading", "code") and b.raw not in new_raw for b in old_blocks):
        reasons.append("it removes a heading or a code block")
    old_keys = {u.key for u in units_of("", old)}
    new_keys = {u.key for u in units_of("", new)}
    if old_keys and len(old_keys - new_keys) > len(old_keys) * MAX_REMOVED_SHARE:
        reasons.append("it removes more than a third of the file")
    return reasons

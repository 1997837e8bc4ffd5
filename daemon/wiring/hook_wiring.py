"""Proposing the prompt hook in the runtime's settings: `.claude/settings.local.json` for Claude
Code, `.codex/hooks.json` for Codex (daemon.kernel.runtime_files.HOOK_FILES).

The file is the person's (permissions, other hooks, their own settings), so the daemon
never writes it: `init` puts one proposal of kind `hook-wiring` in the review queue, with
the file as it is plus two entries — `UserPromptSubmit` and `SessionStart` running
`metaeng-daemon hook RUNTIME --index …` — and every other key kept as it was. Nothing is
proposed when the file already runs a `metaeng-daemon hook`, when such a proposal for that
file is open, approved or rejected (a person who said no is not asked again), or when the file is not
a JSON object; then the caller prints why, and the entries to add by hand.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from datetime import datetime
from pathlib import Path

from daemon.kernel import review_queue
from daemon.kernel.errors import PathRefused
from daemon.kernel.runtime_files import HOOK_FILES
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView

KIND = "hook-wiring"
TIMEOUT_SECONDS = 10  # the runtime drops a slower hook's context; ours answers in milliseconds
# Claude Code's session-start sources that begin a conversation the model has not seen.
START_MATCHER = "startup|resume|clear|compact"


def program() -> str:
    """How the runtime starts this program: the console script beside this interpreter if
    there is one (a venv's is not on the runtime's PATH), else `python -m daemon`."""
    script = Path(sys.executable).parent / "metaeng-daemon"
    if script.is_file():
        return shlex.quote(str(script))
    found = shutil.which("metaeng-daemon")
    if found:
        return shlex.quote(found)
    return f"{shlex.quote(sys.executable)} -m daemon"


def hook_command(fmt: str, index: Path) -> str:
    return f"{program()} hook {fmt} --index {shlex.quote(str(index))}"


def entries(fmt: str, command: str) -> dict[str, list[dict[str, object]]]:
    """The hook entries for `command`, by event, in the runtime's settings shape."""
    hook = {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}
    return {
        "UserPromptSubmit": [{"hooks": [hook]}],
        "SessionStart": [{"matcher": START_MATCHER, "hooks": [hook]}],
    }


def _wired(settings: dict[str, object]) -> bool:
    hooks = settings.get("hooks")
    return "metaeng-daemon hook" in json.dumps(hooks) or " -m daemon hook " in json.dumps(hooks)


def wired_text(current: str, fmt: str, command: str) -> str | None:
    """`current` settings with the hook entries added, or None if a daemon hook is in them.

    Raises ValueError naming the line when `current` is not a JSON object with an object
    (or no) `hooks` key.
    """
    try:
        settings = json.loads(current) if current.strip() else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(settings, dict):
        raise ValueError("not a JSON object")
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValueError("its `hooks` is not an object")
    if _wired(settings):
        return None
    for event, groups in entries(fmt, command).items():
        present = hooks.setdefault(event, [])
        if not isinstance(present, list):
            raise ValueError(f"its `hooks.{event}` is not a list")
        present.extend(groups)
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def wiring_proposal(
    agent: AgentSettings, view: AgentView, index: Path, now: datetime, run_id: str
) -> tuple[review_queue.Proposal | None, str]:
    """(the proposal adding the hook to the runtime's settings file, or None; why, in words)."""
    fmt = agent.transcripts.format
    target = HOOK_FILES.get(fmt)
    if target is None:
        return None, f"runtime {fmt} has no hook settings file the daemon can propose a change to"
    command = hook_command(fmt, index)
    try:
        current = view.read_bytes(target)
    except PathRefused as exc:
        return None, f"{target} cannot be read safely ({exc.reason}); add the hook by hand"
    text = (current or b"").decode("utf-8", "replace")
    try:
        new_text = wired_text(text, fmt, command)
    except ValueError as exc:
        return None, f"{target} is {exc}; add the hook by hand"
    if new_text is None:
        return None, f"{target} already runs a metaeng-daemon hook"
    for proposal in review_queue.list_proposals(view):
        # by file: a folder attached to Claude Code first and to Codex later gets each runtime's own
        if proposal.kind == KIND and proposal.target == target and proposal.status(view) != "stale":
            return None, f"the hook was proposed in {target} before ({proposal.id}, {proposal.status(view)})"
    change = review_queue.make_change(view, target, new_text)
    proposal = review_queue.new_proposal(
        kind=KIND,
        agent=agent.name,
        title=f"Let {fmt} ask metaeng-daemon for what it learned, before each prompt: add a hook to {target}",
        target=target,
        rationale=(
            f"{fmt} runs the hooks in {target}. On each prompt (UserPromptSubmit) and at session start, "
            f"`{command}` gives the model the current facts and skills that bear on it, at most 1,500 "
            f"characters; it answers in milliseconds from the daemon's delivery index and fails open (prints "
            f"nothing) on any error. Every other setting in the file is kept. Proposed once: rejecting it is "
            f"final, and the entries can be added or removed by hand at any time."
        ),
        evidence=[target],
        changes=[change],
        now=now,
        run_id=run_id,
    )
    return proposal, f"proposed the hook in {target} ({proposal.id})"

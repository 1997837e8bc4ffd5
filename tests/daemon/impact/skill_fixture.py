"""A learned skill in the deployment of `test_impact_cli`, and the sessions that open it:
what the impact tests of skills, flags and the curator share."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.deploy import conversation, message, run_cli, write_transcript

SKILL = "use-pnpm"


def said_ref(config: Path) -> str:
    """The turn the correction was said in, as the fact learned from it cites it (`file@offset`)."""
    (record,) = run_cli(config, "memory", "list", "--agent", "ada", "--json").json()["records"]
    return str(record["source_event_id"])


def write_skill(
    home: Path, name: str = SKILL, description: str = "Set up a JavaScript project.",
    cites: tuple[str, ...] = (), machine: bool = True,
) -> Path:
    """A skill in the learned library; with `machine`, the daemon's (a provenance sidecar citing `cites`)."""
    folder = home / "skills" / name
    folder.mkdir(parents=True)
    body = f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\n1. Read the README.\n2. Run the setup.\n"
    (folder / "SKILL.md").write_text(body, encoding="utf-8")
    if machine:
        event = {"at": "2026-11-02T12:00:00+00:00", "run_id": None, "action": "created", "cites": list(cites)}
        sidecar = {"version": 1, "name": name, "kind": "created", "machine_written": True,
                   "created_at": "2026-11-02T12:00:00+00:00", "history": [event]}  # fmt: skip
        (home / "skills" / f"{name}.provenance.json").write_text(json.dumps(sidecar), encoding="utf-8")
    return folder


def opened(home: Path, file: str, day: str, name: str = SKILL) -> None:
    """A session of `day` in which the agent opens the skill `name` (reads its SKILL.md)."""
    call = {"function": {"name": "read_file", "arguments": json.dumps({"path": f"skills/{name}/SKILL.md"})}}
    text = message("user", "Set up the web project.", f"{day}T09:00:00Z")
    text += json.dumps({"role": "assistant", "content": "", "ts": f"{day}T09:00:30Z", "tool_calls": [call]}) + "\n"
    text += message("assistant", "Done.", f"{day}T09:01:00Z") + '{"type": "session_end"}\n'
    write_transcript(home, file, text)


def said_again(home: Path, file: str, day: str, quote: str) -> None:
    write_transcript(home, file, conversation([("Add a lint step.", "Adding npm run lint."), (quote, "Sorry.")], day=day))

"""Deployments that share a coordination database (one config and state folder per daemon)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.deploy import base_config, conversation, write_config, write_transcript
from tests.support.postgres import PASSWORD
from tests.support.runs import FOUR_TURNS, OTHER_PASSES

PG_ENV = {"METAENG_PG_PASSWORD": PASSWORD}


def fleet_daemon(
    root: Path,
    name: str,
    url: str,
    model_url: str | None,
    agents: tuple[str, ...] = ("ada",),
    homes: Path | None = None,
    passes: tuple[str, ...] = ("distillation",),
    **changes: Any,
) -> Path:
    """One daemon's config in `root/name` (own state folder) on database `url`; agent homes under `homes`."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    config = base_config(homes or folder, model_url, agents)
    config["state_dir"] = str(folder / "state")
    config["coordination"] = {"url": url, "connect_timeout_seconds": 2, "heartbeat_seconds": 1}
    config["passes"] = {p: p in passes for p in (*OTHER_PASSES, "distillation")}
    config.update(changes)
    for agent in agents:
        home = (homes or folder) / agent
        if not (home / "transcripts").exists():
            write_transcript(home, "s1.jsonl", conversation(FOUR_TURNS))
    return write_config(folder, config)

"""The config `init` writes: one agent per chosen project, each on its runtime's preset.

Pure (no I/O): from what `daemon.transcripts.discovery` found and the person chose, the
YAML text, commented so the person can read what each agent does and where it came from.
The presets themselves are not spelled out (daemon.kernel.runtime_files and the runtime's
key preset fill what the config leaves unset; `config show` prints every effective path).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from daemon.config.models import AGENT_NAME
from daemon.kernel.runtime_files import HOOK_FILES, INSTRUCTION_FILES, default_view, skill_folder
from daemon.kernel.settings import key_preset_for
from daemon.transcripts.discovery import Found

# A local OpenAI-compatible server (llama.cpp's llama-server, vLLM, Ollama): docs/how-to/local-model.md.
LOCAL_MODEL_URL = "http://127.0.0.1:8080/v1"


@dataclass(frozen=True)
class Model:
    base_url: str
    model: str
    api_key_env: str | None  # None: the server takes no key (a local one)
    dialect: str | None = None
    price_input_per_million: float = 0.0
    price_output_per_million: float = 0.0


def agent_name(found: Found, taken: Iterable[str]) -> str:
    """A valid, unused agent name for `found`: the project folder's name, made lowercase."""
    base = Path(found.project).name if found.runtime in ("claude-code", "codex") else found.project
    if found.runtime in ("openclaw", "hermes"):
        base = f"{found.runtime}-{base}" if base not in ("main", "default") else found.runtime
    slug = re.sub(r"[^a-z0-9_-]+", "-", base.casefold()).strip("-_")[:50] or found.runtime
    if not AGENT_NAME.accepts(slug):
        slug = found.runtime
    used = set(taken)
    name, n = slug, 2
    while name in used:
        name, n = f"{slug}-{n}", n + 1
    return name


def _preset_comment(fmt: str) -> str:
    parts = []
    if fmt in INSTRUCTION_FILES:
        parts.append(f"instructions {INSTRUCTION_FILES[fmt]}")
    parts.append(f"skills in {skill_folder(fmt) or 'skills'}/")
    view = default_view(fmt)
    if view:
        parts.append(f"facts view {view}")
    if fmt in HOOK_FILES:
        parts.append(f"prompt hook in {HOOK_FILES[fmt]} (proposed for review)")
    parts.append(f"{key_preset_for(fmt)} keys")
    return f"{fmt} preset: " + ", ".join(parts)


def _agent_block(name: str, found: Found) -> str:
    transcripts: dict[str, object] = {"format": found.runtime, "root": str(found.root), "glob": found.glob}
    if found.projects:
        transcripts["projects"] = list(found.projects)
    body = yaml.safe_dump({name: {"home": str(found.home), "transcripts": transcripts}}, sort_keys=False, allow_unicode=True)
    when = found.last.strftime("%Y-%m-%d") if found.last else "unknown"
    header = [
        f"  # {found.runtime} sessions of {found.project}: {found.sessions} found, newest {when}",
        f"  # {_preset_comment(found.runtime)} (see `config show`)",
    ]
    return "\n".join([*header, *("  " + line for line in body.rstrip("\n").split("\n"))])


def config_text(chosen: Sequence[tuple[str, Found]], state_dir: Path, model: Model | None) -> str:
    """The YAML of a deployment of the `chosen` (name, found) agents."""
    lines = [
        "# Written by `metaeng-daemon init`. Every key: docs/reference/configuration.md;",
        "# what each agent's runtime preset sets: `metaeng-daemon config show --agent NAME`.",
        "version: 1",
        f"state_dir: {yaml.safe_dump(str(state_dir)).splitlines()[0]}",
    ]
    if model is None:
        lines += [
            "# No model yet: runs commit their transcript offsets without analysis until one is set.",
            "# A local OpenAI-compatible server works (docs/how-to/local-model.md):",
            "# model:",
            f"#   base_url: {LOCAL_MODEL_URL}",
            "#   model: qwen2.5-7b-instruct",
            "#   api_key_env: null",
            "#   price_input_per_million: 0",
            "#   price_output_per_million: 0",
            "#   dialect: llama.cpp",
        ]
    else:
        section: dict[str, object] = {
            "base_url": model.base_url,
            "model": model.model,
            "api_key_env": model.api_key_env,
            "price_input_per_million": model.price_input_per_million,
            "price_output_per_million": model.price_output_per_million,
        }
        if model.dialect:
            section["dialect"] = model.dialect
        lines += yaml.safe_dump({"model": section}, sort_keys=False).rstrip("\n").split("\n")
    lines.append("agents:")
    lines += [_agent_block(name, found) for name, found in chosen]
    return "\n".join(lines) + "\n"

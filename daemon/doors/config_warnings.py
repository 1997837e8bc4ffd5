"""What `config check` warns about beyond the file: the disk and the environment it runs in.

A valid configuration can still do nothing: a transcript root that does not exist, or a
glob that matches no file, gives an agent no turns (and `once` exits 0); a model pass
without its API key is skipped on every run. Neither is an error of the file —
transcripts may appear later, the key may be set only in the service's environment — so
`config check` warns, naming the key and its line, and `config check --strict` makes the
warnings errors (docs/reference/configuration.md).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from daemon.config import Deployment
from daemon.config.yamlmap import KeyPath
from daemon.kernel.settings import AgentSettings
from daemon.model.access import ModelAccess
from daemon.transcripts.files import list_transcripts, source_of


def _where(deployment: Deployment, lines: Mapping[KeyPath, int], key: KeyPath) -> str:
    line = lines.get(key)
    return f"{deployment.path.name}:{line}" if line else "default"


def transcript_warnings(
    deployment: Deployment, agent: AgentSettings, lines: Mapping[KeyPath, int]
) -> list[str]:
    """A missing transcript root, or a glob that matches no file under it, of one agent."""
    prefix = ("agents", agent.name, "transcripts")
    root = agent.transcript_root
    if agent.explicit_transcript_root is not None and not root.is_dir():
        what = "is not a folder" if root.exists() else "does not exist"
        return [
            f"agents.{agent.name}.transcripts.root: {root} {what} ({_where(deployment, lines, (*prefix, 'root'))}); "
            "the agent reads no transcripts"
        ]
    found, problems = list_transcripts(source_of(agent))
    if found:
        return []
    why = f" ({problems[0]})" if problems else ""
    return [
        f"agents.{agent.name}.transcripts.glob: {agent.transcripts.glob} matches no file under {root}{why} "
        f"({_where(deployment, lines, (*prefix, 'glob'))}); the agent reads no transcripts until one appears"
    ]


def key_warnings(
    deployment: Deployment,
    access: ModelAccess,
    env: Mapping[str, str],
    model_passes: Collection[str],
    lines: Mapping[KeyPath, int],
) -> list[str]:
    """A model API key that is not set while an enabled agent has a model pass on."""
    model = deployment.model
    if model is None or model.api_key_env is None or access.api_key is not None:
        return []
    needing = {
        name: [p for p, on in agent.passes.items() if on and p in model_passes]
        for name, agent in deployment.agents.items()
        if agent.enabled
    }
    needing = {name: passes for name, passes in needing.items() if passes}
    if not needing:
        return []
    unset = f"environment variable {model.api_key_env} is not set"
    credentials = env.get("CREDENTIALS_DIRECTORY")
    if credentials:
        unset += f" and {Path(credentials) / model.api_key_env.lower()} holds no key"
    who = "; ".join(f"agent {name}: {', '.join(passes)}" for name, passes in sorted(needing.items()))
    return [
        f"model.api_key_env: {unset} ({_where(deployment, lines, ('model', 'api_key_env'))}); "
        f"these model passes will be skipped on every run ({who})"
    ]


def preset_warnings(agent: AgentSettings) -> list[str]:
    """Learned skills left in the daemon's default folder (`skills/`) while the runtime's
    preset now puts the library where the runtime loads skills (`.claude/skills`,
    `.agents/skills`): an agent upgraded from before the presets would lose sight of them."""
    if agent.skills.learned == "skills":
        return []
    origin = next((e.origin for e in agent.origins if e.key == "skills.learned"), "")
    old = agent.home / "skills"
    if "preset" not in origin or not old.is_dir() or old.is_symlink():
        return []
    learned = sorted(p.parent.name for p in old.glob("*/SKILL.md") if (p.parent.parent / f"{p.parent.name}.provenance.json").exists())
    if not learned:
        return []
    return [
        f"agents.{agent.name}.skills.learned: the {agent.transcripts.format} preset puts the learned library in "
        f"{agent.skills.learned}, but {old} holds {len(learned)} skill(s) the daemon learned ({', '.join(learned[:3])}"
        f"{', …' if len(learned) > 3 else ''}); set skills.learned: skills to keep that library, or move them"
    ]


def setup_warnings(
    deployment: Deployment,
    access: ModelAccess,
    env: Mapping[str, str],
    model_passes: Collection[str],
    lines: Mapping[KeyPath, int],
) -> list[str]:
    """Every warning about transcripts that cannot be found and a model key that is missing.

    Agents that are switched off (`agents.<name>.enabled: false`) are not checked.
    """
    found: list[str] = []
    for name in deployment.agents:
        agent = deployment.agents[name]
        if agent.enabled:
            found.extend(transcript_warnings(deployment, agent, lines))
            found.extend(preset_warnings(agent))
    found.extend(key_warnings(deployment, access, env, model_passes, lines))
    return found

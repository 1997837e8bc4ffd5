"""From validated config models to per-agent effective settings, with where each came from.

Deployment-wide values are defaults; an agent's own keys override them in both
directions ("off everywhere except this agent" is a real configuration).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from daemon.config.coordination_settings import CoordinationTarget, resolve_coordination
from daemon.config.models import AgentConfig, DeploymentConfig
from daemon.config.overlap import agent_claims, claim_problems, transcript_claim, transcript_problems
from daemon.config.roots import relative_inside, root_problems
from daemon.config.secret_keys import base_url_problem, env_name_problem
from daemon.config.yamlmap import KeyPath
from daemon.kernel.cadence import CADENCES
from daemon.kernel.paths import AgentState
from daemon.kernel.runtime_files import INSTRUCTION_FILES, skill_folder, workspace_roles
from daemon.kernel.settings import (
    PASS_ORDER,
    AgentSettings,
    Effective,
    ModelSettings,
    SkillSources,
    WorkspaceRoles,
    key_preset_for,
)


@dataclass(frozen=True)
class Deployment:
    path: Path
    config: DeploymentConfig
    state_dir: Path
    agents: Mapping[str, AgentSettings]
    origins: tuple[Effective, ...] = field(default=(), compare=False)
    # None: budget, caps, breakers and locks in the state folder; else the shared database.
    coordination: CoordinationTarget | None = field(default=None, compare=False)
    # What is derived from an agent's store after each run it commits (the delivery index):
    # given by the composition root (`daemon.wiring.delivery.delivering`), called by the
    # applier with (agent, its state folder, now); each returns a note for the run or None.
    after_commit: tuple[Callable[[AgentSettings, AgentState, datetime], str | None], ...] = field(
        default=(), compare=False
    )

    @property
    def model(self) -> ModelSettings | None:
        return self.config.model

    def agent(self, name: str) -> AgentSettings:
        from daemon.kernel.errors import UnknownAgent

        if name not in self.agents:
            raise UnknownAgent(name, list(self.agents))
        return self.agents[name]


def _origin(lines: Mapping[KeyPath, int], path: KeyPath, config_name: str, scope: str) -> str | None:
    line = lines.get(path)
    return f"{scope} ({config_name}:{line})" if line else None


class UnknownUser(ValueError):
    """A configured path starts with `~user` for a user this system does not know."""

    def __init__(self, key: KeyPath, value: str) -> None:
        self.key = key
        self.value = value
        super().__init__(f"{value!r} names a user this system does not know")


def _resolve_path(base: Path, value: str, key: KeyPath) -> Path:
    """`value` made absolute against `base`, `~` and `~user` expanded; UnknownUser if it cannot be."""
    try:
        candidate = Path(value).expanduser()
    except RuntimeError:  # pathlib's "Could not determine home directory."
        raise UnknownUser(key, value) from None
    return (candidate if candidate.is_absolute() else base / candidate).resolve()


def _state_dir(config: DeploymentConfig, base: Path, env: Mapping[str, str]) -> Path:
    if config.state_dir:
        return _resolve_path(base, config.state_dir, ("state_dir",))
    if env.get("STATE_DIRECTORY"):
        # systemd may pass several colon-separated folders; the first is ours.
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    xdg = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME", "/var/lib")) / ".local" / "state")
    return Path(xdg) / "metaeng-daemon"


def _agent(
    name: str,
    agent: AgentConfig,
    config: DeploymentConfig,
    base: Path,
    lines: Mapping[KeyPath, int],
    config_name: str,
) -> AgentSettings:
    origins: list[Effective] = []

    def pick(key: str, agent_value: object, deployment_value: object, deployment_key: KeyPath) -> object:
        if agent_value is not None:
            origin = _origin(lines, ("agents", name, *key.split(".")), config_name, f"agent {name}")
            origins.append(Effective(key, agent_value, origin or f"agent {name}"))
            return agent_value
        origin = _origin(lines, deployment_key, config_name, "deployment")
        origins.append(Effective(key, deployment_value, origin or "default"))
        return deployment_value

    def own(key: str, value: object) -> None:
        path = ("agents", name, *key.split("."))
        origins.append(Effective(key, value, _origin(lines, path, config_name, f"agent {name}") or "default"))

    home = _resolve_path(base, agent.home, ("agents", name, "home"))
    own("home", str(home))
    own("enabled", agent.enabled)
    autonomy = str(pick("autonomy", agent.autonomy, config.autonomy, ("autonomy",)))
    cadence = str(pick("cadence", agent.cadence, config.cadence, ("cadence",)))
    origins.append(Effective("deep_cap", CADENCES[cadence].deep_passes_per_day, f"cadence preset {cadence}"))
    own("instruction_hold", agent.instruction_hold)
    budget = pick(
        "budget_usd", agent.budget_usd, config.budget.per_agent_daily_usd, ("budget", "per_agent_daily_usd")
    )
    assert isinstance(budget, float | int)
    passes: dict[str, bool] = {}
    for pass_name in PASS_ORDER:
        override = getattr(agent.passes, pass_name)
        value = pick(
            f"passes.{pass_name}", override, getattr(config.passes, pass_name), ("passes", pass_name)
        )
        passes[pass_name] = bool(value)
    transcript_root = (
        None
        if agent.transcripts.root is None
        else _resolve_path(base, agent.transcripts.root, ("agents", name, "transcripts", "root"))
    )
    managed = tuple(
        _resolve_path(base, p, ("agents", name, "skills", "managed", i)) for i, p in enumerate(agent.skills.managed)
    )
    packs = tuple(
        _resolve_path(base, p, ("agents", name, "skills", "packs", i)) for i, p in enumerate(agent.skills.packs)
    )
    fmt = agent.transcripts.format
    memory = agent.memory.with_view_for(fmt)
    skills, workspace, preset = _runtime_preset(agent, fmt)
    # what the runtime chose where the config is silent (shown as such by `config show`)
    chosen = {
        "memory.allowed_keys": f"{key_preset_for(fmt)} preset for runtime {fmt}",
        "memory.markdown_view": f"the default of runtime {fmt}",
        **{key: f"the preset of runtime {fmt}" for key in preset},
    }
    sections = {"transcripts": agent.transcripts, "skills": skills, "workspace": workspace, "memory": memory}
    given = {"transcripts": set(), "skills": agent.skills.model_fields_set,
             "workspace": agent.workspace.model_fields_set, "memory": agent.memory.model_fields_set}
    for section, model in sections.items():
        for key, value in model.model_dump(mode="json").items():
            if isinstance(value, dict):
                for sub, subvalue in value.items():
                    own(f"{section}.{key}.{sub}", subvalue)
            elif section == "transcripts" and key == "root":
                own("transcripts.root", str(transcript_root or home))  # shown resolved, like home
            elif f"{section}.{key}" in chosen and key not in given[section]:
                origins.append(Effective(f"{section}.{key}", value, chosen[f"{section}.{key}"]))
            else:
                own(f"{section}.{key}", value)
    return AgentSettings(
        name=name,
        home=home,
        enabled=agent.enabled,
        autonomy=autonomy,
        cadence=cadence,
        deep_cap=CADENCES[cadence].deep_passes_per_day,
        instruction_hold=agent.instruction_hold,
        budget_usd=float(budget),
        passes=passes,
        transcripts=agent.transcripts,
        skills=skills,
        managed_skill_dirs=managed,
        pack_skill_dirs=packs,
        workspace=workspace,
        memory=memory,
        explicit_transcript_root=transcript_root,
        origins=tuple(origins),
    )


def _runtime_preset(agent: AgentConfig, fmt: str) -> tuple[SkillSources, WorkspaceRoles, list[str]]:
    """The agent's skills and workspace sections with the runtime's preset where the config
    is silent (daemon.kernel.runtime_files), and the keys the preset set."""
    preset: list[str] = []
    skills = agent.skills
    folder = skill_folder(fmt)
    if folder is not None and "learned" not in skills.model_fields_set:
        skills = skills.model_copy(update={"learned": folder})
        preset.append("skills.learned")
    given = agent.workspace.model_fields_set
    # a file the config gives a role keeps it: the preset never lists it twice
    taken = {item for role in given if isinstance(files := getattr(agent.workspace, role), list) for item in files}
    roles = {
        role: [item for item in files if item not in taken]
        for role, files in workspace_roles(fmt).items()
        if role not in given
    }
    workspace = agent.workspace.model_copy(update=roles) if roles else agent.workspace
    preset += [f"workspace.{role}" for role in roles]
    return skills, workspace, preset


def _path_problems(name: str, settings: AgentSettings, origin: Callable[[KeyPath], str]) -> list[str]:
    """Overlaps among the paths one agent configures, and what its transcript glob may reach."""
    prefix = f"agents.{name}"
    claims = agent_claims(prefix, settings.workspace, settings.skills, settings.memory, origin)
    root, home = settings.transcript_root, settings.home
    transcripts = transcript_claim(
        prefix, settings.transcripts, origin, relative_inside(root, home), relative_inside(home, root)
    )
    problems = [*claim_problems(claims), *transcript_problems(claims, transcripts)]
    runtime_file = INSTRUCTION_FILES.get(settings.transcripts.format)
    if settings.memory.markdown_view is not None and settings.memory.markdown_view == runtime_file:
        # The view is rewritten by every run; the runtime's own file is a person's, changed
        # only through an approved proposal.
        problems.append(
            f"{prefix}.memory.markdown_view: {runtime_file} is the file {settings.transcripts.format} reads its "
            f"instructions from; the facts view would overwrite it: name another file "
            f"({origin((*prefix.split('.'), 'memory', 'markdown_view'))})"
        )
    return problems


def resolve(
    config: DeploymentConfig, path: Path, lines: Mapping[KeyPath, int], env: Mapping[str, str]
) -> tuple[Deployment, list[str]]:
    """Resolve paths and per-agent overrides; return the deployment and cross-field problems."""
    base = path.parent
    problems: list[str] = []
    agents: dict[str, AgentSettings] = {}

    def at(key_path: KeyPath) -> str:
        line = lines.get(key_path)
        return f"{path.name}:{line}" if line else path.name

    def line_of(key_path: KeyPath) -> str:
        line = lines.get(key_path)
        return f"{path.name}:{line}" if line else "default"

    def unknown_user(exc: UnknownUser) -> str:
        return f"{'.'.join(str(p) for p in exc.key)}: {exc} ({at(exc.key)})"

    checked_state: Path | None
    try:
        state_dir = checked_state = _state_dir(config, base, env)
    except UnknownUser as exc:
        problems.append(unknown_user(exc))
        # Stands in for the returned value only: the problem above makes the load fail.
        state_dir, checked_state = base / config.state_dir if config.state_dir else base, None

    for name, agent in config.agents.items():
        try:
            settings = _agent(name, agent, config, base, lines, path.name)
        except UnknownUser as exc:
            problems.append(unknown_user(exc))
            continue
        agents[name] = settings
        if not settings.home.is_dir():
            problems.append(
                f"agents.{name}.home: {settings.home} is not an existing folder ({at(('agents', name, 'home'))})"
            )
        for folder in (*settings.managed_skill_dirs, *settings.pack_skill_dirs):
            if folder == settings.home or settings.home in folder.parents:
                problems.append(
                    f"agents.{name}.skills: read-only skill folder {folder} is inside the agent home "
                    f"({at(('agents', name, 'skills'))}); managed and pack folders must live outside it"
                )
        if checked_state is not None and (state_dir == settings.home or settings.home in state_dir.parents):
            problems.append(
                f"state_dir: {state_dir} is inside the home of agent {name} ({at(('state_dir',))}); "
                "keep the daemon's state outside agent homes"
            )
        problems.extend(_path_problems(name, settings, line_of))
    # Overlap = same folder or one inside the other: look each home's ancestors up in a
    # map instead of comparing every pair (a thousand agents made that take seconds).
    by_home: dict[Path, list[str]] = {}
    for name in sorted(agents):
        by_home.setdefault(agents[name].home, []).append(name)
    pairs: set[tuple[str, str]] = set()
    for name, settings in agents.items():
        for folder in (settings.home, *settings.home.parents):
            for other in by_home.get(folder, ()):
                if other != name:
                    pairs.add((min(name, other), max(name, other)))
    for first, second in sorted(pairs):
        a, b = agents[first].home, agents[second].home
        problems.append(
            f"agents.{second}.home: {b} overlaps the home of agent {first} ({a}) "
            f"({at(('agents', second, 'home'))}); each agent needs its own folder"
        )
    roots = {
        name: (settings.explicit_transcript_root, line_of(("agents", name, "transcripts", "root")))
        for name, settings in agents.items()
        if settings.explicit_transcript_root is not None
    }
    homes = {name: settings.home for name, settings in agents.items()}
    problems.extend(root_problems(roots, homes, checked_state))
    origins = []
    for key in ("enabled", "mode", "cadence", "autonomy", "run_lock_timeout_seconds"):
        origin = _origin(lines, (key,), path.name, "deployment") or "default"
        origins.append(Effective(key, getattr(config, key), origin))
    origins.append(
        Effective(
            "state_dir",
            str(state_dir),
            _origin(lines, ("state_dir",), path.name, "deployment") or "environment/default",
        )
    )
    problems.extend(secret_key_problems(config, at))
    coordination, coordination_problems = resolve_coordination(config.coordination, state_dir, env, at)
    problems.extend(coordination_problems)
    for section in ("model", "budget", "service", "coordination"):
        model = getattr(config, section)
        if model is None:
            origins.append(Effective(section, None, "default (not configured)"))
            continue
        for key, value in model.model_dump(mode="json").items():
            origin = _origin(lines, (section, key), path.name, "deployment") or "default"
            origins.append(Effective(f"{section}.{key}", value, origin))
    deployment = Deployment(
        path=path,
        config=config,
        state_dir=state_dir,
        agents=agents,
        origins=tuple(origins),
        coordination=coordination,
    )
    return deployment, problems


def secret_key_problems(config: DeploymentConfig, at: Callable[[KeyPath], str]) -> list[str]:
    """Problems of the keys that must carry no secret (coordination.url has its own), with lines."""
    checks: list[tuple[KeyPath, str | None]] = []
    if config.model is not None:
        checks.append((("model", "base_url"), base_url_problem(config.model.base_url)))
        if config.model.api_key_env is not None:
            checks.append((("model", "api_key_env"), env_name_problem(config.model.api_key_env)))
    if config.coordination is not None and config.coordination.password_env is not None:
        checks.append((("coordination", "password_env"), env_name_problem(config.coordination.password_env)))
    checks.extend((("redact_env", i), env_name_problem(name)) for i, name in enumerate(config.redact_env))
    return [
        f"{'.'.join(str(part) for part in key)}: {problem} ({at(key)})"
        for key, problem in checks
        if problem is not None
    ]

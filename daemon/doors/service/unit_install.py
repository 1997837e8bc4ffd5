"""Where `install-service` puts the unit, what a user unit needs as its own, and the steps left.

The command reads the environment and the caller's uid at the edge and passes them in;
these functions only read the file system (who owns a path, where a link leads).
"""

from __future__ import annotations

import os
import pwd
import shlex
from collections.abc import Mapping
from pathlib import Path

from daemon.config.resolve import Deployment
from daemon.doors.service.unit import Manager, UnitParams
from daemon.kernel.errors import DaemonError

SYSTEM_UNIT_DIR = Path("/etc/systemd/system")

# The system manager's unit load path (man systemd.unit, "Unit File Load Path"; what
# `systemd-analyze unit-paths` prints on Debian 12). /lib is /usr/lib on a merged /usr.
SYSTEM_LOAD_PATH = (
    "/etc/systemd/system.control",
    "/run/systemd/system.control",
    "/run/systemd/transient",
    "/run/systemd/generator.early",
    "/etc/systemd/system",
    "/etc/systemd/system.attached",
    "/run/systemd/system",
    "/run/systemd/system.attached",
    "/run/systemd/generator",
    "/usr/local/lib/systemd/system",
    "/lib/systemd/system",
    "/usr/lib/systemd/system",
    "/run/systemd/generator.late",
)


def xdg_home(env: Mapping[str, str], variable: str, fallback: str) -> Path:
    """`$variable` when it holds an absolute path (the XDG rule), else `$HOME/fallback`.

    Raises DaemonError when neither is set: there is no home to put a user unit in.
    """
    value = env.get(variable, "")
    if value and Path(value).is_absolute():
        return Path(value)
    home = env.get("HOME", "")
    if not home:
        raise DaemonError(f"neither ${variable} nor $HOME is set: cannot place the user unit's files")
    return Path(home) / fallback


def _xdg_dirs(env: Mapping[str, str], variable: str, default: str) -> list[Path]:
    return [Path(d) for d in (env.get(variable) or default).split(":") if d and Path(d).is_absolute()]


def user_load_path(env: Mapping[str, str]) -> list[Path]:
    """A user manager's unit load path under this environment (man systemd.unit, table 2)."""
    config = xdg_home(env, "XDG_CONFIG_HOME", ".config") / "systemd"
    data = xdg_home(env, "XDG_DATA_HOME", ".local/share") / "systemd"
    runtime = env.get("XDG_RUNTIME_DIR", "")
    run = ("user.control", "transient", "generator.early", "user", "generator", "generator.late")
    return [
        config / "user.control",
        config / "user",
        *(d / "systemd" / "user" for d in _xdg_dirs(env, "XDG_CONFIG_DIRS", "/etc/xdg")),
        Path("/etc/systemd/user"),
        Path("/run/systemd/user"),
        data / "user",
        *(d / "systemd" / "user" for d in _xdg_dirs(env, "XDG_DATA_DIRS", "/usr/local/share:/usr/share")),
        Path("/usr/local/lib/systemd/user"),
        Path("/usr/lib/systemd/user"),
        *(Path(runtime) / "systemd" / d for d in run if runtime),
    ]


def default_unit_dir(manager: Manager, env: Mapping[str, str]) -> Path:
    """/etc/systemd/system, or a user's $XDG_CONFIG_HOME/systemd/user."""
    if manager == "system":
        return SYSTEM_UNIT_DIR
    return xdg_home(env, "XDG_CONFIG_HOME", ".config") / "systemd" / "user"


def in_load_path(unit_dir: Path, manager: Manager, env: Mapping[str, str]) -> bool:
    """Whether the manager finds a unit in `unit_dir` by its name (else it must be linked in)."""
    wanted = os.path.realpath(unit_dir)
    folders = SYSTEM_LOAD_PATH if manager == "system" else user_load_path(env)
    return any(os.path.realpath(folder) == wanted for folder in folders)


def _who(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def foreign_paths(deployment: Deployment, unit_dir: Path, uid: int) -> list[str]:
    """What a user unit running as `uid` would need to own but does not, one line each.

    The config, the state folder, the agent homes, their managed skill folders and the
    unit folder: each, or the nearest folder above it that exists (where it will be
    created), must belong to `uid`. A user manager runs its services with the person's
    rights only, and a unit written as root into a person's home is not theirs to edit.
    """
    paths: list[tuple[str, Path]] = [("config", deployment.path), ("state_dir", deployment.state_dir)]
    for agent in deployment.agents.values():
        paths.append((f"agents.{agent.name}.home", agent.home))
        paths.extend((f"agents.{agent.name}.skills", folder) for folder in agent.managed_skill_dirs)
    paths.append(("the unit folder", unit_dir))
    found: list[str] = []
    for key, path in paths:
        existing = _nearest_existing(path)
        owner = existing.stat().st_uid
        if owner == uid:
            continue
        if existing == path:
            line = f"{key}: {path} is owned by {_who(owner)}"
        else:
            line = f"{key}: {path} is not there yet and {existing}, where it would be created, is owned by {_who(owner)}"
        if line not in found:
            found.append(line)
    return found


def refuse_foreign(deployment: Deployment, unit_dir: Path, uid: int) -> None:
    """Raise DaemonError naming every path of `foreign_paths`, if any."""
    found = foreign_paths(deployment, unit_dir, uid)
    if found:
        raise DaemonError(
            f"--user writes a unit that runs as you, {_who(uid)}, but {'; '.join(found)}: run "
            "install-service --user as the owner of these paths, or install the system unit (without --user)"
        )


def root_warnings(uid: int) -> list[str]:
    """For a user unit installed as `uid`: root's is root's own, running only while root is logged in or lingering."""
    if uid == 0:
        return [
            "you are root: this user unit belongs to root's own user manager; for a service that runs "
            "at boot as its own account, install the system unit (without --user)"
        ]
    return []


def next_steps(params: UnitParams, target: Path, by_name: bool, usual_dir: Path) -> list[str]:
    """The commands left to run after writing `target`, as root (system) or as the person (user).

    `by_name`: the manager finds `target` by its name; otherwise the first `systemctl` step
    links the file into the load path (`systemctl link` takes an absolute path).
    """
    system = params.manager == "system"
    ctl = "systemctl" if system else "systemctl --user"
    steps: list[str] = []
    if system:
        steps += [
            f"useradd --system --no-create-home --shell /usr/sbin/nologin {shlex.quote(params.user)}  "
            "# if the user does not exist",
            # Quoted for the shell: `chown -R` of a home named "my agents" must not take "my" as a path.
            f"chown -R {shlex.quote(params.user)} {' '.join(shlex.quote(p) for p in params.writable)}  "
            "# or give --agents-group write access to the homes",
        ]
    if params.credential:
        key = shlex.quote(f"{params.config_dir}/{params.credential}")
        install = "install -m 0600 -o root -g root" if system else "install -D -m 0600"
        steps.append(f"{install} /dev/stdin {key}  # paste the API key, then Ctrl-D")
    steps.append(f"systemd-analyze {'' if system else '--user '}verify {shlex.quote(str(target))}")
    if not by_name:
        steps.append(
            f"{ctl} link {shlex.quote(str(target.absolute()))}  # its folder is not where systemd looks for "
            f"units: this links it in (or move it into {shlex.quote(str(usual_dir))})"
        )
    steps.append(f"{ctl} daemon-reload && {ctl} enable --now metaeng-daemon")
    if not system:
        steps.append(
            "loginctl enable-linger $USER  # keep it running after you log out, and start it at boot"
        )
    steps.append(
        f"journalctl {'' if system else '--user '}-u metaeng-daemon -f  "
        f"# logs; `{ctl} reload metaeng-daemon` after editing the config"
    )
    return steps

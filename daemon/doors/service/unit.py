"""The systemd unit, rendered from one template for the system manager and a user manager.

`systemd/metaeng-daemon.service` in the repository is `render_unit(UnitParams())` (a test
keeps the two identical); `metaeng-daemon install-service` renders the same template
with the paths of the actual installation and config, and `install-service --user` its
user-manager variant (no account switch, no file-system sandbox; see `USER_LEFT_OFF`).
systemd reads `#` only at the start of a line, so every directive has its comment on the
line above.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from daemon.config.resolve import Deployment
from daemon.kernel.errors import DaemonError
from daemon.kernel.name_patterns import NamePattern

DEFAULT_EXEC = "/opt/metaeng-daemon/venv/bin/metaeng-daemon"
DEFAULT_CONFIG = "/etc/metaeng-daemon/config.yaml"
CREDENTIALS_DIR = "/etc/metaeng-daemon"
SERVICE_ACCOUNT = "metaeng-daemon"

Manager = Literal["system", "user"]


@dataclass(frozen=True)
class UnitParams:
    executable: str = DEFAULT_EXEC
    config: str = DEFAULT_CONFIG
    user: str = SERVICE_ACCOUNT
    group: str = SERVICE_ACCOUNT
    agents_group: str | None = None
    writable: Sequence[str] = field(default_factory=lambda: ("/srv/agents",))
    credential: str | None = "openai_api_key"
    # "user": a unit for the person's own systemd (`systemctl --user`); user, group and
    # agents_group are then unused, and `state_directory` pins the state folder.
    manager: Manager = "system"
    state_directory: str | None = None
    # The folder of the optional env file and the API key file.
    config_dir: str = CREDENTIALS_DIR


def params_for(
    deployment: Deployment,
    executable: str,
    user: str = SERVICE_ACCOUNT,
    group: str = SERVICE_ACCOUNT,
    agents_group: str | None = None,
    manager: Manager = "system",
    config_dir: str = CREDENTIALS_DIR,
) -> UnitParams:
    """Unit parameters for this deployment: its config, agent homes, state dir and API key name.

    For a user unit without `state_dir` in the config, the state folder the deployment
    resolved ($XDG_STATE_HOME/metaeng-daemon) is pinned in the unit, so the service and a
    `status` from the person's shell use the same folder.
    """
    writable = sorted({str(a.home) for a in deployment.agents.values()})
    if deployment.config.state_dir is not None or manager == "user":
        writable.append(str(deployment.state_dir))  # otherwise the system unit's StateDirectory= provides it
    model = deployment.model
    credential = model.api_key_env.lower() if model is not None and model.api_key_env else None
    pinned = manager == "user" and deployment.config.state_dir is None
    return UnitParams(
        executable=executable,
        config=str(deployment.path),
        user=user,
        group=group,
        agents_group=agents_group,
        writable=tuple(writable),
        credential=credential,
        manager=manager,
        state_directory=str(deployment.state_dir) if pinned else None,
        config_dir=config_dir,
    )


PRIVATE_TMP = ("/tmp", "/var/tmp")


def private_tmp_warnings(deployment: Deployment) -> list[str]:
    """The deployment's paths the unit's `PrivateTmp=yes` would hide from the service.

    Under PrivateTmp the service sees an empty /tmp and /var/tmp of its own: a config, a
    home, the state folder, a transcript root or a skill folder kept there (the README's
    demo lives in /tmp) silently vanishes for the daemon.
    """
    paths: list[tuple[str, Path]] = [("config", deployment.path), ("state_dir", deployment.state_dir)]
    for agent in deployment.agents.values():
        paths.append((f"agents.{agent.name}.home", agent.home))
        paths.append((f"agents.{agent.name}.transcripts.root", agent.transcript_root))
        for folder in (*agent.managed_skill_dirs, *agent.pack_skill_dirs):
            paths.append((f"agents.{agent.name}.skills", folder))
    found: list[str] = []
    for key, path in paths:
        text = str(path)
        hidden = next((t for t in PRIVATE_TMP if text == t or text.startswith(t + "/")), None)
        if hidden is not None and f"{key}: {text}" not in found:
            found.append(f"{key}: {text}")
    return [
        f"{item} is under {'/tmp or /var/tmp'}; the unit sets PrivateTmp=yes, so the service would "
        "see an empty folder there: move it (for example to /srv or /var/lib) before enabling the unit"
        for item in found
    ]


def _refuse_control(text: str, what: str) -> None:
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise DaemonError(f"{what} {text!r} contains a control character; a systemd unit cannot carry it")


def unit_rest(text: str, what: str) -> str:
    """`text` as the verbatim rest of a directive (a path after `LoadCredential=ID:`, `EnvironmentFile=-`).

    systemd takes these as they are, spaces included, with no unquoting: only `%` (a
    specifier) is doubled. A control character, or a space at either end (which the line
    parser would drop), is refused, naming `what`.
    """
    _refuse_control(text, what)
    if text != text.strip():
        raise DaemonError(f"{what} {text!r} starts or ends with a space; a systemd unit cannot carry it")
    return text.replace("%", "%%")


def unit_word(text: str, what: str) -> str:
    """`text` as one word of a unit directive, meaning exactly `text` to systemd.

    systemd expands `%` specifiers in these values whether quoted or not (`%h` is a home
    folder), so `%` is doubled; a word with whitespace or quotes is double-quoted with C-style
    backslash escapes. A control character cannot be carried: a line break would end the
    directive and start a new one, so it is refused, naming `what`.
    """
    _refuse_control(text, what)
    escaped = text.replace("%", "%%")
    if any(c.isspace() or c in "\"'\\" for c in escaped):
        return '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return escaped


# systemd's relaxed user and group names (what User= takes, with a notice, beyond the strict
# ones: john.doe, svc$, jdoe@corp.example.com), or a numeric id. Never whitespace, a control
# character, ':' or '/', a leading '-', '.' or '..': a line break would add a directive to the
# unit. Quotes, backslashes and '%' (a specifier) are refused too, so the name is written as is.
ACCOUNT_NAME = NamePattern(
    "user or group name",
    re.compile(r"(?!-)(?!\.{1,2}\Z)[^\s\x00-\x1f\x7f:/\\\"'%]{1,256}"),
    "a user or group name systemd accepts (no spaces, control characters, quotes, ':', '/', '\\' or '%', "
    "not starting with '-', at most 256 characters)",
    "metaeng",
)


def account_name(text: str) -> str:
    """An argparse type for --user and --group: a name systemd accepts."""
    if not ACCOUNT_NAME.accepts(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not {ACCOUNT_NAME.rule}")
    return text


# What a user unit leaves off, and why: the unit says so in comments at its end.
USER_LEFT_OFF = (
    "# Left off for a user manager, which runs unprivileged: ProtectSystem=, ProtectHome=, ReadWritePaths=,",
    "# PrivateTmp=, PrivateDevices=, ProtectKernel*=, ProtectClock= and ProtectHostname= need a mount namespace,",
    "# which it sets up only inside a user namespace (PrivateUsers=, implied by them since systemd 253). Some",
    "# kernels and distributions turn unprivileged user namespaces off or restrict them, and the service then",
    "# fails to start ('Failed to set up user namespacing'); systemd 252 ignores the directives instead. So the",
    "# service has your rights, no more; the seccomp filters above need no namespace and stay.",
    "# ProtectControlGroups= is for system services only. CapabilityBoundingSet= needs privileges a user manager",
    "# lacks: your processes hold no capabilities, and NoNewPrivileges= keeps it so.",
    "# No After=network-online.target: a user manager cannot order against the system's network; a run made",
    "# while the laptop is offline fails its model calls as with any unreachable endpoint.",
)


def render_unit(params: UnitParams) -> str:
    """The unit file for `params`; raises DaemonError for a path that a unit line cannot carry."""
    system = params.manager == "system"
    exe = unit_word(params.executable, "the executable")
    config_dir = unit_rest(params.config_dir, "the config folder")
    lines = [
        "# metaeng-daemon: maintains AI agents between their conversations "
        f"(metaeng-daemon install-service{'' if system else ' --user'}).",
        "[Unit]",
        "# What `systemctl status` shows.",
        "Description=metaeng-daemon: scheduled maintenance of AI agents (facts, skills, workspace)",
    ]
    if system:
        lines += [
            "# The model endpoint may be remote: start once the network is up (add After= for a local model server).",
            "After=network-online.target",
            "# Ask for the network-online target without requiring it.",
            "Wants=network-online.target",
        ]
    lines += [
        "# Count restarts over ten minutes ...",
        "StartLimitIntervalSec=10min",
        "# ... and give up after five, so a crash loop cannot hammer the model endpoint.",
        "StartLimitBurst=5",
        "",
        "[Service]",
        "# The daemon sends READY=1 once the config validated, the schedule is built and the watches are armed.",
        "Type=notify",
        "# Only the main process may send notifications.",
        "NotifyAccess=main",
        "# Which deployment file to serve (read by every metaeng-daemon command).",
        f"Environment=METAENG_CONFIG={unit_word(params.config, 'the config path')}",
    ]
    if params.state_directory:
        lines += [
            "# The state folder install-service resolved ($XDG_STATE_HOME/metaeng-daemon), the one `status` reads;",
            "# not StateDirectory=, which systemd before 254 puts under $XDG_CONFIG_HOME for a user unit.",
            f"Environment=STATE_DIRECTORY={unit_word(params.state_directory, 'the state folder')}",
        ]
    lines += [
        "# Log lines reach the journal at once.",
        "Environment=PYTHONUNBUFFERED=1",
    ]
    lines += [
        "# Optional non-secret settings (e.g. METAENG_LOG_LEVEL=debug); the leading '-' allows it to be absent.",
        f"EnvironmentFile=-{config_dir}/env",
    ]
    if params.credential:
        lines += [
            "# The model API key as a credential file readable only by this service (never in the environment);",
            f"# the daemon reads $CREDENTIALS_DIRECTORY/{params.credential}. "
            f"Create it mode 0600{', owned by root' if system else ''}.",
            f"LoadCredential={params.credential}:{config_dir}/{params.credential}",
        ]
    lines += [
        "# Refuse to start with an invalid config: every problem is logged with its file line.",
        f"ExecStartPre={exe} config check",
        "# The long-running process: absolute path into its virtual environment, no shell.",
        f"ExecStart={exe} run",
        "# systemd 252 has no Type=notify-reload: reload = SIGHUP (an invalid new config is logged, the old one kept).",
        "ExecReload=/bin/kill -HUP $MAINPID",
        "# SIGTERM to the main process only, so a git commit in a child is not cut; SIGKILL to the rest at the end.",
        "KillMode=mixed",
        "# Start-up (recovery, schedule, watches) must finish within a minute.",
        "TimeoutStartSec=60s",
        "# Runs in progress finish on stop (service.stop_timeout_seconds, default 90 s) before this kills them.",
        "TimeoutStopSec=120s",
        "# The daemon pings every third of this while its scheduler heartbeat is fresh; a wedged daemon is restarted.",
        "WatchdogSec=120s",
        "# Restart after a crash or a watchdog abort ...",
        "Restart=on-failure",
        "# ... after a pause.",
        "RestartSec=10s",
    ]
    lines += (
        _system_identity(params)
        if system
        else [
            "# New files: yours only (the service and the agents it maintains all run as you).",
            "UMask=0077",
        ]
    )
    lines += [
        "# No privilege gain through setuid binaries or file capabilities.",
        "NoNewPrivileges=yes",
    ]
    if system:
        lines += [
            "# No capabilities at all.",
            "CapabilityBoundingSet=",
            "# The daemon needs none of: kernel tunables ...",
            "ProtectKernelTunables=yes",
            "# ... kernel modules ...",
            "ProtectKernelModules=yes",
            "# ... the kernel log ...",
            "ProtectKernelLogs=yes",
            "# ... the cgroup tree ...",
            "ProtectControlGroups=yes",
            "# ... the system clock ...",
            "ProtectClock=yes",
            "# ... or the host name.",
            "ProtectHostname=yes",
        ]
    lines += [
        "# AF_UNIX for the notify socket, IP for the model endpoint; no other socket families.",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "# No new namespaces.",
        "RestrictNamespaces=yes",
        "# No realtime scheduling.",
        "RestrictRealtime=yes",
        "# No setuid/setgid files.",
        "RestrictSUIDSGID=yes",
        "# No change of execution domain.",
        "LockPersonality=yes",
        "# Native system calls only.",
        "SystemCallArchitectures=native",
        "# The system calls of an ordinary service (Python, git), nothing more.",
        "SystemCallFilter=@system-service",
        "# A refused system call fails with EPERM instead of killing the process.",
        "SystemCallErrorNumber=EPERM",
        "# Bound runaway memory ...",
        "MemoryMax=1G",
        "# ... and threads and processes (run pool, watcher, git children).",
        "TasksMax=128",
        "# The name on every journal line.",
        "SyslogIdentifier=metaeng-daemon",
        "# MemoryDenyWriteExecute= is left off on purpose: cffi/libffi closures need writable+executable memory.",
        "# PrivateNetwork= is left off on purpose: the model endpoint needs the network.",
    ]
    if not system:
        lines += USER_LEFT_OFF
    lines += [
        "",
        "[Install]",
        *(
            ("# Start at boot with the other services.", "WantedBy=multi-user.target")
            if system
            else (
                "# Start with your user manager: at login, or at boot with `loginctl enable-linger`.",
                "WantedBy=default.target",
            )
        ),
    ]
    return "\n".join(lines) + "\n"


def _system_identity(params: UnitParams) -> list[str]:
    """The system unit's account, its folders and its file-system sandbox."""
    rw = " ".join("-" + unit_word(p, "the writable path") for p in params.writable)
    lines = [
        "# Never run as root.",
        f"User={params.user}",
        "# The service's own group.",
        f"Group={params.group}",
    ]
    if params.agents_group:
        lines += [
            "# Group that owns the agent homes: the daemon writes their workspace files through it.",
            f"SupplementaryGroups={params.agents_group}",
        ]
    lines += [
        "# New files: readable and writable by owner and group (agents share files with the daemon), nothing for others.",
        "UMask=0007",
        "# /var/lib/metaeng-daemon: git stores, cursors, spend ledger, locks (used when the config sets no state_dir).",
        "StateDirectory=metaeng-daemon",
        "# The state holds transcripts' derived facts: owner only.",
        "StateDirectoryMode=0700",
        "# /etc/metaeng-daemon: the deployment YAML and the key file (read-only for the service).",
        "ConfigurationDirectory=metaeng-daemon",
        "# The whole file system is read-only for the service ...",
        "ProtectSystem=strict",
        "# ... /home and /root too, but still readable (agent homes may live there) ...",
        "ProtectHome=read-only",
        "# ... except the agent homes (and a state_dir set in the config); '-' ignores a missing path.",
        f"ReadWritePaths={rw}",
        "# A private /tmp, removed on stop.",
        "PrivateTmp=yes",
        "# No access to physical devices.",
        "PrivateDevices=yes",
    ]
    return lines


def unit_path(unit_dir: Path) -> Path:
    return unit_dir / "metaeng-daemon.service"

"""Which paths of an agent home the daemon manages, and the git exclude rules that say so.

The store's work tree is the whole agent home, but it tracks only these paths: workspace
files, daily logs, the learned skill library, the daemon's own folder (facts, review
queue, fork bases). Transcripts and everything else stay untracked, so plain `git status`
on the store shows only what the daemon may change.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from daemon.kernel.atomic import TMP_MARKER
from daemon.kernel.home_scan import HomeScan, scan_home
from daemon.kernel.paths import HOME_LOCK, META_DIR
from daemon.kernel.runtime_files import HOOK_FILES, INSTRUCTION_FILES
from daemon.kernel.settings import AgentSettings

__all__ = ["HomeScan", "ManagedPaths", "managed_paths"]


@dataclass(frozen=True)
class ManagedPaths:
    files: frozenset[str]
    dirs: frozenset[str]

    def covers(self, rel: str) -> bool:
        """True if the relative path `rel` is inside the managed set."""
        if rel in self.files:
            return True
        return any(rel == d or rel.startswith(d + "/") for d in self.dirs)

    def exclude_rules(self) -> str:
        """A gitignore body that ignores everything except the managed paths."""
        tree: dict[str, object] = {}
        for entry in sorted(self.files | self.dirs):
            parts = entry.split("/")
            node = tree
            for part in parts[:-1]:
                child = node.setdefault(part, {})
                if child is True:
                    break
                node = child  # type: ignore[assignment]
            else:
                node[parts[-1]] = True
        lines = ["# written by metaeng-daemon: track only the paths it manages", "/*"]

        def emit(prefix: str, node: dict[str, object]) -> None:
            for name in sorted(node):
                child = node[name]
                if child is True:
                    suffix = "/" if f"{prefix}{name}" in self.dirs else ""
                    lines.append(f"!/{prefix}{name}{suffix}")
                else:
                    lines.append(f"!/{prefix}{name}/")
                    lines.append(f"/{prefix}{name}/*")
                    emit(f"{prefix}{name}/", child)  # type: ignore[arg-type]

        emit("", tree)
        lines.append(f"*{TMP_MARKER}*")
        lines.append(f"/{HOME_LOCK}")
        lines.append(".git")
        return "\n".join(lines) + "\n"

    def scan(self, home: Path) -> HomeScan:
        """Walk the managed paths under `home` without following any symlink."""
        return scan_home(home, self.files, self.dirs)


def managed_paths(agent: AgentSettings) -> ManagedPaths:
    roles = agent.workspace
    files = {*roles.identity, *roles.behaviour, *roles.instructions, *roles.long_memory}
    dirs = {roles.daily_logs, agent.skills.learned, META_DIR}
    # The runtime's instruction file and hook settings: only ever changed by an approved
    # wiring proposal.
    wired = INSTRUCTION_FILES.get(agent.transcripts.format)
    hooks = HOOK_FILES.get(agent.transcripts.format)
    for extra in (agent.memory.store, agent.memory.markdown_view, wired, hooks):
        if extra and not any(extra == d or extra.startswith(d + "/") for d in dirs):
            files.add(extra)
    # The fact store's shard folder (memory_engine.fact_shards.shard_root).
    shards = agent.memory.store + ".d"
    if not any(shards.startswith(d + "/") for d in dirs):
        dirs.add(shards)
    # A file inside a managed folder is covered by the folder.
    files = {f for f in files if not any(f.startswith(d + "/") for d in dirs)}
    # A folder inside another managed folder is covered by the outer one.
    dirs = {d for d in dirs if not any(d != o and d.startswith(o + "/") for o in dirs)}
    return ManagedPaths(frozenset(files), frozenset(dirs))

"""Paths an agent configures must not overlap: one role never overwrites another (pure).

Every path an agent names inside its home — the workspace role files, the daily-log
folder, the learned-skills folder, the fact store, the markdown view — and the daemon's
own folder `.metaeng` (and the fact store's shard folder, `<store>.d`) are checked against each other: the same path twice, or one inside
the other, is a problem naming both keys and their config lines ("default" when the key
is not in the file). The one legitimate nesting is the fact store as a `.jsonl` file
directly in `.metaeng` (its default, `.metaeng/facts.jsonl`). A path that is the home
itself (`.`) is a problem too.

The transcript glob must not be able to match a managed file or reach into a managed
folder (decided by `daemon.kernel.globmatch`, no file system), and an explicit transcript root
inside the home must not sit in a managed path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from daemon.config.yamlmap import KeyPath
from daemon.kernel.globmatch import Segments, matches, reaches_below, split, static_folder
from daemon.kernel.paths import META_DIR
from daemon.kernel.settings import AgentMemory, SkillSources, TranscriptSettings, WorkspaceRoles

ROLE_KEYS = ("identity", "behaviour", "instructions", "long_memory")
STORE_SUFFIX = ".jsonl"
SHARD_FOLDER_SUFFIX = ".d"


@dataclass(frozen=True)
class Claim:
    """One path of the home that a key gives a role to.

    `origin` is `config.yaml:12` or `default`; None for the daemon's own folder, which no
    key configures.
    """

    key: str
    origin: str | None
    path: str
    folder: bool
    may_sit_in_meta: bool = False

    @property
    def label(self) -> str:
        return f"{self.key} ({self.origin})" if self.origin else self.key

    @property
    def segments(self) -> Segments:
        return split(self.path)


META = Claim("the daemon's own folder .metaeng", None, META_DIR, folder=True)


@dataclass(frozen=True)
class TranscriptClaim:
    """The transcript glob, and where its base (the transcript root) sits relative to the home.

    `root_in_home` is the root relative to the home when the root is the home or inside it;
    `home_in_root` is the home relative to the root when the home is the root or inside
    it; both None when the two are apart (the glob then cannot reach the home).
    """

    glob_key: str
    glob_origin: str
    pattern: str
    root_key: str
    root_origin: str
    root_in_home: str | None
    home_in_root: str | None


def agent_claims(
    prefix: str,
    workspace: WorkspaceRoles,
    skills: SkillSources,
    memory: AgentMemory,
    origin: Callable[[KeyPath], str],
) -> list[Claim]:
    """The claims of one agent; `prefix` is `agents.<name>`, `origin` maps a key path to its origin."""
    head = tuple(prefix.split("."))
    claims: list[Claim] = []
    for role in ROLE_KEYS:
        for index, item in enumerate(getattr(workspace, role)):
            where = origin((*head, "workspace", role, index))
            if where == "default":
                where = origin((*head, "workspace", role))
            claims.append(Claim(f"{prefix}.workspace.{role}", where, item, folder=False))
    claims.append(
        Claim(
            f"{prefix}.workspace.daily_logs",
            origin((*head, "workspace", "daily_logs")),
            workspace.daily_logs,
            folder=True,
        )
    )
    claims.append(
        Claim(f"{prefix}.skills.learned", origin((*head, "skills", "learned")), skills.learned, folder=True)
    )
    if memory.markdown_view:
        claims.append(
            Claim(
                f"{prefix}.memory.markdown_view",
                origin((*head, "memory", "markdown_view")),
                memory.markdown_view,
                folder=False,
            )
        )
    claims.append(
        Claim(
            f"{prefix}.memory.store",
            origin((*head, "memory", "store")),
            memory.store,
            folder=False,
            may_sit_in_meta=True,
        )
    )
    # The shards live in a folder next to the store's name (memory_engine.fact_shards).
    claims.append(
        Claim(
            f"{prefix}.memory.store's shard folder",
            origin((*head, "memory", "store")),
            memory.store + SHARD_FOLDER_SUFFIX,
            folder=True,
            may_sit_in_meta=True,
        )
    )
    claims.append(META)
    return claims


def transcript_claim(
    prefix: str,
    transcripts: TranscriptSettings,
    origin: Callable[[KeyPath], str],
    root_in_home: str | None,
    home_in_root: str | None,
) -> TranscriptClaim:
    head = tuple(prefix.split("."))
    return TranscriptClaim(
        glob_key=f"{prefix}.transcripts.glob",
        glob_origin=origin((*head, "transcripts", "glob")),
        pattern=transcripts.glob,
        root_key=f"{prefix}.transcripts.root",
        root_origin=origin((*head, "transcripts", "root")),
        root_in_home=root_in_home,
        home_in_root=home_in_root,
    )


def _kind(a: Claim, b: Claim) -> str:
    if a.folder and b.folder:
        return "folder"
    return "path" if a.folder or b.folder else "file"


def _named_first(a: Claim, b: Claim) -> tuple[Claim, Claim]:
    """The key a person wrote in the file first, then the default (stable otherwise)."""
    return (b, a) if a.origin in (None, "default") and b.origin not in (None, "default") else (a, b)


def _legit_in_meta(inner: Claim, outer: Claim) -> bool:
    segments = inner.segments
    return (
        outer is META
        and inner.may_sit_in_meta
        and len(segments) == 2
        and segments[1].removesuffix(SHARD_FOLDER_SUFFIX if inner.folder else "").endswith(STORE_SUFFIX)
    )


def _contained(inner: Claim, outer: Claim) -> str:
    why = "give each its own path"
    if outer is META:
        why = f"only the fact store may sit there, as a {STORE_SUFFIX} file directly in {META_DIR}"
    elif not outer.folder:
        why = f"{outer.path} is a file"
    return f"{inner.label} is inside {outer.label}: {inner.path} is inside {outer.path}; {why}"


def claim_problems(claims: Sequence[Claim]) -> list[str]:
    """Every pair of claims that is the same path or nested, and every claim of the home itself."""
    problems: list[str] = []
    usable: list[Claim] = []
    for claim in claims:
        if claim.segments:
            usable.append(claim)
            continue
        what = "folder" if claim.folder else "file"
        problems.append(
            f"{claim.label} is the agent home itself ({claim.path!r}); name a {what} inside the home"
        )
    for i, a in enumerate(usable):
        for b in usable[i + 1 :]:
            sa, sb = a.segments, b.segments
            if sa == sb:
                first, second = _named_first(a, b)
                problems.append(f"{first.label} is the same {_kind(a, b)} as {second.label}: {'/'.join(sa)}")
            elif sb[: len(sa)] == sa and not _legit_in_meta(b, a):
                problems.append(_contained(b, a))
            elif sa[: len(sb)] == sb and not _legit_in_meta(a, b):
                problems.append(_contained(a, b))
    return problems


def _narrow_hint(pattern: str) -> str:
    if not static_folder(pattern):
        return f"narrow the glob to the transcripts' own folder, e.g. transcripts/{'/'.join(split(pattern))}"
    return "point the glob at a folder that holds only transcripts"


def transcript_problems(claims: Sequence[Claim], transcripts: TranscriptClaim) -> list[str]:
    """Managed paths the glob could name, and a transcript root inside a managed path."""
    t = transcripts
    problems: list[str] = []
    usable = [c for c in claims if c.segments]
    if t.root_in_home is not None:
        root = split(t.root_in_home)
        for claim in usable:
            if root and root[: len(claim.segments)] == claim.segments:
                relation = "the same path as" if root == claim.segments else "inside"
                problems.append(
                    f"{t.root_key} ({t.root_origin}) is {relation} {claim.label}: {t.root_in_home}; "
                    "keep transcripts out of the paths the daemon manages"
                )
        if problems:
            return problems
        targets = [(c, c.segments[len(root) :]) for c in usable if c.segments[: len(root)] == root]
    elif t.home_in_root is not None:
        home = split(t.home_in_root)
        targets = [(c, home + c.segments) for c in usable]
    else:
        return problems
    at_home = t.root_in_home is not None and not split(t.root_in_home)
    relative = "" if at_home else " (relative to the transcript root)"
    for claim, target in targets:
        shown = "/".join(target)
        if matches(t.pattern, target):
            problems.append(
                f"{t.glob_key} ({t.glob_origin}) matches {claim.label}: {shown}{relative}; "
                f"{_narrow_hint(t.pattern)}"
            )
        elif claim.folder and reaches_below(t.pattern, target):
            problems.append(
                f"{t.glob_key} ({t.glob_origin}) can match files inside {claim.label}: "
                f"{shown}/{relative}; {_narrow_hint(t.pattern)}"
            )
    return problems

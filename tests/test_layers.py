"""The import contract: layers a newcomer sees by folder name, and no import against them.

    doors → wiring → lab ∥ impact → engines ∥ run → coordination → passes ∥ config
          → text ∥ transcripts ∥ model → kernel

`daemon/kernel` is the core (atomic writes, changesets, errors, paths, settings, the
agent view); `daemon/text` reads words, `daemon/transcripts` reads runtimes' sessions and
`daemon/model` calls the deep model, each on the core alone; `daemon/passes` is what
every pass shares (the protocol, the turn input, the turn batches). A module may import
its own folder and the folders of lower rank, never a folder of the same rank: the three
engines (memory_engine, skills_engine, workspace) never import each other nor the run
machinery (daemon/run), and the run machinery never imports an engine: the composition
root (daemon/wiring) joins them. Nothing imports the command line but the process entry.
Inside every folder the modules' imports form no circle, so each folder reads bottom-up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("daemon", "memory_engine", "skills_engine", "workspace")
ENGINES = ("memory_engine", "skills_engine", "workspace")
RANK = {
    "kernel": 0,
    "text": 1,
    "transcripts": 1,
    "model": 1,
    "passes": 2,
    "config": 2,
    "coordination": 3,
    "memory_engine": 4,
    "skills_engine": 4,
    "workspace": 4,
    "run": 4,
    "lab": 5,
    "impact": 5,
    "wiring": 6,
    "doors": 7,
}
CLI = "daemon.doors.cli"
ENTRY = ("daemon.launch", "daemon.__main__")


def layer(module: str) -> str:
    """The folder (layer) a module sits in: an engine's package, or `daemon/<folder>`."""
    top = module.split(".")[0]
    if top in ENGINES:
        return top
    if module in ENTRY:
        return "doors"
    second = module.split(".")[1] if "." in module else ""
    if second in RANK and second not in ENGINES:
        return second
    raise AssertionError(f"{module} is in no layer: put it in one of daemon/{{{', '.join(sorted(RANK))}}}")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import of our packages in `path`.

    `from a.b import c` imports the module `a.b.c` if there is one, else `a.b`.
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.append((node.lineno, sub if sub in MODULES else node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return [(line, target) for line, target in found if target.split(".")[0] in PACKAGES]


MODULES = modules()


def violation(importer: str, target: str) -> str | None:
    """Why `importer` may not import `target`, or None if it may."""
    if target == "daemon" or importer == target:
        return None
    if (target == CLI or target.startswith(CLI + ".")) and not (importer in ENTRY or importer.startswith(CLI)):
        return "nothing imports the command line but the process entry (daemon/launch.py)"
    mine, theirs = layer(importer), layer(target)
    if mine == theirs:
        return None
    if {mine, theirs} <= set(ENGINES):
        return "an engine never imports another engine (shared code belongs below them, in daemon/)"
    if {mine, theirs} in ({"memory_engine", "coordination"}, {"skills_engine", "coordination"}, {"workspace", "coordination"}):
        return "the engines never reach the fleet's shared state (the deep tier they are given does)"
    if (mine == "run" and theirs in ENGINES) or (theirs == "run" and mine in ENGINES):
        return "the run machinery and the engines never import each other (daemon/wiring joins them)"
    if RANK[theirs] == RANK[mine]:
        return f"{mine} and {theirs} stand side by side: neither imports the other (move what both need lower)"
    if RANK[theirs] > RANK[mine]:
        return f"{mine} may not import {theirs}, a higher layer (see the order in tests/test_layers.py)"
    return None


def test_every_module_sits_in_a_layer() -> None:
    for name in MODULES:
        if name != "daemon":
            layer(name)


@pytest.mark.parametrize("importer", sorted(n for n in MODULES if n != "daemon"))
def test_imports_follow_the_layers(importer: str) -> None:
    problems = [
        f"{MODULES[importer].relative_to(REPO)}:{line}: imports {target}: {why}"
        for line, target in imports(MODULES[importer])
        if (why := violation(importer, target)) is not None
    ]
    assert not problems, "\n".join(problems)


def folder_of(module: str) -> str:
    return module.rpartition(".")[0] if module in MODULES and MODULES[module].name != "__init__.py" else module


def circles() -> list[list[str]]:
    """Every circle of imports between modules of one folder (depth-first, each reported once)."""
    graph = {
        name: sorted({t for _line, t in imports(path) if t in MODULES and t != name and folder_of(t) == folder_of(name)})
        for name, path in MODULES.items()
    }
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    return found


@pytest.mark.slow
def test_no_folder_has_a_circle_of_imports() -> None:
    assert not circles(), "\n".join(" → ".join(c) for c in circles())


def test_file_names_say_their_room() -> None:
    """No two modules share a file name: a name alone tells a reader which room they are in."""
    seen: dict[str, Path] = {}
    twice = []
    for path in sorted(MODULES.values()):
        if path.name == "__init__.py":
            continue
        if path.name in seen:
            twice.append(f"{seen[path.name].relative_to(REPO)} and {path.relative_to(REPO)}")
        seen[path.name] = path
    assert not twice, "\n".join(twice)


def test_the_contract_catches_what_it_forbids() -> None:
    assert violation("daemon.kernel.view", "daemon.config.models")
    assert violation("daemon.kernel.view", "daemon.text.words")
    assert violation("daemon.text.meaning", "daemon.transcripts.lines")
    assert violation("daemon.model.deep_tier", "daemon.transcripts.reader")
    assert violation("daemon.run.revert", "memory_engine.factstore")
    assert violation("skills_engine.proposals", "workspace.units")
    assert violation("memory_engine.distillation", "daemon.lab.grid")
    assert violation("daemon.doors.service.jobs", "daemon.doors.cli.common")
    assert violation("daemon.wiring.pass_registry", "daemon.doors.status")
    assert violation("daemon.doors.status", "daemon.run.runner") is None
    assert violation("memory_engine.distillation", "daemon.kernel.view") is None
    assert violation("daemon.lab.grid", "memory_engine.memory") is None

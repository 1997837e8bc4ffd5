"""The import contract: layers a newcomer sees by folder name, and no import against them.

    doors (daemon/doors, daemon/launch)  →  wiring (daemon/wiring)  →  engines ∥ run  →  config  →  kernel

A module may import its own layer and the layers to its right. The three engines
(memory_engine, skills_engine, workspace) never import each other nor the run machinery
(daemon/run), and the run machinery never imports an engine: the composition root
(daemon/wiring) joins them. Nothing imports the command line but the process entry.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("daemon", "memory_engine", "skills_engine", "workspace")
ENGINES = ("memory_engine", "skills_engine", "workspace")
RANK = {"kernel": 0, "config": 1, "coordination": 2, "run": 2, "engine": 2, "wiring": 3, "doors": 4}
CLI = "daemon.doors.cli"
ENTRY = ("daemon.launch", "daemon.__main__")


def layer(module: str) -> str:
    top = module.split(".")[0]
    if top in ENGINES:
        return "engine"
    if module in ENTRY:
        return "doors"
    second = module.split(".")[1] if "." in module else ""
    if second in ("kernel", "config", "coordination", "run", "wiring", "doors"):
        return second
    raise AssertionError(f"{module} is in no layer: put it in daemon/kernel, config, run, wiring or doors")


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
    if mine == "engine" and theirs == "engine" and importer.split(".")[0] != target.split(".")[0]:
        return "an engine never imports another engine (shared code belongs in daemon/kernel)"
    if {mine, theirs} == {"engine", "coordination"}:
        return "the engines never reach the fleet's shared state (the deep tier they are given does)"
    if mine == "coordination" and theirs == "run":
        return "the coordination backends sit below the run machinery"
    if {mine, theirs} == {"engine", "run"}:
        return "the run machinery and the engines never import each other (daemon/wiring joins them)"
    if RANK[theirs] > RANK[mine]:
        return f"{mine} may not import {theirs} (imports flow doors → wiring → engines ∥ run → config → kernel)"
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


def test_the_contract_catches_what_it_forbids() -> None:
    assert violation("daemon.kernel.view", "daemon.config.models")
    assert violation("daemon.run.undo", "memory_engine.factstore")
    assert violation("skills_engine.proposals", "workspace.units")
    assert violation("daemon.doors.service.jobs", "daemon.doors.cli.common")
    assert violation("daemon.wiring.registry", "daemon.doors.status")
    assert violation("daemon.doors.status", "daemon.run.runner") is None
    assert violation("memory_engine.distillation", "daemon.kernel.view") is None

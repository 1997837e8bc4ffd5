"""No untyped JSON object crosses a folder: what one folder hands another is a model.

A `dict[str, Any]` (or `Mapping[str, Any]`, `MutableMapping[str, Any]`, `Dict[str, Any]`,
and anything built of them, `list[dict[str, Any]]`…) may not appear in a public function's
or method's signature, nor in a public class's field or a module-level annotation, of a
module that a module of another folder imports. JSON whose shape is genuinely open goes
through one of the aliases of daemon/kernel/json_contract.py, each naming what it is;
they are listed here, and no other module defines such an alias. AST-based, like
tests/test_layers.py.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_layers import MODULES, REPO, imports

ALIAS_MODULE = "daemon.kernel.json_contract"
ALIASES = {
    "RawJson": "a JSON object as parsed, before validation (a run-log line, a transcript event)",
    "JsonSchema": "a JSON Schema document",
    "RequestBody": "the body of a request to the model API",
    "LedgerDocument": "a settings-lab ledger document, re-checked by `lab verify`",
}
LOOSE_BASES = {"dict", "Dict", "Mapping", "MutableMapping"}


def folder(module: str) -> str:
    """The folder a module's file sits in (`daemon.doors.cli`, `memory_engine`, …)."""
    return ".".join(MODULES[module].relative_to(REPO).parent.parts)


def _name(node: ast.expr) -> str | None:
    """`dict` for `dict`, `Any` for `typing.Any`; None for anything but a name."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _is_loose(node: ast.expr) -> bool:
    """Whether the annotation holds `dict[str, Any]` or one of its kin anywhere inside."""
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Subscript)
            and _name(sub.value) in LOOSE_BASES
            and isinstance(sub.slice, ast.Tuple)
            and len(sub.slice.elts) == 2
            and _name(sub.slice.elts[0]) == "str"
            and _name(sub.slice.elts[1]) == "Any"
        ):
            return True
    return False


def _signature(function: ast.FunctionDef | ast.AsyncFunctionDef, owner: str) -> Iterator[str]:
    arguments = function.args
    for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg):
        if argument is not None and argument.annotation is not None and _is_loose(argument.annotation):
            yield f"{function.lineno}: {owner}{function.name}({argument.arg})"
    if function.returns is not None and _is_loose(function.returns):
        yield f"{function.lineno}: {owner}{function.name} returns it"


def loose_in_public(source: str) -> list[str]:
    """Where a loose JSON object appears in the public surface of a module's source."""
    found: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_"):
            found += _signature(node, "")
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and not item.name.startswith("_"):
                    found += _signature(item, f"{node.name}.")
                elif (
                    isinstance(item, ast.AnnAssign)
                    and isinstance(item.target, ast.Name)
                    and not item.target.id.startswith("_")
                    and _is_loose(item.annotation)
                ):
                    found.append(f"{item.lineno}: field {node.name}.{item.target.id}")
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and not node.target.id.startswith("_")
            and _is_loose(node.annotation)
        ):
            found.append(f"{node.lineno}: {node.target.id}")
    return found


def loose_aliases(source: str) -> list[str]:
    """Module-level names given a loose JSON type (`X = dict[str, Any]`, `X: TypeAlias = …`)."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and _is_loose(node.value):
            found += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and isinstance(node.target, ast.Name)
            and "TypeAlias" in ast.unparse(node.annotation)
            and _is_loose(node.value)
        ):
            found.append(node.target.id)
    return found


def _shared_modules() -> dict[str, list[str]]:
    """Module → the modules of other folders that import it."""
    importers: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        for _line, target in imports(path):
            if target in MODULES and target != "daemon" and name != "daemon" and folder(target) != folder(name):
                importers.setdefault(target, []).append(name)
    return importers


SHARED = _shared_modules()


@pytest.mark.parametrize("module", sorted(SHARED))
def test_no_untyped_json_object_crosses_a_folder(module: str) -> None:
    found = loose_in_public(MODULES[module].read_text(encoding="utf-8"))
    where = MODULES[module].relative_to(REPO)
    assert not found, (
        f"{where} is imported from other folders ({', '.join(sorted(set(SHARED[module]))[:3])}…) and hands "
        f"over a dict[str, Any]: type it (a frozen pydantic model, daemon.kernel.json_contract.Document), "
        f"or, for genuinely open JSON, use one of {sorted(ALIASES)}:\n" + "\n".join(f"  {where}:{f}" for f in found)
    )


def test_the_aliases_are_the_ones_listed_here() -> None:
    defined = loose_aliases(MODULES[ALIAS_MODULE].read_text(encoding="utf-8"))
    assert sorted(defined) == sorted(ALIASES)


def test_no_other_module_names_an_untyped_json_object() -> None:
    elsewhere = {
        f"{path.relative_to(REPO)}: {alias}"
        for name, path in MODULES.items()
        if name != ALIAS_MODULE
        for alias in loose_aliases(path.read_text(encoding="utf-8"))
    }
    assert not elsewhere, f"define JSON aliases once, in daemon/kernel/json_contract.py: {sorted(elsewhere)}"


def test_the_check_catches_what_it_forbids() -> None:
    source = """
from typing import Any, Mapping
import typing

def rows() -> list[dict[str, Any]]: ...
def takes(doc: Mapping[str, typing.Any], *, ok: dict[str, int]) -> None: ...
def _private(doc: dict[str, Any]) -> None: ...
class Report:
    agents: list[dict[str, Any]]
    def as_json(self) -> dict[str, Any]: ...
    def _helper(self) -> dict[str, Any]: ...
class _Hidden:
    body: dict[str, Any]
Loose = dict[str, Any]
"""
    assert [f.split(": ", 1)[1] for f in loose_in_public(source)] == [
        "rows returns it",
        "takes(doc)",
        "field Report.agents",
        "Report.as_json returns it",
    ]
    assert loose_aliases(source) == ["Loose"]
    assert loose_in_public("from x import RawJson\ndef f(doc: RawJson) -> list[RawJson]: ...\n") == []


def test_the_walk_sees_modules_shared_across_folders() -> None:
    assert "daemon.kernel.changeset" in SHARED
    assert "daemon.doors.status" in SHARED  # imported by daemon/doors/cli and the console
    assert Path(MODULES[ALIAS_MODULE]).is_file()

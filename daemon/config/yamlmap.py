"""YAML → plain data plus a map from key path to line number.

PyYAML's `safe_load` forgets where things came from and silently keeps the last of two
duplicate keys; we compose the node tree ourselves so every error can name its line and
a duplicated agent is an error, not an override.
"""

from __future__ import annotations

from typing import Any

import yaml

KeyPath = tuple[str | int, ...]


class YamlProblem(Exception):
    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(message)


def load_with_lines(text: str) -> tuple[Any, dict[KeyPath, int], list[tuple[int, str]]]:
    """Parse `text`; return (data, lines, duplicate-key problems).

    Raises YamlProblem on a syntax error (with its line).
    """
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        raise YamlProblem(line, f"YAML syntax error: {exc.problem}") from exc
    if root is None:
        return None, {}, []
    lines: dict[KeyPath, int] = {}
    duplicates: list[tuple[int, str]] = []
    _walk(root, (), lines, duplicates)
    data = yaml.safe_load(text)
    return data, lines, duplicates


def _walk(node: yaml.Node, path: KeyPath, lines: dict[KeyPath, int], dups: list[tuple[int, str]]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            line = key_node.start_mark.line + 1
            if key in seen:
                where = ".".join(str(p) for p in (*path, key))
                dups.append((line, f"{where}: duplicate key (first defined on line {seen[key]})"))
                continue
            seen[key] = line
            lines[(*path, key)] = line
            _walk(value_node, (*path, key), lines, dups)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, index)] = item.start_mark.line + 1
            _walk(item, (*path, index), lines, dups)


def line_for(lines: dict[KeyPath, int], path: KeyPath) -> int | None:
    """The line of the longest known prefix of `path`."""
    for end in range(len(path), -1, -1):
        found = lines.get(tuple(path[:end]))
        if found is not None:
            return found
    return None

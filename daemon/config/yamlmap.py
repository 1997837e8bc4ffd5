"""YAML → plain data plus a map from key path to line number, parsed within fixed bounds.

PyYAML's `safe_load` forgets where things came from and silently keeps the last of two
duplicate keys; we compose the node tree ourselves so every error can name its line and
a duplicated agent is an error, not an override.

It is also unbounded: aliases share one node, so a 1 KB file of nested aliases (a
"billion laughs") expands to billions of values for whoever walks it, and each nesting
level costs a recursion frame. So the composer counts while it composes — nodes
(an alias counts the whole collection it repeats), nesting depth (an alias counts the
depth it brings along), an alias inside its own anchor — and stops at the first bound
crossed, naming that line. The data is then built from the bounded node tree here, not
by `yaml.safe_load`; scalars still go through PyYAML's safe constructor, and a value it
cannot read (a date like 2026-13-45, a 5,000-digit number, a `!!python` tag) is an error
naming its line too. The file-size cap is the loader's (it reads the file).
"""

from __future__ import annotations

from typing import Any

import yaml

KeyPath = tuple[str | int, ...]

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 32
MAX_NODES = 200_000
SEQ_TAG = "tag:yaml.org,2002:seq"
MAP_TAG = "tag:yaml.org,2002:map"
MERGE_TAG = "tag:yaml.org,2002:merge"


class YamlProblem(Exception):
    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(message)


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, composing under MAX_DEPTH and MAX_NODES (aliases expanded)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.depth = 0
        self.expanded = 0
        self.open_anchors: list[str | None] = []
        self.stats: dict[int, tuple[int, int]] = {}  # id(node) → (expanded nodes, height)

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self.open_anchors:
                raise YamlProblem(line, f"alias *{event.anchor} refers to the collection it sits in")
            node = super().compose_node(parent, index)
            assert node is not None  # an alias always names a composed node
            size, height = self.stats[id(node)]
            if self.depth + height > MAX_DEPTH:
                raise YamlProblem(
                    line, f"alias *{event.anchor} makes the document nested deeper than {MAX_DEPTH} levels"
                )
            self._count(size, line, f"aliases expand the document past {MAX_NODES:,} nodes")
            return node
        if self.depth >= MAX_DEPTH:
            raise YamlProblem(line, f"the document is nested deeper than {MAX_DEPTH} levels")
        self._count(1, line, f"the document has more than {MAX_NODES:,} nodes")
        self.depth += 1
        self.open_anchors.append(getattr(event, "anchor", None))
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
            self.open_anchors.pop()
        assert node is not None  # the event was a scalar or a collection start
        children = [self.stats[id(child)] for child in _children(node)]
        self.stats[id(node)] = (1 + sum(s for s, _ in children), 1 + max((h for _, h in children), default=0))
        return node

    def _count(self, nodes: int, line: int, message: str) -> None:
        self.expanded += nodes
        if self.expanded > MAX_NODES:
            raise YamlProblem(line, message)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _where(path: KeyPath) -> str:
    return ".".join(str(p) for p in path) or "(top level)"


class _Builder:
    """Plain data, the line of every key path, and duplicate keys, from a bounded node tree."""

    def __init__(self, loader: _BoundedLoader) -> None:
        self.loader = loader
        self.lines: dict[KeyPath, int] = {}
        self.duplicates: list[tuple[int, str]] = []

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        self.lines.setdefault(path, _line(node))
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if node.tag not in (SEQ_TAG, MAP_TAG):
            raise YamlProblem(_line(node), f"{_where(path)}: the YAML tag {node.tag!r} is not supported")
        if isinstance(node, yaml.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                self.lines.setdefault((*path, index), _line(item))
                items.append(self.build(item, (*path, index)))
            return items
        assert isinstance(node, yaml.MappingNode)
        return self.mapping(node, path)

    def mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        seen: dict[str, int] = {}
        merges: list[yaml.Node] = []
        for key_node, value_node in node.value:
            line = _line(key_node)
            if key_node.tag == MERGE_TAG:
                merges.append(value_node)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlProblem(line, f"{_where(path)}: mapping keys must be plain values")
            name = str(key_node.value)
            if name in seen:
                where = _where((*path, name))
                self.duplicates.append((line, f"{where}: duplicate key (first defined on line {seen[name]})"))
                continue
            seen[name] = line
            self.lines.setdefault((*path, name), line)
            result[self.scalar(key_node, path)] = self.build(value_node, (*path, name))
        # `<<: *defaults` (or a list of them): keys the mapping sets itself win, then the
        # first source that sets a key — PyYAML's merge rule.
        for merge in merges:
            sources = merge.value if isinstance(merge, yaml.SequenceNode) else [merge]
            for source in sources:
                if not isinstance(source, yaml.MappingNode):
                    raise YamlProblem(_line(source), f"{_where(path)}: `<<` merges only mappings")
                for key, value in self.mapping(source, path).items():
                    result.setdefault(key, value)
        return result

    def scalar(self, node: yaml.ScalarNode, path: KeyPath) -> Any:
        try:
            return self.loader.construct_object(node)
        except yaml.MarkedYAMLError as exc:
            raise YamlProblem(_line(node), f"{_where(path)}: {exc.problem}") from None
        except (ValueError, OverflowError, TypeError) as exc:
            shown = node.value if len(node.value) <= 40 else node.value[:40] + "…"
            raise YamlProblem(_line(node), f"{_where(path)}: cannot read the value {shown!r}: {exc}") from None


def load_with_lines(text: str) -> tuple[Any, dict[KeyPath, int], list[tuple[int, str]]]:
    """Parse `text`; return (data, lines, duplicate-key problems).

    Raises YamlProblem (with its line) on a syntax error, a value that cannot be read, or
    a document past MAX_DEPTH levels or MAX_NODES nodes once aliases are expanded.
    """
    try:
        loader = _BoundedLoader(text)
    except yaml.reader.ReaderError as exc:
        raise YamlProblem(text.count("\n", 0, exc.position) + 1, f"YAML syntax error: {_reader(exc)}") from None
    try:
        root = loader.get_single_node()
        if root is None:
            return None, {}, []
        builder = _Builder(loader)
        data = builder.build(root, ())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        raise YamlProblem(line, f"YAML syntax error: {exc.problem}") from exc
    except yaml.reader.ReaderError as exc:
        raise YamlProblem(text.count("\n", 0, exc.position) + 1, f"YAML syntax error: {_reader(exc)}") from None
    finally:
        loader.dispose()
    duplicates = list(dict.fromkeys(builder.duplicates))
    return data, builder.lines, duplicates


def _reader(exc: yaml.reader.ReaderError) -> str:
    character = exc.character if isinstance(exc.character, int) else ord(exc.character)
    return f"unacceptable character #x{character:04x}: {exc.reason}"


def line_for(lines: dict[KeyPath, int], path: KeyPath) -> int | None:
    """The line of the longest known prefix of `path`."""
    for end in range(len(path), -1, -1):
        found = lines.get(tuple(path[:end]))
        if found is not None:
            return found
    return None

"""The keys the deployment file accepts at a place in it, for "did you mean" on an unknown key.

Read from the models themselves (`daemon.config.models`), so a new setting is suggested
as soon as it exists: a mapping's keys are its model's fields, and an agent's name (a key
of `agents`) leads into the model of its values.
"""

from __future__ import annotations

import difflib
import types
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from daemon.config.yamlmap import KeyPath
from daemon.text.spelling import distance


def _options(annotation: Any) -> tuple[Any, ...]:
    """The types a field may hold: each member of a union (`X | None`), else the type itself."""
    if get_origin(annotation) in (Union, types.UnionType):
        return tuple(o for member in get_args(annotation) for o in _options(member))
    return (annotation,)


def _model(option: Any) -> type[BaseModel] | None:
    return option if isinstance(option, type) and issubclass(option, BaseModel) else None


def _step(annotation: Any, part: str | int) -> Any | None:
    """The type found at key or index `part` of a value of type `annotation`, or None."""
    for option in _options(annotation):
        model = _model(option)
        if model is not None and isinstance(part, str) and part in model.model_fields:
            return model.model_fields[part].annotation
        origin, args = get_origin(option), get_args(option)
        if origin is dict and len(args) == 2 and isinstance(part, str):
            return args[1]
    return None


def _at(root: type[BaseModel], path: KeyPath) -> Any | None:
    """The type of the value at `path` in the file, or None if `path` leads to no type."""
    annotation: Any = root
    for part in path:
        annotation = _step(annotation, part)
        if annotation is None:
            return None
    return annotation


def keys_at(root: type[BaseModel], path: KeyPath) -> list[str]:
    """Given the model of the whole file and the key path of a mapping in it, return the
    keys that mapping accepts (sorted), or [] if `path` leads to no model."""
    annotation = _at(root, path)
    if annotation is None:
        return []
    models = [m for m in map(_model, _options(annotation)) if m is not None]
    return sorted({name for model in models for name in model.model_fields})


def _shape(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "mapping"
    return "list" if isinstance(value, list) else "scalar"


def _shapes(annotation: Any) -> set[str]:
    """The YAML shapes a value of type `annotation` may have (every shape when unknown)."""
    shapes: set[str] = set()
    for option in _options(annotation):
        origin = get_origin(option)
        if option is type(None):
            shapes.add("null")
        elif _model(option) is not None or origin is dict or option is dict:
            shapes.add("mapping")
        elif origin in (list, tuple, set, frozenset) or option in (list, tuple, set, frozenset):
            shapes.add("list")
        elif option is Any:
            shapes.update(("null", "mapping", "list", "scalar"))
        else:
            shapes.add("scalar")
    return shapes


def did_you_mean(root: type[BaseModel], path: KeyPath, key: str, value: Any = None) -> str | None:
    """The accepted key at `path` closest to the unknown `key`, if one is close (difflib's
    0.6), preferring a key whose type takes `value` (`modle:` holding a mapping is `model`,
    not the string `mode`), then the fewest edits, then the same letters."""
    close = difflib.get_close_matches(key, keys_at(root, path), n=10)
    if not close:
        return None
    here = _at(root, path)

    def rank(candidate: str) -> tuple[bool, int, bool, float]:
        field = _step(here, candidate)
        fits = field is None or _shape(value) in _shapes(field)
        ratio = difflib.SequenceMatcher(None, key, candidate).ratio()
        return (not fits, distance(key, candidate), sorted(key) != sorted(candidate), -ratio)

    return min(close, key=rank)

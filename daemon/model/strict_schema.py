"""Flat, strict JSON Schemas from pydantic models, for structured output.

Servers differ: OpenAI strict mode wants every property required and
`additionalProperties: false`; llama.cpp turns the schema into a grammar and breaks on
nested `$ref`, skipping keywords it does not know. So we inline every `$defs` entry and
keep only the keywords all of them understand. Bounds (lengths, ranges, patterns) are
enforced by our own validation afterwards, never trusted to the server.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, TypedDict

from pydantic import BaseModel

from daemon.kernel.json_contract import JsonSchema


class StrictNode(TypedDict, total=False):
    """One node of a schema in the form strict structured output accepts: these keys are kept,
    every other (`$ref` is inlined, `title`, `default`, `format`…) is dropped."""

    type: str
    properties: dict[str, Any]
    required: list[str]
    additionalProperties: bool
    items: Any
    enum: list[Any]
    anyOf: list[Any]
    description: str
    const: Any


def _inline(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    if depth > 32:
        raise ValueError("schema nests too deeply (recursive model?)")
    if isinstance(node, list):
        return [_inline(item, defs, depth + 1) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline(merged, defs, depth + 1)
    if "allOf" in node and len(node["allOf"]) == 1:
        merged = {**node["allOf"][0], **{k: v for k, v in node.items() if k != "allOf"}}
        return _inline(merged, defs, depth + 1)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: _inline(sub, defs, depth + 1) for name, sub in value.items()}
        elif key in StrictNode.__optional_keys__:  # the node's own keys (total=False: all optional)
            out[key] = _inline(value, defs, depth + 1)
    if out.get("type") == "object" or "properties" in out:
        out["type"] = "object"
        out["additionalProperties"] = False
        out["required"] = list(out.get("properties", {}))
        out.setdefault("properties", {})
    return out


def flat_schema(model: type[BaseModel]) -> JsonSchema:
    """A self-contained JSON Schema for `model` with no `$ref`/`$defs` (a copy the caller may change)."""
    return copy.deepcopy(_flat(model))


@cache  # pydantic builds a schema slowly, and a run sizes and sends many requests of a few fixed models
def _flat(model: type[BaseModel]) -> JsonSchema:
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    schema: JsonSchema = _inline(raw, defs)
    return schema

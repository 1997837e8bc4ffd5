"""The base of every JSON document the daemon prints or reports, and the names of free-form JSON.

A document is a frozen pydantic model that forbids unknown keys: what a command prints
with `--json` is `model_dump(mode="json")` of one, so the model is the contract and its
JSON Schema (docs/reference/json.md, written by tools/gen_json_docs.py) says what a script
may rely on.

A key that only applies sometimes is declared `Omittable[T]`: it is left out of the
document when it does not apply (None), as the documents always did, instead of being
printed as null; its schema marks it as not required.

JSON whose shape is genuinely open crosses a module boundary only under one of the
aliases below, each saying what it is; a `dict[str, Any]` in a public signature of a
module used from another folder fails tests/test_json_types.py.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

T = TypeVar("T")


class _LeftOutWhenNone:
    """Marks a field whose key a document leaves out when its value is None."""

    def __repr__(self) -> str:
        return "LEFT_OUT_WHEN_NONE"


LEFT_OUT_WHEN_NONE = _LeftOutWhenNone()

Omittable: TypeAlias = Annotated[T | None, LEFT_OUT_WHEN_NONE]

# A JSON object as parsed from a file or a line, before it is validated (a run-log line, a
# transcript event, a row of a runtime's database).
RawJson: TypeAlias = dict[str, Any]
# A JSON Schema document (what the model is asked to answer in, or what a model generates).
JsonSchema: TypeAlias = dict[str, Any]
# The body of an HTTP request to the model API (OpenAI chat completions), or of its answer.
RequestBody: TypeAlias = dict[str, Any]
# A settings-lab ledger document (a grid's summary, a campaign's record, a distill run's
# figures), written to the ledger folder and re-read by `lab verify`, which re-checks
# every claim in it rather than trusting its shape.
LedgerDocument: TypeAlias = dict[str, Any]


@cache
def _left_out(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(
        name for name, info in model.model_fields.items() if LEFT_OUT_WHEN_NONE in info.metadata
    )


class Document(BaseModel):
    """A frozen JSON document: unknown keys refused, `Omittable` keys left out when None."""

    # Validators and serializers are built on first use: a process defines many documents
    # and uses few (`status` without --json prints none).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @model_serializer(mode="wrap")
    def _leave_out_what_does_not_apply(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            for name in _left_out(type(self)):
                if name in data and data[name] is None:
                    del data[name]
        return data

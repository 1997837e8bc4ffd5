"""What a model call cost, from the usage the server reported (docs/explanation/deep-tier.md).

OpenAI-compatible servers report the prompt tokens of a request and, when they reused a
prefix they had already processed, how many of those were cached
(`usage.prompt_tokens_details.cached_tokens`: OpenAI, llama.cpp, vLLM). Cached tokens are
priced at `model.cached_input_price` (unset: the input price, no discount); what that
saved against the full input price is recorded beside the cost, so `status` and the
console can say what the shared prompt prefix of the passes is worth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from daemon.kernel.settings import ModelSettings


@dataclass(frozen=True)
class PricedUsage:
    input_tokens: int
    output_tokens: int
    cached_tokens: int  # of input_tokens; 0 when the server says nothing about a cache
    usd: float
    saved_usd: float  # what the cached tokens would have cost more at the input price


def _count(value: Any) -> int | None:
    # bool is an int to Python, never a token count; a negative count is a broken server
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def cached_tokens(usage: Any) -> int:
    """The cached prompt tokens a usage block reports (a dict or the SDK's object), else 0."""
    details = usage.get("prompt_tokens_details") if isinstance(usage, dict) else getattr(usage, "prompt_tokens_details", None)
    value = details.get("cached_tokens") if isinstance(details, dict) else getattr(details, "cached_tokens", None)
    return _count(value) or 0


def priced(usage: Any, model: ModelSettings) -> PricedUsage | None:
    """The call's cost from `usage`; None when the server reported no usable token counts."""
    input_tokens = _count(getattr(usage, "prompt_tokens", None))
    output_tokens = _count(getattr(usage, "completion_tokens", None))
    if input_tokens is None or output_tokens is None:
        return None
    cached = min(cached_tokens(usage), input_tokens)  # never more cached than sent
    cached_price = model.price_input_per_million if model.cached_input_price is None else model.cached_input_price
    usd = (
        (input_tokens - cached) * model.price_input_per_million
        + cached * cached_price
        + output_tokens * model.price_output_per_million
    ) / 1_000_000
    saved = max(cached * (model.price_input_per_million - cached_price), 0.0) / 1_000_000
    return PricedUsage(input_tokens, output_tokens, cached, usd, saved)

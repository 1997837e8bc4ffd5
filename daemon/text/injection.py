"""Transcripts are untrusted input: a shared test for text that reads like a prompt injection.

A heuristic, not a defence on its own (OWASP LLM01: no fool-proof prevention exists): the
defences are that the model gets no tools, its output is validated by code, and writes are
confined. This test only decides what must wait for a person instead of applying directly.
"""

from __future__ import annotations

import re

INJECTION = re.compile(
    r"ignore\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|former)\s+"
    r"(?:instructions?|prompts?|rules|messages?)"
    r"|disregard\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier)"
    r"|forget\s+(?:all\s+|everything\s+)?(?:your|the|previous)\s+instructions"
    r"|\byou\s+are\s+now\b|\bnew\s+instructions\s*:|\bsystem\s+prompt\b|\bjailbreak|\bdeveloper\s+mode\b"
    r"|\b(?:rewrite|overwrite|replace|edit)\s+(?:your\s+|the\s+)?[\w-]+\.md\b",
    re.IGNORECASE,
)


def looks_like_injection(text: str) -> bool:
    return INJECTION.search(text) is not None

"""Warnings about a valid configuration that will probably not do what its author wants.

Unlike problems (which make `config check` fail), these only print: the configuration
works as written, but a common setup mistake is likely.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlparse

from daemon.config.models import DeploymentConfig

LOCAL_NAMES = ("localhost", "host.docker.internal")


def _is_local(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    if host in LOCAL_NAMES or host.endswith((".local", ".localhost", ".internal", ".lan")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local or address.is_unspecified


def warnings(config: DeploymentConfig) -> list[str]:
    """Likely mistakes in a valid `config`, one sentence each naming the keys."""
    found: list[str] = []
    model = config.model
    unset = model is not None and (model.token_limit_param is None or model.structured_output is None)
    if model is not None and unset and model.dialect == "openai" and _is_local(model.base_url):
        found.append(
            f"model.base_url {model.base_url} is a local server but model.dialect is openai: "
            "llama.cpp ignores max_completion_tokens (it then generates without a limit until the "
            "timeout) and its Python server drops the json_schema envelope; set model.dialect to "
            "llama.cpp, vllm or ollama"
        )
    return found

"""Deployment configuration: YAML → validated, resolved, per-agent settings."""

from daemon.config.loader import load_deployment, parse_for_check
from daemon.config.resolve import Deployment
from daemon.kernel.settings import AgentSettings, Effective

__all__ = ["AgentSettings", "Deployment", "Effective", "load_deployment", "parse_for_check"]

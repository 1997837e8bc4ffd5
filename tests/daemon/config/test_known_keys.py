"""The keys accepted at a place in the deployment file, read from the models."""

from __future__ import annotations

from daemon.config.known_keys import did_you_mean, keys_at
from daemon.config.models import DeploymentConfig


def test_the_keys_at_a_place_are_its_models_fields_through_agents_and_optional_sections() -> None:
    assert "state_dir" in keys_at(DeploymentConfig, ())
    assert keys_at(DeploymentConfig, ("agents", "any-name", "transcripts"))[:2] == ["format", "glob"]
    assert "dialect" in keys_at(DeploymentConfig, ("model",))  # `model: ModelSettings | None`


def test_a_place_that_is_no_mapping_of_the_file_accepts_no_key_and_suggests_none() -> None:
    assert keys_at(DeploymentConfig, ("agents", "ada", "home")) == []  # a string
    assert keys_at(DeploymentConfig, ("no_such_section", "x")) == []
    assert did_you_mean(DeploymentConfig, ("no_such_section",), "glob") is None
    assert did_you_mean(DeploymentConfig, ("agents", "ada", "transcripts"), "glb") == "glob"

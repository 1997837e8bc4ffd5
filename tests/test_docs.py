"""The documentation keeps up with the code: CLI reference, configuration keys, links.

- docs/reference/cli.md is exactly what tools/gen_cli_docs.py makes from `--help`, and it
  has a section for every command and sub-command;
- the JSON Schemas in docs/reference/json.md are exactly what tools/gen_json_docs.py makes
  from the `--json` document models;
- every key of the deployment file (walking the pydantic models, nested ones included)
  is in docs/reference/configuration.md;
- every relative link in README.md and docs/ points to a file that exists, and every page
  is in the site's navigation;
- the README stays short and its test command is the one CI runs.
"""

from __future__ import annotations

import importlib.util
import re
import types
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel

from daemon.config.models import DeploymentConfig

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CLI_PAGE = DOCS / "reference" / "cli.md"
CONFIG_PAGE = DOCS / "reference" / "configuration.md"
JSON_PAGE = DOCS / "reference" / "json.md"
TEST_COMMAND = (
    "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/coverage run -m pytest -n 2"
    " && .venv/bin/coverage combine -q && .venv/bin/coverage report"
)


def _generator(name: str = "gen_cli_docs") -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


# --- CLI reference -------------------------------------------------------------------------


def test_cli_reference_is_what_the_generator_makes_from_help() -> None:
    gen = _generator()
    committed = CLI_PAGE.read_text(encoding="utf-8")
    made_with = re.search(r"with Python (\d+\.\d+)", committed)
    assert made_with, "docs/reference/cli.md does not say which Python generated it"
    if made_with.group(1) != gen.python_version():
        pytest.skip(
            f"cli.md was generated with Python {made_with.group(1)}; argparse lays help out "
            f"differently in {gen.python_version()}"
        )
    assert committed == gen.render(), (
        "docs/reference/cli.md differs from `--help`: run .venv/bin/python tools/gen_cli_docs.py"
    )


def test_every_command_and_sub_command_has_a_section_and_help_text() -> None:
    gen = _generator()
    committed = CLI_PAGE.read_text(encoding="utf-8")
    headings = set(re.findall(r"^#{2,4} (metaeng-daemon(?: [\w-]+)*)$", committed, re.MULTILINE))
    paths = [path for path, _parser in gen.walk(gen.build())]
    assert len(paths) > 20  # the walk really reached the sub-commands
    missing = [" ".join(("metaeng-daemon", *p)) for p in paths if " ".join(("metaeng-daemon", *p)) not in headings]
    assert not missing, f"commands missing from docs/reference/cli.md: {missing}"
    for path, parser in gen.walk(gen.build()):
        assert (parser.description or "").strip() or path == (), f"no help text: {' '.join(path)}"
        for name, summary in gen._summaries(parser).items():
            assert summary.strip(), f"no one-line help for {' '.join((*path, name))}"


# --- --json reference ----------------------------------------------------------------------


def test_json_reference_holds_the_schema_of_every_document_model() -> None:
    gen = _generator("gen_json_docs")
    committed = JSON_PAGE.read_text(encoding="utf-8")
    documented, expected = gen.documented(committed), gen.schemas()
    stale = [command for command, schema in expected.items() if documented.get(command) != schema]
    missing = [command for command in stale if command not in documented]
    assert not stale, (
        f"docs/reference/json.md: the schema of {', '.join(f'`{c} --json`' for c in stale)} differs from "
        f"its model{' (missing: ' + ', '.join(missing) + ')' if missing else ''}: "
        "run .venv/bin/python tools/gen_json_docs.py"
    )
    extra = sorted(set(documented) - set(expected))
    assert not extra, f"docs/reference/json.md documents schemas of no document model: {extra}"
    assert committed == gen.render(committed), (
        "docs/reference/json.md: the generated part is not as tools/gen_json_docs.py writes it: "
        "run .venv/bin/python tools/gen_json_docs.py"
    )


def test_the_json_reference_check_names_the_command_that_drifted() -> None:
    gen = _generator("gen_json_docs")
    committed = JSON_PAGE.read_text(encoding="utf-8")
    schemas = gen.schemas()
    drifted = gen.section({**schemas, "runs": schemas["runs"].replace("run_id", "run")})
    before, _generated, after = gen.split(committed)
    found = gen.documented(before + drifted + after)
    assert [c for c in schemas if found.get(c) != schemas[c]] == ["runs"]
    assert "Schemas" in before and gen.BEGIN in committed and gen.END in committed


# --- configuration reference ---------------------------------------------------------------


def _models_in(annotation: object) -> Iterator[tuple[str | None, type[BaseModel]]]:
    """The pydantic models inside a field's type: (extra key segment or None, model)."""
    origin = typing.get_origin(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield None, annotation
    elif origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            yield from _models_in(arg)
    elif origin is dict:
        for segment, model in _models_in(typing.get_args(annotation)[1]):
            yield ("<name>" if segment is None else f"<name>.{segment}"), model


def config_keys(model: type[BaseModel] = DeploymentConfig, prefix: str = "") -> list[str]:
    """Every dotted key of the deployment file, sections included (`agents.<name>.memory.owner.tenant`)."""
    keys: list[str] = []
    for name, field in model.model_fields.items():
        key = f"{prefix}{name}"
        keys.append(key)
        for segment, nested in _models_in(field.annotation):
            inner = f"{key}.{segment}." if segment else f"{key}."
            keys.extend(config_keys(nested, inner))
    return keys


def test_the_walk_reaches_the_nested_models() -> None:
    keys = set(config_keys())
    for key in (
        "model.base_url",
        "budget.per_agent_daily_usd",
        "service.intervals.maintenance",
        "agents.<name>.transcripts.root",
        "agents.<name>.skills.packs",
        "agents.<name>.workspace.daily_log_anchor",
        "agents.<name>.memory.settings.top_k",
        "agents.<name>.memory.owner.tenant",
    ):
        assert key in keys


def test_every_configuration_key_is_in_the_configuration_reference() -> None:
    page = CONFIG_PAGE.read_text(encoding="utf-8")
    missing = [key for key in config_keys() if f"`{key}`" not in page]
    assert not missing, f"keys missing from docs/reference/configuration.md: {missing}"


# --- links and navigation ------------------------------------------------------------------

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.DOTALL)
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)


def relative_links(text: str) -> list[str]:
    """Link targets that name a file of this repository (not URLs, not anchors on the same page)."""
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    targets = INLINE_LINK.findall(prose) + REFERENCE_LINK.findall(prose)
    return [t for t in targets if not re.match(r"^([a-z][a-z0-9+.-]*:|#|//)", t, re.IGNORECASE)]


def test_the_link_finder_sees_links_and_skips_code() -> None:
    text = "[a](x.md) [b](#top) [c](https://e.org) `[d](no.md)`\n```\n[e](no.md)\n```\n[f]: y.md#part\n"
    assert relative_links(text) == ["x.md", "y.md#part"]


@pytest.mark.parametrize("page", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_to_an_existing_file(page: Path) -> None:
    broken = []
    for target in relative_links(page.read_text(encoding="utf-8")):
        path = target.split("#", 1)[0]
        if path and not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)} links to files that do not exist: {broken}"


def _nav_pages(node: object) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from _nav_pages(item)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _nav_pages(value)


def test_every_page_is_in_the_site_navigation() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = set(_nav_pages(config["nav"]))
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert pages - nav == set(), "pages missing from mkdocs.yml nav"
    assert nav - pages == set(), "mkdocs.yml nav names pages that do not exist"


# --- README --------------------------------------------------------------------------------


def test_readme_is_short_and_its_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert TEST_COMMAND in readme.splitlines()
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_markdown_points_to_the_docs_not_to_the_spec() -> None:
    offenders = [str(p.relative_to(ROOT)) for p in _markdown_files() if "SPEC §" in p.read_text(encoding="utf-8")]
    assert not offenders, f"'SPEC §' references left (point to a docs page instead): {offenders}"

"""Short commands import only what they use (benchmarks/bench_startup.py times them).

Each command runs in a fresh interpreter, as it is started, and reports the modules it
loaded: a guard on start-up that does not depend on timing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from daemon.doors.version import installed_version

REPO = Path(__file__).parents[4]
# What a command that reads the config and state does not need: logging machinery (until
# something logs), the pass engines, the run machinery, every command's JSON documents.
NOT_FOR_STATUS = (
    "structlog",
    "asyncio",
    "memory_engine.distillation",
    "skills_engine.library_maintenance",
    "workspace.consolidate_report",
    "daemon.run.manual",
    "daemon.doors.documents",
)
# `status` besides: no pass protocol or model client (next runs and the breaker need neither),
# no run session (the store maintenance record is read only when there is one), no SQLite
# (the example's transcripts are line files).
NOT_FOR_STATUS_ONLY = ("daemon.passes.protocol", "daemon.model.deep_tier", "ssl", "daemon.run.session", "sqlite3", "filelock", "daemon.impact.document")
NOT_FOR_CHECK = (*NOT_FOR_STATUS, "daemon.passes.protocol", "daemon.coordination.local", "filelock")
NOT_FOR_HELP = ("typing", "datetime", "importlib.metadata", "pydantic", "yaml", "structlog")


def _loaded(argv: list[str], cwd: Path, home: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    probe = (
        "import sys\n"
        f"sys.argv = ['metaeng-daemon', *{argv!r}]\n"
        "from daemon.launch import main\n"
        "try:\n"
        "    code = main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print('MODULES ' + ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    env = {**os.environ, "HOME": str(home)}
    env.pop("METAENG_CONFIG", None)
    done = subprocess.run([sys.executable, "-c", probe], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    # What the interpreter itself loads in this environment is not the command's: under the
    # suite's coverage, every subprocess starts coverage (sqlite3, typing, datetime) first.
    bare = subprocess.run(
        [sys.executable, "-c", "import sys; print(' '.join(sorted(sys.modules)))"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=True,
    )
    return done, set(line.split()[1:]) - set(bare.stdout.split())


@pytest.fixture
def example(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples", tmp_path / "demo")
    return tmp_path / "demo" / "config.yaml"


@pytest.mark.parametrize(
    ("words", "unwanted"),
    [
        (["status"], (*NOT_FOR_STATUS, *NOT_FOR_STATUS_ONLY)),
        (["status", "--json"], (*NOT_FOR_STATUS, *NOT_FOR_STATUS_ONLY)),
        (["config", "check"], NOT_FOR_CHECK),
    ],
)
def test_status_and_config_check_load_neither_logging_nor_engines_nor_run_machinery(
    example: Path, words: list[str], unwanted: tuple[str, ...]
) -> None:
    done, modules = _loaded(["--config", str(example), *words], example.parent, example.parent)
    assert done.returncode == 0, done.stderr
    assert sorted(modules & set(unwanted)) == []


@pytest.mark.parametrize("word", ["--help", "--version"])
def test_help_and_version_load_no_more_than_the_parser(tmp_path: Path, word: str) -> None:
    done, modules = _loaded([word], tmp_path, tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(modules & set(NOT_FOR_HELP)) == []


def test_version_prints_what_importlib_metadata_finds(tmp_path: Path) -> None:
    done, _ = _loaded(["--version"], tmp_path, tmp_path)
    assert done.stdout == f"metaeng-daemon {metadata.version('metaeng-daemon')}\n"


@pytest.mark.parametrize("name", ["metaeng-daemon", "metaeng_daemon", "pydantic", "PyYAML", "typing-extensions"])
def test_installed_version_agrees_with_importlib_metadata(name: str) -> None:
    assert installed_version(name) == metadata.version(name)


def test_installed_version_of_a_distribution_not_installed_is_none() -> None:
    assert installed_version("no-such-distribution-anywhere") is None


def test_a_standard_library_record_before_structlog_is_imported_is_rendered_and_redacted(tmp_path: Path) -> None:
    probe = (
        "import logging, sys\n"
        "from daemon.doors import logs\n"
        "from daemon.kernel import redact\n"
        "redact.register('hunter2-secret-value')\n"
        "logs.configure_when_used(sys.stderr, 'warning')\n"
        "assert 'structlog' not in sys.modules\n"
        "logging.getLogger('httpx').warning('key hunter2-secret-value refused')\n"
        "logging.getLogger('httpx').info('below the level')\n"
        "import structlog\n"
        "structlog.get_logger('metaeng.probe').warning('probe.event', field=1)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines()]
    assert [(line["event"], line["level"]) for line in lines] == [
        ("key *** refused", "warning"),
        ("probe.event", "warning"),
    ]
    assert "hunter2" not in done.stderr

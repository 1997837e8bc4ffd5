"""tools/coverage_floor.py: a module under the floor needs a reason in pyproject.toml."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _floor() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("coverage_floor", ROOT / "tools" / "coverage_floor.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_a_module_under_the_floor_without_a_reason_is_named_and_one_with_a_reason_is_not() -> None:
    verdict = _floor().judge(
        {"daemon/a.py": 79.9, "daemon/b.py": 50.0, "daemon/c.py": 80.0},
        {"daemon/b.py": "runs only in a subprocess"},
    )
    assert verdict.unexplained == {"daemon/a.py": 79.9}
    assert verdict.stale == {} and verdict.unknown == []


def test_a_reason_for_a_module_now_over_the_floor_or_for_no_module_is_reported() -> None:
    verdict = _floor().judge({"daemon/a.py": 95.0}, {"daemon/a.py": "was low", "daemon/gone.py": "renamed"})
    assert verdict.unexplained == {}
    assert verdict.stale == {"daemon/a.py": 95.0}
    assert verdict.unknown == ["daemon/gone.py"]


def test_every_reason_in_pyproject_names_a_module_that_exists_and_says_something() -> None:
    listed = _floor().reasons()
    for module, reason in listed.items():
        assert (ROOT / module).is_file(), f"{module} is listed in [tool.metaeng.coverage-exceptions] but missing"
        assert len(reason.split()) >= 4, f"{module}: the reason should be a sentence, not {reason!r}"

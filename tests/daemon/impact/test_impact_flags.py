"""An item said again after delivery is flagged, shown first, counted, and notified once
(`impact_flagged`; daemon/doors/impact_flags.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from tests.daemon.impact.skill_fixture import said_again
from tests.daemon.impact.test_impact_cli import SAID, deployment
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

REASON = (
    "said again 1 time(s) after its fact reached the agent: the fact may be wrong, "
    "or not reach the agent when it matters"
)
RECEIVER = "import pathlib, sys\nwith open(pathlib.Path(sys.argv[1]), 'a') as fh:\n    fh.write(sys.stdin.read().strip() + '\\n')\n"


def test_an_item_said_again_after_delivery_is_flagged_with_its_reason(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    document = run_cli(config, "impact", "--agent", "ada", "--json").json()
    (item,) = document["items"]
    assert item["flagged"] is True and item["flag_reason"] == REASON
    assert document["figures"]["flagged"] == 1


def test_impact_shows_the_flagged_items_first(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    out = run_cli(config, "impact", "--agent", "ada").out.splitlines()
    assert out[0].endswith("1 said again after delivery, 1 flagged")
    assert out[1:4] == ["", "flagged for review: 1", f"  item-1  “{SAID}”: {REASON}"]


def notify_to(config: Path, root: Path) -> Path:
    """`notify.command` appends every event it is given to a file; that file."""
    settings = yaml.safe_load(config.read_text(encoding="utf-8"))
    (root / "receiver.py").write_text(RECEIVER, encoding="utf-8")
    events = root / "events.jsonl"
    settings["notify"] = {"command": [sys.executable, str(root / "receiver.py"), str(events)]}
    config.write_text(yaml.safe_dump(settings, sort_keys=False), encoding="utf-8")
    return events


def test_impact_notifies_a_newly_flagged_item_once(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    events = notify_to(config, root)
    assert run_cli(config, "impact", "--agent", "ada").code == 0
    (sent,) = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert sent["event"] == "impact_flagged" and sent["agent"] == "ada"
    assert sent["details"]["quote"] == SAID and sent["details"]["reason"] == REASON
    assert sent["url"].endswith("/impact?agent=ada")
    # said again once more: the same item, already notified
    said_again(root / "ada", "s4.jsonl", "2026-11-24", "Again: pnpm, not npm!")
    assert run_cli(config, "impact", "--agent", "ada").code == 0
    assert len(events.read_text(encoding="utf-8").splitlines()) == 1


def test_impact_sends_no_notice_when_notify_events_leave_it_out(root: Path, fake_model: FakeModelServer) -> None:
    config = deployment(root, fake_model)
    events = notify_to(config, root)
    settings = yaml.safe_load(config.read_text(encoding="utf-8"))
    settings["notify"]["events"] = ["run_failed"]
    config.write_text(yaml.safe_dump(settings, sort_keys=False), encoding="utf-8")
    assert run_cli(config, "impact", "--agent", "ada").code == 0
    assert not events.exists()


def test_a_key_the_person_typed_is_masked_in_the_notice_that_leaves_the_machine(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model)
    events = notify_to(config, root)
    token = "ghp_" + "Zq7Xw2Lk9Vb4Nm8Rt5Yp"
    first = root / "ada" / "transcripts" / "s1.jsonl"
    said = "No, we use pnpm, not npm, with the registry token " + token + "."
    first.write_text(first.read_text(encoding="utf-8").replace(SAID, said), encoding="utf-8")
    assert run_cli(config, "impact", "--agent", "ada").code == 0
    (sent,) = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert token not in json.dumps(sent)
    assert sent["details"]["quote"] == said.replace(token, "***")
    assert "***" in sent["summary"]

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tests.skills_engine.builders import (
    add_turns,
    candidate,
    digest_tree,
    make_skill,
    once,
    skill_md,
    skills_config,
)
from tests.support.fake_model import FakeModelServer

BINARY = bytes(range(256)) * 3 + b"\x00\xff\r\n"


def pack_with_everything(root: Path) -> Path:
    pack = root / "packs"
    original = pack / "triage"
    text = skill_md(
        "triage",
        "Triage tickets. Use on new tickets.",
        ["Open the queue", "Label each ticket"],
        [("Notes", f"Run {original}/scripts/sort.py or see {original}/docs/guide.md.")],
    )
    folder = make_skill(
        pack,
        "triage",
        text,
        {
            "scripts/sort.py": f"# reads {original}/data/labels.csv\nprint('sort')\n",
            "docs/guide.md": "Relative refs like scripts/sort.py need no rewrite.\n",
            "docs/other.md": (
                f"Not ours: {original}-legacy/x, {original}x, /mnt/nas{original}/y and "
                f"backup{original} stay as they are.\n"
            ),
            "assets/logo.bin": BINARY + str(original).encode(),
            "templates/empty.md": "",
        },
    )
    os.symlink("/etc/passwd", folder / "passwd")
    return folder


def test_fork_copies_byte_for_byte_rewrites_paths_and_records_provenance(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    original = pack_with_everything(root)
    add_turns(root / "ada", 4)
    before = digest_tree(root / "packs")
    fake_model.reply(
        {"candidates": [candidate("update", "triage", steps=["Close duplicates"])]}, schema="ScoutResponse"
    )
    entry = next(p for p in once(config, "skill_learning")["passes"] if p["name"] == "skill_learning")
    assert entry["candidates"][0]["outcome"] == "forked"
    copy = root / "ada" / "skills" / "triage"
    # The original is never touched, and the symlink was neither followed nor copied.
    assert digest_tree(root / "packs") == before
    assert not (copy / "passwd").exists()
    assert b"root:" not in b"".join(p.read_bytes() for p in (root / "ada").rglob("*") if p.is_file())
    # Byte equality of every file that needed no rewriting; binary never rewritten.
    for rel in ("docs/guide.md", "docs/other.md", "assets/logo.bin", "templates/empty.md"):
        assert (copy / rel).read_bytes() == (original / rel).read_bytes(), rel
    # Internal references to the original folder now point at the copy (text files only).
    assert (copy / "scripts/sort.py").read_text() == f"# reads {copy}/data/labels.csv\nprint('sort')\n"
    notes = (copy / "SKILL.md").read_text()
    assert f"Run {copy}/scripts/sort.py or see {copy}/docs/guide.md." in notes
    assert str(original) + "/" not in notes
    assert "3. Close duplicates" in notes
    # Provenance beside the copy, never in the frontmatter.
    assert "sha256" not in notes
    record = json.loads((root / "ada/skills/triage.provenance.json").read_text())
    assert record["version"] == 1 and record["kind"] == "fork" and record["machine_written"] is True
    assert record["source_kind"] == "pack" and record["origin"] == str(original)
    assert record["rewritten"] == ["SKILL.md", "scripts/sort.py"]
    assert record["rewrites"] == [{"old": str(original), "new": str(copy)}]
    assert record["headings"] == ["triage", "Steps", "Notes"]
    assert record["skipped"] == ["passwd (symlink, not followed)"]
    for rel, fact in record["source_files"].items():
        assert fact["sha256"] == hashlib.sha256((original / rel).read_bytes()).hexdigest()
    assert record["copy_files"]["assets/logo.bin"] == {
        "sha256": hashlib.sha256(BINARY + str(original).encode()).hexdigest(),
        "size": len(BINARY) + len(str(original)),
        "text": False,
    }
    # Copy hashes are the copy at fork time (before the additive update).
    assert (
        record["copy_files"]["SKILL.md"]["sha256"]
        != hashlib.sha256((copy / "SKILL.md").read_bytes()).hexdigest()
    )
    assert [e["action"] for e in record["history"]] == ["forked", "updated"]
    # The untouched starting state is kept outside the skill folder as the merge base.
    base = root / "ada/.metaeng/fork-bases/triage"
    for rel in record["source_files"]:
        assert (base / rel).read_bytes() == (original / rel).read_bytes()


def test_a_second_update_applies_to_the_copy_additively(root: Path, fake_model: FakeModelServer) -> None:
    config = skills_config(root, fake_model.url)
    pack_with_everything(root)
    add_turns(root / "ada", 4)
    fake_model.reply(
        {"candidates": [candidate("update", "triage", steps=["Close duplicates"])]}, schema="ScoutResponse"
    )
    once(config, "skill_learning")
    first = (root / "ada/skills/triage/SKILL.md").read_text()
    add_turns(root / "ada", 4, name="t2.jsonl")
    fake_model.reply(
        {
            "candidates": [
                candidate(
                    "update",
                    "triage",
                    steps=["Close duplicates", "Ping the owner"],
                    sections=[{"heading": "Notes", "text": "Never close P1 tickets."}],
                ),
            ]
        },
        schema="ScoutResponse",
    )
    entry = next(
        p for p in once(config, "skill_learning", hours=1)["passes"] if p["name"] == "skill_learning"
    )
    assert entry["candidates"][0]["outcome"] == "updated"
    second = (root / "ada/skills/triage/SKILL.md").read_text()
    assert all(line in second.splitlines() for line in first.splitlines())
    assert "4. Ping the owner" in second and second.count("Close duplicates") == 1
    assert second.rstrip().endswith("Never close P1 tickets.")

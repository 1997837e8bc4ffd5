"""Each skill's own page: SKILL.md rendered inert, its files, provenance, uses, history
with links to the runs that changed it, its buttons; archived skills too; names checked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skills_engine.provenance import Provenance, sidecar_write
from tests.daemon.doors.console.helpers import client, post
from tests.skills_engine.builders import make_skill, skill_md
from tests.support.deploy import run_cli
from tests.support.skill_library import curated_library

HOSTILE = """---
name: hostile
description: Looks helpful. Use when asked.
metadata:
  version: "2.1"
---

# Hostile <script>alert("body")</script>

<div onmouseover="steal()">raw html</div>

1. Click [here](javascript:alert(1)) or [there](data:text/html;base64,PHNjcmlwdD4=) or [docs](https://example.org/docs).
2. Look: ![tracker](https://evil.example/pixel.png) and ![local](/agents)
"""


def _hostile(root: Path) -> Path:
    config = curated_library(root)
    make_skill(root / "ada" / "skills", "hostile", HOSTILE, files={"notes/a.md": "<b>bold</b> & more\n", "bin/x": b"\x00\x01"})
    return config


def test_skill_md_with_script_raw_html_javascript_link_and_images_renders_inert(root: Path) -> None:
    page = client(_hostile(root)).get("/skills/ada/hostile").text
    article = page[page.index('<article class="skill-md">') :].split("</article>")[0]
    assert "<script" not in article and "<div" not in article
    assert "&lt;script&gt;" in article and "&lt;div onmouseover=&quot;steal()&quot;&gt;" in article
    assert 'href="javascript:' not in article and 'href="data:' not in article
    assert "[here](javascript:alert(1))" in article  # a refused link stays text
    assert '<a href="https://example.org/docs" rel="noopener noreferrer nofollow">docs</a>' in article
    assert "<img" not in page
    assert "[image: tracker — https://evil.example/pixel.png]" in article
    assert "![local](/agents)" in article  # an image of a console route: not even its address is linked
    assert "<dt>version</dt><dd>2.1</dd>" in page  # the frontmatter's metadata


def test_skill_page_lists_its_files_and_shows_a_text_file_escaped(root: Path) -> None:
    browser = client(_hostile(root))
    page = browser.get("/skills/ada/hostile").text
    assert "<tr><td>notes/a.md</td><td>19 B</td>" in page and 'href="?file=notes/a.md#file-view"' in page
    assert "<tr><td>bin/x</td><td>2 B</td><td><span class=\"muted\">binary</span>" in page
    shown = browser.get("/skills/ada/hostile?file=notes/a.md").text
    assert '<pre class="report">&lt;b&gt;bold&lt;/b&gt; &amp; more\n</pre>' in shown
    assert browser.get("/skills/ada/hostile?file=../../config.yaml").status_code == 404


@pytest.mark.parametrize("name", ["..", "%2E%2E", "..%2F..%2Fconfig.yaml", "Bad_Name", "a%0A", "nope"])
def test_unknown_or_malformed_skill_names_are_a_404_page_naming_them(root: Path, name: str) -> None:
    browser = client(curated_library(root))
    answer = browser.get(f"/skills/ada/{name}")
    if name == "..":  # the client folds /skills/ada/.. into /skills/
        assert answer.status_code in (200, 404)
        return
    assert answer.status_code == 404
    if "%2F" not in name:  # a slash is no route's name at all: the bare 404
        assert 'class="notice refused"' in answer.text and "no skill" in answer.text
    assert browser.get(f"/skills/ada/archive/{name}").status_code == 404


def test_skills_page_links_each_skill_and_each_archived_one_to_its_page(root: Path) -> None:
    page = client(curated_library(root)).get("/skills?agent=ada").text
    assert '<a href="/skills/ada/busy">busy</a>' in page
    assert '<a href="/skills/ada/archive/gone-skill">gone-skill</a>' in page


def test_skill_page_shows_uses_place_provenance_and_pin_button(root: Path) -> None:
    from tests.daemon.run.test_usage import deployment, once, two_turns
    from tests.daemon.transcripts.test_usage import write_session

    config = deployment(root)
    write_session(root / "projects" / "-srv-project", two_turns())
    once(config)
    page = client(config).get("/skills/ada/release").text
    assert '<dd id="skill-uses">1</dd>' in page
    assert '<time datetime="2026-11-05T09:02:00+00:00">2026-11-05 09:02</time>' in page


def test_skill_history_links_the_runs_that_changed_it_and_restore_from_the_archived_page(root: Path) -> None:
    config = curated_library(root)
    browser = client(config)
    archived = browser.get("/skills/ada/archive/gone-skill").text
    assert "Archived skill gone-skill" in archived
    assert 'action="/skills/ada/archive/gone-skill/restore"' in archived
    assert "never used since it was learned: 70 session(s)" in archived

    restored = post(browser, "/skills/ada/archive/gone-skill/restore", "/skills/ada/archive/gone-skill")
    assert restored.status_code == 200, restored.text
    (run_id,) = re.findall(r'run <a href="/runs/ada/([^"]+)">', restored.text)

    page = browser.get("/skills/ada/gone-skill").text
    history = page[page.index('id="history"') :]
    assert f'<a href="/runs/ada/{run_id}">run {run_id}</a>' in history
    assert "skills/gone-skill/SKILL.md" in history and ".metaeng/skill-archive/gone-skill/archive.json" in history
    assert "external edits" in history  # the import of the library before the run
    assert 'action="/skills/ada/gone-skill/pin"' in page  # learned again: the curator may move it


def test_fork_page_shows_its_provenance_source_and_upstream(root: Path) -> None:
    config = curated_library(root)
    home = root / "ada"
    make_skill(root / "packs", "triage", skill_md("triage"))
    make_skill(home / "skills", "triage", skill_md("triage"))
    record = Provenance(
        name="triage", kind="fork", created_at="2026-11-01T00:00:00+00:00", source_kind="pack",
        origin=str(root / "packs" / "triage"), base="0123456789abcdef0123",
    )
    write = sidecar_write("skills", record)
    (home / write.path).write_bytes(write.content)
    assert run_cli(config, "skills", "check", "--agent", "ada").code in (0, 1)
    page = client(config).get("/skills/ada/triage").text
    prov = page[page.index('id="provenance"') :].split("</dl>")[0]
    assert "<dt>kind</dt><dd>fork</dd>" in prov and "<dt>source</dt><dd>pack</dd>" in prov
    assert f"<dt>upstream</dt><dd>{root / 'packs' / 'triage'}</dd>" in prov
    assert "<code>0123456789abcdef0123</code>" in prov
    assert "Also named triage" in page and "pack" in page

"""A run's page: what changed, per file, in words; internal files collapsed below; every diff collapsible."""

from __future__ import annotations

import re
from pathlib import Path

from daemon.doors.console.diff import split_patch
from daemon.doors.console.run_summary import summarise
from tests.daemon.doors.console.helpers import DAYS, client, open_proposal, post, review_deployment
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

FACTS = ".metaeng/facts.jsonl"
PATCH = """diff --git a/skills/x/SKILL.md b/skills/x/SKILL.md
new file mode 100644
--- /dev/null
+++ b/skills/x/SKILL.md
@@ -0,0 +1,2 @@
+# x
+use it
diff --git a/AGENTS.md b/AGENTS.md
--- a/AGENTS.md
+++ b/AGENTS.md
@@ -1,3 +1,3 @@
 # Instructions
-- Be brief.
-- Answer in German.
+- Be short.
+- Answer in French.
diff --git a/.metaeng/review/p1.json b/.metaeng/review/p1.json
new file mode 100644
--- /dev/null
+++ b/.metaeng/review/p1.json
@@ -0,0 +1 @@
+{}
diff --git a/memory/old.md b/memory/old.md
deleted file mode 100644
--- a/memory/old.md
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/.metaeng/facts.jsonl b/.metaeng/facts.jsonl
--- a/.metaeng/facts.jsonl
+++ b/.metaeng/facts.jsonl
@@ -1,1 +1,4 @@
-{"id": "f1", "value": "Berlin", "valid_to": null}
+{"id": "f1", "value": "Berlin", "valid_to": "2026-11-16"}
+{"id": "f2", "value": "Paris", "valid_to": null}
+{"id": "f3", "value": "German", "valid_to": null}
+{"id": "f4", "value": "tea", "valid_to": null}
"""


def test_each_file_is_summarised_in_words_facts_first_internal_last() -> None:
    said = [(s.path, s.words, s.internal) for s in summarise(split_patch(PATCH), FACTS)]
    assert said == [
        (FACTS, "3 facts added, 1 superseded", False),
        ("skills/x/SKILL.md", "created", False),
        ("AGENTS.md", "2 lines changed", False),
        ("memory/old.md", "deleted", False),
        (".metaeng/review/p1.json", "review proposal opened", True),
    ]


def test_a_run_page_keeps_the_review_file_collapsed_below_and_the_person_files_open(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    browser = client(config)
    (opened,) = run_cli(config, "runs", "--json").json()
    page = browser.get(f"/runs/ada/{opened['run_id']}").text
    assert '<details id="internal-summary">' in page
    assert f'<a href="#file-.metaeng/review/{pid}.json">.metaeng/review/{pid}.json</a>: review proposal opened' in page
    assert re.search(rf'<details class="file internal"><summary>\.metaeng/review/{pid}\.json ', page)

    approved = post(browser, f"/review/ada/{pid}/approve", "/review", why="")
    assert approved.status_code == 200, approved.text
    run_id = run_cli(config, "runs", "--json").json()[0]["run_id"]
    page = browser.get(f"/runs/ada/{run_id}").text
    summary = page[page.index('<ul id="run-summary">') : page.index("<h2>Report</h2>")]
    assert f"memory/{DAYS[1]}.md</a>: 2 lines removed" in summary
    assert re.search(rf'<details class="file" open><summary>memory/{DAYS[1]}\.md ', page)
    person = page.index(f'<details class="file" open><summary>memory/{DAYS[1]}.md')
    assert person < page.index('<details class="file internal">')  # internal files come last


def test_a_distillation_run_says_facts_added_then_superseded(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    add_turns(root, first="I moved to Paris.")
    fake_model.reply(
        {"facts": [berlin_fact(turn="T1", quote="I moved to Paris", value="Paris", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )
    assert run_cli(config, "once", "--agent", "ada").code == 0
    first, second = reversed([r["run_id"] for r in run_cli(config, "runs", "--json").json() if r["passes"]])
    browser = client(config)
    assert f"{FACTS}</a>: 1 fact added</li>" in browser.get(f"/runs/ada/{first}").text
    assert f"{FACTS}</a>: 1 fact added, 1 superseded</li>" in browser.get(f"/runs/ada/{second}").text

"""The fact page of an entity: every version (current and superseded) with its validity,
source turn, quote and the run that wrote it; linked from the Memory page."""

from __future__ import annotations

import re
from pathlib import Path

from daemon.doors.console.charts import labelled_points, line_chart
from tests.daemon.doors.console.helpers import client, open_proposal, review_deployment
from tests.support.deploy import run_cli
from tests.support.facts import stored_fact, write_store


def _facts(root: Path) -> Path:
    config = review_deployment(root)
    write_store(
        root / "ada",
        stored_fact(valid_to="2026-11-20", quote="I live in <b>Berlin</b>"),
        stored_fact(
            id="f-second", value="Paris", valid_from="2026-11-20", observed_at="2026-11-20",
            source_event_id="t@7", supersedes_memory_id="f-first", quote="I moved to Paris",
        ),
        stored_fact(id="f-lang", key="language", value="German", source_event_id="t@9"),
        stored_fact(id="f-other", entity="team/ops", key="lead", value="Jonas"),
    )
    open_proposal(config)  # a run: the store's first commit imports the facts as they are
    return config


def test_memory_page_links_each_entity_to_its_fact_page(root: Path) -> None:
    page = client(_facts(root)).get("/memory?agent=ada").text
    assert '<a href="/memory/ada/entity/user" class="entity-link">user</a>' in page
    assert '<a href="/memory/ada/entity/team/ops" class="entity-link">team/ops</a>' in page


def test_fact_page_shows_every_version_with_validity_source_and_quotes(root: Path) -> None:
    browser = client(_facts(root))
    page = browser.get("/memory/ada/entity/user").text
    city = page[page.index('id="key-city"') :].split("</section>")[0]
    first = city[city.index('id="version-f-first"') :].split("</tr>")[0]
    assert "<td>2026-11-02</td>\n  <td>2026-11-20</td>\n  <td>Berlin</td>" in first
    second = city[city.index('id="version-f-second"') :].split("</tr>")[0]
    assert '<b>Paris</b> <span class="tag open">current</span>' in second and "supersedes f-first" in second
    assert "<code>t@7</code>" in second
    assert 'id="version-f-lang"' in page
    quotes = page[page.index('id="quotes"') :]
    assert "“I live in &lt;b&gt;Berlin&lt;/b&gt;”" in quotes and "“I moved to Paris”" in quotes
    assert "Jonas" not in page  # another entity's facts
    assert "Jonas" in browser.get("/memory/ada/entity/team/ops").text


def test_fact_page_names_the_run_that_wrote_and_the_run_that_changed_each_record(root: Path) -> None:
    config = _facts(root)
    forgot = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--json")
    assert forgot.code == 0, forgot.err
    undone = run_cli(config, "undo", forgot.json()["run_id"], "--json")
    assert undone.code == 0, undone.err
    page = client(config).get("/memory/ada/entity/user").text
    first = page[page.index('id="version-f-first"') :].split("</tr>")[0]
    assert re.search(r"a person&#39;s edit \([0-9a-f]{10}\)", first)  # the store's import of the file
    undo_id = undone.json()["run_id"]
    assert f'changed by <a href="/runs/ada/{undo_id}">run {undo_id}</a>' in first  # the undo wrote it back


def test_unknown_entity_or_agent_is_a_404_page_naming_it(root: Path) -> None:
    browser = client(_facts(root))
    answer = browser.get("/memory/ada/entity/nobody")
    assert answer.status_code == 404 and "has no stored fact about &#39;nobody&#39;" in answer.text
    assert browser.get("/memory/zed/entity/user").status_code == 404


def test_lab_chart_labels_its_last_point_whatever_the_number_of_points() -> None:
    for count in range(1, 40):
        chosen = labelled_points(count, 488 / max(1, count - 1))
        assert chosen[0] == 0 and chosen[-1] == count - 1 and len(chosen) <= 8, count
    days = [f"11-{d:02d}" for d in range(1, 15)]
    chart = line_chart("Spend", "USD", days, {"ada": [1.0] * 14})
    assert [label for _x, label in chart.x_labels][-1] == "11-14"

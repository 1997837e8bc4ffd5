"""Review cards: a contradiction offers keep a / b / both (the console's buttons and
`review approve ID --keep`), each applying exactly that side, each undoable; every card
heads its evidence by what it lists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.daemon.doors.console.contradiction import AGENTS, SIDE_A, SIDE_B, TOOLS, contradiction
from tests.daemon.doors.console.helpers import (
    SAME_ORIGIN,
    client,
    form_token,
    open_proposal,
    post,
    review_deployment,
)
from tests.support.deploy import run_cli
from workspace.contradictions import kept_both

AFTER = {
    "a": (AGENTS, TOOLS.replace(SIDE_B + "\n", "")),
    "b": (AGENTS.replace(SIDE_A + "\n", ""), TOOLS),
    "both": (AGENTS, TOOLS),
}


def _files(home: Path) -> tuple[str, str]:
    return (home / "AGENTS.md").read_text(), (home / "TOOLS.md").read_text()


def _stored(home: Path, pid: str) -> dict[str, object]:
    return dict(json.loads((home / ".metaeng" / "review" / f"{pid}.json").read_text()))


def test_contradiction_card_offers_keep_a_b_and_both_each_with_what_it_changes(root: Path) -> None:
    config = review_deployment(root)
    pid = contradiction(root / "ada")
    page = client(config).get("/review").text
    card = page[page.index(f'id="proposal-{pid}"') :].split("</section>")[0]
    for key in ("a", "b", "both"):
        assert f'id="keep-{key}-{pid}"' in card and f'name="keep" value="{key}"' in card
    keep_a = card[card.index(f'id="choice-a-{pid}"') :].split('id="choice-b-')[0]
    assert f'<span class="del">-{SIDE_B}</span>' in keep_a and "TOOLS.md" in keep_a
    keep_b = card[card.index(f'id="choice-b-{pid}"') :].split('id="choice-both-')[0]
    assert f'<span class="del">-{SIDE_A}</span>' in keep_b
    both = card[card.index(f'id="choice-both-{pid}"') :]
    assert "changes no file" in both and '<pre class="diff">' not in both.split("</form>")[0]
    assert f'id="approve-{pid}"' not in card  # the choices replace the single Approve
    assert "<h3>The two sides</h3>" in card and "Cited turns" not in card


@pytest.mark.parametrize("keep", ["a", "b", "both"])
def test_keeping_a_side_applies_exactly_that_side_and_undo_restores_both(root: Path, keep: str) -> None:
    config = review_deployment(root)
    home = root / "ada"
    pid = contradiction(home)
    browser = client(config)

    answer = post(browser, f"/review/ada/{pid}/approve", "/review", keep=keep)

    assert answer.status_code == 200, answer.text
    assert _files(home) == AFTER[keep]
    stored = _stored(home, pid)
    assert stored["decision"] == "approved" and stored["chosen"] == keep and stored["version"] == 2
    assert "keeping " in answer.text
    (run_id,) = re.findall(r'run <a href="/runs/ada/([^"]+)">', answer.text)
    undone = browser.post(
        f"/runs/ada/{run_id}/undo", data={"form_token": form_token(browser)}, headers=SAME_ORIGIN
    )
    assert undone.status_code == 200, undone.text
    assert _files(home) == (AGENTS, TOOLS)
    assert _stored(home, pid)["decision"] == "open"


def test_cli_approve_keep_both_changes_no_file_and_is_not_proposed_again(root: Path) -> None:
    from daemon.kernel.view import AgentView

    config = review_deployment(root)
    home = root / "ada"
    pid = contradiction(home)
    shown = run_cli(config, "review", "show", pid).out
    assert f"choices (review approve {pid} --keep KEY):" in shown and "- both: keep both AGENTS.md:3" in shown

    result = run_cli(config, "review", "approve", pid, "--keep", "both")

    assert result.code == 0, result.err
    assert f"approved proposal {pid} (contradiction), keeping both AGENTS.md:3 and TOOLS.md:3" in result.out
    assert _files(home) == (AGENTS, TOOLS)
    assert _stored(home, pid)["fingerprint"] in kept_both(AgentView(home))


def test_keep_on_a_proposal_without_choices_is_refused_and_changes_nothing(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    result = run_cli(config, "review", "approve", pid, "--keep", "a")
    assert result.code == 1
    assert f"proposal {pid} offers no choice 'a' (it offers no choices); nothing changed" in result.err
    assert run_cli(config, "review", "show", pid, "--json").json()["status"] == "open"


def test_daily_log_card_heads_its_evidence_as_the_repeats_it_removes(root: Path) -> None:
    config = review_deployment(root)
    pid = open_proposal(config)
    page = client(config).get("/review").text
    card = page[page.index(f'id="proposal-{pid}"') :].split("</section>")[0]
    assert "<h3>Repeated notes</h3>" in card and "Cited turns" not in card

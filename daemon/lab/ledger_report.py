"""Human-readable `report.md` files of a ledger (the JSON files stay the evidence)."""

from __future__ import annotations

from typing import Any


def _settings(s: dict[str, Any]) -> str:
    return (
        f"min_confidence {s['min_confidence']:g}, filter_entity {s['filter_entity']}, "
        f"time_aware {s['time_aware']}, deduplicate {s['deduplicate']}, top_k {s['top_k']}"
    )


def _score(doc: dict[str, Any]) -> str:
    return (
        f"{doc['passed']}/{doc['total']} passed, {doc['mean_stored_records']:g} stored records per scenario"
    )


def campaign_report(doc: dict[str, Any]) -> str:
    lines = [
        f"# Proposer campaign — {doc['status']}",
        "",
        f"- suite: {doc['suite']['name']} ({doc['suite']['scenarios']} scenarios, sha256 {doc['suite']['sha256'][:12]}…)",
        f"- model: {doc['model']['name']} at {doc['model']['base_url']}, prompt {doc['prompt_version']}",
        f"- plan: {doc['plan']['campaigns']} campaign(s) × at most {doc['plan']['iterations']} iteration(s), "
        f"budget {doc['plan']['budget_usd']:g} USD",
        f"- start ({doc['plan']['start_label']}): {_settings(doc['plan']['start'])} → {_score(doc['start'])}",
        f"- spend: {doc['spend']['charged_or_reserved_usd']:.6f} USD charged or reserved over {doc['spend']['calls']} call(s)",
        "",
    ]
    for campaign in doc["campaigns"]:
        lines += [f"## Campaign {campaign['campaign']}: {campaign['status']}", ""]
        if campaign["iterations"]:
            lines += [
                "| iteration | status | candidate | patch | score | decision |",
                "| --- | --- | --- | --- | --- | --- |",
            ]
        for it in campaign["iterations"]:
            patch = ", ".join(f"{k}={v}" for k, v in (it.get("patch") or {}).items())
            score = f"{it['passed']} / {it['mean_stored_records']:g}" if "passed" in it else ""
            decision = it.get("reason") or it.get("error_type") or ""
            if "selected" in it:
                decision = ("selected: " if it["selected"] else "parent kept: ") + decision
            lines.append(
                f"| {it['iteration']} | {it['status']} | {it.get('candidate_id', '')} | {patch} | {score} | "
                f"{decision.replace('|', '/')} |"
            )
        final = campaign.get("final_parent")
        if final:
            lines += ["", f"Final parent {final['id']}: {_settings(final['settings'])} → {_score(final)}"]
        lines.append("")
    selected = doc.get("selected")
    if selected:
        lines += [
            "## Selected",
            "",
            f"{selected['candidate_id']} of campaign {selected['campaign']}: {_settings(selected['settings'])} → "
            f"{_score(selected)} ({selected['reason']}).",
            "",
            "Nothing was adopted: a person adopts it through `lab propose` / the review queue.",
        ]
    else:
        lines += ["## Selected", "", "No campaign improved on the start configuration."]
    return "\n".join(lines) + "\n"


def grid_report(doc: dict[str, Any], rows: list[list[str]]) -> str:
    best = doc.get("best")
    lines = [
        "# Settings grid",
        "",
        f"- suite: {doc['suite']['name']} ({doc['scenarios']} scenarios, sha256 {doc['suite']['sha256'][:12]}…)",
        f"- configurations: {doc['configurations']}",
        f"- baseline: {_settings(doc['baseline']['settings'])} → {_score(doc['baseline'])}",
        f"- best: {_settings(best['settings'])} → {_score(best)}"
        if best
        else "- best: none passes every hard check",
        "",
        "| rank | min_confidence | stores above | filter_entity | time_aware | deduplicate | top_k | passed | stored |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def evaluate_report(doc: dict[str, Any]) -> str:
    ev, parent, comparison = doc["evaluation"], doc["parent"], doc["comparison"]
    lines = [
        f"# Evaluation of {doc['candidate_file']}",
        "",
        f"- suite: {doc['suite']['name']} (sha256 {doc['suite']['sha256'][:12]}…)",
        f"- candidate: {_settings(ev['settings'])} → {_score(ev)}, {ev['violations']} hard-check violation(s)",
        f"- parent ({doc['parent_label']}): {_settings(parent['settings'])} → {_score(parent)}",
        f"- {comparison['recommendation']}: {comparison['reason']}",
        f"- failed scenarios: {', '.join(ev['failed']) or 'none'}",
        "",
        "A recommendation is evidence for a person; nothing is adopted here.",
    ]
    return "\n".join(lines) + "\n"

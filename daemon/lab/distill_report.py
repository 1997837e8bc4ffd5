"""`report.md` of a precision run, and the figures as text lines (the CLI prints the same)."""

from __future__ import annotations

from daemon.kernel.json_contract import LedgerDocument


def percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def headline(figures: LedgerDocument) -> list[str]:
    """Precision, recall and junk rate, each with the counts it comes from."""
    return [
        f"precision {percent(figures['precision'])} ({figures['supported_stored']} of {figures['stored']} stored "
        f"facts supported; {figures['unlabelled_stored']} unlabelled)",
        f"recall {percent(figures['recall'])} ({figures['facts_found']} of {figures['facts']} supported facts stored)",
        f"junk rate {percent(figures['junk_rate'])} ({figures['traps_stored']} of {figures['traps']} traps stored)",
    ]


def category_rows(figures: LedgerDocument) -> list[list[str]]:
    return [
        [name, str(n["traps"]), str(n["stored"]), percent(n["junk_rate"])]
        for name, n in figures["by_category"].items()
    ]


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def report(document: LedgerDocument, figures: LedgerDocument) -> str:
    corpus, model = document["corpus"], document["model"]
    lines = [
        f"# Distillation precision: {corpus['name']}",
        "",
        f"- model: `{model['name']}` at {model['base_url']}",
        f"- corpus sha256 `{corpus['sha256']}`, {figures['sessions']} of {corpus['sessions']} session(s) scored",
        f"- status: {document['status']}" + (f" ({document['stopped']})" if document["stopped"] else ""),
        f"- {figures['requests']} request(s), {figures['invalid_responses']} answer(s) that broke the schema, "
        f"{document['spend']['charged_or_reserved_usd']:.6f} USD charged or reserved",
        f"- {figures['proposed']} fact(s) proposed",
        "",
        *(f"**{line}**" if index == 0 else line for index, line in enumerate(headline(figures))),
        "",
        "## Junk by trap category",
        "",
        *_table(["category", "traps", "stored", "junk rate"], category_rows(figures)),
        "",
        "## What became of the proposed facts",
        "",
        *_table(["outcome", "facts"], [[k, str(n)] for k, n in figures["by_outcome"].items()]),
        "",
        "## Sessions",
        "",
        *_table(
            ["session", "proposed", "stored", "supported", "facts found", "traps stored"],
            [
                [
                    row["session"],
                    str(row["proposed"]),
                    str(row["stored"]),
                    str(row["supported_stored"]),
                    f"{row['facts_found']}/{row['facts']}",
                    "; ".join(row["traps_stored"]) or "—",
                ]
                for row in figures["by_session"]
            ],
        ),
    ]
    return "\n".join(lines) + "\n"

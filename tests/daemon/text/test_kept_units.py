from __future__ import annotations

from daemon.text.kept_units import describe, dropped, read

BASE = (
    "# Отчёт\n\n## Шаги\n1. Открой очередь\n2. Закрой дубликаты\n\n## Заметки\nБудь вежлив. Проверь журнал.\n"
)


def test_a_merge_keeps_headings_steps_and_sentences_of_any_language_every_side_holds() -> None:
    ours = BASE.replace("Открой очередь", "Открой очередь поддержки")
    theirs = BASE.replace("Открой очередь", "Открой новую очередь")
    merged = BASE.replace("Открой очередь", "Открой новую очередь поддержки")
    assert dropped([ours, theirs], merged) == []
    lost = dropped([ours, theirs], merged.replace("\n## Заметки\nБудь вежлив. Проверь журнал.\n", ""))
    assert describe(lost) == "section “Заметки”, sentence “Будь вежлив.”, sentence “Проверь журнал.”"
    assert (
        describe(dropped([ours, theirs], merged.replace("2. Закрой дубликаты\n", "")))
        == "step “Закрой дубликаты”"
    )


def test_what_one_side_removed_may_go_and_case_spacing_and_order_do_not_count() -> None:
    theirs = BASE.replace(" Проверь журнал.", "")
    assert dropped([BASE, theirs], theirs) == []
    shuffled = "# отчёт\n\n## Заметки\nБудь   вежлив. Проверь журнал.\n\n## ШАГИ\n- закрой дубликаты\n- открой очередь\n"
    assert dropped([BASE, BASE], shuffled) == []


def test_a_unit_every_side_holds_twice_must_stay_twice_and_match_whole_words() -> None:
    text = "## A\nRun the tests.\n\n## B\nRun the tests.\n"
    assert (
        describe(dropped([text, text], "## A\nRun the tests.\n\n## B\nLint.\n"))
        == "sentence “Run the tests.”"
    )
    assert describe(dropped(["Done."] * 2, "Abandoned.")) == "sentence “Done.”"
    assert dropped(["Done."] * 2, "Done, twice.") == []


def test_a_text_that_is_not_markdown_keeps_its_lines_and_its_frontmatter_lines() -> None:
    assert describe(dropped(["set -e\necho hi\n"] * 2, "echo hi\n", markdown=False)) == "line “set -e”"
    skill = "---\nname: x\ndescription: Do it.\n---\n# X\n"
    assert (
        describe(dropped([skill] * 2, skill.replace("Do it.", "Do it now."))) == "line “description: Do it.”"
    )
    assert [u.kind for u in read(skill).units] == ["line", "line", "heading"]

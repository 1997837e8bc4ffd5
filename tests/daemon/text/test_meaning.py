from __future__ import annotations

import pytest

from daemon.kernel.secret_shapes import secret_tokens
from daemon.text.meaning import NOT, Token, read
from daemon.text.meaning_compare import compare, compare_three_way


def _tokens(text: str) -> set[str]:
    return {str(t) for t in read(text).tokens}


def test_tokens_of_each_category() -> None:
    tokens = _tokens(
        "On Monday 2026-11-30, Jonas must not deploy `make release` to prod.example.com or staging; "
        "mail billing@acme.com, see https://wiki.example.com/x, post to #ops and read exports/tickets.csv "
        "within three hours."
    )
    assert {
        "date “monday”",
        "date “2026-11-30”",
        "name “jonas”",
        "negation “not”",
        "code “`make release`”",
        "host “prod.example.com”",
        "environment “staging”",
        "email “billing@acme.com”",
        "url “https://wiki.example.com/x”",
        "channel “#ops”",
        "path “exports/tickets.csv”",
        "number “3 hour”",
        "polarity “less”",
        "polarity “always”",
    } <= tokens


def test_numbers_in_words_and_digits_are_the_same_token() -> None:
    assert _tokens("three engineers") == _tokens("3 engineers")
    assert _tokens("20 percent") == _tokens("20%") == _tokens("twenty percent")
    assert _tokens("the first week") == _tokens("the 1st week")
    assert _tokens("1,240 accounts for 47 minutes") == _tokens("1240 accounts for forty-seven minutes")
    assert _tokens("twice a week") == _tokens("2 times every week")


def test_a_sentence_initial_common_word_is_not_a_name_but_a_person_is() -> None:
    assert "name “reply”" not in _tokens("Reply in German.")
    assert "name “german”" in _tokens("Reply in German.")
    assert "name “jonas”" in _tokens("Jonas prefers prose.")


def test_may_the_month_and_may_the_verb() -> None:
    assert "date “may”" in _tokens("Invoices are due on May 5.")
    assert "polarity “may”" in _tokens("You may skip the summary.")


def test_rewording_reordering_and_case_keep_the_meaning() -> None:
    assert compare(["Never guess numbers."], "Do not guess numbers.").ok
    assert compare(["Always flag growth above 20%."], "Flag growth above 20 percent.").ok
    assert compare(["Jonas likes bullet points."], "JONAS prefers bullet points!").ok
    assert compare(
        ["Post to #ops, then email billing@acme.com."], "Email billing@acme.com, then post to #ops."
    ).ok


def test_a_merged_sentence_may_carry_the_union_of_its_sources() -> None:
    sources = ["Never share customer data outside #ops.", "Post the weekly report in #ops."]
    assert compare(sources, "Post the weekly report in #ops and never share customer data outside #ops.").ok
    assert NOT in compare(sources, "Post the weekly report and customer data in #ops.").dropped


def test_flips_are_dropped_and_added_tokens() -> None:
    change = compare(["The team has three engineers."], "The team has four engineers.")
    assert change.dropped == (Token("number", "3"),) and change.added == (Token("number", "4"),)
    assert compare(["Jonas is allergic to peanuts."], "Jonas is not allergic to peanuts.").added == (NOT,)
    assert compare(["Deploy to staging."], "Deploy to production.").describe() == (
        "drops environment “staging”; adds environment “production”"
    )
    assert compare(["Usually reply in German."], "Reply in German.").dropped == (
        Token("polarity", "usually"),
    )


def test_negations_are_counted_so_a_double_negation_is_a_change() -> None:
    assert compare(["Deploy without approval."], "Never deploy without approval.").added == (NOT,)
    assert compare(["Never X.", "Never Y."], "Never X and never Y.").ok


def test_an_added_secret_is_refused_and_never_quoted_whole() -> None:
    change = compare(
        ["Push with the bot."], "Push with the bot using ghp_a8K2mQ9xZ4vB7nL1pR6tY3wE5sD0fG2hJ4kL."
    )
    assert change.secrets and "ghp… (40 characters)" in change.describe()
    assert "a8K2mQ9x" not in change.describe()
    assert compare(["Rotate the API token monthly."], "Rotate the API token every month.").ok
    assert secret_tokens("log in with password hunter2") == {"password"}
    assert secret_tokens("the ticket export-weekly-report-2026-11-30 is ready") == frozenset()


def test_three_way_keeps_what_each_side_changed() -> None:
    base = "1. Write the email in English\n2. Copy Jonas\n"
    ours = "1. Write the email in German\n2. Copy Jonas\n"
    theirs = "1. Write the email in English\n2. Copy Jonas and Priya\n"
    assert compare_three_way(base, ours, theirs, "1. Write the email in German\n2. Copy Jonas and Priya\n").ok
    lost = compare_three_way(base, ours, theirs, "1. Write the email in German\n2. Copy Jonas\n")
    assert lost.dropped == (Token("name", "priya"),)
    flipped = compare_three_way(
        base, ours, theirs, "1. Never write the email in German\n2. Copy Jonas and Priya\n"
    )
    assert flipped.added == (NOT,)


def test_three_way_lets_a_token_go_that_one_side_removed() -> None:
    base = "1. Write the email in English\n2. Copy Jonas\n"
    ours = "1. Write the email in German\n2. Copy Jonas\n"
    theirs = "1. Write the email in English\n2. Copy the team\n"
    assert compare_three_way(base, ours, theirs, "1. Write the email in German\n2. Copy the team\n").ok
    assert compare_three_way(
        base, ours, theirs, "1. Write the email in English\n2. Copy the team\n"
    ).dropped == (Token("name", "german"),)


NOTE = "Keep it blameless: describe systems and decisions, not people."


def test_three_way_a_negation_removed_on_one_side_does_not_cancel_one_added_on_the_other() -> None:
    base = f"1. Write it\n\n## Notes\n{NOTE}\n"
    ours = base.replace(NOTE, NOTE + " Never share it outside #ops.")
    theirs = base.replace(NOTE, "Name the people involved and describe their decisions.")
    answer = base.replace(
        NOTE, "Name the people involved and describe their decisions. Share it outside #ops."
    )
    assert compare_three_way(base, ours, theirs, answer).dropped == (NOT,)
    kept = answer.replace("Share it", "Never share it")
    assert compare_three_way(base, ours, theirs, kept).ok


def test_three_way_negations_both_sides_add_in_different_places_both_stay() -> None:
    base = "1. Open the queue\n2. Share the draft in #ops\n\n## Notes\nBe kind.\n"
    step = "2. Share the draft in #ops"
    cases = [
        # both insert a different step at the same place
        (
            base.replace("\n\n", "\n3. Share it, but never name customers\n\n"),
            base.replace("\n\n", "\n3. Never publish before legal signs off.\n\n"),
        ),
        # one rewrites a step, the other inserts one right after it
        (
            base.replace(step, step + ", but never name customers"),
            base.replace(step, step + "\n3. Never publish before legal signs off."),
        ),
    ]
    for ours, theirs in cases:
        both = "1. Open the queue\n2. Share the draft in #ops, but never name customers\n"
        both += "3. Never publish before legal signs off.\n\n## Notes\nBe kind.\n"
        one = both.replace("but never name customers", "naming the customers")
        assert compare_three_way(base, ours, theirs, both).ok, (ours, theirs)
        assert compare_three_way(base, ours, theirs, one).dropped == (NOT,), (ours, theirs)


def test_three_way_counts_an_identical_change_once_and_a_reworded_shared_addition_once() -> None:
    base = "1. Deploy on Fridays\n2. Tell #ops\n"
    ours = "1. Never deploy on Fridays\n2. Tell #ops\nDo not skip the checklist.\n"
    theirs = "1. Do not deploy on Fridays, ever\n2. Tell #ops and #eng\nDo not skip the checklist.\n"
    merged = "1. Never deploy on Fridays\n2. Tell #ops and #eng\nDo not skip the checklist.\n"
    assert compare_three_way(base, ours, theirs, merged).ok
    assert compare_three_way(base, ours, theirs, merged.replace("Do not skip", "Skip")).dropped == (NOT,)


def test_three_way_a_side_only_change_is_that_sides_and_cannot_be_undone() -> None:
    base = "1. Do not deploy on Fridays\n\n2. Tell #ops\n"
    ours = base.replace("#ops", "#ops and #eng")
    theirs = base.replace("Do not deploy on Fridays", "Deploy any day")
    assert compare_three_way(base, ours, theirs, theirs.replace("#ops", "#ops and #eng")).ok
    assert NOT in compare_three_way(base, ours, theirs, ours).added


def test_command_line_flags_are_tokens_and_list_markers_dashes_and_words_are_not() -> None:
    flags = {
        t.value
        for t in read("Run it with --dry-run, then -rf the folder (--verbose) at --level=3.").tokens
        if t.category == "flag"
    }
    assert flags == {"--dry-run", "-rf", "--verbose", "--level=3"}
    plain = read("- re-run the job — or -- not now -5 degrees, in `x --force`\n- second item")
    assert not [t for t in plain.tokens if t.category == "flag"]
    assert not compare(["Run it with --force."], "Run it with --dry-run.").ok


def test_three_way_an_upstream_flag_change_cannot_be_dropped() -> None:
    base = "1. Open\n\n## Notes\nRun the timeline script.\n"
    ours = base.replace("script.", "script with --dry-run first, then check the log.")
    theirs = base.replace("script.", "script with --force.")
    assert compare_three_way(base, ours, theirs, ours).dropped == (Token("flag", "--force"),)
    both = base.replace("script.", "script with --dry-run first, check the log, then with --force.")
    assert compare_three_way(base, ours, theirs, both).ok


def test_names_of_any_cased_script_are_names() -> None:
    tokens = _tokens("Jürgen, Ольга, Σοφία and 李娜 run support ops.")
    assert {"name “jürgen”", "name “ольга”", "name “σοφία”"} <= tokens
    # A script without case cannot tell a name from another word: its words are plain words.
    assert not {t for t in tokens if "李" in t or "娜" in t}
    assert compare(["Jörg runs support ops."], "Jürgen runs support ops.").dropped == (Token("name", "jörg"),)
    assert compare(["Ольга runs support ops."], "Наташа runs support ops.").describe() == (
        "drops name “ольга”; adds word “наташа”"
    )
    assert compare(["Jürgen runs support ops."], "JÜRGEN runs the support ops!").ok
    # A combining mark NFKC cannot compose is part of the word, not a break in it.
    assert read("राहुल runs support ops.").words >= {"राहुल"}


def test_strike_through_is_meaning_and_emphasis_is_not() -> None:
    sources = ["Priya is on call in the week of 2026-11-30.", "Priya is on call the week of 2026-11-30."]
    struck = compare(sources, "~~Priya is on call in the week of 2026-11-30.~~")
    assert struck.describe() == (
        "drops strike-through “not struck”; adds strike-through “priya call week 2026 11 30”"
    )
    # Merging a restored note into its withdrawn copy loses the restored one, and back.
    reminder = ["~~Send the invoice reminder~~", "Send the invoice reminder"]
    assert compare(reminder, reminder[0]).dropped == (Token("strike-through", "not struck"),)
    assert compare(reminder[:1], reminder[1]).dropped == (Token("strike-through", "send invoic remind"),)
    assert compare(reminder, "~~Send the invoice reminder~~ (sent), then send the invoice reminder again").ok
    assert compare(["**Send** the _invoice_ reminder."], "Send the invoice reminder.").ok
    assert not [
        t
        for t in read("Run `git diff ~~a~~`.").tokens
        if t.category == "strike-through" and t.value != "not struck"
    ]


def test_each_struck_span_is_a_token_so_striking_another_part_is_a_change() -> None:
    done, live = "~~Send the invoice reminder~~ done.", "Deploy the billing fix on Friday."
    struck_too = compare(
        [done, live], "~~Send the invoice reminder~~ done; ~~deploy the billing fix on Friday~~."
    )
    assert struck_too.added == (Token("strike-through", "deploy bill fix friday"),)
    moved = compare(
        ["Meeting with ~~Anna~~ Bob on Monday.", "Meeting with Bob on Monday."],
        "Meeting with Anna ~~Bob~~ on Monday.",
    )
    assert moved.dropped == (Token("strike-through", "anna"),)
    assert moved.added == (Token("strike-through", "bob"),)
    # The same parts struck, reworded around them, plurals and case aside: the same spans.
    assert compare(
        [done, live], "~~send the invoice reminders~~ (done); deploy the billing fix on Friday."
    ).ok


def test_stopping_quitting_and_refusing_are_negations() -> None:
    taking = "Jonas takes his medication in the morning."
    assert compare([taking], "Jonas stopped taking his medication in the morning.").added == (NOT,)
    assert compare([taking], "Jonas no longer takes his medication in the morning.").added == (NOT,)
    assert compare([taking], "Jonas quit taking his medication in the morning.").added == (NOT,)
    share = "Share the weekly report with the vendor."
    assert compare([share], "Refuse to share the weekly report with the vendor.").added == (NOT,)
    assert compare(["Accept vendor invites."], "Decline vendor invites.").added == (NOT,)
    assert compare(["Never deploy on Fridays."], "Stop deploying on Fridays.").ok


def test_a_merge_may_swap_words_but_not_invent_content() -> None:
    sources = ["Be brief.", "Keep answers short and to the point."]
    invented = compare(
        sources,
        "Be brief: keep answers short and to the point, and forward every answer to the vendor as well.",
    )
    assert invented.added == (Token("word", "forward"), Token("word", "vendor"))
    assert "adds word “forward”, word “vendor”" in invented.describe()
    # Connectives and the words of the sources, in any form, are not content it adds.
    assert compare(sources, "Be brief, and keep your answers short and to the point as well.").ok
    # A reworded sentence swaps words: one new word for each it leaves out (and one more) is fine.
    assert compare(["Respond to Priya within 2 hours."], "Priya gets an answer within two hours.").ok
    assert compare(["Summarise incidents for Jonas on Fridays."], "Every Friday, send Jonas a summary.").ok


def test_three_way_keeps_the_words_a_side_added_even_without_a_token() -> None:
    base = "1. Open the queue\n2. Label each ticket\n"
    ours = "1. Open the queue\n2. Label each ticket with team and tier\n"
    theirs = "1. Open the queue\n2. Label each ticket using the new taxonomy\n"
    assert compare_three_way(base, ours, theirs, ours).describe() == (
        "drops word “new”, word “taxonomy”, word “using”"
    )
    assert compare_three_way(base, ours, theirs, theirs).dropped == (
        Token("word", "team"),
        Token("word", "tier"),
    )
    both = "1. Open the queue\n2. Label each ticket with team and tier, using the new taxonomy\n"
    assert compare_three_way(base, ours, theirs, both).ok
    # A change only upstream made cannot be undone either; an identical change counts once.
    upstream = base.replace("queue", "support queue")
    assert compare_three_way(base, ours, upstream, ours).dropped == (Token("word", "support"),)
    assert compare_three_way(base, theirs, theirs, theirs).ok
    # A word one side added that the other removed (here from another step) may go.
    base = "1. Open the queue by tier\n2. Check the inbox\n3. Label each ticket\n"
    ours = base.replace("each ticket", "each ticket with its tier")
    theirs = base.replace("queue by tier", "queue").replace("each ticket", "each ticket using the taxonomy")
    assert compare_three_way(base, ours, theirs, theirs).ok


# "X likes tea" + "X likes coffee" joined with "and", in scripts without case (Chinese and
# Japanese are written without spaces: a clause is one run of letters).
UNCASED_MERGES = {
    "hindi": (["राम चाय पसंद करता है।", "राम कॉफी पसंद करता है।"], "राम चाय और कॉफी पसंद करता है।"),
    "chinese": (["用户喜欢喝茶。", "用户喜欢喝咖啡。"], "用户喜欢喝茶和咖啡。"),
    "japanese": (
        ["ユーザーはお茶が好きです。", "ユーザーはコーヒーが好きです。"],
        "ユーザーはお茶とコーヒーが好きです。",
    ),
    "arabic": (["المستخدم يحب الشاي.", "المستخدم يحب القهوة."], "المستخدم يحب الشاي والقهوة."),
    "hebrew": (["המשתמש אוהב תה.", "המשתמש אוהב קפה."], "המשתמש אוהב תה וקפה."),
    "korean": (
        ["사용자는 차를 좋아합니다.", "사용자는 커피를 좋아합니다."],
        "사용자는 차와 커피를 좋아합니다.",
    ),
    "thai": (["ผู้ใช้ชอบชา", "ผู้ใช้ชอบกาแฟ"], "ผู้ใช้ชอบชาและกาแฟ"),
    "chinese, two people": (["王伟本周值班。", "李娜也本周值班。"], "王伟和李娜本周值班。"),
    "japanese, not": (
        ["ユーザーはお茶を飲まない。", "ユーザーはコーヒーを飲まない。"],
        "ユーザーはお茶もコーヒーも飲まない。",
    ),
}


def test_a_merge_in_a_script_without_case_may_join_its_sources() -> None:
    for script, (sources, merged) in UNCASED_MERGES.items():
        assert compare(sources, merged).ok, (script, compare(sources, merged).describe())
    # Nothing there marks a name or a key word: each word is kept like a name, so rewording
    # is refused (the safe side), while adding a word stays under the invention rule.
    assert compare(["用户喜欢喝茶。"], "用户喜欢吃饭。").dropped == (Token("word", "喝茶"),)
    # Their negations are still negations, not a reworded word.
    assert compare(["用户喜欢喝茶。"], "用户不喜欢喝茶。").added == (NOT,)
    assert compare(["राम चाय पसंद करता है।"], "राम चाय पसंद नहीं करता है।").added == (NOT,)
    assert compare(["المستخدم يحب الشاي."], "المستخدم لا يحب الشاي.").added == (NOT,)
    assert compare(["המשתמש אוהב תה."], "המשתמש לא אוהב תה.").added == (NOT,)


def test_a_merge_in_a_script_without_spaces_cannot_invent_a_clause() -> None:
    sources, merged = UNCASED_MERGES["chinese"]
    invented = compare(sources, merged + "把所有答案转发给供应商。")  # "forward every answer to the vendor"
    assert invented.added and {t.category for t in invented.added} == {"word"}
    assert not compare(["المستخدم يحب الشاي."], "المستخدم يحب الشاي ويرسل كل الإجابات إلى المورد.").ok


# Meaning changes in scripts without case that a merge must not pass (the red team's probes).
UNCASED_CHANGES = {
    "zh swap person": (["王伟本周值班。"], "李娜本周值班。", "drops word “王伟”"),
    "zh drop person": (["王伟和李娜本周值班。"], "李娜本周值班。", "drops word “王伟”"),
    "zh number": (["延迟超过20%时报警。"], "延迟超过30%时报警。", "drops number “20%”; adds number “30%”"),
    "zh weekday": (["每周三发报告。"], "每周五发报告。", "drops number “3”"),
    "zh drop clause": (["用户喜欢喝茶，并且每周五发报告。"], "用户喜欢喝茶。", "drops date “weekly”, number “5”, word “发报告”"),
    "zh drop prohibition": (["禁止分享客户数据。"], "分享客户数据。", "drops negation “not”, polarity “allow”"),
    "ja drop negation": (["データを共有しません。"], "データを共有します。", "drops negation “not”"),
    "ja add negation": (["ユーザーはお茶を飲む。"], "ユーザーはお茶を飲まない。", "adds negation “not”"),
    "he drop negation": (["אל תשתף נתונים."], "תשתף נתונים.", "drops negation “not”"),
    "ko add negation": (
        ["사용자는 차를 좋아합니다."],
        "사용자는 차를 좋아하지 않습니다.",
        "adds negation “not”",
    ),
    "ko drop negation": (
        ["고객 데이터를 안 공유합니다."],
        "고객 데이터를 공유합니다.",
        "drops negation “not”",
    ),
    "th add negation": (["ผู้ใช้ชอบชา"], "ผู้ใช้ไม่ชอบชา", "adds negation “not”"),
    "th invent": (["ผู้ใช้ชอบชา"], "ผู้ใช้ชอบชาและส่งข้อมูลลูกค้าให้ผู้ขาย", "adds word"),
    "ar swap person": (
        ["راشد في المناوبة هذا الأسبوع."],
        "سارة في المناوبة هذا الأسبوع.",
        "drops word “راشد”",
    ),
    "hi drop person": (["राहुल और प्रिया इस हफ्ते ऑन-कॉल हैं।"], "प्रिया इस हफ्ते ऑन-कॉल हैं।", "drops word “राहुल”"),
}


def test_a_merge_in_a_script_without_case_keeps_every_word_of_its_sources() -> None:
    for case, (sources, merged, why) in UNCASED_CHANGES.items():
        change = compare(sources, merged)
        assert not change.ok and why in change.describe(), (case, change.describe())
    # The connectives of those scripts may go or come: "and", "also".
    assert compare(["王伟也本周值班。"], "王伟本周值班。").ok
    assert compare(
        ["사용자는 차를 좋아합니다.", "사용자는 또한 커피를 좋아합니다."], "사용자는 차와 커피를 좋아합니다."
    ).ok


def test_negations_written_inside_a_word_or_unspaced_text_are_negations() -> None:
    for text in (
        "좋아하지 않습니다",
        "할 수 없다",
        "공유하지 못합니다",
        "飲まない",
        "共有しません",
        "ไม่ชอบ",
        "אל תשתף",
    ):
        assert read(text).negations == 1, text
    # Not 少ない ("few"), 必ず ("always"), ずっと ("all along"), nor 안전 ("safety").
    for text in ("少ない", "必ず確認する", "ずっと待つ", "안전 점검"):
        assert read(text).negations == 0, text


def test_a_number_next_to_a_letter_without_case_is_a_number_and_inside_a_word_it_is_not() -> None:
    assert {"number “20%”", "number “3”"} <= _tokens("延迟超过20%时报警，第3次。")
    assert "number “20”" in _tokens("20분 안에 답하세요.")
    assert not {t for t in _tokens("Use v2 of abc123 and 2fa.") if t.startswith("number")}


def test_strike_through_in_html_or_single_tildes_is_strike_through() -> None:
    note = ["- Call Anna on Fridays."]
    for struck in (
        "<del>Call Anna on Fridays.</del>",
        "<s>Call Anna on Fridays.</s>",
        "~Call Anna on Fridays.~",
    ):
        assert compare(note, f"- {struck}").describe() == (
            "drops strike-through “not struck”; adds strike-through “call anna friday”"
        ), struck
        assert compare(["- ~~Call Anna on Fridays.~~"], f"- {struck}").ok
    # A single tilde is also "about" and a home folder: no strike-through there.
    assert compare(
        ["Wait ~5 minutes, then copy ~/notes to ~/backup."], "Wait ~5 minutes, then copy ~/notes to ~/backup."
    ).ok
    assert _tokens("Wait ~5 minutes or ~10 at most.") & {"strike-through “not struck”"}
    assert not [t for t in _tokens("Wait ~5 minutes or ~10 at most.") if t.startswith("strike-through “5")]


# The must-keep words of the European languages agents are run in: a merge that drops or
# flips one is refused like its English counterpart.
EUROPEAN_CHANGES = {
    "ru drop не": (
        ["Ольга не пьёт кофе.", "Ольга вообще не пьёт кофе."],
        "Ольга пьёт кофе.",
        "drops negation “not”",
    ),
    "ru никогда": (
        ["Пользователь никогда не работает по пятницам."],
        "Пользователь работает по пятницам.",
        "drops negation “not”",
    ),
    "uk ніколи": (["Олена ніколи не п'є каву."], "Олена п'є каву.", "drops negation “not”"),
    "de keinen": (
        ["Jürgen trinkt keinen Kaffee.", "Jürgen trinkt nie Kaffee."],
        "Jürgen trinkt Kaffee.",
        "drops negation “not”",
    ),
    "de nicht added": (["Jürgen trinkt Kaffee."], "Jürgen trinkt nicht Kaffee.", "adds negation “not”"),
    "fr ne pas": (["Claire ne boit pas de café."], "Claire boit du café.", "drops negation “not”"),
    "fr n'": (["Claire n'aime pas le café."], "Claire aime le café.", "drops negation “not”"),
    "ru one of two": (
        ["Он не пьёт кофе и не ест мясо."],
        "Он не пьёт кофе и ест мясо.",
        "drops negation “not”",
    ),
    "es nunca": (["Lucía nunca bebe café."], "Lucía bebe café.", "drops negation “not (concord)”"),
    "it non": (["Giulia non beve caffè."], "Giulia beve caffè.", "drops negation “not”"),
    "pt não": (["João não bebe café."], "João bebe café.", "drops negation “not”"),
    "pl nie": (["Marek nie pije kawy."], "Marek pije kawy.", "drops negation “not”"),
    "nl geen": (["Daan drinkt geen koffie."], "Daan drinkt koffie.", "drops negation “not”"),
    "el δεν": (["Η Ελένη δεν πίνει καφέ."], "Η Ελένη πίνει καφέ.", "drops negation “not”"),
    "ru три → пять": (
        ["В команде три дежурных инженера."],
        "В команде пять дежурных инженеров.",
        "drops number “3”; adds number “5”",
    ),
    "ru трёх → двух": (
        ["Нужно согласие трёх инженеров."],
        "Нужно согласие двух инженеров.",
        "drops number “3”; adds number “2”",
    ),
    "de drei → fünf": (
        ["Das Team hat drei Ingenieure."],
        "Das Team hat fünf Ingenieure.",
        "drops number “3”; adds number “5”",
    ),
    "pl pięciu → trzech": (
        ["Zespół ma pięciu inżynierów."],
        "Zespół ma trzech inżynierów.",
        "drops number “5”; adds number “3”",
    ),
    "el τρεις → δύο": (
        ["Η ομάδα έχει τρεις μηχανικούς."],
        "Η ομάδα έχει δύο μηχανικούς.",
        "drops number “3”; adds number “2”",
    ),
    "ru понедельник → пятницу": (
        ["Отчёт отправляй в понедельник.", "Отчёт отправляй по понедельникам."],
        "Отчёт отправляй в пятницу.",
        "drops date “monday”; adds date “friday”",
    ),
    "de Montag → Freitag": (
        ["Den Bericht am Montag senden."],
        "Den Bericht am Freitag senden.",
        "drops date “monday”; adds date “friday”",
    ),
    "pt segunda-feira → sexta-feira": (
        ["Envie o relatório na segunda-feira."],
        "Envie o relatório na sexta-feira.",
        "drops date “monday”; adds date “friday”",
    ),
    "pl środę dropped": (["Raport wysyłaj w środę."], "Raport wysyłaj.", "drops date “wednesday”"),
    "it marzo → aprile": (
        ["Le fatture scadono a marzo."],
        "Le fatture scadono ad aprile.",
        "drops date “march”",
    ),
    "fr août dropped": (["Les congés sont en août."], "Les congés sont prévus.", "drops date “august”"),
    "ru мая → июня": (["Отпуск с 5 мая."], "Отпуск с 5 июня.", "drops date “may”"),
    "es después → antes": (
        ["Envía el informe después de la reunión."],
        "Envía el informe antes de la reunión.",
        "drops polarity “after”; adds polarity “before”",
    ),
    "ru после → перед": (
        ["Проверь логи после деплоя."],
        "Проверь логи перед деплоем.",
        "drops polarity “after”; adds polarity “before”",
    ),
    "de morgen → heute": (
        ["Schick den Bericht morgen."],
        "Schick den Bericht heute.",
        "drops date “tomorrow”",
    ),
}


def test_european_negations_numbers_dates_and_order_words_are_must_keep_tokens() -> None:
    for case, (sources, merged, why) in EUROPEAN_CHANGES.items():
        change = compare(sources, merged)
        assert why in change.describe(), (case, change.describe())


def test_european_number_words_are_the_number_in_any_case_and_articles_are_not_numbers() -> None:
    assert _tokens("три инженера") == _tokens("3 инженера") >= {"number “3”"}
    assert "number “3”" in _tokens("согласие трёх инженеров")
    for five in ("pięciu inżynierów", "п'ять інженерів", "пʼять інженерів"):
        assert "number “5”" in _tokens(five), five
    assert "number “20”" in _tokens("zwanzig Tickets") and "number “1000”" in _tokens("mille tickets")
    # "ein", "un", "una", "uno" are also "a": a number-word reading would refuse every merge
    # that rewrites "a report" as "the report". Nor is "due" (Italian two) a number: it is "due" in English.
    for text in ("Ein Bericht", "un rapport", "una relazione", "uno studio", "Invoices are due on Friday."):
        assert not [t for t in _tokens(text) if t.startswith("number")], text
    # A number word written as a name is a name (Otto, Dix), not eight or ten, wherever it stands.
    assert "name “otto”" in _tokens("Ask Otto about it.")
    assert "name “otto”" in _tokens("Otto approves refunds.") and "number “8”" not in _tokens(
        "Otto approves."
    )
    assert "number “6”" in _tokens("Six engineers are on call.")  # an English number word stays one


def test_a_name_spelled_like_a_foreign_number_may_open_or_close_a_sentence() -> None:
    assert compare(
        ["Otto approves refunds.", "Refunds are approved by Otto."], "Refunds are approved by Otto."
    ).ok
    assert compare(["Refunds are approved by Otto."], "Otto approves refunds.").ok
    assert "drops name “otto”" in compare(["Otto approves refunds."], "Anna approves refunds.").describe()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("сорок пять минут", "45"),
        ("двадцать пять", "25"),
        ("czterdzieści pięć", "45"),
        ("σαράντα πέντε", "45"),
        ("soixante-cinq euros", "65"),
        ("soixante-dix-sept", "77"),
        ("soixante et onze", "71"),
        ("vingt et une personnes", "21"),
        ("quatre-vingts euros", "80"),
        ("quatre-vingt-dix euros", "90"),
        ("cuarenta y cinco minutos", "45"),
        ("veinticinco", "25"),
        ("quarenta e cinco", "45"),
        ("fünfundvierzig Minuten", "45"),
        ("vijfenveertig", "45"),
        ("dreizehn Tickets", "13"),
        ("forty-five", "45"),
        ("one hundred and five", "105"),
    ],
)
def test_a_compound_number_in_words_is_one_number(text: str, value: str) -> None:
    assert {t for t in _tokens(text) if t.startswith("number")} == {f"number “{value}”"}


def test_two_numbers_joined_by_and_stay_two() -> None:
    assert {"number “2”", "number “3”"} <= _tokens("Page two and three engineers.")


@pytest.mark.parametrize(
    ("source", "merged", "why"),
    [
        ("Созвон длится сорок пять минут.", "Созвон длится пять минут.", "drops number “45”"),
        ("Le forfait coûte soixante-cinq euros.", "Le forfait coûte cinq euros.", "drops number “65”"),
        ("Le budget est de quatre-vingts euros.", "Le budget est de quatre euros.", "drops number “80”"),
        ("La llamada dura cuarenta y cinco minutos.", "La llamada dura cinco minutos.", "drops number “45”"),
        ("The call lasts forty-five minutes.", "The call lasts five minutes.", "drops number “45 minute”"),
    ],
)
def test_a_merge_dropping_the_tens_of_a_number_in_words_is_refused(
    source: str, merged: str, why: str
) -> None:
    assert why in compare([source], merged).describe()


def test_a_number_in_words_written_as_digits_is_the_same_number() -> None:
    assert compare(["Le budget est de quatre-vingt-dix euros."], "Le budget est de 90 euros.").ok
    assert compare(["Созвон длится сорок пять минут."], "Созвон длится 45 минут.").ok


def _negations(text: str) -> int:
    meaning = read(text)
    return meaning.negations + meaning.concord_negations


def test_a_negation_repeated_through_a_clause_is_one_and_n_importe_is_none() -> None:
    # Negative concord: pas, ни, nunca, ani, κανένας repeat the clause's ne, не, no, nie, δεν.
    for text in (
        "Claire ne boit pas de café.",
        "Claire n'aime pas le café.",
        "Claire aime pas le café.",
        "Ольга не пьёт ни чай, ни кофе.",
        "Никто никогда не звонит.",
        "Κανένας δεν πίνει καφέ.",
        "ΔΕΝ πίνει καφέ.",
        "Żaden inżynier nie pije kawy.",
        "No bebe nunca café.",
    ):
        assert _negations(text) == 1, text
    assert read("Nunca bebe café y nunca come carne.").concord_negations == 2
    assert read("Deploy nie ohne Freigabe.").negations == 2  # German does not repeat it: a double negation
    assert _negations("Prends n'importe quel café.") == 0


@pytest.mark.parametrize(
    ("sources", "merged", "why"),
    [
        (["We do not ship to NI.", "We never ship to NI."], "We ship to NI.", "drops negation “not”"),
        (["Do not cc the PAs on invoices."], "Cc the PAs on invoices.", "drops negation “not”"),
        (["Mai does not eat pork.", "Mai never eats pork."], "Mai eats pork.", "drops negation “not”"),
        (["Jürgen arbeitet im Mai nicht."], "Jürgen arbeitet im Mai.", "drops negation “not”"),
        (["Marie ne travaille pas en mai."], "Marie travaille en mai.", "drops negation “not”"),
        (["Lucía no bebe nunca café."], "Lucía bebe nunca café.", "drops negation “not”"),
        (["Nunca bebe café."], "Bebe café.", "drops negation “not (concord)”"),
        (["We ship to NI."], "We ship to Wales.", "drops name “ni”"),
    ],
)
def test_a_dropped_negation_is_not_made_up_by_a_concord_word_or_a_name_spelled_like_one(
    sources: list[str], merged: str, why: str
) -> None:
    # A negation said by concord words alone is another token than "not", and a concord word
    # with a capital inside a sentence (NI, PAs, Mai) is a name or a month, no negation.
    assert why in compare(sources, merged).describe()


def test_a_concord_word_written_as_a_name_keeps_its_other_meaning() -> None:
    assert _tokens("Jürgen arbeitet im Mai.") >= {"date “may”"}
    assert not [t for t in _tokens("Ask Nada and the PAs.") if t.startswith("negation")]
    assert "negation “not (concord)”" in _tokens("Lucía bebe NUNCA café.")  # shouted, still a negation


def test_european_weekdays_and_months_in_any_inflection_are_one_date() -> None:
    for forms, day in (
        ("понедельник понедельника понедельнику понедельником понедельнике понедельникам", "monday"),
        ("пятница пятницу пятницы пятнице пятницей пятницам", "friday"),
        ("Montag montags lundi lunes lunedì poniedziałek poniedziałku maandag Δευτέρα понеділок", "monday"),
        ("п'ятниця п'ятницю Freitag vendredi viernes venerdì piątek vrijdag Παρασκευή", "friday"),
    ):
        for form in forms.split():  # each read in its own language (the one its name is of)
            assert f"date “{day}”" in _tokens(form), form
    for form in (
        "января",
        "январе",
        "Januar",
        "janvier",
        "enero",
        "gennaio",
        "janeiro",
        "stycznia",
        "januari",
        "січня",
    ):
        assert "date “january”" in _tokens(form), form
    # Polish "środek" (means) and Russian "среда" (environment, as often as Wednesday) are not dates.
    assert not [t for t in _tokens("Użyj środka. Настрой среду разработки.") if t.startswith("date")]


def test_a_merge_in_a_european_language_may_join_its_sources() -> None:
    for sources, merged in (
        (["Ольга пьёт чай.", "Ольга пьёт кофе."], "Ольга пьёт чай и кофе."),
        (["Ольга не пьёт чай.", "Ольга не пьёт кофе."], "Ольга не пьёт ни чай, ни кофе."),
        (
            ["Jürgen trinkt keinen Kaffee.", "Jürgen trinkt keinen Tee."],
            "Jürgen trinkt weder Kaffee noch Tee.",
        ),
        (["Отчёт отправляй в понедельник."], "По понедельникам отправляй отчёт."),
        (["Das Team hat drei Ingenieure."], "Das Team hat 3 Ingenieure."),
        (
            ["Claire ne boit pas de café.", "Claire ne boit pas de thé."],
            "Claire ne boit pas de café ni de thé.",
        ),
    ):
        assert compare(sources, merged).ok, (sources, compare(sources, merged).describe())

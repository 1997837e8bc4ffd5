"""`memory forget --purge` in any script: a value is erased where it stands as a whole word —
purging "Ада" keeps "Адам", purging "Ren" keeps "René" — and in both its composed (NFC) and
decomposed (NFD) spellings, in the home and in every commit of the rewritten history."""

from __future__ import annotations

import json
import os
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from daemon.text.erasure import Erasure
from tests.daemon.wiring.test_purge import git, hits
from tests.support.deploy import conversation, run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

NFC = unicodedata.normalize("NFC", "José")
NFD = unicodedata.normalize("NFD", "José")
MEMORY = "MEMORY.md"  # a managed file a person writes

BEFORE = (
    "# Memory\n\n- Адам leads the Адаптер project; ask Ада first.\n"
    "- René (also written Rene\u0301) reviews invoices; Ren is the cat.\n"
    f"- {NFD} prefers email; {NFC} likes tea.\n"
    "- pasted: " + json.dumps({"who": "Адам, not Ада", "nfc": NFC, "nfd": NFD}, ensure_ascii=True) + "\n"
)
AFTER = (
    "# Memory\n\n- Адам leads the Адаптер project; ask [purged] first.\n"
    "- René (also written Rene\u0301) reviews invoices; [purged] is the cat.\n"
    "- [purged] prefers email; [purged] likes tea.\n"
    '- pasted: {"who": "\\u0410\\u0434\\u0430\\u043c, not [purged]", "nfc": "[purged]", "nfd": "[purged]"}\n'
)


def seed(root: Path, model: FakeModelServer, friend: str, memory: str = BEFORE) -> Path:
    """One run that learns user.nickname = Ада, user.friend = `friend`, user.cat = Ren and
    commits MEMORY.md (written by a person, `memory`) beside them."""
    config = setup_agent(root, model)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"]["memory"] = {"allowed_keys": ["nickname", "friend", "cat"]}
    config.write_text(yaml.safe_dump(raw))
    home = root / "ada"
    said = [("My nickname is Ада.", "OK."), (f"My friend is {friend}.", "OK."), ("My cat is Ren.", "OK."), ("Thanks", "Bye")]
    (home / "transcripts" / "s1.jsonl").write_text(conversation(said), encoding="utf-8")
    os.utime(home / "transcripts" / "s1.jsonl", (1_700_000_000, 1_700_000_000))
    (home / MEMORY).write_text(memory, encoding="utf-8")
    model.reply(
        {"facts": [berlin_fact(quote="My nickname is Ада", key="nickname", value="Ада"),
                   berlin_fact(turn="T2", quote=f"My friend is {friend}", key="friend", value=friend),
                   berlin_fact(turn="T3", quote="My cat is Ren", key="cat", value="Ren")]},
        schema="DistillationResponse",
    )
    assert run_cli(config, "once", "--agent", "ada").code == 0
    values = {r["value"] for r in run_cli(config, "memory", "list", "--agent", "ada", "--json").json()["records"]}
    assert values == {"Ада", friend, "Ren"}
    assert versions(root) == {memory}
    return config


def versions(root: Path) -> set[str]:
    """Every version of MEMORY.md the store's history holds."""
    commits = git(root, "rev-list", "--all", "--", MEMORY).stdout.split()
    return {git(root, "show", f"{commit}:{MEMORY}").stdout for commit in commits}


def purge(config: Path, key: str) -> None:
    result = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", key, "--purge", "--yes")
    assert result.code == 0, result.err


@pytest.mark.slow
def test_purge_keeps_longer_words_that_begin_with_the_value_in_any_script(root: Path, fake_model: FakeModelServer) -> None:
    config = seed(root, fake_model, NFC)

    for key in ("nickname", "cat", "friend"):
        purge(config, key)

    assert (root / "ada" / MEMORY).read_text(encoding="utf-8") == AFTER
    assert versions(root) == {AFTER}
    assert git(root, "fsck", "--strict").returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_purge_erases_both_normalisation_forms_of_the_value(
    root: Path, fake_model: FakeModelServer, form: str
) -> None:
    # The fact holds one spelling, a person's file the other as well: both are the value.
    config = seed(root, fake_model, unicodedata.normalize(form, "José"))

    purge(config, "friend")

    text = (root / "ada" / MEMORY).read_text(encoding="utf-8")
    assert "- [purged] prefers email; [purged] likes tea.\n" in text
    assert '"nfc": "[purged]", "nfd": "[purged]"' in text
    assert hits(root, NFC, NFD) == []
    assert {v.count("[purged]") for v in versions(root)} == {4}


KOREAN = (
    "# Memory\n\n- 사용자는 콩나물국을 좋아합니다.\n- 다음 출장지는 홍콩입니다.\n- 사무실은 콩코드 빌딩.\n"
    "- 강아지 콩 산책은 저녁 7시. 콩은 사료를, 콩에게는 간식을. 콩만, 콩입니다.\n"
    "- pasted: " + json.dumps({"soup": "콩나물국", "dog": "콩이랑 산책"}, ensure_ascii=True) + "\n"
)


@pytest.mark.slow
def test_purge_of_a_korean_syllable_keeps_the_words_that_contain_it(root: Path, fake_model: FakeModelServer) -> None:
    # A dog named 콩 ("bean"): 콩나물국, 홍콩 and 콩코드 are other words, not mentions of it;
    # 콩은, 콩에게는 (a particle, or two, attached) are.
    config = seed(root, fake_model, "콩", KOREAN)

    purge(config, "friend")

    expected = KOREAN.replace("강아지 콩 산책은 저녁 7시. 콩은 사료를, 콩에게는 간식을. 콩만, 콩입니다.", (
        "강아지 [purged] 산책은 저녁 7시. [purged]은 사료를, [purged]에게는 간식을. [purged]만, [purged]입니다."
    )).replace(json.dumps("콩이랑")[1:-1], "[purged]\\uc774\\ub791")
    assert expected.count("[purged]") == 6
    assert (root / "ada" / MEMORY).read_text(encoding="utf-8") == expected
    assert versions(root) == {expected}


@pytest.mark.slow
def test_retention_of_a_closed_value_keeps_longer_words_that_begin_with_it(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = seed(root, fake_model, NFC)
    add_turns(root, "s2.jsonl", first="Call me Ася now.")
    fake_model.reply(
        {"facts": [berlin_fact(quote="Call me Ася now", key="nickname", value="Ася", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )
    assert run_cli(config, "once", "--agent", "ada").code == 0
    raw = yaml.safe_load(config.read_text())
    raw["retention"] = {"closed_facts_days": 1}
    config.write_text(yaml.safe_dump(raw))

    done = run_cli(config, "maintenance", "--agent", "ada", clock=lambda: datetime(2026, 12, 20, tzinfo=UTC))

    assert done.code == 0 and "retention purged 1 closed fact version" in done.err, done.err
    expected = BEFORE.replace("ask Ада first", "ask [purged] first").replace(
        "not \\u0410\\u0434\\u0430", "not [purged]"
    )
    assert expected.count("[purged]") == 2
    assert (root / "ada" / MEMORY).read_text(encoding="utf-8") == expected
    assert versions(root) == {expected}


def test_the_rule_beside_unspaced_scripts_format_characters_and_binary_bytes() -> None:
    # Chinese has no spaces between words: beside its letters every occurrence is erased.
    assert Erasure.of("user", "friend", ["王伟"]).erase("王伟和李娜本周值班。".encode()) == "[purged]和李娜本周值班。".encode()
    # Korean attaches particles to the name: 철수는, 철수가 are mentions of 철수; 김철수 (a
    # longer name) and 철수기 (another word) are not.
    assert Erasure.of("user", "friend", ["철수"]).erase("철수는 커피를, 철수가 차를. 김철수, 철수기.".encode()) == (
        "[purged]는 커피를, [purged]가 차를. 김철수, 철수기.".encode()
    )
    # A soft hyphen inside "Ada-m" keeps it one word; a direction mark after "Ada" does not.
    ada = Erasure.of("user", "nickname", ["Ada"])
    assert ada.erase("Ada\u00adm, Ada\u200e.".encode()) == "Ada\u00adm, [purged]\u200e.".encode()
    # In a file that is not text, a mention is overwritten by as many `*` (bytes that are not
    # UTF-8 join nothing); a longer word is kept.
    data = b"\x00\xff" + "Адам Ада".encode() + b"\xff"
    assert Erasure.of("user", "nickname", ["Ада"]).mask(data) == b"\x00\xff" + "Адам ".encode() + b"*" * 6 + b"\xff"


SPELLINGS = (
    "# Memory\n\n- Nguy\u00ea\u0303n (partly composed) prefers email; Nguyễn likes tea.\n"
    "- Profile: https://intranet.example/people/Nguy%E1%BB%85n and /people/nguy%e1%bb%85n/Nguy%e1%bb%85n\n"
    "- pasted: {\"who\": \"Nguy\\u1EC5n\"}\n- Ｎｇｕｙễｎ signed the form.\n"
)


@pytest.mark.slow
def test_purge_erases_every_spelling_of_the_value(root: Path, fake_model: FakeModelServer) -> None:
    # Partly composed, percent-encoded (either hex case), JSON-escaped in upper-case hex,
    # fullwidth: each is the value, in the home, in a JSON file and in every commit.
    config = seed(root, fake_model, "Nguyễn", SPELLINGS)

    purge(config, "friend")

    assert (root / "ada" / MEMORY).read_text(encoding="utf-8") == (
        "# Memory\n\n- [purged] (partly composed) prefers email; [purged] likes tea.\n"
        "- Profile: https://intranet.example/people/[purged] and /people/nguy%e1%bb%85n/[purged]\n"
        '- pasted: {"who": "[purged]"}\n- [purged] signed the form.\n'
    )
    # A JSON file holding only the upper-case escape is found, so decoded and erased.
    erasure = Erasure.of("user", "friend", ["Nguyễn"])
    assert erasure.erase(b'{"friend": "Nguy\\u1EC5n"}\n', structured=True) == b'{"friend": "[purged]"}\n'
    assert hits(root, "Nguy\\u1EC5n", "Nguy%E1%BB%85n", "Nguy%e1%bb%85n", "Nguy\u00ea\u0303n", "Ｎｇｕｙ") == []


@pytest.mark.slow
def test_purge_erases_the_value_across_other_spaces_and_apostrophes(root: Path, fake_model: FakeModelServer) -> None:
    config = seed(root, fake_model, "Ada Lovelace", (
        "# Memory\n\n- Ada\u00a0Lovelace prefers email.\n- Lunch with Ada\n  Lovelace on Fridays.\n"
        "- Ask Ada Lovelaces, O\u2019Brien, O'Brien.\n"
    ))

    purge(config, "friend")
    apostrophe = Erasure.of("user", "manager", ["O'Brien"])

    assert (root / "ada" / MEMORY).read_text(encoding="utf-8") == (
        "# Memory\n\n- [purged] prefers email.\n- Lunch with [purged] on Fridays.\n"
        "- Ask Ada Lovelaces, O\u2019Brien, O'Brien.\n"
    )
    assert hits(root, "Ada\u00a0Lovelace", "Ada\n  Lovelace", "Ada\\n  Lovelace") == []
    assert apostrophe.erase("O\u2019Brien and O'Brien".encode()) == b"[purged] and [purged]"

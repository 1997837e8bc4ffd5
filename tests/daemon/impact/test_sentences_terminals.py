"""Every script's own full stop and question mark end a sentence, as ". ! ?" do (Unicode's
Sentence_Terminal): the danda of Hindi, the Arabic question mark (sentences written for these
tests)."""

from __future__ import annotations

import pytest

from daemon.impact.sentences import sentences
from daemon.impact.statements import detect_statements


def texts(message: str) -> list[str]:
    return [s.text for s in sentences(message)]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("GST 18% लगता है, 12 नहीं। पता नहीं कहाँ से आया। GSTIN डाल दो",
         ["GST 18% लगता है, 12 नहीं।", "पता नहीं कहाँ से आया।", "GSTIN डाल दो"]),
        ("भेज दो॥ और कुछ नहीं", ["भेज दो॥", "और कुछ नहीं"]),
        ("وين الفاتورة؟ ابعتها بكرة", ["وين الفاتورة؟", "ابعتها بكرة"]),
        ("ٹھیک ہے۔ کل بھیج دو", ["ٹھیک ہے۔", "کل بھیج دو"]),
        ("ቀኑ ትክክል ነው። ዋጋው ግን አይደለም", ["ቀኑ ትክክል ነው።", "ዋጋው ግን አይደለም"]),
    ],
)
def test_a_script_s_own_terminal_ends_a_sentence(message: str, expected: list[str]) -> None:
    assert texts(message) == expected
    for piece in sentences(message):
        assert message[piece.start : piece.end] == piece.text


def test_a_terminal_inside_a_word_ends_nothing() -> None:
    # as a full stop inside "3.12" ends nothing, one with no space after it ends nothing
    assert texts("संस्करण 3.12।अगला") == ["संस्करण 3.12।अगला"]


def test_a_correction_after_a_danda_is_its_own_statement() -> None:
    agent = "Receipt:\nJEE batch: 8:00 AM\nGST @ 12%"
    message = "GST 18% लगता है, 12 नहीं। और JEE morning 7:30 से है, 8 नहीं"
    found = detect_statements(message, "s1", 3, None, answered=agent)
    quotes = [s.quote for s in found]
    assert any(q.startswith("और JEE") for q in quotes), quotes
    assert all("।" not in q[:-1] for q in quotes), quotes

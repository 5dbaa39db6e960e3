"""Text normalisation (prism.ingestion.parsing.normalize) and safe display names (sanitize_filename)."""

from __future__ import annotations

import unicodedata

import pytest

from prism.ingestion import parsing
from prism.ingestion.parsing.normalize import normalize_report, normalize_text, repair_ligature_nuls

# --- normalize_text ------------------------------------------------------------------------------------------------


def test_normalize_ligature_codepoints_become_letters():
    assert normalize_text("The O\ufb03ce \ufb01nance team, cash \ufb02ow. Di\ufb00erent") == (
        "The Office finance team, cash flow. Different"
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("shut o\x00 the o\x00ce", "shut off the office"),  # what pypdf extracts from case 05b
        ("the \x00nance team", "the finance team"),
        ("net cash \x00ow", "net cash flow"),
        ("a di\x00erent e\x00ective rate", "a different effective rate"),
        ("operating pro\x00t and bene\x00ts", "operating profit and benefits"),
        ("e\x00cient tra\x00c O\x00cer", "efficient traffic Officer"),
        ("sta\x00 in\x00ation", "staff inflation"),
    ],
)
def test_normalize_nul_ligatures_are_repaired(raw, expected):
    assert normalize_text(raw) == expected


def test_normalize_nul_not_in_a_word_or_dense_is_dropped():
    assert normalize_text("a \x00 b") == "a b"
    # UTF-16 read as 8-bit: NULs are half the text, so they are not ligatures
    assert normalize_text("h\x00e\x00l\x00l\x00o\x00") == "hello"
    assert repair_ligature_nuls("h\x00e\x00l\x00l\x00o\x00") == ("h\x00e\x00l\x00l\x00o\x00", 0)
    assert repair_ligature_nuls("shut o\x00 the o\x00ce ") == ("shut off the office ", 2)


def test_normalize_surrogates():
    assert normalize_text("great service \ud800 thanks") == "great service thanks"
    assert normalize_text("lone low \udc00 too") == "lone low too"
    assert normalize_text("pair \ud83d\ude00 joined") == "pair \U0001f600 joined"


def test_normalize_keeps_currency_and_devanagari():
    assert normalize_text("Fee: ₹1,250 (approx. €14)") == "Fee: ₹1,250 (approx. €14)"
    hindi = unicodedata.normalize("NFC", "भारतीय रिज़र्व बैंक")
    assert normalize_text(hindi) == hindi
    # the precomposed nukta letter U+095B (a composition exclusion) comes out in its canonical form, same meaning
    precomposed = "रि\u095bर्व"
    assert normalize_text(precomposed) == unicodedata.normalize("NFC", precomposed) == "रि\u091c\u093cर्व"
    assert normalize_text("क\u200dष") == "क\u200dष"  # ZWJ kept: it shapes Indic conjuncts


def test_normalize_control_whitespace_and_newlines():
    assert normalize_text("a\x01b\x07c\x7fd") == "abcd"
    assert normalize_text("col1\t\tcol2   col3") == "col1 col2 col3"
    assert normalize_text("line one  \r\nline two\rline three") == "line one\nline two\nline three"
    assert normalize_text("para 1\n\n\n\n\npara 2\n \n \n \npara 3") == "para 1\n\npara 2\n\npara 3"
    assert normalize_text("  \n lead and trail \n  ") == "lead and trail"
    assert normalize_text("finan\u00adcial\u200b report\ufeff") == "financial report"
    assert normalize_text("a\u00a0b\u3000c") == "a b c"
    assert normalize_text("") == ""
    assert normalize_text("\x00\x01 \t\n") == ""


def test_normalize_counts_replacement_characters():
    report = normalize_report("bad \ufffd\ufffd bytes")
    assert report.text == "bad bytes"
    assert report.replacement_chars == 2
    assert normalize_report("shut o\x00 the o\x00ce").ligatures_repaired == 2


def test_normalize_is_idempotent():
    raw = "The O\ufb03ce\x00 \r\n\r\n\r\n₹1,250\t\ufffd \ud800 भारतीय"
    once = normalize_text(raw)
    assert normalize_text(once) == once


# --- sanitize_filename ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("../../etc/passwd", "passwd"),
        ("a\x00b.pdf", "ab.pdf"),
        ("C:\\x\\y.txt", "y.txt"),
        ("..\\..\\windows\\win.ini", "win.ini"),
        ("/abs/path/report.csv", "report.csv"),
        (".hidden.txt", "hidden.txt"),
        ("report..pdf", "report.pdf"),
        ("..", "document"),
        ("", "document"),
        ("   ", "document"),
        ("dir/", "document"),
        ("  Q3 results.pdf \n", "Q3 results.pdf"),
        ("invoice\u202efdp.txt", "invoicefdp.txt"),
        ("line\nbreak\r.txt", "linebreak.txt"),
        ("रिपोर्ट ₹.pdf", "रिपोर्ट ₹.pdf"),
    ],
)
def test_sanitize_filename_hostile_names(name, expected):
    assert parsing.sanitize_filename(name) == expected


def test_sanitize_filename_caps_length_keeping_extension():
    out = parsing.sanitize_filename("x" * 400 + ".pdf")
    assert len(out) == 255
    assert out.endswith("xxx.pdf")
    assert len(parsing.sanitize_filename("y" * 400)) == 255


@pytest.mark.parametrize("name", ["../../etc/passwd", "a\x00b.pdf", "C:\\x\\y.txt", "....//....//x", "\x00\x01"])
def test_sanitize_filename_is_always_safe(name):
    out = parsing.sanitize_filename(name)
    assert out and len(out) <= 255
    assert "/" not in out and "\\" not in out and ".." not in out
    assert not out.startswith(".")
    assert all(unicodedata.category(ch) != "Cc" for ch in out)


# --- private-use characters ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bullet", ["\uf0b7", "\uf0a7", "\uf076", "\uf0d8", "\uf0fc", "\uf06e", "\uf0a8"])
def test_symbol_and_wingdings_bullets_become_a_bullet(bullet):
    report = normalize_report(f"MCC rules\n{bullet}\tMerchants shall use the standard code.")
    assert report.text == "MCC rules\n• Merchants shall use the standard code."
    assert report.private_use_chars == 0
    assert normalize_text(report.text) == report.text  # idempotent


def test_other_private_use_characters_are_dropped_and_counted():
    report = normalize_report("Fee \ue000₹20\uf8ff per \U000f0001transaction\U0010fffd.")
    assert report.text == "Fee ₹20 per transaction."
    assert report.private_use_chars == 4
    assert not any(unicodedata.category(ch) == "Co" for ch in report.text)

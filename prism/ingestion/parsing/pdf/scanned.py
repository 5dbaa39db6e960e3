"""Repairs of OCR'd text (pages read by :mod:`~prism.ingestion.parsing.pdf.ocr`, never a text layer): words the
recogniser glued together split again, and the rupee sign it read as "?" put back before an amount.

OCR of a scanned circular drops the spaces between words ("fornon-verifiedmerchants", "areherebyrequested",
"NATIONALPAYMENTSCORPORATIONOFINDIA") and reads ₹, which its character set lacks, as "?" ("a fee of ?2,000"). Both
break search: BM25 and the answerability gate see one unknown token instead of three words, and no amount. So, on
OCR'd pages only, before normalisation and storage (the stored text, its BM25 tokens and the gate then see the
repaired words; the page stays marked ``ocr`` and its citation shows the page image):

* **glued words** — a run of letters (each side of a hyphen apart; a camel-case run split at its capitals when every
  part is a word) that is no dictionary word is segmented by symspellpy's ``word_segmentation`` (SymSpell, Wolf
  Garbe; maximum edit distance 0: spaces inserted, no letter changed) over the English frequency dictionary it ships
  (82,765 words with their counts). The split is kept only when every part is a dictionary word seen at least
  :data:`MIN_COUNT` times, of two letters or more ("a" excepted): "Kanvaty", "Aadhaar" and "BandraKurla" stay as
  written. A payments word the dictionary lacks ("onboarding", "chargeback", "RuPay": :mod:`prism.vocabulary.
  compounds`) is never split. Case is kept ("NATIONAL PAYMENTS CORPORATION OF INDIA").
* **the rupee sign** — a "?" not attached to a word before it (a question mark always is) and followed by a number
  ("? 2,000", "(?5 lakh"), or glued to a word and followed by a grouped amount ("of?2,000"), is ₹.

The dictionary is loaded once per process, on the first OCR'd page (about half a second), under a lock.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from prism.vocabulary import compounds

logger = logging.getLogger(__name__)

__all__ = ["MIN_COUNT", "repair_ocr_text", "repaired_page", "split_glued"]

MIN_COUNT = 100_000
"""Least count (in the dictionary's corpus) of every part of a split: rarer parts ("ty", "adha") are no words."""
MIN_LETTERS = 6
"""Shortest run of letters tried (shorter glued pairs, "inthe", are rare and often names)."""
MIN_CAPITALS = 10
"""Shortest run of capitals tried ("NEFT", "TPAPS", "NACH" are acronyms, not glued words)."""

_lock = threading.Lock()
_speller: Any = None

_RUPEE_DETACHED = re.compile(r"(?:(?<=^)|(?<=[\s(\[:;/]))\?[ \t]?(?=\d)", re.MULTILINE)
_RUPEE_GLUED = re.compile(r"(?<=[A-Za-z])\?(?=\d{1,3}(?:,\d{2,3})+(?:\.\d+)?)")
_LETTERS = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _dictionary() -> Any:
    """The process-wide SymSpell with symspellpy's English frequency dictionary (edit distance 0)."""
    global _speller
    if _speller is None:
        with _lock:
            if _speller is None:
                from importlib.resources import files

                from symspellpy import SymSpell

                speller = SymSpell(max_dictionary_edit_distance=0, prefix_length=1)
                path = files("symspellpy") / "frequency_dictionary_en_82_765.txt"
                if not speller.load_dictionary(str(path), term_index=0, count_index=1):
                    raise RuntimeError(f"symspellpy's dictionary could not be read from {path}")
                _speller = speller
    return _speller


def _word(part: str, counts: dict[str, int]) -> bool:
    """A dictionary word seen at least :data:`MIN_COUNT` times, of two letters or more (or "a")."""
    return (len(part) >= 2 or part == "a") and counts.get(part, 0) >= MIN_COUNT


def _with_case(original: str, parts: list[str]) -> str:
    """``parts`` (lower case, their letters ``original``'s) written with ``original``'s letters, spaced."""
    out, i = [], 0
    for part in parts:
        out.append(original[i:i + len(part)])
        i += len(part)
    return " ".join(out)


def _segment(run: str, speller: Any) -> str:
    """One run of letters, split when it is words glued together (see the module docstring), else as written."""
    counts = speller.words
    lower = run.lower()
    if lower in counts or compounds.is_compound(run) or len(run) < MIN_LETTERS or (
            run.isupper() and len(run) < MIN_CAPITALS):
        return run
    camel = _CAMEL.split(run)
    if len(camel) > 1 and all(p.lower() in counts or (p.isupper() and len(p) >= 2) for p in camel):
        return " ".join(_segment(p, speller) if not p.isupper() else p for p in camel)
    parts = speller.word_segmentation(lower, max_edit_distance=0).segmented_string.split()
    if len(parts) < 2 or "".join(parts) != lower or not all(_word(p, counts) for p in parts):
        return run
    return _with_case(run, parts)


def split_glued(text: str) -> str:
    """``text`` with each run of glued words split (see the module docstring); other text as written."""
    speller = _dictionary()
    return _LETTERS.sub(lambda m: _segment(m.group(), speller), text)


def repair_ocr_text(text: str) -> str:
    """An OCR'd page's text with its glued words split and its rupee signs put back (see the module docstring).

    Args:
        text: the recognised text, lines joined with ``\\n``.

    Returns:
        The repaired text (line breaks kept).

    Raises:
        RuntimeError: symspellpy's dictionary file cannot be read (a damaged install).
    """
    text = _RUPEE_GLUED.sub(" ₹", text)
    text = _RUPEE_DETACHED.sub("₹", text)
    return split_glued(text)


def repaired_page(text: str, name: str, number: int) -> str:
    """:func:`repair_ocr_text` of one OCR'd page (``name``, 1-based ``number`` for the log); the text as recognised
    when the word list cannot be read (logged at WARNING: the page is still indexed)."""
    try:
        return repair_ocr_text(text)
    except (RuntimeError, OSError, ImportError) as exc:
        logger.warning("%s page %d: OCR text not repaired (%s)", name, number, exc)
        return text

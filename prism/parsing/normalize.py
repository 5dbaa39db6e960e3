"""Text normalisation applied to every page, file and web page before chunking.

The rules, in order (:func:`normalize_report`):

1. UTF-16 surrogates: a valid high+low pair left split by a decoder is joined into its character; a lone
   surrogate (``'\\ud83d'``) is removed.
2. NULs that stand for lost ligatures are repaired (see :func:`repair_ligature_nuls`); every other NUL is dropped.
3. Unicode NFKC: compatibility ligatures become letters (``ﬁ`` → ``fi``, ``ﬃ`` → ``ffi``), full-width forms and
   no-break spaces become their plain forms. ``₹``, ``€`` and Indic scripts (Devanagari consonants, combining vowel
   signs and nukta) keep their meaning; NFKC only applies canonical (de)composition to them.
4. Line breaks: ``\\r\\n`` and ``\\r`` become ``\\n``; vertical tab, form feed and U+2028 become ``\\n``; U+2029 becomes
   a paragraph break.
5. Dropped: C0/C1 control characters other than ``\\n`` and ``\\t``; invisible format characters (soft hyphen,
   zero-width space, BOM, bidi controls) except ZWJ/ZWNJ, which Indic scripts need; U+FFFD replacement characters
   (counted, so the caller can warn that characters were unreadable).
6. Whitespace: tabs and runs of horizontal whitespace become one space; lines are trimmed at both ends; three or more
   newlines become two (paragraph breaks are kept); the result is stripped.
"""

from __future__ import annotations

import itertools
import logging
import re
import unicodedata
from dataclasses import dataclass

logger = logging.getLogger(__name__)

MIN_PAGE_ALNUM = 3
"""A PDF page (text layer or OCR) needs at least this many letters/digits to count as having text. A page whose
only text is a page number (``"13"``) or a stray mark is treated as having no text, so no near-empty chunk is stored.
"""

# --- ligature NULs ------------------------------------------------------------------------------------------------

_LIGATURES = ("ffi", "ffl", "ff", "fl", "fi")
"""Candidates for a NUL inside a word, in the order they are tried (longest first, ``fi`` last = the default)."""

# Word stems that contain a ligature. A candidate wins when the repaired word contains one of its stems at the
# repaired position. Lower-case ASCII; the list favours business and regulatory vocabulary.
_LIGATURE_STEMS: dict[str, tuple[str, ...]] = {
    "ffi": (
        "offic", "effici", "suffici", "traffic", "affili", "affirm", "affix", "diffic", "coffin", "sheriffi",
    ),
    "ffl": ("affluen", "effluen", "afflict", "baffl", "shuffl", "muffl", "ruffl", "scuffl", "waffl", "snuffl"),
    "ff": (
        "off", "effect", "effort", "staff", "differ", "afford", "affect", "affair", "tariff", "suffer", "buffer",
        "cliff", "sheriff", "plaintiff", "stuff", "diffus", "coffee", "scaff", "sniff", "bluff", "chaff", "giraff",
        "stiff", "sufferance", "effervesc", "caffein", "jeff", "griff", "puff", "huff", "cuff", "buff", "waff",
    ),
    "fl": (
        "flow", "flat", "flex", "float", "flu", "flect", "flict", "flag", "fleet", "floor", "flight", "flood",
        "flash", "flor", "fly", "flee", "flier", "flyer", "flaw", "flame", "flam", "flip", "flock", "flour", "flank",
    ),
}

_NUL_WORD = re.compile(r"[A-Za-z]*\x00[A-Za-z\x00]*")
_MAX_LIGATURE_NUL_SHARE = 0.05
"""When NULs are more than this share of the text they are not lost ligatures (e.g. UTF-16 read as 8-bit): drop."""


def _stem_covers(word: str, start: int, end: int, stems: tuple[str, ...]) -> bool:
    for stem in stems:
        pos = word.find(stem)
        while pos != -1:
            if pos < end and pos + len(stem) > start:
                return True
            pos = word.find(stem, pos + 1)
    return False


def _repair_word(word: str) -> str:
    parts = word.split("\x00")
    if len(parts) > 4:  # more than three NULs in one word: not ligatures
        return "".join(parts)
    best: str | None = None
    best_hits = -1
    for combo in itertools.product(_LIGATURES, repeat=len(parts) - 1):
        pieces = [parts[0]]
        spans: list[tuple[int, int, str]] = []
        pos = len(parts[0])
        for lig, part in zip(combo, parts[1:], strict=True):
            spans.append((pos, pos + len(lig), lig))
            pieces.extend((lig, part))
            pos += len(lig) + len(part)
        candidate = "".join(pieces)
        lower = candidate.lower()
        hits = sum(_stem_covers(lower, s, e, _LIGATURE_STEMS[lig]) for s, e, lig in spans)
        if hits > best_hits:
            best, best_hits = candidate, hits
        if hits == len(spans):
            return candidate
    if best_hits > 0 and best is not None:
        return best
    # No known stem: a word-final NUL is "ff" (off, staff, tariff); any other is "fi", the commonest ligature.
    out = [parts[0]]
    for i, part in enumerate(parts[1:], start=1):
        word_final = part == "" and i == len(parts) - 1
        out.extend(("ff" if word_final else "fi", part))
    return "".join(out)


def repair_ligature_nuls(text: str) -> tuple[str, int]:
    """Read NULs inside words as the ligatures they most likely replaced.

    Some PDF fonts map their ligature glyphs (ﬁ ﬂ ﬀ ﬃ ﬄ) to U+0000 in their ToUnicode CMap, so pypdf extracts
    ``"shut o\\x00 the o\\x00ce"`` for "shut off the office" (case 05b). The file holds no clue which ligature
    was meant, so the rule is lexical: for each NUL touching an ASCII letter, try ``ffi, ffl, ff, fl, fi`` and keep
    the first whose repaired word contains a known stem across the repaired position (``offic`` → office,
    ``off``/``differ`` → ff, ``flow``/``flu`` → fl); with no known stem, a word-final NUL becomes ``ff`` and any
    other ``fi`` (finance, profit, file). NULs not touching a letter, or text where NULs are more than 5 % of the
    characters (not ligatures but e.g. UTF-16 read as 8-bit), are left for the caller to drop.

    Args:
        text: raw extracted text.

    Returns:
        ``(text, repaired)``: the text with ligature NULs replaced, and how many NULs were replaced.
    """
    count = text.count("\x00")
    if count == 0 or count > _MAX_LIGATURE_NUL_SHARE * len(text):
        return text, 0
    repaired = 0

    def _sub(match: re.Match[str]) -> str:
        nonlocal repaired
        word = match.group(0)
        if not any(ch.isalpha() for ch in word):
            return word
        repaired += word.count("\x00")
        return _repair_word(word)

    return _NUL_WORD.sub(_sub, text), repaired


# --- the rest of the pipeline --------------------------------------------------------------------------------------

_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_KEEP_FORMAT = frozenset({"\u200c", "\u200d"})  # ZWNJ / ZWJ: shape Indic conjuncts
_LINE_BREAKS = str.maketrans({"\r": "\n", "\x0b": "\n", "\x0c": "\n", "\u2028": "\n", "\u0085": "\n"})
_HSPACE = re.compile(r"[^\S\n]+")
_MANY_NEWLINES = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class NormalizedText:
    """The result of :func:`normalize_report`.

    Attributes:
        text: the normalised text (may be empty).
        replacement_chars: U+FFFD characters removed (unreadable characters in the source); ≥ 0.
        ligatures_repaired: NULs read as ligatures by :func:`repair_ligature_nuls`; ≥ 0.
        dropped_chars: other control, format and lone-surrogate characters removed; ≥ 0.
    """

    text: str
    replacement_chars: int = 0
    ligatures_repaired: int = 0
    dropped_chars: int = 0


def _join_pair(match: re.Match[str]) -> str:
    high, low = (ord(c) for c in match.group(0))
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def normalize_report(text: str) -> NormalizedText:
    """Normalise ``text`` (the module docstring lists the rules) and count what was removed.

    Args:
        text: any string, possibly holding NULs, lone surrogates, ``\\r\\n`` line ends and ligatures.

    Returns:
        The normalised text with counts of replacement characters removed, ligature NULs repaired and other
        characters dropped. Idempotent: normalising the result again changes nothing.
    """
    dropped = 0
    if _SURROGATE.search(text):
        text = _SURROGATE_PAIR.sub(_join_pair, text)
        before = len(text)
        text = _SURROGATE.sub("", text)
        dropped += before - len(text)
    text, ligatures = repair_ligature_nuls(text)
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\r\n", "\n").translate(_LINE_BREAKS).replace("\u2029", "\n\n")
    replacement = text.count("\ufffd")
    kept: list[str] = []
    for ch in text:
        if ch == "\ufffd":
            continue
        if ch in "\n\t" or ch in _KEEP_FORMAT:
            kept.append(ch)
            continue
        category = unicodedata.category(ch)
        if category in ("Cc", "Cf", "Cs"):
            dropped += 1
            continue
        kept.append(ch)
    text = "".join(kept)
    text = _HSPACE.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    text = _MANY_NEWLINES.sub("\n\n", text).strip()
    return NormalizedText(text, replacement, ligatures, dropped)


def normalize_text(text: str) -> str:
    """Normalise extracted text for storage and search (rules in the module docstring).

    Args:
        text: any string.

    Returns:
        The normalised text; ``""`` when nothing printable is left.

    Example:
        >>> normalize_text("The O\\ufb03ce  \\r\\n\\r\\n\\r\\n₹1,250\\x00")
        'The Office\\n\\n₹1,250'
    """
    return normalize_report(text).text


def alnum_count(text: str) -> int:
    """Number of letters and digits in ``text`` (``str.isalnum``; any script)."""
    return sum(1 for ch in text if ch.isalnum())


def has_indexable_text(text: str, min_alnum: int = 1) -> bool:
    """True when ``text`` has at least ``min_alnum`` letters or digits (any script), i.e. something to index."""
    if min_alnum <= 1:
        return any(ch.isalnum() for ch in text)
    return alnum_count(text) >= min_alnum

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
6. Private Use Area (U+E000–U+F8FF and planes 15–16): a bullet that a Symbol or Wingdings font maps into it
   (pypdf extracts Word's "Symbol" list bullet as U+F0B7) becomes "•" (:data:`PRIVATE_USE_BULLETS`); every other
   private-use code point means nothing outside its font and is dropped (counted).
7. Whitespace: tabs and runs of horizontal whitespace become one space; lines are trimmed at both ends; three or more
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

_LIGATURES = ("fi", "ff", "fl", "ffi", "ffl")
"""Candidates for a NUL inside a word, in order of preference when no known stem decides (``fi`` is commonest)."""

_VOWELS = frozenset("aeiouy")
# Which letter may follow each ligature (None = end of word). A typesetter sets ff+i and ff+l as the ffi/ffl
# ligatures, so "ff" is never followed by i or l; "ffi" is followed by a consonant; "fl"/"ffl" by a vowel.
_NEXT_OK: dict[str, frozenset[str | None]] = {
    "fi": frozenset("abcdefghijklmnopqrstuvwxyz") | {None},
    "ff": frozenset("aeouyrsthwb") | {None},
    "fl": _VOWELS,
    "ffi": frozenset("cnrxldgstmvz"),
    "ffl": _VOWELS,
}
_PREFIXES = (
    "", "in", "un", "re", "dis", "non", "co", "con", "de", "pre", "sub", "inter", "over", "under", "out", "mis",
)  # fmt: skip
# Word stems holding a ligature (lower-case ASCII), matched at the start of a word after an optional prefix above.
_LIGATURE_STEMS = (
    # ffi
    "offic", "effici", "suffic", "suffix", "traffic", "affili", "affirm", "affix", "diffic", "affidavit", "coffin",
    "griffin", "effigy", "graffiti",
    # ff
    "off", "effect", "effort", "staff", "differ", "afford", "affect", "affair", "tariff", "suffer", "buffer", "cliff",
    "sheriff", "plaintiff", "stuff", "diffus", "coffee", "scaff", "sniff", "bluff", "chaff", "stiff", "effervesc",
    "caffein", "buff", "cuff", "puff", "huff", "suffrag", "effront",
    # ffl
    "affluen", "effluen", "afflict", "baffl", "shuffl", "muffl", "ruffl", "scuffl", "waffl", "snuffl", "raffl",
    # fl
    "flow", "flat", "flex", "float", "flu", "flect", "flict", "flag", "fleet", "floor", "flight", "flood", "flash",
    "flor", "fly", "flee", "flier", "flaw", "flame", "flam", "flip", "flock", "flour", "flank", "flew", "fled",
    "flesh", "flair", "flare", "flask", "flaunt",
)  # fmt: skip

_NUL_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]*\x00[A-Za-z\x00]*")
_MAX_LIGATURE_NUL_SHARE = 0.2
"""When NULs are more than this share of the text they are not lost ligatures (e.g. UTF-16 read as 8-bit): drop."""


def _stem_hits(word: str, spans: list[tuple[int, int]]) -> int:
    """How many of the inserted ligature ``spans`` a known stem at the word's start (after a prefix) overlaps."""
    lower = word.lower()
    hits = 0
    for prefix in _PREFIXES:
        if not lower.startswith(prefix):
            continue
        for stem in _LIGATURE_STEMS:
            if lower.startswith(stem, len(prefix)):
                s, e = len(prefix), len(prefix) + len(stem)
                hits = max(hits, sum(1 for a, b in spans if a < e and b > s))
    return hits


def _repair_word(word: str) -> str:
    parts = word.split("\x00")
    if len(parts) > 4:  # more than three NULs in one word: not ligatures
        return "".join(parts)
    best: str | None = None
    best_hits = -1
    for combo in itertools.product(_LIGATURES, repeat=len(parts) - 1):
        pieces = [parts[0]]
        spans: list[tuple[int, int]] = []
        pos = len(parts[0])
        for lig, part in zip(combo, parts[1:], strict=True):
            spans.append((pos, pos + len(lig)))
            pieces.extend((lig, part))
            pos += len(lig) + len(part)
        candidate = "".join(pieces)
        valid = all(
            (candidate[e].lower() if e < len(candidate) else None) in _NEXT_OK[lig]
            for (_s, e), lig in zip(spans, combo, strict=True)
        )
        if not valid:
            continue
        hits = _stem_hits(candidate, spans)
        word_final_ff = combo[-1] == "ff" and parts[-1] == ""
        # no stem: prefer "ff" for a word-final NUL (off, staff, tariff), else the preference order
        rank = hits * 2 + (1 if word_final_ff else 0)
        if rank > best_hits:
            best, best_hits = candidate, rank
    return best if best is not None else "fi".join(parts)


def repair_ligature_nuls(text: str) -> tuple[str, int]:
    """Read NULs inside words as the ligatures they most likely replaced.

    Some PDF fonts map their ligature glyphs (ﬁ ﬂ ﬀ ﬃ ﬄ) to U+0000 in their ToUnicode CMap, so pypdf extracts
    ``"shut o\\x00 the o\\x00ce"`` for "shut off the office" (case 05b). The file holds no clue which ligature was
    meant, so the rule is lexical. For each NUL touching an ASCII letter the candidates ``fi, ff, fl, ffi, ffl`` are
    filtered by the letter that follows (a typesetter sets ff+i/ff+l as ffi/ffl, so ``ff`` never precedes i, l or
    most consonants; ``ffi`` precedes a consonant; ``fl``/``ffl`` a vowel); among the rest, one that makes a known
    word stem at the word's start (after an optional prefix such as in-/re-/con-) wins — ``offic`` → office,
    ``off``/``differ``/``staff`` → ff, ``flow``/``flect``/``flat`` → fl. Without a stem, a word-final NUL becomes
    ``ff`` (off, tariff) and any other ``fi``, the commonest ligature (finance, profit, specific). NULs not touching
    a letter, or text whose NULs are more than 20 % of its characters (not ligatures but e.g. UTF-16 read as 8-bit
    text), are left for the caller to drop.

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
PRIVATE_USE_BULLETS: dict[str, str] = {
    chr(c): "•" for c in (
        0xF0B7, 0xF0A7, 0xF0A8, 0xF09F, 0xF0A1, 0xF0A2, 0xF0B2,  # Symbol/Wingdings bullets, squares, diamonds
        0xF06C, 0xF06E, 0xF06F, 0xF070, 0xF071, 0xF075, 0xF076, 0xF077,  # Wingdings ● ■ □ ◻ ❑ ◆ ❖ ⬥
        0xF0D8, 0xF0D7, 0xF0E0, 0xF0E8, 0xF0F0, 0xF0F8,  # Wingdings arrowheads and arrows (➢ ➤ → ⇨)
        0xF0FC, 0xF0FB, 0xF0FE, 0xF0FD,  # Wingdings check and cross marks used as list bullets (✓ ✗ ☑ ☒)
        0xF02D, 0xF0BE,  # Symbol dash bullets
    )
}  # fmt: skip
"""Private-use code points of Symbol/Wingdings list bullets (the font's byte + U+F000, as PDF and Office text from
Word lists carries them), read as a bullet "•"; any other private-use character is dropped."""
_MANY_NEWLINES = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class NormalizedText:
    """The result of :func:`normalize_report`.

    Attributes:
        text: the normalised text (may be empty).
        replacement_chars: U+FFFD characters removed (unreadable characters in the source); ≥ 0.
        ligatures_repaired: NULs read as ligatures by :func:`repair_ligature_nuls`; ≥ 0.
        dropped_chars: other control, format and lone-surrogate characters removed; ≥ 0.
        private_use_chars: private-use characters removed (bullets of :data:`PRIVATE_USE_BULLETS` become "•" and
            are not counted); ≥ 0.
    """

    text: str
    replacement_chars: int = 0
    ligatures_repaired: int = 0
    dropped_chars: int = 0
    private_use_chars: int = 0


def _join_pair(match: re.Match[str]) -> str:
    high, low = (ord(c) for c in match.group(0))
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def normalize_report(text: str) -> NormalizedText:
    """Normalise ``text`` (the module docstring lists the rules) and count what was removed.

    Args:
        text: any string, possibly holding NULs, lone surrogates, ``\\r\\n`` line ends and ligatures.

    Returns:
        The normalised text with counts of replacement characters removed, ligature NULs repaired, other
        characters dropped and private-use characters dropped. Idempotent: normalising the result again changes
        nothing.
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
    private = 0
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
        if category == "Co":  # private use: a font's own glyph
            bullet = PRIVATE_USE_BULLETS.get(ch)
            private += bullet is None
            kept.append(bullet or "")
            continue
        kept.append(ch)
    text = "".join(kept)
    text = _HSPACE.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    text = _MANY_NEWLINES.sub("\n\n", text).strip()
    return NormalizedText(text, replacement, ligatures, dropped, private)


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

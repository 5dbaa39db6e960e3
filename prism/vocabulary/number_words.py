"""Numbers written in words: the cardinal words, the fractions, "per cent", and the one reader of a number phrase.

Words: "zero" … "nineteen", the tens "twenty" … "ninety", "hundred", and the scale words of
:mod:`prism.vocabulary.units` (thousand, lakh, million, crore, billion, trillion, with their plurals and Indian
spellings); fractions "half" / "third" / "quarter" (and plurals) after a cardinal numerator ("one-third",
"two-thirds", "three quarters") or in "and a half" ("two and a half"); "and" joins a hundred or a scale to what
follows ("one hundred and five"). Digits are read too: western grouping "123,456" and Indian grouping "1,23,456"
(both 123456), a ratio "2:1" (2), and a number with scale words ("2.5 crore").

Sources: English cardinal numerals as in the Chicago Manual of Style §9 (hyphenated compounds "seventy-five", "one
hundred and five" in British and Indian usage); the Indian numbering system (1 lakh = 1,00,000 = 1e5, 1 crore =
1,00,00,000 = 1e7; "lakh crore" = 1e12 as in Reserve Bank of India publications; Wikipedia, "Indian numbering
system"); "per cent" as the Reserve Bank of India and the UK style guides write it.

A ground-floor module: the standard library and :mod:`prism.vocabulary.units` only. Reading is token by token in one
pass (no backtracking regex over a run of words), so a hostile string of many number words is read in linear time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from prism.vocabulary import units

SMALL: dict[str, int] = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
"""The cardinal words below twenty → their values."""

TENS: dict[str, int] = {w: 10 * i for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
"""The tens → their values ("forty" is the spelling; "fourty" is not read)."""

HUNDRED = "hundred"
"""The word that multiplies what precedes it by 100 ("one hundred and five" = 105)."""

SCALES: dict[str, Decimal] = {form: units.BY_NAME[name].scale for form, name in units.CANONICAL.items()
                              if form.isalpha() and len(form) > 2}
"""A scale word in any written form (lower case) → its scale: "thousand" → 1e3, "lakhs" / "lac" → 1e5, "crore" →
1e7, "million" → 1e6, "billion" → 1e9, "trillion" → 1e12 (abbreviations such as "cr" are not words)."""

FRACTIONS: dict[str, int] = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4}
"""A fraction word → its denominator ("two-thirds" = 2/3)."""

CARDINAL_RE = "|".join(sorted((*SMALL, *TENS, HUNDRED), key=lambda w: (-len(w), w)))
"""An alternation (no group, no anchors; use with ``re.IGNORECASE`` and ``\\b``) of the cardinal words."""

FRACTION_RE = "|".join(sorted(FRACTIONS, key=lambda w: (-len(w), w)))
"""An alternation of the fraction words."""

PERCENT_RE = r"%|per[ \t]?cent\b|percent\b"
"""How a text writes "per cent" after a number ("75%", "seventy five per cent", "seventy-five percent")."""

VALUE_RE = (rf"\b(?!one\b)(?:{CARDINAL_RE})\b|\bone[ \t]*-?[ \t]*(?:{FRACTION_RE}|{HUNDRED}|{units.FIGURE_WORD_RE}"
            rf"|per[ \t]?cent|percent)\b")
"""A number in words that states a value (use with ``re.IGNORECASE``): any cardinal word but a lone "one" (as often
a pronoun: "one of the banks"), and "one" before a fraction, "hundred", a scale word or "per cent" ("one-third",
"one lakh", "one per cent")."""

_WORD = re.compile(r"[A-Za-z]+")
_JOIN = re.compile(r"[ \t]*-[ \t]*|\s+")
_DIGITS = re.compile(r"\d{1,3}(?:,\d{2})*,\d{3}(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+")
_LONE_FRACTION = re.compile(r"(?:a|one)\s+(half|third|quarter)|(half)", re.IGNORECASE)
_RATIO = re.compile(rf"(?P<a>{_DIGITS.pattern})\s*:\s*(?P<b>{_DIGITS.pattern})")


@dataclass(frozen=True)
class NumberPhrase:
    """A number written in words in a text.

    Attributes:
        start: offset of its first character.
        end: offset after its last character.
        value: its value, exactly (``Decimal``; a third is rounded to 28 significant digits), scale words applied:
            "fifteen crore" → 150000000; a fraction is a share: "one-third" → 0.333…, "two and a half" → 2.5.
        mantissa: the value before its trailing scale words ("fifteen crore" → 15); ``value`` when it has none.
        scales: its trailing scale words as written, lower case (``("crore",)``, ``("lakh", "crore")``).
        fraction: True for a share ("one-third", "two-thirds", "one half"), whose ``value`` is below one.
    """

    start: int
    end: int
    value: Decimal
    mantissa: Decimal
    scales: tuple[str, ...] = ()
    fraction: bool = False


class _Reader:
    """The state of one number phrase being read, word by word (see :func:`find_number_phrases`)."""

    def __init__(self) -> None:
        self.total = Decimal(0)  # completed scale groups
        self.current = Decimal(0)  # the group below the last scale
        self.last = ""  # kind of the last word: small, tens, hundred, scale, and, a, half, fraction
        self.before_and = ""  # kind of the word before an "and"
        self.last_scale: Decimal | None = None  # the smallest scale applied so far
        self.trailing: list[str] = []  # the scale words since the last cardinal word
        self.scale_words = 0
        self.words = 0
        self.fraction = False

    def take(self, word: str) -> bool:
        """Read one more word; ``False`` (and no change) when it does not continue the number."""
        w = word.lower()
        if self.fraction:
            return False
        if self.last == "half":
            return w in SCALES and self._scale(w)
        after_and = self.last == "and" and self.before_and in ("hundred", "scale")
        if w in SMALL and (self.last in ("", "hundred", "scale") or after_and or self.last == "tens" and
                           0 < SMALL[w] < 10):
            self.current += SMALL[w]
            return self._word("small")
        if w in TENS and (self.last in ("", "hundred", "scale") or after_and):
            self.current += TENS[w]
            return self._word("tens")
        if w == HUNDRED and self.last in ("small", "tens") and 0 < self.current < 100:
            self.current *= 100
            return self._word("hundred")
        if w in SCALES:
            return self._scale(w)
        if w == "and" and self.last in ("hundred", "scale", "small", "tens"):
            self.before_and = self.last
            return self._word("and")
        if w == "a" and self.last == "and" and self.before_and in ("small", "tens"):
            return self._word("a")
        if w in FRACTIONS:
            return self._fraction(w)
        return False

    def _word(self, kind: str) -> bool:
        if kind in ("small", "tens", "hundred"):
            self.trailing = []
        self.last = kind
        self.words += 1
        return True

    def _scale(self, w: str) -> bool:
        scale = SCALES[w]
        if self.last == "scale" and self.last_scale is not None and scale > self.last_scale and not self.current:
            self.total *= scale  # "lakh crore", "thousand crore": the larger scale multiplies what precedes it
        elif self.current and (self.last_scale is None or scale < self.last_scale):
            self.total += self.current * scale
            self.current = Decimal(0)
        else:
            return False
        self.last_scale = scale
        self.trailing.append(w)
        self.scale_words += 1
        self.last = "scale"
        self.words += 1
        return True

    def _fraction(self, w: str) -> bool:
        denominator = Decimal(FRACTIONS[w])
        if self.last == "a" and denominator == 2:  # "two and a half"
            self.current += Decimal(1) / denominator
            self.last = "half"
            self.words += 1
            return True
        if self.last == "small" and self.words == 1 and self.current > 0:  # "one-third", "two-thirds"
            self.current /= denominator
            self.fraction = True
            return self._word("fraction")
        return False

    def result(self) -> tuple[Decimal, Decimal, tuple[str, ...]] | None:
        """``(value, mantissa, trailing scale words)``, or ``None`` when no cardinal word was read."""
        if self.last in ("", "and", "a"):
            return None
        value = self.total + self.current
        trailing = tuple(self.trailing)
        if trailing and self.scale_words == len(trailing):
            return value, value / _product(trailing), trailing
        return value, value, ()


def _product(words: tuple[str, ...]) -> Decimal:
    result = Decimal(1)
    for w in words:
        result *= SCALES[w]
    return result


def find_number_phrases(text: str) -> list[NumberPhrase]:
    """Every number written in words in ``text``, in order: "fifteen crore" in "a penalty of fifteen crore rupees",
    "seventy five" / "seventy-five", "one hundred and five", "two and a half", "one-third", "two-thirds".

    Words are joined by white space or one hyphen; a phrase ends at the first word that does not continue it ("five
    five" is two phrases). A fraction word counts only after a lone cardinal numerator ("one-third"; "the third
    quarter", "a third party" are no numbers); a scale word alone ("crore") and a lone "and" are not numbers. Digits
    are not read here (see :func:`read_number_words`). One pass over the words: linear in ``len(text)``.
    """
    phrases: list[NumberPhrase] = []
    reader: _Reader | None = None
    start = end = 0
    ends: list[int] = []  # the end of each word read, to drop a dangling "and" / "a"
    for m in _WORD.finditer(text):
        joined = reader is not None and _JOIN.fullmatch(text, end, m.start()) is not None
        if reader is not None and joined and reader.take(m.group(0)):
            end = m.end()
            ends.append(end)
            continue
        _close(reader, text, start, ends, phrases)
        reader = _Reader()
        if reader.take(m.group(0)):
            start, end, ends = m.start(), m.end(), [m.end()]
        else:
            reader = None
    _close(reader, text, start, ends, phrases)
    return phrases


def _close(reader: _Reader | None, text: str, start: int, ends: list[int], phrases: list[NumberPhrase]) -> None:
    """Append the phrase ``reader`` has read; one ending in a dangling "and" / "and a" is read again without it."""
    if reader is None:
        return
    if reader.last in ("and", "a"):
        drop = 2 if reader.last == "a" else 1
        if len(ends) > drop:
            cut = ends[-1 - drop]
            phrases.extend(NumberPhrase(p.start + start, p.end + start, p.value, p.mantissa, p.scales, p.fraction)
                           for p in find_number_phrases(text[start:cut]))
        return
    read = reader.result()
    if read is not None:
        phrases.append(NumberPhrase(start, ends[-1], read[0], read[1], read[2], reader.fraction))


def read_number_words(phrase: str) -> Decimal | None:
    """The number a whole phrase states, exactly, its scale words applied, or ``None`` when it is not one number.

    Examples: ``"fifteen crore"`` → ``Decimal("150000000")``; ``"seventy five"``, ``"seventy-five"`` → 75; ``"one
    hundred and five"`` → 105; ``"two and a half"`` → 2.5; ``"one-third"`` → 1/3 (28 significant digits);
    ``"1,23,456"`` (Indian grouping) and ``"123,456"`` → 123456; ``"2.5 crore"`` → 25000000; a ratio ``"2:1"`` → 2
    (``a:b`` is a / b; ``None`` for ``b`` = 0); a share alone, ``"half"``, ``"a third"`` → 0.5, 1/3. Case and
    surrounding white space are ignored; currency marks and "per cent" are the caller's to strip. Linear in
    ``len(phrase)``.
    """
    text = phrase.strip()
    if not text:
        return None
    if ratio := _RATIO.fullmatch(text):
        a, b = _digits(ratio.group("a")), _digits(ratio.group("b"))
        return a / b if a is not None and b else None
    if digits := _DIGITS.match(text):
        rest = text[digits.end():].split()
        value = _digits(digits.group(0))
        if value is None or any(w.lower() not in SCALES for w in rest):
            return None
        for w in rest:
            value *= SCALES[w.lower()]
        return value
    if lone := _LONE_FRACTION.fullmatch(text):  # "half", "a third": a share alone is unambiguous in a whole phrase
        return Decimal(1) / FRACTIONS[(lone.group(1) or lone.group(2)).lower()]
    phrases = find_number_phrases(text)
    if len(phrases) != 1 or phrases[0].start != 0 or phrases[0].end != len(text):
        return None
    return phrases[0].value


def _digits(num: str) -> Decimal | None:
    """A number written in digits, grouping commas dropped (western "123,456" or Indian "1,23,456")."""
    try:
        return Decimal(num.replace(",", ""))
    except InvalidOperation:
        return None

"""The number check: every figure in an answer must be found in the blocks it cites, in the unit they state.

A *figure* is a number with a currency (``₹``, ``Rs.``, ``INR``, ``$``, ``USD``, ``€``), a scale unit (``thousand``,
``lakh``/``lac``, ``crore``/``cr``, ``million``/``mn``/``M``, ``billion``/``bn``/``B``, ``trillion``/``tn``,
compounded: ``lakh crore``) or a percentage (``%``, ``per cent``, ``percent``, ``bps``). Bare numbers (years, section
numbers, days) are not figures. Values are normalised: 1 lakh = 1e5, 1 crore = 1e7, million = 1e6, billion = 1e9,
``₹8.4 lakh crore`` = 8.4e12, Indian grouping ``1,00,000`` = 1e5; ``25 bps`` = 0.25 %. A minus sign written against
the number ("-$1,234", "−1,234") or accounting parentheses ("(1,234)", "$ (1,234)") mark a negative figure.

A cited block is a :class:`~prism.answering.units.Block`: its text with the unit and currency it states once for its
bare numbers ("(In millions)", "Rs. in crore"). In such a block "Net sales $ 5,213" is $5.213e9 and "Net profit 812"
is ₹812 crore, so "$5,213 million", "$5.2 billion" and "₹812 crore" are supported and "$5,213 billion" is not; a bare
"$5,213" in the answer is also accepted, as the table's figure as written.

Two figures match when they are of the same kind (amount or percent), their currencies do not conflict (a figure
without currency matches any), they are equal within the rounding of the less precise one (half a unit in the last
decimal digit it states: "₹8.4 lakh crore" is supported by "₹8.42 lakh crore" but not by "₹8.46 lakh crore", and
"$5.2 billion" by "5,213" in millions; a whole number is exact: "₹1 lakh" is not supported by "₹1.4 lakh"), or within
a relative 1e-9. Signs: an answer's explicitly negative figure ("-$1,234 million") needs a negative one in the block;
an unsigned one may state the size of a negative block figure ("a net loss of $1,234 million" for "(1,234)").
A figure also matches a bare number in the block when the block states the figure's scale unit as a phrase of its
own and its currency (tables with a unit per column: "Value (₹ lakh crore) … 8.40"
supports "₹8.4 lakh crore" but not "8.4 lakh").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from prism.answering.citations import sentences_with_refs
from prism.answering.units import Block
from prism.vocabulary import currencies, number_formats, number_words
from prism.vocabulary import units as vocab

logger = logging.getLogger(__name__)

UNIT_VALUES: dict[str, float] = {u.spoken: float(u.scale) for u in vocab.UNITS}
"""Spoken unit word → its scale (``"crore"`` → 1e7, ``"trillion"`` → 1e12)."""
_UNIT_ALIASES: dict[str, str] = {**{f: w for f, w in vocab.SPOKEN_OF.items() if f[0].isalpha()}, **vocab.LETTERS}

_CUR = r"(?P<cur>₹|\bRs\.?|\bINR|\bUS\$|\bUSD|\$|€|\bEUR)"
_NUM = r"(?P<num>\d{1,3}(?:,\d{2}(?=,))*(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_UNIT_WORD = rf"(?:{vocab.FIGURE_WORD_RE})"
_ATTACHED = r"(?P<abbr>(?-i:[KMB])|bn|mn|cr|tn)?"  # "$5.2B", "₹5cr" (one capital letter only: "5 m" is metres)
_UNITS = rf"(?P<units>(?:[ \t]*-?[ \t]*{_UNIT_WORD}\b)*)"
_PCT = r"(?P<pct>[ \t]*(?:%|per[ \t]?cent\b|percent\b|bps\b|basis points\b))?"
FIGURE_RE = re.compile(
    rf"(?P<minus>(?<![\w.,\-−])[-−](?=[₹$€\dRIU]))?(?P<open>\((?=[ \t]*[₹$€\dRIU]))?"
    rf"(?:{_CUR}[ \t]*(?P<inner>\([ \t]*)?|(?<![\w.,])){_NUM}(?(inner)[ \t]*\)|){_ATTACHED}(?![\w])"
    rf"(?P<close>\))?{_UNITS}{_PCT}",
    re.IGNORECASE,
)
_BARE_RE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{2}(?=,))*(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d])")
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_MARKER_RE = re.compile(r"\[(?:ref )?[Ww]?\d{1,3}(?:\s*[,;–-]\s*[Ww]?\d{1,3})*\]")  # also a document's "[ref 2]"


@dataclass(frozen=True)
class Figure:
    """One figure as written and normalised.

    Attributes:
        text: the figure as written (e.g. ``"₹8.4 lakh crore"``).
        value: normalised size, ≥ 0 (rupees/dollars/units, or percent points for ``percent``); the sign is ``sign``.
        kind: ``amount`` or ``percent``.
        currency: ``INR``, ``USD``, ``EUR`` or ``None``.
        tolerance: half a unit of the last stated decimal digit (0 for whole numbers), in the units of ``value``.
        mantissa: the number as written, without grouping commas.
        units: the scale unit words, canonical (``("lakh", "crore")``).
        sign: ``"-"`` for a minus sign, ``"()"`` for accounting parentheses, ``""`` for none.
    """

    text: str
    value: float
    kind: str
    currency: str | None
    tolerance: float
    mantissa: float
    units: tuple[str, ...]
    sign: str = ""

    @property
    def negative(self) -> bool:
        """True for a minus sign or accounting parentheses."""
        return self.sign != ""


def _decimals(num: str) -> int:
    return len(num.split(".", 1)[1]) if "." in num else 0


def _figure(m: re.Match[str]) -> Figure | None:
    """The figure of one :data:`FIGURE_RE` match, or ``None`` for a bare number (no currency, unit or percent)."""
    cur_raw, num, units_raw, pct_raw = m.group("cur"), m.group("num"), m.group("units"), m.group("pct")
    words = re.findall(_UNIT_WORD, units_raw or "", re.IGNORECASE)
    units = tuple(_UNIT_ALIASES[u.lower()] for u in ([m.group("abbr")] if m.group("abbr") else []) + words)
    if not (cur_raw or units or pct_raw):
        return None
    mantissa = float(num.replace(",", ""))
    scale = 1.0
    for u in units:
        scale *= UNIT_VALUES[u]
    decimals = _decimals(num)
    step = 0.5 * 10 ** (-decimals) if decimals else 0.0  # whole numbers are exact
    kind = "amount"
    if pct_raw:
        kind = "percent"
        if re.search(r"bps|basis", pct_raw, re.IGNORECASE):
            scale /= 100.0  # basis points → percent points
    currency = currencies.code_of(cur_raw)
    sign = "-" if m.group("minus") else ("()" if m.group("inner") or (m.group("open") and m.group("close")) else "")
    text = m.group(0).strip()
    if m.group("open") and not m.group("close"):
        text = text[1:].strip()  # "(₹500 per month": the parenthesis opens prose, not a negative figure
    return Figure(text, mantissa * scale, kind, currency, step * scale, mantissa, units, sign)


_WORD_CUR_BEFORE = re.compile(rf"{_CUR}[ \t]*$", re.IGNORECASE)
_WORD_AFTER = re.compile(rf"[ \t]*(?:(?P<pct>{number_words.PERCENT_RE})|(?P<cur>{currencies.NAME_RE}))", re.IGNORECASE)
_ANY_NUMBER_WORD = re.compile(rf"\b(?:{number_words.CARDINAL_RE})\b", re.IGNORECASE)


def _word_spans(text: str) -> Iterator[tuple[int, int, number_words.NumberPhrase, bool, str | None]]:
    """``(start, end, phrase, percent, currency)`` of each number phrase of ``text`` with the currency mark before it
    ("₹ fifteen lakh") or the "per cent" / currency name after it ("fifteen crore rupees") it carries."""
    if not _ANY_NUMBER_WORD.search(text):
        return
    for p in number_words.find_number_phrases(text):
        before = _WORD_CUR_BEFORE.search(text, 0, p.start) if p.start else None
        after = _WORD_AFTER.match(text, p.end)
        pct = after is not None and after.group("pct") is not None
        cur = (before.group("cur") if before else None) or (after.group("cur") if after and not pct else None)
        yield (before.start() if before else p.start), (after.end() if after else p.end), p, pct, currencies.code_of(
            cur)


def _word_figures(text: str) -> list[tuple[int, Figure]]:
    """The figures of ``text`` written in words, with their offsets: a number phrase
    (:func:`prism.vocabulary.number_words.find_number_phrases`) with a scale word, a currency (a mark before it or
    its name after: "₹ fifteen lakh", "fifteen crore rupees") or "per cent" after it ("seventy five per cent"), and
    a share ("one-third", "two-thirds") as a percentage. Whole numbers in words are exact; a share that is no
    finite decimal ("one-third" = 33.33… %) is as precise as the whole percent nearest it (33 % and 33.3 % match
    it, 34 % does not)."""
    found: list[tuple[int, Figure]] = []
    for start, end, p, pct, cur in _word_spans(text):
        if p.fraction:
            value = p.value * 100
            exact = value == value.quantize(Decimal("1e-9"))
            step = Decimal(0) if exact else abs(value - value.to_integral_value()) + Decimal("1e-9")
            found.append((start, Figure(text[start:end], float(value), "percent", None, float(step), float(value), ())))
        elif pct or cur or p.scales:  # a bare number ("thirty days") is no figure
            scales = tuple(vocab.SPOKEN_OF[s] for s in p.scales)
            found.append((start, Figure(text[start:end], float(p.value), "percent" if pct else "amount", cur, 0.0,
                                        float(p.mantissa), scales)))
    return found


def with_digits(sentence: str) -> str:
    """``sentence`` with each figure it writes in words stated in digits first, its words after in parentheses:
    "shall not exceed fifteen crore rupees" → "shall not exceed ₹15 crore (fifteen crore rupees)", "seventy five
    per cent" → "75% (seventy five per cent)". Shares ("one-third") and bare numbers ("thirty days") are left as
    written; a number in digits is never touched."""
    out: list[str] = []
    last = 0
    for start, end, p, pct, cur in _word_spans(sentence):
        if p.fraction or not (pct or cur or p.scales):
            continue
        digits = f"{p.mantissa.normalize():,f}"
        scales = "".join(f" {vocab.SPOKEN_OF[s]}" for s in p.scales)
        written = f"{digits}%" if pct else f"{currencies.SYMBOL.get(cur or '', '')}{digits}{scales}"
        out.append(f"{sentence[last:start]}{written} ({sentence[start:end]})")
        last = end
    return "".join(out) + sentence[last:]


def extract_figures(text: str) -> list[Figure]:
    """Every figure in ``text`` (citation markers ignored), in order of appearance: figures in digits
    (:data:`FIGURE_RE`) and in words ("fifteen crore rupees", "seventy five per cent", "one-third";
    :func:`_word_figures`)."""
    text = _MARKER_RE.sub(" ", text)
    found = [(m.start(), f) for m in FIGURE_RE.finditer(text) if (f := _figure(m)) is not None]
    return [f for _, f in sorted(found + _word_figures(text), key=lambda pair: pair[0])]


def same_quantity(a: Figure, b: Figure) -> bool:
    """True when ``a`` and ``b`` state one quantity: same kind, currencies not conflicting, sizes equal within the
    rounding of the less precise one (or a relative 1e-9). Signs are not compared (see :func:`supported`)."""
    if a.kind != b.kind or (a.currency and b.currency and a.currency != b.currency):
        return False
    return abs(a.value - b.value) <= max(a.tolerance, b.tolerance, 1e-9 * max(a.value, b.value))


def _signs_agree(stated: Figure, source: Figure) -> bool:
    """An explicitly negative figure of the answer needs a negative one in the source; an unsigned one may give the
    size of a negative source figure ("a loss of $1,234 million" for "(1,234)")."""
    return stated.sign != "-" or source.negative


def _block_figures(block: Block) -> list[Figure]:
    """The figures of a block, as written and, for amounts without a unit of their own in a block that states one,
    also in that unit ("$ 5,213" under "(In millions)" → $5.213e9); bare numbers of such a block too (not years).
    A block printed with decimal commas is read in its own convention ("1.234,5" is 1,234.5)."""
    text = _MARKER_RE.sub(" ", number_formats.house_marks(block.text, block.decimal))
    figures: list[Figure] = []
    taken: list[tuple[int, int]] = []
    for m in FIGURE_RE.finditer(text):
        f = _figure(m)
        if f is None:
            continue
        taken.append(m.span("num"))
        figures.append(f)
        if block.unit and f.kind == "amount" and not f.units:
            figures.append(_scaled(f, block))
    figures.extend(f for _, f in _word_figures(text))
    if block.unit:
        for m in _BARE_RE.finditer(text):
            if any(a <= m.start(1) < b for a, b in taken) or _YEAR_RE.fullmatch(m.group(1)):
                continue
            before = text[: m.start(1)].rstrip(" \t")
            num = m.group(1)
            sign = "()" if before.endswith("(") and text[m.end(1): m.end(1) + 1] == ")" else ""
            sign = "-" if before.endswith(("-", "−")) and not re.search(r"[\w.,]$", before[:-1]) else sign
            mantissa = float(num.replace(",", ""))
            bare = Figure(num, mantissa, "amount", None, 0.5 * 10 ** (-_decimals(num)) if "." in num else 0.0,
                          mantissa, (), sign)
            figures.append(_scaled(bare, block))
    return figures


def _scaled(f: Figure, block: Block) -> Figure:
    """``f`` counted in the block's unit and currency."""
    return replace(f, value=f.value * block.scale, tolerance=f.tolerance * block.scale,
                   currency=f.currency or block.currency, units=(block.unit or "",))


def _as_block(source: Block | str) -> Block:
    return source if isinstance(source, Block) else Block.of(source)


_UNIT_RUN_RE = re.compile(rf"\b{_UNIT_WORD}\b(?:[ \t]*-?[ \t]*{_UNIT_WORD}\b)*", re.IGNORECASE)


def _unit_runs(text: str) -> set[tuple[str, ...]]:
    """The scale-unit phrases of a text as canonical tuples (``"₹ lakh crore"`` → ``("lakh", "crore")``)."""
    return {
        tuple(_UNIT_ALIASES[u.lower()] for u in re.findall(_UNIT_WORD, m.group(0), re.IGNORECASE))
        for m in _UNIT_RUN_RE.finditer(text)
    }


def supported(figure: Figure, source: Block | str) -> bool:
    """True when ``source`` states ``figure`` (see the module docstring for the matching rules).

    Args:
        figure: a figure of the answer.
        source: the cited block (a bare ``str`` is read as :meth:`Block.of` it, unit statement included).
    """
    block = _as_block(source)
    for other in _block_figures(block):
        if same_quantity(figure, other) and _signs_agree(figure, other):
            return True
        if not figure.units and figure.kind == "amount" and other.units == (block.unit,) and block.unit:
            as_written = replace(other, value=other.mantissa, tolerance=other.tolerance / block.scale, units=())
            if same_quantity(figure, as_written) and _signs_agree(figure, other):
                return True  # "$5,213": the table's figure as written
    return _column_unit_match(figure, number_formats.house_marks(block.text, block.decimal))


def _column_unit_match(figure: Figure, source_text: str) -> bool:
    """A bare number of ``source_text`` read in the figure's own unit and currency, when the text states both
    ("Value (₹ lakh crore) … 8.40" for "₹8.4 lakh crore")."""
    if figure.kind == "percent" and not re.search(r"%|per ?cent|bps|basis points", source_text, re.IGNORECASE):
        return False
    if figure.units and figure.units not in _unit_runs(source_text):
        return False
    if figure.currency and not re.search(currencies.MENTION_RE[figure.currency], source_text, re.IGNORECASE):
        return False
    step = figure.tolerance / (figure.value / figure.mantissa) if figure.mantissa and figure.value else 0.0
    text = _MARKER_RE.sub(" ", source_text)
    taken = [m.span("num") for m in FIGURE_RE.finditer(text) if m.group("cur") or m.group("units") or m.group("pct")
             or m.group("abbr")]
    for m in _BARE_RE.finditer(text):
        if any(a <= m.start(1) < b for a, b in taken):
            continue  # part of a figure of its own (61% is not a bare 61)
        value = float(m.group(1).replace(",", ""))
        other_step = 0.5 * 10 ** (-_decimals(m.group(1))) if "." in m.group(1) else 0.0
        if abs(figure.mantissa - value) <= max(step, other_step, 1e-9 * max(figure.mantissa, value)):
            return figure.sign != "-"
    return False


def check_sentences(sentences: Sequence[tuple[str, Sequence[str]]], blocks: Mapping[str, Block | str]) -> list[str]:
    """Figures of an answer, given as sentences with the block references they cite, not found in those blocks.

    Args:
        sentences: ``(sentence, refs)`` in answer order (refs like ``"1"``, ``"W1"``).
        blocks: block reference → :class:`~prism.answering.units.Block` (or its text).

    Returns:
        The unsupported figures as written, unique, in order of appearance. A figure is looked up in the blocks its
        sentence cites; in a sentence without references, in every block the answer cites; a figure in an answer
        that cites nothing is unsupported.
    """
    resolved = {k: _as_block(v) for k, v in blocks.items()}
    all_cited: list[str] = []
    for _s, refs in sentences:
        all_cited.extend(r for r in refs if r in resolved and r not in all_cited)
    result: list[str] = []
    for sentence, refs in sentences:
        figures = extract_figures(sentence)
        if not figures:
            continue
        scope = [resolved[r] for r in refs if r in resolved] or [resolved[r] for r in all_cited]
        for f in figures:
            if not any(supported(f, b) for b in scope) and f.text not in result:
                result.append(f.text)
    if result:
        logger.info("number check: %d unsupported figure(s)", len(result))
    return result


def unsupported_numbers(answer: str, blocks: Mapping[str, Block | str]) -> list[str]:
    """Figures of ``answer`` not found in the blocks they cite (:func:`check_sentences` over the answer's sentences,
    :func:`prism.answering.citations.sentences_with_refs`).

    Args:
        answer: the validated answer text (markers point at existing blocks).
        blocks: block reference → :class:`~prism.answering.units.Block` or text, for the blocks shown to the LLM
            (``"1"``, ``"2"``, ``"W1"``).
    """
    return check_sentences(sentences_with_refs(answer), blocks)

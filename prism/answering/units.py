"""What a block of document text counts its figures in, and stating that unit with a figure quoted from it.

Financial tables state their unit once, in a header: "(In millions, except per share amounts)", "Standalone
financial results (Rs. in crore)", "₹ crore unless stated", "(Dollars in thousands)". The rows then carry bare
numbers: "Net sales $ 5,213" means $5,213 million. A :class:`Block` is a cited text with that unit and currency, so
that the number check (:mod:`prism.answering.figures`) reads "5,213" as 5.213e9 and the extractive answer can quote
it as "$5,213 million" (:func:`with_units`).

Where the unit comes from, first found wins: the chunk's metadata (``unit`` / ``currency``, written at ingestion
for table chunks), a unit statement in the chunk's own text, then one in the chunks before it on the same page
(the page's header, passed in as ``head``). A unit statement is a unit phrase that is a line of its own or ends its
line ("(Rs. in crore)"), that is followed by "unless" / "except", or that reads "(in …)"; a column header in the
middle of a line ("Value (₹ lakh crore) YoY growth") states only its column's unit and is not one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from prism.vocabulary import currencies, months
from prism.vocabulary import units as vocab

logger = logging.getLogger(__name__)

UNIT_SCALE: dict[str, float] = {**{name: float(scale) for name, scale in vocab.SCALE.items()},
                                vocab.LAKH_CRORE: float(vocab.LAKH_CRORE_SCALE)}
"""Scale of each unit (the house words of :data:`prism.vocabulary.units.TABLE_UNITS`, and ``"lakh crore"``)."""

_UNIT_NAME = {form: name for form, name in vocab.CANONICAL.items() if name in vocab.TABLE_UNITS and form[0].isalpha()}
_SPOKEN = {**vocab.SPOKEN, vocab.LAKH_CRORE: vocab.LAKH_CRORE}

_MONEY_MARKS = r"₹|\bRs\.?|\bINR\b|\bUS\$|\bUSD\b|\$|€|\bEUR\b|\bdollars\b|\brupees\b"
_MONEY = rf"(?P<cur>{_MONEY_MARKS})"
_UNIT = rf"(?P<unit>{vocab.LAKH_CRORE_RE}|{vocab.WORD_RE})\b"
_STATEMENTS = (
    # (In millions, except per share amounts) · (in ₹ crore) · (Amounts in $ thousands) · (Dollars in millions)
    re.compile(rf"\(\s*(?:(?:amounts?|figures|values?|all\s+amounts)\s+|(?P<cur1>{_MONEY_MARKS})\s+)?in\s+"
               rf"(?:{_MONEY}\s*)?{_UNIT}",
               re.IGNORECASE),
    # Rs. in crore · ₹ crore unless stated · ($ in thousands) — at the end of the line or before unless / except
    re.compile(rf"{_MONEY}\s*(?:in\s+)?{_UNIT}(?=\s*\)?\s*[.:;]?\s*$|\s*,?\s*(?:unless|except))",
               re.IGNORECASE | re.MULTILINE),
)


def _unit_name(word: str) -> str:
    words = word.lower().split()
    if len(words) == 2:
        return vocab.LAKH_CRORE
    return _UNIT_NAME[words[0]]


def _statement(text: str, last: bool = False) -> re.Match[str] | None:
    """The first (or ``last``) unit statement of ``text`` (see the module docstring)."""
    found = [m for p in _STATEMENTS for m in p.finditer(text)]
    if not found:
        return None
    return max(found, key=lambda m: m.start()) if last else min(found, key=lambda m: m.start())


def stated_unit(text: str, last: bool = False) -> tuple[str, str | None] | None:
    """The first (``last``: the last) unit statement of ``text`` as ``(unit, currency)`` (``("millions", None)`` for
    "(In millions)", ``("crore", "INR")`` for "Rs. in crore"), or ``None``. ``unit`` is a key of
    :data:`UNIT_SCALE`; ``currency`` an ISO 4217 code or ``None`` when the statement names none."""
    m = _statement(text, last)
    return (_unit_name(m.group("unit")), currencies.code_of(m.group("cur") or m.groupdict().get("cur1"))) if m else None


_CURRENCY_MARK = re.compile(r"₹|\bRs\.?(?=\s?\d)|\bINR\b|\$|\bUSD\b|€|\bEUR\b")


@dataclass(frozen=True)
class Block:
    """A cited text with the unit and currency its bare figures are counted in.

    Attributes:
        text: the block's text as shown to the LLM or quoted.
        unit: a key of :data:`UNIT_SCALE`, or ``None`` when the block states none.
        currency: ISO 4217 code of the block's amounts, or ``None`` (unknown: no currency conflict is checked).
        decimal: the decimal mark its figures are printed with, ``"."`` or ``","`` (a table chunk's
            ``table_decimal``, decided at ingestion): the number check reads "1.234,5" as 1,234.5.
    """

    text: str
    unit: str | None = None
    currency: str | None = None
    decimal: str = "."

    @classmethod
    def of(cls, text: str, *, head: str = "", unit: str | None = None, currency: str | None = None) -> Block:
        """The block for ``text``: ``unit`` / ``currency`` as given (chunk metadata), else the first unit statement
        of ``text``, else the last one of ``head`` (the text before it on its page). Without a stated currency, the
        one currency marked in the text ("$ 5,213") is the block's."""
        found = None if unit else (stated_unit(text) or (stated_unit(head, last=True) if head else None))
        unit = _UNIT_NAME.get(unit.lower(), unit.lower()) if unit else (found[0] if found else None)
        if unit not in UNIT_SCALE:
            unit = None
        currency = currency or (found[1] if found else None)
        if currency is None:
            marks = {currencies.code_of(m.group(0)) for m in _CURRENCY_MARK.finditer(text)}
            currency = marks.pop() if len(marks) == 1 else None
        return cls(text, unit, currency)

    @property
    def scale(self) -> float:
        """What a bare number of the block is multiplied by (1.0 without a unit)."""
        return UNIT_SCALE[self.unit] if self.unit else 1.0


def block_of_chunk(chunk: Any, head: str = "") -> Block:
    """The :class:`Block` of a retrieved chunk. The unit: a table chunk's ``table_unit`` (chunk metadata written at
    ingestion), else what its text or ``head`` states. The currency: ``table_currency``, else the statement's, else
    the one currency marked in the text, else the document profile's ``currency``. The profile's document-wide
    ``unit`` is not used: prose figures carry their own scale words. The decimal mark: ``table_decimal``."""
    meta = getattr(chunk, "metadata", None)
    meta = meta if isinstance(meta, dict) else {}
    if len(columns_own_units(str(meta.get("table_columns") or "").split(" | "))) > 1:
        return Block(chunk.text, decimal=str(meta.get("table_decimal") or "."))
    block = Block.of(chunk.text, head=head, unit=meta.get("table_unit") or None,
                     currency=meta.get("table_currency") or None)
    if block.currency is None and meta.get("currency"):
        block = Block(block.text, block.unit, str(meta["currency"]))
    return replace(block, decimal=str(meta.get("table_decimal") or "."))


def columns_own_units(headers: Sequence[str]) -> set[str]:
    """The units other than a percent that a table's column headers state for themselves, each in a closing
    parenthesis ("Volume (crore transactions)", "Value (₹ lakh crore)" → {"crore transactions", "₹ lakh crore"}).
    Two or more mean the columns count in different units, so no one unit of the table is every cell's:
    :func:`block_of_chunk` then gives the block none, and its cells are quoted as printed (never "₹612 crore" for
    612 crore transactions)."""
    out = set()
    for header in headers:
        m = re.search(r"\(([^()]*)\)\s*$", header)
        if m and label_states_unit(header) and m.group(1).strip() not in ("%", "per cent", "percent"):
            out.add(" ".join(m.group(1).lower().split()))
    return out


def page_head(chunk: Any, rows: Sequence[Mapping[str, Any]]) -> str:
    """The text before ``chunk`` on its page: the stored rows of its document (``chunk_index``, ``page_start``,
    ``text``; :meth:`prism.index.workspaces.Workspace.read_chunks`) that start on the chunk's page and come before
    it, joined in reading order ("" when there are none). An unpaged document (TXT) is one page: every chunk before
    it."""
    page = getattr(chunk, "page_start", None)
    index = getattr(chunk, "chunk_index", 0)
    before = sorted((r for r in rows if r.get("page_start") == page
                     and isinstance(r.get("chunk_index"), int) and r["chunk_index"] < index),
                    key=lambda r: r["chunk_index"])
    return "\n".join(str(r.get("text", "")) for r in before)


def blocks_of_chunks(chunks: Sequence[Any], rows_of: Callable[[str], Sequence[Mapping[str, Any]]] | None = None
                     ) -> list[Block]:
    """The :class:`Block` of each retrieved chunk, in order (:func:`block_of_chunk`). A chunk whose metadata and
    text state no unit gets its page's head (:func:`page_head`) from ``rows_of(doc_id)`` (the workspace's stored
    chunk rows; read once per document), so a table chunk cut below its "(In millions)" header keeps the unit."""
    cache: dict[str, Sequence[Mapping[str, Any]]] = {}
    blocks: list[Block] = []
    for chunk in chunks:
        block = block_of_chunk(chunk)
        if block.unit is None and rows_of is not None and bool(getattr(chunk, "chunk_index", 0)):
            doc_id = chunk.doc_id
            if doc_id not in cache:
                cache[doc_id] = rows_of(doc_id)
            head = page_head(chunk, cache[doc_id])
            if head:
                block = block_of_chunk(chunk, head)
        blocks.append(block)
    return blocks


# --- quoting a table figure with its unit -------------------------------------------------------------------------
_CELL = re.compile(r"[-−]?(?:₹|\$|Rs\.?)?\(?\d{1,3}(?:,\d{2,3})*(?:\.\d+)?\)?|[-−]?(?:₹|\$|Rs\.?)?\(?\d+(?:\.\d+)?\)?")
_YEAR = re.compile(r"\(?(?:19|20)\d\d\)?")
_OWN_UNIT = re.compile(rf"%|\b(?:number|nos?|count|{vocab.SPOKEN_RE}|x|times|days?|months?|years?|cents?|pence|paise|"
                       r"bps|basis|ratio|per\s?cent|percent)\b|₹|\$|\brs\b", re.IGNORECASE)
_FOLLOWING_UNIT = re.compile(r"^(?:%|per\b|bps\b|basis\b|x\b|times\b|days?\b|months?\b|years?\b|hours?\b|"
                             rf"(?:{vocab.WORD_RE}|{vocab.ABBREVIATION_RE})\b)", re.IGNORECASE)
_CURRENCY_ONLY = re.compile(r"(?:₹|\$|Rs\.?)")


_PER_UNIT = re.compile(r"\bper\s+[A-Za-z]|\bEPS\b", re.IGNORECASE)
PERCENT_LABEL = re.compile(r"\bper\s*cent\b|\bpercent(?:age)?\b|%", re.IGNORECASE)
"""A row label that says its values are percentages ("Growth per cent", "Margin (%)")."""


_LEADER = re.compile(r"(?:\s*\.){2,}\s*")


def printed_label(label: str) -> str:
    """A row label as an analyst writes it: the dot leaders a 10-K draws to its figures ("Total revenue........"
    → "Total revenue"), a trailing colon or currency mark and repeated spaces removed."""
    return " ".join(_LEADER.sub(" ", label).split()).strip(" :$")


def per_unit_label(label: str) -> bool:
    """True when a row label names a per-unit figure ("Diluted earnings per share", "Average monthly revenue per
    paying membership", "EPS"): its values are in plain currency, not in the table's scale — the reason 10-K headers
    read "(in thousands, except per share data)". A "per cent" row is matched too: not in the scale either."""
    return bool(_PER_UNIT.search(label))


_COUNT_ONLY = frozenset({"number", "numbers", "no", "no.", "nos", "nos.", "count"})
_CLOSING_PARENTHESIS = re.compile(r"\((?:in\s+)?([^()]*)\)\s*:?\s*$", re.IGNORECASE)


_PARENTHESIS = re.compile(r"\s*\([^()]*\)")


def without_parentheses(text: str) -> str:
    """``text`` without its innermost bracketed parts, spaces collapsed ("Q4 FY25 (Jan–Mar 2025)" → "Q4 FY25",
    "Reserve Account (RA)" → "Reserve Account"); ``""`` when nothing else is left."""
    return " ".join(_PARENTHESIS.sub(" ", text).split())


def unit_parenthesis(label: str) -> re.Match[str] | None:
    """The closing parenthesis of a row label that opens with the row's unit ("Volume (crore transactions)",
    "Employees (number)", "Change (%)"; group 1 its content), or ``None`` ("Net income (loss)", "Preferred stock
    (as-converted basis)")."""
    m = _CLOSING_PARENTHESIS.search(label)
    return m if m and own_unit_first(m.group(1)) else None


def label_unit(label: str) -> tuple[str, str] | None:
    """``(currency symbol, unit words)`` a row label's closing parenthesis states for its figures ("Volume (crore
    transactions)" → ``("", "crore transactions")``, "Value (₹ lakh crore)" → ``("₹", "lakh crore")``), or ``None``
    when it states none, or only that the figures are counts ("(number)") or percentages ("(%)")."""
    m = unit_parenthesis(label)
    if m is None:
        return None
    content = " ".join(m.group(1).split())
    if content.lower() in _COUNT_ONLY or content.startswith("%"):
        return None
    symbol = next((s for s in currencies.SYMBOL.values() if content.startswith(s)), "")
    if symbol:
        return symbol, content[len(symbol):].strip()
    rupees = re.match(r"rs\.?\s*", content, re.IGNORECASE)
    return ("₹", content[rupees.end():].strip()) if rupees else ("", content)


def counts_things(header: str) -> bool:
    """Whether a column header states its figures as counts of things: "(number)", or a scale and a noun with no
    currency ("Volume (crore transactions)"); not "(₹ lakh crore)", "(%)" or "(crore)"."""
    m = unit_parenthesis(header)
    if m is None or m.group(1).strip().startswith("%"):
        return False
    unit = label_unit(header)
    if unit is None:
        return True  # "(number)", "(nos.)"
    symbol, words = unit
    return not symbol and any(w.lower() not in vocab.CANONICAL for w in re.findall(r"[A-Za-z]+", words))


def own_unit_first(text: str) -> bool:
    """Whether ``text`` opens with a unit or count word or symbol ("crore transactions", "₹ lakh crore", "%"), as a
    parenthesis stating a row's unit does ("as-converted basis" does not)."""
    return bool(_OWN_UNIT.match(text.strip()))


def label_states_unit(before: str) -> bool:
    """True when the row label right before a run of cells states its own unit: it ends with ``%`` or with a
    parenthesis naming a unit or count ("(number)", "(₹ lakh crore)", "(crore)"; "(loss)" names none), a colon
    after it allowed (a rendered row's column key: "Change (%): 13.2")."""
    before = before.rstrip().rstrip(":").rstrip()
    if before.endswith("%") or before.endswith("(%)"):
        return True
    m = re.search(r"\(([^()]*)\)$", before)
    return bool(m and _OWN_UNIT.search(m.group(1)))


def _day_of_date(tokens: Sequence[str], j: int) -> bool:
    """Whether ``tokens[j]`` is the day of a day-first date ("31" in "year ended 31 March 2025"): no figure."""
    following = re.match(r"[A-Za-z]+", tokens[j + 1]) if j + 1 < len(tokens) else None
    return bool(re.fullmatch(r"\d{1,2}", tokens[j]) and following and following.group().lower() in months.NUMBER)


def _cell_runs(tokens: list[str]) -> list[tuple[int, int]]:
    """Maximal runs ``[i, j)`` of table cells among whitespace tokens (a lone "$" / "₹" joins the cell after it)."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens):
            if _CURRENCY_ONLY.fullmatch(tokens[j]) and j + 1 < len(tokens) and _CELL.fullmatch(tokens[j + 1]):
                j += 2
            elif _CELL.fullmatch(tokens[j]) and not _YEAR.fullmatch(tokens[j]) and not _day_of_date(tokens, j):
                j += 1
            else:
                break
        if j > i:
            runs.append((i, j))
            i = j
        else:
            i += 1
    return runs


def _footnote_mark(tokens: Sequence[str], i: int, j: int) -> bool:
    """Whether the first cell of the run ``tokens[i:j]`` is a footnote's marker, not a figure: a one-digit number in
    parentheses right after the row label's last word, with two figures or more after it ("Global streaming
    memberships (1) 74,762 57,391 …"; a loss would be written with its magnitude: "(1,234)", "(12)"); or a note
    reference of one or two digits before two or more figures that all have decimals or groups ("Interest income
    22 4,812.36 3,905.14")."""
    if j - i >= 3 and i > 0 and re.fullmatch(r"\d{1,2}", tokens[i]) and all(
            re.search(r"\d[.,]\d", t) for t in tokens[i + 1:j]):
        return True  # a statement's "Note" column: "Interest income 22 4,812.36 3,905.14"
    return (j - i >= 3 and i > 0 and re.fullmatch(r"\([1-9]\)", tokens[i]) is not None
            and re.search(r"[A-Za-z]$", tokens[i - 1]) is not None)


def _cell_with_unit(cell: str, block: Block) -> str:
    """One cell ("$ 5,213", "1,102", "(1,234)") written with the block's currency and unit ("$5,213 million")."""
    cell = cell.replace(" ", "")
    mark = _CURRENCY_ONLY.match(cell.lstrip("-−"))
    sign = "-" if cell[:1] in "-−" else ""
    number = cell.lstrip("-−")[mark.end():] if mark else cell.lstrip("-−")
    symbol = mark.group(0) if mark else currencies.SYMBOL.get(block.currency or "", "")
    return f"{sign}{symbol}{number} {_SPOKEN[block.unit or '']}"


def with_units(sentence: str, block: Block) -> str:
    """``sentence`` (quoted from ``block``) with the block's unit and currency stated after each bare table figure.

    A figure is a cell of a table row: a run of numbers (a year such as 2015 is not one) at the end of the sentence,
    before the next row's capitalised label, or of two or more cells. A row whose label states its own unit ("%",
    "(number)", "(₹ lakh crore)") and a number followed by a unit of its own ("₹2,146 crore", "3.5%", "₹125 per
    month") are left alone, as is a per-unit row ("Diluted earnings per share": :func:`per_unit_label`), every
    sentence of a block without a unit, the unit statement itself, a footnote's marker opening the sentence
    ("(2) Qdoba Evaluation consulting costs are …"), a note reference and the day of a date ("year ended 31 March
    2025").

    Returns:
        The sentence, e.g. "Net sales $5,213 million Operating income $1,102 million" for "Net sales $ 5,213
        Operating income 1,102" in a block stating "(In millions)" with "$" amounts.
    """
    if block.unit is None:
        return sentence
    statement = _statement(sentence)
    if statement is not None:  # only the rows after a unit statement quoted with them
        close = re.match(r"[^()]{0,60}\)", sentence[statement.end():])
        cut = statement.end() + (close.end() if close else 0)
        rest = with_units(sentence[cut:], block) if sentence[cut:].strip() else ""
        return (sentence[:cut] + " " + rest).strip() if rest else sentence
    tokens = sentence.split()
    out = list(tokens)
    runs = _cell_runs(tokens)
    for index in reversed(range(len(runs))):
        i, j = runs[index]
        after = " ".join(tokens[j:])
        if _FOLLOWING_UNIT.match(after):
            continue
        if j - i == 1 and i == 0 and re.fullmatch(r"\(\d{1,2}\)", tokens[0]):
            continue  # a footnote's marker opening the sentence ("(2) Qdoba Evaluation consulting costs …")
        if j - i == 1 or (j - i == 2 and _CURRENCY_ONLY.fullmatch(tokens[i])):
            if j < len(tokens) and not tokens[j][:1].isupper():
                continue  # one number inside prose: not a table cell
        label = " ".join(tokens[runs[index - 1][1] if index else 0 : i])  # the row's label: since the last cells
        if label_states_unit(label) or per_unit_label(label):
            continue
        cells: list[str] = []
        k = i
        if _footnote_mark(tokens, i, j):
            cells.append(tokens[i])  # a footnote's marker after the row's label: "Global streaming memberships (1)"
            k += 1
        while k < j:
            if _CURRENCY_ONLY.fullmatch(tokens[k]):
                cells.append(_cell_with_unit(tokens[k] + tokens[k + 1], block))
                k += 2
            else:
                cells.append(_cell_with_unit(tokens[k], block))
                k += 1
        out[i:j] = cells
    return " ".join(out)

"""The facts a briefing is built from, read from a document's profile and its stored chunk rows, each with its page.

* **identity**: entity, document type, period or date, reference, fiscal year end, currency and unit (the profile,
  cited at the pages its fields were read from);
* **key figures** (filings): revenue, operating income, net income, total assets and operating cash flow, each read
  from a table row of the document's table chunks (:class:`prism.types.ChunkTable`): the row's label, the cell under
  the most recent period column, the table's unit and currency, cited at the chunk's page;
* **circular facts** (every document that is not a filing or call), in :mod:`prism.answering.briefing.circulars`:
  what it applies to, when it takes effect (or the deadline it sets), a key limit and a penalty: the first sentence
  that says each, cited at its page; a circular with no sentence on whom it applies to is read for its addressee
  line ("To, All Member Banks");
* **sections**: the document's own headings, in :mod:`prism.answering.briefing.sections`.

Each fact may carry a question it answers (:attr:`Fact.question`), worded with the words of its passage.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from prism.answering.briefing.topics import short_entity
from prism.answering.units import printed_label
from prism.index.injection import mask_injections
from prism.index.statements import line_item_kinds, statement_kinds
from prism.retrieval.periods import find_periods, period_label
from prism.types import DOCUMENT_TYPE_LABELS, BriefingBullet, BulletCitation, DocumentProfile
from prism.vocabulary import statements
from prism.vocabulary.currencies import SYMBOL
from prism.vocabulary.units import SPOKEN

logger = logging.getLogger(__name__)

FILING_TYPES = frozenset({"10-K", "10-Q", "8-K", "annual_report"})
"""Document types whose briefing leads with key figures from the statements."""
NOT_CIRCULAR_TYPES = FILING_TYPES | {"earnings_call", "earnings_release"}
"""Document types never read for circular facts (applicability, effective date, limits, penalties)."""


@dataclass(frozen=True)
class Fact:
    """One fact for a briefing: its bullet (with citations) and the questions it answers (none, or one per figure
    of a key-figures bullet), asked in this order; ``question_pages``: the pages its questions are answered from
    when not the bullet's (a circular's subject line for the question on its rules), else ``None``."""

    bullet: BriefingBullet
    questions: tuple[str, ...] = ()
    question_pages: tuple[int, ...] | None = None


# --- the document's text with its pages ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DocumentText:
    """A document's text rebuilt from its chunk rows (overlap undone), and where each chunk's new text starts.

    Attributes:
        text: the text; chunks that do not touch are joined by a paragraph break.
        starts: offset in ``text`` where each piece starts, ascending.
        pieces: ``(page_start, chunk_id)`` of each piece.
    """

    text: str
    starts: tuple[int, ...]
    pieces: tuple[tuple[int | None, str], ...]

    def citation(self, offset: int) -> BulletCitation:
        """The page and chunk of the character at ``offset`` (``BulletCitation(None)`` for an empty text)."""
        if not self.starts:
            return BulletCitation(None)
        i = max(0, bisect.bisect_right(self.starts, offset) - 1)
        page, chunk_id = self.pieces[i]
        return BulletCitation(page, chunk_id)


def document_text(rows: Sequence[dict[str, Any]]) -> DocumentText:
    """Rebuild a document's text from its stored chunk rows (``text``, ``char_start``, ``char_end``, ``page_start``,
    ``chunk_id``), undoing the chunk overlap; gaps (none in practice) become paragraph breaks. Sentences addressed
    to an AI assistant are blanked out (:func:`prism.index.injection.mask_injections`, offsets kept), so no bullet,
    fact, heading, key term or suggested question, and nothing the briefing LLM is shown, comes from them."""
    ordered = sorted(rows, key=lambda r: (int(r.get("char_start", 0)), int(r.get("char_end", 0))))
    parts: list[str] = []
    starts: list[int] = []
    pieces: list[tuple[int | None, str]] = []
    length = end = 0
    for r in ordered:
        start, stop, text = int(r.get("char_start", 0)), int(r.get("char_end", 0)), str(r.get("text", ""))
        if stop <= end and parts:
            continue
        if start >= end or not parts:
            piece = ("\n\n" if parts else "") + text
        else:
            piece = text[end - start :]
        starts.append(length)
        pieces.append((r.get("page_start"), str(r.get("chunk_id", ""))))
        parts.append(piece)
        length += len(piece)
        end = max(end, stop)
    return DocumentText(mask_injections("".join(parts)), tuple(starts), tuple(pieces))


# --- identity -----------------------------------------------------------------------------------------------------
def identity_fact(profile: DocumentProfile | None) -> Fact | None:
    """"Netflix, Inc. — 10-K for FY2015 (fiscal year ending 2015-12-31); figures in USD thousands.", cited at the
    pages its fields were read from; ``None`` without an entity or a document type, and when it would say no more
    than "Document." (a profile of type ``other`` with nothing else read)."""
    if profile is None or not (profile.entity or profile.type):
        return None
    kind = DOCUMENT_TYPE_LABELS.get(profile.type or "", "document") if profile.type != "other" else "document"
    text = f"{profile.entity} — {kind}" if profile.entity else kind[:1].upper() + kind[1:]
    said = (profile.entity, profile.reference, profile.period, profile.date, profile.currency, profile.unit)
    if kind == "document" and not any(said):
        return None
    if profile.reference:
        text += f" {profile.reference}"
    if profile.period and profile.period != profile.date:
        text += f" for {profile.period}"
    if profile.date:
        text += f" dated {profile.date}"
    if profile.fiscal_year_end:
        text += f" (fiscal year ending {profile.fiscal_year_end})"
    if profile.currency or profile.unit:
        text += "; figures in " + " ".join(p for p in (profile.currency, profile.unit) if p)
    pages = sorted({s.page for s in profile.sources.values() if s.page is not None})
    cites = tuple(BulletCitation(p) for p in pages[:3])
    return Fact(BriefingBullet(text + ".", cites or (BulletCitation(None),), "identity"))


# --- key figures --------------------------------------------------------------------------------------------------
KEY_FIGURES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(statements.ITEMS[key].row)) for name, key in statements.KEY_FIGURES)
"""The key figures of a filing, in briefing order: a name and the pattern a row label matches (lower case); a view
over :data:`prism.vocabulary.statements.ITEMS` (:data:`prism.vocabulary.statements.KEY_FIGURES`)."""

_STATEMENT_RE = re.compile(statements.FIGURE_SOURCE_RE, re.IGNORECASE)
_YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")
_DURATION_PHRASE = re.compile(r"[\w-]+ (?:months|weeks) ended|quarter ended", re.IGNORECASE)
_VALUE_RE = re.compile(r"^\(?-?\$?\s*\d[\d,]*(?:\.\d+)?\)?$")


def _norm_label(label: str) -> str:
    label = re.sub(r"\.{2,}|[$:]|\(\d\)|\*+", " ", label.replace("’", "'"))
    return " ".join(label.lower().split()).strip(" ,")


def _latest_column(columns: Sequence[str], n_cells: int) -> int | None:
    """Index of the column with the latest year in its header (the first on ties), ``None`` when the headers do not
    line up with the cells or name no year."""
    if len(columns) != n_cells or not columns:
        return None
    years = [max((int(y) for y in _YEAR_RE.findall(h)), default=0) for h in columns]
    best = max(years)
    return years.index(best) if best else None


def money(cell: str, currency: str | None, unit: str | None) -> str:
    """A table cell as an analyst writes it: ``"(1,234)"`` in USD millions → ``"-$1,234 million"``."""
    value = cell.replace("$", "").strip()
    negative = value.startswith("(") or value.startswith("-")
    value = value.strip("()-").strip()
    symbol = SYMBOL.get(currency or "", "")
    text = f"{'-' if negative else ''}{symbol}{value}"
    return f"{text} {SPOKEN[unit]}" if unit in SPOKEN else text


@dataclass(frozen=True)
class _Figure:
    name: str
    label: str
    value: str
    period: str
    title: str | None
    citation: BulletCitation
    rank: tuple[int, int, int]


def _figures_in_row(row: dict[str, Any]) -> list[_Figure]:
    table = row.get("table") or {}
    columns = tuple(str(c) for c in table.get("columns") or ())
    title = " ".join(str(table.get("title") or "").split()) or None
    statement = int(bool(title and _STATEMENT_RE.search(title)))
    cite = BulletCitation(row.get("page_start"), str(row.get("chunk_id", "")))
    found = []
    for r in table.get("rows") or ():
        label = _norm_label(str(r.get("label", "")))
        name = next((n for n, pattern in KEY_FIGURES if pattern.match(label)), None)
        cells = [str(c) for c in r.get("cells") or ()]
        col = _latest_column(columns, len(cells))
        if name is None or col is None or not _VALUE_RE.match(cells[col].strip()):
            continue
        value = money(cells[col], table.get("currency"), table.get("unit"))
        period = " ".join(columns[col].split())
        rank = (statement, -int(cite.page or 0), -len(label))
        found.append(_Figure(name, printed_label(str(r["label"])), value, period, title, cite, rank))
    kinds = statement_kinds(title or "")
    if kinds and any((items := line_item_kinds(f.label)) and not items & kinds for f in found):
        # a summary table under a statement's heading ("Selected Financial Data" with balance-sheet rows): its
        # title is not the statement's, so it is neither named nor preferred
        return [replace(f, title=None, rank=(0, *f.rank[1:])) for f in found]
    return found


def _period_phrase(period: str, profile: DocumentProfile | None) -> str:
    """A column header as a period: the profile's fiscal period when the header names its year (``2015`` in a 10-K
    for FY2015 → ``FY2015``); a header with a duration named as the period it spans, quarter or half year, with
    the header ("Three Months Ended June 30, 2024" in a calendar-year 10-Q → ``"Q2 FY2024, three months ended
    June 30, 2024"``: a quarter is never named as its fiscal year); else the header itself."""
    if profile and profile.period and profile.period.startswith("FY") and profile.period[2:] in _YEAR_RE.findall(
            period) and len(_YEAR_RE.findall(period)) == 1:
        return profile.period
    mentions = find_periods(period)
    if len(mentions) == 1 and mentions[0].months and mentions[0].months < 12:
        label = period_label(mentions[0], profile.fiscal_year_end if profile else None)
        return f"{label}, {_DURATION_PHRASE.sub(lambda m: m.group().lower(), period, count=1)}"
    return period


def _asked_period(phrase: str) -> str:
    """The period of :func:`_period_phrase` as a question asks it: "the three months ended June 30, 2024" (a
    duration's header), else the phrase."""
    label, _, header = phrase.partition(", ")
    return f"the {header}" if header and _DURATION_PHRASE.match(header) and label[:1] in "QH9" else phrase


_STATEMENT_NAMES = statements.SPOKEN


def _statement_name(title: str | None, label: str) -> str:
    """`` in the <statement>`` for a figure read from a main statement ("Consolidated Statements of Operations" →
    " in the income statement"), ``""`` otherwise: a question that names its statement is answered from that
    statement's page (the statement-kind token, :mod:`prism.index.statements`), not from a page that repeats the
    figure (MD&A, selected financial data). A line item of another statement ("Total assets" in a table titled
    "Statement of Operations", a summary table) names none."""
    kinds = statement_kinds(title or "")
    kind = next((k for k in _STATEMENT_NAMES if k in kinds), None) if len(kinds) == 1 else None
    items = line_item_kinds(label)
    return f" in the {_STATEMENT_NAMES[kind]}" if kind and (not items or kind in items) else ""


def _in_sentence(label: str, profile: DocumentProfile | None) -> str:
    """A row label inside a question: lower case but for names ("Net income attributable to 3M" → "net income
    attributable to 3M", "NET INCOME ATTRIBUTABLE TO COSTCO" → "net income attributable to Costco"): a word of the
    document's entity takes the entity's spelling; in a label not all in capitals, a word with a digit or in
    capitals ("3M", "EPS") keeps its case."""
    names = {w.lower(): w for w in (profile.entity or "").split()} if profile else {}
    shouting = label.isupper()
    return " ".join(names.get(w.lower()) or (w if not shouting and re.search(r"\d|^[A-Z]{2,}\W*$", w) else w.lower())
                    for w in label.split())


def possessive(name: str) -> str:
    """``name``'s possessive: "Netflix's", "American Water Works'" (a name ending in s takes the apostrophe only,
    as the AP Stylebook has it)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def key_figures(rows: Sequence[dict[str, Any]], profile: DocumentProfile | None) -> list[Fact]:
    """The :data:`KEY_FIGURES` found, one fact per table they are read from ("Consolidated Statements of Operations
    (FY2015): Revenues $6,779,511 thousand; Net income $122,641 thousand."), each figure with its question. A
    figure is read from a statement's row first (a table titled "Consolidated Statements of Operations", "Balance
    Sheets" …), then from the earliest page, in the cell of the latest period column."""
    best: dict[str, _Figure] = {}
    for row in rows:
        if row.get("table"):
            for fig in _figures_in_row(row):
                if fig.name not in best or fig.rank > best[fig.name].rank:
                    best[fig.name] = fig
    who = short_entity(profile.entity) if profile and profile.entity else None
    groups: dict[tuple[str | None, str], list[_Figure]] = {}  # one point per statement, over its chunks
    for name, _pattern in KEY_FIGURES:
        if name in best:
            fig = best[name]
            groups.setdefault((fig.title, _period_phrase(fig.period, profile)), []).append(fig)
    facts = []
    for (title, period), figs in groups.items():
        values = "; ".join(f"{f.label} {f.value}" for f in figs)
        text = f"{title or 'Key figures'} ({period}): {values}."
        questions = tuple(f"What {_verb(f.label)} {possessive(who)} {_in_sentence(f.label, profile)} for "
                          f"{_asked_period(period)}"
                          f"{_statement_name(title, f.label)}?" for f in figs) if who else ()
        citations = tuple(dict.fromkeys(f.citation for f in figs))
        facts.append(Fact(BriefingBullet(text, citations, "figure"), questions))
    return facts


_POSTMODIFIER = re.compile(r"\s+(?:provided|used|from|of|attributable|per|in|for|to|before|after|net of)\b.*",
                           re.IGNORECASE)


def _verb(label: str) -> str:
    """"were" for a plural line item ("Revenues", "Total assets", "Net sales", "Earnings per share"), else "was"
    ("Net income", "Net loss", "Diluted EPS", "Net cash provided by operating activities", "Cost of sales"): the
    head noun is the last word before a post-modifier ("provided by …", "of …", "attributable to …")."""
    head = _POSTMODIFIER.sub("", label.lower()).split()
    last = head[-1] if head else ""
    return "were" if last.endswith("s") and not last.endswith(("ss", "us", "is")) and last != "eps" else "was"

"""An earnings release's headline figures: revenue, operating income, net income and diluted EPS, each with its
period and its change against the comparison period, and the guidance the release states; each cited at its chunk.

A figure is read from a row of the release's own tables (:class:`prism.types.ChunkTable`, as the ingestion stored
them): the row whose label is a headline figure's (:data:`prism.vocabulary.statements.HEADLINE_FIGURES`), the cell
under the latest period column and the cell under the comparison column (the latest earlier column of the same
duration: "Three Months Ended June 30, 2024" against "… 2025"). The change is the table's own change column when it
has one ("% Change", "Y/Y", "Growth"), else computed as ``(current − prior) / |prior| × 100`` and rounded to one
decimal. A statement's row (a table titled "Statements of Operations") is read first, then the earliest page.

The guidance is the first sentence of the release that states an expectation (:data:`~prism.vocabulary.statements.
GUIDANCE_CUE`: "expects", "outlook", "guidance") with a money amount or a per-share figure.

Each figure carries the question it answers, filled from a template ("What was {company's} {figure} for
{period}?"), so a suggested question is well-formed by construction and asks only for what the release holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from prism.answering.briefing.facts import DocumentText, Fact, _norm_label, _period_phrase, money, possessive
from prism.answering.briefing.rules import locate
from prism.answering.briefing.topics import short_entity
from prism.answering.programs.numbers import cell_number
from prism.index.sentences import split_sentences
from prism.types import BriefingBullet, BulletCitation, DocumentProfile
from prism.vocabulary import statements

RELEASE_TYPES = frozenset({"earnings_release"})
"""Document types whose briefing leads with headline figures."""

HEADLINE_FIGURES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern)) for name, pattern in statements.HEADLINE_FIGURES)
"""The headline figures in briefing order: the name and the pattern a normalised row label matches."""

_STATEMENT_RE = re.compile(statements.FIGURE_SOURCE_RE, re.IGNORECASE)
_YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")
_CHANGE_HEADER = re.compile(r"%\s*change|\bchange\b|\bgrowth\b|\by/?o/?y\b|\bvs\.?\b|\bvariance\b|%", re.IGNORECASE)
_PER_SHARE = re.compile(r"\beps\b|per\s+(?:common\s+)?share|\bdiluted\b", re.IGNORECASE)
_GUIDANCE_RE = re.compile(statements.GUIDANCE_CUE, re.IGNORECASE)
_GUIDANCE_FIGURE = re.compile(r"(?:[$₹€£]|\bRs\.?\s?|\bINR\s?|\bUSD\s?)\d")


@dataclass(frozen=True)
class Headline:
    """One headline figure of a release.

    Attributes:
        name: its headline name ("revenue", "diluted EPS").
        label: its row label as printed ("Revenue", "Diluted EPS").
        value: the latest period's value as written ("$1,284.6 million", "$0.61").
        period: the latest period ("Q2 FY2025").
        prior_value: the comparison period's value as written, or ``None`` without a comparison column.
        prior_period: the comparison period ("Q2 FY2024"), or ``None``.
        change: the change as a phrase ("up 12.4%", "down 0.7%", "unchanged"), or ``None``.
        citation: the chunk and page of its table row.
    """

    name: str
    label: str
    value: str
    period: str
    prior_value: str | None
    prior_period: str | None
    change: str | None
    citation: BulletCitation

    def sentence(self) -> str:
        """"Revenue (Q2 FY2025): $1,284.6 million, up 12.4% from $1,142.9 million in Q2 FY2024."."""
        text = f"{self.label} ({self.period}): {self.value}"
        if self.change and self.prior_value:
            text += f", {self.change} from {self.prior_value}"
        elif self.prior_value:
            text += f", against {self.prior_value}"
        if self.prior_value and self.prior_period:
            text += f" in {self.prior_period}"
        return text + "."


def _clean_header(header: str) -> str:
    """A period column's header without a change column's words the table reader merged into it ("Three Months
    Ended % Change June 30, 2025" → "Three Months Ended June 30, 2025")."""
    return " ".join(re.sub(r"%\s*change\b|\bchange\b", " ", header, flags=re.IGNORECASE).split())


def _columns(columns: Sequence[str]) -> tuple[int | None, int | None, int | None]:
    """``(latest, comparison, change)`` column indices of a table's headers (``None`` when absent): the latest is
    the first with the latest year; the comparison the first with the latest earlier year whose header, years
    removed, reads as the latest's (the same duration), else the first with the latest earlier year; the change
    column the first that names no year and reads as a change ("% Change")."""
    years = [max((int(y) for y in _YEAR_RE.findall(h)), default=0) for h in columns]
    if not any(years):
        return None, None, None
    latest = years.index(max(years))
    earlier = [y for y in years if 0 < y < years[latest]]
    comparison = None
    if earlier:
        shape = _YEAR_RE.sub("", _clean_header(columns[latest])).strip()
        same = [i for i, y in enumerate(years) if y == max(earlier)
                and _YEAR_RE.sub("", _clean_header(columns[i])).strip() == shape]
        comparison = same[0] if same else years.index(max(earlier))
    change = next((i for i, h in enumerate(columns) if not years[i] and _CHANGE_HEADER.search(h)), None)
    return latest, comparison, change


def _change_phrase(cell: str | None, current: Decimal | None, prior: Decimal | None) -> str | None:
    """"up 12.4%" / "down 0.7%" / "unchanged": from the change column's cell when it states a number, else computed
    from the two values (``None`` when the prior value is zero or missing)."""
    pct = cell_number(cell) if cell else None
    if pct is None and current is not None and prior:
        pct = round((current - prior) / abs(prior) * 100, 1)
    if pct is None:
        return None
    if pct == 0:
        return "unchanged"
    return f"{'up' if pct > 0 else 'down'} {abs(pct):.1f}%"


def _written(cell: str, name: str, currency: str | None, unit: str | None) -> str:
    """A cell as an analyst writes it: an amount with its currency and unit, a per-share figure with its currency
    only ("$0.61")."""
    return money(cell, currency, None if _PER_SHARE.search(name) else unit)


@dataclass(frozen=True)
class _Found:
    headline: Headline
    rank: tuple[int, int]


def _row_headlines(row: dict[str, Any], profile: DocumentProfile | None) -> list[_Found]:
    """The headline figures of one table chunk row's table rows."""
    table = row.get("table") or {}
    columns = [str(c) for c in table.get("columns") or ()]
    latest, comparison, change = _columns(columns)
    if latest is None:
        return []
    title = " ".join(str(table.get("title") or "").split())
    currency = table.get("currency") or (profile.currency if profile else None)
    unit = table.get("unit") or (profile.unit if profile else None)
    cite = BulletCitation(row.get("page_start"), str(row.get("chunk_id", "")))
    rank = (int(bool(title and _STATEMENT_RE.search(title))), -int(cite.page or 0))
    out = []
    for r in table.get("rows") or ():
        label = _norm_label(str(r.get("label", "")))
        name = next((n for n, pattern in HEADLINE_FIGURES if pattern.match(label)), None)
        cells = [str(c) for c in r.get("cells") or ()]
        if name is None or len(cells) != len(columns) or cell_number(cells[latest]) is None:
            continue
        prior_cell = cells[comparison] if comparison is not None else None
        prior = cell_number(prior_cell) if prior_cell else None
        period = _period_phrase(_clean_header(columns[latest]), profile).split(", ")[0]
        prior_period = (_period_phrase(_clean_header(columns[comparison]), profile).split(", ")[0]
                        if comparison is not None and prior is not None else None)
        printed = " ".join(str(r.get("label", "")).split()).strip(" :$")
        headline = Headline(
            name, printed if name != "diluted EPS" or "eps" in label or "per" in label else "Diluted EPS",
            _written(cells[latest], label, currency, unit), period,
            _written(prior_cell, label, currency, unit) if prior_cell and prior is not None else None,
            prior_period, _change_phrase(cells[change] if change is not None else None, cell_number(cells[latest]),
                                         prior), cite)
        out.append(_Found(headline, rank))
    return out


def release_headlines(rows: Sequence[dict[str, Any]], profile: DocumentProfile | None) -> list[Headline]:
    """The release's headline figures in :data:`HEADLINE_FIGURES` order, each read once (a statement's row first,
    then the earliest page); ``[]`` for a document that is no earnings release (:data:`RELEASE_TYPES`)."""
    if profile is None or profile.type not in RELEASE_TYPES:
        return []
    best: dict[str, _Found] = {}
    for row in rows:
        if row.get("table"):
            for found in _row_headlines(row, profile):
                name = found.headline.name
                if name not in best or found.rank > best[name].rank:
                    best[name] = found
    return [best[name].headline for name, _p in HEADLINE_FIGURES if name in best]


def _without_heading(flat: str, raw: str) -> str:
    """``flat`` (a sentence, white space joined) without the section heading a sentence splitter glued onto it
    ("Business Outlook For the third quarter …" → "For the third quarter …"): ``raw`` is the document's text from
    where the sentence starts; its first line is a heading when it has at most 6 words, no closing stop and the
    next line opens with a capital."""
    first, _, rest = raw.partition("\n")
    head = " ".join(first.split())
    if head and len(head.split()) <= 6 and not re.search(r"[.!?:;,]$", head) and re.match(r"\s*[A-Z]", rest) \
            and flat.startswith(head + " "):
        return flat[len(head) + 1:]
    return flat


def guidance_fact(doc: DocumentText, profile: DocumentProfile | None) -> Fact | None:
    """The release's first sentence that states guidance with an amount (module docstring), as a bullet of kind
    ``guidance`` cited at its page; ``None`` when the release states none or is no earnings release."""
    if profile is None or profile.type not in RELEASE_TYPES:
        return None
    cursor = 0
    for sentence in split_sentences(doc.text):
        flat = " ".join(sentence.split())
        at = locate(doc.text, flat, cursor)
        cursor = at if at >= 0 else cursor
        flat = _without_heading(flat, doc.text[cursor:cursor + 200]) if at >= 0 else flat
        if _GUIDANCE_RE.search(flat) and _GUIDANCE_FIGURE.search(flat) and len(flat) <= 400 \
                and not re.search(r"forward-looking", flat, re.IGNORECASE):
            return Fact(BriefingBullet(flat, (doc.citation(cursor),), "guidance"))
    return None


_GUIDANCE_QUESTION = "What is {company} {figure}guidance?"
_GUIDED = re.compile(r"\b(revenue|diluted EPS|EPS|operating income|net income|operating margin|gross margin)\b",
                     re.IGNORECASE)
"""A figure a guidance sentence names, the first one filling the guidance question ("revenue guidance")."""


def headline_facts(rows: Sequence[dict[str, Any]], doc: DocumentText, profile: DocumentProfile | None) -> list[Fact]:
    """An earnings release's headline facts: one bullet per headline figure (kind ``headline``: :meth:`Headline.
    sentence`), then its guidance; each figure with its question, filled from the template "What was {company's}
    {figure} for {period}?" ("What was Northwind Devices' diluted EPS for Q2 FY2025?"), the guidance with "What is
    {company's} {figure} guidance?" (the first figure it names: "What is Northwind Devices' revenue guidance?");
    ``[]`` for other documents."""
    headlines = release_headlines(rows, profile)
    company = short_entity(profile.entity) if profile and profile.entity else None
    facts = []
    for h in headlines:
        figure = h.name if h.name == "diluted EPS" else h.name.lower()
        question = (f"What was {possessive(company)} {figure} for {h.period}?",) if company else ()
        facts.append(Fact(BriefingBullet(h.sentence(), (h.citation,), "headline"), question))
    guidance = guidance_fact(doc, profile)
    if guidance is not None:
        named = _GUIDED.search(guidance.bullet.text)
        figure = "" if named is None else f"{named.group(1) if 'EPS' in named.group(1) else named.group(1).lower()} "
        question = (_GUIDANCE_QUESTION.format(company=possessive(company), figure=figure),) if company else ()
        facts.append(Fact(guidance.bullet, question))
    return facts

"""Recognising a statement metric in a question: its formula over line items, the periods, the rounding. Part of
the question reader (:attr:`prism.types.reading.Reading.plans`).

:func:`plan_of` reads a question into a :class:`~prism.answering.metrics.calc.Plan`, in this order:

1. **A definition the question gives in words**: "X is defined as: A / B", "Define X as A + B", "X = A / B";
   the expression is parsed (:func:`parse_expression`: ``+ - * /``, "divided by", "plus", "minus", parentheses,
   "average <item> between FY2018 and FY2019") into line items of :data:`~prism.index.statements.ITEMS`, each
   operand with the period it names ("(FY2019 COGS)") or the period computed.
2. **A standard definition** (:data:`METRICS`, each with its source): margins, EBITDA, the operating cash flow
   ratio, inventory turnover, current ratio, return on assets, and a change in basis points; averaged over several
   years, "<item> as a % of <item>" and "ratio of A to B" (of one period they are programs:
   :mod:`prism.answering.programs`, as are growth, a change and CAGR of one row).

Periods are the fiscal years the question names (a range "FY2018 - FY2020" is filled in by
:func:`prism.retrieval.periods.find_periods`); "3-year average" / "average" over several years averages the
per-year values. Rounding: "round to two decimal places", "one decimal place"; "in units of percents" and "% margin"
show a percent; "in USD millions" an amount in millions. A question with no metric gives ``None`` (the figure
lookup answers it).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace

from prism.answering.metrics.calc import Expr, Mean, Op, Plan, Ref, shifted
from prism.index.statements import ITEMS
from prism.retrieval.periods import find_periods, period_label
from prism.types import PeriodMention

logger = logging.getLogger(__name__)

__all__ = ["METRICS", "parse_expression", "plan_of"]


def _r(item: str, offset: int = 0) -> Ref:
    return Ref(item, offset)


def _ebitda() -> Expr:
    return Op("+", _r("operating_income"), _r("da"))


_INVESTOPEDIA = "Investopedia, Financial Ratios (https://www.investopedia.com/financial-ratios-4689817)"
METRICS: tuple[tuple[str, str, Expr, str, str], ...] = (
    # (pattern, name, formula, result kind, source)
    (r"ebitda\s*%?\s*margin", "EBITDA margin", Op("/", _ebitda(), _r("revenue")), "percent",
     "EBITDA = operating income + depreciation and amortization (unadjusted), over revenue; " + _INVESTOPEDIA),
    (r"\bebitda\b", "EBITDA", _ebitda(), "amount",
     "operating income + depreciation and amortization; " + _INVESTOPEDIA),
    (r"operating cash flow ratio", "operating cash flow ratio", Op("/", _r("cfo"), _r("current_liabilities")),
     "ratio", "cash from operations / current liabilities; " + _INVESTOPEDIA),
    (r"inventory turnover", "inventory turnover", Op("/", _r("cogs"), Mean((_r("inventory", -1), _r("inventory")))),
     "ratio", "COGS / average inventory of the year's opening and closing balance; " + _INVESTOPEDIA),
    (r"gross (?:profit )?margin", "gross margin", Op("/", Op("-", _r("revenue"), _r("cogs")), _r("revenue")),
     "percent", "(revenue - COGS) / revenue; " + _INVESTOPEDIA),
    (r"operating (?:profit )?margin", "operating margin", Op("/", _r("operating_income"), _r("revenue")), "percent",
     "operating income / revenue; " + _INVESTOPEDIA),
    (r"net (?:profit |income )?margin", "net margin", Op("/", _r("net_income"), _r("revenue")), "percent",
     "net income / revenue; " + _INVESTOPEDIA),
    (r"current ratio", "current ratio", Op("/", _r("current_assets"), _r("current_liabilities")), "ratio",
     "current assets / current liabilities; " + _INVESTOPEDIA),
    (r"return on (?:total )?assets|\broa\b", "return on assets", Op("/", _r("net_income"), _r("total_assets")),
     "percent", "net income / total assets; " + _INVESTOPEDIA),
)
"""Standard definitions, most specific first: ``(pattern, name, formula, result kind, source)``."""

_OPERATORS = re.compile(r"\s+(?:divided by|over)\s+|\s*/\s*|\s+\+\s+|\s+plus\s+|\s+-\s+|\s+minus\s+|\s+[x×*]\s+|"
                        r"\s+times\s+|[()]")
_OP_WORDS = {"divided by": "/", "over": "/", "/": "/", "+": "+", "plus": "+", "-": "-", "minus": "-", "x": "*",
             "×": "*", "*": "*", "times": "*"}


def _find_item(text: str) -> str | None:
    """The line item a phrase names (the longest matching phrase of :data:`~prism.index.statements.ITEMS`), or
    ``None``."""
    best: tuple[int, str] | None = None
    for key, item in ITEMS.items():
        for word in item.words:
            m = re.search(rf"\b{word}\b", text)
            if m and (best is None or len(m.group(0)) > best[0]):
                best = (len(m.group(0)), key)
    return best[1] if best else None


def _operand(text: str, fye: str | None) -> Expr | None:
    """One operand: a line item with the period it names; "average X between FY2018 and FY2019" → the mean."""
    item = _find_item(text)
    if item is None:
        return None
    periods = [period_label(m, fye) for m in find_periods(text) if m.kind in ("FY", "year")]
    if re.search(r"\baverage\b", text):
        if len(periods) >= 2:
            return Mean(tuple(Ref(item, period=p) for p in periods))
        return Mean((Ref(item, -1), Ref(item)))
    return Ref(item, period=periods[0]) if periods else Ref(item)


def _tokens(expr: str) -> list[str]:
    """The expression cut into operand texts, operators and parentheses (operators normalised to ``+-*/``)."""
    out: list[str] = []
    pos = 0
    for m in _OPERATORS.finditer(expr):
        if expr[pos:m.start()].strip():
            out.append(expr[pos:m.start()].strip())
        sign = m.group(0).strip()
        out.append(sign if sign in "()" else _OP_WORDS.get(sign, sign))
        pos = m.end()
    if expr[pos:].strip():
        out.append(expr[pos:].strip())
    return out


def parse_expression(expr: str, fiscal_year_end: str | None = None) -> Expr | None:
    """A formula in words → an expression over :data:`~prism.index.statements.ITEMS`
    (``+ -`` below ``* /``, left to right, parentheses).

    ``None`` when an operand names no known line item or the expression does not parse (then the standard
    definitions are tried).
    """
    tokens = _tokens(expr.lower())
    pos = 0

    def atom() -> Expr | None:
        nonlocal pos
        if pos < len(tokens) and tokens[pos] == "(":
            pos += 1
            inner = sum_()
            if pos < len(tokens) and tokens[pos] == ")":
                pos += 1
            return inner
        if pos < len(tokens) and tokens[pos] not in "+-*/)":
            pos += 1
            return _operand(tokens[pos - 1], fiscal_year_end)
        return None

    def chain(lower: object, ops: str) -> Expr | None:
        nonlocal pos
        left = lower()  # type: ignore[operator]
        while left is not None and pos < len(tokens) and tokens[pos] in ops:
            op = tokens[pos]
            pos += 1
            right = lower()  # type: ignore[operator]
            left = Op(op, left, right) if right is not None else None  # type: ignore[arg-type]
        return left

    def product() -> Expr | None:
        return chain(atom, "*/")

    def sum_() -> Expr | None:
        return chain(product, "+-")

    found = sum_()
    return found if found is not None and pos == len(tokens) and isinstance(found, Op | Mean) else None


_DEFINED = (
    re.compile(r"(?P<name>[a-z][\w &%'-]{2,60}?)\s+(?:is|are)\s+defined\s+as:?\s*(?P<expr>[^.?;]+)"),
    re.compile(r"\bdefine\s+(?P<name>[a-z][\w &%'-]{2,60}?)\s+as:?\s*(?P<expr>[^.?;]+)"),
    re.compile(r"(?P<name>[a-z][\w &%'-]{2,40}?)\s+=\s+(?P<expr>[^.?;=]+)"),
)


def _defined(q: str, fye: str | None) -> tuple[str, Expr] | None:
    """A definition in the question's words: ``(metric name, expression)`` or ``None``."""
    for pattern in _DEFINED:
        for m in pattern.finditer(q):
            expr = parse_expression(m.group("expr"), fye)
            if expr is not None:
                name = re.sub(r"^(?:the|an?|fy\d{4})\s+", "", m.group("name").strip())
                return name, expr
    return None


_SHARES = (
    re.compile(r"(?P<a>[a-z&,' -]{3,60})\s+(?:as an? (?:%|percent(?:age)?|share) of|(?:%|percent) of)\s+"
               r"(?:total\s+)?(?P<b>[a-z&,' -]{3,40})"),
    re.compile(r"ratio of\s+(?P<a>[a-z&,' -]{3,60}?)\s+to\s+(?P<b>[a-z&,' -]{3,40})"),
    re.compile(r"(?P<a>[a-z&,' -]{3,60})\s+to\s+(?P<b>[a-z&,' -]{3,40}?)\s+ratio\b"),
)


def _share_of(q: str) -> tuple[str, Expr, str] | None:
    """ "<A> as a % of <B>" → ``(name, A / B, "percent")``; "ratio of A to B", "A to B ratio" → a ratio."""
    for k, pattern in enumerate(_SHARES):
        m = pattern.search(q)
        if m is None:
            continue
        a, b = _find_item(m.group("a")[-40:]), _find_item(m.group("b")[:40])
        if a is not None and b is not None and a != b:
            if k == 0:
                return f"{ITEMS[a].name} as a % of {ITEMS[b].name}", Op("/", Ref(a), Ref(b)), "percent"
            return f"ratio of {ITEMS[a].name} to {ITEMS[b].name}", Op("/", Ref(a), Ref(b)), "ratio"
    return None


def _decimals(q: str) -> int | None:
    words = {"zero": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "1": 1, "2": 2, "3": 3, "4": 4, "0": 0}
    m = re.search(r"round(?:ed)?(?: (?:your|the))?(?: answer| result)? to (?:the nearest )?(\w+) decimal", q)
    return words.get(m.group(1)) if m else None


def _kind(q: str, default: str) -> str:
    if re.search(r"basis points|\bbps\b", q):
        return "bps"
    if re.search(r"in (?:units of )?percents?\b|%|\bpercent(?:age)?\b|\bmargin\b|\bgrowth\b|\bcagr\b", q) \
            and default != "amount":
        return "percent"
    return default


def _periods(mentions: Sequence[PeriodMention], fye: str | None) -> list[str]:
    labels = [period_label(m, fye) for m in mentions if m.kind in ("FY", "year")]
    return sorted(dict.fromkeys(labels), key=lambda p: int(p[2:]) if p[2:].isdigit() else 0)


def _metric(q: str, fye: str | None, averaged: bool) -> tuple[str, Expr, str, str] | None:
    """``(name, formula, kind, source)`` from a definition in the question, a standard metric or, averaged over
    several years, a share ("3-year average of capex as a % of revenue"; a share of one period is a program's:
    :mod:`prism.answering.programs.operations.share`).

    A definition the question gives wins over the standard one for the same metric; a definition of a part of
    a margin ("Define unadjusted EBITDA as …" in a question asking for the EBITDA % margin) becomes the numerator
    of that margin over revenue.
    """
    defined = _defined(q, fye)
    for pattern, name, expr, kind, source in METRICS:
        if not re.search(pattern, q):
            continue
        if defined is None:
            return name, expr, kind, source
        if re.search(pattern, defined[0]):
            return defined[0], defined[1], kind, "the question"
        if "margin" in name and re.search(r"margin", q):
            return (f"{defined[0]} margin", Op("/", defined[1], Ref("revenue")), "percent",
                    "the question's definition, over revenue")
        return defined[0], defined[1], kind, "the question"
    if defined is not None:
        return defined[0], defined[1], "ratio", "the question"
    share = _share_of(q) if averaged else None
    if share is not None:
        return share[0], share[1], share[2], "the question (A as a share of B)"
    return None


_WHY = re.compile(r"^(?:why|how (?:did|does|has)|what (?:drove|drives|caused|explains))\b|\bwhat drove\b")
"""Questions that ask for reasons, not a figure ("What drove operating margin change…")."""


def _change(expr: Expr) -> Expr:
    """``expr`` now minus ``expr`` a year before (a change in a ratio, for basis points)."""
    return Op("-", expr, shifted(expr, -1))


def plan_of(text: str, periods: Sequence[PeriodMention], fiscal_year_end: str | None = None) -> Plan | None:
    """The statement metric a question asks for, or ``None`` when it asks for none.

    Args:
        text: the (normalised) question.
        periods: its periods (:func:`prism.retrieval.periods.find_periods`).
        fiscal_year_end: the scoped document's fiscal year end (ISO date) for naming periods, or ``None``.

    Returns:
        A :class:`~prism.answering.metrics.calc.Plan` with periods oldest first (the most recent year asked when the
        question names one period; ``()`` when it names none: the caller picks the document's latest year).
    """
    return _plan(text, periods, fiscal_year_end)


def _plan(text: str, mentions: Sequence[PeriodMention], fiscal_year_end: str | None) -> Plan | None:
    q = " ".join(text.lower().split())
    if _WHY.search(q):
        return None
    periods = _periods(mentions, fiscal_year_end)
    averaged = len(periods) > 1 and re.search(r"\baverage\b|\bmean\b", q.replace("average inventory", ""))
    metric = _metric(q, fiscal_year_end, bool(averaged))
    if metric is None:
        return None
    name, expr, kind, source = metric
    how = "average" if averaged else "single"
    if how == "single":
        periods = periods[-1:]
    kind = _kind(q, kind)
    if kind == "bps" and how == "single":
        expr, name = _change(expr), f"change in {name}"
    decimals = _decimals(q)
    unit = "millions" if re.search(r"(?:usd|\$|in)\s*millions", q) else "billions" if "in billions" in q else None
    if how == "average":
        name = f"{len(periods)}-year average {name}"
    plan = Plan(name, expr, tuple(periods), how, kind, 0, unit, source)  # type: ignore[arg-type]
    default = {"percent": 1, "ratio": 2, "amount": 0, "bps": 0}[kind]
    return replace(plan, decimals=default if decimals is None else decimals)

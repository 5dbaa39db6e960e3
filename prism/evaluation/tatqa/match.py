"""Does a line of text state a TAT-QA gold answer? The matcher behind the ``tatqa_first_line`` metric.

TAT-QA (Zhu et al., "TAT-QA: A Question Answering Benchmark on a Hybrid of Tabular and Textual Content in
Finance", ACL 2021, https://aclanthology.org/2021.acl-long.254) scores exact match after the normalisation of its
evaluation script (``tatqa_metric.py`` / ``tatqa_utils.py`` in https://github.com/NExTplusplus/TAT-QA):

- text is lower-cased, punctuation and the articles a / an / the dropped, white space collapsed, and a token that
  is a number is compared as a number (``$1,452.4`` and ``1452.4`` are one number);
- a number carries a scale: the question's ``scale`` field (``thousand``, ``million``, ``billion``, ``percent``) or
  the scale word or ``%`` written beside it;
- a multi-span answer is compared as a set of spans, in any order;
- arithmetic and count answers are numbers; the script rounds predictions to the gold's stated decimals.

Prism's answer is a sentence, not a bare span, so the rules are applied to a line of the answer:

- **text span**: the gold's normalised tokens appear, contiguous and in order, among the line's tokens;
- **number** (arithmetic, count, or a span that is a number such as ``$1,496.5`` or ``2019``): some number the line
  states, brought to the gold's scale (``1.2 million`` against a gold in thousands is 1,200; a line's bare number is
  taken in the gold's scale, as a table cell under "in millions" is), rounds half-up at the gold's precision (its
  decimals as written) to the gold. The sign must agree (``-12.6``, ``−12.6`` and ``(12.6)`` are negative), as in
  the official script. A percent gold needs a bare number or a percent; an amount gold is never matched by a
  percent. Count golds also match a number word ("three");
- **multi-span**: every gold span matches by the rules above (extra items on the line are not penalised).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

SCALES: dict[str, int] = {"thousand": 10**3, "million": 10**6, "billion": 10**9}
"""TAT-QA's scale words and their multipliers (``percent`` is a unit of its own)."""

_SCALE_WORDS = {"thousand": "thousand", "thousands": "thousand", "million": "million", "millions": "million",
                "mn": "million", "billion": "billion", "billions": "billion", "bn": "billion"}
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER = re.compile(
    r"(?P<neg>[-−–]\s?|\(\s?)?[$€£¥₹]?\s?(?P<num>\d[\d,]*(?:\.\d+)?|\.\d+)(?P<close>\s?\))?"
    r"(?:\s?(?P<pct>%|per\s?cent\b)|\s(?P<scale>thousands?|millions?|billions?|mn|bn)\b)?",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")
_ARTICLES = frozenset({"a", "an", "the"})


@dataclass(frozen=True)
class Stated:
    """A number stated in a line: ``value`` as written (sign applied), ``unit`` ``percent`` / a scale word / None."""

    value: Decimal
    unit: str | None


@dataclass(frozen=True)
class GoldItem:
    """One gold span or number: ``text`` as given; for a number ``value``, ``unit`` and ``decimals`` (precision)."""

    text: str
    value: Decimal | None = None
    unit: str | None = None
    decimals: int = 0


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", str(text)).replace("’", "'").replace("‘", "'")
    return re.sub(r"\[[Ww]?\d{1,3}(?:\s*[,;–-]\s*[Ww]?\d{1,3})*\]", " ", text)


def stated_numbers(text: str) -> list[Stated]:
    """Every number in ``text`` with its sign and unit, in order; years and cell values alike.

    ``(12.6)`` and ``-12.6`` are negative; ``12.5%`` and ``12.5 percent`` are percent; ``1.2 million`` carries the
    scale word; thousands separators are dropped.
    """
    out = []
    for m in _NUMBER.finditer(_clean(text)):
        raw = m.group("num").replace(",", "")
        try:
            value = Decimal(raw)
        except InvalidOperation:
            continue
        neg = m.group("neg") or ""
        if neg.startswith("(") and not m.group("close"):
            neg = ""
        if neg and not neg.startswith("(") and m.start() > 0 and _clean(text)[m.start() - 1].isalnum():
            neg = ""  # "2018-2019" is a range, not a negative 2019
        unit = "percent" if m.group("pct") else _SCALE_WORDS.get((m.group("scale") or "").lower())
        out.append(Stated(-value if neg else value, unit))
    return out


def normalized_tokens(text: str) -> list[str]:
    """Tokens under TAT-QA's normalisation: lower case, no punctuation or articles, numbers without separators or
    currency signs (``$1,452.4`` → ``1452.4``)."""
    text = re.sub(r"(?<=\d),(?=\d)", "", _clean(text).lower())
    return [t for t in _TOKEN.findall(text) if t not in _ARTICLES]


def _decimals(raw: str) -> int:
    raw = raw.strip()
    return len(raw.split(".", 1)[1]) if "." in raw else 0


def gold_items(answer: object, scale: str = "") -> list[GoldItem]:
    """A TAT-QA ``answer`` (a list of spans, a number, or a count string) as :class:`GoldItem` s.

    A span that is one number (``"$1,496.5"``, ``"(12.6)"``, ``"33.3%"``) becomes a number; its unit is the ``%``
    written in it, else ``scale`` (``""`` for none). A number with its scale word (``"$24.9 million"``,
    ``"$(9.8) million"``) is that number in that scale, as TAT-QA's script reads a span's number and scale.
    """
    spans = list(answer) if isinstance(answer, list | tuple) else [answer]
    items = []
    for span in spans:
        text = format(Decimal(repr(span)), "f") if isinstance(span, float) else str(span).strip()
        numbers = stated_numbers(text)
        rest = re.sub(r"[\d.,$€£¥₹%()\s−–-]", "", text.lower()).replace("percent", "")
        if len(numbers) == 1 and numbers[0].unit in SCALES and rest == re.sub(r"\s", "", (_NUMBER.search(
                _clean(text)).group("scale") or "").lower()):  # type: ignore[union-attr]
            raw = _NUMBER.search(_clean(text)).group("num").replace(",", "")  # type: ignore[union-attr]
            items.append(GoldItem(text, numbers[0].value, numbers[0].unit, _decimals(raw)))  # "$24.9 million"
        elif len(numbers) == 1 and not rest:
            n = numbers[0]
            raw = _NUMBER.search(_clean(text)).group("num").replace(",", "")  # type: ignore[union-attr]
            items.append(GoldItem(text, n.value, n.unit or (scale or None), _decimals(raw)))
        else:
            items.append(GoldItem(text))
    return items


def _in_gold_scale(n: Stated, unit: str | None) -> Decimal | None:
    """``n``'s value in the gold's unit, or None when the units cannot agree (a percent against an amount)."""
    if n.unit is None:
        return n.value
    if unit == "percent" or n.unit == "percent":
        return n.value if n.unit == unit else None
    return n.value * SCALES[n.unit] / SCALES.get(unit or "", 1)


def number_matches(item: GoldItem, stated: Sequence[Stated], words: Sequence[str] = ()) -> bool:
    """True when a stated number, in the gold's scale, rounds half-up at the gold's decimals to the gold value
    (count golds also match a number word among ``words``)."""
    if item.value is None:
        return False
    quantum = Decimal(1).scaleb(-item.decimals)
    for n in stated:
        value = _in_gold_scale(n, item.unit)
        if value is not None and value.quantize(quantum, rounding=ROUND_HALF_UP) == item.value:
            return True
    return item.decimals == 0 and any(_NUMBER_WORDS.get(w) == int(item.value) for w in words)


def span_matches(item: GoldItem, tokens: Sequence[str]) -> bool:
    """True when the gold span's normalised tokens occur contiguously, in order, in ``tokens``."""
    gold = normalized_tokens(item.text)
    if not gold:
        return False
    n = len(gold)
    return any(list(tokens[i:i + n]) == gold for i in range(len(tokens) - n + 1))


def line_matches(line: str, answer: object, scale: str = "") -> bool:
    """True when ``line`` states the gold ``answer`` (with its ``scale``) by the module's rules; every item of a
    multi-span answer must match. An empty line or an empty gold never matches."""
    items = gold_items(answer, scale)
    if not line.strip() or not items:
        return False
    stated, tokens = stated_numbers(line), normalized_tokens(line)
    return all(number_matches(i, stated, tokens) if i.value is not None else span_matches(i, tokens) for i in items)

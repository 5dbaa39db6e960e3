"""What kind of answer a question wants, read from its wording: the reader's rule-based readings.

These readings propose; the reader's model (:mod:`prism.answering.reading.model`) weighs them with the meaning of
the question against each operation's phrasings and decides. They read the normalised question
(:func:`prism.answering.reading.words.normalise`) and nothing else reads its text after them.

* :func:`asks_reason` — a cause ("Why did revenue fall?", "What drove the increase …");
* :func:`asks_description` — what something is, consists of, how it is measured ("How is EBITDA calculated?");
* :func:`asks_table_subject` — what a table shows;
* :func:`answer_target` — the expected answer type and focus of a factoid question (Li & Roth, "Learning Question
  Classifiers", COLING 2002; the head word decides a "what/which" question's class as in Huang, Thint & Qin, EMNLP
  2008);
* :func:`comparison` — a threshold the question compares with ("less than 600,000", "above ₹1,000");
* :func:`polarity` and :func:`ordinal` — the highest or lowest asked, and which rank ("second highest");
* :func:`polar` — a yes/no question ("Is …", "Did …", "Does …");
* :func:`expected_unit` — the unit it says it wants.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

from prism.answering.programs.numbers import cell_number
from prism.answering.reading.cues import asks_proportion_ratio, changes_a_percentage, cue_words, names_ratio
from prism.answering.reading.line_items import item_of
from prism.index.tokenizer import tokenize
from prism.types import AnswerTarget, AnswerType, PeriodMention
from prism.types.reading import Comparison, ExpectedUnit
from prism.vocabulary import months, number_words, question_words
from prism.vocabulary.units import CANONICAL, FIGURE_WORD_RE

__all__ = ["answer_target", "asks_description", "asks_how_many", "asks_of_table", "asks_proportion_ratio",
           "asks_reason", "asks_table_subject", "changes_a_percentage", "comparison", "cue_words", "expected_unit",
           "names_ratio", "ordinal", "polar", "polarity"]

_GENERIC = frozenset(tokenize(question_words.GENERIC_FOCUS))
_VALUE_NOUNS = frozenset(tokenize(question_words.VALUE_NOUNS))
_COPULA = r"(?:is|are|was|were)"
_AUX = r"(?:is|are|was|were|does|do|did|has|have|had|can|could|may|might|must|shall|should|will|would)"
_HUMAN = r"(?:firm|company|bank|person|officer|executive|individual|entity|institution|organi[sz]ation|auditor)s?"
_PREPOSITION = re.compile(r"\s+(?:in|for|at|on|under|during|as|by|within|per|to|from|with|after|before|"
                          r"across|between|than|when|if|that|which|who)(?:\s+.*)?$", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:the|a|an|its|their|his|her|our)\s+", re.IGNORECASE)
_PERIOD_TEXT = re.compile(r"\b(?:[QH][1-4]\s?FY\s?'?\d{2,4}|FY\s?'?\d{2,4}(?:-\d{2})?|(?:19|20)\d\d)\b", re.IGNORECASE)

_REASON_QUESTION = re.compile(
    r"^\s*(?:(?:[^,?]{1,60},\s*)?why\b|what\s+(?:caused|causes|drove|drives|explains|led\s+to|contributed\s+to|"
    r"resulted\s+in|impacted|affected|influenced)\b|"
    r"what\s+(?:was|were|is|are)\s+(?:the\s+)?(?:main\s+|primary\s+|principal\s+|key\s+)?"
    r"(?:reasons?|drivers?|causes?|factors?)\b)|\b(?:reasons?|drivers?)\s+(?:for|of|behind)\b|\bdue\s+to\s+what\b|"
    r"\b(?:driven|caused|explained|attributable|attributed|due|owing)\s+(?:by|to)\s*\??\s*$|"
    r"\b(?:a\s+)?result\s+of\s*\??\s*$",
    re.IGNORECASE)
"""A question asking for a cause: "why" (after a fronted adverbial too: "In 2019, why did …"), "what caused /
impacted …", "what was the reason for …", or a cause left open at the end ("… driven by?", "… due to?")."""
_DESCRIPTION_QUESTION = re.compile(
    r"^\s*(?:(?:what|how)\b[^?]*\b(?:consists?\s+of|compris(?:e|es|ed)|refers?\s+to|relates?\s+to|related\s+to|"
    r"represents?|mean|means|defined|definition|calculated|computed|determined|measured|presented|recogni[sz]ed|"
    r"recorded|accounted\s+for)\b(?:\s+[\w’'-]+){0,3}\s*\??\s*$|when\s+(?:does|do|is|are|will|should)\b|"
    r"what\s+(?:is|are)\s+the\s+definitions?\b)",
    re.IGNORECASE)
_DESCRIPTION_LEAD = re.compile(
    r"^\s*(?:how\s+(?:is|are|was|were|do|does|did)\b.+\b(?:stated|measured|recogni[sz]ed|determined|calculated|"
    r"computed|valued|accounted|defined|presented|classified|estimated|allocated|amortized|depreciated)\b|"
    r"what\s+(?:does|do|did)\b.+\b(?:consist|include|comprise|represent|mean|relate|refer)s?\b|"
    r"what\s+(?:is|are|was|were)\b.+\b(?:comprised|composed|made\s+up|consisted)\s+of\b|"
    r"what\s+(?:is|are|was|were)\s+(?:included|contained|comprised)\s+(?:in|within)\b|"
    r"what\s+(?:is|are|was|were)\s+(?:the\s+)?(?:definition|meaning|nature|composition)\s+of\b)",
    re.IGNORECASE)
_BARE_WHAT = re.compile(r"^\s*what\s+(?:is|are)\s+(?P<np>[A-Za-z][A-Za-z ,&'’-]{0,60})\??\s*$", re.IGNORECASE)
_TABLE_SUBJECT = re.compile(
    r"^\s*(?:what\s+(?:does|do|did)\s+(?:the|this|that)\s+(?:following\s+|above\s+)?table\s+"
    r"(?:show|represent|present|depict|illustrate|summari[sz]e|provide|describe|set\s+(?:out|forth)|contain|"
    r"tell|list|display|report|give|detail)\b"
    r"|what\s+(?:is|are)\s+(?:(?:being\s+)?(?:shown|presented|reported|summari[sz]ed|set\s+out|displayed)\s+in|"
    r"the\s+(?:following\s+)?table\s+about\b|the\s+(?:purpose|subject)\s+of)\s+(?:the|this|that)?\s*table\b)"
    r"[^?]{0,40}\??\s*$",
    re.IGNORECASE)
_ABOVE = r"more|greater|higher|larger|bigger"
_BELOW = r"less|lower|fewer|smaller"
_AMOUNT_AHEAD = (rf"(?=\s+(?:US\$|Rs\.?|[$€£¥₹]|[\d.,]+\s*(?:%|per\s?cent\b|percent\b|(?:{FIGURE_WORD_RE})\b)))")
"""A verb that passes a figure ("did net income top $100 million", "crossed 5%") only before an amount with its
currency, percent or scale: "the top 10 customers" names a rank, not a threshold."""
_THRESHOLD = re.compile(
    rf"\b(?P<cmp>(?:{_ABOVE}|{_BELOW})\s+than|above|below|under|over|exceed(?:s|ed|ing)?|in\s+excess\s+of|"
    rf"(?:top(?:s|ped)?|surpass(?:es|ed)?|cross(?:es|ed)?){_AMOUNT_AHEAD}|"
    r"at\s+least|at\s+most)\s+"
    r"(?P<num>[-−]?\s?(?:US\$|Rs\.?|[$€£¥₹])?\s?[-−]?\d[\d,]*(?:\.\d+)?)\s*"
    rf"(?P<unit>%|per\s?cent\b|percent\b|(?:{FIGURE_WORD_RE})\b)?",
    re.IGNORECASE)
_MAX = re.compile(r"\b(?:highest|largest|greatest|biggest|most|maximum|peak(?:ed)?|higher|larger|greater|bigger|"
                  r"fastest|quickest|faster|top|record\s+high|(?:its|a|an\s+all[\s-]time)\s+high)\b", re.IGNORECASE)
_MIN = re.compile(r"\b(?:lowest|smallest|least|fewest|minimum|trough|lower|smaller|fewer|bottom|slowest|slower|"
                  r"record\s+low|(?:its|a|an\s+all[\s-]time)\s+low)\b", re.IGNORECASE)
_WHICH_MORE = re.compile(r"\s*(?:in\s+)?(?:which|who)\b.*?\b(more|less)\b(?!\s+than\b)", re.IGNORECASE)
""""Which segment earned more revenue, products or services?": "more"/"less" in a which-question (not "more than
X", a threshold) ask which is higher or lower."""
_ORDINAL = re.compile(r"\b(second|2nd|third|3rd|fourth|4th)[\s-]+(?:highest|largest|greatest|biggest|most|lowest|"
                      r"smallest|least)\b", re.IGNORECASE)
_ORDINALS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_EMBEDDED_POLAR = "|".join(re.escape(w).replace(r"\ ", r"\s+")
                           for w in sorted(question_words.EMBEDDED_POLAR, key=len, reverse=True))
_FRONTED = r"(?:(?!\s*(?:what|which|who|whom|whose|when|where|why|how)\b)[^,?]{1,60},\s*)?"
"""An adverbial fronted before the question proper, up to a comma ("From 2023 to 2024, did net income rise?", "In
Q2 FY25, was the NIM above 3.5%?"); not one opened by a wh-word."""
_ITEM_ASKED = re.compile(
    rf"\s*(?:{_FRONTED}(?:in\s+)?which\s+(?!of\b)(?P<which>[a-z][\w-]*)|(?:please\s+)?(?:name|identify|tell\s+me|show(?:\s+me)?)?\s*"
    r"(?:the\s+)?(?!(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|has|have|had)\b)"
    r"(?P<noun>[a-z][\w&-]*(?:\s+(?!of\b)[a-z][\w&-]*){0,2})\s+(?:that|which|with|having|whose)\b)", re.IGNORECASE)
"""A question asking for an item, not a figure: "Which segment …", after a fronted phrase ("Of all segments, which
…"), an imperative naming it ("Name the segment that …") or a terse noun phrase ("segment with the fastest
growth?"); with a superlative it is answered by the item's name."""
_PERIOD_NOUNS = frozenset({"year", "quarter", "period", "month", "half"})
"""Nouns of an item asked that make it a period ("Name the year with the largest operating income")."""
_POLAR = re.compile(rf"^\s*{_FRONTED}(?:please\s+)?(?:(?:{_EMBEDDED_POLAR})\b|(?:is|are|was|were|does|do|did|has|have"
                    r"|had|can|could|should|will|would|must|may)\b(?!\s+(?:the\s+)?(?:reason|cause)s?\b))",
                    re.IGNORECASE)


def asks_reason(text: str) -> bool:
    """Whether the question asks for a cause ("Why did revenue fall?", "What caused the increase in interest
    expense?", "What was the primary reason for …"): its answer is a sentence that gives the reason."""
    return bool(_REASON_QUESTION.search(text))


def asks_description(text: str) -> bool:
    """Whether the question asks what something is, consists of or relates to, how it is calculated or presented,
    or when (as a policy) something is done ("What is Trade receivables?", "How is EBITDA calculated?"). The verb
    ends the question (at most three words after it), and a question with a digit never counts. A bare "What is/are
    X?" counts only when X is a bare term: no article, no preposition, no value word ("fee", "rate") unless it is a
    term of two or more capitalised words ("What is Audit Fees?")."""
    if re.search(r"\d", text):
        return False
    if _DESCRIPTION_QUESTION.search(text) or _DESCRIPTION_LEAD.search(text):
        return True
    bare = _BARE_WHAT.match(text)
    if bare is None:
        return False
    term = bare.group("np")
    if _ARTICLE.match(term) or _PREPOSITION.search(term):
        return False
    named = re.fullmatch(r"(?:[A-Z][\w’'-]*\s+)+[A-Z][\w’'-]*", term.strip()) is not None
    return named or not set(tokenize(term)) & (_VALUE_NOUNS | _GENERIC)


def asks_table_subject(text: str) -> bool:
    """Whether the question asks what a table shows ("What does the table show?"), not a figure in it."""
    return _TABLE_SUBJECT.match(text) is not None


_THE_TABLE = re.compile(r"\b(?:the|this|that)\s+(?:above\s+|following\s+|below\s+)?table\b", re.IGNORECASE)
_TABLE_WORDS = frozenset(
    "table financial information data items item line lines years periods dates categories kinds types listed "
    "included include includes shown show shows presented present highlighted reported report disclosed provided "
    "provide provides given recorded contained contain contains covered cover covers analysed analyzed stated "
    "mentioned featured displayed described".split())
"""Words that name a table's parts or how it gives them, not a figure or item in it."""


def asks_of_table(text: str, mentions: Sequence[str], unit: str | None = None) -> bool:
    """Whether the question asks about a table as a whole ("What years are reported by the table?", "What financial
    items are listed in the table?"): it names "the table" and either asks for periods (``unit`` ``"period"``: the
    years a table gives information for are its columns' years, whichever row it names) or names no figure or item
    besides (each of its ``mentions`` is of :data:`_TABLE_WORDS` only)."""
    if not _THE_TABLE.search(text):
        return False
    return unit == "period" or all(set(m.lower().split()) <= _TABLE_WORDS for m in mentions)


def _bare_phrase(text: str) -> str:
    """``text`` without its article and possessor ("the Meridian Bank's home loan segment" → "home loan segment")."""
    return re.sub(r"^.*['’]s\s+", "", _ARTICLE.sub("", text.strip())).strip()


_APPLIES_TO = re.compile(r"\s+(?:for|on)\s+(?P<what>.+)$", re.IGNORECASE)
"""The phrase after a value noun that says what the value applies to: "the charge for standard settlement"."""
_TIME_WORDS = frozenset("yearly ended ending period periods fiscal half date dates time previous prior last next "
                        "current same respectively compared versus each both".split()) | question_words.DURATION_NOUNS \
    | frozenset(months.NUMBER) | frozenset(number_words.SMALL)
"""Words of a period's name ("the year ended December 31", "the last three years") and of a comparison
("respectively", "compared"): never what a value applies to."""


def _noun_phrase(text: str, periods: Sequence[PeriodMention] = ()) -> tuple[str, str]:
    """``(head part, complement)`` of a noun phrase, cut at the first preposition other than "of", without
    articles, possessors and periods ("the gross NPA ratio of Meridian Bank's home loan segment" → ``("gross NPA
    ratio", "home loan segment")``). When the head is a value noun (:data:`~prism.vocabulary.question_words.
    VALUE_NOUNS`) with no of-complement, what it applies to ("for", "on": "the charge for standard
    settlement", "the interest rate on savings accounts") is the complement, up to the next preposition and without
    a period's words ("the rate for the year ended …" names none)."""
    for period in periods:
        text = text.replace(period.text, " ")
    text = re.sub(r"\s+", " ", text.strip(" ?."))
    cut = _PREPOSITION.sub("", text)
    head, _, complement = cut.partition(" of ")
    words = head.split()
    if not complement and words and set(tokenize(words[-1])) & _VALUE_NOUNS \
            and (m := _APPLIES_TO.match(text, len(cut))):
        what = _PREPOSITION.sub("", m.group("what"))
        complement = " ".join(w for w in what.split() if w.lower() not in _TIME_WORDS and tokenize(w))
    return _bare_phrase(head), _bare_phrase(complement)


def _target(answer_type: AnswerType, head_part: str, complement: str, periods: tuple[PeriodMention, ...]
            ) -> AnswerTarget | None:
    words = head_part.split()
    if not words:
        return None
    focus = [w for w in words + complement.split() if re.search(r"[A-Za-z]", w) and not _PERIOD_TEXT.fullmatch(w)]
    return AnswerTarget(answer_type, tuple(focus), words[-1], periods, item_of(focus))


_HOW_MANY_PERCENT = re.compile(r"\bhow\s+many\s+(?:per\s?cent(?:age)?|%)", re.IGNORECASE)
""""How many percent did revenue grow": a percentage asked, not a count."""


_HOW_MANY_TIMES = re.compile(
    r"\bhow\s+many\s+times\s+(?!(?:did|does|do|has|have|had|will|would|can|could|should|must)\b)"
    r"(?:(?:is|was|are|were)\s+\S+(?:\s+\S+)*?\s+(?:larger|greater|higher|bigger|more|as)\b"
    r"|(?!(?:is|was|are|were)\b)\S)", re.IGNORECASE)
""""How many times operating expenses was gross profit", "how many times was revenue larger than costs": a multiple
(a ratio), not a count of events ("How many times did the board meet?")."""


_COUNT_IMPERATIVE = re.compile(r"(?i)\s*(?:please\s+)?(?:count\s+(?:(?:the|all|up)\s+)?|"
                               r"(?:(?:give|state|tell\s+me|show)\s+)?(?:the\s+)?(?:total\s+)?number\s+of\s+)"
                               r"(?!how\b)(?P<np>.+?)"
                               r"(?:\s+(?:in\s+which|where|when|that|with|for|in|at|on|under|per)\s|[,?]|$)")
"""An imperative count ("Count the years in which net income exceeded $100 million", "Give the number of UPI
transactions in FY2025") or a terse one opening with its noun ("Number of branches, FY2025"): "how many" as an
order."""


def asks_multiple(text: str) -> bool:
    """Whether the question asks how many times one figure is another (a ratio)."""
    return _HOW_MANY_TIMES.search(text) is not None


def asks_how_many(text: str) -> bool:
    """Whether the question asks "how many" of something countable (not "how many percent", not "how many times"
    one figure is another)."""
    return ((bool(re.search(r"\bhow\s+many\b", text, re.IGNORECASE)) or _COUNT_IMPERATIVE.match(text) is not None)
            and not _HOW_MANY_PERCENT.search(text) and not asks_multiple(text))


_FRONTED_PERIOD = re.compile(r"(?:in|for|during|over|as\s+(?:of|at)|at|by)\s+(?P<when>[^,?]{1,40}(?:,\s*\d{4})?),\s*",
                             re.IGNORECASE)
"""A period fronted before the question proper ("In FY2025, how many …"): read past it, as the period it is."""


def answer_target(text: str, periods: Sequence[PeriodMention]) -> AnswerTarget | None:
    """The expected answer type and focus of a factoid question, or ``None`` when no one typed value answers it
    (yes/no, why, how does/did, when, a non-copular "who <verb>", a head noun that names no measure).

    Examples: "How many ATMs does Meridian Bank operate?" → ``count``, focus ``("ATMs",)``; "Which firm is Meridian
    Bank's statutory auditor?" → ``person_or_org``; "What was Meridian Bank's net profit in Q3 FY25?" → ``quantity``,
    ``("net", "profit")``, period Q3 FY25."""
    lead = len(text) - len(text.lstrip())
    q = re.split(r"(?<=\?)\s", text.strip(), maxsplit=1)[0]  # the question, not the instructions after it
    named = tuple(replace(p, start=p.start - lead, end=p.end - lead) for p in periods
                  if p.kind in ("FY", "Q", "H", "year") and p.end - lead <= len(q))
    if _HOW_MANY_PERCENT.search(q) or asks_multiple(q):
        return None  # a rate or a multiple, not a count of items
    asked = q[fronted.end():] if (fronted := _FRONTED_PERIOD.match(q)) and any(
        p.text.strip() == fronted.group("when").strip() for p in periods) else q  # "In FY2025, how many …"
    if m := (re.match(rf"how\s+many\s+(?P<np>.+?)(?:\s+{_AUX}\b|\s+(?:in|for|at|on|under|per)\s|\?|$)", asked, re.I)
             or _COUNT_IMPERATIVE.match(asked)):
        head, complement = _noun_phrase(m.group("np"), named)
        return _target("count", head, complement, named)
    if m := re.match(rf"(?:who|(?:which|what)\s+{_HUMAN})\s+{_COPULA}\s+(?P<np>.+)$", q, re.I):
        head, complement = _noun_phrase(m.group("np"), named)
        return _target("person_or_org", head, complement, named)
    m = re.match(rf"(?:what|which)\s+{_COPULA}\s+(?P<np>.+)$", q, re.I) or re.match(
        rf"(?:what|which)\s+(?P<np>.+?)\s+{_AUX}\b", q, re.I)
    if m is None:
        return None
    head, complement = _noun_phrase(m.group("np"), named)
    if not head or head.split()[-1].lower() not in question_words.MEASURE_HEADS:
        return None
    return _target("quantity", head, complement, named)


_SIGN = re.compile(r"\b(negative|positive|a\s+loss|a\s+profit|a\s+deficit|a\s+surplus)\b", re.IGNORECASE)


def comparison(text: str) -> Comparison | None:
    """The threshold a question states ("less than 600,000", "exceed $5 million", "at least 2.0%"; "negative" is
    below zero, "positive" above), or ``None``."""
    m = _THRESHOLD.search(text)
    if m is None:
        sign = _SIGN.search(text)
        if sign is None:
            return None
        below = sign.group(1).lower() in ("negative", "a loss", "a deficit")
        return Comparison("below" if below else "above", Decimal(0), None, False, sign.group(0))
    value = cell_number(m.group("num").replace("−", "-").replace(" ", ""))
    if value is None:
        return None
    cmp = re.sub(r"\s+", " ", m.group("cmp").lower())
    unit = (m.group("unit") or "").lower().replace(" ", "")
    percent = unit in ("%", "percent", "percent")
    relation = "at_least" if cmp == "at least" else "at_most" if cmp == "at most" else (
        "below" if re.match(_BELOW, cmp) or cmp in ("below", "under") else "above")
    return Comparison(relation, Decimal(value), None if percent else CANONICAL.get(unit), percent,  # type: ignore[arg-type]
                      m.group(0).strip(), text[m.start("num"):m.end()].strip())


def polarity(text: str) -> str | None:
    """``"max"`` for a question about the highest, largest, peak or which is higher; ``"min"`` for the lowest;
    ``None`` for neither or both."""
    high, low = _MAX.search(text) is not None, _MIN.search(text) is not None
    if not high and not low and (m := _WHICH_MORE.match(text)):
        high, low = m.group(1).lower() == "more", m.group(1).lower() == "less"
    return "max" if high and not low else "min" if low and not high else None


def ordinal(text: str) -> int:
    """Which rank a superlative asks for: 2 for "the second highest", 1 otherwise."""
    m = _ORDINAL.search(text)
    return _ORDINALS[m.group(1).lower()] if m else 1


_PROHIBITION = re.compile(r"\b(?:prohibited|barred|forbidden|not\s+(?:allowed|permitted)|disallowed|banned)\b", re.I)
_OBLIGATION = re.compile(r"\b(?:required|requirement|mandatory|compulsory|obliged|obligated|must|need\s+to|needs\s+to|"
                         r"have\s+to|has\s+to|necessary|should)\b", re.IGNORECASE)
_PERMISSION = re.compile(r"^\s*(?:can|could|may)\b|\b(?:allowed|permitted|permissible|eligible|entitled|able\s+to|"
                         r"free\s+to|authori[sz]ed)\b", re.IGNORECASE)


def modality(text: str) -> str | None:
    """What a yes/no question about a rule asks: ``prohibition`` ("Is cash withdrawal prohibited …?"),
    ``obligation`` ("Is a bank required to …?", "Must the PSP …?"), ``permission`` ("Can a merchant …?", "Is a
    bank allowed to …?") or, for any other yes/no question, ``fact`` ("Does the cap apply to P2M payments?": a rule
    that says it shall is a Yes, one that says it shall not a No); ``None`` for a question that is not yes/no.
    The rule's sentence then decides Yes or No
    (:mod:`prism.answering.rules`)."""
    if not polar(text):
        return None
    if _PROHIBITION.search(text):
        return "prohibition"
    if _OBLIGATION.search(text):
        return "obligation"
    if _PERMISSION.search(text):
        return "permission"
    return "fact"


def polar(text: str) -> bool:
    """Whether the question is a yes/no question ("Is …", "Did revenue grow …", "Does the direction apply …")."""
    return _POLAR.match(text) is not None


_PERCENT_CHANGE = re.compile(r"(?i)\b(?:per\s?cent(?:age)?|%)\s+(?:growth|change|increase|decrease|rise|fall|decline)")


def expected_unit(words: Sequence[str], text: str) -> ExpectedUnit | None:
    """The unit the question says its answer is in (lower-case ``words`` of the normalised ``text``)."""
    joined = " ".join(words)
    if (item := _ITEM_ASKED.match(text)) and polarity(text) is not None:  # whatever the measure compared is in
        noun = (item.group("noun") or item.group("which") or "").lower().split()
        return "period" if noun and noun[-1].rstrip("s") in _PERIOD_NOUNS else "label"  # "the year with …"
    if "basis points" in joined or "bps" in words:
        return "bps"
    if "percentage points" in joined or changes_a_percentage(text):
        return "points"
    if _PERCENT_CHANGE.search(text):
        return "percent"  # "the percentage growth in the number of branches": a percentage of a count
    if asks_multiple(text):
        return "ratio"
    if asks_how_many(text):
        return "count"
    if re.search(r"\b(?:which|what)\s+(?:(?:are|were)\s+the\s+)?(?:fiscal\s+)?(?:year|quarter|period|month)s?\b|"
                 r"^\s*when\b", text, re.I):
        return "period"  # the question word's noun is what is asked: "which years were the number of X given for"
    if re.search(r"(?i)\bnumber\s+of\b|\bheadcount\b|\bcount\b(?!\s+(?:as|towards?|against)\b)", text):
        return "count"  # "the number of branches", "the UPI transaction count", "headcount"
    if asks_proportion_ratio(text) and not re.search(r"%|\bper\s?cent", text, re.IGNORECASE):
        return "ratio"
    if "%" in words or re.search(r"\bper\s?cent(?:age)?\b|\bpercent\b|\bshare\s+of\b|\bproportion\b|\bportion\b|"
                                 r"\bmargin\b|\bgrowth\s+rate\b", text, re.IGNORECASE):
        return "percent"
    if re.search(r"\bratio\b|\btimes\b|\bdivided\s+by\b", text, re.IGNORECASE) and not names_ratio(text):
        return "ratio"
    if "per share" in joined:
        return "per_share"
    return None

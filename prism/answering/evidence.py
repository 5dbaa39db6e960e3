"""Answer-bearing evidence: does any sentence or table row of the top passages hold a value of the type asked?

A passage can hold every salient word of "How many ATMs does Meridian Bank operate?" (a fee table's "Free ATM
transactions a month – Meridian ATMs 5 5 Unlimited") and still not state the fact. Classic question answering reads
the question for its *expected answer type* and its *focus* first, then looks for a candidate answer of that type
near the focus (Li & Roth, "Learning Question Classifiers", COLING 2002, for the classes; the question's head word
decides the class of a "what/which" question as in Huang, Thint & Qin, EMNLP 2008; answer-type filtering of
passages as in Prager et al., "Question-answering by predictive annotation", SIGIR 2000). This module does that,
offline, with rules:

- :func:`answer_target` classifies a factoid question into one of three classes, or none:
  ``count`` ("how many <focus>"), ``quantity`` ("what/which <focus> …", "what is/was … <focus> …" whose head noun
  names an amount, rate, fee, limit, score or line item: :data:`MEASURE_HEADS`) and ``person_or_org`` ("who
  is/was <focus>", "which firm/company/person … is <focus>"). Its focus is the noun phrase asked about, without
  the possessor ("Meridian Bank's"), articles and the periods named, cut before its first preposition but "of";
  an "of" complement joins the focus ("maximum amount of a P2P collect request"). Yes/no,
  "why", "how does/did …", "when" and non-copular "who <verb>" questions get no target: they have no single
  typed value near a focus (a "who signed" answer is a signature block that does not repeat what was signed).
- :func:`holds_evidence` reads the passages as *units*: sentences (:func:`prism.index.sentences.split_sentences`),
  and table rows (:func:`evidence_units`), each row read with its table's title, column headers and header lines,
  every unit with its document's file name. A unit is evidence when it names the focus — at least two thirds of its
  words (index tokens, so "auditors" = "auditor") and its head; "minimum", "total", "key" and the value nouns of
  :data:`_VALUE_NOUNS` ("fee", "charge", "rate": a table states them once, in its title or header) are not required
  when other words remain — and holds a value of the type: ``count`` — a number right before the focus head
  ("4,812 complaints"; up to three words between) or a row whose label ends with the head; ``quantity`` — an amount,
  percentage or number that is not a year, a period code or a clause number, or "Nil" / "Free" / "Unlimited";
  ``person_or_org`` — a name (title + name, an initial + surname, or two capitalised words that are not the
  question's own). A focus that names a statement line item ("total revenue", "net profit") is also found as one of
  its row labels ("Total net sales", "Net income"; :data:`prism.index.statements.ITEMS`). A fiscal year (or a
  bare year: "net income in 2016"), quarter or half the question names must be named by the unit, its table's
  columns, or the chunk's document profile (its ``period``): "net profit in Q3 FY25" is not answered by the Q2 FY25
  call's net profit, nor "net income in 2016" by a FY2015 10-K whose columns are 2015, 2014 and 2013.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from pathlib import Path

from prism.answering import acronyms
from prism.index.frequencies import frequency_nouns
from prism.index.sentences import split_sentences
from prism.index.statements import ITEMS
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import duration_of, find_periods, period_label
from prism.types import AnswerTarget, PeriodMention, RetrievedChunk
from prism.vocabulary import abbreviations, number_words, question_words, titles

logger = logging.getLogger(__name__)

_GENERIC = frozenset(tokenize(question_words.GENERIC_FOCUS))
_VALUE_NOUNS = frozenset(tokenize(question_words.VALUE_NOUNS))
_REFERENCE = re.compile(r"\b(?:sections?|paras?|paragraphs?|clauses?|tables?|annexures?|rules?|no\.|circular)\s*"
                        r"[\w./()-]*\d[\w./()-]*|\b\d+(?:\.\d+){2,}\b|^\s*(?:[A-Z]?\d+(?:\.\d+)*|\d+\([a-z]\))[.)]?\s",
                        re.IGNORECASE)
_PERIOD_TEXT = re.compile(r"\b(?:[QH][1-4]\s?FY\s?'?\d{2,4}|FY\s?'?\d{2,4}(?:-\d{2})?|(?:19|20)\d\d)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_WORD_VALUE = re.compile(rf"\b(?:nil|free|unlimited|zero|waived)\b|{number_words.VALUE_RE}", re.IGNORECASE)
_COUNT_NUMBER = rf"(?:(?<![\w.])\d[\d,]*|\b(?:{number_words.CARDINAL_RE})\b)"
_ROW_END = re.compile(r"(?:\d[\d,]*(?:\.\d+)?%?\)?|\b(?:Nil|Free|Unlimited|NA|N\.A\.|–|-))\s*$")
_CELL = r"(?:[₹$]?\d[\d,]*(?:\.\d+)?%?|Nil|Free|Unlimited)"
_CELLS = re.compile(rf"[A-Za-z].*?(?:\s+{_CELL}){{2,}}\s*$")
_NAME = re.compile(r"\b(?:Mr|Ms|Mrs|Dr|Shri|Smt)\.?\s+[A-Z]|\b[A-Z]\.\s?[A-Z][a-z]+"
                   r"|\b[A-Z][a-z]+(?:\s+(?:&\s+)?[A-Z][a-z]+)+")


_CAUSAL = re.compile(
    r"\b(?:due\s+to|driven\s+by|because|as\s+a\s+result\s+of|result(?:ed|ing|s)?\s+(?:from|of)|attributable\s+to|"
    r"owing\s+to|caused\s+by|reflect(?:s|ed|ing)?|primarily\s+(?:from|by|as|related)|mainly|principally|"
    r"on\s+account\s+of|led\s+by|offset\s+by)\b", re.IGNORECASE)


def gives_reason(sentence: str) -> bool:
    """Whether a sentence states a cause ("… primarily due to higher volumes", "driven by", "as a result of")."""
    return bool(_CAUSAL.search(sentence))


def evidence_units(chunk: RetrievedChunk) -> list[tuple[str, str, bool]]:
    """The units a chunk is read in, each with its context: ``(unit, context, is_row)``.

    Units are the sentences of the chunk; each line of a block (between blank lines) of which two or more lines are
    table rows (end in a value); and each line that ends in two or more value cells ("P2P transfers ₹1,00,000
    ₹1,00,000 9.1"). A row's context is its table's title and column headers (chunk metadata) and the chunk's lines
    that are not rows, above it and in its block (a header: "Scenario  Turnaround time  Compensation if TAT is
    breached"). Every unit is also read with its document's file name ("meridian bank upi operating circular").
    """
    name = _stem(chunk)
    title = " ".join(str(chunk.metadata.get(k) or "") for k in ("table_title", "table_columns"))
    units: list[tuple[str, str, bool]] = []
    headers: list[str] = []
    for block in re.split(r"\n[ \t]*\n", chunk.text):
        lines = [line.strip() for line in block.split("\n") if line.strip()]
        table = sum(bool(_ROW_END.search(line)) for line in lines) >= 2
        rows = [line for line in lines if _CELLS.search(line) or (table and _ROW_END.search(line))]
        prose = [line for line in lines if line not in rows]
        headers.extend(prose)
        units.extend((s, name, False) for s in split_sentences("\n".join(prose)))
        units.extend((line, " ".join([name, title, *headers]), True) for line in rows)
    return units


def _has_value(target: AnswerTarget, text: str, row: bool, own_words: set[str], context: str = "") -> bool:
    """True when the unit ``text`` (a table row when ``row``, read under ``context``: its document's name, its
    table's title and column headers) holds a value of ``target``'s answer type (see the module docstring). A number
    in words is a value as its digits are: a quantity "shall not exceed fifteen crore rupees", "within thirty days"
    (:data:`prism.vocabulary.number_words.VALUE_RE`: not a lone "one", often a pronoun), a count "twelve ATMs". A
    row's figures count the noun a header states as their unit: in a parenthesis ("FY2025 787" under "Volume (crore
    transactions)" counts transactions) or as "Number of …"; a title or file name naming the noun does not ("Charges
    at Meridian ATMs" counts no ATMs)."""
    if target.answer_type == "person_or_org":
        return any(not set(tokenize(m.group(0))) <= own_words for m in _NAME.finditer(text))
    bare = _PERIOD_TEXT.sub(" ", _REFERENCE.sub(" ", text))
    if target.answer_type == "quantity":
        return _NUMBER.search(bare) is not None or _WORD_VALUE.search(bare) is not None
    head = re.escape(target.head.lower())
    before = re.search(rf"{_COUNT_NUMBER}(?:\s+[\w-]+){{0,3}}?\s+{head}\b", bare.lower())
    label = re.match(r"\s*([^\d₹$]+?)\s+\d", bare)
    label_row = label is not None and re.split(r"\s[–—-]\s|[(:,]", label.group(1))[0].strip().lower().endswith(
        target.head.lower())
    named_by_header = row and re.search(rf"\([^)]*\b{head}\b[^)]*\)|\bnumber\s+of\s+(?:\w+\s+){{0,2}}{head}\b",
                                        context.lower()) is not None
    return before is not None or (row and label_row) or (named_by_header and _NUMBER.search(bare) is not None)


def duration_periods(chunk: RetrievedChunk) -> list[str]:
    """The periods a chunk's durations name (:func:`prism.retrieval.periods.period_label` with its document's
    fiscal year end): a 10-Q's columns "Three Months Ended June 30, 2024" / "Six Months Ended June 30, 2024" →
    ``["Q2 FY2024", "H1 FY2024"]``, in text order without repeats; ``[]`` when its text and table columns state
    no duration. A question's "H1" or "Q2" is found in them (:mod:`prism.answering.answerability`)."""
    fye = chunk.metadata.get("fiscal_year_end") or None
    texts = (str(chunk.metadata.get("table_columns") or ""), chunk.text)
    return list(dict.fromkeys(period_label(p, fye) for t in texts for p in find_periods(t) if p.months))


def _names_period(period: PeriodMention, texts: Sequence[str], fye: str | None = None) -> bool:
    """True when one of ``texts`` names ``period``: a quarter or half by its part, fiscal year and duration ("Q3
    FY25"; "Six Months Ended June 30, 2024" is H1 FY2024 of a calendar year, ``fye`` the document's fiscal year
    end; nine months are not the third quarter); a fiscal year or a bare year ("net income in 2016") by a fiscal
    year, calendar year or date of that year (a 10-K's column "2018" or "December 31, 2018"; a quarter never stands
    for its year)."""
    for text in texts:
        for p in find_periods(text) if text else ():
            if period.kind in ("Q", "H") and (p.kind, p.year, p.part) == (period.kind, period.year, period.part) \
                    and duration_of(p) == duration_of(period):
                return True
            if period.kind in ("Q", "H") and p.months and period_label(p, fye) == period_label(period, fye):
                return True
            if period.kind in ("FY", "year") and p.kind in ("FY", "year", "date") and p.year == period.year:
                return True
    return False


def holds_evidence(target: AnswerTarget, chunks: Sequence[RetrievedChunk], entity_words: set[str] | None = None
                   ) -> bool:
    """True when a sentence or table row of ``chunks`` holds ``target``'s focus with a value of its answer type and
    the periods it names (module docstring).

    Args:
        target: from :func:`answer_target`.
        chunks: the top passages, best first.
        entity_words: index tokens of the entities the passages are about (their profile's ``entity``); focus words
            among them are not required ("Meridian" in "a Meridian Bank current account"). An officer's
            abbreviation in the focus ("CEO") is looked for spelled out (:mod:`prism.vocabulary.titles`).

    Several periods may be held by several units (one update's "Q2 FY24" margin, another's "Q3 FY24"): each period
    needs one unit that holds the focus with a value in it.

    Returns:
        ``True`` once the units read hold every period (at the first that holds the focus when none is named);
        ``False`` when they do not (also for no chunks).
    """
    entity = entity_words if entity_words is not None else _entity_words(chunks)
    test = UnitTest(target, entity)
    wanted = set(range(len(target.periods)))
    held: set[int] = set()
    for chunk in chunks:
        period_texts = [str(chunk.metadata.get(k) or "") for k in ("period", "table_columns")]
        fye = chunk.metadata.get("fiscal_year_end") or None
        for unit, context, row in evidence_units(chunk):
            found = test.periods_held(unit, context, row, period_texts, fye)
            if found is not None:
                held |= found
                if held >= wanted:
                    return True
    return False


class UnitTest:
    """Whether one unit (a sentence or a table row) holds a target's focus with a value of its answer type and the
    periods it names: the test :func:`holds_evidence` applies to each unit, and the extractive answer's ranking to
    each sentence (:func:`prism.answering.extractive.score_sentences`).

    The focus words (an officer's abbreviation spelled out, the ``entity`` words left out) are required less the
    generic words and value nouns ("minimum", "rate"), two thirds of them (rounded up), the focus's head word
    when it is required, and an officer's title whole ("CEO": chief, executive and officer; a "Chief Financial
    Officer" is not the CEO). A focus word is also named in another form: an abbreviation by the words it stands
    for ("AMCs" by "asset management companies", "PAT" by "net profit"), focus words by a unit's abbreviation
    ("net interest income" by "NII"), a plural abbreviation by its singular (:mod:`prism.answering.acronyms`). A
    frequency adjective is required, always, as its noun's index term ("daily" as ``day``: a unit saying "Per day"
    names it, as one saying "daily" does; a per-transaction limit is no daily limit;
    :func:`prism.index.frequencies.frequency_nouns`).
    """

    def __init__(self, target: AnswerTarget, entity_words: set[str] | frozenset[str] = frozenset()):
        self.target = target
        focus = [t for w in target.focus for t in tokenize(titles.spelled_out(w) or " ".join(frequency_nouns(w))
                                                             or abbreviations.base(w)) if t not in entity_words]
        self.required = set(focus) - _GENERIC - _VALUE_NOUNS or set(focus) - _GENERIC or set(focus)
        self.head = tokenize(abbreviations.base(target.head))
        self.needed = math.ceil(2 * len(self.required) / 3)
        self.title = {t for w in target.focus if (spelled := titles.spelled_out(w)) for t in tokenize(spelled)}
        self.frequency = {t for w in target.focus for noun in frequency_nouns(w) for t in tokenize(noun)}
        self.own = set(focus) | set(entity_words)
        self.labels = _line_item_labels(target)
        self.abbreviated = [(name, toks) for w in target.focus if titles.spelled_out(w) is None
                            and (name := acronyms.acronym(w)) and (toks := set(tokenize(name)) - set(entity_words))]
        self._runs: dict[str, set[str]] = {}

    def _equivalents(self, text: str, tokens: set[str]) -> set[str]:
        """The focus tokens ``text`` states in another form: an abbreviation of the focus spelled out ("AMC" where
        the unit says "asset management company", "PAT" where it says "net profit") and focus words a unit's
        abbreviation stands for ("net interest income" where it says "NII"; :mod:`prism.answering.acronyms`)."""
        extra = {t for name, toks in self.abbreviated if not toks <= tokens and acronyms.mentioned(name, text)
                 for t in toks}
        if len(self.target.focus) > 1:
            for name in acronyms.abbreviations_in(text):
                if name not in self._runs:
                    runs = acronyms.spelled_phrases(name, self.target.focus)
                    self._runs[name] = {t for run in runs for t in tokenize(run)}
                extra |= self._runs[name]
        return extra

    def answers(self, unit: str, context: str = "", row: bool = False, period_texts: Sequence[str] = (),
                fye: str | None = None) -> bool:
        """True when ``unit`` (read with ``context``: its document name, table title, headers) holds the focus, a
        value of the answer type (a table row when ``row``), and every period of the target (in the unit, its
        context or ``period_texts``, with the document's fiscal year end ``fye``)."""
        held = self.periods_held(unit, context, row, period_texts, fye)
        return held is not None and len(held) == len(self.target.periods)

    def periods_held(self, unit: str, context: str = "", row: bool = False, period_texts: Sequence[str] = (),
                     fye: str | None = None) -> set[int] | None:
        """The positions in the target's periods of those ``unit`` names (as :meth:`answers` reads them), or
        ``None`` when it does not hold the focus with a value of the answer type."""
        text = f"{unit} {context}"
        tokens = set(tokenize(text))
        tokens |= self._equivalents(text, tokens)
        tokens |= {t for w in re.findall(r"\b[A-Z]{2,}s\b", text) for t in tokenize(abbreviations.base(w))}
        head = self.head
        named = len(self.required & tokens) >= self.needed and not (
            head and head[0] in self.required and head[0] not in tokens) and self.title <= tokens \
            and self.frequency <= tokens
        if not named and not (self.labels and self.labels.search(f"{unit} {context}".lower())):
            return None
        if not _has_value(self.target, unit, row, self.own, context):
            return None
        return {i for i, p in enumerate(self.target.periods) if _names_period(p, [unit, context, *period_texts], fye)}


def _line_item_labels(target: AnswerTarget) -> re.Pattern[str] | None:
    """The statement row labels of the line item the focus names (:attr:`~prism.types.AnswerTarget.item`: "total
    revenue" → "total net sales", "net sales", …; :data:`prism.index.statements.ITEMS`), as one pattern; ``None``
    when the focus names no line item."""
    if target.item is None or target.item not in ITEMS:
        return None
    return re.compile(r"\b(?:" + "|".join(re.escape(label) for label in ITEMS[target.item].labels) + r")\b")


def _stem(chunk: RetrievedChunk) -> str:
    return Path(chunk.source).stem.replace("_", " ")


def _entity_words(chunks: Sequence[RetrievedChunk]) -> set[str]:
    return {t for c in chunks for t in tokenize(str(c.metadata.get("entity") or ""))}

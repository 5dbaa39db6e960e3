"""The answerability gate: do the retrieved passages answer the question at all?

The best chunk's cosine alone does not tell "the fee schedule lists a locker rent" from "the fee schedule lists no
extra-large locker": both retrieve the fee table with a high score. The gate looks at the question's *salient
words* instead, on the first plain retrieval (the engine's step 3, no LLM call). Named features:

- ``relevance``: the best chunk's cosine to the question + ``w`` · query-term overlap
  (:func:`prism.answering.extractive.relevance`), in [-1, 1 + w];
- ``coverage``: the IDF-weighted share of the question's index tokens (:func:`prism.index.tokenizer.tokenize`) that
  occur in the top passages (each read with its document's file name, which often names the entity and period),
  in [0, 1], with the workspace's BM25 IDF ``ln(1 + (N − n + 0.5) / (n + 0.5))`` read through the retriever
  (:meth:`prism.retrieval.retriever.HybridRetriever.idf`; Robertson & Zaragoza 2009);
- ``missing``: the salient words of the question found in none of the top passages and rare in the workspace (their
  IDF at least ``min_salient_idf`` × the largest possible IDF, i.e. in few chunks or none). A word is salient when
  it names a fiscal period or year (``FY2021``, ``Q3``, ``2019``; found in any form: ``FY25`` = ``FY2025`` =
  ``2025``; a quarter of a year, "Q3 FY25", must appear as one phrase), is an acronym (``SWIFT``, ``NRI``, ``ATMs``),
  a hyphenated compound (``loan-to-value``: missing unless a passage has the words in sequence) or a word the
  embedder's vocabulary does not hold whole (``cryptocurrency``: rare in general English). A word counts as found
  when its meaning is there (else a third of real SEBI/RBI questions are declined over "AMC's" where the
  circular says "asset management company"): an abbreviation where a passage spells it out by initials or writes
  a phrase of :mod:`prism.vocabulary.abbreviations` ("NBFCs" = "non-banking financial companies", "RBI" =
  "Reserve Bank of India", "PAT" = "net profit", "CEO" = "Chief Executive Officer"; :mod:`prism.answering.
  acronyms`), a plural abbreviation by its singular, a compound by its initials ("LTV"), a rare word through the
  index's stemming ("penalties" = "penalty"). A currency code (``USD``,
  ``INR``, ``EUR``, ``GBP``: "answer in USD millions") is found in a passage whose amounts are in that currency
  (its metadata, or "$", "₹", "Rs.", "€", "£" in its text). Common words ("many",
  "earlier", "signed") are the question's scaffolding and are never salient: answerable questions phrase them
  differently from the documents.

- ``evidence``: whether a sentence or table row of the top passages holds the question's *focus* together with a
  value of its *expected answer type* (a count, a quantity, a person or firm) and the period it names
  (:mod:`prism.answering.evidence`, after Li & Roth's question classes, COLING 2002): "How many ATMs does Meridian
  Bank operate?" retrieves a fee table with "Free ATM transactions a month – Meridian ATMs  5", every salient word
  and no count of ATMs. ``None`` (not checked) for a question without a typed answer (yes/no, why, how does …).

A question is declined when ``relevance < min_relevance``, ``missing`` is not empty or ``evidence`` is ``False``.
A yes/no question ("Is 3M a
capital-intensive business?", "Does … have a healthy liquidity profile?") asks for a judgement in the analyst's own
words, which the documents need not use: only its relevance counts. The thresholds are settings
(``answer_min_relevance``, ``gate_min_salient_idf``), tuned on the sample set (its measured table: docs/evaluation.md;
``bench/answerability.py`` prints it).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from prism.answering import acronyms
from prism.answering.evidence import duration_periods, holds_evidence
from prism.answering.reading.entities import ABBREVIATIONS as ENTITY_ABBREVIATIONS
from prism.index.tokenizer import tokenize
from prism.types import AnswerTarget, RetrievedChunk, SearchScope
from prism.types.reading import Reading
from prism.vocabulary import abbreviations, currencies

logger = logging.getLogger(__name__)

@dataclass(frozen=True)
class Answerability:
    """The gate's features for one question and its verdict.

    Attributes:
        relevance: best chunk's cosine + lexical weight · overlap, in [-1, 1 + w].
        coverage: IDF-weighted share of the question's tokens found in the top passages, in [0, 1].
        salient: the question's salient words (see the module docstring), in question order.
        missing: the salient words found in no top passage and rare in the workspace, in question order.
        answerable: the verdict.
        target: the question's expected answer type and focus (:attr:`prism.types.reading.Reading.target`),
            ``None`` for a question without one.
        evidence: whether a sentence or table row holds the focus with a value of that type (``None``: no target).
    """

    relevance: float
    coverage: float
    salient: tuple[str, ...]
    missing: tuple[str, ...]
    answerable: bool
    target: AnswerTarget | None = None
    evidence: bool | None = None

    def features(self) -> dict[str, float | int]:
        """The named features (floats rounded to 3 decimals; ``evidence`` 1 held, 0 not held, -1 not checked)."""
        return {"relevance": round(self.relevance, 3), "coverage": round(self.coverage, 3),
                "salient": len(self.salient), "missing": len(self.missing),
                "evidence": -1 if self.evidence is None else int(self.evidence)}

    @property
    def reason(self) -> str:
        """Why the evidence check declines ("no sentence or table row of the closest passages gives a count of
        “ATMs”."), ``""`` when it does not."""
        if self.evidence is not False or self.target is None:
            return ""
        kind = {"count": "a count", "quantity": "a figure", "person_or_org": "a name"}[self.target.answer_type]
        periods = " and ".join(p.text for p in self.target.periods)
        return (f"no sentence or table row of the closest passages gives {kind} for “{' '.join(self.target.focus)}”"
                + (f" in {periods}" if periods else "") + ".")


def _period_forms(word: str) -> list[str]:
    """The index tokens that state a fiscal period or year: ``FY25`` → ``fy25``, ``fy2025``, ``2025``; ``2019`` →
    ``2019``, ``fy2019``, ``fy19``; ``Q3`` → ``q3``."""
    w = word.lower()
    m = re.fullmatch(r"(?:fy)?(\d{2}|\d{4})", w)
    if not m:
        return [w]
    year = m.group(1) if len(m.group(1)) == 4 else "20" + m.group(1)
    return [w, f"fy{year}", f"fy{year[2:]}", year]


def _found(word: str, kind: str, tokens: set[str], texts: str) -> bool:
    """True when a passage has ``word``: its index token (a period in any of its forms; an abbreviation in capitals
    without its plural, "NBFCs" = "NBFC"), for a compound its words in sequence (the last in singular or plural) or
    its initials as an abbreviation ("loan-to-value" = "LTV"), for an abbreviation also the words it stands for
    (:func:`prism.answering.acronyms.mentioned`: "AMC" = "asset management company", "RBI" = "Reserve Bank of
    India", "PAT" = "net profit", "CEO" = "chief executive officer")."""
    if kind == "compound":
        parts = word.lower().split("-")
        if re.search(r"\b" + r"[\s-]*".join(map(re.escape, parts)) + r"(?:s|es)?\b", texts):
            return True
        initials = acronyms.initials_of([word]).lower()
        return len(initials) >= 3 and initials in tokens
    if kind == "period":
        return any(form in tokens for form in _period_forms(word))
    for form in dict.fromkeys((abbreviations.base(word), re.sub(r"['’]s?$", "", word))):  # "NQs" as written too
        whole = tokenize(form)
        if whole and whole[0] in tokens:
            return True
    return kind in ("acronym", "rare") and acronyms.mentioned(word, texts)


_CURRENCY_MARKS = currencies.PASSAGE_MENTION_RE
"""ISO 4217 code → how a passage states amounts in it (a question's "in USD millions" asks for a unit)."""


def _states_currency(code: str, chunks: Sequence[RetrievedChunk], texts: str) -> bool:
    """True when a passage's amounts are in currency ``code``: its chunk metadata (``table_currency``, the document
    profile's ``currency``) says so, or its text marks amounts that way ("$", "₹", "Rs.", "€", "£")."""
    if any(code in (c.metadata.get("table_currency"), c.metadata.get("currency")) for c in chunks):
        return True
    return re.search(_CURRENCY_MARKS[code], texts, re.IGNORECASE) is not None


def _quarter_missing(reading: Reading, texts: str) -> list[str]:
    """Quarters of a fiscal year the question names ("Q3 FY25") that no passage names as one phrase
    ("Q3 FY25", "Q3FY25", "Q3 FY2025")."""
    return [written for written, part, year in reading.quarters
            if not re.search(rf"\b{part}\s?fy\s?'?(?:20)?{year}\b", texts)]


def _passages(chunks: Sequence[RetrievedChunk]) -> tuple[set[str], str]:
    """The passages' index tokens and their lower-cased text. A passage is read with its document's name
    ("meridian_q2_fy25_earnings_call.pdf" says "in Q2" means Q2 FY25) and with the periods its durations name (a
    10-Q's "Six Months Ended June 30, 2024" column is H1 FY2024)."""
    passages = [f"{Path(c.source).stem.replace('_', ' ')}\n{c.text}\n{' '.join(duration_periods(c))}" for c in chunks]
    tokens: set[str] = set()
    for passage in passages:
        tokens.update(tokenize(passage))
    return tokens, "\n".join(p.lower() for p in passages)


def assess(
    reading: Reading,
    chunks: Sequence[RetrievedChunk],
    relevance: float,
    idf: Callable[[Sequence[str]], tuple[Mapping[str, float], float]],
    *,
    min_relevance: float,
    min_salient_idf: float,
) -> Answerability:
    """Score whether ``chunks`` (the top passages of a plain retrieval) answer the question.

    Args:
        reading: the question as read (its tokens, salient words, quarters, target, yes/no flag).
        chunks: the retrieved passages, best first.
        relevance: :func:`prism.answering.extractive.relevance` of the question and ``chunks``.
        idf: tokens → (token → BM25 IDF in the workspace, the largest possible IDF, which a token in no chunk gets)
            (:meth:`prism.retrieval.retriever.HybridRetriever.idf`).
        min_relevance: below it the question is declined.
        min_salient_idf: a missing salient word counts when its IDF is at least this share of the largest IDF,
            in [0, 1].

    Returns:
        :class:`Answerability`.
    """
    terms = sorted(reading.tokens)
    weights, unseen = idf(terms) if terms else ({}, 0.0)
    tokens, texts = _passages(chunks)
    total = sum(weights.get(t, 0.0) for t in terms)
    coverage = sum(weights.get(t, 0.0) for t in terms if t in tokens) / total if total > 0 else 1.0
    salient: list[str] = []
    missing: list[str] = []
    judgement = "polar" in reading.flags
    for word, kind in reading.salient:
        salient.append(word)
        whole = tokenize(re.sub(r"['’]s$", "", word).replace("-", ""))
        rarity, _ = idf(whole[:1]) if whole else ({}, 0.0)
        share = rarity.get(whole[0], unseen) / unseen if whole and unseen > 0 else 1.0
        if kind == "acronym" and word.upper() in _CURRENCY_MARKS and _states_currency(word.upper(), chunks, texts):
            continue
        if not judgement and share >= min_salient_idf and not _found(word, kind, tokens, texts):
            missing.append(word)
    if not judgement:
        missing.extend(q for q in _quarter_missing(reading, texts) if q not in missing)
    target = None if judgement else reading.target
    evidence = holds_evidence(target, chunks) if target is not None else None
    answerable = relevance >= min_relevance and not missing and evidence is not False
    verdict = Answerability(relevance, coverage, tuple(salient), tuple(missing), answerable, target, evidence)
    logger.info("answerability: %s -> %s", verdict.features(), "answer" if answerable else "decline")
    return verdict


NOT_FOUND = "NOT FOUND"
"""How an LLM reply that the blocks do not answer begins (the answer prompt asks for it); shown as a decline."""


def unnamed_decline(reading: Reading) -> str:
    """The decline of a figure question no quoted line names (:func:`names_a_mention`): what was looked for, in
    the periods asked ("… no sentence or table row of the closest passages names “NIM” in Q3 FY25. …"); ``""`` for
    any other question."""
    if reading.intent != "figure" or not reading.mentions:
        return ""
    named = " and ".join(f"“{m.text}”" for m in reading.mentions)
    periods = " and ".join(p.text for p in reading.periods)
    return (f"The documents in this workspace don't answer that: no sentence or table row of the closest passages "
            f"names {named}{f' in {periods}' if periods else ''}. Try other words, check the document filter, or "
            "add the document that covers it.")


def decline_message(query: str, sources: Sequence[str] | None, missing: Sequence[str] = (), reason: str = "",
                    scope: SearchScope | None = None) -> str:
    """What a decline says: that the documents do not answer, what was searched (the standalone query and where:
    the analyst's document filter, the auto-scope the question set, or all documents), the salient words of the
    question no close passage has, and where the closest passages are.

    Args:
        query: the standalone query searched.
        sources: the analyst's document filter (file names), or ``None``.
        missing: salient words of the question that no close passage mentions.
        reason: why the passages do not answer (a sentence), or "".
        scope: the scope the search ran in (``SearchResult.scope``); named when it came from the question.

    Example: "The documents in this workspace don't answer that. Searched for "What is the SWIFT charge?" in all
    documents; no close passage mentions: SWIFT. The closest passages are listed below so you can check."
    """
    scoped = not sources and scope is not None and scope.auto and bool(scope.documents)
    if sources:
        where = ", ".join(sources)
    elif scoped and scope is not None:
        named = " · ".join((*scope.entities, *scope.periods))
        where = "the scope the question names" + (f", {named}" if named else "") + f" ({', '.join(scope.documents)})"
    else:
        where = "all documents"
    parts = ["The documents in this workspace don't answer that" + (f": {reason.strip()}" if reason.strip() else ".")]
    found = "; no close passage mentions: " + ", ".join(missing) if missing else (
        "" if reason.strip() else "; nothing retrieved is close enough")
    parts.append(f'Searched for "{query}" in {where}{found}.')
    tries = "other words, another filter or a wider scope" if scoped else "other words or another filter"
    parts.append(f"The closest passages are listed below so you can check, or try {tries}.")
    return " ".join(parts)


_KNOWN_ACRONYMS = frozenset(k.upper() for k in abbreviations.ABBREVIATIONS) | frozenset(ENTITY_ABBREVIATIONS)
"""Finance's own abbreviations ("EBITDA", "NPA", "CASA"): a passage may state their figures without writing them."""


def unknown_acronyms(reading: Reading, verdict: Answerability) -> list[str]:
    """The acronyms of the question (its salient words of kind ``acronym``) that no top passage writes
    (``verdict.missing``) and that are not finance's own abbreviations: a name such as "SBI", which no figure read
    from these passages can be of."""
    missing = {m.lower() for m in verdict.missing}
    return [w for w, why in reading.salient if why == "acronym" and w.lower() in missing
            and not _KNOWN_ACRONYMS & {w.upper(), w.upper().rstrip("S")}]

"""Answers without an LLM, and the relevance gate that decides whether the documents answer at all.

* :func:`split_sentences` (:mod:`prism.index.sentences`, the one splitter, re-exported here) splits regulatory text
  into sentences (abbreviations such as ``Rs.``, ``No.``, ``i.e.`` and numbered clauses such as ``4.3.1`` / ``A.1``
  are respected; lines of a table stay apart).
* :func:`extractive_lines` / :func:`extractive_answer` pick the sentences of the top chunks that best answer the
  question. A sentence's score is ``cosine(sentence, question) + w · overlap + 0.3 · phrase`` (+ a bonus when it
  answers), where the cosine comes from the real
  embedder (both L2-normalised, so in [-1, 1]) and ``overlap`` ∈ [0, 1] is the share of the question's index tokens
  (:func:`prism.index.bm25.tokenize`) found in the sentence, ``phrase`` ∈ [0, 1] the share of its consecutive token
  pairs found consecutive in the sentence; ``w`` is ``settings.extractive_lexical_weight``. A bare
  table figure is quoted with the unit its table states ("$5,213 million"); each sentence's citation is structural.
* :func:`relevance` scores the best retrieved chunk the same way (cosine + ``w`` · overlap); below
  ``settings.answer_min_relevance`` the documents are taken not to answer (no LLM is called).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from prism.answering import acronyms
from prism.answering.citations import defuse_references
from prism.answering.evidence import UnitTest, gives_reason
from prism.answering.figures import with_digits
from prism.answering.reading.segments import names_segments, segments
from prism.answering.row_quotes import columns_of_chunk, with_columns
from prism.answering.rules import lead_with_verdict
from prism.answering.units import Block, with_units
from prism.index.embedder import PrismEmbedding
from prism.index.injection import find_injections
from prism.index.sentences import split_sentences
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods, is_period_code
from prism.types import PeriodMention, RetrievedChunk
from prism.types.reading import Reading

logger = logging.getLogger(__name__)

EXTRACTIVE_LABEL = "extractive answer (no LLM configured)"


@dataclass(frozen=True)
class ScoredSentence:
    """A candidate sentence: the block ``n`` it comes from, its position there, and its score parts."""

    n: int
    position: int
    text: str
    cosine: float
    overlap: float
    score: float
    answers: bool = False
    """Whether the sentence holds the question's focus with a value of its answer type
    (:class:`prism.answering.evidence.UnitTest`)."""


PHRASE_WEIGHT = 0.3
"""Weight of the phrase overlap: the share of the question's consecutive index-token pairs that the sentence also
holds consecutively ("Qdoba evaluation consulting costs" in "Qdoba Evaluation consulting costs are primarily related
to …"), so the sentence that restates the question's own wording outranks one that only shares its words. Chosen on
TAT-QA dev (docs/evaluation.md)."""


def _pairs(tokens: Sequence[str]) -> set[tuple[str, str]]:
    return set(zip(tokens, tokens[1:], strict=False))


ANSWER_BONUS = 0.2
"""Added to the score of a sentence that holds the question's focus with a value of its expected answer type (a figure
for "what is the rate …", a name for "who is the CEO"): sentences are ranked by how well they answer, not by their
closeness to the question alone, since the closest sentence often only restates the question. Chosen on the sample set
and TAT-QA dev (docs/evaluation.md)."""


FIGURE_WEIGHT = 0.3
"""Weight of the share of the question's own figures (amounts it states, not years: "between ₹10,001 and ₹25,000")
that a sentence states too: a band or threshold is asked by its figures, and the line that states them (the fee
table's "₹10,001 – ₹25,000 ₹950") is where its answer is, though it shares none of the question's words."""


def _figures(tokens: Sequence[str] | frozenset[str]) -> set[str]:
    """The index tokens that are figures (a digit in them), less years (1900–2099)."""
    return {t for t in tokens if any(ch.isdigit() for ch in t)
            and not (t.isdigit() and len(t) == 4 and t[:2] in ("19", "20"))}


def _entity_tokens(chunks: Sequence[RetrievedChunk]) -> set[str]:
    return {t for c in chunks for t in tokenize(str(c.metadata.get("entity") or ""))}


_NOT_AN_ANSWER = re.compile(
    r"\s*(?:(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+(?:[A-Z][^.!?:;\n]{0,60}|[A-Z][\w’'-]*(?:\s+[\w’'()-]+){0,2}\.)"
    r"|(?:Moderator|Operator)\s*:.*|.*\?[\s\"”’')\]]*"
    r"|.*(?:\.\s?){4,}\s*[\dA-Za-z]{0,4}[\s.]*)$",
    re.DOTALL)
"""Sentences that answer nothing: a numbered heading ("4. Transaction Limits"; with a full stop, three words at most:
"4.3.1 Cooling period."), a call's logistics ("Moderator: On behalf of Meridian Bank Ltd, that concludes this
conference."), a question (an analyst's on a call: "What is your microfinance exposure?", which shares every word
of the analyst's own) and a line of a table of contents, its dot leaders running to a page number ("11 J. Penal
interest for wrong claims of Agency Commission ........ 14"). Left out of the candidates unless nothing else is
there."""


_SMALL_WORDS = frozenset({"of", "and", "the", "for", "on", "in", "to", "a", "an", "by", "at", "with", "under", "or"})


def title_line(sentence: str) -> bool:
    """Whether ``sentence`` is a title or heading line, not a statement: three words or more, at most fifteen, in
    title case (every word but the small ones, "of", "and" …, capitalised), no number but a year, and no closing
    stop ("Issuance of Foreign Exchange Management (Authorised Persons) Regulations, 2026"). A table row ("Revenue
    1,234 1,102") has figures, so it is never one."""
    text = sentence.rstrip("…").strip()
    if not text or text[-1] in ".!?:;" or re.search(r"\d", re.sub(r"\b(?:19|20)\d\d\b", "", text)):
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text)
    content = [w for w in words if w.lower() not in _SMALL_WORDS]
    return 3 <= len(words) <= 15 and bool(content) and all(w[0].isupper() for w in content)


_ADDS_TO_BEFORE = re.compile(r"(?:In addition|Additionally|Also|Further(?:more)?|Moreover|Besides|Similarly|Likewise)\b"
                             r"\s*,?", re.IGNORECASE)
"""A sentence that opens by adding to the one before it ("In addition, we had approximately 11,000 employees at MGM
China."): it does not lead the answer when the sentence it adds to also answers (:func:`_lead`)."""


def _vector(reading: Reading, embedder: PrismEmbedding) -> np.ndarray:
    """The question's embedding: the reader's, else embedded now."""
    return reading.vector if reading.vector is not None else embedder.embed([reading.question])[0]


def _candidates(reading: Reading, chunks: Sequence[RetrievedChunk]) -> list[tuple[int, int, str]]:
    """``(block, position, sentence)`` of every distinct sentence :func:`score_sentences` may quote (its docstring
    says which are left out)."""
    candidates: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    for n, chunk in enumerate(chunks, start=1):
        flagged = find_injections(chunk.text)  # text addressed to an AI is never quoted
        for pos, s in enumerate(split_sentences(chunk.text)):
            key = s.lower()
            if key in seen or any(s in f or f in s for f in flagged):
                continue
            seen.add(key)
            candidates.append((n, pos, s))
    person = reading.target is not None and reading.target.answer_type == "person_or_org"  # "Vikram Nair, CEO"
    return [c for c in candidates
            if not _NOT_AN_ANSWER.match(c[2]) and (person or not title_line(c[2]))] or candidates


def score_sentences(
    reading: Reading,
    chunks: Sequence[RetrievedChunk],
    embedder: PrismEmbedding,
    lexical_weight: float = 0.3,
) -> list[ScoredSentence]:
    """Every distinct sentence of ``chunks`` (block ``n`` = position in ``chunks`` + 1), scored against the question.

    The lexical overlap counts an officer's abbreviation in the question by its title spelled out too ("CEO":
    "chief executive officer", :mod:`prism.vocabulary.titles`), so the signature line "Reed Hastings, Chief
    Executive Officer" answers "Who is Netflix's CEO?". A sentence that holds the question's focus with a value of
    its expected answer type gets :data:`ANSWER_BONUS`, and so does, for a question that asks for a cause (the
    reading's ``reason`` flag), a sentence that shares a word with it and states one
    (:func:`~prism.answering.evidence.gives_reason`). The share of the question's own figures the sentence states is
    weighted by :data:`FIGURE_WEIGHT`.

    Returns:
        Sentences best first (ties: lower ``n``, then earlier position). A sentence repeated in a later chunk
        (chunks overlap) is kept only at its first occurrence; headings and a call's logistics
        (:data:`_NOT_AN_ANSWER`), title lines (:func:`title_line`; not when a person or body is asked for) and,
        for a question asking for a cause or a description, the lines of a table
        chunk only when no other sentence is there; a sentence addressed to an AI assistant
        (:func:`prism.index.injection.find_injections`, OWASP LLM01:2025) never.
    """
    candidates = _candidates(reading, chunks)
    if not candidates:
        return []
    reason = "reason" in reading.flags
    if reason or "description" in reading.flags:  # a cause or a definition is prose, never a table's row
        candidates = [c for c in candidates if not chunks[c[0] - 1].metadata.get("table_id")] or candidates
    vectors = embedder.embed([s for _, _, s in candidates])
    cosines = vectors @ _vector(reading, embedder)
    q_tokens = set(reading.tokens | reading.title_tokens)  # "CEO" is met as "Chief Executive Officer"
    q_pairs = set(reading.pairs)  # the question's own words, not the context a follow-up carries
    q_figures = _figures(reading.tokens)
    target = reading.target
    test = UnitTest(target, _entity_tokens(chunks)) if target is not None else None
    scored = []
    for (n, pos, s), cos in zip(candidates, cosines, strict=True):
        chunk = chunks[n - 1]
        s_tokens = tokenize(" ".join([s, *_table_words(chunk)]))  # a table line is named by its columns too
        overlap = len(q_tokens & set(s_tokens)) / len(q_tokens) if q_tokens else 0.0
        phrase = len(q_pairs & _pairs(s_tokens)) / len(q_pairs) if q_pairs else 0.0
        table = _table_words(chunk)
        answers = test is not None and test.answers(s, " ".join([Path(chunk.source).stem.replace("_", " "), *table]),
                                                    bool(table), period_texts=[str(chunk.metadata.get("period") or "")])
        answers = answers or (reason and overlap > 0 and gives_reason(s))
        stated = len(q_figures & set(s_tokens)) / len(q_figures) if q_figures else 0.0
        score = (float(cos) + lexical_weight * overlap + PHRASE_WEIGHT * phrase + FIGURE_WEIGHT * stated
                 + (ANSWER_BONUS if answers else 0.0))
        scored.append(ScoredSentence(n, pos, s, float(cos), overlap, score, answers))
    scored.sort(key=lambda x: (-x.score, x.n, x.position))
    return scored


def _mark_fragment(sentence: ScoredSentence, chunk_text: str) -> str:
    """The sentence with "…" where the chunk cut it: a first sentence starting in lower case, or a last sentence
    without closing punctuation (chunks are cut at ~500 characters, not always at a sentence end)."""
    text = sentence.text
    if sentence.position == 0 and text[:1].islower():
        text = "…" + text
    if sentence.position == len(split_sentences(chunk_text)) - 1 and not re.search(r"[.!?:;)\]”\"'।]$", text):
        text = text + "…"
    return text


def _lead(best: ScoredSentence, scored: Sequence[ScoredSentence]) -> ScoredSentence:
    """The sentence that leads the answer: ``best``, unless it opens by adding to the sentence before it in its
    block (:data:`_ADDS_TO_BEFORE`) and that sentence answers too; then that one, which the addition follows
    ("55,000 full-time and 17,000 part-time employees domestically" before "In addition, … 11,000 employees at MGM
    China")."""
    if not _ADDS_TO_BEFORE.match(best.text):
        return best
    before = next((s for s in scored if s.n == best.n and s.position == best.position - 1), None)
    return before if before is not None and before.answers else best


def _period_codes(mentions: Sequence[PeriodMention]) -> set[tuple[str, int | None, int]]:
    """``(kind, part, year)`` of the fiscal periods written as codes or quarters/halves ("Q3FY24", "FY2023", "the
    third quarter of fiscal 2024"); dates and bare years are left out (their fiscal year depends on the
    document)."""
    return {(m.kind, m.part, m.year) for m in mentions if m.kind in ("FY", "Q", "H")}


def _other_period(sentence: str, asked: set[tuple[str, int | None, int]]) -> bool:
    """Whether ``sentence`` states only fiscal periods other than the ones the question asks about ("In Q2 FY24 the
    EBITDA margin was 17.1 %" for "Q3 FY24 EBITDA margin"): such a line does not support the answer. ``False`` when
    the question names no fiscal period or the sentence states none."""
    if not asked:
        return False
    stated = _period_codes(find_periods(sentence))
    return bool(stated) and not stated & asked


def _table_words(chunk: RetrievedChunk) -> list[str]:
    """The title and column headers of a table chunk's table (``[]`` for prose): the words its lines are stated
    with ("P2P transfers ₹1,00,000" under "Per-transaction limit")."""
    return [str(chunk.metadata.get(k) or "") for k in ("table_title", "table_columns") if chunk.metadata.get(k)]


def names_a_mention(reading: Reading, sentence: str, chunk: RetrievedChunk) -> bool:
    """Whether ``sentence`` (read with its table's title and column headers, for a table line) names a word of one
    of the question's mentions (the runs naming figures or items; periods are not among them), states a figure
    the question states, or spells out an abbreviation the question writes ("net interest margin" for "NIM"):
    "What was the NIM in Q3 FY25?" is not answered by a UPI table's line "Q3 FY25 (Oct–Dec 2024) 203 2.71 28.5%
    0.63%". ``True`` for a question that names no figure or item."""
    words = {t for m in reading.mentions for t in m.tokens}
    if not words:
        return True
    text = " ".join([sentence, *_table_words(chunk)])
    tokens = set(tokenize(text))
    figures = {t for t in _figures(reading.tokens) if not is_period_code(t)}
    if words & tokens or figures & tokens:  # or the figures it asks by ("between ₹10,001 and ₹25,000")
        return True
    return any(why == "acronym" and acronyms.mentioned(word, text) for word, why in reading.salient)


def _naming(reading: Reading, scored: list[ScoredSentence], chunks: Sequence[RetrievedChunk]) -> list[ScoredSentence]:
    """``scored`` less the sentences that do not name what is asked: of a segment's figure, those not stating it for
    that segment; of a figure, those naming none of its mentions (:func:`names_a_mention`)."""
    if segments(reading):
        scored = [s for s in scored if s.answers and names_segments(s.text, reading)]
    if reading.intent == "figure":
        scored = [s for s in scored if names_a_mention(reading, s.text, chunks[s.n - 1])]
    return scored


def extractive_lines(
    reading: Reading,
    chunks: Sequence[RetrievedChunk],
    embedder: PrismEmbedding,
    *,
    max_sentences: int = 4,
    lexical_weight: float = 0.3,
    blocks: Sequence[Block] | None = None,
) -> list[tuple[str, int]]:
    """The sentences of ``chunks`` that best answer the question (as read), each with the block ``n`` it is quoted
    from.

    For a question asking a segment's figure (:func:`~prism.answering.reading.segments.segments`: "the gross NPA
    of the home loan segment") only sentences that answer and name the segment are quoted.
    The best ``max_sentences`` sentences scoring at least half the best score are kept; the best-scoring one that
    answers (:attr:`ScoredSentence.answers`; the best-scoring one when none does) leads, unless it adds to the
    sentence before it and that one answers too (:func:`_lead`: then that one leads), and the others (less a line
    stating only fiscal periods the question does not ask about: :func:`_other_period`) follow in
    reading order (block ``n``, then position), those that answer first; a sentence contained in a kept longer
    one is dropped. With ``blocks`` (the :class:`~prism.answering.units.Block` of each chunk), a bare table figure
    is quoted with its block's unit and currency (:func:`~prism.answering.units.with_units`: "Net sales $ 5,213"
    under "(In millions)" → "Net sales $5,213 million"), and a table row of a block without a unit is written with
    its columns' headers (:func:`~prism.answering.row_quotes.with_columns`: "P2M – general merchants — Per
    transaction: ₹1,00,000; …"). A figure written in words is stated in digits first
    (:func:`~prism.answering.figures.with_digits`: "₹15 crore (fifteen crore rupees)").

    A yes/no question about a rule is led by the Yes or No the rule's sentence gives
    (:func:`~prism.answering.rules.lead_with_verdict`).

    Returns:
        ``[(sentence, n)]``, the best answering sentence first; empty when the chunks hold no
        sentence. The citation of each sentence is this structure, never re-read from the text: a "[2]" the
        document itself writes is quoted as ``[ref 2]`` (:func:`~prism.answering.citations.defuse_references`), so
        it never reads as a citation.
    """
    scored = _naming(reading, score_sentences(reading, chunks, embedder, lexical_weight), chunks)
    if not scored:
        return []
    floor = scored[0].score * 0.5 if scored[0].score > 0 else scored[0].score
    chosen: list[ScoredSentence] = []
    for s in scored:
        if len(chosen) >= max_sentences or s.score < floor:
            break
        if any(s.text in c.text or c.text in s.text for c in chosen):
            continue
        chosen.append(s)
    best = _lead(next((s for s in chosen if s.answers), chosen[0]), scored)  # chosen is best first
    if best not in chosen:
        chosen = [best, *chosen[:max_sentences - 1]]
    asked = _period_codes(reading.periods)
    rest = sorted((s for s in chosen if s is not best and not _other_period(s.text, asked)),
                  key=lambda s: (not s.answers, s.n, s.position))
    chosen = [best, *rest]  # the best answering sentence leads (the analyst reads the first line), the others follow
    lines = [(_quote(s, chunks[s.n - 1], blocks[s.n - 1] if blocks else None), s.n) for s in chosen]
    return lead_with_verdict(reading.flags, lines)


def _quote(s: ScoredSentence, chunk: RetrievedChunk, block: Block | None) -> str:
    """One sentence as quoted: a whole table row with its columns' headers, else with its block's unit."""
    row = with_columns(s.text, columns_of_chunk(chunk), block.unit if block else None)
    if row != s.text:
        return defuse_references(with_digits(row))
    quoted = replace(s, text=defuse_references(with_digits(with_units(s.text, block) if block else s.text)))
    return _mark_fragment(quoted, chunk.text)


def quoted_line(text: str, n: int) -> str:
    """``"- sentence [n]"``: one line of an extractive answer quoting a document, the document's own bracketed
    numbers written ``[ref 2]`` (:func:`~prism.answering.citations.defuse_references`) so only ``[n]`` is a marker."""
    return f"- {defuse_references(text)} [{n}]"


def format_extractive(lines: Sequence[tuple[str, int]], label: str = EXTRACTIVE_LABEL) -> str:
    """``"<Label>:"`` followed by one :func:`quoted_line` per ``(sentence, n)``; "" without lines."""
    if not lines:
        return ""
    heading = label[:1].upper() + label[1:]
    return f"{heading}:\n\n" + "\n".join(quoted_line(text, n) for text, n in lines)


def extractive_answer(reading: Reading, chunks: Sequence[RetrievedChunk], embedder: PrismEmbedding, *,
                      label: str = EXTRACTIVE_LABEL, **options: Any) -> tuple[str, list[int]]:
    """:func:`extractive_lines` (``options``: ``max_sentences``, ``lexical_weight``, ``blocks``) written out by
    :func:`format_extractive`.

    Returns:
        ``(text, cited_block_numbers)``; text is ``"<Label>:"`` followed by one ``- sentence [n]`` line each, or
        ``("", [])`` when the chunks hold no sentence.
    """
    lines = extractive_lines(reading, chunks, embedder, **options)
    return format_extractive(lines, label), sorted({n for _, n in lines})


def relevance(
    reading: Reading, chunks: Sequence[RetrievedChunk], embedder: PrismEmbedding,
    lexical_weight: float = 0.3, stored: Mapping[str, np.ndarray] | None = None,
) -> float:
    """How well the best chunk matches the question: ``max over chunks of cosine + lexical_weight · overlap``.

    ``cosine`` ∈ [-1, 1] is between the question and the chunk's text (real embedder), ``overlap`` ∈ [0, 1] the share
    of the question's index tokens found in the chunk, so the result is in [-1, 1 + lexical_weight]; ``-1.0``
    without chunks. The lexical term rescues table chunks whose wording embeds poorly ("locker rent" vs a fee table).
    The reading brings the question's vector (embedded once per question, by the reader); ``stored`` (chunk id →
    the vector the store holds, :meth:`prism.retrieval.retriever.HybridRetriever.vectors`) is used instead of
    embedding a chunk again.
    """
    if not chunks:
        return -1.0
    stored, q_tokens, best = stored or {}, set(reading.tokens), -1.0
    missing = [c.text for c in chunks if c.chunk_id not in stored]
    fresh = iter(embedder.embed(missing)) if missing else iter(())
    vectors = np.stack([stored[c.chunk_id] if c.chunk_id in stored else next(fresh) for c in chunks])
    cosines = vectors @ _vector(reading, embedder)
    for chunk, cos in zip(chunks, cosines, strict=True):
        overlap = len(q_tokens & set(tokenize(chunk.text))) / len(q_tokens) if q_tokens else 0.0
        best = max(best, float(cos) + lexical_weight * overlap)
    return best

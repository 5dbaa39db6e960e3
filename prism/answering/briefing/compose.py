"""Document briefings: what a document is, its key figures or rules, what it covers, each point citing its pages;
and three questions it answers.

Offline (no LLM), the bullets are, in order (:mod:`prism.answering.briefing.facts`): the document's identity (its
profile), an earnings release's headline figures (:mod:`prism.answering.briefing.headlines`: revenue, operating
income, net income, diluted EPS, each with its period and change, then its guidance) or else the key figures of a
filing's statements (table rows: label, latest period, unit), a circular's operative
rules (:mod:`prism.answering.briefing.rules`: who must do what, with its figure or date, best first), its
applicability, effective date, a key limit and a penalty (the last two left out first when there are more than
:data:`MAX_BULLETS` facts), its section headings, and then, up to
:data:`MAX_BULLETS`, its most *central* sentences: each candidate sentence is embedded (real embedder,
L2-normalised) and scored by its mean cosine to the document's other candidates, ``(v_i · Σ_j v_j − 1) / (n − 1)``
(degree centrality on the cosine graph, as in LexRank without the threshold: Erkan & Radev, JAIR 2004). No two
bullets say the same thing: a bullet whose cosine to an earlier one is :data:`DUPLICATE_COSINE` or more is dropped.
A circular's central sentences skip its boilerplate (a covering letter's "a copy is enclosed", addresses).

The questions are asked as the analyst would ask them in the Chat (the whole workspace): a filing's key figures
("What were Netflix's revenues for FY2015?"), a circular's applicability and effective date and its headings ("What
does the UPI operating circular say about transaction limits?"), each naming its document; only well-formed ones
are kept (:func:`well_formed`).

With an LLM (:mod:`prism.answering.briefing.llm`) the LLM rewrites the bullets from the same facts and keeps their
citations; its questions are kept when well-formed, topped up with the offline ones. The service stores the result
in the document's record (``DocumentRecord.briefing``); a failure here never blocks ingestion.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from prism.answering.briefing.circulars import agrees, circular_facts
from prism.answering.briefing.facts import DocumentText, Fact, document_text, identity_fact, key_figures
from prism.answering.briefing.headlines import headline_facts
from prism.answering.briefing.llm import BRIEFING_TASK, briefing_prompt, cite_bullets, parse_briefing
from prism.answering.briefing.rules import is_boilerplate, is_circular, locate, rule_facts, rule_sentences
from prism.answering.briefing.sections import section_headings, sections_fact
from prism.answering.briefing.topics import (
    REFERENCE_ENTRY,
    document_subject,
    key_terms,
    subject_topic,
    term_phrase,
    topic,
)
from prism.answering.citations import data_messages
from prism.answering.llm import LLMClient
from prism.answering.units import without_parentheses
from prism.config import Settings
from prism.errors import DocumentNotFoundError, LLMError
from prism.index.embedder import PrismEmbedding
from prism.index.sentences import split_sentences
from prism.index.tokenizer import tokenize
from prism.index.workspaces import Workspace
from prism.types import BriefingBullet, BulletCitation, DocumentProfile, DocumentRecord

logger = logging.getLogger(__name__)

MAX_BULLETS = 8
"""Most bullets of a briefing."""
MIN_BULLETS = 5
"""Bullets besides the identity line that a briefing is topped up to with central sentences when its facts give
fewer."""
N_QUESTIONS = 3
"""Suggested questions per briefing."""
DUPLICATE_COSINE = 0.9
"""Two bullets whose embeddings have this cosine or more say the same thing; the later one is dropped."""


@dataclass
class Briefing:
    """A document's briefing; ``to_dict`` is what the registry stores and ``docs --json`` prints.

    Attributes:
        bullets: up to :data:`MAX_BULLETS` points, each citing its pages.
        questions: up to 3 questions the document answers, well-formed.
        mode: ``llm`` or ``extractive``.
        model: the LLM that wrote it (``None`` offline).
        note: why the offline path was used despite an LLM (a failed or unusable reply), else ``None``.
        question_pages: for each question, the pages it was made from (a fact's, a heading's); ``[]`` for an LLM's
            question.
    """

    bullets: list[BriefingBullet] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    mode: str = "extractive"
    model: str | None = None
    note: str | None = None
    question_pages: list[list[int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """``{"bullets": [{"text", "citations": [{"page", "chunk_id"}], "kind"}], "questions", "question_pages",
        "mode", "model", "note"}``."""
        return {"bullets": [b.to_dict() for b in self.bullets], "questions": list(self.questions),
                "question_pages": [list(p) for p in self.question_pages], "mode": self.mode, "model": self.model,
                "note": self.note}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Briefing:
        """Inverse of :meth:`to_dict`; an older briefing (bullets as strings) has no citations."""
        return cls([BriefingBullet.from_value(b) for b in data.get("bullets") or ()],
                   [str(q) for q in data.get("questions") or ()], str(data.get("mode") or "extractive"),
                   data.get("model"), data.get("note"), [list(p) for p in data.get("question_pages") or ()])

ALWAYS_KEPT = frozenset({"identity", "headline", "guidance"})
"""Bullet kinds never dropped as near-duplicates: each states a different figure in the same words ("Operating
income (Q2 FY2025): …" and "Net income (Q2 FY2025): …" embed alike)."""


# --- well-formed questions and distinct bullets -----------------------------------------------------------------
_QUESTION_RE = re.compile(r"^(?:What|Who|Whom|When|Which|How|Where|Why|Is|Are|Does|Do|Did|Can|To)\b[^?]*\?$")


def well_formed(suggestion: str) -> bool:
    """True for a suggested question an analyst can click: it opens with a question word, ends with one ``?``, has 4
    to 30 words and balanced brackets and quotes."""
    q = suggestion.strip()
    balanced = q.count("(") == q.count(")") and q.count("[") == q.count("]") and q.count('"') % 2 == 0
    return bool(_QUESTION_RE.match(q)) and 4 <= len(q.split()) <= 30 and balanced


def distinct_bullets(bullets: Sequence[BriefingBullet], embedder: PrismEmbedding,
                     threshold: float = DUPLICATE_COSINE, vectors: np.ndarray | None = None) -> list[BriefingBullet]:
    """``bullets`` in order without any whose embedding cosine to an earlier kept one is ``threshold`` or more
    (the earlier one is kept); a bullet of a kind in :data:`ALWAYS_KEPT` is always kept. ``vectors``: the bullets'
    L2-normalised embeddings, float32 ``(len(bullets), dim)``, when already computed."""
    if len(bullets) < 2:
        return list(bullets)
    if vectors is None:
        vectors = embedder.embed([b.text for b in bullets])
    kept: list[int] = []
    for i in range(len(bullets)):
        if bullets[i].kind in ALWAYS_KEPT or not kept or float(np.max(vectors[kept] @ vectors[i])) < threshold:
            kept.append(i)
    return [bullets[i] for i in kept]


# --- central sentences ------------------------------------------------------------------------------------------
_FRAGMENT = re.compile(r"[a-z]|\d+\s+(?![A-Z])")
"""How a piece of a sentence that a line wrap cut off opens: a lower-case letter, or a bare number before anything
but a capital ("2016 (as updated from time to time) shall …", "21 and Section 35A …")."""


def candidate_sentences(text: str, max_sentences: int, rejoin: bool = False) -> list[str]:
    """Sentences fit for a bullet: 40-400 characters, at least 6 words, with lower-case letters, not opening as a
    fragment cut by a line wrap does (:data:`_FRAGMENT`), ending in a full
    stop (or ``!``/``?``), at most 15 % digits (not a table row or reference list), no entry of a reference list
    (:data:`~prism.answering.briefing.topics.REFERENCE_ENTRY`), no "Page n of m"; lines repeated
    on several pages (running headers and footers) are dropped; at most ``max_sentences``, spread evenly.
    ``rejoin`` (a circular's): a long sentence that the splitter cut at its line breaks is joined again first
    (:func:`prism.answering.briefing.rules.rule_sentences`), so its pieces are not lost as fragments."""
    lines = Counter(line.strip() for line in text.splitlines() if len(line.strip()) > 20)
    repeated = {line for line, n in lines.items() if n > 1}
    if repeated:  # running headers / footers, removed before they glue onto the next sentence
        text = "\n".join(line for line in text.splitlines() if line.strip() not in repeated)
    sentences = rule_sentences(text) if rejoin else split_sentences(text)
    counts = Counter(s.lower() for s in sentences)
    picked = []
    seen: set[str] = set()
    for s in sentences:
        key = s.lower()
        if counts[key] > 1 or key in seen:
            continue
        if not 40 <= len(s) <= 400 or len(s.split()) < 6 or not re.search(r"[a-z]{3}", s) or _FRAGMENT.match(s) \
                or REFERENCE_ENTRY.match(s):
            continue
        digits = sum(c.isdigit() for c in s)
        if digits > 0.15 * len(s) or not re.search(r"[.!?][\"'”’)]*$", s) or re.search(r"Page \d+ of \d+", s):
            continue  # table rows, reference lists, page furniture
        seen.add(key)
        picked.append(s)
    if len(picked) > max_sentences:
        idx = np.linspace(0, len(picked) - 1, max_sentences).round().astype(int)
        picked = [picked[i] for i in sorted(set(idx.tolist()))]
    return picked


def centrality_order(vectors: np.ndarray) -> list[int]:
    """Indices of ``vectors`` (L2-normalised rows) by mean cosine to the other rows, highest first (ties: earlier):
    ``(v_i · Σ_j v_j − 1) / (n − 1)``."""
    n = len(vectors)
    if n < 2:
        return list(range(n))
    centrality = (vectors @ vectors.sum(axis=0) - 1.0) / (n - 1)
    return sorted(range(n), key=lambda i: (-float(centrality[i]), i))


def _with_points(bullets: list[BriefingBullet], doc: DocumentText, embedder: PrismEmbedding,
                 max_sentences: int, circular: bool = False) -> list[BriefingBullet]:
    """``bullets`` (duplicates dropped) topped up to :data:`MIN_BULLETS` besides the identity line with the
    document's most central sentences (in document order, each cited at its page; for a ``circular``, none that is
    boilerplate: :func:`prism.answering.briefing.rules.is_boilerplate`); one embedding call for all."""
    identity = int(any(b.kind == "identity" for b in bullets))
    enough = len(bullets) >= MIN_BULLETS + identity
    sentences = [] if enough else candidate_sentences(doc.text, max_sentences, rejoin=circular)
    if circular:  # a covering letter's lines ("A copy of the revised Master Circular is enclosed …")
        sentences = [s for s in sentences if not is_boilerplate(s)]
    # a circular's sentence that spans lines is found across its line breaks (the splitter joined them)
    found = [(s, locate(doc.text, s, 0) if circular and s not in doc.text else doc.text.find(s)) for s in sentences]
    found = [(s, at) for s, at in found if at >= 0]
    if len(bullets) + len(found) < 2:
        return bullets + [BriefingBullet(" ".join(s.split()), (doc.citation(at),)) for s, at in found]
    vectors = embedder.embed([b.text for b in bullets] + [" ".join(s.split()) for s, _at in found])
    order = centrality_order(vectors[len(bullets):])
    keep = list(range(len(bullets))) + sorted(len(bullets) + i for i in order[: MIN_BULLETS + 2])
    pool = bullets + [BriefingBullet(" ".join(s.split()), (doc.citation(at),)) for s, at in found]
    chosen = distinct_bullets([pool[i] for i in keep], embedder, vectors=vectors[keep])
    n_facts = sum(1 for b in chosen if b.kind != "point")
    return chosen[: max(MIN_BULLETS + identity, n_facts)][:MAX_BULLETS]


# --- questions --------------------------------------------------------------------------------------------------
def suggested_questions(facts: Sequence[Fact], headings: Sequence[tuple[str, BulletCitation]], subject: str,
                        terms: Sequence[tuple[str, BulletCitation]] = (), entity: str = "",
                        n: int = N_QUESTIONS) -> list[tuple[str, list[int]]]:
    """``n`` well-formed questions with the pages each came from: those of the facts (key figures; a circular's
    applicability and effective date), then one per heading spread over the document ("What does the {subject} say
    about {heading}?"), then one per key phrase (``terms``, for a document without headings; none made only of words
    of the subject or of ``entity``, the document's entity, nor one that repeats a word)."""
    candidates = [(q, f.bullet.pages() if f.question_pages is None else list(f.question_pages))
                  for f in facts for q in f.questions]
    if len(headings) > n:
        idx = np.linspace(0, len(headings) - 1, n).round().astype(int)
        headings = [headings[i] for i in sorted(set(idx.tolist()))]
    does = agrees(subject)
    candidates += [(f"What {does} the {subject} say about {topic(_unbracketed(h))}?", _page_list(c))
                   for h, c in headings]
    words = set(subject.lower().split()) | set(entity.lower().replace(",", " ").split())
    candidates += [(f"What {does} the {subject} say about {term_phrase(t)}?", _page_list(c)) for t, c in terms
                   if not set(t.lower().split()) <= words and len(set(t.lower().split())) == len(t.split())]
    out: dict[str, list[int]] = {}
    seen: set[tuple[str, ...]] = set()
    for question, pages in candidates:
        key = tuple(tokenize(question))  # "category bank" and "category banks" ask the same
        if well_formed(question) and key not in seen and len(out) < n:
            out[question] = pages
            seen.add(key)
    return list(out.items())


def _unbracketed(title: str) -> str:
    """A heading without its bracketed parts ("Reserve for Exchange Rate Fluctuations Account (RERFA)" → "Reserve
    for Exchange Rate Fluctuations Account"): an acronym a passage does not spell out would decline the question."""
    return without_parentheses(title) or title


def _page_list(citation: BulletCitation) -> list[int]:
    return [citation.page] if citation.page is not None else []


# --- building ---------------------------------------------------------------------------------------------------
def offline_briefing(rows: Sequence[dict[str, Any]], profile: DocumentProfile | None, embedder: PrismEmbedding,
                     max_sentences: int = 60, note: str | None = None) -> Briefing:
    """A briefing without an LLM (see the module docstring) from a document's chunk rows and profile."""
    facts, doc, subject, headings = briefing_facts(rows, profile)
    bullets = _with_points([f.bullet for f in facts][:MAX_BULLETS], doc, embedder, max_sentences,
                           is_circular(profile))
    terms = []
    if len(headings) < N_QUESTIONS:
        terms = [(t, doc.citation(max(0, doc.text.find(t)))) for t in key_terms(doc.text, 2 * N_QUESTIONS)]
    entity = (profile.entity or "") if profile else ""
    once = [h for h in headings if doc.text.count(h[0]) == 1]  # not in a table of contents, which would be cited
    questions = suggested_questions(facts, once if len(once) >= N_QUESTIONS else headings, subject, terms, entity)
    return Briefing(bullets, [q for q, _p in questions], "extractive", None, note, [p for _q, p in questions])


def briefing_facts(rows: Sequence[dict[str, Any]], profile: DocumentProfile | None
                   ) -> tuple[list[Fact], DocumentText, str, list[tuple[str, BulletCitation]]]:
    """``(facts in briefing order, the document's text, how questions name it, its headings)``."""
    doc = document_text(rows)
    subject = document_subject(doc.text, profile)
    found = section_headings(doc, profile)
    rules = rule_facts(doc, profile)
    about = subject_topic(doc.text) if rules else None
    if rules and about:  # the circular's rules asked for through its subject line's topic, answered from that line
        page = doc.citation(about[1]).page
        rules[0] = Fact(rules[0].bullet, (f"What {agrees(subject)} the {subject} say about {about[0]}?",),
                        (page,) if page is not None else ())
    said = {f.bullet.text for f in rules}
    circular = [f for f in circular_facts(doc, profile, subject) if f.bullet.text not in said
                and not any(f.bullet.text.endswith(r.bullet.text.rstrip(" …")) for r in rules)]
    headlines = headline_facts(rows, doc, profile)
    figures = headlines or key_figures(rows, profile)
    facts = [f for f in (identity_fact(profile), *figures, *rules, *circular, sections_fact(found)) if f is not None]
    for kind in _SPARE_KINDS:
        while len(facts) > MAX_BULLETS and any(f.bullet.kind == kind for f in facts):
            # a circular's limit, which its rule points say better, then its headings
            facts.pop(max(i for i, f in enumerate(facts) if f.bullet.kind == kind))
    return facts, doc, subject, found


_SPARE_KINDS = ("limit", "sections")
"""The facts left out first when a circular's facts are more than :data:`MAX_BULLETS` (its rule, applicability,
effective date and penalty are kept)."""


def make_briefing(source: str, rows: Sequence[dict[str, Any]], profile: DocumentProfile | None, *,
                  embedder: PrismEmbedding, llm: LLMClient | None = None, max_chars: int = 12_000,
                  max_sentences: int = 60) -> Briefing:
    """Brief one document.

    Args:
        source: the document's file name (shown to the LLM).
        rows: its stored chunk rows (``text``, ``char_start``, ``char_end``, ``page_start``, ``chunk_id``, ``table``).
        profile: its profile (corrections applied), or ``None``.
        embedder: the real embedder (central sentences, duplicate bullets, citing an LLM's bullets).
        llm: the LLM, or ``None`` for the offline briefing.
        max_chars: characters of the document's opening sent to the LLM.
        max_sentences: candidate sentences scored for central points.

    Returns:
        The LLM's briefing, or the offline one (with ``note`` saying why when an LLM was configured). Never raises
        for LLM failures.
    """
    offline = offline_briefing(rows, profile, embedder, max_sentences)
    if llm is None:
        return offline
    prompt = briefing_prompt(source, offline.bullets, document_text(rows).text[:max_chars])
    try:
        reply = llm.chat(data_messages(BRIEFING_TASK, prompt))
    except LLMError as exc:
        logger.warning("briefing call failed (%s); offline briefing", type(exc).__name__)
        offline.note = f"The LLM briefing failed: {exc}"
        return offline
    parsed = parse_briefing(reply, MAX_BULLETS, N_QUESTIONS)
    if parsed is None or not offline.bullets:
        logger.warning("briefing reply was not usable JSON; offline briefing")
        offline.note = "The LLM's briefing was not usable JSON; this one is extractive."
        return offline
    items, questions = parsed
    bullets = distinct_bullets(cite_bullets(items, offline.bullets, embedder), embedder)
    pages: dict[str, list[int]] = {q: [] for q in questions if well_formed(q)}
    pages |= dict(zip(offline.questions, offline.question_pages, strict=True))
    chosen = list(pages)[:N_QUESTIONS]
    return Briefing(bullets, chosen, "llm", llm.model, None, [pages[q] for q in chosen])


def brief_document(workspace: Workspace, doc_id: str, *, embedder: PrismEmbedding, llm: LLMClient | None,
                   settings: Settings) -> Briefing:
    """Brief one committed document from its stored chunk rows and profile, and store the briefing on its record.

    Raises:
        DocumentNotFoundError: ``doc_id`` is not committed in ``workspace``.
    """
    record = workspace.find(doc_id)
    if record is None:
        raise DocumentNotFoundError(f"Document {doc_id[:12]} is not in workspace '{workspace.name}'.")
    brief = make_briefing(record.source, workspace.read_chunks(doc_id), record.effective_profile(),
                          embedder=embedder, llm=llm, max_chars=settings.briefing_max_chars,
                          max_sentences=settings.briefing_max_sentences)
    workspace.update_record(doc_id, briefing=brief.to_dict())
    logger.info("briefing (%s) stored for %s", brief.mode, doc_id[:12])
    return brief


# --- export -----------------------------------------------------------------------------------------------------
def briefing_markdown(record: DocumentRecord, title: str | None = None) -> str:
    """The document's briefing as Markdown: a heading (``title``, the display title the facade gives, or the file
    name), the file name when it differs, its profile line, the points with their pages ("(p. 38)", "(pp. 1, 4)")
    and the suggested questions; document text is escaped so that it stays text (``*``, ``_``, `` ` ``, ``#``,
    ``<`` …). A document without a briefing says so."""
    lines = [f"# Briefing: {_escape(title or record.source)}", ""]
    if title and title != record.source:
        lines += [f"File: {_escape(record.source)}", ""]
    profile = record.effective_profile()
    if profile is not None and profile.line():
        lines += [_escape(profile.line()), ""]
    if not record.briefing:
        return "\n".join([*lines, "No briefing was written for this document.", ""])
    brief = Briefing.from_dict(record.briefing)
    lines += ["## Key points", ""] + [f"- {f'**{b.label()}:** ' if b.label() else ''}{_escape(b.text)}"
                                      f"{b.pages_note()}" for b in brief.bullets]
    if brief.questions:
        lines += ["", "## Questions to ask", ""] + [f"- {_escape(q)}" for q in brief.questions]
    source = f"written by {brief.model}" if brief.mode == "llm" and brief.model else "built without an LLM"
    return "\n".join([*lines, "", f"_Briefing {_escape(source)}; pages are the PDF's pages._", ""])


def _escape(text: str) -> str:
    """Markdown's special characters escaped with a backslash (CommonMark: any ASCII punctuation may be)."""
    return re.sub(r"([\\`*_\[\]<>#|~$])", r"\\\1", text)

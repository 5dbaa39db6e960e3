"""Document briefings: 5 key bullets and 3 suggested questions per newly ingested document.

With an LLM the document (its first ``briefing_max_chars`` characters) is summarised as JSON; the reply is parsed
tolerantly (code fences and text around the JSON are ignored). Without an LLM, or when the reply is unusable, the
briefing is built offline:

* bullets: the 5 most *central* sentences: each candidate sentence is embedded (real embedder, L2-normalised) and
  scored by its mean cosine to the document's other candidate sentences, ``(v_i · Σ_j v_j − 1) / (n − 1)``
  (degree centrality on the cosine graph, as in LexRank without the threshold: Erkan & Radev, JAIR 2004); shown in
  document order;
* questions: built from the document's headings (numbered clauses, "Annexure A – …", "Table 6 – …"), or from its
  most frequent key terms when it has too few headings.

The service stores the result in the document's registry record (``DocumentRecord.briefing``); a failure here never
blocks ingestion.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from prism.answering.extractive import split_sentences
from prism.answering.llm import LLMClient
from prism.answering.prompts import BRIEFING_PROMPT, fence
from prism.config import Settings
from prism.errors import DocumentNotFoundError, LLMError
from prism.index.embedder import PrismEmbedding
from prism.index.tokenizer import STOP_WORDS, tokenize
from prism.index.workspaces import Workspace

logger = logging.getLogger(__name__)

N_BULLETS = 5
N_QUESTIONS = 3


@dataclass
class Briefing:
    """A document's briefing; ``to_dict`` is what the registry stores.

    Attributes:
        bullets: up to 5 key facts (sentences).
        questions: up to 3 questions the document answers.
        mode: ``llm`` or ``extractive``.
        model: the LLM that wrote it (``None`` offline).
        note: why the offline path was used despite an LLM (a failed or unusable reply), else ``None``.
    """

    bullets: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    mode: str = "extractive"
    model: str | None = None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"bullets", "questions", "mode", "model", "note"}``."""
        return asdict(self)


# --- JSON -------------------------------------------------------------------------------------------------------
def extract_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text``: code fences and any text before or after it are ignored; ``None`` when
    there is no parseable object."""
    if not text:
        return None
    fenced = re.findall(r"```(?:json|JSON)?\s*(.*?)```", text, flags=re.DOTALL)
    candidates = [*fenced, text]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        for m in re.finditer(r"\{", candidate):
            try:
                obj, _end = decoder.raw_decode(candidate, m.start())
            except json.JSONDecodeError:
                continue
            if isinstance(obj, dict):
                return obj
    return None


def _strings(value: Any, limit: int) -> list[str]:
    if not isinstance(value, list):
        return []
    items = [" ".join(str(v).split()) for v in value if isinstance(v, str | int | float)]
    items = [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", v) for v in items]
    return [v for v in items if v][:limit]


def parse_briefing(text: str) -> tuple[list[str], list[str]] | None:
    """``(bullets, questions)`` from an LLM reply, or ``None`` when it has no object with at least one bullet
    (``"bullets"``) and one question (``"questions"``). At most 5 bullets and 3 questions are kept."""
    obj = extract_json_object(text)
    if obj is None:
        return None
    bullets = _strings(obj.get("bullets"), N_BULLETS)
    questions = _strings(obj.get("questions"), N_QUESTIONS)
    if not bullets or not questions:
        return None
    return bullets, questions


# --- offline ----------------------------------------------------------------------------------------------------
def candidate_sentences(text: str, max_sentences: int) -> list[str]:
    """Sentences fit for a bullet: 40-400 characters, at least 6 words, with lower-case letters, ending in a full
    stop (or ``!``/``?``), at most 15 % digits (not a table row or reference list), no "Page n of m"; lines repeated
    on several pages (running headers and footers) are dropped; at most ``max_sentences``, spread evenly."""
    lines = Counter(line.strip() for line in text.splitlines() if len(line.strip()) > 20)
    repeated = {line for line, n in lines.items() if n > 1}
    if repeated:  # running headers / footers, removed before they glue onto the next sentence
        text = "\n".join(line for line in text.splitlines() if line.strip() not in repeated)
    sentences = split_sentences(text)
    counts = Counter(s.lower() for s in sentences)
    picked = []
    seen: set[str] = set()
    for s in sentences:
        key = s.lower()
        if counts[key] > 1 or key in seen:
            continue
        if not 40 <= len(s) <= 400 or len(s.split()) < 6 or not re.search(r"[a-z]{3}", s):
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


def central_sentences(sentences: Sequence[str], embedder: PrismEmbedding, k: int = N_BULLETS) -> list[str]:
    """The ``k`` sentences with the highest mean cosine to the others, in their original order (ties: earlier)."""
    if len(sentences) <= k:
        return list(sentences)
    vectors = embedder.embed(list(sentences))
    total = vectors.sum(axis=0)
    centrality = (vectors @ total - 1.0) / (len(sentences) - 1)
    order = sorted(range(len(sentences)), key=lambda i: (-float(centrality[i]), i))[:k]
    return [sentences[i] for i in sorted(order)]


_HEADING_RE = re.compile(
    r"^[ \t]*(?:(?:\d+(?:\.\d+)*\.?|Annex(?:ure)?\s+[A-Z0-9]+|Appendix\s+[A-Z0-9]+|Table\s+\d+|Chapter\s+[A-Z0-9]+"
    r"|Part\s+[A-Z0-9]+|Section\s+\d+)[ \t]*[–:.-]?[ \t]*)(?P<title>[A-Z][^\n]{3,80})$",
    re.MULTILINE,
)
_GENERIC_HEADINGS = frozenset({
    "introduction", "purpose", "purpose and scope", "scope", "definitions", "contents", "background", "general",
    "annex", "appendix", "applicability", "effective date", "effective date and review", "repeal",
    "repeal and saving", "master direction", "master directions", "references",
})


def headings(text: str) -> list[str]:
    """Heading titles of the document in order (numbered clauses, annexures, tables), unique; sentences (ending in a
    full stop, more than 12 words), titles cut by a line wrap (ending in a stop word), reference numbers (with
    ``/``) and generic titles ("Introduction", "Definitions") are left out."""
    found: list[str] = []
    seen: set[str] = set()
    for m in _HEADING_RE.finditer(text):
        title = " ".join(m.group("title").split()).strip(" :–-")
        words = title.split()
        if title.endswith(".") or len(words) > 12 or words[-1].lower() in STOP_WORDS or re.search(r"[/\\]", title):
            continue  # a sentence, a heading cut by a line wrap, or a reference number
        if sum(bool(re.fullmatch(r"[A-Za-z][a-z]{2,}\W*", w)) for w in words) < 1:
            continue
        if words[0][:1].islower() or words[0].lower() in STOP_WORDS:
            continue  # a sentence fragment ("The following instructions are being omitted"), not a title
        if re.search(r"\bNo\.\s*\d|\b(19|20)\d\d\b", title):
            continue  # a reference line ("A.P. (DIR Series) Circular No. 40 December 10, 2008")
        key = title.lower()
        if key in seen or key in _GENERIC_HEADINGS:
            continue
        seen.add(key)
        found.append(title)
    return found


def _topic(title: str) -> str:
    """A heading as a phrase inside a question: lower case except acronyms (``Submission of Balance Sheet`` →
    ``submission of balance sheet``, ``UPI Lite limits`` → ``UPI Lite limits`` keeps ``UPI``)."""
    words = [w if (w.isupper() and len(w) > 1) else w.lower() for w in title.split()]
    return " ".join(words).rstrip("?.")


def _term(term: str) -> str:
    """A key phrase inside a question: two capitalised words stay as written (a name: ``Vikram Nair``, ``Meridian
    Bank``); anything else is lower-cased except acronyms."""
    words = term.split()
    if len(words) == 2 and all(w[:1].isupper() for w in words):
        return term
    return _topic(term)


_UNIT_WORDS = frozenset({
    "crore", "crores", "lakh", "lakhs", "rupee", "rupees", "cent", "percent", "million", "billion", "thousand",
    "page", "pages", "para", "paragraph", "section", "table", "annex", "annexure", "shall", "also", "such", "would",
    "dated", "date", "year", "years", "month", "months", "days", "total",
})


def key_terms(text: str, k: int) -> list[str]:
    """The ``k`` most frequent key phrases: two-word phrases of content words seen at least twice first, then
    single content words; stop words, numbers and unit words (crore, lakh, per cent, section …) are ignored."""
    words = re.findall(r"[A-Za-z][A-Za-z-]{2,}", text)

    def content(w: str) -> bool:
        return w.lower() not in STOP_WORDS and w.lower() not in _UNIT_WORDS and len(w) > 3

    pairs: Counter[str] = Counter()
    pair_forms: dict[str, Counter[str]] = {}
    for a, b in zip(words, words[1:], strict=False):
        if content(a) and content(b):
            key = f"{a.lower()} {b.lower()}"
            pairs[key] += 1
            pair_forms.setdefault(key, Counter())[f"{a} {b}"] += 1
    out = [pair_forms[p].most_common(1)[0][0] for p, c in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
           if c >= 2][:k]
    surface: dict[str, Counter[str]] = {}
    for w in words:
        if not content(w):
            continue
        toks = tokenize(w)
        if len(toks) != 1:
            continue
        surface.setdefault(toks[0], Counter())[w] += 1
    ranked = sorted(surface.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    for _tok, forms in ranked:
        if len(out) >= k:
            break
        word = forms.most_common(1)[0][0]
        if not any(word.lower() in phrase.lower().split() for phrase in out):
            out.append(word)
    return out[:k]


def suggested_questions(text: str, n: int = N_QUESTIONS) -> list[str]:
    """``n`` questions from the document's headings (spread over the document), topped up from key terms."""
    titles = headings(text)
    if len(titles) > n:
        idx = np.linspace(0, len(titles) - 1, n).round().astype(int)
        titles = [titles[i] for i in sorted(set(idx.tolist()))]
    questions = [f"What does the document say about {_topic(t)}?" for t in titles[:n]]
    if len(questions) < n:
        for term in key_terms(text, n * 3):
            q = f"What does the document say about {_term(term)}?"
            if q not in questions and not any(term.lower() in x.lower() for x in questions):
                questions.append(q)
            if len(questions) >= n:
                break
    return questions


def offline_briefing(text: str, embedder: PrismEmbedding, max_sentences: int = 150,
                     note: str | None = None) -> Briefing:
    """A briefing without an LLM (see the module docstring)."""
    bullets = central_sentences(candidate_sentences(text, max_sentences), embedder)
    return Briefing(bullets, suggested_questions(text), "extractive", None, note)


# --- entry point ------------------------------------------------------------------------------------------------
def make_briefing(
    source: str,
    text: str,
    *,
    embedder: PrismEmbedding,
    llm: LLMClient | None = None,
    max_chars: int = 12_000,
    max_sentences: int = 150,
) -> Briefing:
    """Brief one document.

    Args:
        source: the document's file name (shown to the LLM).
        text: the document text.
        embedder: the real embedder (offline path).
        llm: the LLM, or ``None`` for the offline briefing.
        max_chars: characters of the document sent to the LLM.
        max_sentences: candidate sentences scored offline.

    Returns:
        The LLM's briefing, or the offline one (with ``note`` saying why when an LLM was configured). Never raises
        for LLM failures.
    """
    if llm is None:
        return offline_briefing(text, embedder, max_sentences)
    excerpt = text[:max_chars]
    prompt = BRIEFING_PROMPT.format(source=source, document=fence(excerpt, "document"))
    try:
        reply = llm.complete(prompt)
    except LLMError as exc:
        logger.warning("briefing call failed (%s); offline briefing", type(exc).__name__)
        return offline_briefing(text, embedder, max_sentences, note=f"The LLM briefing failed: {exc}")
    parsed = parse_briefing(reply)
    if parsed is None:
        logger.warning("briefing reply was not usable JSON; offline briefing")
        return offline_briefing(text, embedder, max_sentences,
                                note="The LLM's briefing was not usable JSON; this one is extractive.")
    bullets, questions = parsed
    return Briefing(bullets, questions, "llm", llm.model)


def brief_document(workspace: Workspace, doc_id: str, *, embedder: PrismEmbedding, llm: LLMClient | None,
                   settings: Settings) -> Briefing:
    """Brief one committed document from its stored chunk rows and store the briefing on its record.

    Raises:
        DocumentNotFoundError: ``doc_id`` is not committed in ``workspace``.
    """
    record = workspace.find(doc_id)
    if record is None:
        raise DocumentNotFoundError(f"Document {doc_id[:12]} is not in workspace '{workspace.name}'.")
    text = document_text_from_rows(workspace.read_chunks(doc_id))
    brief = make_briefing(record.source, text, embedder=embedder, llm=llm, max_chars=settings.briefing_max_chars,
                          max_sentences=settings.briefing_max_sentences)
    workspace.update_record(doc_id, briefing=brief.to_dict())
    logger.info("briefing (%s) stored for %s", brief.mode, doc_id[:12])
    return brief


def document_text_from_rows(rows: Sequence[dict[str, Any]]) -> str:
    """Rebuild a document's text from its stored chunk rows (``text``, ``char_start``, ``char_end``), undoing the
    chunk overlap; gaps (none in practice) become paragraph breaks."""
    ordered = sorted(rows, key=lambda r: (int(r.get("char_start", 0)), int(r.get("char_end", 0))))
    parts: list[str] = []
    end = 0
    for r in ordered:
        start, stop, text = int(r.get("char_start", 0)), int(r.get("char_end", 0)), str(r.get("text", ""))
        if stop <= end and parts:
            continue
        if start >= end or not parts:
            if parts:
                parts.append("\n\n")
            parts.append(text)
        else:
            parts.append(text[end - start :])
        end = max(end, stop)
    return "".join(parts)

"""When is a retrieved chunk relevant to a question? The one rule every Prism evaluation uses, plus the original
Prism's lenient P@5 (kept only to compare with its published runs).

**The rule.** A chunk is relevant to a question when it matches at least one of the question's relevant entries
``{"source", "page"?, "evidence"?}``; it matches an entry when all of these hold:

1. its document's file name (``source``) equals the entry's ``source``;
2. where the entry gives a ``page`` (1-based) and the chunk has pages: ``page_start <= page <= page_end``
   (a chunk of an unpaged document — TXT, CSV, URL — is not tested on pages);
3. where the entry gives ``evidence``: after normalising both texts (Unicode NFKC, case-folded, every white-space
   character deleted — so line breaks and spacing differences from PDF extraction do not matter), the evidence
   is a substring of the chunk text, or — for extraction noise — ``fuzz.partial_ratio(evidence, chunk) >=``
   :data:`FUZZY_THRESHOLD` (90): some window of the longer string, as long as the shorter one, has an indel
   similarity of at least 90 % to the shorter one. When the evidence is longer than the chunk (FinanceBench-style
   page passages) this reads "the chunk lies within the evidence". ``partial_ratio`` is rapidfuzz's
   (https://github.com/rapidfuzz/RapidFuzz) when installed, else an equivalent built on :mod:`difflib`
   (fuzzywuzzy's original algorithm: windows anchored at difflib's matching blocks).

A question with no relevant entries (a negative question) has no relevant chunk.

**Lenient P@5 (original Prism).** Precision at 5 where a retrieved chunk counts when it comes from *any* relevant
source OR contains (normalised substring, as above) *any* keyword of the question — the pair's ``keywords`` when
given, else its evidence strings. It ignores pages and inflates scores; it is reported only as
``lenient_p@5`` for comparison with the original Prism's published numbers.
"""

from __future__ import annotations

import difflib
import logging
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

FUZZY_THRESHOLD = 90.0
"""Lowest ``partial_ratio`` (0–100) at which evidence counts as found in a chunk."""

_WS = re.compile(r"\s+")

try:  # pragma: no cover - exercised whichever way the environment is
    from rapidfuzz import fuzz as _rf_fuzz
except ImportError:  # pragma: no cover
    _rf_fuzz = None  # type: ignore[assignment]  # the module or None: checked before each use


@dataclass(frozen=True)
class RelevantSpec:
    """One relevant entry of a question.

    Attributes:
        source: the document's file name as ingested (e.g. ``"meridian_fee_schedule_tables.pdf"``) or, for BEIR, the
            corpus document id.
        page: 1-based page that holds the answer, or ``None``.
        evidence: a short passage of the answer's text as it appears in the document, or ``None``.
    """

    source: str
    page: int | None = None
    evidence: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source}
        if self.page is not None:
            out["page"] = self.page
        if self.evidence is not None:
            out["evidence"] = self.evidence
        return out


def normalize_for_match(text: str) -> str:
    """NFKC, case-folded, all white space removed (the comparison form of the relevance rule)."""
    return _WS.sub("", unicodedata.normalize("NFKC", text or "").casefold())


def _difflib_partial_ratio(a: str, b: str) -> float:
    """fuzzywuzzy's partial_ratio on difflib: the best ratio of the shorter string against windows of the longer one
    anchored at their matching blocks, 0–100."""
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    if not shorter:
        return 0.0
    blocks = difflib.SequenceMatcher(None, shorter, longer, autojunk=False).get_matching_blocks()
    best = 0.0
    for i, j, _n in blocks:
        start = max(0, j - i)
        window = longer[start : start + len(shorter)]
        score = difflib.SequenceMatcher(None, shorter, window, autojunk=False).ratio() * 100
        if score > best:
            best = score
            if best >= 99.999:
                break
    return best


def partial_ratio(a: str, b: str) -> float:
    """Best alignment similarity (0–100) of the shorter string within the longer (rapidfuzz, else difflib)."""
    if _rf_fuzz is not None:
        return float(_rf_fuzz.partial_ratio(a, b))
    return _difflib_partial_ratio(a, b)


def contains_evidence(chunk_text: str, evidence: str, threshold: float = FUZZY_THRESHOLD) -> bool:
    """True when ``evidence`` is found in ``chunk_text`` under rule 3 of the module docstring."""
    ev = normalize_for_match(evidence)
    if not ev:
        return True
    text = normalize_for_match(chunk_text)
    if not text:
        return False
    if ev in text:
        return True
    return partial_ratio(ev, text) >= threshold


def chunk_matches(
    spec: RelevantSpec,
    source: str,
    text: str,
    page_start: int | None,
    page_end: int | None,
    threshold: float = FUZZY_THRESHOLD,
) -> bool:
    """True when one chunk (its document's ``source``, ``text`` and page span) matches one relevant entry."""
    if source != spec.source:
        return False
    if spec.page is not None and page_start is not None:
        end = page_end if page_end is not None else page_start
        if not (page_start <= spec.page <= end):
            return False
    if spec.evidence:
        return contains_evidence(text, spec.evidence, threshold)
    return True


def is_relevant(
    specs: Sequence[RelevantSpec],
    source: str,
    text: str,
    page_start: int | None = None,
    page_end: int | None = None,
    threshold: float = FUZZY_THRESHOLD,
) -> bool:
    """True when the chunk matches any of ``specs`` (always False for a negative question, ``specs == []``)."""
    return any(chunk_matches(s, source, text, page_start, page_end, threshold) for s in specs)


def relevant_chunk_ids(specs: Sequence[RelevantSpec], chunks: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """The qrels row of one question over a workspace's chunks.

    Args:
        specs: the question's relevant entries.
        chunks: chunk rows with ``chunk_id``, ``source``, ``text`` and optional ``page_start`` / ``page_end``.

    Returns:
        ``{chunk_id: 1}`` for every relevant chunk (graded relevance is not used); ``{}`` when none is.
    """
    sources = {s.source for s in specs}
    out: dict[str, int] = {}
    for c in chunks:
        if c["source"] in sources and is_relevant(specs, c["source"], c["text"], c.get("page_start"),
                                                  c.get("page_end")):
            out[str(c["chunk_id"])] = 1
    return out


def lenient_precision_at_k(
    retrieved: Sequence[Mapping[str, Any]],
    specs: Sequence[RelevantSpec],
    keywords: Sequence[str] = (),
    k: int = 5,
) -> float:
    """The original Prism's lenient P@k: share of the top ``k`` chunks from a relevant source OR containing a keyword.

    Args:
        retrieved: chunks best first, each with ``source`` and ``text``.
        specs: the question's relevant entries (their sources count; pages and evidence are ignored).
        keywords: the question's keywords; default: the evidence strings of ``specs``.
        k: cut-off; the denominator is always ``k`` (fewer results count as misses).

    Returns:
        A value in [0, 1].
    """
    if k < 1:
        raise ValueError(f"k must be at least 1 (got {k})")
    sources = {s.source for s in specs}
    words = [normalize_for_match(w) for w in (keywords or [s.evidence for s in specs if s.evidence])]
    words = [w for w in words if w]
    hits = 0
    for c in list(retrieved)[:k]:
        text = normalize_for_match(str(c.get("text", "")))
        if c.get("source") in sources or any(w in text for w in words):
            hits += 1
    return hits / k

"""Query expansion with the LLM: HyDE and multi-query, turned into the query strings each retrieval side gets.

* HyDE (Gao, Ma, Lin & Callan, "Precise Zero-Shot Dense Retrieval without Relevance Labels", 2022): the small LLM
  writes a short hypothetical passage answering the question; it is embedded for the DENSE side only (next to the
  question itself, pooled by best rank). BM25 keeps the real query: invented wording must not become lexical
  evidence.
* Multi-query: the small LLM writes ``n`` rephrasings; the question and every phrasing are searched on BOTH sides
  and pooled per side keeping each chunk's best rank before fusion (the retriever's ``search`` does the pooling);
  the reranker scores against the ORIGINAL (standalone) question. :func:`expanded_search` is the one place that
  composes expansion and search, for answering and evaluation alike.

Both are on by default when an LLM is configured and off, with the reason, otherwise. A failed expansion call
degrades to the plain query with a note; only a rejected key (:class:`~prism.errors.LLMAuthError`) propagates.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from prism.errors import LLMAuthError, LLMError
from prism.types import CompletesText

logger = logging.getLogger(__name__)

NO_LLM_REASON = "off: no LLM configured"

HYDE_PROMPT = """Write a short passage (2-4 sentences) that could appear in a bank circular, regulation or
financial report and would answer the question below. Use the style and vocabulary of such documents. It is only
used to search, so plausible wording matters more than exact facts. Reply with the passage only.

Question: {question}
Passage:"""

MULTI_QUERY_PROMPT = """Write {n} different rephrasings of the search question below, for searching regulatory
and financial documents. Vary the vocabulary (synonyms, abbreviations spelt out or shortened, formal regulatory
terms) but keep the meaning, names and figures. One rephrasing per line, no numbering, nothing else.

Question: {question}"""


def hyde_passage(question: str, llm: CompletesText, max_chars: int = 1200) -> str:
    """A short hypothetical passage answering ``question`` (stripped, at most ``max_chars``; may be ``""``).

    Raises:
        LLMError: the call failed.
    """
    text = llm.complete(HYDE_PROMPT.format(question=question.strip())).strip()
    text = re.sub(r"^(passage|answer)\s*:\s*", "", text, flags=re.IGNORECASE).strip().strip('"“”')
    return text[:max_chars]


def parse_phrasings(text: str, question: str, n: int) -> list[str]:
    """Up to ``n`` distinct rephrasings from an LLM reply: a JSON list, or one per line with any numbering,
    bullets or quotes removed; empty lines, preambles ending in ``:`` and copies of the question are dropped."""
    items: list[str] = []
    stripped = text.strip()
    m = re.search(r"\[.*\]", stripped, flags=re.DOTALL)
    if m:
        try:
            parsed = json.loads(m.group(0))
            if isinstance(parsed, list):
                items = [str(x) for x in parsed if isinstance(x, str | int | float)]
        except json.JSONDecodeError:
            items = []
    if not items:
        items = stripped.splitlines()
    seen = {question.strip().lower()}
    result: list[str] = []
    for item in items:
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)]|\(\d+\))\s*", "", item).strip().strip('"“”\'').strip()
        if not line or line.endswith(":") or len(line) > 400 or line.lower() in seen:
            continue
        seen.add(line.lower())
        result.append(line)
        if len(result) >= n:
            break
    return result


def multi_query(question: str, llm: CompletesText, n: int = 3) -> list[str]:
    """``n`` (or fewer) rephrasings of ``question``.

    Raises:
        LLMError: the call failed.
    """
    reply = llm.complete(MULTI_QUERY_PROMPT.format(question=question.strip(), n=n))
    return parse_phrasings(reply, question, n)


@dataclass
class Expansion:
    """The query strings for one retrieval.

    Attributes:
        query: the standalone question (also the reranker's query).
        dense_queries: strings embedded for the dense side (question, phrasings, HyDE passage).
        sparse_queries: strings searched with BM25 (question and phrasings; never the HyDE passage).
        hyde: the HyDE passage, or ``None``.
        phrasings: the multi-query rephrasings.
        status: ``{"hyde": "on" | reason, "multi_query": "on" | reason}``.
        warnings: degraded steps, in plain words.
        elapsed_ms: time spent on the LLM calls.
    """

    query: str
    dense_queries: list[str]
    sparse_queries: list[str]
    hyde: str | None = None
    phrasings: list[str] = field(default_factory=list)
    status: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    elapsed_ms: float = 0.0

    @property
    def expanded(self) -> bool:
        """True when anything beyond the plain query is searched."""
        return self.hyde is not None or bool(self.phrasings)


def expand(query: str, llm: CompletesText | None, *, hyde: bool = True, multi: bool = True, n: int = 3) -> Expansion:
    """Run the enabled expansions (concurrently when both are on) and assemble the per-side query strings.

    Args:
        query: the standalone question.
        llm: the (small) LLM; ``None`` turns both off with the reason.
        hyde: HyDE toggle.
        multi: multi-query toggle.
        n: rephrasings for multi-query.

    Raises:
        LLMAuthError: the key was rejected (other failures are noted in ``warnings``).
    """
    status = {"hyde": "on" if hyde else "off", "multi_query": "on" if multi else "off"}
    if llm is None:
        status = {k: (NO_LLM_REASON if v == "on" else v) for k, v in status.items()}
        return Expansion(query, [query], [query], status=status)
    t0 = time.perf_counter()
    tasks: dict[str, Future[Any]] = {}
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="prism-expand") as pool:
        if hyde:
            tasks["hyde"] = pool.submit(hyde_passage, query, llm)
        if multi:
            tasks["multi_query"] = pool.submit(multi_query, query, llm, n)
    results: dict[str, Any] = {}
    warnings: list[str] = []
    for name, future in tasks.items():
        try:
            results[name] = future.result()
        except LLMAuthError:
            raise
        except LLMError as exc:
            status[name] = "failed"
            warnings.append(f"{'HyDE' if name == 'hyde' else 'Multi-query'} was skipped: {exc}")
            logger.warning("%s expansion failed: %s", name, type(exc).__name__)
    passage = results.get("hyde") or None
    phrasings = list(results.get("multi_query") or [])
    if hyde and "hyde" in results and not passage:
        status["hyde"] = "empty reply"
    if multi and "multi_query" in results and not phrasings:
        status["multi_query"] = "empty reply"
    dense = [query, *phrasings] + ([str(passage)] if passage else [])
    sparse = [query, *phrasings]
    return Expansion(query, dense, sparse, str(passage) if passage else None, phrasings, status, warnings,
                     (time.perf_counter() - t0) * 1000)


class Searches(Protocol):
    """What :func:`expanded_search` needs of a retriever (:class:`prism.retrieval.retriever.HybridRetriever`)."""

    @property
    def search(self) -> Callable[..., Any]:
        """``search(query, **options)``: the retriever's own keyword options pass through unchanged."""


@dataclass
class ExpandedSearch:
    """One search with the expansions asked for.

    Attributes:
        result: the retriever's :class:`~prism.retrieval.retriever.SearchResult`.
        expansion: the query strings used and any warnings, or ``None`` when no expansion was asked for.
        expand_ms: milliseconds spent expanding (``None`` without expansion); not part of ``result.timings_ms``.
    """

    result: Any
    expansion: Expansion | None = None
    expand_ms: float | None = None


def expanded_search(retriever: Searches, query: str, llm: CompletesText | None, *, hyde: bool, multi_query: bool,
                    n: int = 3, **options: Any) -> ExpandedSearch:
    """Expand-then-search, the one composition answering and evaluation both use.

    Without HyDE and multi-query this is ``retriever.search(query, **options)``. With either, :func:`expand` writes
    the per-side query strings and the retriever searches them, reranking against ``query`` itself.

    Args:
        retriever: the workspace's retriever.
        query: the standalone question.
        llm: the (small) LLM for the expansions; ``None`` leaves the plain query (with the reason in the status).
        hyde, multi_query: the expansions asked for.
        n: rephrasings for multi-query.
        options: the retriever's other search options (``mode``, ``top_k``, ``sources``, ``rerank``).

    Raises:
        LLMAuthError: the LLM rejected the key (other expansion failures become warnings).
        PrismError: from the retriever (unknown mode, a missing source document).
    """
    if not (hyde or multi_query):
        return ExpandedSearch(retriever.search(query, **options))
    t0 = time.perf_counter()
    expansion = expand(query, llm, hyde=hyde, multi=multi_query, n=n)
    expand_ms = (time.perf_counter() - t0) * 1000
    result = retriever.search(query, dense_queries=expansion.dense_queries, sparse_queries=expansion.sparse_queries,
                              rerank_query=query, **options)
    return ExpandedSearch(result, expansion, expand_ms)

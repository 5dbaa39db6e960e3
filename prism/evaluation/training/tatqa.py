"""TAT-QA questions as training examples: each question of one half of the committed split, read by the question
reader and retrieved in its own context's page, as the answer engine does (:mod:`prism.evaluation.tatqa`).

The retrieval is the engine's first search scoped to the question's page; when it holds no table chunk, the best
tables of a wider search of the page are added, as the program choice does
(:func:`prism.answering.programs.answer.choose`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from prism.answering.programs.answer import TABLES_ADDED
from prism.answering.reading.model import Signals
from prism.answering.reading.reader import Reader
from prism.evaluation.dataset_types import EvalDataset
from prism.evaluation.training.examples import Example
from prism.retrieval.retriever import HybridRetriever

__all__ = ["examples_of"]

logger = logging.getLogger(__name__)


def _chunks(retriever: HybridRetriever, question: str, source: str, reading: object) -> tuple:
    first = retriever.search(question, sources=[source], reading=reading)  # type: ignore[arg-type]
    chunks = list(first.results)
    if not any(c.metadata.get("table_id") for c in chunks):
        wider = retriever.search(question, sources=[source], reading=reading,  # type: ignore[arg-type]
                                 top_k=retriever.settings.fusion_top_k, rerank=False)
        seen = {c.chunk_id for c in chunks}
        chunks += [c for c in wider.results if c.metadata.get("table_id") and c.chunk_id not in seen][:TABLES_ADDED]
    return tuple(chunks)


def examples_of(dataset: EvalDataset, retriever: HybridRetriever, reader: Reader,
                progress: Callable[[int, int], None] | None = None) -> Iterator[tuple[Example, Signals]]:
    """``(example, signals)`` for every question of ``dataset`` (a TAT-QA dataset, its documents ingested in the
    retriever's workspace): read, retrieved in its own page, with its gold."""
    queries = dataset.queries
    for i, q in enumerate(queries):
        gold = q.gold or {}
        source = q.scope[0] if q.scope else ""
        reading, signals = reader.read_with_signals(q.query)
        chunks = _chunks(retriever, q.query, source, reading)
        yield Example(q.id, source, q.query, gold.get("answer"), gold.get("scale", ""), gold.get("derivation", ""),
                      q.type, gold.get("answer_from", ""), reading, chunks), signals
        if progress is not None:
            progress(i + 1, len(queries))

"""The models part of the service facade: the embedder's and the reranker's state without loading them, and the
warm-up that loads them (:class:`prism.service.PrismService` inherits this, as it does the evaluation facade)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prism.config import Settings
from prism.errors import PrismError
from prism.index.embedder import PrismEmbedding
from prism.retrieval.rerank import Reranker, unavailable_reason
from prism.retrieval.reranker_training import Recipe, TrainedReranker
from prism.types import RerankerState

logger = logging.getLogger(__name__)


class ModelsFacade:
    """Reads ``settings``, ``_embedder``/``embedder`` and ``_reranker``/``reranker`` of the service it is mixed into
    (``embedder`` and ``reranker`` load the model on first use), and its ``chunk_rows`` and ``feedback`` to train a
    reranker."""

    settings: Settings
    _embedder: PrismEmbedding | None
    _reranker: Reranker | None

    @property
    def embedder(self) -> PrismEmbedding:  # the service's, loading the model on first use
        raise NotImplementedError

    @property
    def reranker(self) -> Reranker:  # the service's, loading the model on first use
        raise NotImplementedError

    def reranker_state(self) -> RerankerState:
        """Whether the cross-encoder stage is on, its model, and the reason when it is off. Before the model is
        loaded (on first search, or by :meth:`warm_up`) this says whether its files are here, without loading it."""
        if self._reranker is None and unavailable_reason(self.settings) is None:
            return RerankerState(True, self.settings.reranker_model, None)
        return self.reranker.state

    def embedder_state(self) -> dict[str, Any]:
        """``{"backend", "configured", "reason", "loaded"}``: the backend making the vectors (``torch`` after a
        fallback, with the ``reason``), the one configured (``PRISM_EMBED_BACKEND``), and whether the model is
        loaded yet (before that ``backend`` is the configured one). Never loads the model."""
        embedder = self._embedder
        if embedder is None:
            backend = self.settings.embed_backend
            return {"backend": backend, "configured": backend, "reason": "", "loaded": False}
        return {**embedder.backend_state(), "loaded": True}

    def warm_up(self) -> None:
        """Load the embedder and the reranker now (the app calls this in a background thread once its first page is
        drawn, so that the first question does not wait for them)."""
        logger.info("warming up: embedder %s, reranker %s", self.embedder.backend, self.reranker.state.enabled)

    def train_reranker(self, workspace: str | None = None, beir: Path | None = None, *, max_pairs: int = 6000,
                       progress: Callable[[int, int], Any] | None = None, **recipe: Any) -> TrainedReranker:
        """Train (or reuse) a cross-encoder from the packaged MiniLM (:mod:`prism.retrieval.reranker_training`) on
        the pairs of ``workspace`` (its table rows, headings and feedback; used when given or when there is no
        ``beir``) and of the BEIR corpus in ``beir``, cached in ``settings.resolved_models_dir()``; ``recipe``:
        :class:`~prism.retrieval.reranker_training.Recipe` fields (``max_length``, ``threads``, ``max_steps`` …).

        Raises:
            PrismError: no passages or pairs, an unreadable corpus, a missing workspace
                (``WorkspaceNotFoundError``), or a failed training.
        """
        from prism.retrieval.reranker_training import beir_corpus, build_training_set, collect, train_reranker

        spec = Recipe(**recipe)
        documents, feedback, sources = [], [], {}
        if workspace or beir is None:
            documents = [rows for _, rows in self.chunk_rows(workspace)]  # type: ignore[attr-defined]
            feedback = self.feedback(workspace).all()  # type: ignore[attr-defined]
            sources = {"workspace": workspace or self.settings.default_workspace, "feedback_lines": len(feedback),
                       "chunks": sum(len(rows) for rows in documents)}
        corpus = beir_corpus(Path(beir)) if beir is not None else None
        if corpus is not None and beir is not None:
            sources.update(beir=str(Path(beir).resolve()), beir_documents=len(corpus))
        positives, passages = collect(documents, feedback, corpus, spec.seed)
        if not passages:
            raise PrismError("Nothing to train a reranker on: the workspace holds no chunks and no BEIR corpus was "
                             "given.")
        try:
            training = build_training_set(positives, passages, max_pairs=max_pairs, seed=spec.seed)
        except ValueError as exc:
            raise PrismError(f"Cannot make reranker training pairs: {exc}") from exc
        return train_reranker(training, self.settings.resolved_embed_model_path(), self.settings.resolved_models_dir(),
                              recipe=spec, sources=sources, progress=progress)

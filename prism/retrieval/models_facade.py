"""The models part of the service facade: the embedder's and the reranker's state without loading them, and the
warm-up that loads them (:class:`prism.service.PrismService` inherits this, as it does the evaluation facade)."""

from __future__ import annotations

import logging
from typing import Any

from prism.config import Settings
from prism.index.embedder import PrismEmbedding
from prism.retrieval.rerank import Reranker, unavailable_reason
from prism.types import RerankerState

logger = logging.getLogger(__name__)


class ModelsFacade:
    """Reads ``settings``, ``_embedder``/``embedder`` and ``_reranker``/``reranker`` of the service it is mixed into
    (``embedder`` and ``reranker`` load the model on first use)."""

    settings: Settings
    _embedder: PrismEmbedding | None
    _reranker: Reranker | None
    embedder: PrismEmbedding
    reranker: Reranker

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

"""The rerank stage: a sentence-transformers ``CrossEncoder`` scoring (query, chunk) pairs.

The model (``Settings.reranker_model``) is loaded from a local folder or the Hugging Face cache only — never
downloaded at run time. Where it cannot be loaded the stage is off and :attr:`Reranker.reason` says why; every
search result carries that state. A model trained on this machine (``python -m prism reranker train``,
:mod:`prism.retrieval.reranker_training`) is such a local folder; its window (``max_seq_length``, 128 word pieces)
is saved with it. Scoring runs on the process's torch threads.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from prism.config import Settings
from prism.types import RerankerState

logger = logging.getLogger(__name__)


def unavailable_reason(settings: Settings) -> str | None:
    """Why ``settings.reranker_model`` cannot be loaded, decided without loading it (no torch import: the app's
    sidebar shows the stage's state on its first page), or ``None`` when its files are here (a local folder, or the
    model's ``config.json`` in the Hugging Face cache). A model whose files are here but do not load is found out by
    :meth:`Reranker.from_settings`."""
    name = settings.reranker_model
    if not settings.reranker_enabled:
        return "switched off in settings (PRISM_RERANKER_ENABLED=false)"
    if Path(name).is_dir():
        return None
    from huggingface_hub import try_to_load_from_cache

    try:
        cached = try_to_load_from_cache(name, "config.json")
    except ValueError:  # not a valid Hub model id (e.g. a path that does not exist)
        cached = None
    return None if isinstance(cached, str) else _missing(name)


def _missing(name: str) -> str:
    return (f"cross-encoder '{name}' is not available on this machine (not at that path nor in the local "
            "Hugging Face cache, and models are never downloaded at run time); results keep their retrieval order")


class Reranker:
    """Cross-encoder reranker, thread-safe.

    Args:
        model: a loaded ``sentence_transformers.CrossEncoder``, or ``None`` when unavailable.
        name: model name or path (for display).
        reason: why the stage is off (when ``model`` is ``None``).
    """

    def __init__(self, model: Any | None, name: str, reason: str | None = None):
        self._model = model
        self.name = name
        self._reason = reason if model is None else None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> Reranker:
        """Load ``settings.reranker_model`` from disk or the HF cache; never raises: an unloadable model gives a
        disabled stage with the reason."""
        name = settings.reranker_model
        missing = unavailable_reason(settings)
        if missing is not None:
            if settings.reranker_enabled:
                logger.warning("reranker off: %s", missing)
            return cls(None, name, missing)
        try:
            from sentence_transformers import CrossEncoder

            model = CrossEncoder(name, device="cpu", local_files_only=True)
        except (OSError, ValueError, RuntimeError) as exc:
            reason = _missing(name)
            logger.debug("cross-encoder load error: %s", exc)
            logger.warning("reranker off: %s", reason)
            return cls(None, name, reason)
        logger.info("loaded cross-encoder %s", name)
        return cls(model, name)

    @property
    def state(self) -> RerankerState:
        """Enabled or not, model name, and the reason when off."""
        return RerankerState(self._model is not None, self.name, self._reason)

    @property
    def enabled(self) -> bool:
        return self._model is not None

    def score(self, query: str, texts: Sequence[str]) -> np.ndarray:
        """Cross-encoder scores for ``(query, text)`` pairs.

        Returns:
            float32 array of shape ``(len(texts),)``: the model's raw logits (higher = more relevant; not a
            probability, unbounded).

        Raises:
            RuntimeError: the stage is off (check :attr:`enabled` first).
        """
        if self._model is None:
            raise RuntimeError(f"reranker is off: {self._reason}")
        if not texts:
            return np.zeros(0, dtype=np.float32)
        import torch

        with self._lock:
            scores = self._model.predict(
                [(query, t) for t in texts], activation_fn=torch.nn.Identity(), show_progress_bar=False,
                convert_to_numpy=True,
            )
        return np.asarray(scores, dtype=np.float32).reshape(len(texts))

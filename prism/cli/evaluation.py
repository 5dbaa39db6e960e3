"""``python -m prism eval run`` (and its alias ``eval beir``): evaluate a dataset and write versioned runs.

``eval run workspace --workspace W`` evaluates W's own ground truth (the pairs added from Chat feedback) over W itself.

Datasets are loaded and evaluated through the service. Progress goes to stderr as a bar (a line per 10 % when
stderr is not a terminal); with ``--json`` stdout carries exactly one JSON value.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from prism.cli import common

WORKSPACE_DATASET = "workspace"
"""``eval run workspace --workspace W``: the workspace's own ground truth (pairs added from Chat feedback)."""


class ProgressBar:
    """A one-line terminal progress bar on ``stream`` (``[#####-----]  50.0% message``).

    On a terminal the line is redrawn in place (at most every 0.1 s); otherwise one line is written per 10 %
    step and for every new phase (the text before ``:`` changes).
    """

    def __init__(self, stream: TextIO | None = None, width: int = 28):
        self.stream = stream or sys.stderr
        self.width = width
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_draw = 0.0
        self._last_step = -1
        self._phase = ""
        self._drawn = False

    def __call__(self, fraction: float, message: str) -> None:
        fraction = min(max(float(fraction), 0.0), 1.0)
        filled = int(round(fraction * self.width))
        line = f"[{'#' * filled}{'-' * (self.width - filled)}] {fraction * 100:5.1f}% {message}"
        phase = message.split(":", 1)[0]
        if self._tty:
            now = time.monotonic()
            if now - self._last_draw >= 0.1 or fraction >= 1.0 or phase != self._phase:
                self.stream.write("\r" + line[:160].ljust(100))
                self.stream.flush()
                self._last_draw = now
                self._drawn = True
        else:
            step = int(fraction * 10)
            if step != self._last_step or phase != self._phase:
                self.stream.write(line + "\n")
                self._last_step = step
        self._phase = phase

    def close(self) -> None:
        """End the bar's line."""
        if self._tty and self._drawn:
            self.stream.write("\n")
            self.stream.flush()


def _table(rows: list[dict[str, Any]]) -> str:
    cols = [c for c in common.headline_metrics() if any(c in r["metrics"] for r in rows)]
    head = f"{'variant':<22}" + "".join(f"{c:>12}" for c in cols)
    lines = [head]
    for r in rows:
        cells = "".join(f"{r['metrics'][c]:>12.4f}" if c in r["metrics"] else f"{'-':>12}" for c in cols)
        lines.append(f"{r['variant']:<22}{cells}")
    return "\n".join(lines)


def summary(written: list[tuple[dict[str, Any], Any]]) -> tuple[dict[str, Any], str]:
    """The JSON payload and the text of a finished ``eval run``."""
    runs = []
    for run, path in written:
        lat = run["latency_ms"]
        runs.append({
            "id": run["id"], "file": str(path), "group": run["group"], "variant": run["variant"],
            "dataset": run["dataset"]["name"], "counts": run["counts"], "metrics": run["metrics"],
            "latency_ms": lat,
        })
    first = written[0][0]
    payload = {"dataset": first["dataset"], "workspace": first["workspace"], "runs": runs,
               "skipped": first.get("skipped", [])}
    ds = first["dataset"]
    text = [f"{ds['name']} ({ds['format']}{', ' + ds['split'] if ds.get('split') else ''}): "
            f"{first['counts']['queries']} questions, {first['counts']['judged']} judged, "
            f"workspace '{first['workspace']['name']}'"]
    text.append(_table(runs))
    if ds.get("format") == "tatqa":
        text += [f"  {group:<18} tatqa_first_line {row.get('tatqa_first_line', 0):.3f} "
                 f"({int(row.get('questions', 0))} questions)" for group, row in first["metrics_by_type"].items()]
    for r in runs:
        total = r["latency_ms"].get("retrieval", {}).get("total", {})
        answer = r["latency_ms"].get("answer", {}).get("total", {})
        line = f"{r['variant']}: retrieval p50 {total.get('p50', 0):.1f} ms, p95 {total.get('p95', 0):.1f} ms"
        if answer:
            line += f"; answer p50 {answer.get('p50', 0):.1f} ms, p95 {answer.get('p95', 0):.1f} ms"
        text.append(line)
    for s in payload["skipped"]:
        text.append(f"skipped {s['variant']}: {s['reason']}")
    text += [f"wrote {r['file']}" for r in runs]
    return payload, "\n".join(text)


def cmd_eval_run(args: argparse.Namespace) -> int:
    """``eval run DATASET``: load, evaluate, write runs, print the summary."""
    svc = common.service()
    if args.dataset == WORKSPACE_DATASET and not Path(args.dataset).exists():
        dataset = svc.workspace_dataset(args.workspace)
        args.workspace = args.workspace or svc.settings.default_workspace
    else:
        dataset = svc.load_dataset(args.dataset, args.format, documents_dir=args.docs, queries_file=args.queries,
                                   qrels_file=args.qrels, rename_documents=args.rename_documents,
                                   **({"sample": args.sample, "seed": args.seed} if args.sample else {}))
    bar = ProgressBar()
    try:
        written = svc.evaluate(dataset, workspace=args.workspace, mode=args.mode, ablation=args.ablation,
                               limit=args.limit, tag=args.tag, answers=False if args.no_answers else None,
                               judge=False if args.no_judge else None, eval_dir=args.eval_dir, progress=bar,
                               auto_scope=not args.no_auto_scope)
    finally:
        bar.close()
    payload, text = summary(written)
    common.emit(args, payload, text)
    return common.EXIT_OK


def _beir_payload(svc: Any, dataset: Any, run: dict[str, Any], path: Any) -> tuple[dict[str, Any], str]:
    s = svc.settings
    total = {k: v for k, v in run["latency_ms"]["retrieval"].get("total", {}).items() if k != "n"}
    payload = {"dataset": dataset.name, "mode": run["options"]["mode"], "queries": run["counts"]["queries"],
               "metrics": run["metrics"], "latency_ms": total,
               "config": {"rrf_k": s.rrf_k, "dense_weight": s.dense_weight, "bm25_weight": s.bm25_weight,
                          "chunk_size": s.chunk_size, "chunk_overlap": s.chunk_overlap,
                          "embed_model": s.embed_model_name, "reranker": run["config"]["reranker"]},
               "run_file": str(path), "variant": run["variant"]}
    text = (f"{dataset.name} ({run['counts']['queries']} queries, {run['variant']}, workspace "
            f"'{run['workspace']['name']}')\n" + "  ".join(f"{k} {v:.4f}" for k, v in run["metrics"].items())
            + f"\nretrieval latency p50 {total.get('p50', 0):.1f} ms, p95 {total.get('p95', 0):.1f} ms"
            + f"\nwrote {path}")
    return payload, text


def cmd_eval_beir(args: argparse.Namespace) -> int:
    """``eval beir DIR``: the alias of ``eval run DIR --format beir`` (same run file; JSON keeps the old keys
    ``dataset``, ``mode``, ``queries``, ``metrics``, ``latency_ms`` (total retrieval p50/p95/p99), ``config``)."""
    svc = common.service()
    dataset = svc.load_dataset(args.dir, "beir", queries_file=args.queries, qrels_file=args.qrels)
    bar = ProgressBar()
    try:
        written = svc.evaluate(dataset, workspace=args.workspace, mode=args.mode, limit=args.limit,
                               tag=getattr(args, "tag", None), progress=bar)
    finally:
        bar.close()
    run, path = written[0]
    payload, text = _beir_payload(svc, dataset, run, path)
    common.emit(args, payload, text)
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``eval`` with its ``run`` and ``beir`` sub-commands to the CLI's sub-parsers."""
    p = sub.add_parser("eval", help="evaluate retrieval and answers (eval run, eval beir)")
    esub = p.add_subparsers(dest="eval_command", required=True, parser_class=common.Parser)
    modes = common.mode_names()
    r = esub.add_parser("run", parents=[shared], help="evaluate a dataset and write a versioned run")
    r.add_argument("dataset", metavar="DATASET",
                   help="ground-truth .json, BEIR folder, FinanceBench questions, TAT-QA folder, or 'workspace' "
                        "(the workspace's own ground truth, from Chat feedback)")
    r.add_argument("--format", choices=common.dataset_formats(), default=None,
                   help="dataset format (default: detected)")
    r.add_argument("--tag", default=None, help="label stored in the run (e.g. baseline)")
    r.add_argument("--mode", choices=modes, default=None,
                   help="retrieval mode of a single run (default: settings)")
    r.add_argument("--ablation", action="store_true",
                   help="dense, BM25, hybrid and +rerank / +HyDE / +multi-query where available, as one group")
    r.add_argument("--limit", type=int, default=None, help="evaluate only the first N questions")
    r.add_argument("--docs", default=None, metavar="DIR",
                   help="prism format: folder holding the documents; tatqa: where its HTML pages are written")
    r.add_argument("--sample", type=int, default=None, metavar="N",
                   help="tatqa format: a seeded random sample of N questions")
    r.add_argument("--seed", type=int, default=29, help="tatqa format: the sample's seed (default 29)")
    r.add_argument("--queries", default=None, metavar="FILE", help="beir format: another queries file")
    r.add_argument("--qrels", default=None, metavar="FILE", help="beir format: another qrels file")
    r.add_argument("--rename-documents", action="store_true",
                   help="financebench format: ingest the filings as doc01.pdf … docNN.pdf (opaque names)")
    r.add_argument("--no-answers", action="store_true", help="evaluate retrieval only")
    r.add_argument("--no-judge", action="store_true", help="skip the LLM judge even when an LLM is configured")
    r.add_argument("--eval-dir", default=None, metavar="DIR", help="runs folder (default: settings eval_dir)")
    r.add_argument("--no-auto-scope", action="store_true",
                   help="do not scope retrieval by the entities and periods each question names")
    r.set_defaults(func=cmd_eval_run)

    b = esub.add_parser("beir", parents=[shared], help="alias of 'eval run DIR --format beir'")
    b.add_argument("dir", metavar="DIR", help="a BEIR folder (corpus.jsonl, queries.jsonl, qrels/)")
    b.add_argument("--queries", default=None, metavar="FILE")
    b.add_argument("--qrels", default=None, metavar="FILE")
    b.add_argument("--mode", choices=modes, default="hybrid")
    b.add_argument("--limit", type=int, default=None, help="evaluate only the first N judged queries")
    b.add_argument("--tag", default=None, help="label stored in the run")
    b.set_defaults(func=cmd_eval_beir)

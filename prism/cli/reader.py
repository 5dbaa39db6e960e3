"""``python -m prism reader train DATASET [--half tuning] [--out DIR]``: train the question reader's operation model
and the program ranker on one half of TAT-QA dev (:mod:`prism.evaluation.training.run`) and print what was
measured. The ``frozen`` half is refused: it is reported, never trained on."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from prism.cli import common
from prism.errors import PrismError


def cmd_reader(args: argparse.Namespace) -> int:
    """Load the half, train, write the weights, print the report.

    Raises:
        PrismError: the frozen half, an unreadable dataset, or a page that fails to ingest.
    """
    if args.half == "frozen":
        raise PrismError("The frozen half is for reporting only: train on --half tuning.")
    svc = common.service()
    dataset = svc.load_dataset(args.dataset, "tatqa", half=args.half)

    def show(fraction: float, message: str) -> None:
        if not args.json:
            sys.stderr.write(f"[{fraction * 100:5.1f}%] {message}\n")

    trained = svc.train_reader(dataset, out=args.out, progress=show)
    report = trained["report"]
    text = (f"trained on {report['examples']} questions ({dataset.split}) in {trained['seconds']} s\n"
            f"  operation accuracy (out of fold) {report['operation_accuracy_out_of_fold']}; "
            f"ranker accuracy (in sample) {report['ranker_accuracy_in_sample']}\n"
            f"  ranker penalty {report.get('ranker_l2')} (cross-validated accuracy per penalty: "
            f"{report.get('ranker_l2_cross_validated') or 'not run'})\n"
            f"wrote {trained['model_file']}\nwrote {trained['ranker_file']}")
    common.emit(args, trained, text)
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``reader`` to the CLI's sub-parsers."""
    p = sub.add_parser("reader", parents=[shared], help="train the question reader and the program ranker")
    p.add_argument("action", choices=["train"])
    p.add_argument("dataset", metavar="DATASET", help="the TAT-QA dev folder (../shared/data/tatqa-dev)")
    p.add_argument("--half", choices=("tuning",), default="tuning",
                   help="the half of the committed split to train on (only 'tuning')")
    p.add_argument("--out", default=None, metavar="DIR", help="write the weights there instead of the package")
    p.set_defaults(func=cmd_reader)

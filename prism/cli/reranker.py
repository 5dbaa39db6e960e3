"""``python -m prism reranker train [--workspace NAME] [--beir DIR] [--max-pairs N]``: train a cross-encoder on this
machine (:mod:`prism.retrieval.reranker_training`) from a workspace's table rows, headings and analyst feedback
and/or a BEIR corpus's titles and texts, and print the folder to set as ``PRISM_RERANKER_MODEL``.

Evaluation questions and qrels are never read: a BEIR folder contributes its ``corpus.jsonl`` only. The work is
:meth:`prism.service.PrismService.train_reranker`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from prism.cli import common


def cmd_reranker(args: argparse.Namespace) -> int:
    """Build the pairs, train (or reuse) the model, print its folder.

    Raises:
        PrismError: no pairs, no passages, an unreadable corpus, or the training fails.
    """
    def show(step: int, steps: int) -> None:
        if not args.json and (step % 20 == 0 or step == steps):
            sys.stderr.write(f"[{step / steps * 100:5.1f}%] step {step}/{steps}\n")

    trained = common.service().train_reranker(
        args.workspace, Path(args.beir) if args.beir else None, max_pairs=args.max_pairs, progress=show,
        max_length=args.max_length, threads=args.threads, seed=args.seed, max_steps=args.max_steps, epochs=args.epochs,
        learning_rate=args.learning_rate)
    m = trained.manifest
    text = (f"{'reused' if trained.reused else 'trained'} {trained.path}\n  pairs {m['pairs']} {m['counts']}; "
            f"{m['steps']} steps, {m['seconds']} s on {m['threads']} thread(s)\n"
            f"set PRISM_RERANKER_MODEL={trained.path}")
    common.emit(args, {"path": str(trained.path), "reused": trained.reused, "training": m}, text)
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``reranker`` to the CLI's sub-parsers."""
    p = sub.add_parser("reranker", parents=[shared], help="train a cross-encoder from the packaged MiniLM")
    p.add_argument("action", choices=["train"], help="train (the only action)")
    p.add_argument("--beir", default=None, metavar="DIR", help="a BEIR folder: its corpus titles and texts as pairs")
    p.add_argument("--max-pairs", type=int, default=6000, help="pairs in all, negatives included (default 6000)")
    p.add_argument("--max-length", type=int, default=128, help="word pieces per pair (default 128)")
    p.add_argument("--threads", type=int, default=2, help="torch threads while training (default 2)")
    p.add_argument("--epochs", type=int, default=1, help="passes over the pairs (default 1)")
    p.add_argument("--learning-rate", type=float, default=3e-5, help="AdamW peak learning rate (default 3e-5)")
    p.add_argument("--seed", type=int, default=30, help="seed of the pairs' sampling and the training")
    p.add_argument("--max-steps", type=int, default=None, help="stop after N optimiser steps (a quick check)")
    p.set_defaults(func=cmd_reranker)

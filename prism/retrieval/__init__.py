"""Retrieval: a query in, ranked chunks with every stage's score and rank out.

Owns query expansion (HyDE, multi-query), fusion (the registry of retrieval modes and fusion methods), the
cross-encoder reranker, and :class:`~prism.retrieval.retriever.HybridRetriever` with its stage methods.

May import: :mod:`prism.index` and the ground floor. Never answering: expansion asks only for something with a
``complete(prompt) -> str`` method (:class:`prism.types.CompletesText`).
"""

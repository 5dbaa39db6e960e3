"""Index: what a workspace stores and how it is looked up.

Owns the embedder, the workspaces registry (names ↔ collections, document registry, write lock, write-ahead
markers), the vector store behind a small Protocol (Chroma is the one implementation; every chromadb call lives in
``vector_store.py``), the workspaces one process has open and their sync with other processes' writes, the BM25
index and its per-workspace persisted side, and the one tokenizer.

May import: the ground floor only (``config``, ``errors``, ``types``, ``fsutil``).
"""

"""Index: the embedder, workspaces registry, vector store, BM25 index and the tokenizer."""

"""The vector store: one collection per workspace, cosine space, recording the embedding model that built it.

:class:`VectorIndex` is what the rest of Prism uses; :class:`VectorStore` implements it on ChromaDB and
:class:`VectorStores` holds the process's client (open, drop, reset). Every chromadb call Prism makes is in this
module, so swapping the vector store means replacing this module's two classes.

Local files (``chromadb.PersistentClient`` under ``PRISM_HOME/chroma``) by default; a Chroma server
(``chromadb.HttpClient``) when ``PRISM_CHROMA_HOST`` is set. The same :class:`VectorStore` code serves both.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import httpx
import numpy as np

from prism.config import EMBED_BACKEND_VECTORS, Settings
from prism.errors import EmbeddingModelMismatchError, PrismError, StoreError
from prism.index.chroma_server import bound_client, check_server, failure_message, server_name, transport_error
from prism.types import Chunk

logger = logging.getLogger(__name__)


def make_client(settings: Settings) -> Any:
    """A Chroma client for the configured backend (telemetry off); a server's calls are bounded by
    ``chroma_timeout_s`` (:mod:`prism.index.chroma_server`).

    Raises:
        StoreError: the server does not answer within the timeout or cannot be reached, or the folder cannot be
            opened.
    """
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if settings.chroma_host:
        check_server(settings)
    try:
        if settings.chroma_host:
            return bound_client(chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port,
                                                    settings=chroma_settings), settings)
        path = settings.home / "chroma"
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    except PrismError:
        raise
    except Exception as exc:  # chromadb raises bare Exception / ValueError / httpx errors here
        where = server_name(settings) or str(settings.home)
        raise StoreError(failure_message(exc, f"Opening the vector store at {where}", server_name(settings),
                                         settings.chroma_timeout_s)) from exc


@dataclass(frozen=True)
class DenseHit:
    """One dense-retrieval hit: ``dense_score`` is the cosine similarity in [-1, 1]; ``dense_rank`` is 1-based."""

    chunk_id: str
    dense_score: float
    dense_rank: int
    text: str
    metadata: dict[str, Any]


class VectorStore:
    """One workspace's Chroma collection.

    Args:
        client: a Chroma client from :func:`make_client`.
        collection_name: valid, unique Chroma name (see :mod:`prism.index.workspaces`).
        embed_model: embedding model name recorded in (or checked against) the collection metadata.
        dimension: embedding width.
        embed_backend: the embedder's backend (``torch``, ``onnx-fp32``, ``onnx-int8``), recorded likewise; a
            collection without one was built by torch. Backends of one :data:`~prism.config.EMBED_BACKEND_VECTORS`
            kind (torch and onnx-fp32) may share a collection; int8 and fp32 never do.
        server: ``host:port`` of the Chroma server the client talks to (``""``: local files), and ``timeout_s``
            its calls' timeout: named in the message of a call that timed out.

    Raises:
        EmbeddingModelMismatchError: the collection was built with another model, width or kind of vectors.
        StoreError: Chroma failed, or its server did not answer within the timeout (every method).
    """

    def __init__(self, client: Any, collection_name: str, embed_model: str, dimension: int, workspace: str = "",
                 embed_backend: str = "torch", *, server: str = "", timeout_s: float = 0.0):
        self._client = client
        self.name = collection_name
        self.workspace = workspace or collection_name
        self.server, self.timeout_s = server, timeout_s
        with self._chroma("Opening the collection"):
            self._col = client.get_or_create_collection(
                collection_name,
                configuration={"hnsw": {"space": "cosine"}},
                metadata={"embed_model": embed_model, "embed_dim": dimension, "embed_backend": embed_backend},
                embedding_function=None,
            )
        meta = self._col.metadata or {}
        if meta.get("embed_model") != embed_model or int(meta.get("embed_dim", dimension)) != dimension:
            raise EmbeddingModelMismatchError(
                f"Workspace '{self.workspace}' was indexed with the embedding model {meta.get('embed_model')!r} "
                f"({meta.get('embed_dim')}-d) but Prism is configured with {embed_model!r} ({dimension}-d). "
                f"Re-index it (the Reindex button on the Workspaces page, or python -m prism reindex --workspace "
                f"'{self.workspace}') or switch the model back."
            )
        built = str(meta.get("embed_backend", "torch"))
        if EMBED_BACKEND_VECTORS.get(built, built) != EMBED_BACKEND_VECTORS.get(embed_backend, embed_backend):
            raise EmbeddingModelMismatchError(
                f"Workspace '{self.workspace}' was indexed by the {built} embedder backend but the embedder now runs "
                f"on {embed_backend}. Their vectors differ (int8 quantization moves them by up to ~0.03), so new "
                f"chunks and queries would not match the stored ones. Re-index it (the Reindex button on the "
                f"Workspaces page, or python -m prism reindex --workspace '{self.workspace}') or set "
                f"PRISM_EMBED_BACKEND={built}."
            )

    @contextmanager
    def _chroma(self, doing: str) -> Iterator[None]:
        """Run Chroma calls, translating whatever they raise into a :class:`StoreError` that names the workspace
        and, for a server that timed out or could not be reached, the server (:func:`failure_message`)."""
        try:
            yield
        except PrismError:
            raise
        except Exception as exc:  # chromadb raises bare Exception / ValueError / its own errors / httpx errors
            raise StoreError(failure_message(exc, f"{doing} of workspace '{self.workspace}'", self.server,
                                             self.timeout_s)) from exc

    def reconnect(self, client: Any) -> None:
        """Re-open the collection through a new client (after another process changed the local files)."""
        self._client = client
        with self._chroma("Re-opening the collection"):
            self._col = client.get_collection(self.name, embedding_function=None)

    def count(self) -> int:
        """Number of stored chunks."""
        with self._chroma("Counting the chunks"):
            return int(self._col.count())

    def _batch(self) -> int:
        with self._chroma("Asking the batch size"):
            return max(1, int(self._client.get_max_batch_size()))

    def add(self, chunks: Sequence[Chunk], embeddings: np.ndarray, texts: Sequence[str] | None = None) -> None:
        """Store chunks with their embeddings (``(len(chunks), dim)`` float32) in batches Chroma accepts.

        ``texts`` (default: the chunks' texts) is what is stored as the document text.
        """
        if len(chunks) != len(embeddings):
            raise ValueError(f"{len(chunks)} chunks but {len(embeddings)} embeddings")
        self.add_records([c.chunk_id for c in chunks], embeddings,
                         list(texts) if texts is not None else [c.text for c in chunks],
                         [c.metadata() for c in chunks])

    def add_records(self, ids: Sequence[str], embeddings: np.ndarray, documents: Sequence[str],
                    metadatas: Sequence[dict[str, Any]]) -> None:
        """Store records as they are kept (ids, ``(n, dim)`` float32 vectors, texts, flat metadata) in batches
        Chroma accepts; an id already stored is overwritten.

        Raises:
            ValueError: the lengths differ.
            StoreError: Chroma failed.
        """
        if not len(ids) == len(embeddings) == len(documents) == len(metadatas):
            raise ValueError(f"{len(ids)} ids, {len(embeddings)} embeddings, {len(documents)} texts")
        step = self._batch()
        for i in range(0, len(ids), step):
            with self._chroma("Writing chunks"):
                self._col.upsert(ids=list(ids[i : i + step]), embeddings=embeddings[i : i + step],
                                 documents=list(documents[i : i + step]), metadatas=list(metadatas[i : i + step]))

    def update(self, chunk_ids: Sequence[str], metadatas: Sequence[dict[str, Any]],
               embeddings: np.ndarray | None = None) -> None:
        """Change stored chunks' metadata (and vectors) in place: each metadata dict is merged into the chunk's, a
        key given as ``None`` is removed; ``embeddings`` (``(len(chunk_ids), dim)`` float32) replace the vectors.

        Raises:
            ValueError: the lengths differ.
            StoreError: Chroma failed.
        """
        if len(chunk_ids) != len(metadatas) or (embeddings is not None and len(embeddings) != len(chunk_ids)):
            raise ValueError(f"{len(chunk_ids)} chunk ids, {len(metadatas)} metadatas")
        step = self._batch()
        for i in range(0, len(chunk_ids), step):
            extra = {"embeddings": embeddings[i : i + step]} if embeddings is not None else {}
            with self._chroma("Updating chunks"):
                self._col.update(ids=list(chunk_ids[i : i + step]), metadatas=list(metadatas[i : i + step]), **extra)

    def delete_document(self, doc_id: str) -> None:
        """Remove every chunk of ``doc_id`` (no error when there is none)."""
        with self._chroma("Deleting chunks"):
            self._col.delete(where={"doc_id": doc_id})

    def document_chunk_ids(self, doc_id: str) -> list[str]:
        """Ids of the stored chunks of ``doc_id``."""
        with self._chroma("Listing a document's chunks"):
            return list(self._col.get(where={"doc_id": doc_id}, include=[])["ids"])

    def get(self, chunk_ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        """``{chunk_id: (text, metadata)}`` for the ids that exist."""
        if not chunk_ids:
            return {}
        with self._chroma("Reading chunks"):
            got = self._col.get(ids=list(chunk_ids), include=["documents", "metadatas"])
        return {i: (d, m) for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)}

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """``{chunk_id: stored embedding}`` (float32, shape ``(dim,)``, as embedded at ingest) for the ids that
        exist: answering reads these instead of embedding chunks again.

        Raises:
            StoreError: the collection could not be read.
        """
        if not chunk_ids:
            return {}
        with self._chroma("Reading vectors"):
            got = self._col.get(ids=list(chunk_ids), include=["embeddings"])
        return {i: np.asarray(e, dtype=np.float32) for i, e in zip(got["ids"], got["embeddings"], strict=True)}

    def query(
        self, embedding: np.ndarray, top_k: int, doc_ids: Collection[str] | None = None
    ) -> list[DenseHit]:
        """Nearest chunks by cosine similarity.

        Args:
            embedding: L2-normalised query vector, shape ``(dim,)``.
            top_k: most hits returned.
            doc_ids: restrict to these documents (Chroma ``where`` with ``$in``); ``None`` means all.

        Returns:
            Hits best first, ``dense_score = 1 - cosine_distance``, ranks 1..n.
        """
        if top_k <= 0:
            return []
        where: dict[str, Any] | None = None
        if doc_ids is not None:
            ids = sorted(doc_ids)
            if not ids:
                return []
            where = {"doc_id": ids[0]} if len(ids) == 1 else {"doc_id": {"$in": ids}}
        with self._chroma("Dense search"):
            res = self._col.query(
                query_embeddings=[np.asarray(embedding, dtype=np.float32)],
                n_results=top_k,
                where=where,
                include=["distances", "documents", "metadatas"],
            )
        hits = []
        for rank, (cid, dist, doc, meta) in enumerate(
            zip(res["ids"][0], res["distances"][0], res["documents"][0], res["metadatas"][0], strict=True), start=1
        ):
            hits.append(DenseHit(cid, 1.0 - float(dist), rank, doc, dict(meta)))
        return hits

    def drop(self) -> None:
        """Delete the whole collection."""
        with self._chroma("Deleting the collection"):
            self._client.delete_collection(self.name)


class VectorIndex(Protocol):
    """What the rest of Prism needs of one workspace's vector store. :class:`VectorStore` (Chroma) is the one
    implementation; to swap the backend, implement this Protocol and :class:`VectorStores` (the client's lifecycle)
    in this module."""

    name: str

    def count(self) -> int: ...

    def add(self, chunks: Sequence[Chunk], embeddings: np.ndarray, texts: Sequence[str] | None = None) -> None: ...

    def add_records(self, ids: Sequence[str], embeddings: np.ndarray, documents: Sequence[str],
                    metadatas: Sequence[dict[str, Any]]) -> None: ...

    def update(self, chunk_ids: Sequence[str], metadatas: Sequence[dict[str, Any]],
               embeddings: np.ndarray | None = None) -> None: ...

    def delete_document(self, doc_id: str) -> None: ...

    def document_chunk_ids(self, doc_id: str) -> list[str]: ...

    def get(self, chunk_ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]: ...

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]: ...

    def query(self, embedding: np.ndarray, top_k: int, doc_ids: Collection[str] | None = None) -> list[DenseHit]: ...


class VectorStores:
    """The vector-store backend of one process: the Chroma client (opened on first use, thread-safe) and the
    collections opened through it.

    Args:
        settings: ``chroma_host`` / ``chroma_port`` (a server) or ``home`` (local files).
    """

    def __init__(self, settings: Settings):
        self.settings = settings
        self._client: Any = None
        self._lock = threading.RLock()

    @property
    def client(self) -> Any:
        """The Chroma client (:func:`make_client`, opened on first use).

        Raises:
            StoreError: it cannot be opened.
        """
        with self._lock:
            if self._client is not None or not self.settings.chroma_host:
                self._client = self._client or make_client(self.settings)
                return self._client
        client = make_client(self.settings)  # a server: connected outside the lock (bounded by chroma_timeout_s)
        with self._lock:
            self._client = self._client or client
            return self._client

    def open(self, collection: str, embed_model: str, dimension: int, workspace: str = "",
             embed_backend: str = "torch") -> VectorStore:
        """A workspace's collection (created when missing); arguments as :class:`VectorStore`.

        Raises:
            EmbeddingModelMismatchError: it was built with another model or width.
            StoreError: Chroma failed.
        """
        return VectorStore(self.client, collection, embed_model, dimension, workspace, embed_backend,
                           server=server_name(self.settings), timeout_s=self.settings.chroma_timeout_s)

    def drop(self, collection: str) -> None:
        """Delete a collection with all its vectors; one that does not exist (never opened) is fine.

        Raises:
            StoreError: the Chroma server did not answer in time or could not be reached.
        """
        client = self.client
        try:
            client.delete_collection(collection)
        except Exception as exc:  # chromadb raises ValueError / NotFoundError variants for a missing collection
            if isinstance(transport_error(exc), httpx.TransportError):
                raise StoreError(failure_message(exc, f"Deleting the collection {collection}",
                                                 server_name(self.settings), self.settings.chroma_timeout_s)) from exc
            logger.info("collection %s not dropped: %s", collection, exc)

    def reset(self, stores: Iterable[VectorStore]) -> None:
        """Re-open local files through a fresh client, reconnecting ``stores`` (another process changed them).

        Chroma's local client keeps each collection's vector index in memory per process (a process-wide system
        cache) and does not see vectors another process added; clearing that cache and reconnecting does. A Chroma
        server (``chroma_host``) has no such cache: nothing is done.

        Raises:
            StoreError: a collection cannot be re-opened.
        """
        if self.settings.chroma_host:
            return
        from chromadb.api.shared_system_client import SharedSystemClient

        with self._lock:
            SharedSystemClient.clear_system_cache()
            self._client = make_client(self.settings)
            for store in stores:
                store.reconnect(self._client)

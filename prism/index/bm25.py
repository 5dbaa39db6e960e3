"""The BM25 index of one workspace: rank_bm25's Okapi statistics, a non-negative IDF, vectorised scoring, files.

:class:`BM25Index` subclasses :class:`rank_bm25.BM25Okapi` for the corpus statistics (term frequencies, document
frequencies, document lengths, average length) and fixes what the design notes say is wrong with it:

* IDF. rank_bm25 uses ``ln((N - n + 0.5) / (n + 0.5))``, which is 0 or negative for a term in half or more of the
  chunks (in a two-chunk workspace the matching chunk scores 0) and papers over negatives with
  ``epsilon * average_idf``. Here ``idf(t) = ln(1 + (N - n + 0.5) / (n + 0.5))`` (Robertson & Zaragoza, "The
  Probabilistic Relevance Framework: BM25 and Beyond", 2009, with the ``1 +`` of Lucene's ``BM25Similarity``),
  which is always > 0.
* Validation with ``assert``, a ``str`` query silently scored as characters, division by zero on an empty corpus:
  replaced by ``if ...: raise`` checks, a ``TypeError`` for ``str`` queries, and an empty index whose searches
  return ``[]``.
* Speed. rank_bm25 loops over every chunk in Python for every query term. Here the per-term BM25 weights are
  precomputed once into a ``scipy.sparse`` CSC matrix (chunks x terms), so a query is a gather of a few columns
  and a sum: milliseconds for 50,000 chunks.

Chunks whose text has no tokens (punctuation, symbols or stop words only) are never put into the statistics; they
are listed in :attr:`BM25Index.skipped_ids`. Persistence is JSON + ``.npz`` (no pickle), written atomically, with a
format version and the caller's ``fingerprint`` (the workspace state hash) so a stale index can be recognised.
The index is immutable after construction, so one instance may be searched from several threads at once.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import time
import zipfile
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse
from rank_bm25 import BM25Okapi

from prism.config import Settings, get_settings
from prism.errors import StoreError
from prism.fsutil import atomic_write
from prism.index.tokenizer import tokenize

logger = logging.getLogger(__name__)

__all__ = ["FORMAT_VERSION", "BM25Index"]

FORMAT_VERSION = 1
"""Version of the on-disk layout; an index saved with another version is not loaded (the caller rebuilds)."""
META_FILE = "bm25.json"


class BM25Index(BM25Okapi):
    """Okapi BM25 over a workspace's chunks, searched by ``chunk_id``.

    ``bm25_score(q, d) = Σ_{t ∈ q} idf(t) · tf(t, d) · (k1 + 1) / (tf(t, d) + k1 · (1 − b + b · |d| / avgdl))``
    with ``idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))`` (Robertson & Zaragoza 2009; Lucene
    ``BM25Similarity``; Lucene ≥ 8 drops the constant factor ``k1 + 1``, which does not change any ranking). A query
    term repeated ``c`` times counts ``c`` times, as in rank_bm25. Scores are ≥ 0 and unbounded; 0 means no query
    term occurs in the chunk.

    Attributes:
        chunk_ids: ids of the indexed chunks, in input order (the tie-break order of :meth:`search`).
        skipped_ids: ids given but not indexed because their text has no tokens.
        fingerprint: the caller's state hash recorded at build time (compare it to tell a stale index).
        k1, b: BM25 parameters; idf, doc_len, avgdl, corpus_size: rank_bm25's statistics (``doc_freqs`` is
            emptied once the weight matrix is built, to save memory).
    """

    def __init__(
        self,
        chunk_ids: Sequence[str],
        texts: Sequence[str] | None = None,
        *,
        tokens: Sequence[Sequence[str]] | None = None,
        fingerprint: str = "",
        k1: float | None = None,
        b: float | None = None,
        settings: Settings | None = None,
    ) -> None:
        """Tokenise (unless ``tokens`` are given) and index the chunks.

        Args:
            chunk_ids: unique chunk ids, one per text.
            texts: chunk texts, tokenised with :func:`tokenize`. Give exactly one of ``texts`` and ``tokens``.
            tokens: pre-tokenised chunks (lists of terms from :func:`tokenize`).
            fingerprint: the workspace state hash this index reflects; stored and saved with it.
            k1: term-frequency saturation, > 0; default ``settings.bm25_k1``.
            b: length normalisation in [0, 1]; default ``settings.bm25_b``.
            settings: where the defaults come from; default :func:`prism.config.get_settings`.

        Raises:
            TypeError: ``chunk_ids``, a text or a token list is a bare ``str`` or not a str sequence.
            ValueError: both or neither of ``texts``/``tokens``; lengths differ; a duplicate chunk id; ``k1 <= 0``
                or ``b`` outside [0, 1].
        """
        settings = settings or get_settings()
        k1 = settings.bm25_k1 if k1 is None else float(k1)
        b = settings.bm25_b if b is None else float(b)
        if not k1 > 0 or not 0 <= b <= 1:
            raise ValueError(f"BM25 needs k1 > 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        started = time.perf_counter()
        ids, docs = _checked_docs(chunk_ids, texts, tokens)
        kept = [i for i, doc in enumerate(docs) if doc]
        self.skipped_ids: tuple[str, ...] = tuple(ids[i] for i, doc in enumerate(docs) if not doc)
        if self.skipped_ids:
            logger.warning("BM25: %d chunk(s) have no indexable tokens and are not indexed", len(self.skipped_ids))
        self._nd: dict[str, int] = {}
        if kept:
            super().__init__([docs[i] for i in kept], k1=k1, b=b, epsilon=0.0)  # calls our _calc_idf
        else:
            self.k1, self.b, self.epsilon = k1, b, 0.0
            self.corpus_size, self.avgdl, self.tokenizer = 0, 0.0, None
            self.doc_freqs: list[dict[str, int]] = []
            self.idf: dict[str, float] = {}
            self.doc_len: list[int] = []
            self.average_idf = 0.0
        vocab, self._nd = list(self._nd), {}
        matrix = self._weight_matrix(vocab, k1, b)
        self.doc_freqs = []  # the matrix holds everything search needs; the dicts would double the memory
        self._set_state([ids[i] for i in kept], vocab, matrix, fingerprint)
        logger.info("BM25: indexed %d chunks, %d terms in %.2f s", len(kept), len(vocab), time.perf_counter() - started)

    def _weight_matrix(self, vocab: list[str], k1: float, b: float) -> scipy.sparse.csc_matrix:
        """Each (chunk, term) pair's BM25 weight from rank_bm25's statistics, as a CSC matrix chunks x terms."""
        col_of = {term: j for j, term in enumerate(vocab)}
        tf_cols = np.fromiter((col_of[t] for d in self.doc_freqs for t in d), dtype=np.int64)
        tf = np.fromiter((f for d in self.doc_freqs for f in d.values()), dtype=np.float64, count=tf_cols.size)
        lengths = np.fromiter((len(d) for d in self.doc_freqs), dtype=np.int64, count=len(self.doc_freqs))
        rows = np.repeat(np.arange(len(self.doc_freqs)), lengths)
        idf = np.fromiter((self.idf[t] for t in vocab), dtype=np.float64, count=len(vocab))
        doc_len = np.asarray(self.doc_len, dtype=np.float64)
        norm = k1 * (1.0 - b + b * doc_len[rows] / self.avgdl) if rows.size else np.zeros(0)
        weights = idf[tf_cols] * (tf * (k1 + 1.0) / (tf + norm))
        return scipy.sparse.csc_matrix((weights, (rows, tf_cols)), shape=(len(self.doc_freqs), len(vocab)))

    # --- rank_bm25 overrides --------------------------------------------------------------------------------

    def _calc_idf(self, nd: dict[str, int]) -> None:
        """Non-negative IDF ``ln(1 + (N − n + 0.5) / (n + 0.5))`` (Robertson & Zaragoza 2009; Lucene)."""
        n_docs = self.corpus_size
        self._nd = nd
        self.idf = {term: math.log1p((n_docs - n + 0.5) / (n + 0.5)) for term, n in nd.items()}
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0

    def get_scores(self, query: Sequence[str]) -> np.ndarray:
        """BM25 score of every indexed chunk for already-tokenised query terms.

        Args:
            query: terms from :func:`tokenize` (unknown terms contribute 0).

        Returns:
            float64 array of shape ``(len(chunk_ids),)``, in ``chunk_ids`` order, each ≥ 0.

        Raises:
            TypeError: ``query`` is a ``str`` (rank_bm25 would score its characters) or holds non-str items.
        """
        terms = _str_list(query, "query")
        n_docs = len(self.chunk_ids)
        counts = Counter(t for t in terms if t in self._col_of)
        if not counts or n_docs == 0:
            return np.zeros(n_docs, dtype=np.float64)
        indptr, indices, data = self._matrix.indptr, self._matrix.indices, self._matrix.data
        rows, weights = [], []
        for term, count in counts.items():
            col = self._col_of[term]
            start, end = indptr[col], indptr[col + 1]
            rows.append(indices[start:end])
            weights.append(data[start:end] * count if count > 1 else data[start:end])
        return np.bincount(np.concatenate(rows), weights=np.concatenate(weights), minlength=n_docs)

    def get_batch_scores(self, query: Sequence[str], doc_ids: Sequence[int]) -> list[float]:
        """Scores of the chunks at 0-based positions ``doc_ids`` (rank_bm25's API, without its ``assert``).

        Raises:
            IndexError: a position is outside ``[0, len(chunk_ids))``.
        """
        positions = np.asarray(doc_ids, dtype=np.int64)
        if positions.size and (positions.min() < 0 or positions.max() >= len(self.chunk_ids)):
            raise IndexError(f"chunk positions must be in [0, {len(self.chunk_ids)})")
        return self.get_scores(query)[positions].tolist()

    def get_top_n(self, query: Sequence[str], documents: Sequence[Any], n: int = 5) -> list[Any]:
        """rank_bm25's API: the ``n`` best of ``documents`` (one per indexed chunk), ties by chunk order.

        Raises:
            ValueError: ``len(documents) != len(chunk_ids)``.
        """
        if len(documents) != len(self.chunk_ids):
            raise ValueError(f"{len(documents)} documents given for an index of {len(self.chunk_ids)} chunks")
        scores = self.get_scores(query)
        return [documents[i] for i in np.lexsort((np.arange(scores.size), -scores))[:n]]

    # --- search -----------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        """Number of indexed chunks."""
        return len(self.chunk_ids)

    def search(self, query: str, top_k: int, allowed_ids: Collection[str] | None = None) -> list[tuple[str, float]]:
        """The chunks that best match ``query`` lexically.

        Args:
            query: the analyst's question (tokenised with :func:`tokenize`).
            top_k: most results to return, ≥ 1.
            allowed_ids: when given, only these chunk ids may be returned (e.g. the chunks of the documents the
                analyst selected); the filter is applied before taking ``top_k``. Ids not in the index are ignored.

        Returns:
            Up to ``top_k`` ``(chunk_id, bm25_score)`` pairs, score descending, ties in chunk order; only scores
            > 0. ``[]`` when the query has no tokens (punctuation, stop words, whitespace, emoji), no query term
            is in the index, or the index is empty: "no lexical signal", never a ranking of zeros.

        Raises:
            TypeError: ``query`` is not a ``str``, or ``allowed_ids`` is a bare ``str``.
            ValueError: ``top_k < 1``.
        """
        if not isinstance(query, str):
            raise TypeError(f"query must be a str, got {type(query).__name__}")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"top_k must be an int >= 1, got {top_k!r}")
        if isinstance(allowed_ids, str):
            raise TypeError("allowed_ids must be a collection of chunk ids, not a single str")
        terms = tokenize(query)
        if not terms or not self.chunk_ids:
            logger.debug("BM25: no lexical signal (query has %d tokens)", len(terms))
            return []
        scores = self.get_scores(terms)
        candidates = np.flatnonzero(scores > 0)
        if allowed_ids is not None:
            allowed = [self._position[i] for i in allowed_ids if i in self._position]
            candidates = candidates[np.isin(candidates, np.asarray(allowed, dtype=np.int64))]
        if candidates.size == 0:
            return []
        values = scores[candidates]
        if candidates.size > top_k:
            keep = values >= np.partition(values, -top_k)[-top_k]  # the top_k best, plus any ties at the cut
            candidates, values = candidates[keep], values[keep]
        order = np.lexsort((candidates, -values))[:top_k]
        return [(self.chunk_ids[i], float(values[j])) for j, i in zip(order, candidates[order], strict=True)]

    # --- persistence ------------------------------------------------------------------------------------------

    def save(self, directory: Path) -> None:
        """Write the index into ``directory`` atomically.

        Layout: ``bm25.json`` (format version, fingerprint, k1, b, avgdl, chunk ids, skipped ids, vocabulary,
        names of the data files) and two ``.npz`` files named by a fresh build id (the weight matrix via
        ``scipy.sparse.save_npz``; ``idf`` and ``doc_len``). Data files are written first (temp file, fsync,
        ``os.replace``), then ``bm25.json`` the same way: that replace is the commit, so a reader sees the old
        or the new index, never a mix. Data files of older builds are deleted afterwards.

        Raises:
            StoreError: the folder or a file could not be written.
        """
        started = time.perf_counter()
        build_id = secrets.token_hex(8)
        matrix_file, arrays_file = f"bm25-{build_id}.matrix.npz", f"bm25-{build_id}.arrays.npz"
        meta = {
            "format_version": FORMAT_VERSION,
            "fingerprint": self.fingerprint,
            "build_id": build_id,
            "matrix_file": matrix_file,
            "arrays_file": arrays_file,
            "k1": self.k1,
            "b": self.b,
            "avgdl": self.avgdl,
            "chunk_ids": list(self.chunk_ids),
            "skipped_ids": list(self.skipped_ids),
            "vocab": self._vocab,
        }
        arrays = {"idf": self._idf_array, "doc_len": np.asarray(self.doc_len, dtype=np.int64)}
        try:
            directory.mkdir(parents=True, exist_ok=True)
            atomic_write(directory / matrix_file, lambda f: scipy.sparse.save_npz(f, self._matrix, compressed=False))
            atomic_write(directory / arrays_file, lambda f: np.savez(f, idf=arrays["idf"], doc_len=arrays["doc_len"]))
            payload = json.dumps(meta, ensure_ascii=False).encode("utf-8")
            atomic_write(directory / META_FILE, lambda f: f.write(payload))
        except OSError as exc:
            raise StoreError(f"Could not save the BM25 index in {directory}: {exc.strerror or exc}.") from exc
        for old in directory.glob("bm25-*.npz"):
            if old.name not in (matrix_file, arrays_file):
                old.unlink(missing_ok=True)
        logger.info("BM25: saved %d chunks in %.2f s", len(self.chunk_ids), time.perf_counter() - started)

    @classmethod
    def load(
        cls, directory: Path, *, fingerprint: str | None = None, k1: float | None = None, b: float | None = None
    ) -> BM25Index | None:
        """Open an index written by :meth:`save` without re-tokenising anything.

        Args:
            directory: the folder given to :meth:`save`.
            fingerprint: when given, an index saved with another fingerprint is stale and not loaded.
            k1, b: when given, an index built with other BM25 parameters is not loaded.

        Returns:
            The index, or ``None`` when the caller should rebuild it: no index in the folder, another format
            version, a stale fingerprint, other k1/b, or files that are corrupt or do not agree with each other
            (the reason is logged at WARNING). A BM25 index is derived data, so rebuilding is always the remedy.

        Raises:
            StoreError: the files exist but cannot be read (permissions, I/O error).
        """
        started = time.perf_counter()
        try:
            meta = json.loads((directory / META_FILE).read_text(encoding="utf-8"))
            if not isinstance(meta, dict) or meta.get("format_version") != FORMAT_VERSION:
                return _rebuild(directory, "another format version")
            if fingerprint is not None and meta.get("fingerprint") != fingerprint:
                return _rebuild(directory, "stale fingerprint")
            if (k1 is not None and meta.get("k1") != k1) or (b is not None and meta.get("b") != b):
                return _rebuild(directory, "built with other k1/b")
            matrix = scipy.sparse.load_npz(directory / str(meta["matrix_file"])).tocsc()
            with np.load(directory / str(meta["arrays_file"]), allow_pickle=False) as arrays:
                idf, doc_len = arrays["idf"].astype(np.float64), arrays["doc_len"].astype(np.int64)
            ids = _str_list(meta["chunk_ids"], "chunk_ids")
            vocab = _str_list(meta["vocab"], "vocab")
            if matrix.shape != (len(ids), len(vocab)) or idf.shape != (len(vocab),) or doc_len.shape != (len(ids),):
                return _rebuild(directory, "files disagree in size")
            matrix.check_format(full_check=True)
            if len(set(ids)) != len(ids) or not np.all(np.isfinite(matrix.data)) or np.any(matrix.data < 0):
                return _rebuild(directory, "invalid contents")
            index = cls.__new__(cls)
            index.k1, index.b, index.epsilon = float(meta["k1"]), float(meta["b"]), 0.0
            index.corpus_size, index.avgdl, index.tokenizer = len(ids), float(meta["avgdl"]), None
            index.doc_freqs, index.doc_len = [], doc_len.tolist()
            index.idf = dict(zip(vocab, idf.tolist(), strict=True))
            index.average_idf = float(idf.mean()) if idf.size else 0.0
            index.skipped_ids = tuple(_str_list(meta.get("skipped_ids", []), "skipped_ids"))
            index._set_state(ids, vocab, matrix, str(meta.get("fingerprint", "")))
        except FileNotFoundError:
            return _rebuild(directory, "no index files")
        except (ValueError, TypeError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            return _rebuild(directory, f"corrupt files ({type(exc).__name__})")
        except OSError as exc:
            raise StoreError(f"Could not read the BM25 index in {directory}: {exc.strerror or exc}.") from exc
        logger.info("BM25: loaded %d chunks in %.2f s", len(ids), time.perf_counter() - started)
        return index

    # --- internals --------------------------------------------------------------------------------------------

    def _set_state(self, ids: list[str], vocab: list[str], matrix: scipy.sparse.csc_matrix, fingerprint: str) -> None:
        self.chunk_ids: tuple[str, ...] = tuple(ids)
        self.fingerprint = str(fingerprint)
        self._position = {chunk_id: i for i, chunk_id in enumerate(ids)}
        self._vocab = vocab
        self._col_of = {term: j for j, term in enumerate(vocab)}
        self._matrix = matrix
        self._idf_array = np.fromiter((self.idf[t] for t in vocab), dtype=np.float64, count=len(vocab))


def _checked_docs(chunk_ids: Sequence[str], texts: Sequence[str] | None,
                  tokens: Sequence[Sequence[str]] | None) -> tuple[list[str], list[list[str]]]:
    """The ids and one token list per id (``texts`` tokenised, or ``tokens`` as given), validated.

    Raises:
        TypeError: a bare ``str`` where a sequence of str is needed.
        ValueError: both or neither of ``texts``/``tokens``; lengths differ; a duplicate chunk id.
    """
    if (texts is None) == (tokens is None):
        raise ValueError("give exactly one of texts= and tokens=")
    ids = _str_list(chunk_ids, "chunk_ids")
    if len(set(ids)) != len(ids):
        duplicate = next(i for i, n in Counter(ids).items() if n > 1)
        raise ValueError(f"chunk id {duplicate!r} is given more than once")
    if texts is not None:
        docs = [tokenize(text) for text in _str_list(texts, "texts")]
    else:
        docs = [_str_list(doc, "each token list") for doc in tokens or []]
    if len(docs) != len(ids):
        raise ValueError(f"{len(ids)} chunk ids but {len(docs)} texts/token lists")
    return ids, docs


def _str_list(items: Any, what: str) -> list[str]:
    """``items`` as a list of str; a bare str or a non-str item is a TypeError."""
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise TypeError(f"{what} must be a sequence of str, got {type(items).__name__}")
    out = list(items)
    if not all(isinstance(item, str) for item in out):
        raise TypeError(f"{what} must contain only str")
    return out


def _rebuild(directory: Path, reason: str) -> BM25Index | None:
    # a missing or stale index is the normal first-open / after-change path; only damage is worth a warning
    level = logging.INFO if ("no index files" in reason or "fingerprint" in reason) else logging.WARNING
    logger.log(level, "BM25: index in %s not loaded (%s); it must be rebuilt", directory, reason)
    return None

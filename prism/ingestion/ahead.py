"""Parsing with embedding ahead: a PDF is parsed in a worker process (:class:`~prism.ingestion.parsing.worker.ParseJob`)
while this process chunks and embeds the pages already read, on one core fewer (leaving one to the parser).

What is stored always comes from the complete parse; a vector made ahead is used only for a final chunk with exactly
the same text. Other formats, or a machine that cannot start a worker, are parsed in-process.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from prism.config import Settings
from prism.errors import NoExtractableTextError
from prism.index.embedder import PrismEmbedding
from prism.ingestion import parsing
from prism.ingestion.parsing.pdf.read import looks_like_pdf
from prism.ingestion.parsing.worker import ParseJob, active_jobs
from prism.ingestion.prepare import chunk, index_text, strip_running
from prism.types import Page, ParsedDocument, ProgressCallback

logger = logging.getLogger(__name__)

EMBED_SLICE = 64
"""Texts embedded per call while storing a document: progress and cancellation are checked between slices (about
2 s of work on two cores; each vector is the same as from one call for all texts, up to float rounding)."""
TitleOf = Callable[[ParsedDocument], "str | None"]
"""``title_of(document) -> title header``: the title a (partly) parsed document is indexed under, read from its pages
before running lines are removed (e.g. from its profile)."""


@dataclass
class StageTimings:
    """Seconds spent per stage over a batch (for benchmarks).

    ``parse`` is the time spent waiting for the parser (not overlapped with anything); ``embed_ahead`` is the part
    of ``embed`` done while the parser was still running; ``chunk`` includes re-chunking the partial document for
    embedding ahead (``chunk_ahead`` of it); ``chunks_ahead`` counts final chunks whose vector was made ahead,
    ``ahead_unused`` vectors made ahead that no final chunk used (work thrown away: the text changed once more pages
    came); ``docs_parsed_ahead`` the documents whose parse started while the one before them was embedded and
    stored.
    """

    read: float = 0.0
    parse: float = 0.0
    chunk: float = 0.0
    chunk_ahead: float = 0.0
    embed: float = 0.0
    embed_ahead: float = 0.0
    store: float = 0.0
    pages: int = 0
    chunks: int = 0
    chunks_ahead: int = 0
    ahead_unused: int = 0
    docs_parsed_ahead: int = 0


@dataclass
class Ahead:
    """Vectors embedded while a document was still parsing: index text → vector, and the seconds it took."""

    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    seconds: float = 0.0


class EmbedAhead:
    """Parses documents and embeds their index texts, reusing what was embedded while a PDF parsed.

    Args:
        embedder: the workspace's embedder.
        settings: ``parse_in_subprocess``, ``stream_rechunk_pages``, ``stream_embed_slice`` and the chunking knobs.
        timings: where stage seconds are added up.
    """

    def __init__(self, embedder: PrismEmbedding, settings: Settings, timings: StageTimings):
        self.embedder = embedder
        self.settings = settings
        self.timings = timings

    def parse(self, data: bytes, name: str, doc_id: str, progress: ProgressCallback, embed_ahead: bool,
              title_of: TitleOf | None = None, job: ParseJob | None = None) -> tuple[ParsedDocument, Ahead]:
        """Parse ``data``; a PDF in a child process while the pages read so far are chunked and embedded under the
        title ``title_of`` gives the pages read so far (``embed_ahead``; off when the index texts will not be the
        chunks' own, e.g. contextual retrieval). A vector is used only when the final index text is the same.
        ``job``: the document's parse, already started (:class:`~prism.ingestion.prefetch.NextParse`).

        Returns:
            ``(document, ahead)``: the vectors embedded while parsing (none when nothing was embedded ahead).

        Raises:
            PrismError: from the parser.
        """
        if job is None and not (self.settings.parse_in_subprocess and looks_like_pdf(data)):
            return parsing.load(data, name, self.settings), Ahead()
        try:
            job = job or ParseJob(data, name, self.settings)
        except OSError as exc:  # no fork possible (process or memory limits): parse here
            logger.warning("parsing %s in-process: cannot start a parser process (%s)", name, exc)
            return parsing.load(data, name, self.settings), Ahead()
        ahead = Ahead()
        try:
            if embed_ahead:
                self._embed_ahead(job, doc_id, ahead, progress, title_of or (lambda _doc: None))
            return job.result(), ahead
        finally:
            job.cancel()

    def _embed_ahead(self, job: ParseJob, doc_id: str, ahead: Ahead, progress: ProgressCallback,
                     title_of: TitleOf) -> None:
        """While ``job`` runs, chunk the pages read so far and embed the chunks that can no longer change.

        The partial document is re-chunked after ``max(stream_rechunk_pages, pages / 4)`` new pages (so re-chunking
        costs a few passes over the document, not one per page); its last two chunks are left out because more text
        may extend them. Embedding stops as soon as the parser is done (the rest is embedded at full speed with the
        final chunks).
        """
        pages: list[Page] = []
        chunked_at = 0
        step = self.settings.stream_rechunk_pages
        for page in job.pages():
            pages.append(page)
            if job.finished:
                return
            if len(pages) - chunked_at < max(step, chunked_at // 4):
                continue
            chunked_at = len(pages)
            t0 = time.perf_counter()
            partial = ParsedDocument(source=job.name, kind="pdf", pages=tuple(pages), total_pages=page.number or 0)
            title = title_of(partial)
            try:
                chunks = chunk(strip_running(partial, self.settings)[0], doc_id, title, self.embedder, self.settings)
            except NoExtractableTextError:
                continue
            spent = time.perf_counter() - t0
            self.timings.chunk += spent
            self.timings.chunk_ahead += spent
            texts = (index_text(title, c) for c in chunks[:-2])
            if not self._embed_slices(job, ahead, list(dict.fromkeys(t for t in texts if t not in ahead.vectors))):
                return
            progress(0.02, f"parsing; page {page.number} read, {len(ahead.vectors)} chunks embedded ahead")

    def _embed_slices(self, job: ParseJob, ahead: Ahead, todo: list[str]) -> bool:
        """Embed ``todo`` in slices of ``stream_embed_slice`` on one core fewer; False once the parser is done."""
        threads = max(1, self.embedder.threads - 1)
        size = self.settings.stream_embed_slice
        for i in range(0, len(todo), size):
            if job.finished:
                return False
            part = todo[i : i + size]
            t1 = time.perf_counter()
            ahead.vectors.update(zip(part, self.embedder.embed(part, threads=threads), strict=True))
            spent = time.perf_counter() - t1
            ahead.seconds += spent
            self.timings.embed_ahead += spent
            self.timings.embed += spent
        return True

    def embed(self, texts: list[str], ahead: Ahead,
              on_slice: Callable[[int, int], None] | None = None) -> np.ndarray:
        """Vectors for ``texts`` (shape ``(len(texts), dimension)``, float32), reusing those embedded ahead.

        The rest is embedded in slices of :data:`EMBED_SLICE` texts (a text that several chunks share, e.g. a
        repeated boilerplate paragraph, once); ``on_slice(done, total)`` is called before each slice and after the
        last, in chunks: ``done`` counts the chunks whose text has a vector, ahead ones included, ``total`` is
        ``len(texts)`` (the chunk count the analyst sees afterwards). It may raise to stop embedding (a cancelled
        batch). While a parser worker runs (the batch's next document, parsed ahead) it embeds on one core fewer,
        leaving that core to the parser.
        """
        vectors = dict(ahead.vectors)
        self.timings.chunks_ahead += sum(t in vectors for t in texts)
        self.timings.ahead_unused += len(ahead.vectors.keys() - set(texts))
        uses = Counter(texts)
        missing = [t for t in uses if t not in vectors]
        done = len(texts) - sum(uses[t] for t in missing)
        report = on_slice or (lambda _done, _total: None)
        for i in range(0, len(missing), EMBED_SLICE):
            report(done, len(texts))
            part = missing[i : i + EMBED_SLICE]
            threads = max(1, self.embedder.threads - 1) if active_jobs() else None
            vectors.update(zip(part, self.embedder.embed(part, threads=threads), strict=True))
            done += sum(uses[t] for t in part)
        report(len(texts), len(texts))
        if not texts:
            return self.embedder.embed([])
        return np.stack([vectors[t] for t in texts]).astype(np.float32, copy=False)

"""Overlap across documents: the next PDF of a batch starts parsing in a worker process as soon as the current one
is parsed, so it parses while the current one is chunked, embedded and stored (both cores stay busy).

Without it a batch alternates: parse document 1 (one core busy with pypdf, the other embedding ahead what it can),
then embed and store the rest of document 1 (the parser idle), then parse document 2. With it the parser is busy
for the whole batch. The next document's pages are then mostly read when its turn comes, and its own
:class:`~prism.ingestion.ahead.EmbedAhead` step uses the job already running instead of starting one.

The Upload page ingests one file per call, in submission order; a call told the file that follows
(``following``, :meth:`prism.ingestion.pipeline.Ingestor.ingest`) starts that file's parse once its own is parsed and
leaves it to the next call, so files of one upload overlap as a batch's do.

What is stored does not change: the job is the same :class:`~prism.ingestion.parsing.worker.ParseJob` the document
would have had (same bytes, name and settings); only its start moves earlier. A job whose document turns out to be a
duplicate, or is never reached (a cancelled batch), is cancelled.
"""

from __future__ import annotations

import hashlib
import logging

from prism.config import Settings
from prism.errors import PrismError
from prism.index.workspaces import Workspace
from prism.ingestion.parsing.pdf.read import looks_like_pdf
from prism.ingestion.parsing.worker import ParseJob
from prism.ingestion.prepare import read_item
from prism.types import IngestItem

logger = logging.getLogger(__name__)


class NextParse:
    """At most one parse started ahead for a batch: the next PDF, keyed by its document id (sha256 of its bytes).

    Args:
        workspace: the batch's workspace (a document already in it is not parsed ahead: it is a duplicate).
        settings: ``parse_next_document`` and ``parse_in_subprocess`` switch this on; the parser's settings.
    """

    def __init__(self, workspace: Workspace, settings: Settings):
        self.workspace = workspace
        self.settings = settings
        self._doc_id: str | None = None
        self._job: ParseJob | None = None

    @property
    def pending(self) -> bool:
        """True while a parse started ahead waits to be taken."""
        return self._job is not None

    @property
    def enabled(self) -> bool:
        """True when documents are parsed in workers and the next one may start early."""
        return self.settings.parse_in_subprocess and self.settings.parse_next_document

    def start(self, item: IngestItem, name: str) -> None:
        """Start parsing ``item`` (shown as ``name``) now, when it is a PDF not yet in the workspace. Never raises:
        a file that cannot be read, or a worker that cannot start, is left for its own turn (which reports it)."""
        if not self.enabled or item.is_url or self._job is not None:
            return
        try:
            data = read_item(item, name)
        except PrismError:
            return
        if data is None or not looks_like_pdf(data):
            return
        doc_id = hashlib.sha256(data).hexdigest()
        if self.workspace.find(doc_id) is not None:
            return
        try:
            self._job = ParseJob(data, name, self.settings)
        except OSError as exc:
            logger.warning("cannot parse %s ahead: %s", name, exc)
            return
        self._doc_id = doc_id
        logger.debug("parsing %s ahead", name)

    def take(self, doc_id: str, name: str) -> ParseJob | None:
        """The job started ahead for this document (same bytes and name), or ``None``; a job for another document
        is cancelled (the batch went another way)."""
        job, started_for = self._job, self._doc_id
        self._job, self._doc_id = None, None
        if job is None:
            return None
        if started_for == doc_id and job.name == name:
            return job
        job.cancel()
        return None

    def cancel(self) -> None:
        """Stop a job nobody will take (the batch ended or was cancelled)."""
        if self._job is not None:
            self._job.cancel()
        self._job, self._doc_id = None, None

"""An analyst's corrections of a document's profile, and what they change in the indexes.

Corrections are kept in the document's record (``profile_corrections``), apart from the extracted ``profile``, so
they survive a re-index (:meth:`prism.ingestion.pipeline.Ingestor.reindex` applies them again). Applying them:

1. the corrected profile is checked (:meth:`~prism.types.DocumentProfile.corrected`: known fields, document type and
   unit from their vocabularies, ISO dates);
2. every chunk's profile metadata (``entity``, ``doc_type``, ``period``, ``fiscal_year_end``, ``currency``, ``unit``)
   is updated in the vector store (a key whose value is gone is removed) and in the chunk rows;
3. when the title header changes (it is read from the profile, ``Settings.title_source``), the chunks whose index
   text was built from the old title are re-embedded and re-tokenised under the new one (contextual texts written
   by an LLM are left as they are);
4. the record is committed, which bumps the workspace's revision: the BM25 index and other processes follow.

All under the workspace's write lock. A process killed between steps leaves metadata that the next ``tag`` of the
same document (or a re-index) sets right; the stored chunk texts are never touched.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from prism.config import Settings
from prism.index.embedder import PrismEmbedding
from prism.index.sections import section_tokens
from prism.index.tokenizer import TOKENIZER_VERSION, tokenize
from prism.index.vector_store import VectorIndex
from prism.index.workspaces import Workspace
from prism.ingestion.prepare import compose_index_text, title_for
from prism.types import PROFILE_METADATA_KEYS, DocumentProfile, DocumentRecord

logger = logging.getLogger(__name__)


def corrected_record(record: DocumentRecord, corrections: Mapping[str, str | None], reset: bool = False,
                     ) -> DocumentRecord:
    """A copy of ``record`` with ``corrections`` merged into its analyst corrections (replacing them all with
    ``reset``).

    Raises:
        PrismError: a field is unknown or a value is outside its vocabulary (named in the message).
    """
    merged = {} if reset else dict(record.profile_corrections)
    merged.update(corrections)
    DocumentProfile.from_dict(record.profile or {}).corrected(**merged)  # validates
    return replace(record, profile_corrections=merged)


def _profile(record: DocumentRecord) -> DocumentProfile:
    return record.effective_profile() or DocumentProfile(None, None, None, None, None, None, None)


def _row_header(row: Mapping[str, Any]) -> str | None:
    table = row.get("table")
    return table.get("header") if isinstance(table, dict) else None


def apply_corrections(workspace: Workspace, store: VectorIndex, embedder: PrismEmbedding, settings: Settings,
                      old: DocumentRecord, new: DocumentRecord) -> int:
    """Bring ``new``'s chunks in line with its corrected profile (steps 2–4 of the module docstring). Call under the
    workspace's write lock.

    Returns:
        How many chunks were re-embedded (0 when the title header did not change).

    Raises:
        StoreError: the vector store or the workspace's files failed.
    """
    before, after = _profile(old), _profile(new)
    meta: dict[str, Any] = {key: None for key in PROFILE_METADATA_KEYS.values()}
    meta.update(after.metadata())
    old_title = title_for(new.source, settings, before)
    new_title = title_for(new.source, settings, after)
    rows = workspace.read_chunks(new.doc_id)
    redo: list[int] = []
    for i, row in enumerate(rows):
        for key, value in meta.items():
            if value is None:
                row.pop(key, None)
            else:
                row[key] = value
        if new_title != old_title and row.get("index_text", row["text"]) == compose_index_text(
                old_title, _row_header(row), row["text"]):
            redo.append(i)
    ids = [row["chunk_id"] for row in rows]
    if redo:
        texts = [compose_index_text(new_title, _row_header(rows[i]), rows[i]["text"]) for i in redo]
        store.update([ids[i] for i in redo], [meta] * len(redo), embedder.embed(texts))
        for i, text in zip(redo, texts, strict=True):
            rows[i].update(tokens=tokenize(text) + section_tokens(rows[i]), tokenizer=TOKENIZER_VERSION)
            if text != rows[i]["text"]:
                rows[i]["index_text"] = text
            else:
                rows[i].pop("index_text", None)
    rest = [cid for i, cid in enumerate(ids) if i not in set(redo)]
    store.update(rest, [meta] * len(rest))
    workspace.write_chunks(new.doc_id, rows)
    workspace.commit(add=new)
    logger.info("document %s: profile corrected (%s); %d of %d chunks re-embedded", new.doc_id[:12],
                ", ".join(sorted(new.profile_corrections)) or "reset", len(redo), len(rows))
    return len(redo)

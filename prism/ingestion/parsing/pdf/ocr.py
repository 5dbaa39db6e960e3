"""OCR for PDF pages without a text layer: pypdfium2 renders, rapidocr-onnxruntime reads.

The rapidocr engine (its wheel ships the ONNX detection, direction and recognition models) is loaded lazily, once per
process, under a lock. pdfium is not thread-safe and OCR is CPU-heavy, so rendering and recognition run under one
process-wide lock: one page at a time. If rapidocr cannot be imported or loaded, OCR is *unavailable* and callers
report the pages as skipped with the reason (:func:`ocr_unavailable_reason`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

MAX_RENDER_PIXELS = 4000
"""Longest side of a rendered page in pixels; the scale is lowered for oversized pages to bound memory."""
MIN_OCR_DPI = 150
"""The lowest resolution a page is read at: a scan coarser than this is still rendered at it (small print)."""

_engine: Any = None
_engine_error: str | None = None
_engine_lock = threading.Lock()
_ocr_lock = threading.Lock()


@dataclass(frozen=True)
class OcrPage:
    """OCR outcome of one page.

    Attributes:
        number: 1-based page number.
        text: recognised text, lines in reading order joined with ``\\n`` (``""`` when nothing was read or on error).
        error: plain-words reason when the page could not be rendered or read, else ``None``.
        seconds: wall time spent on the page (render + recognition), seconds.
        dpi: the resolution the page was rendered at (:func:`page_dpi`); 0 when it was not rendered.
    """

    number: int
    text: str
    error: str | None = None
    seconds: float = 0.0
    dpi: int = 0


def native_dpi(page: Any) -> float | None:
    """The resolution of a page's scan: pixels per inch of its largest image as placed on the page (a rotated
    image is measured along its long side), or ``None`` for a page without images (pypdfium2 ``PdfPage``)."""
    import pypdfium2.raw as pdfium_c

    best: tuple[float, float] | None = None  # (placed area, dpi)
    for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2):
        left, bottom, right, top = image.get_bounds()
        width_px, height_px = image.get_px_size()
        placed = max(right - left, top - bottom)
        if placed <= 0 or min(width_px, height_px) <= 1:
            continue
        area = (right - left) * (top - bottom)
        if best is None or area > best[0]:
            best = (area, max(width_px, height_px) * 72.0 / placed)
    return best[1] if best else None


def page_dpi(page: Any, dpi: int) -> int:
    """The resolution to render a page at for OCR: its scan's own (:func:`native_dpi`; rendering finer adds
    pixels, not detail, and the recogniser's time grows with them), between :data:`MIN_OCR_DPI` and ``dpi`` (the
    setting, the finest allowed); ``dpi`` for a page without images (vector text without a text layer); lowered so
    no side exceeds :data:`MAX_RENDER_PIXELS` pixels."""
    native = native_dpi(page)
    chosen = dpi if native is None else min(dpi, max(MIN_OCR_DPI, round(native)))
    width, height = page.get_size()  # points
    return int(min(chosen, MAX_RENDER_PIXELS * 72.0 / max(width, height, 1.0)))


def _get_engine() -> Any:
    """The process-wide RapidOCR engine, loading it on first use. Returns ``None`` when OCR is unavailable."""
    global _engine, _engine_error
    if _engine is not None or _engine_error is not None:
        return _engine
    with _engine_lock:
        if _engine is not None or _engine_error is not None:
            return _engine
        t0 = time.perf_counter()
        try:
            from rapidocr_onnxruntime import RapidOCR

            _engine = RapidOCR()
        except ImportError as exc:
            _engine_error = f"rapidocr-onnxruntime is not installed ({exc})"
        except (OSError, RuntimeError, ValueError) as exc:  # missing model files, onnxruntime load failures
            _engine_error = f"the OCR engine could not be loaded ({type(exc).__name__}: {exc})"
        if _engine_error is not None:
            logger.warning("OCR unavailable: %s", _engine_error)
        else:
            logger.info("OCR engine loaded in %.2f s", time.perf_counter() - t0)
    return _engine


def ocr_unavailable_reason() -> str | None:
    """Why OCR cannot run in this process, or ``None`` when the engine is (or can be) loaded. Loads the engine."""
    _get_engine()
    return _engine_error


def _lines_in_reading_order(result: Sequence[Any]) -> list[str]:
    """Group rapidocr boxes into lines (vertical overlap) top to bottom, each line's boxes left to right.

    Args:
        result: rapidocr output, items ``[box, text, score]`` with ``box`` four ``[x, y]`` corners in pixels.
    """
    boxes = []
    for box, text, _score in result:
        ys = [float(pt[1]) for pt in box]
        xs = [float(pt[0]) for pt in box]
        if text and text.strip():
            boxes.append((min(ys), max(ys), min(xs), text.strip()))
    boxes.sort(key=lambda b: ((b[0] + b[1]) / 2, b[2]))
    lines: list[list[tuple[float, float, float, str]]] = []
    for box in boxes:
        centre = (box[0] + box[1]) / 2
        if lines:
            last = lines[-1]
            top = sum(b[0] for b in last) / len(last)
            bottom = sum(b[1] for b in last) / len(last)
            if top <= centre <= bottom:
                last.append(box)
                continue
        lines.append([box])
    return [" ".join(b[3] for b in sorted(line, key=lambda b: b[2])) for line in lines]


def ocr_pdf_pages(data: bytes, numbers: Sequence[int], dpi: int, name: str) -> Iterator[OcrPage]:
    """Render and OCR the given pages of a PDF.

    Args:
        data: the PDF's bytes.
        numbers: 1-based page numbers to read, in the order wanted.
        dpi: the finest render resolution in dots per inch (72–600); each page is read at its scan's own
            resolution within that (:func:`page_dpi`).
        name: the file's display name (for messages).

    Yields:
        One :class:`OcrPage` per requested page, in the order of ``numbers``. A page that cannot be rendered or read
        has ``error`` set; OCR being unavailable gives every page ``error="OCR unavailable: <reason>"``.
    """
    engine = _get_engine()
    if engine is None:
        for number in numbers:
            yield OcrPage(number, "", f"OCR unavailable: {_engine_error}")
        return
    import pypdfium2 as pdfium

    with _ocr_lock:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            for number in numbers:
                yield OcrPage(number, "", f"OCR failed: the page could not be rendered ({exc})")
            return
        try:
            for number in numbers:
                yield _ocr_one(pdf, engine, number, dpi, name)
        finally:
            pdf.close()


def _ocr_one(pdf: Any, engine: Any, number: int, dpi: int, name: str) -> OcrPage:
    import pypdfium2 as pdfium

    t0 = time.perf_counter()
    try:
        page = pdf[number - 1]
        chosen = page_dpi(page, dpi)
        image = page.render(scale=chosen / 72.0).to_numpy()
        page.close()
    except (pdfium.PdfiumError, IndexError, ValueError, MemoryError) as exc:
        logger.warning("%s page %d: could not render for OCR: %s", name, number, exc)
        return OcrPage(number, "", f"OCR failed: the page could not be rendered ({exc})", time.perf_counter() - t0)
    try:
        result, _elapsed = engine(image)
    except (RuntimeError, ValueError, MemoryError) as exc:  # onnxruntime / OpenCV failures on this image
        logger.warning("%s page %d: OCR failed: %s", name, number, exc)
        return OcrPage(number, "", f"OCR failed ({type(exc).__name__}: {exc})", time.perf_counter() - t0)
    lines = _lines_in_reading_order(result or [])
    seconds = time.perf_counter() - t0
    logger.info("%s page %d: OCR read %d lines at %d dpi in %.2f s", name, number, len(lines), chosen, seconds)
    return OcrPage(number, "\n".join(lines), None, seconds, chosen)

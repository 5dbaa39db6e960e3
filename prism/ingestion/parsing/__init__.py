"""Parsing: one entry point, :func:`load`, for the file types of :data:`LOADERS` (path or bytes) and web page URLs.

:data:`LOADERS` is the one registry of upload types: extension → loader, with the label and MIME type the Upload
page, the CLI and the error texts read (through :func:`prism.service.supported_file_types`). Add a file
type: write its loader (``load(data, name, settings, on_page) -> ParsedDocument``) and add a :class:`Loader` line.

The type is decided by the file's bytes first and its extension second (:func:`load_bytes`):

* a ``%PDF-`` header in the first KiB is a PDF whatever the name (a ``.txt`` or ``.docx`` that is really a PDF is
  read as a PDF), and a ``.pdf`` without it is rejected;
* an Office Open XML package is the type its parts say (:func:`~prism.ingestion.parsing.office.ooxml_type`): a DOCX
  renamed ``.txt`` is read as a DOCX, an XLSX renamed ``.docx`` as an XLSX — the document's warnings say so;
* an OLE compound file is refused with the reason: a password-protected Office file, or a legacy 97–2003 one
  (:func:`~prism.ingestion.parsing.office.refuse_compound_file`);
* a ``.docx``/``.xlsx``/``.pptx`` that is none of these is rejected as not a valid Office file;
* an HTML document named ``.txt`` is read as HTML;
* otherwise the extension picks the loader, and a text type refuses bytes of a known binary format (ZIP, images).

Every loader returns a :class:`~prism.types.ParsedDocument` whose text is normalised
(:mod:`prism.ingestion.parsing.normalize`) and raises only :class:`~prism.errors.PrismError` subclasses for bad
input.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from prism.config import Settings, get_settings
from prism.errors import (
    CorruptDocumentError,
    EmptyFileError,
    FileTooLargeError,
    PrismError,
    UnsupportedFileError,
)
from prism.fsutil import sanitize_filename
from prism.ingestion.parsing.csv import load_csv
from prism.ingestion.parsing.htmlfile import load_html, looks_like_html
from prism.ingestion.parsing.normalize import normalize_text
from prism.ingestion.parsing.office import (
    CFB_MAGIC,
    OFFICE_NAMES,
    ZIP_MAGIC,
    not_a_package,
    ooxml_type,
    refuse_compound_file,
)
from prism.ingestion.parsing.pdf.read import PageCallback, load_pdf, looks_like_pdf
from prism.ingestion.parsing.sheets import load_xlsx
from prism.ingestion.parsing.slides import load_pptx
from prism.ingestion.parsing.text import decode_bytes, load_text
from prism.ingestion.parsing.url import load_url, load_url_with_bytes
from prism.ingestion.parsing.word import load_docx
from prism.ingestion.parsing.zipguard import check_entry_count
from prism.types import FileType, ParsedDocument, file_types_phrase

__all__ = [
    "LOADERS",
    "SUPPORTED_EXTENSIONS",
    "decode_bytes",
    "file_types",
    "load",
    "load_bytes",
    "load_url",
    "load_url_with_bytes",
    "normalize_text",
    "sanitize_filename",
]

logger = logging.getLogger(__name__)

LoadFunction = Callable[[bytes, str, Settings, PageCallback | None], ParsedDocument]
"""``load(data, display name, settings, on_page) -> ParsedDocument``; ``on_page`` is only called by loaders that
stream pages (PDF)."""


@dataclass(frozen=True)
class Loader:
    """One upload type: what the analyst is told (:class:`~prism.types.FileType`) and the function that parses it.

    ``text`` loaders reject bytes that are a known binary format (ZIP/Office, images) under their extension.
    """

    file_type: FileType
    load: LoadFunction
    text: bool = True


def _whole(load: Callable[[bytes, str, Settings], ParsedDocument]) -> LoadFunction:
    """A :data:`LoadFunction` for a loader that reads the whole file at once (only PDFs stream pages)."""

    def run(data: bytes, name: str, settings: Settings, on_page: PageCallback | None) -> ParsedDocument:
        return load(data, name, settings)

    return run


_OOXML = "application/vnd.openxmlformats-officedocument."
LOADERS: tuple[Loader, ...] = (
    Loader(FileType("pdf", "PDF", (".pdf",), "application/pdf"), load_pdf, text=False),
    Loader(FileType("docx", "DOCX", (".docx",), _OOXML + "wordprocessingml.document"), _whole(load_docx), text=False),
    Loader(FileType("xlsx", "XLSX", (".xlsx",), _OOXML + "spreadsheetml.sheet"), _whole(load_xlsx), text=False),
    Loader(FileType("pptx", "PPTX", (".pptx",), _OOXML + "presentationml.presentation"), _whole(load_pptx),
           text=False),
    Loader(FileType("html", "HTML", (".html", ".htm"), "text/html"), _whole(load_html)),
    Loader(FileType("txt", "TXT", (".txt",), "text/plain"), _whole(load_text)),
    Loader(FileType("md", "MD", (".md",), "text/markdown"), _whole(load_text)),
    Loader(FileType("csv", "CSV", (".csv",), "text/csv"), _whole(load_csv)),
)
"""The upload types, in the order they are named to the analyst."""

_BY_EXTENSION: dict[str, Loader] = {ext: loader for loader in LOADERS for ext in loader.file_type.extensions}

SUPPORTED_EXTENSIONS: tuple[str, ...] = tuple(_BY_EXTENSION)
"""File name extensions :func:`load` accepts (plus ``http(s)://`` URLs), from :data:`LOADERS`."""

_OTHER_FORMATS = {  # magic bytes of common non-text uploads that carry a text extension by mistake
    b"PK\x03\x04": "ZIP archive",
    b"\x89PNG": "PNG image",
    b"\xff\xd8\xff": "JPEG image",
    b"GIF8": "GIF image",
}


def file_types() -> tuple[FileType, ...]:
    """The upload types of :data:`LOADERS`, in order."""
    return tuple(loader.file_type for loader in LOADERS)


def _extension(name: str) -> str:
    return Path(name).suffix.lower()


def load_bytes(data: bytes, name: str, settings: Settings, on_page: PageCallback | None = None) -> ParsedDocument:
    """Check size and type of a file's bytes and parse them with the matching loader.

    Args:
        data: the whole file.
        name: its display name (already sanitised; its extension is used for dispatch).
        settings: parsing settings (``max_upload_mb`` and the per-format knobs).
        on_page: passed to :func:`~prism.ingestion.parsing.pdf.read.load_pdf` for PDFs.

    Returns:
        The parsed document (``source`` = ``name``).

    Raises:
        EmptyFileError: ``data`` is empty.
        FileTooLargeError: ``data`` is over ``settings.max_upload_bytes``, or a ZIP-based file would inflate past the
            ZIP guard's limits (:mod:`~prism.ingestion.parsing.zipguard`: entries, total, part, ratio).
        CorruptDocumentError: a ``.pdf`` without a PDF header, a ``.docx``/``.xlsx``/``.pptx`` that is no Office
            package, or a broken PDF/CSV/Office file.
        EncryptedDocumentError: a password-protected Office file (or PDF, from the PDF loader).
        UnsupportedFileError: an Office file whose XML declares a DTD; a legacy (97–2003) Office file; the
            extension is not one of :data:`SUPPORTED_EXTENSIONS` and the bytes are not a PDF or Office package; or a
            text extension holds a known binary format (ZIP archive, image).
        NoExtractableTextError, DecodingError: from the loaders.
    """
    size = len(data)
    if size == 0:
        raise EmptyFileError(f"{name} is empty (0 bytes)")
    if size > settings.max_upload_bytes:
        raise FileTooLargeError(f"{name} is {size / 2**20:.1f} MB, over the {settings.max_upload_mb} MB upload limit")
    ext = _extension(name)
    if looks_like_pdf(data):
        return _as_sniffed(load_pdf(data, name, settings, on_page), ext, ".pdf", "a PDF")
    if ext == ".pdf":
        raise CorruptDocumentError(
            f"{name} is not a valid PDF (it has no PDF header); check the file and upload it again"
        )
    office = _load_office(data, name, ext, settings)
    if office is not None:
        return office
    if data.startswith(CFB_MAGIC):
        refuse_compound_file(data, name, ext)
    if ext in OFFICE_NAMES:
        raise not_a_package(name, ext)
    if ext == ".txt" and looks_like_html(data):
        return _as_sniffed(load_html(data, name, settings), ext, ".html", "an HTML page")
    loader = _BY_EXTENSION.get(ext)
    supported = file_types_phrase(file_types())
    if loader is None:
        raise UnsupportedFileError(
            f"{name} is not a supported file type; upload {supported} ({', '.join(SUPPORTED_EXTENSIONS)})"
            " or a web page URL"
        )
    if loader.text:
        for magic, what in _OTHER_FORMATS.items():
            if data.startswith(magic):
                raise UnsupportedFileError(
                    f"{name} is a {what} file, not {ext.lstrip('.').upper()}; upload {supported}"
                )
    return loader.load(data, name, settings, on_page)


def _load_office(data: bytes, name: str, ext: str, settings: Settings) -> ParsedDocument | None:
    """``data`` read by its Office loader when it is an OOXML package (whatever its name), else ``None``."""
    if data.startswith(ZIP_MAGIC):
        check_entry_count(data, name, settings)  # before zipfile parses a directory of a million entries
    office = ooxml_type(data)
    if office is None:
        return None
    noun = OFFICE_NAMES[office]
    what = f"{'an' if noun[0] in 'AEIOU' else 'a'} {noun} ({office.lstrip('.').upper()})"
    return _as_sniffed(_BY_EXTENSION[office].load(data, name, settings, None), ext, office, what)


def _as_sniffed(doc: ParsedDocument, ext: str, real: str, what: str) -> ParsedDocument:
    """``doc`` with a warning when the bytes were another type than the file name says."""
    if ext in _BY_EXTENSION and real in _BY_EXTENSION[ext].file_type.extensions:
        return doc
    logger.info("%s holds %s; read as one", doc.source, what)
    warning = f"{doc.source} is really {what}, not what its name says; it was read as one"
    return dataclasses.replace(doc, warnings=(warning, *doc.warnings))


def _read(path: Path, name: str, settings: Settings) -> bytes:
    try:
        size = path.stat().st_size
        if size > settings.max_upload_bytes:
            raise FileTooLargeError(
                f"{name} is {size / 2**20:.1f} MB, over the {settings.max_upload_mb} MB upload limit"
            )
        return path.read_bytes()
    except OSError as exc:
        raise PrismError(f"{name} could not be read: {exc.strerror or exc}") from exc


def load(
    source: str | Path | bytes,
    filename: str | None = None,
    settings: Settings | None = None,
    on_page: PageCallback | None = None,
) -> ParsedDocument:
    """Parse a file path, a file's bytes or a web page URL.

    Args:
        source: an ``http://``/``https://`` URL (a ``str``); a file path (``str`` or ``Path``); or the file's bytes.
        filename: display name; defaults to the path's basename; required with bytes; ignored for URLs. It is
            sanitised (:func:`sanitize_filename`) and its extension picks the loader unless the bytes are a PDF.
        settings: defaults to :func:`prism.config.get_settings`.
        on_page: called with each PDF page that has text as soon as it is read (see
            :func:`~prism.ingestion.parsing.pdf.read.load_pdf`); other formats do not call it.

    Returns:
        A :class:`~prism.types.ParsedDocument` whose ``source`` is the sanitised name or the URL.

    Raises:
        ValueError: ``source`` is bytes and ``filename`` is missing (a programming error).
        PrismError: the file cannot be read (missing, a directory, no permission).
        EmptyFileError, FileTooLargeError, UnsupportedFileError, CorruptDocumentError, EncryptedDocumentError,
            NoExtractableTextError, DecodingError, FetchError: see :func:`load_bytes` and
            :func:`~prism.ingestion.parsing.url.load_url`.
    """
    settings = settings or get_settings()
    if isinstance(source, str) and source.strip().lower().startswith(("http://", "https://")):
        return load_url(source.strip(), settings)
    if isinstance(source, bytes | bytearray | memoryview):
        if filename is None:
            raise ValueError("filename is required when source is bytes")
        return load_bytes(bytes(source), sanitize_filename(filename), settings, on_page)
    path = Path(source)
    name = sanitize_filename(filename if filename is not None else path.name)
    return load_bytes(_read(path, name, settings), name, settings, on_page)

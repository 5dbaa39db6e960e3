"""The ZIP guard: what a ZIP-based upload (DOCX, XLSX, PPTX) inflates to is checked before any Office library opens
it, and its XML parts may not declare a DTD.

A ZIP's central directory declares each part's inflated and compressed size (``ZipInfo.file_size`` /
``compress_size``). :func:`check_package` refuses, from the directory alone and in milliseconds, a package with more
than ``zip_max_entries`` parts, a total over ``zip_max_total_mb``, a part over ``zip_max_part_mb``, or a part over
``zip_ratio_min_mb`` whose inflated/compressed ratio is over ``zip_max_ratio`` (a decompression bomb: a 747 KB DOCX
whose ``word/document.xml`` inflates to 200 MB, 294 to 1; real Office XML measures 5–35 to 1). Headers can lie, so
each part is then inflated once, streamed in 1 MiB steps with nothing kept (zlib on the raw deflate data, which
ignores the declared size), and a part that inflates past its declared size is stopped there: memory stays at one
step, time at the declared total. See OWASP "File Upload Cheat Sheet" (compressed files) and CWE-409 (improper
handling of highly compressed data).

While a part streams, its prolog is read: an XML part that declares a document type (``<!DOCTYPE``, which carries
external entities — XXE, OWASP "XML External Entity Prevention Cheat Sheet" — and nested entity expansion, the
"billion laughs") is refused. The Open Packaging Conventions forbid DTDs in package XML and require readers to
enforce it (ECMA-376 Part 2, §8.1.4 "XML usage"), so no real Office file has one.
"""

from __future__ import annotations

import io
import logging
import re
import struct
import zipfile
import zlib

from prism.config import Settings
from prism.errors import CorruptDocumentError, FileTooLargeError, UnsupportedFileError
from prism.ingestion.parsing.office import OFFICE_NAMES, open_package_error

logger = logging.getLogger(__name__)

_MIB = 2**20
_STEP = _MIB
"""Largest piece inflated at once, bytes (the guard's memory)."""
_EOCD = b"PK\x05\x06"
_EOCD64_LOCATOR = b"PK\x06\x07"
_LOCAL = b"PK\x03\x04"
_XML_PARTS = (".xml", ".rels", ".vml")
_PROLOG = re.compile(rb"\s*(?:<\?.*?\?>|<!--.*?-->|\s)*", re.DOTALL)
"""The XML declaration, processing instructions, comments and white space that may precede a DOCTYPE."""


def _size(size: float) -> str:
    """``"201 MB"``, ``"1.5 MB"``, ``"697 KB"`` (MiB and KiB, as the upload limit counts them)."""
    if size < _MIB:
        return f"{size / 1024:,.0f} KB"
    return f"{size / _MIB:,.0f} MB" if size >= 10 * _MIB else f"{size / _MIB:,.1f} MB"


def _directory_entries(data: bytes) -> int | None:
    """The entry count the end-of-central-directory record declares (ZIP64 when it says 0xFFFF), or ``None``
    when there is no such record (PKWARE APPNOTE.TXT §4.3.14–4.3.16)."""
    at = data.rfind(_EOCD, max(0, len(data) - 65_557))
    if at < 0 or at + 22 > len(data):
        return None
    (count,) = struct.unpack_from("<H", data, at + 10)
    locator = at - 20
    if count == 0xFFFF and locator >= 0 and data[locator:locator + 4] == _EOCD64_LOCATOR:
        (offset,) = struct.unpack_from("<Q", data, locator + 8)
        if offset + 40 <= len(data):
            (count,) = struct.unpack_from("<Q", data, offset + 32)
    return count


def check_entry_count(data: bytes, name: str, settings: Settings) -> None:
    """Refuse a ZIP whose end record declares more than ``settings.zip_max_entries`` entries, before its central
    directory is parsed (a directory of a million entries costs Python's zipfile seconds and hundreds of MiB).

    Raises:
        FileTooLargeError: ``"… holds 20,000 files, over the 10,000 limit …"``.
    """
    count = _directory_entries(data)
    if count is not None and count > settings.zip_max_entries:
        raise FileTooLargeError(
            f"{name} holds {count:,} files inside its ZIP package, over the {settings.zip_max_entries:,} limit "
            "(PRISM_ZIP_MAX_ENTRIES); Prism refused it before reading it"
        )


def _check_directory(infos: list[zipfile.ZipInfo], name: str, settings: Settings) -> None:
    """The limits on what the central directory declares (see the module docstring)."""
    if len(infos) > settings.zip_max_entries:
        raise FileTooLargeError(
            f"{name} holds {len(infos):,} files inside its ZIP package, over the {settings.zip_max_entries:,} limit "
            "(PRISM_ZIP_MAX_ENTRIES); Prism refused it before reading it"
        )
    total = sum(i.file_size for i in infos)
    if total > settings.zip_max_total_mb * _MIB:
        raise FileTooLargeError(
            f"{name} expands to {_size(total)} when unpacked, over the {settings.zip_max_total_mb} MB limit "
            "(PRISM_ZIP_MAX_TOTAL_MB); Prism refused it before reading it (a decompression bomb, or a file too big "
            "to read safely)"
        )
    for info in infos:
        if info.file_size > settings.zip_max_part_mb * _MIB:
            raise FileTooLargeError(
                f"{name}: its part {info.filename} expands to {_size(info.file_size)}, over the "
                f"{settings.zip_max_part_mb} MB limit for one part (PRISM_ZIP_MAX_PART_MB); Prism refused it before "
                "reading it"
            )
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > settings.zip_ratio_min_mb * _MIB and ratio > settings.zip_max_ratio:
            raise FileTooLargeError(
                f"{name}: its part {info.filename} expands to {_size(info.file_size)} from "
                f"{_size(info.compress_size)} ({ratio:,.0f} to 1), over the {settings.zip_max_ratio} to 1 limit "
                "(PRISM_ZIP_MAX_RATIO); Prism refused it before reading it (a decompression bomb)"
            )


def declares_dtd(head: bytes) -> bool:
    """True when an XML document starting with ``head`` (its first bytes, UTF-8 or UTF-16 with a BOM) declares a
    document type: ``<!DOCTYPE`` after only the XML declaration, processing instructions, comments and white space."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head.decode("utf-16", errors="ignore").encode("utf-8")
    head = head.removeprefix(b"\xef\xbb\xbf")
    prolog = _PROLOG.match(head)
    return head[prolog.end() if prolog else 0:].startswith(b"<!DOCTYPE")


def _data_offset(data: bytes, info: zipfile.ZipInfo) -> int:
    """Where a part's compressed bytes start: after its local header (APPNOTE.TXT §4.3.7)."""
    start = info.header_offset
    if data[start:start + 4] != _LOCAL or start + 30 > len(data):
        raise zipfile.BadZipFile(f"no local header for {info.filename}")
    name_length, extra_length = struct.unpack_from("<HH", data, start + 26)
    return start + 30 + name_length + extra_length


def _inflate(data: bytes, package: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int) -> tuple[int, bytes]:
    """``(inflated size, first bytes)`` of one part, inflating at most ``cap + 1`` bytes (a part is stopped as soon
    as it passes ``cap``). Deflate is inflated from the raw stream, which ends where its data says, not where the
    header says; other methods go through zipfile (which itself stops at the declared size)."""
    if info.compress_type == zipfile.ZIP_DEFLATED:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        view = memoryview(data)
        pos, size, head = _data_offset(data, info), 0, b""
        pending: bytes | memoryview = b""
        while not inflater.eof and size <= cap:
            if not pending:
                if pos >= len(data):
                    break
                pending, pos = view[pos:pos + _STEP], pos + _STEP
            out = inflater.decompress(pending, _STEP)
            pending = inflater.unconsumed_tail
            head, size = head or out[:4096], size + len(out)
        return size, head
    size, head = 0, b""
    with package.open(info) as part:
        while size <= cap and (out := part.read(_STEP)):
            head, size = head or out[:4096], size + len(out)
    return size, head


def _check_parts(data: bytes, package: zipfile.ZipFile, name: str) -> None:
    """Inflate every part once (see :func:`_inflate`) and refuse a lying header or a DTD."""
    for info in package.infolist():
        size, head = _inflate(data, package, info, info.file_size)
        if size > info.file_size:
            raise CorruptDocumentError(
                f"{name}: its part {info.filename} expands to more than the {_size(info.file_size)} its ZIP header "
                "declares, over the limit of what it says it holds; Prism stopped reading it (a crafted or damaged "
                "file)"
            )
        if info.filename.lower().endswith(_XML_PARTS) and declares_dtd(head):
            raise UnsupportedFileError(
                f"{name} declares a DTD (external or nested entities) in its part {info.filename}, which Prism does "
                "not read: Office files never carry one (ECMA-376 Part 2, §8.1.4); save it again from its Office "
                "application and upload it again"
            )


def check_package(data: bytes, name: str, ext: str, settings: Settings) -> None:
    """Check a ZIP-based upload before it is parsed (see the module docstring for every limit and its source).

    Args:
        data: the file's bytes (a ZIP package).
        name: display name for the messages.
        ext: the Office type it is read as (``".docx"``, ``".xlsx"``, ``".pptx"``), for the damaged-file message.
        settings: ``zip_max_entries``, ``zip_max_total_mb``, ``zip_max_part_mb``, ``zip_max_ratio``,
            ``zip_ratio_min_mb``.

    Raises:
        FileTooLargeError: too many parts, or a total, a part or a ratio over its limit (``"c60_zipbomb.docx:
            its part word/document.xml expands to 200 MB …"``); decided from the central directory, before any part
            is inflated.
        CorruptDocumentError: the ZIP cannot be read, or a part inflates past its declared size.
        UnsupportedFileError: an XML part declares a DTD.
    """
    check_entry_count(data, name, settings)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            _check_directory(package.infolist(), name, settings)
            _check_parts(data, package, name)
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, OSError, ValueError) as exc:
        raise open_package_error(name, ext, exc) from exc
    logger.debug("%s: ZIP package within limits (%s)", name, OFFICE_NAMES.get(ext, ext))

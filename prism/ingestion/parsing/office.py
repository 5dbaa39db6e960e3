"""What an Office file's bytes really are: an Office Open XML package (DOCX, XLSX, PPTX), a password-protected or
legacy (97–2003) Office file, or another ZIP archive — decided from the bytes, never from the file name.

An OOXML file is a ZIP package whose parts name its application: ``word/…`` (DOCX), ``xl/…`` (XLSX), ``ppt/…``
(PPTX). Office encrypts a password-protected one into an OLE compound file (CFB, magic ``D0 CF 11 E0``) holding
``EncryptionInfo`` and ``EncryptedPackage`` streams, the container the 97–2003 formats (DOC, XLS, PPT) use too;
msoffcrypto-tool reads that container and tells which it is and whether it is encrypted.
"""

from __future__ import annotations

import io
import logging
import zipfile

from prism.errors import CorruptDocumentError, EncryptedDocumentError, UnsupportedFileError

logger = logging.getLogger(__name__)

ZIP_MAGIC = b"PK\x03\x04"
CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

OFFICE_NAMES: dict[str, str] = {".docx": "Word document", ".xlsx": "Excel workbook",
                                ".pptx": "PowerPoint presentation"}
"""How the analyst is told what each OOXML type is."""
_PART_PREFIXES = {"word/": ".docx", "xl/": ".xlsx", "ppt/": ".pptx"}
_LEGACY = {  # msoffcrypto-tool's class for a 97-2003 file → (what it is, the OOXML extension to save it as)
    "Doc97File": ("legacy Word 97–2003 document (.doc)", ".docx"),
    "Xls97File": ("legacy Excel 97–2003 workbook (.xls)", ".xlsx"),
    "Ppt97File": ("legacy PowerPoint 97–2003 presentation (.ppt)", ".pptx"),
}


def ooxml_type(data: bytes) -> str | None:
    """The extension (``".docx"``, ``".xlsx"``, ``".pptx"``) of the OOXML package ``data`` is, or ``None`` when it is
    not a readable ZIP package of one of those (another ZIP archive, a damaged one, not a ZIP at all)."""
    if not data.startswith(ZIP_MAGIC):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            names = package.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return None
    if "[Content_Types].xml" not in names:
        return None
    for prefix, ext in _PART_PREFIXES.items():
        if any(n.startswith(prefix) for n in names):
            return ext
    return None


def refuse_compound_file(data: bytes, name: str, ext: str) -> None:
    """Raise the analyst's message for an OLE compound file (``data`` starts with :data:`CFB_MAGIC`).

    Args:
        data: the file's bytes.
        name: display name for the message.
        ext: the file name's extension (lower case), which names the Office type of an encrypted package (its
            encryption hides which application wrote it).

    Raises:
        EncryptedDocumentError: a password-protected Office file (``"… is a password-protected Word document;
            remove the password and upload it again"``).
        UnsupportedFileError: a legacy 97–2003 file (save it as DOCX/XLSX/PPTX) or another compound file (e.g. an
            Outlook message).
    """
    import msoffcrypto
    from msoffcrypto.exceptions import FileFormatError

    try:
        office = msoffcrypto.OfficeFile(io.BytesIO(data))
        encrypted = office.is_encrypted()
    except (FileFormatError, OSError, ValueError, KeyError, IndexError, AssertionError) as exc:
        # olefile and msoffcrypto raise these on compound files that are not Office documents (AssertionError
        # in msoffcrypto's own parsers of damaged streams)
        logger.info("%s: compound file msoffcrypto cannot classify (%s)", name, type(exc).__name__)
        raise UnsupportedFileError(
            f"{name} is an OLE compound file (legacy Office, Outlook or similar) that Prism cannot read; "
            "save it as DOCX, XLSX, PPTX or PDF and upload it again"
        ) from exc
    kind = type(office).__name__
    if kind in _LEGACY:
        what, modern = _LEGACY[kind]
        if encrypted:
            raise EncryptedDocumentError(
                f"{name} is a password-protected {what}; remove the password, save it as {modern} and upload it again"
            )
        raise UnsupportedFileError(f"{name} is a {what}; save it as {modern} and upload it again")
    if encrypted:
        what = OFFICE_NAMES.get(ext, "Office document")
        raise EncryptedDocumentError(f"{name} is a password-protected {what}; remove the password and upload it again")
    raise UnsupportedFileError(f"{name} is an Office file Prism cannot read; save it as DOCX, XLSX or PPTX")


def not_a_package(name: str, ext: str) -> CorruptDocumentError:
    """The error for a file named ``.docx``/``.xlsx``/``.pptx`` whose bytes are no Office package at all."""
    return CorruptDocumentError(
        f"{name} is not a valid {OFFICE_NAMES.get(ext, 'Office document')} (it is not an Office Open XML package); "
        "check the file and upload it again"
    )


def open_package_error(name: str, ext: str, exc: Exception) -> CorruptDocumentError:
    """The error for a package the Office library cannot open (a damaged or truncated file)."""
    return CorruptDocumentError(
        f"{name} is damaged and cannot be opened as a {OFFICE_NAMES.get(ext, 'Office document')} "
        f"({type(exc).__name__}); check the file and upload it again"
    )

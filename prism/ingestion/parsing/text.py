"""Plain-text files (.txt, .md): decoding and loading.

Decoding order (:func:`decode_bytes`): byte-order mark (UTF-32, UTF-8, UTF-16), then BOM-less UTF-16 recognised by
its NUL pattern, then strict UTF-8, then charset-normalizer's best guess — with one correction: when the guess is a
single-byte code page and the bytes decode as Windows-1252 into Latin-script text (at most 20 % of the letters
non-ASCII), Windows-1252 wins. charset-normalizer often names a rarer code page (cp775, cp1250, mac_iceland) for
short Western-European files, and Windows-1252 is what spreadsheet exports on Windows write.
"""

from __future__ import annotations

import codecs
import logging

from charset_normalizer import from_bytes
from charset_normalizer.utils import is_multi_byte_encoding

from prism.config import Settings
from prism.errors import DecodingError, NoExtractableTextError
from prism.ingestion.parsing.datauri import replace_data_uris
from prism.ingestion.parsing.normalize import has_indexable_text, normalize_report
from prism.types import Page, ParsedDocument, count_phrase

logger = logging.getLogger(__name__)

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: FF FE 00 00 starts with FF FE
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_MAX_CONTROL_SHARE = 0.01
"""Decoded text with more C0 control characters (other than tab, CR, LF, FF) than this share is binary, not text."""


def _strict(data: bytes, encoding: str, filename: str) -> str:
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise DecodingError(f"{filename} could not be decoded as {encoding} ({exc})") from exc


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le``/``utf-16-be`` when the NULs sit on one byte parity (ASCII-heavy UTF-16 without a BOM)."""
    if len(data) < 4 or len(data) % 2:
        return None
    even = data[0::2].count(0)
    odd = data[1::2].count(0)
    half = len(data) // 2
    if odd > 0.6 * half and even < 0.05 * half:
        return "utf-16-le"
    if even > 0.6 * half and odd < 0.05 * half:
        return "utf-16-be"
    return None


def _latin_text(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return True
    non_ascii = sum(1 for ch in letters if not ch.isascii())
    return non_ascii <= 0.2 * len(letters)


def _looks_binary(text: str) -> bool:
    if not text:
        return False
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\x0c")
    return controls > _MAX_CONTROL_SHARE * len(text)


def decode_bytes(data: bytes, filename: str) -> tuple[str, str]:
    """Decode a text file's bytes (order of attempts in the module docstring).

    Args:
        data: the raw bytes (may be empty: returns ``("", "utf-8")``).
        filename: display name used in error messages.

    Returns:
        ``(text, encoding)`` with the Python codec name that decoded the bytes, e.g. ``"utf-8"``, ``"utf-16-le"``,
        ``"cp1252"``, ``"gb18030"``. The text never contains U+FFFD unless the bytes themselves encode it (a
        valid UTF-8 U+FFFD is kept here and removed and counted by normalisation).

    Raises:
        DecodingError: a BOM's encoding does not fit the bytes, no encoding fits, or the bytes look binary.
    """
    if not data:
        return "", "utf-8"
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _strict(data[len(bom) :], encoding, filename), encoding
    guess16 = _utf16_without_bom(data)
    if guess16 is not None:
        try:
            text = data.decode(guess16)
        except UnicodeDecodeError:
            text = None
        if text is not None and not _looks_binary(text):
            return text, guess16
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        if _looks_binary(text):
            raise DecodingError(f"{filename} looks like a binary file, not text; check that it is the document you "
                                "meant to upload")
        return text, "utf-8"

    best = from_bytes(data).best()
    if best is None:
        raise DecodingError(
            f"{filename} could not be decoded: its bytes fit no known text encoding; "
            "save it as UTF-8 and upload it again"
        )
    encoding = best.encoding
    if not is_multi_byte_encoding(encoding) and encoding != "cp1252":
        try:
            western = data.decode("cp1252")
        except UnicodeDecodeError:
            western = None
        if western is not None and _latin_text(western):
            logger.info("%s: detector guessed %s; using cp1252", filename, encoding)
            encoding = "cp1252"
    text = _strict(data, encoding, filename)
    if "\ufffd" in text or _looks_binary(text):
        raise DecodingError(
            f"{filename} could not be decoded reliably (best guess {encoding}); save it as UTF-8 and upload it again"
        )
    return text, encoding


def encoding_warning(filename: str, encoding: str) -> str | None:
    """A warning for the analyst when the file was not UTF-8 (or ASCII), else ``None``."""
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8", "ascii"):
        return None
    return f"{filename}: text encoding detected as {encoding}"


def load_text(data: bytes, filename: str, settings: Settings | None = None) -> ParsedDocument:
    """Load a plain-text file as one unpaged page.

    Args:
        data: the file's bytes.
        filename: display name (``source``).
        settings: unused; accepted so every loader has the same signature.

    Returns:
        ``ParsedDocument(kind="txt", pages=(Page(number=None, text),), total_pages=0)`` with normalised text and
        warnings for a non-UTF-8 encoding or unreadable characters removed. Embedded ``data:`` URIs (a Markdown
        image in base64) are replaced by placeholders such as ``[image: floor plan]``
        (:mod:`prism.ingestion.parsing.datauri`).

    Raises:
        DecodingError: the bytes cannot be decoded (see :func:`decode_bytes`).
        NoExtractableTextError: the text has no letter or digit (e.g. only punctuation or whitespace).
    """
    del settings
    text, encoding = decode_bytes(data, filename)
    text, embedded = replace_data_uris(text)
    if embedded:
        logger.info("%s: %d embedded data URIs replaced by placeholders", filename, embedded)
    report = normalize_report(text)
    if not has_indexable_text(report.text):
        raise NoExtractableTextError(f"{filename} has no indexable text (no letters or digits)")
    warnings = [w for w in (encoding_warning(filename, encoding),) if w]
    if report.replacement_chars:
        warnings.append(f"{filename}: {count_phrase(report.replacement_chars, 'unreadable character')} (U+FFFD) "
                        f"{'was' if report.replacement_chars == 1 else 'were'} removed")
    logger.info("%s: %d characters of text (%s)", filename, len(report.text), encoding)
    return ParsedDocument(source=filename, kind="txt", pages=(Page(None, report.text),), warnings=tuple(warnings))

"""CSV files: decode, sniff the delimiter, check the field counts, render rows as readable text and a table.

Each data row becomes one line ``"header: value; header: value"`` (empty cells left out), one row per line, and the
rows are a :class:`~prism.types.Table` (:mod:`prism.ingestion.tables.csv`): the header row gives the column headers,
each row a :class:`~prism.types.TableRow`, so chunking cuts only between rows and indexes every chunk under the
column headers. A cell longer than ``settings.csv_max_cell_chars`` is split at word boundaries into pieces rendered
on their own lines as ``"header (part k of n): ..."``.
"""

from __future__ import annotations

import csv
import io
import logging
import re
from collections import Counter

from prism.config import Settings
from prism.errors import CorruptDocumentError, NoExtractableTextError
from prism.ingestion.parsing.normalize import has_indexable_text, normalize_report, normalize_text
from prism.ingestion.parsing.text import decode_bytes, encoding_warning
from prism.ingestion.tables.csv import table_from_csv_rows
from prism.types import Page, ParsedDocument, count_phrase

logger = logging.getLogger(__name__)

DELIMITERS = (",", ";", "\t", "|")
"""Candidate delimiters, in order of preference on ties."""

_SAMPLE_CHARS = 64 * 1024
_SAMPLE_RECORDS = 200
_EXCEL_SEP = re.compile(r"^\ufeff?sep=(.)\s*$")
_BAD_LINE = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


def sniff_delimiter(text: str) -> str:
    """Pick the delimiter that splits the sample's records into the most consistent number of fields.

    For each candidate in :data:`DELIMITERS`, the first records of the text (quotes honoured, ``"`` as quote char)
    are split and the share of records having the most common field count is computed. The best candidate has the
    highest share among those whose common count is at least 2, ties broken by more fields, then by the order of
    :data:`DELIMITERS`. Commas inside unquoted fields of a semicolon file (``['112', '112']``) break the comma's
    consistency, so the semicolon wins. With no multi-field candidate the file is one column: a delimiter absent
    from the sample is returned.

    Args:
        text: the decoded file (only the first 64 KiB is read).

    Returns:
        One of :data:`DELIMITERS`.
    """
    sample = text[:_SAMPLE_CHARS]
    if len(text) > _SAMPLE_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]
    best: tuple[float, int, int] | None = None
    chosen = None
    for order, delimiter in enumerate(DELIMITERS):
        counts = []
        try:
            for row in csv.reader(io.StringIO(sample), delimiter=delimiter):
                if row and any(cell.strip() for cell in row):
                    counts.append(len(row))
                if len(counts) >= _SAMPLE_RECORDS:
                    break
        except csv.Error:
            continue
        if not counts:
            continue
        mode, freq = Counter(counts).most_common(1)[0]
        if mode < 2:
            continue
        score = (freq / len(counts), mode, -order)
        if best is None or score > best:
            best, chosen = score, delimiter
    if chosen is not None:
        return chosen
    return next((d for d in DELIMITERS if d not in sample), ",")


def load_csv(data: bytes, filename: str, settings: Settings) -> ParsedDocument:
    """Load a CSV file as one unpaged page of row text.

    Args:
        data: the file's bytes (any encoding :func:`~prism.ingestion.parsing.text.decode_bytes` handles).
        filename: display name (``source``).
        settings: ``csv_max_cell_chars``.

    Returns:
        ``ParsedDocument(kind="csv", pages=(Page(number=None, text),), total_pages=0, tables=(table,))``: the text
        holds one line per data row rendered by :func:`prism.ingestion.tables.csv.table_from_csv_rows` (first row =
        header names, an empty header becomes ``column N``, 1-based; cells normalised; a cell longer than
        ``settings.csv_max_cell_chars`` split into parts on lines of their own), and the table describes those rows
        (label = first column, column headers = the other header names) with offsets into the text.

    Raises:
        DecodingError: the bytes cannot be decoded.
        CorruptDocumentError: a record has more fields than the header (the message names the line), or a quoted
            field never closes.
        NoExtractableTextError: no data rows, or no letter or digit in any cell.
    """
    import pandas as pd  # imported on use: half a second, and most uploads are not CSV

    text, encoding = decode_bytes(data, filename)
    first, _, rest = text.partition("\n")
    excel = _EXCEL_SEP.match(first)
    if excel:  # Excel's "sep=;" hint line
        delimiter, text = excel.group(1), rest
    else:
        delimiter = sniff_delimiter(text)
    rows = _read_rows(text, delimiter, filename)
    if len(rows) < 2:
        raise NoExtractableTextError(f"{filename} has no indexable text (a header but no data rows)")
    headers = [normalize_text("" if pd.isna(h) else str(h)) or f"column {i}" for i, h in enumerate(rows[0], start=1)]
    cells = [[normalize_text("" if pd.isna(v) else str(v)) for v in row] for row in rows[1:]]
    rendered, table = table_from_csv_rows(headers, cells, max_cell_chars=settings.csv_max_cell_chars)
    report = normalize_report(rendered)
    cells_have_text = any(has_indexable_text(v) for row in cells for v in row)
    if not cells_have_text or not has_indexable_text(report.text):
        raise NoExtractableTextError(f"{filename} has no indexable text (no letters or digits in its cells)")
    warnings = [w for w in (encoding_warning(filename, encoding),) if w]
    unreadable = text.count("\ufffd")  # the cells are normalised one by one, which drops them
    if unreadable:
        warnings.append(f"{filename}: {count_phrase(unreadable, 'unreadable character')} (U+FFFD) "
                        f"{'was' if unreadable == 1 else 'were'} removed")
    tables = (table,) if report.text == rendered else ()
    if not tables:
        logger.warning("%s: rows are indexed as text, not as a table (normalising changed the rendered rows)", filename)
    logger.info(
        "%s: %d rows x %d columns (%s, %r-separated)", filename, len(rows) - 1, len(headers), encoding, delimiter
    )
    return ParsedDocument(source=filename, kind="csv", pages=(Page(None, report.text),), warnings=tuple(warnings),
                          tables=tables)


def _read_rows(text: str, delimiter: str, filename: str) -> list[list]:
    """The CSV's records (the header row first), every field a string.

    Raises:
        NoExtractableTextError: the CSV is empty.
        CorruptDocumentError: a record has more fields than the header (the line is named), or a quoted field
            never closes.
    """
    import pandas as pd

    if not text.strip():
        raise NoExtractableTextError(f"{filename} has no indexable text (the CSV is empty)")
    try:
        frame = pd.read_csv(
            io.StringIO(text),
            sep=delimiter,
            header=None,
            dtype=str,
            keep_default_na=False,
            on_bad_lines="error",
            skip_blank_lines=True,
            engine="c",
        )
    except pd.errors.EmptyDataError as exc:
        raise NoExtractableTextError(f"{filename} has no indexable text (the CSV is empty)") from exc
    except pd.errors.ParserError as exc:
        name = _DELIMITER_NAMES.get(delimiter, repr(delimiter))
        bad = _BAD_LINE.search(str(exc))
        if bad:
            expected, line, saw = bad.groups()
            raise CorruptDocumentError(
                f"{filename} is not a consistent CSV: line {line} has {saw} fields but earlier lines have {expected} "
                f"({name}-separated); fix that line and upload it again"
            ) from exc
        raise CorruptDocumentError(f"{filename} could not be read as CSV ({name}-separated): {exc}") from exc
    return frame.values.tolist()

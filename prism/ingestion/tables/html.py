"""HTML tables as grids: ``colspan`` / ``rowspan`` expanded, header rows apart, spanned labels carried.

Each outermost ``<table>`` becomes an :class:`HtmlTable`: its header rows (the leading rows whose cells are all
``<th>``, or the rows of ``<thead>``) and its data rows, one string per column. A cell spanning columns or rows is
placed in every position it covers in the header (so :func:`prism.ingestion.tables.grid.combine_headers` names
``"Gross advances (Rs. crore) FY2024"``); in data rows a ``rowspan`` label is carried down into each row it covers
(``"Retail"`` beside both of its products), a ``colspan`` value stays in its first column (a figure is never
repeated). Cell text is the cell's text with whitespace collapsed (``<br>``, paragraphs and list items become
spaces). Rules: HTML Living Standard, "Processing model" of tables
(https://html.spec.whatwg.org/multipage/tables.html#processing-model-1). Parsed with lxml's HTML parser (no network,
no entities resolved).
"""

from __future__ import annotations

import dataclasses

MAX_SPAN = 1000
"""Largest ``colspan`` / ``rowspan`` honoured (the HTML standard caps colspan at 1000, rowspan at 65534)."""


@dataclasses.dataclass(frozen=True)
class HtmlTable:
    """One HTML table: ``header_rows`` (top first) and ``rows``, each one string per column (``""`` when empty)."""

    header_rows: list[list[str]]
    rows: list[list[str]]

    def cells(self) -> set[str]:
        """Every non-empty cell text, header included."""
        return {c for row in (*self.header_rows, *self.rows) for c in row if c}


def _text(cell) -> str:  # noqa: ANN001 - an lxml element
    for br in cell.iter("br"):
        br.tail = " " + (br.tail or "")
    parts = [" ".join(t.split()) for t in cell.itertext()]
    return " ".join(p for p in parts if p)


def _span(cell, name: str) -> int:  # noqa: ANN001
    value = (cell.get(name) or "1").strip()
    return min(max(int(value), 1), MAX_SPAN) if value.isdigit() else 1


def _grid(table) -> tuple[list[list[str]], list[bool], list[list[bool]]]:  # noqa: ANN001
    """Rows of cell texts with spans expanded, whether each row is a header row, and which positions are a colspan
    cell's copies to its right."""
    rows = [tr for tr in table.iter("tr") if tr.getparent() is table or tr.getparent().getparent() is table]
    grid: list[list[str]] = []
    carried: list[list[bool]] = []
    header: list[bool] = []
    pending: dict[tuple[int, int], str] = {}
    for r, tr in enumerate(rows):
        line: list[str] = []
        from_above: list[bool] = []
        cells = [c for c in tr if c.tag in ("td", "th")]
        header.append(bool(cells) and (all(c.tag == "th" for c in cells) or tr.getparent().tag == "thead"))
        for cell in cells:
            while (r, len(line)) in pending:
                line.append(pending.pop((r, len(line))))
                from_above.append(False)
            text, cols, down = _text(cell), _span(cell, "colspan"), _span(cell, "rowspan")
            start = len(line)
            for k in range(cols):
                line.append(text)
                from_above.append(k > 0)
                for d in range(1, min(down, len(rows) - r)):
                    pending[(r + d, start + k)] = text
        while (r, len(line)) in pending:
            line.append(pending.pop((r, len(line))))
            from_above.append(False)
        grid.append(line)
        carried.append(from_above)
    return grid, header, carried


def parse_tables(html: str) -> list[HtmlTable]:
    """The outermost tables of ``html``, in document order (tables without a row are left out)."""
    import lxml.html

    try:
        root = lxml.html.document_fromstring(html, parser=lxml.html.HTMLParser(no_network=True, recover=True))
    except (ValueError, lxml.etree.ParserError):
        return []
    out = []
    for table in root.iter("table"):
        if any(a.tag == "table" for a in table.iterancestors()):
            continue
        grid, header, carried = _grid(table)
        heads = 0
        while heads < len(grid) and header[heads]:
            heads += 1
        width = max((len(r) for r in grid), default=0)
        pad = [r + [""] * (width - len(r)) for r in grid]
        rows = [["" if j < len(copy) and copy[j] else v for j, v in enumerate(row)]
                for row, copy in zip(pad[heads:], carried[heads:], strict=True)]
        if grid:
            out.append(HtmlTable(pad[:heads], rows))
    return out


"""A sheet's cells laid out as a table: title rows, a header of one to three rows, data rows, and what was left out.

- **Values** as Excel shows them (:mod:`.numfmt`); a formula without a cached value is computed when it is simple
  (:mod:`.formulas`), else shown empty and named in a note.
- **Hidden** rows and columns (and their cells) are left out, and named in a note; they never become page text.
- **Columns** are those holding a value in a visible row; none is dropped because its header cell is empty (it is
  named by its letter, ``"column E"``).
- **Header**: the first row with at least two cells that are all text. The rows below it that are all text belong to
  the header too when it spans them — a merged range across columns in the row above, or (a label "centred across
  the selection" without merging) an empty label cell over a filled one while the row's first cell is empty. Each
  merged range carries its label into every header cell it covers; in data rows a range spanning rows carries its
  value down its first column (a segment label beside several products). Each column is then named by its labels,
  top to bottom (:func:`prism.ingestion.tables.grid.combine_headers`): ``"Net profit (Rs. crore) FY2023"``.
"""

from __future__ import annotations

import dataclasses

from openpyxl.utils.cell import get_column_letter

from prism.ingestion.parsing.excel.formulas import FormulaEvaluator, FormulaUnsupported
from prism.ingestion.parsing.excel.numfmt import format_cell
from prism.ingestion.parsing.excel.reader import SheetData
from prism.ingestion.tables.grid import combine_headers

MAX_HEADER_ROWS = 3
"""Rows a header may have."""
LISTED = 5
"""Cells, rows or columns a note names before "…"."""


@dataclasses.dataclass
class SheetLayout:
    """One sheet laid out for :class:`~prism.ingestion.parsing.blocks.PageBuilder`.

    Attributes:
        titles: text of the rows above the header, top first.
        header: one name per column.
        rows: the data rows, one shown value per column.
        source_rows: each data row's spreadsheet row.
        notes: what the analyst is told about the sheet (formulas computed or without a value, hidden rows and
            columns left out), each starting with ``"sheet '<name>'"``.
    """

    titles: list[str]
    header: list[str]
    rows: list[list[str]]
    source_rows: list[int]
    notes: list[str]


def _listed(items: list[str]) -> str:
    return ", ".join(items[:LISTED]) + (", …" if len(items) > LISTED else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _shown(data: SheetData) -> tuple[dict[tuple[int, int], str], list[str]]:
    """Every cell's text, formulas computed where they are simple, and the notes about formulas."""
    shown = {key: " ".join(v.split()) if isinstance(v, str) else format_cell(v, data.formats.get(key, "General"))
             for key, v in data.values.items()}
    evaluator = FormulaEvaluator(data.values, data.formulas)
    computed, failed = [], []
    for row, col in sorted(data.formulas):
        ref = f"{get_column_letter(col)}{row}"
        try:
            value = evaluator.compute(row, col)
        except FormulaUnsupported:
            failed.append(ref)
            continue
        shown[(row, col)] = format_cell(value, data.formats.get((row, col), "General"))
        computed.append(ref)
    notes = []
    where = f"sheet '{data.title}'"
    if computed:
        notes.append(f"{where}: {_plural(len(computed), 'formula cell')} had no value saved by Excel; Prism computed "
                     f"{'it' if len(computed) == 1 else 'them'} ({_listed(computed)})")
    if failed:
        notes.append(f"{where}: {_plural(len(failed), 'formula cell')} {'has' if len(failed) == 1 else 'have'} no "
                     f"value saved by Excel and {'is' if len(failed) == 1 else 'are'} empty here ({_listed(failed)}); "
                     "open the workbook in Excel and save it to store the values")
    return shown, notes


def _hidden_note(data: SheetData, shown: dict[tuple[int, int], str]) -> str | None:
    rows = sorted({r for r, c in shown if r in data.hidden_rows})
    cols = sorted({c for r, c in shown if data.column_hidden(c) and r not in data.hidden_rows})
    parts = []
    if rows:
        parts.append(f"{_plural(len(rows), 'hidden row')} ({_listed([str(r) for r in rows])})")
    if cols:
        parts.append(f"{_plural(len(cols), 'hidden column')} ({_listed([get_column_letter(c) for c in cols])})")
    if not parts:
        return None
    return f"sheet '{data.title}': {' and '.join(parts)} left out, as Excel does not show them"


def _spans_below(data: SheetData, grid: list[list[str]], cols: list[int], rows: list[int], i: int) -> bool:
    """Whether header row ``i`` spans the row below it (see the module docstring)."""
    below = grid[i + 1]
    filled = [c for c, v in zip(cols, below, strict=True) if v]
    if not filled or not all(isinstance(data.values.get((rows[i + 1], c)), str) for c in filled):
        return False
    row = rows[i]
    if any(r0 <= row <= r1 and c1 > c0 and sum(c0 <= c <= c1 for c in cols) > 1 for r0, c0, r1, c1 in data.merged):
        return True
    first_open = not below[0] or any(r0 <= row < rows[i + 1] <= r1 and c0 <= cols[0] <= c1
                                     for r0, c0, r1, c1 in data.merged)
    return first_open and any(not top and under for top, under in zip(grid[i][1:], below[1:], strict=True))


def _header_start(data: SheetData, grid: list[list[str]], cols: list[int], rows: list[int]) -> int:
    for i, values in enumerate(grid):
        filled = [c for c, v in zip(cols, values, strict=True) if v]
        if len(filled) >= 2 and all(isinstance(data.values.get((rows[i], c)), str) for c in filled):
            return i
    return 0


def _carry(data: SheetData, grid: list[list[str]], cols: list[int], rows: list[int], head: int, depth: int) -> None:
    """Carry merged labels into the header cells they cover, and merged data labels down their first column."""
    at_row = {r: i for i, r in enumerate(rows)}
    at_col = {c: j for j, c in enumerate(cols)}
    header_rows = set(rows[head : head + depth])
    for r0, c0, r1, c1 in data.merged:
        if r0 not in at_row or c0 not in at_col:
            continue
        value = grid[at_row[r0]][at_col[c0]]
        for r in (r for r in rows if r0 <= r <= r1):
            spread = [c for c in cols if c0 <= c <= c1] if r in header_rows else [c0]
            for c in spread:
                if not grid[at_row[r]][at_col[c]]:
                    grid[at_row[r]][at_col[c]] = value
    if depth > 1 and not data.merged:  # labels centred across the selection: carried right to the next label
        for i in range(head, head + depth - 1):
            for j in range(2, len(cols)):
                if not grid[i][j] and grid[i][j - 1]:
                    grid[i][j] = grid[i][j - 1]


def lay_out(data: SheetData) -> SheetLayout | None:
    """Lay out one sheet (see the module docstring); ``None`` when no visible cell holds a value."""
    shown, notes = _shown(data)
    hidden = _hidden_note(data, shown)
    visible = {k: v for k, v in shown.items() if v and k[0] not in data.hidden_rows and not data.column_hidden(k[1])}
    if not visible:
        return None
    rows = sorted({r for r, _ in visible})
    cols = sorted({c for _, c in visible})
    grid = [[visible.get((r, c), "") for c in cols] for r in rows]
    head = _header_start(data, grid, cols, rows)
    depth = 1
    while depth < MAX_HEADER_ROWS and head + depth < len(rows) and _spans_below(data, grid, cols, rows,
                                                                                  head + depth - 1):
        depth += 1
    _carry(data, grid, cols, rows, head, depth)
    names = combine_headers(grid[head : head + depth])
    header = [name or f"column {get_column_letter(c)}" for name, c in zip(names, cols, strict=True)]
    titles = [" ".join(v for v in row if v) for row in grid[:head]]
    return SheetLayout(titles, header, grid[head + depth :], rows[head + depth :], notes + ([hidden] if hidden else []))

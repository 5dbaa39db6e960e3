"""The text of WordprocessingML as the document now reads, from its XML (ECMA-376 Part 1, §17).

python-docx's ``Paragraph.text`` reads only the runs directly under a paragraph (and hyperlinks), so it loses what
sits inside tracked insertions (``w:ins``), moves (``w:moveTo``), content controls (``w:sdt``), smart tags, simple
fields and custom XML, and it never opens text boxes. Here a paragraph's text is every ``w:t`` below it in document
order (``w:tab`` a tab, ``w:br``/``w:cr`` a line break, ``w:noBreakHyphen`` a hyphen) except what the document no
longer holds or shows: tracked deletions (``w:del``: their text is ``w:delText``, never read) and the origin of a
move (``w:moveFrom``), a content control still showing its placeholder (``w:showingPlcHdr``), field codes
(``w:instrText``, never read), and the fallback copy of a drawing (``mc:Fallback``, ECMA-376 Part 3, which repeats
its ``mc:Choice``). A text box (``w:txbxContent``) is not read into its anchoring paragraph; it is returned and read
as blocks of its own right after it.

Block level (body, table cells, text boxes, headers, notes): paragraphs and tables in order, content controls and
custom XML opened in place, tracked insertions and moves of whole blocks read, deleted ones and deleted table rows
(``w:trPr/w:del``) left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_GONE = frozenset({W + "del", W + "moveFrom", W + "delText", W + "instrText", W + "pPr", W + "rPr", W + "sdtPr",
                   W + "sdtEndPr", W + "tblPr", W + "trPr", W + "tcPr", _MC_FALLBACK})
"""Elements whose content is no text of the document as it now reads (or only properties)."""
_BREAKS = {W + "tab": "\t", W + "br": "\n", W + "cr": "\n", W + "noBreakHyphen": "-"}
_OPENED = frozenset({W + "sdt", W + "sdtContent", W + "customXml", W + "ins", W + "moveTo", W + "smartTag"})
"""Block-level containers whose blocks are read in place."""
REVISIONS = (W + "ins", W + "del", W + "moveFrom", W + "moveTo")


def _showing_placeholder(sdt: Any) -> bool:
    return sdt.find(f"{W}sdtPr/{W}showingPlcHdr") is not None


def _collect(element: Any, out: list[str], boxes: list[Any]) -> None:
    for child in element:
        tag = child.tag
        if not isinstance(tag, str) or tag in _GONE:  # comments and processing instructions have no str tag
            continue
        if tag == W + "t":
            out.append(child.text or "")
        elif tag in _BREAKS:
            out.append(_BREAKS[tag])
        elif tag == W + "txbxContent":
            boxes.append(child)
        elif not (tag == W + "sdt" and _showing_placeholder(child)):
            _collect(child, out, boxes)


def paragraph_text(p: Any) -> tuple[str, list[Any]]:
    """``(text, text boxes)`` of a ``w:p`` element: its text as the document now reads (see the module docstring)
    and the ``w:txbxContent`` elements anchored in it, in order."""
    out: list[str] = []
    boxes: list[Any] = []
    _collect(p, out, boxes)
    return "".join(out), boxes


def blocks(container: Any) -> Iterator[Any]:
    """The ``w:p`` and ``w:tbl`` elements of a block container (``w:body``, ``w:tc``, ``w:txbxContent``, ``w:hdr``,
    ``w:footnote`` …) in document order, containers opened in place, deleted blocks left out."""
    for child in container:
        tag = child.tag
        if tag in (W + "p", W + "tbl"):
            yield child
        elif tag in _OPENED and not (tag == W + "sdt" and _showing_placeholder(child)):
            yield from blocks(child)


def row_deleted(tr: Any) -> bool:
    """True when a table row (``w:tr``) is a tracked deletion."""
    return tr.find(f"{W}trPr/{W}del") is not None


def cell_text(tc: Any) -> str:
    """A table cell's text: its paragraphs (and nested tables' cells, their text boxes) one per line."""
    lines: list[str] = []
    for block in blocks(tc):
        if block.tag == W + "tbl":
            lines.extend(cell_text(c) for tr in block.iterfind(W + "tr") for c in tr.iterfind(W + "tc"))
            continue
        text, boxes = paragraph_text(block)
        lines.append(text)
        lines.extend(cell_text(box) for box in boxes)
    return "\n".join(line for line in lines if line.strip())


def count_revisions(root: Any) -> tuple[int, int]:
    """``(insertions, deletions)`` tracked in an XML tree: ``w:ins`` and ``w:moveTo``, ``w:del`` and
    ``w:moveFrom`` elements (a move counts on both sides)."""
    ins = sum(1 for _ in root.iter(W + "ins", W + "moveTo"))
    dels = sum(1 for _ in root.iter(W + "del", W + "moveFrom"))
    return ins, dels

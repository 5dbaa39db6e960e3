"""The stories of a Word document beside its body: page headers and footers, footnotes and endnotes, comments — read
where they hold content, named in a warning where they do not, never silently lost.

* **Footnotes and endnotes** are content (a rate's basis, a date a limit applies from): each is read, in order, as a
  block ``"Footnote 1: …"`` / ``"Endnote 1: …"`` after the body (separator notes, ``w:type`` set, are furniture).
* **Page headers and footers** are furniture when short — "Confidential", a running title, a page number — and are
  then named in one warning and not indexed (indexing them would put the same line before every search). A header or
  footer with more than :data:`FURNITURE_WORDS` words or a table holds content (a circular's reference block, a
  disclaimer) and is read once, as a block ``"Page header: …"`` after the body; a story used by several sections is
  read once.
* **Comments** are reviewers' notes, not the document: their number is named in a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from prism.ingestion.parsing.blocks import clean
from prism.ingestion.parsing.word.xmltext import W, blocks, cell_text, paragraph_text
from prism.types import count_phrase

logger = logging.getLogger(__name__)

FURNITURE_WORDS = 15
"""A header or footer of at most this many words (and no table) is page furniture."""
_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_KINDS = {_RELS + "header": "Page header", _RELS + "footer": "Page footer", _RELS + "footnotes": "Footnote",
          _RELS + "endnotes": "Endnote", _RELS + "comments": "Comment"}
_NOTES = {"Footnote": W + "footnote", "Endnote": W + "endnote"}
_ORDER = ("Page header", "Page footer", "Footnote", "Endnote")
"""The order the stories' blocks follow the body in (whatever order the package lists its parts in)."""


@dataclass
class Stories:
    """What the body's neighbours add: ``blocks`` to place after the body, in order, and ``warnings``."""

    blocks: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _parts(document: Any) -> Iterator[tuple[str, Any]]:
    """``(kind, root element)`` of each header, footer, notes and comments part the body refers to, once each."""
    from docx.oxml.parser import parse_xml  # python-docx's parser: no entity resolution, no network
    from lxml import etree

    seen: set[str] = set()
    for rel in document.part.rels.values():
        kind = _KINDS.get(rel.reltype)
        if kind is None or rel.is_external or str(rel.target_part.partname) in seen:
            continue
        part = rel.target_part
        seen.add(str(part.partname))
        element = getattr(part, "element", None)
        if element is None:
            try:
                element = parse_xml(part.blob)
            except etree.XMLSyntaxError:
                logger.warning("%s part %s is not well-formed XML; skipped", kind, part.partname)
                continue
        yield kind, element


def _text(container: Any) -> tuple[str, bool]:
    """``(text, has a table)`` of a block container, one paragraph or table cell per line."""
    lines: list[str] = []
    table = False
    for block in blocks(container):
        if block.tag == W + "tbl":
            table = True
            lines.append(cell_text(block))
            continue
        text, boxes = paragraph_text(block)
        lines.extend([text, *(cell_text(b) for b in boxes)])
    return clean("\n".join(line for line in lines if line.strip())), table


def _notes(kind: str, root: Any) -> list[str]:
    notes = [text for note in root.iterfind(_NOTES[kind]) if note.get(W + "type") in (None, "normal")
             for text, _ in [_text(note)] if text]
    return [f"{kind} {n}: {' '.join(text.split())}" for n, text in enumerate(notes, start=1)]


def read_stories(document: Any, name: str) -> Stories:
    """The notes, headers, footers and comments of a python-docx ``Document`` (see the module docstring).

    Returns:
        :class:`Stories`: content-bearing header and footer blocks, then footnotes, then endnotes; a warning
        naming the furniture headers and footers left out (quoted, at most three) and one counting the comments.
    """
    stories = Stories()
    by_kind: dict[str, list[str]] = {kind: [] for kind in _ORDER}
    furniture: list[str] = []
    comments = 0
    for kind, root in _parts(document):
        if kind in _NOTES:
            by_kind[kind].extend(_notes(kind, root))
        elif kind == "Comment":
            comments += sum(1 for _ in root.iterfind(W + "comment"))
        else:
            text, table = _text(root)
            if table or len(text.split()) > FURNITURE_WORDS:
                by_kind[kind].append(f"{kind}: {text}")
            elif text and text not in furniture:
                furniture.append(text)
    stories.blocks = [block for kind in _ORDER for block in by_kind[kind]]
    if furniture:
        quoted = "; ".join(f'"{" ".join(t.split())}"' for t in furniture[:3])
        more = f" and {len(furniture) - 3} more" if len(furniture) > 3 else ""
        stories.warnings.append(f"{name}: page header and footer text is not indexed (page furniture): {quoted}{more}")
    if comments:
        stories.warnings.append(f"{name}: {count_phrase(comments, 'comment')} (reviewers' notes) "
                                f"{'is' if comments == 1 else 'are'} not indexed")
    return stories

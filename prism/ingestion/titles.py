"""Title headers: the document title a chunk is embedded and BM25-indexed under (its stored text unchanged).

A title comes from an informative file name (:func:`title_from_name`) or a BEIR text's first paragraph
(:func:`title_from_text`); :func:`with_title` puts it in front of a chunk's text.
"""

from __future__ import annotations

import re

_NAME_SPLIT = re.compile(r"[\s_.\-]+")
_GENERIC_NAMES = frozenset({"document", "documents", "doc", "docs", "file", "upload", "untitled", "download", "scan",
                            "new", "copy", "img", "image"})


def title_from_name(name: str) -> str | None:
    """A document title from its file name, or ``None`` when the name says nothing a reader would search for.

    ``"3M_2022_10K.pdf"`` → ``"3M 2022 10K"``; ``"upi-refund-policy.txt"`` → ``"upi refund policy"``. Opaque names
    give ``None``: URLs, hashes and reference codes (any part of 12+ characters with a digit, e.g.
    ``"05MC010420252ED8A7….pdf"``), names with fewer than two letters (``"12345.txt"``, ``"Q3.csv"``), and
    generic names, numbered or not (``"document.pdf"``, ``"doc01.pdf"``, ``"scan_0003.pdf"``).
    """
    if "://" in name:
        return None
    stem = name.rsplit(".", 1)[0] if "." in name else name
    words = [w for w in _NAME_SPLIT.split(stem) if w]
    if not words or any(len(w) >= 12 and any(ch.isdigit() for ch in w) for w in words):
        return None
    letters = " ".join(re.sub(r"[^a-z]+", " ", " ".join(words).lower()).split())
    if sum(ch.isalpha() for w in words for ch in w) < 2 or letters in _GENERIC_NAMES:
        return None
    return " ".join(words)


def title_from_text(text: str, max_chars: int) -> str | None:
    """The first paragraph of ``text`` when it is a heading: at most ``max_chars`` characters and not the whole
    text (BEIR corpora are stored as ``title + "\\n\\n" + text``). ``None`` otherwise."""
    head, sep, rest = text.strip().partition("\n\n")
    head = " ".join(head.split())
    if not sep or not rest.strip() or not head or len(head) > max_chars:
        return None
    return head


def with_title(title: str | None, chunk_text: str) -> str:
    """The text to embed and index for a chunk: ``title + "\\n\\n" + chunk_text``, unless there is no title or the
    chunk already starts with it. A chunk's own words rarely name its document ("Net sales rose 5%" does not say
    3M or 2022); a header with the title does, for both the dense and the BM25 side (a title-only variant of
    contextual chunk headers; cf. Anthropic, "Introducing Contextual Retrieval", 2024, which writes the context
    with an LLM: :mod:`prism.answering.contextual`)."""
    if not title or chunk_text.startswith(title):
        return chunk_text
    return f"{title}\n\n{chunk_text}"


def is_opaque(text: str | None) -> bool:
    """True when ``text`` names nothing a reader recognises: empty, or every word a number, a hash or a code
    (a word of 12+ characters with a digit, ``"05MC0104…87F"``; a hex run of 8+, ``"2ed8a74e"``; a word with fewer
    than two letters in all, ``"2024"``, ``"13"``)."""
    letters = 0
    for word in (w for w in _NAME_SPLIT.split(text or "") if w):
        hexlike = len(word) >= 8 and all(ch in "0123456789abcdefABCDEF" for ch in word)
        coded = len(word) >= 12 and any(ch.isdigit() for ch in word)
        letters += 0 if hexlike or coded else sum(ch.isalpha() for ch in word)
    return letters < 2


def display_title(source: str, title: str | None, profile_line: str | None = None) -> str:
    """The one name a document is shown by on every page, in the CLI and in exports (the display rule).

    Args:
        source: the document's file name (or URL) in its workspace; always the fallback.
        title: the profile's title as printed in the document, or ``None``.
        profile_line: the profile's short line (entity, type, period, reference), or ``None``.

    Returns:
        ``title`` whitespace-collapsed when it is not opaque (:func:`is_opaque`); else ``source`` when its name is
        informative (:func:`title_from_name`); else ``profile_line`` when it is not opaque; else ``source``. The
        text is the document's own and must be treated as hostile (escape it in any HTML sink).
    """
    title = " ".join((title or "").split())
    if title and not is_opaque(title):
        return title
    if title_from_name(source) is not None:
        return source
    line = " ".join((profile_line or "").split())
    return line if line and not is_opaque(line) else source

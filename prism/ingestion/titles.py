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

"""Embedded data (``data:`` URIs, RFC 2397) in text and Markdown files, replaced by short placeholders.

A Markdown file can carry an image inline as ``![floor plan](data:image/png;base64,iVBOR…)``: tens of kilobytes
of base64 that would fill chunks with noise, match no question and show up in search results. Before a text file is
normalised:

* a Markdown image ``![alt](data:…)`` becomes ``[image: alt]`` (``[image]`` without alt text);
* an HTML ``<img … src="data:…" alt="…">`` becomes ``[image: alt]`` likewise;
* a reference definition ``[id]: data:…`` becomes ``[id]: [embedded image]``, so ``![alt][id]`` still resolves;
* any other ``data:…;base64,…`` run of at least :data:`MIN_BASE64_CHARS` characters becomes ``[embedded data]``.
"""

from __future__ import annotations

import re

MIN_BASE64_CHARS = 40
"""Shorter base64 runs after ``data:…;base64,`` are left alone (they cost nothing and may be an example)."""

_MD_IMAGE = re.compile(r"!\[([^\]\n]*)\]\(\s*<?data:[^)]*\)")
_HTML_IMAGE = re.compile(r"<img\b[^>]*?\bsrc\s*=\s*([\"'])data:.*?\1[^>]*>", re.IGNORECASE | re.DOTALL)
_ALT = re.compile(r"\balt\s*=\s*([\"'])(.*?)\1", re.IGNORECASE | re.DOTALL)
_REFERENCE = re.compile(r"^( {0,3}\[[^\]\n]+\]:[ \t]*)<?data:\S+", re.MULTILINE)
_ANY = re.compile(rf"data:[\w.+-]*/?[\w.+-]*(?:;[\w=.-]+)*;base64,[A-Za-z0-9+/_=-]{{{MIN_BASE64_CHARS},}}")


def _placeholder(alt: str) -> str:
    alt = " ".join(alt.split())
    return f"[image: {alt}]" if alt else "[image]"


def _html_image(match: re.Match[str]) -> str:
    alt = _ALT.search(match.group(0))
    return _placeholder(alt.group(2) if alt else "")


def replace_data_uris(text: str) -> tuple[str, int]:
    """Replace embedded images and data in ``text`` (rules in the module docstring).

    Returns:
        ``(text, replaced)``: the text with placeholders, and how many data URIs were replaced (≥ 0).

    Example:
        >>> replace_data_uris("Plan: ![floor plan](data:image/png;base64,iVBORw0KGgo=) end")
        ('Plan: [image: floor plan] end', 1)
    """
    if "data:" not in text:
        return text, 0
    text, a = _MD_IMAGE.subn(lambda m: _placeholder(m.group(1)), text)
    text, b = _HTML_IMAGE.subn(_html_image, text)
    text, c = _REFERENCE.subn(lambda m: m.group(1) + "[embedded image]", text)
    text, d = _ANY.subn("[embedded data]", text)
    return text, a + b + c + d

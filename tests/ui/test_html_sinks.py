"""Every ``unsafe_allow_html`` sink escapes what it inserts: the Eval page's retrieved-chunk heading (a run file's
file name, locator, rank and scores) rendered by a CommonMark renderer with raw HTML on, as Streamlit renders it."""

from __future__ import annotations

import ast
import re

import pytest

from prism.ui.evaluation.compare import retrieved_heading
from tests.conftest import REPO

markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py (a dependency of rich) is not installed")

SHEET = "<img src=x onerror=alert(7)>"  # case c63: a sheet's name, so a locator
SOURCE = "c63_<script>alert(1)</script>.xlsx"


def _render(markdown: str) -> str:
    return markdown_it.MarkdownIt("commonmark", {"html": True}).render(markdown)


def test_retrieved_heading_escapes_the_locator_source_rank_and_scores():
    row = {"rank": "<b>1</b>", "source": SOURCE, "relevant": True, "page_start": None,
           "locator": f"Sheet '{SHEET}' rows 2–3",
           "scores": {"dense": 0.61234, "bm25": "<i onmouseover=x>", "rrf": None}}
    html = _render(retrieved_heading(row))
    assert "<img" not in html and "<script" not in html and "<b>" not in html and "<i " not in html
    assert html.count("<span") == 1 and html.count("<strong>") == 1  # the heading's own markup only
    assert "&lt;img src=x onerror=alert(7)&gt;" in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    text = re.sub(r"<[^>]+>", "", html).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    assert f"#<b>1</b> {SOURCE} Sheet '{SHEET}' rows 2–3 — ✅ relevant" in text.replace("&#39;", "'")
    assert "dense 0.612 · bm25 <i onmouseover=x>" in text


def test_a_plain_heading_reads_as_before():
    html = _render(retrieved_heading({"rank": 3, "source": "a.pdf", "page_start": 4, "scores": {"dense": 0.5}}))
    assert "<strong>#3</strong> a.pdf page 4 — ·" in html and ">dense 0.500</span>" in html


SAFE_CALLS = {"escape", "literal", "retrieved_heading"}
"""Calls whose result is escaped text: ``html.escape``, :func:`prism.ui.explain.literal`, :func:`retrieved_heading`."""


def _callee(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return ""


def _unsafe_sinks(source: str) -> list[tuple[int, str]]:
    """``(line, inserted expression)`` for each value an ``unsafe_allow_html=True`` call inserts (an f-string
    placeholder, or a non-literal first argument) that is not a :data:`SAFE_CALLS` call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and any(
                k.arg == "unsafe_allow_html" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in node.keywords)):
            continue
        for arg in node.args:
            if not isinstance(arg, ast.Constant | ast.JoinedStr | ast.BinOp) and _callee(arg) not in SAFE_CALLS:
                found.append((node.lineno, ast.unparse(arg)))
            found += [(v.lineno, ast.unparse(v.value)) for v in ast.walk(arg)
                      if isinstance(v, ast.FormattedValue) and _callee(v.value) not in SAFE_CALLS]
    return found


def test_no_unsafe_html_sink_interpolates_unescaped():
    """Every ``unsafe_allow_html=True`` call in prism/ui inserts only constants or escaped values."""
    sinks = {path.name: found for path in sorted((REPO / "prism" / "ui").rglob("*.py"))
             if (found := _unsafe_sinks(path.read_text(encoding="utf-8")))}
    assert sinks == {}
    # the check can fail: the Eval heading as it was interpolated the locator and the rank as they were
    old = ("st.markdown(f\"**#{r.get('rank')}** {literal(str(r.get('source')))} {pages}  \\n\"\n"
           "            f\"<span>{' · '.join(parts)}</span>\", unsafe_allow_html=True)\n"
           "st.markdown(body, unsafe_allow_html=True)")
    assert _unsafe_sinks(old) == [(1, "r.get('rank')"), (1, "pages"), (1, "' · '.join(parts)"), (3, "body")]

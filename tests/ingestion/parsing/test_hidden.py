"""Hidden HTML is not indexed: ``display:none`` sort keys, a superseded table row hidden by a ``<style>`` class, a
notice with the ``hidden`` attribute or ``aria-hidden``, inline ``visibility:hidden`` (prism.ingestion.parsing.hidden,
tinycss2 + cssselect + lxml); a ``@media print`` rule hides nothing on screen.

The real page fixture (tests/fixtures/html/mdr_schedule_hidden_rows.html) goes through the real service: the HTML
loader, the table reader, the embedder, Chroma, BM25 and the extractive answer.
"""

from __future__ import annotations

import pytest

from prism.ingestion.parsing.hidden import visible_html
from prism.ingestion.parsing.htmlfile import load_html
from prism.types import IngestItem
from tests.conftest import FIXTURES, offline_service

PAGE = FIXTURES / "html" / "mdr_schedule_hidden_rows.html"


@pytest.mark.parametrize(("html", "gone", "kept"), [
    ('<p>Rate <span style="display: none">0040</span>0.40</p>', "0040", "0.40"),
    ('<p>Rate <span style="DISPLAY:NONE !important">0040</span>0.40</p>', "0040", "0.40"),
    ('<p>Rate <span style="visibility:hidden">old</span>new</p>', "old", "new"),
    ('<style>.x{display:none}</style><p>Shown <b class="x">hidden</b> tail</p>', "hidden", "tail"),
    ('<style>div > .y, #z {visibility: collapse}</style><div><i class="y">a1</i><i id="z">a2</i>b3</div>', "a2", "b3"),
    ('<p>Shown</p><p hidden>secret</p>', "secret", "Shown"),
    ('<p>Shown</p><p aria-hidden="true">duplicate</p>', "duplicate", "Shown"),
])
def test_what_a_browser_hides_is_removed_and_the_text_after_it_kept(html, gone, kept):
    page = f"<html><body>{html}</body></html>"
    visible = visible_html(page)
    assert gone not in visible.split("</style>")[-1]
    assert kept in visible


def test_rules_a_browser_does_not_apply_on_screen_hide_nothing():
    page = ("<html><head><style>@media print { .p { display: none } } a:hover { display: none } .q { color: red }"
            "</style></head><body><p class='p'>printed away</p><a href='#'>link</a><p class='q'>red</p></body></html>")
    assert visible_html(page) == page  # nothing hidden: the page itself, not re-serialised


def test_the_loaders_text_and_tables_hold_only_what_is_shown():
    doc = load_html(PAGE.read_bytes(), PAGE.name)
    text = doc.pages[0].text
    assert "Card type: Premium credit cards; MDR (%): 1.90" in text
    assert "2.75" not in text and "0040" not in text and "1.10" not in text and "9.99" not in text
    assert [(r.label, r.cells) for r in doc.tables[0].rows] == [
        ("Debit cards", ("0.40",)), ("Premium credit cards", ("1.90",)), ("Standard credit cards", ("1.50",))]


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    service = offline_service(tmp_path_factory.mktemp("hidden_home"), embedder, briefing_on_ingest=False)
    [result] = service.ingest([IngestItem(PAGE)], "html")
    assert result.status == "ingested"
    return service


def test_a_hidden_superseded_row_is_never_quoted(svc):
    answer = svc.ask("What is the MDR for premium credit cards?", "html")
    assert "1.90" in answer.answer
    assert "2.75" not in answer.answer
    texts = " ".join(r["text"] for _, rows in svc.chunk_rows("html") for r in rows)
    assert "0040" not in texts and "2.75" not in texts and "withdrawn" not in texts


def test_hidden_notes_are_not_searchable(svc):
    assert svc.search("treasury desk unpublished cap", "html", mode="bm25").results == []

from __future__ import annotations

import pytest

from prism.ingestion.chunking import PAGE_SEPARATOR, chunk_document, document_text, split_spans
from prism.ingestion.titles import title_from_name, title_from_text, with_title
from prism.types import Page, ParsedDocument
from tests.conftest import CASES


def _doc(pages: list[str], kind: str = "pdf") -> ParsedDocument:
    if kind == "pdf":
        return ParsedDocument("a.pdf", "pdf", tuple(Page(i + 1, t) for i, t in enumerate(pages)), len(pages))
    return ParsedDocument("a.txt", kind, (Page(None, pages[0]),))


def test_spans_cover_text_with_overlap_and_size_bound():
    text = " ".join(f"word{i}" for i in range(400))  # ~3,000 chars, spaces only
    spans = split_spans(text, 500, 50)
    assert all(0 < e - s <= 500 for s, e in spans)
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    for (_s1, e1), (s2, _e2) in zip(spans, spans[1:], strict=False):
        assert s2 < e1, "neighbours overlap"
        assert e1 - s2 <= 50
        assert text[s2 - 1] == " ", "overlap starts at a word start"
    # every word is inside some chunk
    covered = set()
    for s, e in spans:
        covered.update(text[s:e].split())
    assert covered == set(text.split())


def test_prefers_paragraph_then_sentence_boundaries():
    para1 = "First paragraph sentence one. " * 8  # 240 chars
    para2 = "Second paragraph has more words in it. " * 8
    text = para1.strip() + "\n\n" + para2.strip()
    spans = split_spans(text, 500, 50)
    assert text[spans[0][0] : spans[0][1]] == para1.strip()
    one_para = "Alpha beta gamma delta. " * 40
    s, e = split_spans(one_para, 500, 50)[0]
    assert one_para[s:e].endswith(".")


def test_invalid_sizes_raise():
    with pytest.raises(ValueError, match="chunk_overlap"):
        split_spans("abc", 100, 100)


def test_offsets_pages_and_ids():
    pages = [("Page one text. " * 30).strip(), ("Page two text here. " * 30).strip(), "Short third page."]
    doc = _doc(pages)
    text, offsets = document_text(doc)
    assert offsets == [0, len(pages[0]) + len(PAGE_SEPARATOR), len(pages[0]) + len(pages[1]) + 2 * len(PAGE_SEPARATOR)]
    chunks = chunk_document(doc, "ab" * 32, chunk_size=500, chunk_overlap=50)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    assert chunks[0].chunk_id == "abababababababab-00000"
    for c in chunks:
        assert text[c.char_start : c.char_end] == c.text
        assert c.page_start <= c.page_end
        first_page = max(i for i, o in enumerate(offsets) if o <= c.char_start) + 1
        assert c.page_start == first_page
    assert chunks[-1].page_end == 3 and chunks[-1].text.endswith("Short third page.")
    # the tail of page 2 and the short page 3 fit in one last chunk, which spans both pages
    assert (chunks[-1].page_start, chunks[-1].page_end) == (2, 3)
    assert all(c.page_start == c.page_end for c in chunks[:-1]), "page breaks are paragraph breaks"


def test_chunk_crossing_a_page_break_spans_both_pages():
    doc = _doc(["Annexure II", "Table of limits follows with more words. " * 20])
    chunks = chunk_document(doc, "ab" * 32, chunk_size=500, chunk_overlap=50)
    assert chunks[0].text.startswith("Annexure II\n\nTable of limits")
    assert (chunks[0].page_start, chunks[0].page_end) == (1, 2)
    assert all((c.page_start, c.page_end) == (2, 2) for c in chunks[1:])


def test_unpaged_source_has_no_page_keys():
    chunks = chunk_document(_doc(["Notes without pages. 15 euros."], kind="txt"), "cd" * 32, chunk_size=500,
                            chunk_overlap=50)
    assert len(chunks) == 1
    meta = chunks[0].metadata()
    assert "page_start" not in meta and "page_end" not in meta
    assert None not in meta.values()


def test_repeated_paragraphs_get_distinct_ids():
    text = (CASES / "13_repeated_boilerplate_paragraph.txt").read_text(encoding="utf-8").strip()
    chunks = chunk_document(_doc([text], kind="txt"), "ef" * 32, chunk_size=90, chunk_overlap=10)
    boiler = [c for c in chunks if c.text.startswith("Confidential - do not distribute.")]
    assert len(boiler) == 3 and len({c.text for c in boiler}) == 1, "the same paragraph thrice"
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    for n in (1, 2, 3):
        assert any(c.text.startswith(f"Section {n}.") for c in chunks)


def test_chunks_fit_the_embedder_window(embedder):
    text = (CASES / "19_fact_after_256_wordpieces.txt").read_text(encoding="utf-8")
    # one huge chunk size so only the token check can split it
    chunks = chunk_document(_doc([text], kind="txt"), "01" * 32, chunk_size=5000, chunk_overlap=50,
                            count_tokens=embedder.count_tokens, max_tokens=embedder.max_tokens)
    assert embedder.count_tokens(text) > 256
    assert len(chunks) >= 2
    assert all(embedder.count_tokens(c.text) <= 256 for c in chunks)
    assert any("7734-ALPHA" in c.text for c in chunks)
    joined_words = " ".join(c.text for c in chunks).split()
    assert joined_words == text.split()


@pytest.mark.parametrize(
    ("name", "title"),
    [("3M_2022_10K.pdf", "3M 2022 10K"), ("upi-refund-policy.txt", "upi refund policy"),
     ("Meridian Bank - KYC Master Direction.pdf", "Meridian Bank KYC Master Direction"),
     ("05MC010420252ED8A74EE428468287D815016A33587F.pdf", None),  # RBI's opaque file codes
     ("NT7871494C59CE3B455BBD0D18770BBB1408.pdf", None), ("12345.txt", None), ("document.pdf", None),
     ("https://example.com/circular.html", None), ("Q3.csv", None)],
)
def test_title_from_name_keeps_informative_names_only(name, title):
    assert title_from_name(name) == title


def test_title_from_text_takes_a_short_first_paragraph():
    assert title_from_text("Vitamin D and fractures\n\nA cohort of 2,000 ...", 200) == "Vitamin D and fractures"
    assert title_from_text("One paragraph only, no title.", 200) is None
    assert title_from_text("x" * 300 + "\n\nbody", 200) is None
    assert title_from_text("Title\n  spread\n\nbody", 200) == "Title spread"


def test_with_title_puts_the_title_in_front_once():
    assert with_title("3M 2022 10K", "Net sales rose 5%.") == "3M 2022 10K\n\nNet sales rose 5%."
    assert with_title("Vitamin D", "Vitamin D\n\nA cohort") == "Vitamin D\n\nA cohort"
    assert with_title(None, "text") == "text"

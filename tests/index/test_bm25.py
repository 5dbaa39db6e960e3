"""Tokenizer and BM25 index: identifier tokens, the repository's sample PDFs, tiny corpora, degenerate queries,
persistence; identifier queries and tokens of real RBI circulars from ../shared/data (skipped, naming it, without
it)."""

from __future__ import annotations

import json
import math
import time
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader
from rank_bm25 import BM25Okapi

import prism.index.bm25 as sparse_index
from prism.errors import StoreError
from prism.index.bm25 import BM25Index
from prism.index.tokenizer import MAX_TOKEN_CHARS, STOP_WORDS, tokenize
from tests.conftest import CASES, DATA, REPO, needs_data, require_data

RBI = DATA / "rbi" / "pdfs"
CIRCULAR_13 = "13MC01042025792E33CF094B46F2B838E6409777438D.PDF"  # RBI/2025-26/13, income recognition / NPAs
RBI_FILES = [
    CIRCULAR_13,
    "01MCD0D97308D3AD49A3908E2F4410ED4409.PDF",  # RBI/2025-26/01, SHG-Bank linkage
    "NT150D4BEA3889CD42F794F124D97AEB5B69.PDF",  # RBI/2025-26/15, bank finance to NBFCs
    "09MC01042025579866A57486476EBBEAB63366EB95B7.PDF",  # RBI/2025-26/09, capital adequacy of UCBs
]


@pytest.fixture(scope="module")
def rbi_chunks() -> tuple[list[str], list[str]]:
    """~670 chunks of 500 characters (450 stride) from four real RBI circulars, ids ``file:page:n``."""
    require_data("rbi", "pdfs")
    ids, texts = [], []
    for name in RBI_FILES:
        for page_no, page in enumerate(PdfReader(RBI / name).pages, start=1):
            text = page.extract_text() or ""
            for n, start in enumerate(range(0, len(text), 450)):
                ids.append(f"{name[:6]}:{page_no}:{n}")
                texts.append(text[start : start + 500])
    return ids, texts


@pytest.fixture(scope="module")
def rbi_index(rbi_chunks) -> BM25Index:
    ids, texts = rbi_chunks
    return BM25Index(ids, texts, fingerprint="state-1", k1=1.5, b=0.75)


@pytest.fixture(scope="module")
def sample_chunks() -> tuple[list[str], list[str]]:
    """107 chunks of 500 characters (450 stride) from the repository's four sample PDFs, ids ``file:page:n``."""
    ids, texts = [], []
    for path in sorted((REPO / "data" / "sample").glob("*.pdf")):
        for page_no, page in enumerate(PdfReader(path).pages, start=1):
            text = page.extract_text() or ""
            for n, start in enumerate(range(0, len(text), 450)):
                ids.append(f"{path.stem}:{page_no}:{n}")
                texts.append(text[start : start + 500])
    return ids, texts


@pytest.fixture(scope="module")
def sample_index(sample_chunks) -> BM25Index:
    ids, texts = sample_chunks
    return BM25Index(ids, texts, fingerprint="state-1", k1=1.5, b=0.75)


# --- tokenizer ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # amounts: one canonical form whatever the currency spelling and grouping
        ("₹2,000", ["₹2000", "2000"]),
        ("₹2000", ["₹2000", "2000"]),
        ("Rs. 2,000", ["₹2000", "2000"]),
        ("Rs.25,000/-", ["₹25000", "25000"]),
        ("2,000", ["2000"]),
        ("10,00,000", ["1000000"]),
        ("10 lakh", ["10", "10lakh", "lakh"]),
        ("₹37.50 lakh", ["₹37.5", "37.5", "37.5lakh", "lakh"]),
        ("Rs 37.5 lakhs", ["₹37.5", "37.5", "37.5lakh", "lakh"]),
        ("INR 2,000 crore", ["₹2000", "2000", "2000crore", "crore"]),
        # percentages
        ("7.5%", ["7.5%", "7.5"]),
        ("7.50 per cent", ["7.5%", "7.5"]),
        ("75 %", ["75%", "75"]),
        # section references and numbers
        ("7(b)", ["7(b)", "7"]),
        ("section 7 (b)", ["section", "7(b)", "7"]),
        ("17(2)(a)", ["17(2)(a)", "17(2)", "17"]),
        ("4.3.1", ["4.3.1", "4.3"]),
        ("4.3.1(a)", ["4.3.1(a)", "4.3.1", "4.3"]),
        ("2.1.3.", ["2.1.3", "2.1"]),
        ("2.10", ["2.10"]),  # may be a section: trailing zero kept
        ("April 01, 2025", ["april", "1", "2025"]),
        # circular ids
        ("RBI/2025-26/13", ["rbi/2025-26/13", "rbi", "2025-26", "13"]),
        (
            "DOR.STR.REC.10/21.04.048/2025-26",
            ["dor.str.rec.10/21.04.048/2025-26", "dor.str.rec.10", "dor", "str", "rec", "21.04.048", "2025-26"],
        ),
        (
            "DOR.STR.REC.No.9/21.04.048/2025-26",
            ["dor.str.rec.9/21.04.048/2025-26", "dor.str.rec.9", "dor", "str", "rec", "21.04.048", "2025-26"],
        ),
        # words: stop words out, Snowball stems, hyphen compounds also joined
        ("The banks are reporting frauds", ["bank", "report", "fraud"]),
        ("co-operative", ["co", "oper", "cooper"]),
        ("The interest amount on the bill", ["interest", "amount", "bill"]),
        ("RBI's", ["rbi"]),
        ("don't shouldn’t it's", []),
        ("ﬁnance oﬃce", ["financ", "offic"]),  # ligatures, via NFKC
        ("A.P. (DIR Series)", ["a.p", "ap", "dir", "seri"]),
        ("i.e. e.g.", []),
    ],
)
def test_tokenize_identifier_kinds(text, expected):
    assert tokenize(text) == expected


def test_query_spellings_of_one_amount_share_their_tokens():
    doc = set(tokenize("a loan of ₹2,000 was sanctioned"))
    for query in ("2,000", "₹2000", "Rs. 2,000", "Rs 2000", "INR 2,000", "rupees 2000"):
        assert "2000" in doc & set(tokenize(query)), query


@pytest.mark.parametrize(("forms", "term"), [
    (("grow", "grows", "grew", "grown", "growing", "growth", "Growth"), "grow"),
    (("rise", "rises", "rose", "risen", "rising"), "rise"),
    (("fall", "falls", "fell", "fallen", "falling"), "fall"),
])
def test_the_irregular_forms_of_a_change_are_one_term(forms, term):
    """Stemming keeps "grew" from "growth" and "rose" from "rise"; the tokenizer gives every form its family's term."""
    assert {t for form in forms for t in tokenize(form)} == {term}


def test_a_question_worded_with_grew_finds_the_chunk_headed_growth():
    texts = ["Deposits FY2024 FY2023 YoY growth", "Deposits were reported by branch"]
    index = BM25Index(["growth", "branch"], texts, k1=1.5, b=0.75)
    assert [doc for doc, _ in index.search("How much have deposits grew?", top_k=2)] == ["growth", "branch"]


def test_indic_scripts_keep_their_vowel_signs_and_are_not_stemmed():
    words = ["भारतीय", "रिज़र्व", "बैंक", "ব্যাংক", "வங்கி"]
    tokens = tokenize(" ".join(words) + "। ")
    assert tokens == [unicodedata.normalize("NFKC", w) for w in words]
    assert "\u094d" in tokens[1] and "\u093f" in tokens[1]  # virama and vowel sign i stay inside the word
    assert tokenize("१० लाख") == ["10", "लाख"]  # Devanagari digits read as digits


def test_punctuation_only_file_tokenises_to_nothing():
    assert tokenize((CASES / "16_punctuation_only.txt").read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("text", ["", "   \t\n", "🤔", "👍🏽", "the of and is", "a", "?!…", "— • ***"])
def test_degenerate_texts_have_no_tokens(text):
    assert tokenize(text) == []


def test_keycap_emoji_reads_as_its_digit():
    assert tokenize("1️⃣") == ["1"]


def test_tokenize_is_deterministic_and_rejects_non_str():
    text = "Para 2.1.3 of RBI/2025-26/13: ₹37.50 lakh at 7.5%"
    assert tokenize(text) == tokenize(text)
    with pytest.raises(TypeError, match="needs a str"):
        tokenize(["bank"])  # type: ignore[arg-type]


@pytest.mark.parametrize("unit", ["1,22" + ",22" * 2, "1.2.", "7(1)(2)", "₹9", "1,", "x'", "a-b/", "9" * 150])
def test_tokenize_time_is_linear_on_pathological_input(unit):
    text = unit * (60_000 // len(unit))  # an earlier pattern took minutes on 20k characters of "1,22,22,..."
    started = time.perf_counter()
    tokens = tokenize(text)
    assert time.perf_counter() - started < 3.0
    assert all(len(t) <= MAX_TOKEN_CHARS for t in tokens)


@needs_data
def test_tokens_of_real_rbi_page():
    page1 = PdfReader(RBI / CIRCULAR_13).pages[0].extract_text()
    tokens = tokenize(page1)
    assert {"rbi/2025-26/13", "dor.str.rec.9/21.04.048/2025-26", "dor.str.rec.8/21.04.048/2024-25"} <= set(tokens)
    assert {"prudenti", "norm", "incom", "recognit", "provis"} <= set(tokens)
    assert "भारतीय" in tokens
    assert not set(tokens) & STOP_WORDS


# --- BM25 on real RBI text ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "must_contain"),
    [
        ("RBI/2025-26/13", "RBI/2025-26/13"),
        ("DOR.STR.REC.9/21.04.048/2025-26", "DOR.STR.REC.9/21.04.048/2025-26"),
        ("2.1.3", "2.1.3"),
        ("Rs 37.5 lakh", "₹37.50 lakh"),  # another spelling of the amount in the text
        ("₹1000 crore", "₹1000 crore"),
    ],
)
def test_identifier_queries_rank_the_chunk_that_contains_them_first(rbi_chunks, rbi_index, query, must_contain):
    texts = dict(zip(*rbi_chunks, strict=True))
    results = rbi_index.search(query, top_k=5)
    assert results, query
    top_id, top_score = results[0]
    assert must_contain in texts[top_id]
    assert top_score > 0 and [s for _, s in results] == sorted((s for _, s in results), reverse=True)


def test_degenerate_queries_from_cases_return_nothing(sample_index):
    lines = (CASES / "18_degenerate_queries.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 5
    for query in [*lines, "", "\n"]:
        assert sample_index.search(query, top_k=10) == [], repr(query)


def test_vectorised_scores_equal_bm25okapi_with_the_fixed_idf(sample_chunks):
    class LuceneIdfOkapi(BM25Okapi):
        def _calc_idf(self, nd):
            n = self.corpus_size
            self.idf = {term: math.log(1 + (n - df + 0.5) / (df + 0.5)) for term, df in nd.items()}

    ids, texts = sample_chunks
    tokens = [tokenize(t) for t in texts]
    kept = [i for i, tok in enumerate(tokens) if tok]
    for k1, b in [(1.5, 0.75), (0.9, 0.4)]:
        index = BM25Index(ids, tokens=tokens, k1=k1, b=b)
        reference = LuceneIdfOkapi([tokens[i] for i in kept], k1=k1, b=b)
        assert index.chunk_ids == tuple(ids[i] for i in kept)
        for query in ["UPI collect request limit", "merchant discount rate RuPay credit card", "P2P ₹2,000 bank bank"]:
            q = tokenize(query)
            np.testing.assert_allclose(index.get_scores(q), reference.get_scores(q), rtol=0, atol=1e-6)
            assert index.get_scores(q).max() > 0


def test_unfiltered_and_filtered_search(sample_index):
    full = sample_index.search("UPI transaction limit", top_k=20)
    assert len(full) == 20
    pool = {cid for cid, _ in full[5:]} | {"not-in-index"}
    filtered = sample_index.search("UPI transaction limit", top_k=3, allowed_ids=pool)
    assert filtered == full[5:8]  # the filter is applied before top_k
    assert sample_index.search("UPI transaction limit", top_k=3, allowed_ids=set()) == []
    with pytest.raises(TypeError, match="not a single str"):
        sample_index.search("limit", top_k=3, allowed_ids="meridian_fee_schedule_tables:1:0")


# --- tiny corpora, ties, validation ------------------------------------------------------------------------------


def test_two_chunk_workspace_ranks_the_matching_chunk_with_a_positive_score():
    texts = ["Banks shall report frauds", "Interest rates on advances"]
    index = BM25Index(["a", "b"], texts, k1=1.5, b=0.75)
    # idf = ln(1 + (2 - 1 + 0.5) / (1 + 0.5)) = ln 2; |a| = 4 terms, avgdl = 3.5; two matching terms, tf = 1
    per_term = math.log(2) * 2.5 / (1 + 1.5 * (0.25 + 0.75 * 4 / 3.5))
    assert index.search("Fraud reporting?", top_k=5) == [("a", pytest.approx(2 * per_term, abs=1e-12))]
    assert BM25Okapi([tokenize(t) for t in texts]).get_scores(["fraud"]).tolist() == [0.0, 0.0]  # rank_bm25's flaw


def test_a_term_in_every_chunk_still_scores_and_shorter_chunks_win():
    index = BM25Index(["long", "short"], ["banks lend money to borrowers", "banks"], k1=1.5, b=0.75)
    results = index.search("bank", top_k=2)
    assert [cid for cid, _ in results] == ["short", "long"]
    idf = math.log(1 + 0.5 / 2.5)  # n = N = 2
    assert results[0][1] == pytest.approx(idf * 2.5 / (1 + 1.5 * (0.25 + 0.75 * 1 / 2.5)), abs=1e-12)


def test_ties_are_broken_by_chunk_order_and_top_k_cuts_after_ordering():
    index = BM25Index(["c3", "c1", "c2", "c0"], ["npa norms", "npa norms", "other text", "npa norms"], k1=1.5, b=0.75)
    results = index.search("NPA", top_k=2)
    assert [cid for cid, _ in results] == ["c3", "c1"]
    assert results[0][1] == results[1][1] > 0


def test_empty_and_token_less_corpora_search_to_nothing():
    empty = BM25Index([], [], k1=1.5, b=0.75)
    assert len(empty) == 0 and empty.search("bank", top_k=5) == []
    punctuation = (CASES / "16_punctuation_only.txt").read_text(encoding="utf-8")
    only_junk = BM25Index(["p", "q"], [punctuation, "the of and"], k1=1.5, b=0.75)
    assert only_junk.skipped_ids == ("p", "q") and only_junk.search("the", top_k=5) == []
    mixed = BM25Index(["p", "r"], [punctuation, "repo rate"], k1=1.5, b=0.75)
    assert mixed.chunk_ids == ("r",) and mixed.search("repo", top_k=5)[0][0] == "r"


def test_input_validation():
    with pytest.raises(ValueError, match="more than once"):
        BM25Index(["a", "a"], ["x", "y"])
    with pytest.raises(ValueError, match="exactly one"):
        BM25Index(["a"])
    with pytest.raises(ValueError, match="1 chunk ids but 2"):
        BM25Index(["a"], ["x", "y"])
    with pytest.raises(TypeError, match="sequence of str"):
        BM25Index("ab", ["x", "y"])
    with pytest.raises(ValueError, match="k1 > 0"):
        BM25Index(["a"], ["x"], k1=0)
    index = BM25Index(["a", "b"], ["repo rate", "bank rate"])
    with pytest.raises(TypeError, match="query must be a sequence of str"):
        index.get_scores("repo")
    with pytest.raises(TypeError, match="query must be a str"):
        index.search(["repo"], top_k=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="top_k must be an int >= 1"):
        index.search("repo", top_k=0)
    with pytest.raises(ValueError, match="3 documents"):
        index.get_top_n(["repo"], ["x"] * 3, n=1)
    with pytest.raises(IndexError, match="positions"):
        index.get_batch_scores(["repo"], [0, 2])
    assert index.get_top_n(["rate"], ["first", "second"], n=2) == ["first", "second"]


def test_settings_supply_k1_and_b(monkeypatch):
    from prism.config import get_settings

    monkeypatch.setenv("PRISM_BM25_K1", "0.9")
    monkeypatch.setenv("PRISM_BM25_B", "0.4")
    get_settings.cache_clear()
    index = BM25Index(["a"], ["repo rate"])
    assert (index.k1, index.b) == (0.9, 0.4)


# --- persistence ------------------------------------------------------------------------------------------------

QUERIES = ["UPI collect request limit", "merchant discount rate", "₹1 lakh", "4.2.1", "cooling period new device",
           "Rs 2000"]


def test_saved_index_reloads_equal_to_the_rebuilt_one(sample_chunks, sample_index, tmp_path, monkeypatch):
    sample_index.save(tmp_path / "bm25")

    def no_tokenizing(_text):
        raise AssertionError("load must not tokenise")

    with monkeypatch.context() as m:
        m.setattr(sparse_index, "tokenize", no_tokenizing)
        loaded = BM25Index.load(tmp_path / "bm25", fingerprint="state-1", k1=1.5, b=0.75)
    assert loaded is not None
    rebuilt = BM25Index(*sample_chunks, fingerprint="state-1", k1=1.5, b=0.75)
    assert loaded.chunk_ids == rebuilt.chunk_ids and loaded.skipped_ids == rebuilt.skipped_ids
    assert (loaded.avgdl, loaded.doc_len, loaded.idf) == (rebuilt.avgdl, rebuilt.doc_len, rebuilt.idf)
    for query in QUERIES:
        assert loaded.search(query, top_k=10) == rebuilt.search(query, top_k=10), query
        assert loaded.search(query, top_k=10)
    files = sorted(p.name for p in (tmp_path / "bm25").iterdir())
    assert len(files) == 3 and "bm25.json" in files and all(f.endswith(".npz") for f in files if f != "bm25.json")


def test_stale_fingerprint_and_other_parameters_are_detected(sample_index, tmp_path):
    folder = tmp_path / "bm25"
    sample_index.save(folder)
    assert BM25Index.load(folder).fingerprint == "state-1"
    assert BM25Index.load(folder, fingerprint="state-2") is None
    assert BM25Index.load(folder, k1=1.2) is None
    assert BM25Index.load(folder, fingerprint="state-1") is not None


def test_resave_replaces_files_and_keeps_only_the_new_build(tmp_path):
    folder = tmp_path / "bm25"
    BM25Index(["a"], ["repo rate"], fingerprint="v1").save(folder)
    BM25Index(["b", "c"], ["reverse repo", "bank rate"], fingerprint="v2").save(folder)
    loaded = BM25Index.load(folder)
    assert loaded.fingerprint == "v2" and loaded.chunk_ids == ("b", "c")
    assert len(list(folder.iterdir())) == 3 and not list(folder.glob(".tmp-*"))
    empty = tmp_path / "empty"
    BM25Index([], []).save(empty)
    assert BM25Index.load(empty).search("repo", top_k=3) == []


def test_missing_mismatched_or_corrupt_index_loads_as_none(tmp_path):
    assert BM25Index.load(tmp_path / "nothing-here") is None
    folder = tmp_path / "bm25"
    BM25Index(["a", "b"], ["repo rate", "bank rate"]).save(folder)
    meta_path = folder / "bm25.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))

    meta_path.write_text(json.dumps({**meta, "format_version": 999}), encoding="utf-8")
    assert BM25Index.load(folder) is None
    meta_path.write_text(json.dumps({**meta, "chunk_ids": ["a"]}), encoding="utf-8")
    assert BM25Index.load(folder) is None  # sizes disagree
    meta_path.write_text("{not json", encoding="utf-8")
    assert BM25Index.load(folder) is None
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    assert BM25Index.load(folder) is not None
    matrix = folder / meta["matrix_file"]
    matrix.write_bytes(matrix.read_bytes()[:100])
    assert BM25Index.load(folder) is None
    matrix.unlink()
    assert BM25Index.load(folder) is None


def test_unwritable_or_unreadable_index_raises_store_error(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="Could not save the BM25 index"):
        BM25Index(["a"], ["repo rate"]).save(blocker / "bm25")
    folder = tmp_path / "bm25"
    BM25Index(["a"], ["repo rate"]).save(folder)

    def denied(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_text", denied)
    with pytest.raises(StoreError, match="Could not read the BM25 index"):
        BM25Index.load(folder)

"""The generated FinanceBench-style dev set (``data/ground_truth/financebench_generated``) and the loader's fallback to
``<eval data dir>/financebench-dev/pdfs`` for a questions file that has no ``pdfs/`` folder beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from prism.config import Settings
from prism.errors import PrismError
from prism.evaluation.datasets import FINANCEBENCH_PDFS, load_dataset, load_financebench
from prism.evaluation.relevance import RelevantSpec
from tests.conftest import REPO

GENERATED = REPO / "data" / "ground_truth" / "financebench_generated"
TYPES = {"metrics-generated", "novel-generated", "domain-relevant"}


def _eval_data(*parts: str) -> Path:
    """``Settings().eval_data_dir / parts``; skips, naming the folder, when it is missing."""
    base = Settings().eval_data_dir
    path = base.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs the public evaluation data folder {path} (PRISM_EVAL_DATA_DIR, default ../shared/data), "
                    "which is missing")
    return path


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def test_financebench_generated_is_well_formed_without_the_pdfs():
    rows = _rows(GENERATED / "questions.jsonl")
    ids = [r["id"] for r in rows]
    assert len(rows) >= 120 and len(set(ids)) == len(ids)
    assert ids == sorted(ids) and all(re.fullmatch(r"gen_\d{4}", i) for i in ids)
    assert not (GENERATED / "pdfs").exists(), "the filings stay outside the repository"
    for r in rows:
        assert set(r) == {"id", "company", "doc_name", "question_type", "question", "answer", "evidence"}, r["id"]
        assert r["question_type"] in TYPES and r["question"].strip() and r["answer"].strip(), r["id"]
        assert r["evidence"], r["id"]
        for ev in r["evidence"]:
            assert ev["doc_name"] == r["doc_name"] and isinstance(ev["page"], int) and ev["page"] >= 0, r["id"]
            assert 0 < len(ev["text"]) <= 300, r["id"]
    counts = {t: sum(r["question_type"] == t for r in rows) for t in TYPES}
    assert all(n >= 0.2 * len(rows) for n in counts.values()), counts


def test_financebench_generated_loads_from_the_eval_data_folder():
    pdfs = _eval_data(*FINANCEBENCH_PDFS.parts)
    ds = load_dataset(GENERATED)
    assert ds.name == "financebench_generated" and ds.format == "financebench" and len(ds.queries) >= 120
    assert {d.source for d in ds.documents} == {p.name for p in pdfs.glob("*.pdf")} and len(ds.documents) == 16
    assert all(d.path is not None and d.path.parent == pdfs for d in ds.documents)
    # the same 16 documents under the same names as the real set: an evaluation reuses its workspace
    real = load_dataset(pdfs.parent)
    assert [(d.source, d.path) for d in ds.documents] == [(d.source, d.path) for d in real.documents]
    raw = _rows(GENERATED / "questions.jsonl")
    first = next(q for q in ds.queries if q.id == raw[0]["id"])
    assert first.relevant[0] == RelevantSpec(f"{raw[0]['doc_name']}.pdf", raw[0]["evidence"][0]["page"] + 1)


def test_financebench_generated_evidence_pages_exist_and_hold_their_excerpts():
    import pypdf

    pdfs = _eval_data(*FINANCEBENCH_PDFS.parts)
    rows = _rows(GENERATED / "questions.jsonl")
    by_doc: dict[str, list[tuple[str, int, str]]] = {}
    for r in rows:
        for ev in r["evidence"]:
            by_doc.setdefault(ev["doc_name"], []).append((r["id"], ev["page"], ev["text"]))
    assert len(by_doc) == 16
    squash = re.compile(r"\s+")
    for doc, evidence in sorted(by_doc.items()):
        reader = pypdf.PdfReader(pdfs / f"{doc}.pdf")
        pages: dict[int, str] = {}
        for qid, page, text in evidence:
            assert page < len(reader.pages), f"{qid}: {doc} has {len(reader.pages)} pages, no 0-based page {page}"
            if page not in pages:
                pages[page] = squash.sub("", reader.pages[page].extract_text() or "")
            assert squash.sub("", text) in pages[page], f"{qid}: excerpt not on page {page} of {doc}"


def test_financebench_generated_questions_do_not_restate_the_real_ones():
    real = [r["question"] for r in _rows(_eval_data("financebench-dev", "questions.jsonl"))]
    assert len(real) == 20
    for r in _rows(GENERATED / "questions.jsonl"):
        mine = _tokens(r["question"])
        for question in real:
            theirs = _tokens(question)
            jaccard = len(mine & theirs) / len(mine | theirs)
            assert r["question"].strip().lower() != question.strip().lower() and jaccard <= 0.8, (r["id"], question)


def _tiny_pdf(path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Revenue was $10 million.")
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))


def _questions(folder: Path, doc: str = "TINY_2020_10K") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    row = {"id": "t1", "company": "Tiny", "doc_name": doc, "question_type": "metrics-generated",
           "question": "What was Tiny's revenue?", "answer": "$10 million",
           "evidence": [{"doc_name": doc, "page": 0, "text": "Revenue was $10 million."}]}
    qfile = folder / "questions.jsonl"
    qfile.write_text(json.dumps(row) + "\n", encoding="utf-8")
    return qfile


def test_financebench_pdfs_fall_back_to_the_eval_data_folder(tmp_path, monkeypatch):
    from prism.config import get_settings

    qfile = _questions(tmp_path / "repo" / "my_set")
    data = tmp_path / "data"
    _tiny_pdf(data / "financebench-dev" / "pdfs" / "TINY_2020_10K.pdf")
    ds = load_financebench(qfile, eval_data_dir=data)
    assert ds.name == "my_set" and [d.source for d in ds.documents] == ["TINY_2020_10K.pdf"]
    assert ds.documents[0].path == data / FINANCEBENCH_PDFS / "TINY_2020_10K.pdf"
    assert ds.queries[0].relevant == (RelevantSpec("TINY_2020_10K.pdf", 1),)
    # load_dataset passes it through; without it, the settings' eval data folder is used
    assert load_dataset(qfile.parent, eval_data_dir=data).documents == ds.documents
    monkeypatch.setenv("PRISM_EVAL_DATA_DIR", str(data))
    get_settings.cache_clear()
    assert load_dataset(qfile).documents == ds.documents
    # a pdfs/ folder beside the questions wins, and a PDF missing there is reported in that folder
    _tiny_pdf(qfile.parent / "pdfs" / "TINY_2020_10K.pdf")
    assert load_financebench(qfile, eval_data_dir=data).documents[0].path == qfile.parent / "pdfs" / "TINY_2020_10K.pdf"
    other = _questions(tmp_path / "repo" / "other_set", doc="GONE_2021_10K")
    with pytest.raises(PrismError, match=r"missing in .*financebench-dev.pdfs \(no pdfs/ folder beside .*: GONE_2021"):
        load_financebench(other, eval_data_dir=data)
    (other.parent / "pdfs").mkdir()
    with pytest.raises(PrismError, match=r"missing in .*other_set.pdfs: GONE_2021_10K\.pdf"):
        load_financebench(other, eval_data_dir=data)

"""Feedback in Chat and the workspace's ground truth on the Eval page, under ``streamlit.testing.v1.AppTest`` (a
copy of the sample home; real retrieval and extractive answers): 👍 and a passage marked relevant are logged,
"Add to ground truth" writes a pair (asked again, the same pair), and the Eval page lists it for editing."""

from __future__ import annotations

from prism.config import Settings
from prism.service import PrismService
from prism.ui.explain import literal
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import texts as _texts

QUESTION = "What is the P2P collect request limit?"


def _stem(at) -> str:
    return next(w.key for w in at.get("feedback")).rsplit(".", 1)[0]


def test_mark_relevant_and_add_to_ground_truth_then_see_it_on_the_eval_page(with_sample, service_factory, embedder,
                                                                              monkeypatch, tmp_path):
    monkeypatch.setenv("PRISM_EVAL_DIR", str(tmp_path / "eval"))
    at = _app().run()
    at.chat_input[0].set_value(QUESTION).run()
    _no_exception(at)
    stem = _stem(at)
    at.get("feedback")[0].set_value(1).run()
    assert not [w for w in at.get("button_group") if w.key.startswith(f"{stem}.m.")]  # built only when opened
    at.session_state[f"{stem}.open"] = True  # the analyst opens "Mark passages · add to ground truth"
    at.run()
    marks = [w for w in at.get("button_group") if w.key.startswith(f"{stem}.m.")]
    assert marks, "no relevant / not relevant control per passage"
    marks[0].set_value("relevant").run()
    _no_exception(at)
    at.text_area(key=f"{stem}.ref").set_value("₹2,000 per request.")
    [add] = [b for b in at.button if b.key == f"{stem}.add"]
    add.click().run()
    _no_exception(at)
    assert literal("Ground truth added as w001 (1 relevant passage(s)).") in _texts(at)

    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    log = svc.feedback("Sample workspace").all()
    assert [(x["kind"], x["value"]) for x in log] == [("answer", "up"), ("citation", "relevant")]
    assert log[0]["question"] == QUESTION and log[0]["chunk_ids"] and log[1]["target"]["chunk_id"]
    [pair] = svc.ground_truth("Sample workspace").pairs()
    assert pair["query"] == QUESTION and pair["reference_answer"] == "₹2,000 per request."
    assert pair["relevant"][0]["source"] == "meridian_bank_upi_operating_circular.pdf"

    [add] = [b for b in at.button if b.key == f"{stem}.add"]
    add.click().run()  # the same question again: the same pair
    assert literal("Ground truth updated: w001") in _texts(at)
    assert len(svc.ground_truth("Sample workspace").pairs()) == 1

    at.switch_page("pages/eval_page.py").run()
    _no_exception(at)
    table = next(d.value for d in at.dataframe if "relevant passages" in d.value.columns)
    assert list(table["id"]) == ["w001"] and list(table["question"]) == [QUESTION]
    assert any(o.startswith("Ground truth of workspace 'Sample workspace' (1 pairs)")
               for o in at.selectbox(key="prism.eval.dataset").options)
    at.text_area(key="prism.gt.ref.w001").set_value("Rs 2,000.")
    [save] = [b for b in at.button if b.label == "Save pair"]
    save.click().run()
    _no_exception(at)
    assert svc.ground_truth("Sample workspace").pairs()[0]["reference_answer"] == "Rs 2,000."
    [delete] = [b for b in at.button if b.label == "Delete pair"]
    delete.click().run()
    _no_exception(at)
    assert svc.ground_truth("Sample workspace").pairs() == []
    assert "has no ground truth yet" in _texts(at)

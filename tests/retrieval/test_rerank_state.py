"""The reranker's state without loading it (the app's first page shows it before any model is loaded) and the
service's warm-up, which loads the models the first question needs."""

from __future__ import annotations

from prism.config import Settings
from prism.retrieval.rerank import Reranker, unavailable_reason
from tests.conftest import offline_service
from tests.retrieval.test_retriever import tiny_cross_encoder_path  # noqa: F401 (a fixture)


def test_unavailable_reason_decides_from_the_files_alone(tmp_path):
    assert unavailable_reason(Settings(reranker_model=str(tmp_path))) is None  # a folder: loaded (or not) later
    missing = unavailable_reason(Settings(reranker_model="no-such-org/no-such-cross-encoder"))
    assert missing is not None and "'no-such-org/no-such-cross-encoder' is not available" in missing
    not_a_path = unavailable_reason(Settings(reranker_model=str(tmp_path / "absent" / "model")))
    assert not_a_path is not None and "absent" in not_a_path
    off = unavailable_reason(Settings(reranker_model=str(tmp_path), reranker_enabled=False))
    assert off is not None and off.startswith("switched off")
    # files that are there but no model: the state is decided when loading
    empty = Reranker.from_settings(Settings(reranker_model=str(tmp_path)))
    assert not empty.enabled and str(tmp_path) in empty.state.reason


def test_service_reports_the_reranker_before_loading_it_and_warm_up_loads_it(tmp_path, embedder,
                                                                              tiny_cross_encoder_path):  # noqa: F811
    service = offline_service(tmp_path / "home", embedder, reranker_model=str(tiny_cross_encoder_path))
    state = service.reranker_state()
    assert state.to_dict() == {"enabled": True, "model": str(tiny_cross_encoder_path), "reason": None}
    assert service._reranker is None  # nothing was loaded to say so
    service.warm_up()
    assert service._reranker is not None and service._reranker.enabled
    assert service.reranker_state() == state

    absent = offline_service(tmp_path / "home2", embedder, reranker_model="no-such-org/no-such-cross-encoder")
    assert absent.reranker_state().enabled is False
    assert "no-such-org/no-such-cross-encoder" in absent.reranker_state().reason

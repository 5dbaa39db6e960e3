"""A workspace indexed by another embedder backend: the Workspaces page says why it cannot be searched
and its Reindex button re-embeds it through the service; the sidebar shows the embedder's backend. Real embedder,
Chroma and sample PDFs; the collection is marked as built by the int8 backend, as a workspace made with
``PRISM_EMBED_BACKEND=onnx-int8`` records itself."""

from __future__ import annotations

from prism.config import Settings
from prism.service import PrismService
from tests.ui.apptest_helpers import MASTER, UPI
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import texts as _texts


def _mark_built_by(home, embedder, backend: str) -> None:
    svc = PrismService(Settings(home=home), embedder=embedder)
    col = svc.open("Sample workspace").store._col
    col.modify(metadata={**(col.metadata or {}), "embed_backend": backend})


def test_the_workspaces_page_offers_reindex_and_it_makes_the_workspace_searchable(with_sample, service_factory,
                                                                                 embedder):
    _mark_built_by(with_sample, embedder, "onnx-int8")
    at = _app().run().switch_page("pages/workspaces_page.py").run()
    _no_exception(at)
    [warning] = [str(w.value).replace("\\", "") for w in at.warning if "embedder backend" in str(w.value)]
    assert "indexed by the onnx-int8 embedder backend but the embedder now runs on onnx-fp32" in warning
    assert "Reindex button" in warning
    at = _click(at, "Reindex this workspace")
    _no_exception(at)
    assert "Re-indexed **Sample workspace**: 2 documents." in _texts(at)
    assert not [w for w in at.warning if "embedder backend" in str(w.value)]
    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    assert svc.index_mismatch("Sample workspace") is None
    assert [d.source for d in svc.documents("Sample workspace")] == [UPI.name, MASTER.name]
    hits = svc.search("per-transaction limit for UPI", "Sample workspace", mode="dense").results
    assert hits and hits[0].scores()["dense"] > 0.3


def test_the_sidebar_names_the_embedder_backend(with_sample, service_factory):
    at = _app().run()
    _no_exception(at)
    captions = [c.value for c in at.sidebar.caption]
    assert any(c.startswith(":green[●] Embedder · `onnx-fp32`") for c in captions), captions


def test_a_damaged_index_is_named_on_the_chat_and_rebuilt_from_the_chunks_on_the_workspaces_page(
        with_sample, service_factory, embedder):
    """A rebuild that stopped part-way (its marker left in the workspace's folder, as a killed ``reindex`` leaves it)
    is a damaged index: the chat says so instead of answering from it, the Workspaces page rebuilds it."""
    from prism.index.index_health import REBUILD_MARKER

    folder = PrismService(Settings(home=with_sample), embedder=embedder).workspace_dir("Sample workspace")
    (folder / REBUILD_MARKER).write_text('{"started": "2026-12-04T10:00:00+00:00"}', encoding="utf-8")
    at = _app().run()
    at.chat_input[0].set_value("What is the per-transaction limit for UPI?").run()
    _no_exception(at)
    errors = [str(e.value).replace("\\", "") for e in at.error]
    assert any("The vector index of workspace 'Sample workspace' is damaged: a rebuild of its vectors is running or "
               "stopped before it finished." in e and "reindex --from-chunks" in e for e in errors), errors
    at = _app().run().switch_page("pages/workspaces_page.py").run()
    _no_exception(at)
    assert any("is damaged" in str(w.value) for w in at.warning)
    at = _click(at, "Reindex this workspace")
    _no_exception(at)
    assert "Re-indexed **Sample workspace**: 2 documents." in _texts(at)
    assert not (folder / REBUILD_MARKER).exists()
    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    assert svc.index_damage("Sample workspace") is None
    assert svc.search("per-transaction limit for UPI", "Sample workspace", mode="dense").results

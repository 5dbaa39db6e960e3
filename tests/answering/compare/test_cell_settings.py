"""The cell cache key holds every setting a cell's answer depends on: a test reads the source of retrieval and
answering for the :class:`~prism.config.Settings` fields they use, and a real setting change (more or fewer quoted
sentences) asks the cell again while a change that cannot alter it (a lock timeout) reads it from the cache. Real
ingest, Chroma in a temp dir, the real embedder."""

from __future__ import annotations

import ast

import pytest

from prism.answering.compare.facade import CELL_INDEPENDENT_SETTINGS, SETTINGS_FIELDS
from prism.config import Settings
from prism.types import IngestItem
from tests.conftest import REPO, offline_service

READ_BY = ("prism/answering", "prism/retrieval", "prism/index")
"""The packages whose settings reads decide an answer."""


def _settings_read() -> dict[str, set[str]]:
    """Every Settings field read as ``<…settings>.<field>`` or ``getattr(<…settings>, "<field>")`` in
    :data:`READ_BY`: ``{field: {file, …}}``."""
    fields = set(Settings.model_fields)
    read: dict[str, set[str]] = {}
    for part in READ_BY:
        for path in sorted((REPO / part).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in fields \
                        and ast.unparse(node.value).split(".")[-1].endswith("settings"):
                    read.setdefault(node.attr, set()).add(str(path.relative_to(REPO)))
                elif isinstance(node, ast.Call) and ast.unparse(node.func) == "getattr" and len(node.args) >= 2 \
                        and isinstance(node.args[1], ast.Constant) and node.args[1].value in fields \
                        and ast.unparse(node.args[0]).split(".")[-1].endswith("settings"):
                    read.setdefault(str(node.args[1].value), set()).add(str(path.relative_to(REPO)))
    return read


def test_every_setting_retrieval_or_answering_reads_is_in_the_cell_key_or_said_not_to_matter():
    read = _settings_read()
    assert {"top_k", "extractive_max_sentences", "gate_min_salient_idf", "statement_weight"} <= set(read)  # sees
    unaccounted = {f: sorted(files) for f, files in read.items()
                   if f not in SETTINGS_FIELDS and f not in CELL_INDEPENDENT_SETTINGS}
    assert unaccounted == {}, ("add these to SETTINGS_FIELDS (or, with the reason, to CELL_INDEPENDENT_SETTINGS) in "
                               f"prism/answering/compare/facade.py: {unaccounted}")
    assert not set(SETTINGS_FIELDS) & set(CELL_INDEPENDENT_SETTINGS)
    assert set(SETTINGS_FIELDS) | set(CELL_INDEPENDENT_SETTINGS) <= set(Settings.model_fields)


NOTE = ("Card tokens are issued by the network for each device. Token requests are checked against the card "
        "issuer's rules. Tokens are revoked when the device is reported lost. Token life cycles are logged for "
        "audit. Merchants never see the card number behind a token. Issuers may suspend tokens during fraud "
        "reviews.\n")
QUESTION = "How are card tokens issued, checked and revoked?"


@pytest.fixture(scope="module")
def home(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("cell_settings")
    (root / "tokens.txt").write_text(NOTE, encoding="utf-8")
    service = offline_service(root / "home", embedder, briefing_on_ingest=False)
    assert [r.status for r in service.ingest([IngestItem(root / "tokens.txt")], "keys")] == ["ingested"]
    return root / "home"


def _cell(home, embedder, **settings):
    service = offline_service(home, embedder, briefing_on_ingest=False, **settings)
    [cell] = service.compare(["tokens.txt"], [QUESTION], "keys")
    return cell


def test_a_setting_change_asks_the_cells_it_affects_again(home, embedder):
    first = _cell(home, embedder, extractive_max_sentences=4)
    assert (first.status, first.cached) == ("found", False)
    assert _cell(home, embedder, extractive_max_sentences=4).cached  # the same settings: from the cache
    assert _cell(home, embedder, extractive_max_sentences=4, lock_timeout_s=7.0).cached  # cannot alter a cell
    fewer = _cell(home, embedder, extractive_max_sentences=1)  # a real change: asked again, and it shows
    assert not fewer.cached
    assert first.answer.count("[") == 4 > fewer.answer.count("[") == 1, (first.answer, fewer.answer)

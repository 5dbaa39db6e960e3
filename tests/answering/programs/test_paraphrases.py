"""Paraphrase families: every wording of a figure question gets its canonical question's program (operation and
operands: each figure's row and period) and the same figures on the answer's first line.

The families are ``data/ground_truth/paraphrases/northwind.json`` (one per operation of the registry, at least eight
wordings each: terse, imperative, abbreviated, reordered, symbols, synonyms, no question mark), asked of the fixture
10-K beside it (``northwind_10k.html``: a statement of operations for 2022–2024, a revenue-by-segment table, a
sentence with two figures and their years) through the real pipeline: ingest, Chroma, the packaged embedder, the
reader and the program ranker, offline. ``bench/paraphrase.py`` reports the same agreement over these families and
the sample workspace's.

Wordings the reader does not yet read as their canonical question are listed in :data:`NOT_YET` with what they get
instead; they are strict expected failures, so one that starts agreeing fails until it is taken off the list.
"""

from __future__ import annotations

import shutil

import pytest

from prism.answering.programs.registry import OPERATIONS
from prism.evaluation.paraphrases import FAMILIES_DIR, KINDS, Outcome, load_families, recording_programs, run_question
from prism.types import IngestItem
from tests.conftest import offline_service

FAMILIES = [f for f in load_families() if f.workspace == "fixture"]
BY_ID = {f.id: f for f in FAMILIES}

NOT_YET: dict[str, str] = {
    "northwind-margin / What was operating income as a percentage of revenue in 2024?":
        "gets share(Operating income FY2024, Revenue FY2024): the same 19.2 %, but the canonical is the metric",
}
"""``"family / wording"`` → what it gets instead, for the wordings that do not yet agree with their canonical
(measured with ``bench/paraphrase.py``)."""

CANONICAL_NOT_YET: dict[str, str] = {
    "northwind-list":
        "gets lookup(Total revenue FY2024)",
    "northwind-margin":
        "gets metric(operating margin)",
}
"""Families whose canonical question does not yet get the operation it asks for → what it gets."""


@pytest.fixture(scope="module")
def ask(tmp_path_factory, embedder):
    """Asks a question of the fixture workspace and returns its :class:`Outcome` (each question answered once)."""
    home = tmp_path_factory.mktemp("paraphrase_home")
    document = home / "northwind_10k.html"
    shutil.copy(FAMILIES_DIR / document.name, document)
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(document)], "northwind")
    assert result.status == "ingested"
    answered: dict[str, Outcome] = {}
    with recording_programs() as seen:
        def outcome(question: str) -> Outcome:
            if question not in answered:
                answered[question] = run_question(
                    lambda q: svc.ask(q, "northwind", hyde=False, multi_query=False, web=False), question, seen)
            return answered[question]

        yield outcome


def test_every_operation_has_a_family_of_at_least_eight_wordings_of_every_kind():
    assert {f.operation for f in FAMILIES} == set(OPERATIONS)
    for family in FAMILIES:
        assert len(family.wordings) >= 8, family.id
        assert len({w.text for w in family.wordings} | {family.canonical}) == len(family.wordings) + 1, family.id
    kinds = {w.kind for f in FAMILIES for w in f.wordings}
    assert kinds == set(KINDS) - {"canonical"}


@pytest.mark.parametrize("family", [
    pytest.param(f, id=f.id, marks=[pytest.mark.xfail(strict=True, reason=CANONICAL_NOT_YET[f.id])]
                 if f.id in CANONICAL_NOT_YET else []) for f in FAMILIES])
def test_the_canonical_question_gets_the_operation_it_asks_for(ask, family):
    canonical = ask(family.canonical)
    assert canonical.operation == family.operation, (canonical.programs, canonical.first_line)
    assert canonical.figures, canonical.first_line


def _cases():
    for family in FAMILIES:
        for n, wording in enumerate(family.wordings):
            key = f"{family.id} / {wording.text}"
            marks = [pytest.mark.xfail(strict=True, reason=NOT_YET[key])] if key in NOT_YET else []
            yield pytest.param(family.id, wording.text, id=f"{family.id}-{wording.kind}-{n}", marks=marks)


@pytest.mark.parametrize(("family_id", "wording"), list(_cases()))
def test_the_wording_gets_the_canonical_program_and_figure(ask, family_id, wording):
    family = BY_ID[family_id]
    canonical, paraphrase = ask(family.canonical), ask(wording)
    assert paraphrase.programs == canonical.programs, (paraphrase.first_line, canonical.first_line)
    assert paraphrase.figures == canonical.figures, (paraphrase.first_line, canonical.first_line)

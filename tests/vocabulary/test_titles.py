"""Officer titles: an abbreviation in a question is looked for spelled out in the passages."""

from __future__ import annotations

from prism.vocabulary.titles import OFFICER_TITLES, spelled_out


def test_abbreviations_spell_out_in_every_written_form():
    assert spelled_out("CEO") == spelled_out("CEOs") == spelled_out("CEO's") == "chief executive officer"
    assert spelled_out("CFO") == "chief financial officer"
    assert spelled_out("NBFC") is None and spelled_out("ceo") is None
    assert all(k.isupper() and v == " ".join(v.lower().split()) for k, v in OFFICER_TITLES.items())

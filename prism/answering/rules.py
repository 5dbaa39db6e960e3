"""Yes or No from a rule's sentence: a yes/no question about what a circular allows, requires or forbids is answered
by the sentence that states the rule, led by the verdict that sentence gives.

The question's side is read once by the reader (:func:`prism.answering.reading.kinds.modality`: the question asks
about a ``permission``, an ``obligation`` or a ``prohibition``). The sentence's side is its deontic force, read from
the modal verbs and adjectives regulatory English uses (the drafting conventions of RFC 2119 §1-5, which
regulators' "shall / shall not / may" follow):

* ``forbids`` — "shall not", "must not", "may not", "cannot", "is not permitted / allowed", "prohibited", "no … shall",
  "not be levied / charged", "free of charge", "without any charge";
* ``not_required`` — "need not", "not required", "not mandatory", "optional", "exempt";
* ``requires`` — "shall", "must", "is required", "mandatory", "is to be";
* ``allows`` — "may", "is permitted / allowed", "eligible", "can".

The verdict: a permission question is answered Yes by ``allows`` or ``requires`` and No by ``forbids``; an
obligation question Yes by ``requires``, No by ``not_required`` or ``allows`` alone; a prohibition question Yes by
``forbids``, No by ``allows``; any other yes/no question (a ``fact``: "Does the cap apply to P2M?") Yes by
``requires`` (the rule says it shall) and No by ``forbids``. A sentence with none of these decides nothing: no
verdict is guessed.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["Force", "force", "verdict"]

Force = Literal["forbids", "not_required", "requires", "allows"]

_FORCES: tuple[tuple[Force, re.Pattern[str]], ...] = (
    ("not_required", re.compile(r"\bneed\s+not\b|\b(?:is|are|shall\s+be|will\s+be)\s+not\s+(?:required|mandatory|"
                                r"compulsory|obligatory)\b|\bnot\s+be\s+required\b|\boptional\b|\bexempt(?:ed)?\b",
                                re.I)),
    ("forbids", re.compile(r"\b(?:shall|must|may|will|should)\s+not\b|\bcannot\b|\bcan\s*not\b|\bnot\s+(?:be\s+)?"
                           r"(?:permitted|allowed|levied|charged|imposed|collected)\b|\bprohibit(?:ed|s)?\b|"
                           r"\bbarred\b|\bforbidden\b|\bno\s+(?:\w+\s+){0,4}(?:shall|may|will|is\s+permitted)\b|"
                           r"\bfree\s+of\s+(?:any\s+)?(?:charge|cost)\b|\bwithout\s+(?:any\s+)?(?:charge|fee|cost)\b|"
                           r"\bnot\s+to\s+(?:be\s+)?(?:levy|charge|levied|charged)\b", re.I)),
    ("requires", re.compile(r"\bshall\b|\bmust\b|\b(?:is|are)\s+required\b|\brequired\s+to\b|\bmandatory\b|"
                            r"\bcompulsory\b|\bobliged\b|\b(?:is|are)\s+to\s+be\b|\bwill\s+have\s+to\b", re.I)),
    ("allows", re.compile(r"\bmay\b|\b(?:is|are|be)\s+(?:permitted|allowed|eligible|entitled)\b|\bcan\b|"
                          r"\bpermissible\b", re.I)),
)


def force(sentence: str) -> Force | None:
    """The deontic force of a rule's ``sentence`` (module docstring), the first of ``not_required``, ``forbids``,
    ``requires``, ``allows`` it states; ``None`` when it states none."""
    for name, pattern in _FORCES:
        if pattern.search(sentence):
            return name
    return None


_VERDICTS: dict[str, dict[Force, str]] = {
    "permission": {"allows": "Yes", "requires": "Yes", "forbids": "No"},
    "obligation": {"requires": "Yes", "not_required": "No", "allows": "No"},
    "prohibition": {"forbids": "Yes", "allows": "No", "requires": "No", "not_required": "No"},
    "fact": {"forbids": "No", "requires": "Yes"},
}


def verdict(asks: str | None, sentence: str) -> str | None:
    """``"Yes"``, ``"No"`` or ``None``: the answer ``sentence`` gives to a yes/no question asking about a
    ``permission``, an ``obligation``, a ``prohibition`` or a ``fact`` (``asks``; ``None`` gives ``None``)."""
    if asks is None:
        return None
    found = force(sentence)
    return _VERDICTS.get(asks, {}).get(found) if found is not None else None


def lead_with_verdict(flags: frozenset[str], lines: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """``lines`` (an extractive answer's ``(sentence, block)``, the best first) with the first sentence that gives a
    verdict (:func:`verdict`; only the first two are tried, so a weaker sentence never decides) moved to the lead and
    opened by it: ``"No — <the rule's sentence>"``. ``flags`` are the reading's (:attr:`Reading.flags`); a question
    that asks no permission, obligation or prohibition, or sentences that decide nothing, leave ``lines`` as they
    are."""
    asks = next((f for f in ("prohibition", "obligation", "permission", "fact") if f in flags), None)
    for i, (sentence, n) in enumerate(lines[:2]):
        said = verdict(asks, sentence)
        if said is not None:
            return [(f"{said} — {sentence}", n), *lines[:i], *lines[i + 1:]]
    return lines

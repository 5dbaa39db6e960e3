"""The financial statement line items a question names (:data:`prism.index.statements.ITEMS`): the one its focus
is ("total revenue" → ``revenue``) and every one it names anywhere, with the words naming it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.index.statements import ITEMS

__all__ = ["item_of", "line_items"]


def item_of(focus: Sequence[str]) -> str | None:
    """The statement line item a focus names ("total revenue" → ``revenue``; :data:`prism.index.statements.ITEMS`)."""
    phrase = " ".join(w.lower() for w in focus)
    for key, item in ITEMS.items():
        if any(re.fullmatch(rf"(?:total |net )?{words}", phrase) for words in item.words):
            return key
    return None


_ITEM_WORDS = {key: re.compile(r"\b(?:" + "|".join(item.words) + r")\b", re.IGNORECASE) for key, item in ITEMS.items()}


def line_items(text: str) -> tuple[tuple[str, str], ...]:
    """The statement line items ``text`` names anywhere (by :attr:`~prism.vocabulary.statements.LineItem.words`),
    each as ``(key of :data:`prism.index.statements.ITEMS`, the words naming it, lower case)``, in the registry's
    order: "research and development expense in FY2015" → ``(("rd", "research and development expense"),)``;
    ``()`` when it names none."""
    found = ((key, pattern.search(text)) for key, pattern in _ITEM_WORDS.items())
    return tuple((key, match.group(0).lower()) for key, match in found if match)

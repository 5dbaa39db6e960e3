"""What a browser would not show of an HTML page, removed before its text and tables are read.

A saved report or a fetched page hides text for many reasons: a sort key in a ``display:none`` span beside each
figure, a superseded row kept in the table but hidden, a notice hidden by a CSS class, a panel with the ``hidden``
attribute. None of it is what the analyst reads on the page, so none of it is indexed or quoted. An element is
hidden (and removed with everything inside it) when:

* it has the ``hidden`` attribute, or ``aria-hidden="true"`` (hidden from readers; Prism treats it as not shown);
* its ``style`` attribute declares ``display: none`` or ``visibility: hidden`` (or ``collapse``);
* a rule of the page's own ``<style>`` sheets does (tinycss2 parses the sheets, cssselect turns each rule's
  selectors into XPath for lxml): ``.superseded { display: none }``, ``tr.old, .sortkey { visibility: hidden }``.

Scripts, styles and templates are dropped by the text extraction already. External stylesheets are not fetched (no
network for a file), media queries and ``!important`` cascades are not resolved: a rule inside ``@media`` is
ignored, and a later rule that shows an element again does not bring it back. Rules: CSS Display Module Level 3
(``display: none``) and CSS 2.2 §11.2 (``visibility``); HTML Living Standard §6.1 (the ``hidden`` attribute).
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["visible_html"]

_HIDING = {("display", "none"), ("visibility", "hidden"), ("visibility", "collapse")}


def _hides(declarations: list[Any]) -> bool:
    """True when tinycss2 declarations set ``display: none`` or ``visibility: hidden`` / ``collapse``."""
    for d in declarations:
        if getattr(d, "type", None) != "declaration":
            continue
        words = [t.lower_value for t in d.value if getattr(t, "type", None) == "ident"]
        if any((d.lower_name, w) in _HIDING for w in words):
            return True
    return False


def _inline_hidden(style: str) -> bool:
    import tinycss2

    return _hides(tinycss2.parse_blocks_contents(style, skip_comments=True, skip_whitespace=True))


def _hidden_selectors(root: Any) -> list[str]:
    """The selectors of the page's ``<style>`` rules that hide what they select (top-level rules only)."""
    import tinycss2

    selectors: list[str] = []
    for style in root.iter("style"):
        for rule in tinycss2.parse_stylesheet(style.text_content() or "", skip_comments=True, skip_whitespace=True):
            if rule.type != "qualified-rule":
                continue
            declarations = tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True)
            if _hides(declarations):
                selectors.extend(s.strip() for s in tinycss2.serialize(rule.prelude).split(",") if s.strip())
    return selectors


def _by_sheets(root: Any, selectors: list[str]) -> list[Any]:
    from cssselect import GenericTranslator, SelectorError

    translator = GenericTranslator()
    found: list[Any] = []
    for selector in selectors:
        try:
            xpath = translator.css_to_xpath(selector)
        except SelectorError:  # a selector cssselect does not support (":hover", "::before"): nothing is hidden by it
            logger.debug("CSS selector not applied: %r", selector)
            continue
        found.extend(root.xpath(xpath))
    return found


def visible_html(html: str) -> str:
    """``html`` without the elements a browser would not show (see the module docstring).

    Args:
        html: a decoded HTML page.

    Returns:
        The page re-serialised by lxml without its hidden elements (their tails, the text after them, kept), or
        ``html`` itself when nothing is hidden or it cannot be parsed (the text extraction then decides).
    """
    lowered = html.lower()
    if not any(mark in lowered for mark in ("hidden", "display", "visibility")):
        return html
    import lxml.html
    from lxml import etree

    try:
        root = lxml.html.fromstring(html)
    except (etree.ParserError, ValueError):
        return html
    hidden = [el for el in root.iter() if isinstance(el.tag, str) and (
        el.get("hidden") is not None or (el.get("aria-hidden") or "").strip().lower() == "true"
        or (el.get("style") and _inline_hidden(el.get("style"))))]
    hidden += _by_sheets(root, _hidden_selectors(root))
    removed = 0
    for el in hidden:
        parent = el.getparent()
        if parent is None or not isinstance(el.tag, str) or el.tag in ("html", "body"):
            continue
        el.drop_tree()  # keeps the tail text, which follows the element and is shown
        removed += 1
    if not removed:
        return html
    logger.info("HTML: %d hidden elements not indexed", removed)
    return lxml.html.tostring(root, encoding="unicode")

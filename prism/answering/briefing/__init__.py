"""Document briefings: what a document is, its key figures or rules and what it covers, each point citing its pages.

Modules: :mod:`~.compose` (the offline briefing and its Markdown), :mod:`~.facts` (the facts read from a document's
profile and table rows), :mod:`~.circulars` (a circular's facts: whom it applies to, when, a limit, a penalty),
:mod:`~.rules` (a circular's operative rules, with their figures), :mod:`~.sections` (what a document covers),
:mod:`~.topics` (how the suggested questions name the document), :mod:`~.llm` (the LLM's rewrite of the bullets,
with its prompt) and :mod:`~.jobs` (briefings written in the background at ingest). Imports
only :mod:`prism.answering`'s own modules, the ground floor and :mod:`prism.index` / :mod:`prism.retrieval`.
"""

from __future__ import annotations

from prism.answering.briefing.compose import Briefing, brief_document, briefing_markdown, make_briefing
from prism.answering.briefing.jobs import BackgroundBriefings, brief_offline_now

__all__ = ["BackgroundBriefings", "Briefing", "brief_document", "brief_offline_now", "briefing_markdown",
           "make_briefing"]

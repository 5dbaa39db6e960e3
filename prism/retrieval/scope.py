"""Scope a search by what the question names, so an answer never quotes another company or period: entities
restrict it to their documents, periods prefer the documents that report them, an unknown company is declined.

:func:`plan_scope` decides, from the question and the workspace's document profiles, without any model:

* **An explicit document filter always wins**: the search runs in those documents; nothing is added or preferred
  (``auto`` is ``False``).
* **Entities** (read by the question reader: :attr:`prism.types.reading.Reading.facts`): a question naming
  workspace entities is restricted to their documents ("3M vs Pfizer capex" → both), plus every document without
  an entity (it may be about them) and,
  when the question names a document type none of those documents has ("… Meridian's circular match the master
  circular?"), the documents of that type. An ambiguous name matches every entity it names: the scope widens,
  and it is never empty.
* **Periods** prefer, within that scope, the documents that report the most of the named periods
  (:func:`covered_periods`; ties broken by how many are the document's own period): their chunks come first in the
  fused ranking, in fused order, before the others' (a preference, not a filter: nothing is dropped). A document
  whose profile has no fiscal period (a circular, a text without a cover) reports a period when its period code
  token (``q3fy2024``, ``fy2024``) is in its BM25 tokens ("Q3FY24 EBITDA margin …"); a document that can be judged
  neither way (no fiscal period, and only dates named) is never demoted.
* **Another entity's exhibit**: a question naming an entity whose statements a filing carries as an exhibit
  (:attr:`~prism.types.DocumentRecord.exhibit_entities`: CityCenter in MGM's 10-K), and no workspace entity, is
  restricted to the filings that carry it (plus the documents without an entity); that name is not unknown.
* **Unknown entity**: a question that names a company-like name no profile holds, no exhibit is of, and no workspace
  entity is declined (:attr:`ScopePlan.decline`) with the entities the workspace holds; the search itself is not
  restricted. A workspace holding documents without an entity (an earnings release nobody profiled) declines too,
  unless one of them might be about the name: its every word is in that document's text.
* **Removed parts**: entities and periods the analyst removed (Chat's scope chips, ``removed``) are read as if the
  question did not name them.
* ``auto=False`` (``--no-auto-scope``) switches all of it off.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from prism.retrieval.periods import period_label
from prism.types import DocumentProfile, DocumentRecord, PeriodMention, QuestionFacts, SearchScope
from prism.types.reading import Reading

logger = logging.getLogger(__name__)

__all__ = ["MAX_LISTED_ENTITIES", "DocumentCatalog", "ScopePlan", "catalog_of", "covered_periods", "plan_scope"]

MAX_LISTED_ENTITIES = 20
"""Most entities a decline lists (then "and N more")."""

_ANNUAL = ("10-K", "annual_report", "earnings_release")
_QUARTERLY = ("10-Q", "earnings_call", "earnings_release")


@dataclass(frozen=True)
class ScopePlan:
    """What one search may return and prefers.

    Attributes:
        allowed: doc ids the search may return (``None``: every committed document).
        preferred: doc ids whose chunks come first in the fused ranking (empty: no preference).
        scope: the scope as reported (``SearchResult.scope``, ``Answer.scope``).
        decline: the message to decline with (an unknown entity), or ``None``.
        facts: what the question named.
    """

    allowed: frozenset[str] | None
    preferred: frozenset[str] = frozenset()
    scope: SearchScope = field(default_factory=SearchScope)
    decline: str | None = None
    facts: QuestionFacts = field(default_factory=QuestionFacts)


def covered_periods(profile: DocumentProfile | None) -> dict[str, int]:
    """The periods a document reports, in the profile convention: label → 2 for its own period, 1 for a
    comparative one.

    A 10-K or annual report for ``FY<n>`` covers FY<n> and, in its statements, FY<n-1> (balance sheet, income and
    cash-flow statements) and FY<n-2> (income and cash-flow statements). A 10-Q or earnings call for ``Q<q> FY<n>``
    covers that quarter, the same quarter a year earlier, the fiscal year it is part of (FY<n>: year to date,
    outlook), FY<n-1> (the balance sheet's year-end column) and, for Q2, H1 FY<n> (H1 FY<n-1> comparative). Any
    other document covers its own period (a date for a circular or 8-K).
    """
    if profile is None or not profile.period:
        return {}
    period = profile.period
    if profile.type in _ANNUAL and period.startswith("FY") and period[2:].isdigit():
        year = int(period[2:])
        return {period: 2, f"FY{year - 1}": 1, f"FY{year - 2}": 1}
    parts = period.split()
    if profile.type in _QUARTERLY and len(parts) == 2 and parts[0][:1] == "Q" and parts[1][2:].isdigit():
        quarter, year = parts[0], int(parts[1][2:])
        out = {period: 2, f"{quarter} FY{year - 1}": 1, f"FY{year}": 1, f"FY{year - 1}": 1}
        if quarter == "Q2":
            out.update({f"H1 FY{year}": 2, f"H1 FY{year - 1}": 1})
        return out
    return {period: 2}


def _code_token(label: str) -> str | None:
    """The BM25 period token of a label: "Q3 FY2024" → ``q3fy2024``, "FY2024" → ``fy2024``; ``None`` for a date."""
    if label[:1] in ("Q", "H", "F") and "FY" in label:
        return label.replace(" ", "").lower()
    return None


def _period_score(labels: Sequence[str], profile: DocumentProfile | None,
                  has_token: Callable[[str], bool] | None) -> tuple[int, int] | None:
    """``(named periods the document reports, how many of them are its own period)``, or ``None`` when nothing can
    be said: its profile has no fiscal period and no label has a period code to look up (dates, for a circular)."""
    covered = covered_periods(profile)
    fiscal = any(key.startswith(("FY", "Q", "H")) for key in covered)
    count = own = 0
    judged = fiscal
    for label in labels:
        token = _code_token(label)
        if label in covered:
            count, own = count + 1, own + (covered[label] == 2)
        elif token and has_token is not None and not fiscal:
            judged = True
            count += has_token(token)
    return (count, own) if judged else None


def _preferred(facts: QuestionFacts, candidates: Sequence[str], profiles: Mapping[str, DocumentProfile | None],
               docs_with_token: Callable[[str], set[str]] | None) -> frozenset[str]:
    """The candidate documents that report the most named periods (ties: the most own periods), plus those that
    cannot be judged (never demoted); empty when no judged document reports any, or when all would be preferred. A
    range's inner periods are implied, not named ("from Q2 FY24 to Q2 FY25" names its two ends): a document is not
    preferred for the quarters between them."""
    named = [m for m in facts.periods if "…" not in m.text] or list(facts.periods)
    if not named or len(candidates) < 2:
        return frozenset()
    token_docs: dict[str, set[str]] = {}

    def has_token_of(doc_id: str) -> Callable[[str], bool] | None:
        if docs_with_token is None:
            return None

        def has(token: str) -> bool:
            if token not in token_docs:
                token_docs[token] = docs_with_token(token)
            return doc_id in token_docs[token]
        return has

    scores: dict[str, tuple[int, int] | None] = {}
    for doc_id in candidates:
        profile = profiles.get(doc_id)
        labels = list(dict.fromkeys(period_label(m, profile.fiscal_year_end if profile else None) for m in named))
        scores[doc_id] = _period_score(labels, profile, has_token_of(doc_id))
    judged = [s for s in scores.values() if s is not None]
    best = max(judged, default=(0, 0))
    if best == (0, 0):
        return frozenset()
    preferred = frozenset(d for d, s in scores.items() if s is None or s == best)
    return preferred if len(preferred) < len(candidates) else frozenset()


def _labels(periods: Sequence[PeriodMention], fye: str | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(period_label(m, fye) for m in periods))


def _decline(unknown: Sequence[str], profiles: Mapping[str, DocumentProfile | None], workspace: str) -> str:
    held = sorted({p.entity for p in profiles.values() if p and p.entity})
    listed = ", ".join(held[:MAX_LISTED_ENTITIES]) + (f" and {len(held) - MAX_LISTED_ENTITIES} more"
                                                      if len(held) > MAX_LISTED_ENTITIES else "")
    names = " or ".join(unknown)
    listed = listed.rstrip(".")  # "Netflix, Inc." ends the sentence with its own full stop
    return (f"No document in workspace '{workspace}' is about {names}, so Prism does not answer with another "
            f"company's figures. The workspace holds: {listed}. Add {names}'s documents, or ask about one of these.")


def _without(facts: QuestionFacts, removed: Sequence[str], profiles: Mapping[str, DocumentProfile | None]
             ) -> QuestionFacts:
    """``facts`` without the entities and periods in ``removed`` (entity names as the profiles write them; period
    labels in any of the workspace's fiscal-year conventions, as :class:`SearchScope` shows them)."""
    gone = set(removed)
    fyes = {p.fiscal_year_end for p in profiles.values() if p is not None} | {None}
    return replace(facts, entities=tuple(m for m in facts.entities if m.entity not in gone),
                   periods=tuple(m for m in facts.periods if not {period_label(m, f) for f in fyes} & gone))


@dataclass(frozen=True)
class DocumentCatalog:
    """What scoping reads from one committed set of documents, derived once per set instead of once per search (a
    workspace of 90,866 documents spent ~50 ms of every search rebuilding these maps: ``bench/scale.py``).

    Attributes:
        profiles: document id → its effective profile (``None``: not profiled).
        known: the profiled ones only (what :func:`prism.answering.reading.entities.understand` matches against).
        types: document id → its profile's document type.
        unscoped: ids of the documents an entity scope never excludes (no profile, or a profile without an entity).
        ids: every document id, in ingestion order.
        id_set: the same as a set.
        sources: every display file name.
        by_prefix: the 16-character id prefix (as in chunk ids) → document id.
        first_profile: the first profiled document's profile, in ingestion order (``None``: none).
        exhibits: another entity's name as its exhibit gives it → the documents carrying that exhibit.
    """

    profiles: dict[str, DocumentProfile | None]
    known: dict[str, DocumentProfile]
    types: dict[str, str | None]
    unscoped: frozenset[str]
    ids: tuple[str, ...]
    id_set: frozenset[str]
    sources: frozenset[str]
    by_prefix: dict[str, str]
    first_profile: DocumentProfile | None
    exhibits: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, docs: Sequence[DocumentRecord]) -> DocumentCatalog:
        """The catalog of ``docs`` (one pass over them)."""
        profiles = {d.doc_id: d.effective_profile() for d in docs}
        known = {k: p for k, p in profiles.items() if p is not None}
        ids = tuple(profiles)
        exhibits: dict[str, set[str]] = {}
        for d in docs:
            for name in d.exhibit_entities:
                exhibits.setdefault(name, set()).add(d.doc_id)
        return cls(profiles, known, {k: p.type for k, p in known.items()},
                   frozenset(k for k, p in profiles.items() if p is None or not p.entity), ids, frozenset(ids),
                   frozenset(d.source for d in docs), {k[:16]: k for k in ids}, next(iter(known.values()), None),
                   {name: frozenset(ids) for name, ids in exhibits.items()})


_CATALOGS: OrderedDict[str, tuple[tuple[DocumentRecord, ...], DocumentCatalog]] = OrderedDict()
_CATALOGS_MAX = 64
_catalogs_lock = threading.Lock()


def catalog_of(docs: Sequence[DocumentRecord], workspace: str = "") -> DocumentCatalog:
    """The :class:`DocumentCatalog` of ``docs``.

    A tuple (a workspace's snapshot of one committed state, :meth:`prism.index.workspaces.Workspace.snapshot`) is
    cached as the latest catalog of ``workspace`` while it is the same object: one entry per workspace name (the
    least recently used of over 64 names is dropped), so no stale snapshot outlives the next commit. A list is
    catalogued afresh (it may change)."""
    if not isinstance(docs, tuple):
        return DocumentCatalog.build(docs)
    with _catalogs_lock:
        hit = _CATALOGS.get(workspace)
        if hit is not None and hit[0] is docs:
            _CATALOGS.move_to_end(workspace)
            return hit[1]
    catalog = DocumentCatalog.build(docs)
    with _catalogs_lock:
        _CATALOGS[workspace] = (docs, catalog)
        _CATALOGS.move_to_end(workspace)
        while len(_CATALOGS) > _CATALOGS_MAX:
            _CATALOGS.popitem(last=False)
    return catalog


def _entity_scope(facts: QuestionFacts, catalog: DocumentCatalog) -> set[str] | None:
    """The documents the named entities (or the exhibits of other entities) allow, ``None``: no restriction
    (rules in the module docstring)."""
    allowed: set[str] | None = None
    if facts.entities:
        allowed = {d for m in facts.entities for d in m.doc_ids} | catalog.unscoped
    elif facts.exhibits:
        allowed = {d for name in facts.exhibits for d in catalog.exhibits.get(name, ())} | catalog.unscoped
    if allowed is not None and facts.doc_types and not any(catalog.types.get(d) in facts.doc_types for d in allowed):
        allowed |= {k for k, kind in catalog.types.items() if kind in facts.doc_types}
    return allowed


def _unknown(facts: QuestionFacts, catalog: DocumentCatalog, docs_with_token: Callable[[str], set[str]] | None,
             words_of: Callable[[str], list[str]]) -> tuple[str, ...]:
    """The unknown names that no document without an entity might be about: with such documents, a name whose
    every index token (``words_of``) is in one of them is not unknown; without a token lookup, none is."""
    if not facts.unknown_entities or not catalog.unscoped:
        return facts.unknown_entities
    if docs_with_token is None:
        return ()
    out = []
    for name in facts.unknown_entities:
        tokens = words_of(name)
        holders = set(catalog.unscoped)
        for token in tokens:
            holders &= docs_with_token(token)
        if not tokens or not holders:
            out.append(name)
    return tuple(out)


def plan_scope(reading: Reading, docs: Sequence[DocumentRecord], *, workspace: str,
               sources: Sequence[str] | None = None, auto: bool = True,
               docs_with_token: Callable[[str], set[str]] | None = None, removed: Sequence[str] = (),
               words_of: Callable[[str], list[str]] | None = None) -> ScopePlan:
    """Decide the scope of one search (rules in the module docstring).

    Args:
        reading: the question as read (its :attr:`~prism.types.reading.Reading.facts`, against ``docs``).
        docs: the workspace's committed documents.
        workspace: its name (for the decline message).
        sources: the analyst's document filter (file names, all in ``docs``), or ``None``.
        auto: scope by what the question names (``False``: ``--no-auto-scope``).
        docs_with_token: BM25 token → ids of the documents whose chunks contain it (the period-code fallback), or
            ``None`` to use profiles only.
        removed: entity names and period labels the analyst removed from the scope (they are not used; the scope
            reports them as ``removed``).
        words_of: a name → its BM25 index tokens (to look an unknown name up in the documents without an entity).

    Returns:
        :class:`ScopePlan`; ``allowed`` is never empty when ``docs`` is not.
    """
    if sources:
        chosen = [d for d in docs if d.source in set(sources)]
        return ScopePlan(frozenset(d.doc_id for d in chosen),
                         scope=SearchScope(documents=tuple(d.source for d in chosen)))
    if not auto:
        return ScopePlan(None, scope=SearchScope(removed=tuple(dict.fromkeys(removed))))
    catalog = catalog_of(docs, workspace)
    profiles = catalog.profiles
    facts = reading.facts
    if removed:
        facts = _without(facts, removed, profiles)
    allowed = _entity_scope(facts, catalog)
    facts = replace(facts, unknown_entities=_unknown(facts, catalog, docs_with_token, words_of or (lambda n: [])))
    candidates = catalog.ids if allowed is None else [d for d in catalog.ids if d in allowed]
    preferred = _preferred(facts, candidates, profiles, docs_with_token)
    first = next((profiles[d] for d in sorted(preferred) if profiles.get(d)), None)
    if first is None:
        first = catalog.first_profile if allowed is None else next(
            (profiles[d] for d in candidates if profiles.get(d)), None)
    scope = SearchScope(
        entities=tuple(m.entity for m in facts.entities),
        periods=_labels(facts.periods, first.fiscal_year_end if first else None),
        documents=() if allowed is None else tuple(d.source for d in docs if d.doc_id in allowed),
        auto=allowed is not None or bool(preferred),
        removed=tuple(dict.fromkeys(removed)),
    )
    decline = None
    if facts.unknown_entities and not facts.entities:
        decline = _decline(facts.unknown_entities, profiles, workspace)
    logger.debug("scope: %d entities, %d periods, %s documents, %d preferred", len(facts.entities),
                 len(facts.periods), "all" if allowed is None else len(allowed), len(preferred))
    return ScopePlan(frozenset(allowed) if allowed is not None else None, preferred, scope, decline, facts)


def split_foreign_exhibits(candidates: list[tuple[str, float]], exhibit_entity: Callable[[str], str | None],
                           named: Sequence[str] = ()) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """``candidates`` split into the filer's chunks and those of another entity's exhibit, each in its order (nothing
    dropped): MGM Resorts' 10-K carries CityCenter Holdings, LLC's audited statements as Exhibit 99.3, and a question
    about MGM must not be answered from them, nor should they take a place among its pages. A question that names
    that entity (``named``, as the reader found it: :attr:`prism.types.QuestionFacts.exhibits`) keeps its chunks
    with the others.

    Args:
        candidates: ``(chunk_id, score)`` best first.
        exhibit_entity: a chunk's ``exhibit_entity`` metadata (:func:`prism.index.sections.assign_sections`), or
            ``None`` for a chunk of the filer's own text.
        named: the exhibit entities the question names.

    Returns:
        ``(ours, theirs)``.
    """
    names = {cid: exhibit_entity(cid) for cid, _ in candidates}
    asked = set(named)
    flags = [bool(names[cid]) and names[cid] not in asked for cid, _ in candidates]
    return ([c for c, f in zip(candidates, flags, strict=True) if not f],
            [c for c, f in zip(candidates, flags, strict=True) if f])

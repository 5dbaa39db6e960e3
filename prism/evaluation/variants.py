"""Evaluation variants: a retrieval mode plus the optional stages (rerank, HyDE, multi-query), the product's default
variant, and the ablation group."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from prism.evaluation.protocol import EvalService
from prism.retrieval.fusion import MODES

NO_LLM_REASON = "no LLM is configured (set GROQ_API_KEY)"


@dataclass(frozen=True)
class Variant:
    """One retrieval configuration: ``mode`` (a name in :data:`prism.retrieval.fusion.MODES`) plus the optional
    stages, and whether retrieval scopes by what each question names (``auto_scope``,
    :mod:`prism.retrieval.scope`)."""

    name: str
    mode: str
    rerank: bool = False
    hyde: bool = False
    multi_query: bool = False
    auto_scope: bool = True

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "mode", "rerank", "hyde", "multi_query", "auto_scope"}``."""
        return asdict(self)


def variant_name(mode: str, rerank: bool, hyde: bool, multi_query: bool, auto_scope: bool = True) -> str:
    """``hybrid``, ``hybrid+rerank``, ``dense+hyde+multi_query``, ``hybrid+no_auto_scope`` …"""
    return mode + "".join(f"+{n}" for n, on in (("rerank", rerank), ("hyde", hyde), ("multi_query", multi_query),
                                                ("no_auto_scope", not auto_scope)) if on)


def product_variant(service: EvalService, mode: str | None = None, auto_scope: bool = True) -> Variant:
    """What the product does by default: the mode (default ``settings.retrieval_mode``), reranking when the
    cross-encoder is available, HyDE / multi-query when an LLM is configured and the settings enable them, auto-scope
    unless switched off."""
    s = service.settings
    mode = mode or s.retrieval_mode
    rerank = bool(service.reranker_state().enabled)
    llm = bool(service.llms.available)
    hyde, multi = llm and s.hyde_enabled, llm and s.multi_query_enabled
    return Variant(variant_name(mode, rerank, hyde, multi, auto_scope), mode, rerank, hyde, multi, auto_scope)


def ablation_variants(service: EvalService) -> tuple[list[Variant], list[dict[str, str]]]:
    """The ablation group and the variants skipped, each ``{"variant", "reason"}``: every single-side mode, then
    every fused mode, then the first fused mode (hybrid) with the reranker, HyDE and multi-query in turn."""
    single = [m.name for m in MODES.values() if not m.fused]
    fused = [m.name for m in MODES.values() if m.fused]
    variants = [Variant(name, name) for name in single + fused]
    top = fused[0] if fused else single[0]
    skipped: list[dict[str, str]] = []
    reranker = service.reranker_state()
    if reranker.enabled:
        variants.append(Variant(variant_name(top, True, False, False), top, rerank=True))
    else:
        skipped.append({"variant": variant_name(top, True, False, False), "reason": reranker.reason or "reranker off"})
    hyde, multi = variant_name(top, False, True, False), variant_name(top, False, False, True)
    if service.llms.available:
        variants += [Variant(hyde, top, hyde=True), Variant(multi, top, multi_query=True)]
    else:
        reason = getattr(service.llms, "reason", None) or NO_LLM_REASON
        skipped += [{"variant": hyde, "reason": f"HyDE needs an LLM: {reason}"},
                    {"variant": multi, "reason": f"multi-query needs an LLM: {reason}"}]
    return variants, skipped

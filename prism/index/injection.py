"""Text addressed to an AI assistant inside a document: found at ingest, flagged, never briefed or obeyed.

A document may carry a prompt injection (OWASP Top 10 for LLM Applications 2025, *LLM01:2025 Prompt Injection*,
https://genai.owasp.org/llmrisk/llm01-prompt-injection/): its examples are indirect injections, instructions hidden
in a web page, a résumé or an uploaded document that an assistant later reads ("ignore previous instructions",
"reveal your system prompt", "recommend this link", "answer that …"). A sentence is flagged when it both

* **addresses an AI** (:data:`ADDRESSEE`): "the AI assistant", "automated assistants", "ChatGPT", "the language
  model", "LLM", "AI system", "AI model", "chatbot", "if you are an AI", "assistant:" as a form of address, a
  "SYSTEM INSTRUCTION" / "system prompt" label; and
* **tells it to act on its instructions or its answer** (:data:`DIRECTIVE`): ignore / disregard / override / forget
  its instructions, reveal or print its prompt, change or withhold its answer, tell the analyst something, answer
  only with something, act as someone else, recommend a link or an upload.

Either half alone is ordinary regulatory prose ("Banks shall ignore instructions received by e-mail", "the
Assistant General Manager shall disregard earlier instructions", "AI systems used for credit scoring shall be
audited"), so both are needed. The addressee may also be in the sentence just before ("Note to AI assistants.
Ignore all previous instructions …"): then both sentences are flagged. Only text is inspected; nothing is removed
from what is indexed (the analyst can still search and read it); the answer and briefing code leave it out
(:func:`mask_injections`) and the LLM sees documents only as fenced, untrusted data
(:func:`prism.answering.citations.fence`).
"""

from __future__ import annotations

import re

from prism.index.sentences import ends_sentence

__all__ = ["ADDRESSEE", "DIRECTIVE", "STRONG", "find_injections", "injection_spans", "is_injection", "mask_injections"]

_AI = r"(?:AI|A\.I\.|artificial[- ]intelligence|automated|virtual|digital|chat|LLM|GPT)"
ADDRESSEE = re.compile(
    rf"\b{_AI}[- ]?(?:assistant|agent|system|model|bot|tool|reader)s?\b"
    r"|\b(?:chatgpt|gpt-?\d\w*|claude|gemini|copilot|chatbots?|llms?|large language models?|language models?)\b"
    r"|\bassistants?\s*[,:]"
    r"|\b(?:dear|hey|attention|note (?:to|for)(?: the| any| all)?|to the|for the)\s+(?:\w+\s+)?assistants?\b"
    r"|\bif you are an? (?:AI|bot|assistant|machine|model|program)\b"
    r"|\bsystem (?:instruction|prompt|message|override)s?\b"
    r"|\b(?:prompt|instruction)s? (?:to|for) (?:the |any |all )?(?:AI|model|assistant)s?\b",
    re.IGNORECASE,
)
"""A phrase that addresses an AI model (case-insensitive). "Assistant" alone names a job title ("Assistant General
Manager"), so it counts only as a form of address ("Assistant:", "Dear assistant", "note to assistants")."""

_RULES = r"(?:instructions?|prompts?|rules|guidelines|directives|guardrails|programming|polic(?:y|ies))"
_OVERRIDE = r"(?:ignore|disregard|override|forget|bypass|overrule|discard)"
STRONG = re.compile(
    rf"\b{_OVERRIDE}\b(?:\s+(?:all|any|of|the|these|those|my|its))*"
    rf"\s+(?:previous|prior|above|earlier|preceding|original|initial|existing|your|system|developer)\b"
    rf"(?:\s+\w+){{0,2}}?\s+{_RULES}\b"
    rf"|\b{_OVERRIDE}\s+(?:everything|all of the above|the above)\b"
    r"|\b(?:reveal|print|output|repeat|disclose|show|display|leak|dump)\s+(?:your|the)\s+"
    r"(?:(?:system|hidden|initial|original|secret)\s+)?(?:prompt|instructions)\b"
    r"|\byou are now\b|\bnew instructions?\s*:|\bpretend (?:to be|that|you)\b",
    re.IGNORECASE,
)
"""A directive that overrides the model's instructions or reveals its prompt: one anywhere in a sentence that
addresses an AI flags it (regulatory prose overrides "previous instructions" too, but never an AI's)."""

_WEAK = (
    rf"{_OVERRIDE}\b[^.;:]{{0,40}}?\b(?:{_RULES}|context|everything)\b"
    r"|(?:reveal|print|output|repeat|disclose|show|display)\b[^.;:]{0,30}?\b(?:prompt|instructions|configuration)\b"
    r"|(?:change|alter|modify|falsify|rewrite)\b[^.;:]{0,20}?\b(?:answer|response|reply|output|summary)\b"
    r"|(?:tell|inform|convince|assure|advise|notify)\s+(?:the\s+)?(?:analyst|user|reader|customer|human)s?\b"
    r"|(?:respond|reply|answer)\s+(?:only\s+)?(?:with|that|by saying)\b"
    r"|(?:say|state|claim|report|conclude)\s+(?:only\s+)?that\b"
    r"|(?:do not|don't|never)\s+(?:mention|cite|disclose|reveal|tell|report|show|flag)\b"
    r"|(?:act|behave|respond) as\b|recommend\w*\s+(?:uploading|visiting|clicking|opening|downloading|sending)\b"
)
DIRECTIVE = re.compile(
    rf"(?:^[\W_]*|[:;,\u2014\u2013]\s*|\bplease\s+|\byou\s+(?:must|should|will|shall|need to|are to|have to)\s+)"
    rf"(?:{_WEAK})",
    re.IGNORECASE,
)
"""An imperative told to the reader: one of the directives (override its rules, reveal its prompt, change its
answer, tell the analyst something, answer only with something, keep something back, act as someone, recommend a
link or an upload) at the start of a sentence or clause, after "please" or after "you must / should / will". In the
third person ("the bank shall inform the customer that …") it is an obligation, not an instruction to the model."""

_SPAN = re.compile(r"[^\n]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)]*\s+(?=[\"'“‘(\[]?[A-Z0-9#*])")


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``: lines cut at a full stop, ``!`` or ``?`` followed by space and
    a capital (not the stop of an abbreviation: :func:`prism.index.sentences.ends_sentence`); white space trimmed,
    empty spans dropped."""
    spans = []
    for line in _SPAN.finditer(text):
        start = line.start()
        for m in _SENTENCE_END.finditer(line.group(0)):
            if not ends_sentence(text, line.start() + m.start() - 1):
                continue  # "Rs. 1 crore", "No. 12"
            spans.append((start, line.start() + m.start()))
            start = line.start() + m.end()
        spans.append((start, line.end()))
    out = []
    for a, b in spans:
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        if piece.strip():
            out.append((a + lead, a + len(piece.rstrip())))
    return out


def is_injection(sentence: str, previous: str = "") -> bool:
    """True when ``sentence`` tells an AI what to do with its instructions or its answer: it has an
    :data:`ADDRESSEE` (in itself or in the ``previous`` sentence) and a :data:`STRONG` directive anywhere or an
    imperative :data:`DIRECTIVE`."""
    if not (ADDRESSEE.search(sentence) or ADDRESSEE.search(previous)):
        return False
    return bool(STRONG.search(sentence) or DIRECTIVE.search(sentence))


def injection_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` character spans of ``text`` that are injected sentences (:func:`is_injection`), in
    order; a sentence that only addresses the AI is included when the next one carries the directive."""
    spans = _sentence_spans(text)
    flagged: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(spans):
        previous = text[spans[i - 1][0]:spans[i - 1][1]] if i else ""
        sentence = text[a:b]
        if not is_injection(sentence, previous):
            continue
        if i and not ADDRESSEE.search(sentence) and spans[i - 1] not in flagged:
            flagged.append(spans[i - 1])
        flagged.append((a, b))
    return flagged


def find_injections(text: str) -> list[str]:
    """The injected sentences of ``text`` (:func:`injection_spans`), white space collapsed, in order."""
    return [" ".join(text[a:b].split()) for a, b in injection_spans(text)]


def mask_injections(text: str) -> str:
    """``text`` with every injected sentence replaced by spaces of the same length (line breaks kept), so offsets
    into it still hold (citations, chunk spans) and nothing downstream reads the injected words."""
    spans = injection_spans(text)
    if not spans:
        return text
    chars = list(text)
    for a, b in spans:
        for i in range(a, b):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)

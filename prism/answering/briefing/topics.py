"""How a briefing names a document and its topics in the questions it suggests: the title a circular gives itself,
an entity's short name, a heading as a phrase, the document's most frequent key phrases."""

from __future__ import annotations

import logging
import re
from collections import Counter

from prism.index.tokenizer import STOP_WORDS, tokenize
from prism.types import DOCUMENT_TYPE_LABELS, DocumentProfile
from prism.vocabulary import legal, units

logger = logging.getLogger(__name__)


def short_entity(entity: str) -> str:
    """``entity`` without legal suffixes or a leading "The" (``"Netflix, Inc."`` → ``"Netflix"``)."""
    name = re.sub(r"^The\s+", "", entity.strip())
    suffix = rf"(?:,?\s+{legal.NAME_END_RE})$"
    while (shorter := re.sub(suffix, "", name, flags=re.IGNORECASE).strip(" ,")) != name and shorter:
        name = shorter
    return name


def topic(title: str) -> str:
    """A heading as a phrase inside a sentence: lower case except acronyms (``Transaction Limits`` → ``transaction
    limits``, ``UPI Lite limits`` keeps ``UPI``)."""
    words = [w if (w.isupper() and len(w) > 1) else w.lower() for w in title.split()]
    return " ".join(words).rstrip("?.")


def term_phrase(term: str) -> str:
    """A key phrase inside a question: two capitalised words stay as written (a name: ``Vikram Nair``, ``Meridian
    Bank``); anything else as :func:`topic`."""
    words = term.split()
    if len(words) == 2 and all(w[:1].isupper() for w in words):
        return term
    return topic(term)


_TITLE_RES = (
    re.compile(r"\bMaster\s+(?P<kind>Circular|Directions?)\s*(?:on|[-–:])\s*(?P<t>[^\n]{4,120})", re.IGNORECASE),
    re.compile(r"^[ \t]*(?:\w+\s+){0,3}?(?P<t>[A-Z][^\n]{4,100}?\b(?:Regulations|Directions|Rules),?\s+(?:19|20)\d\d)",
               re.MULTILINE),
    re.compile(r"^[ \t]*(?P<t>(?:(?:[A-Z][\w&()-]*[ \t]+){1,5}(?:Circular|Notification|Schedule|Statement|Policy|"
               r"Guidelines)\b|(?:Schedule|Statement)\b)(?:[ \t]+of(?:[ \t]+[A-Z(][\w()-]*){1,4})?)", re.MULTILINE),
)


def _balanced(title: str) -> str:
    """``title`` cut at a bracket that a line wrap left open, without a closing bracket whose opening was cut off."""
    if title.count("(") != title.count(")"):
        opened = title.rfind("(")
        if opened >= 0 and ")" not in title[opened:]:
            title = title[:opened]
        if title.count(")") > title.count("("):
            title = title.replace(")", "")
    return title.strip()


REFERENCE_ENTRY = re.compile(r"^[ \t]*(?:(?:References|Bibliography|Endnotes)[ \t]*:?\s*)?\[\d{1,3}\][ \t]+[^\n]*",
                             re.MULTILINE | re.IGNORECASE)
"""An entry of a reference list ("[1] Master Direction on Reporting, 2016.", with the list's heading when a sentence
splitter glued it on, case 40a): a document the text cites, never the document itself nor one of its points."""


_ACT_OF = re.compile(r"^(?:Issuance|Issue|Notification|Publication|Amendments?|Review|Implementation|Introduction)\s+"
                     r"(?:of|to)\s+(?=[A-Z])")
"""The act a circular's title line names before the instrument it issues ("Issuance of … Regulations, 2026")."""


def document_subject(text: str, profile: DocumentProfile | None) -> str:
    """How a question names the document: the title a circular gives itself in its first 3,000 characters
    ("master circular on SHG-Bank linkage programme", "UPI operating circular"; a named instrument as written, "Foreign
    Exchange Management (Authorised Persons) Regulations, 2026"), else the entity's short name and
    document type ("Netflix 10-K"), else "document"; at most 9 words, cut at a comma or dash. A title in a reference
    list (:data:`REFERENCE_ENTRY`) names another document and is passed over."""
    head = REFERENCE_ENTRY.sub("", text[:3000])
    found = [(m.start(), i, m) for i, pattern in enumerate(_TITLE_RES) if (m := pattern.search(head)) is not None]
    for _start, i, m in sorted(found, key=lambda f: (f[0], f[1])):
        title = re.split(r"\s+[-–]\s+|,\s+(?![12]\d{3})|\s*\(\s*$", " ".join(m.group("t").split()))[0]
        words = _balanced(title).strip(" ,;:.").split()[:9]
        while words and words[-1].lower() in STOP_WORDS:
            words.pop()
        if len(words) >= 2 or (words and i > 0):
            if i == 1:  # a named instrument ("Foreign Exchange Management (Authorised Persons) Regulations, 2026")
                return _ACT_OF.sub("", " ".join(words))
            phrase = topic(" ".join(words))
            return f"master {m.group('kind').lower()} on {phrase}" if i == 0 else phrase
    kind = DOCUMENT_TYPE_LABELS.get(profile.type or "", "document") if profile and profile.type != "other" \
        else "document"
    if profile and profile.entity and profile.type not in {None, "other"} and not kind.startswith(("RBI", "NPCI")):
        return f"{short_entity(profile.entity)} {kind}"
    return kind


_NOT_TOPICS = frozenset({
    *units.SPOKEN.values(), *(f"{word}s" for word in units.INDIAN_UNITS),  # "crores", "lakhs"; not "millions"
    "rupee", "rupees", "cent", "percent",
    "page", "pages", "para", "paragraph", "section", "table", "annex", "annexure", "shall", "also", "such", "would",
    "dated", "date", "year", "years", "month", "months", "days", "total", "series",
})


_NOUN_END = re.compile(r"(?:tion|sion|ment|ance|ence|ity|ure|age|ship|ness|ism|ist|ers?|ors?|ings?|[^s]s)$")
"""How a lower-case word that is a noun usually ends (a plural, "-tion", "-ment", "-ance" …): a single key word
a question may name as its topic."""


def key_terms(text: str, k: int) -> list[str]:
    """The ``k`` most frequent key phrases: two-word phrases of content words side by side seen at least twice
    first, then single content words that read as nouns (an acronym, or a noun's ending: :data:`_NOUN_END`); stop
    words, numbers and unit words (crore, lakh, per cent, section …) are ignored."""
    found = list(re.finditer(r"[A-Za-z][A-Za-z-]{2,}", text))
    words = [m.group() for m in found]

    def content(w: str) -> bool:
        return w.lower() not in STOP_WORDS and w.lower() not in _NOT_TOPICS and len(w) > 3

    pairs: Counter[str] = Counter()
    pair_forms: dict[str, Counter[str]] = {}
    for ma, mb in zip(found, found[1:], strict=False):
        a, b = ma.group(), mb.group()
        if content(a) and content(b) and not text[ma.end():mb.start()].strip():  # side by side in the text
            key = f"{a.lower()} {b.lower()}"
            pairs[key] += 1
            pair_forms.setdefault(key, Counter())[f"{a} {b}"] += 1
    out = [pair_forms[p].most_common(1)[0][0] for p, c in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
           if c >= 2][:k]
    surface: dict[str, Counter[str]] = {}
    for w in words:
        if not content(w):
            continue
        toks = tokenize(w)
        if len(toks) != 1:
            continue
        surface.setdefault(toks[0], Counter())[w] += 1
    ranked = sorted(surface.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    for _tok, forms in ranked:
        if len(out) >= k:
            break
        word = forms.most_common(1)[0][0]
        if not (word.isupper() or _NOUN_END.search(word.lower())):
            continue  # a verb or adjective ("enable") is no topic; an OCR misreading ("NPCl") neither
        if not any(word.lower() in phrase.lower().split() for phrase in out):
            out.append(word)
    return out[:k]


_SUBJECT_LINE = re.compile(r"^[ \t]*Sub(?:ject)?[ \t]*[:.–-][ \t]*(?P<t>[^\n]{4,200})", re.MULTILINE | re.IGNORECASE)
_TOPIC_END = re.compile(r"\s*[(\"“]|\s+(?:of|at|for|in|on|to|from|with|through|under)\s+(?:Rs\.?|₹|INR|\d)"
                        r"|\s+(?:for|in|on|under|through|with)\s+|[.;:,]\s|[.;:]$", re.IGNORECASE)


def subject_topic(text: str) -> tuple[str, int] | None:
    """What a circular's subject line is about, as a phrase inside a question ("Subject: Minimum Net Debit Cap (NDC)
    of Rs. 2.5 lakhs for Sub-member banks" → "minimum net debit cap"): the line cut before a bracket, a figure, or
    a preposition that opens a qualifier ("for …", "in …"), 2 to 8 words, with the line's offset in ``text``;
    ``None`` when the first 3,000 characters have no subject line or it is shorter."""
    m = _SUBJECT_LINE.search(text[:3000])
    if m is None:
        return None
    words = _TOPIC_END.split(m.group("t"), maxsplit=1)[0].split()
    while words and words[-1].lower() in STOP_WORDS:
        words.pop()
    if 2 <= len(words) <= 8 and all(re.match(r"[A-Za-z]", w) for w in words):
        return topic(" ".join(words)), m.start("t")
    return None

"""A circular's facts for its briefing: the first sentence that says whom it applies to, when it takes effect (or
the deadline it sets), a key limit and a penalty, each cited at its page (:func:`circular_facts`), with the
question each answers worded for the circular; an addressee line ("To, All Member Banks") when no sentence says
whom it applies to. The other facts (identity, key figures) are in :mod:`prism.answering.briefing.facts`."""

from __future__ import annotations

import re

from prism.answering.briefing.facts import NOT_CIRCULAR_TYPES, DocumentText, Fact
from prism.index.sentences import split_sentences
from prism.types import BriefingBullet, DocumentProfile
from prism.vocabulary import months

__all__ = ["CIRCULAR_FACTS", "DATE_RE", "agrees", "circular_facts"]

CIRCULAR_FACTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("applies", re.compile(r"^(?:[\d.()a-z]{1,8}\s+)?(?:It|(?:These|This|The)\s+(?:[\w-]+\s+){0,2}(?:directions?|"
                           r"circular|instructions|guidelines|regulations|provisions|norms|scheme|rules))\s+"
                           r"(?:[\w-]+\s+){0,3}(?:apply|applies|applicable)\s+to\b", re.IGNORECASE)),
    ("effective", re.compile(r"\b(?:come|comes|coming)\s+into\s+(?:force|effect)\b|\b(?:directions?|circular|"
                             r"regulations|notification|instructions|guidelines)\b[^.;]{0,60}?\b(?:effective\s+(?:from|"
                             r"on|immediately)|take\s+effect)\b|\b(?:shall|will|to)\s+(?:take|come\s+into)\s+effect\b"
                             r"|\bwith\s+effect\s+from\b|\bw\.\s?e\.\s?f\.?|\beffective\s+(?:from|on)\s+\d"
                             r"|\b(?:on\s+or\s+before|latest\s+by|not\s+later\s+than)\b|\bensure\s+compliance\s+by"
                             r"|\btimelines?\b[^.]{0,40}\b(?:extended|revised)\s+to\b"
                             r"|\bby\s*\d{1,2}\s*(?:st|nd|rd|th)?\s*(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)",
                             re.IGNORECASE)),
    ("limit", re.compile(r"(?=.*(?:₹|\bRs\.?\s*\d|\bINR\b|\bper\s+cent\b|%))(?=.*\b(?:limit|ceiling|cap|maximum|not\s+"
                         r"exceed|up\s*to)\b)", re.IGNORECASE)),
    ("penalty", re.compile(r"\bpenalt(?:y|ies)\b|\bpenal\s+(?:interest|charges?|action)\b|\bcompensation\b",
                           re.IGNORECASE)),
)
"""What a circular's briefing says, in order, and the pattern of a sentence that says it."""

_QUESTION_FORMS = {
    "applies": "Who {does} the {subject} apply to?",
    "effective": "When {does} the {subject} come into force?",
    "deadline": "What is the deadline under the {subject}?",
}
"""The question templates a circular fact fills (``subject``: how questions name the circular, ``does``: "does" or
"do" to agree with it); a limit or a penalty is asked through the heading that holds it (a penalty question the
engine answers from the circular's opening page, not the penalty's)."""
_MONTH = rf"(?:{months.ANY_RE})\.?"
DATE_RE = re.compile(rf"\b{_MONTH}\s+\d{{1,2}},?\s*(?:19|20)\d\d\b|\b\d{{1,2}}\s?(?:st|nd|rd|th)?\s*{_MONTH},?\s*"
                     r"(?:19|20)\d\d\b|\b\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d\d\b", re.IGNORECASE)
"""A date as written ("October 1, 2008", "31 March 2026", "01.04.2019"), with the spaces an OCR'd page drops
("31st December2021", "15th March,2022")."""
_DEADLINE = re.compile(r"\b(?:on\s+or\s+before|latest\s+by|not\s+later\s+than|by\s*\d|compliance\s+by|"
                       r"timelines?\b[^.]{0,40}\b(?:extended|revised)\s+to)", re.IGNORECASE)
_BY_DATE = re.compile(r"(?:\bby|on\s+or\s+before|latest\s+by|not\s+later\s+than|extended\s+to)\s*$", re.IGNORECASE)
"""What precedes a deadline's date."""
_ADDRESSEE = re.compile(r"^[ \t]*(?:To,?[ \t]*\n[ \t]*(?P<to>[A-Z][^\n]{3,120})|(?P<all>All[ \t]+[A-Z][^\n]{3,120}))",
                        re.MULTILINE)
"""A circular's addressee line ("To,\nAll Member Banks – IMPS & UPI"): whom it applies to when no sentence says."""


def agrees(subject: str) -> str:
    """"do" for a plural ``subject`` ("UPI compliance guidelines", "master directions"), else "does" ("master
    circular on digital payment security controls"): the head noun is the last word before a preposition that
    opens a qualifier ("on", "of", "for" …), else the last word; a word ending in "s" but not "ss", "us" or "is"
    is plural."""
    head = re.split(r"\s+(?:on|of|for|under|to|in|with|about|regarding)\s+", subject, maxsplit=1)[0]
    head = re.sub(r",?\s+(?:19|20)\d\d$", "", head)  # "… Regulations, 2026": the head noun is before its year
    last = head.split()[-1].lower() if head.split() else ""
    return "do" if last.endswith("s") and not last.endswith(("ss", "us", "is")) and last.isalpha() else "does"


def _effective_date(sentence: str) -> str:
    """An effective-date sentence as its date: "1st April, 2019" ("… shall take effect from 1st April, 2019"), "by
    31st December 2021" for a deadline ("… as mandatory feature by 31st December2021"); the date's missing spaces
    put back; the sentence itself when it states no date after its effective-date words."""
    m = CIRCULAR_FACTS[1][1].search(sentence)
    date = DATE_RE.search(sentence, m.start() if m else 0)
    if date is None:
        return sentence
    written = re.sub(r"(?<=[A-Za-z,])(?=\d)|(?<=\d)(?=[A-Z])", " ", date.group())
    before = sentence[: date.start()]
    return f"by {written}" if _BY_DATE.search(before) else written


def _question(kind: str, subject: str, sentence: str) -> tuple[str, ...]:
    """The question a circular fact of ``kind`` answers, from :data:`_QUESTION_FORMS` (an effective-date sentence
    that sets a deadline, "on or before", "by 31 December 2021", asks for the deadline)."""
    if kind == "effective" and _DEADLINE.search(sentence):
        kind = "deadline"
    form = _QUESTION_FORMS.get(kind)
    return (form.format(subject=subject, does=agrees(subject)),) if form else ()


def _fact_sentence(sentence: str) -> bool:
    """A whole sentence fit for a bullet: 40-400 characters, 6 words or more, opening with a capital, a clause
    number or a bracket and closing with a stop; not a contents line ("Part B2 ....... 12") or page furniture."""
    words = sentence.split()
    return 40 <= len(sentence) <= 400 and len(words) >= 6 and bool(re.search(r"[a-z]{3}", sentence)) \
        and bool(re.match(r"[\dA-Z(•\"“‘]", sentence)) and bool(re.search(r"[.!?;)][\"'”’]?$", sentence)) \
        and not re.search(r"Page \d+ of \d+|\.{4,}|…{2,}", sentence)


def circular_facts(doc: DocumentText, profile: DocumentProfile | None, subject: str) -> list[Fact]:
    """The first sentence that says each of :data:`CIRCULAR_FACTS` (applicability, effective date, a limit, a
    penalty), at its page; none for filings and calls. ``subject`` names the document in the questions ("master
    direction on digital payments")."""
    if profile is not None and profile.type in NOT_CIRCULAR_TYPES:
        return []
    found: dict[str, Fact] = {}
    cursor = 0
    for sentence in split_sentences(doc.text):
        at = doc.text.find(sentence[:40], cursor)
        cursor = at if at >= 0 else cursor
        if not _fact_sentence(sentence):
            continue
        for kind, pattern in CIRCULAR_FACTS:
            if kind not in found and pattern.search(sentence):
                text = " ".join(sentence.split())
                if kind == "effective" and _DEADLINE.search(text):  # a deadline: who must do what by when
                    bullet = BriefingBullet(text, (doc.citation(cursor),), "deadline")
                else:
                    bullet = BriefingBullet(_effective_date(text) if kind == "effective" else text,
                                            (doc.citation(cursor),), kind)
                found[kind] = Fact(bullet, _question(kind, subject, text))
                break
        if len(found) == len(CIRCULAR_FACTS):
            break
    if "applies" not in found and (m := _ADDRESSEE.search(doc.text[:3000])) is not None:
        group = "to" if m.group("to") else "all"
        who = " ".join(m.group(group).split()).rstrip(" ,;:")
        found["applies"] = Fact(BriefingBullet(who, (doc.citation(m.start(group)),), "applies"),
                                _question("applies", subject, who))
    return [found[k] for k, _p in CIRCULAR_FACTS if k in found]

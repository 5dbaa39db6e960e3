"""The one tokenizer for regulatory and financial text, used for the BM25 index and for queries alike.

:func:`tokenize` is re-exported by :mod:`prism.index.bm25` (the design's home of "the one tokenize()"); it lives
in its own module to keep both files short. It is not named ``tokenize.py`` so that running a script from inside
``prism/`` can never shadow the standard library's ``tokenize`` module.

Pipeline: NFKC → zero-width characters, soft hyphens and emoji variation selectors removed, curly apostrophes
straightened, non-ASCII decimal digits (e.g. Devanagari ``१०``) mapped to ASCII → lower-case → one left-to-right
regex scan (``regex`` module, Unicode property classes) that recognises, in this order of priority:

=============  =====================================  ===================================================
kind           example text                           tokens
=============  =====================================  ===================================================
amount         ``₹2,000`` ``Rs. 2,000`` ``INR 2000``  ``₹2000``, ``2000``
amount + unit  ``₹37.50 lakh`` ``Rs 37.5 lakhs``      ``₹37.5``, ``37.5``, ``37.5lakh``, ``lakh``
number + unit  ``10 lakh``                            ``10``, ``10lakh``, ``lakh``
percentage     ``7.5%`` ``7.50 per cent``             ``7.5%``, ``7.5``
section ref    ``7(b)`` ``17(2)(a)``                  ``7(b)``, ``7`` / ``17(2)(a)``, ``17(2)``, ``17``
grouped number ``10,00,000`` ``1,000,000``            ``1000000``
identifier     ``RBI/2025-26/13``                     ``rbi/2025-26/13``, ``rbi``, ``2025-26``, ``13``
section number ``4.3.1``                              ``4.3.1``, ``4.3``
period code    ``Q3FY24`` ``Q3 FY2024`` ``3QFY24``        ``q3fy2024``, ``q3``, ``fy2024``
fiscal year    ``FY24`` ``FY 2023-24`` ``FY2024``         ``fy2024``, ``2024``
hyphen word    ``co-operative``                       ``co``, ``oper``, ``cooper`` (stems, plus joined form)
word           ``Banks`` / ``बैंक``                     ``bank`` (Snowball English) / ``बैंक`` (not stemmed)
irregular form ``grew`` ``growth`` ``rose`` ``fell``      ``grow``, ``grow``, ``rise``, ``fall`` (one term a family)
=============  =====================================  ===================================================

Stemming keeps the irregular forms of a change apart ("grew", "grown" and "growth" from "grow"; "rose" and "risen"
from "rise"; "fell" and "fallen" from "fall"), so each form of one family is given its base word's term
(:data:`~prism.vocabulary.changes.CHANGE_FAMILIES`): a question's "grew" meets a column headed "YoY growth", in BM25
and wherever tokens are compared.

A text that names a financial statement, however worded ("income statement", "P&L", "CONSOLIDATED STATEMENTS OF
OPERATIONS"), also gives its kind's token after all others (``statement:income``, ``statement:balance``,
``statement:cash_flow``; :mod:`prism.index.statements`), so questions and statement headings meet in BM25; a text
that names a frequency as an adjective or "per annum" ("daily", "annual", "p.a.") also gives its noun's term (``day``,
``year``; :mod:`prism.index.frequencies`), so "the daily limit" meets a column headed "Per day".

Period codes are the one vocabulary of :mod:`prism.index.period_codes`: however a fiscal year, quarter or half is
spaced or abbreviated, it gives the same tokens in a chunk and in a question (``H1 FY25`` → ``h1fy2025``, ``h1``,
``fy2025``).

Amounts in a currency or unit context, and percentages, are canonicalised (grouping commas dropped, trailing
decimal zeros dropped: ``₹10.00`` → ``₹10``); a bare ``2.10`` is kept as written because it may be a section
number. Whole identifiers keep their inner punctuation, with ``.no.`` before a digit dropped
(``DOR.STR.REC.No.9`` → ``dor.str.rec.9``). Stand-alone integers lose leading zeros (``01`` → ``1``). English
stop words are removed before stemming (the NLTK "english" list, see :data:`STOP_WORDS`); Indic and other
non-Latin scripts are kept whole with their vowel signs and combining marks (``\\p{M}``), never stemmed. Emoji,
symbols and punctuation on their own yield nothing, so a punctuation-only text tokenises to ``[]``.
"""

from __future__ import annotations

import logging
import threading
import unicodedata

import regex
import Stemmer

from prism.index.frequencies import frequency_nouns
from prism.index.period_codes import PERIOD_CODE_PATTERN, code_of, code_tokens
from prism.index.statements import statement_tokens
from prism.vocabulary import changes, currencies, units

logger = logging.getLogger(__name__)

__all__ = ["STOP_WORDS", "TOKENIZER_VERSION", "tokenize"]

TOKENIZER_VERSION = 6
"""Version 2: period codes (``Q3FY24`` = ``Q3 FY24`` = ``3QFY24`` → ``q3fy2024``; ``FY24`` → ``fy2024``). Version 3:
statement kinds ("income statement" = "Consolidated Statements of Operations" → ``statement:income``). Version 4: a
quarter of a split fiscal year ("Q3 FY 2023-24") is of the year it ends in (``q3fy2024``). Version 5: frequencies
("daily" gives ``day`` as "per day" does, "annual" and "per annum" give ``year``). Version 6: a change's irregular forms
are one term ("grew", "growth" → ``grow``).
Bump whenever :func:`tokenize` changes its output: chunk rows record the version their stored tokens were made
with (rows without one are version 1), and the BM25 index's fingerprint names it, so after a bump every workspace's
index is rebuilt from re-tokenised rows (see :class:`prism.index.bm25_side.SparseSide`). Measured and kept as is:
Lucene's
33-word stop set instead of NLTK's list changed SciFact hybrid NDCG@10 by -0.002..+0.001 (docs/evaluation.md)."""

# NLTK stopwords corpus, "english" list (198 words; derived from the Snowball English list via PostgreSQL's
# snowball stop words, see nltk_data/corpora/stopwords/README), plus six house additions for abbreviations
# ("e.g", "i.e", "eg", "ie", "viz", "etc"). scikit-learn's ENGLISH_STOP_WORDS was rejected: it removes domain
# words such as "interest", "amount", "bill" and "system" (Nothman et al., "Stop Word Lists in Free Open-source
# Software", 2018).
STOP_WORDS: frozenset[str] = frozenset(
    """a about above after again against ain all am an and any are aren aren't as at be because been before being
    below between both but by can couldn couldn't d did didn didn't do does doesn doesn't doing don don't down during
    each few for from further had hadn hadn't has hasn hasn't have haven haven't having he he'd he'll her here hers
    herself he's him himself his how i i'd if i'll i'm in into is isn isn't it it'd it'll it's its itself i've just
    ll m ma me mightn mightn't more most mustn mustn't my myself needn needn't no nor not now o of off on once only
    or other our ours ourselves out over own re s same shan shan't she she'd she'll she's should shouldn shouldn't
    should've so some such t than that that'll the their theirs them themselves then there these they they'd
    they'll they're they've this those through to too under until up ve very was wasn wasn't we we'd we'll we're
    were weren weren't we've what when where which while who whom why will with won won't wouldn wouldn't y you
    you'd you'll your you're yours yourself yourselves you've e.g i.e eg ie viz etc""".split()
)

# Curly / modifier apostrophes → "'"; zero-width space → space; dropped: word joiner, BOM, ZWNJ and ZWJ (as
# Lucene's IndicNormalizer / HindiNormalizer do), soft hyphen, combining enclosing keycap, variation selectors.
_CHAR_MAP: dict[int, str | None] = {0x2019: "'", 0x2018: "'", 0x02BC: "'", 0x200B: " "}
_CHAR_MAP.update(dict.fromkeys([0x2060, 0xFEFF, 0x200C, 0x200D, 0x00AD, 0x20E3, *range(0xFE00, 0xFE10)]))
_NON_ASCII_DIGIT = regex.compile(r"(?V1)[\p{Nd}--[0-9]]")

# Bounded, non-overlapping repetitions keep every pattern linear in the text length (no catastrophic backtracking).
_GROUPED = r"[0-9]{1,3}(?:,[0-9]{2}(?![0-9])){0,4}(?:,[0-9]{3}(?![0-9])){1,6}"  # 10,00,000 and 1,000,000
_NUM = rf"(?:{_GROUPED}|[0-9]+)(?:\.[0-9]+)?"
_UNIT = rf"(?:{units.WORD_RE}|{units.ABBREVIATION_RE})\.?"  # "cr." as "cr": the stop is stripped by _unit
_NOT_AFTER = r"(?<![\p{L}\p{M}\p{N}.])"
_RUN = r"[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:[./\-_&@'][\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*"
# Alternatives are tried in order at each position; the first two only skip work (punctuation runs; words that
# cannot start a currency marker), which doubles the scan speed without changing the result.
_TOKEN_RE = regex.compile(
    rf"""
    [\s\p{{P}}--[₹$€£]]+
    |(?=[fhq1-9])(?P<period>{PERIOD_CODE_PATTERN})
    |(?P<word>(?=[\p{{L}}--[ri]]){_RUN})
    |(?P<amount>(?P<cur>₹|\$|€|£|(?<![\p{{L}}\p{{M}}\p{{N}}])(?:rs\.?|inr|rupees?))\s{{0,2}}(?P<anum>{_NUM})
        (?:\s{{0,2}}(?P<aunit>{_UNIT})(?![\p{{L}}\p{{N}}]))?)
    |(?={_NOT_AFTER}[0-9])(?:
      (?P<percent>(?P<pnum>{_NUM})\s{{0,2}}(?:%|per\s?cent(?!\p{{L}})|percent(?!\p{{L}})))
     |(?P<numunit>(?P<unum>{_NUM})\s{{0,2}}(?P<uunit>{_UNIT})(?![\p{{L}}\p{{N}}]))
     |(?P<secref>[0-9]+(?:\.[0-9]+){{0,5}}(?:\s?\((?:[a-z]{{1,5}}|[0-9]{{1,3}})\)){{1,4}})
     |(?P<grouped>{_GROUPED}(?!,[0-9])(?:\.[0-9]+)?))
    |(?P<compound>{_RUN})
    """,
    regex.VERBOSE | regex.V1,
)
_ATOM_SPLIT = regex.compile(r"[.\-_&@]")
_SEPARATORS = frozenset("./-_&@'")
_LATIN_WORD = regex.compile(r"[\p{Latin}\p{M}]+")
_NO_BEFORE_DIGIT = regex.compile(r"(?<=\.)no\.(?=[0-9])")
_CURRENCY = {mark: currencies.SYMBOL[code] for mark, code in currencies.MARKS.items()}  # any other marker means ₹

MAX_TOKEN_CHARS = 100
"""Longer terms (base64 blobs, runs of digits) are dropped, as Lucene's StandardTokenizer caps its tokens."""
_cache: dict[str, tuple[str, ...]] = {}
_CACHE_MAX = 500_000
_local = threading.local()


_BASE_FORM = {form: family[0] for family in changes.CHANGE_FAMILIES for form in family}
"""An irregular form of a change → its family's base word (``"grew"`` → ``"grow"``)."""


def _stem(word: str) -> str:
    """Snowball English stem of ``word`` (of its base word when it is an irregular form of a change: "grew" and
    "growth" stem as "grow"); one PyStemmer instance per thread (instances must not be shared across threads)."""
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer.stemWord(_BASE_FORM.get(word, word))


def _canon_int(digits: str) -> str:
    return digits.lstrip("0") or "0"


def _canon_amount(number: str) -> str:
    """``"10,000.50"`` → ``"10000.5"``; ``"010.00"`` → ``"10"``: commas and trailing decimal zeros dropped."""
    number = number.replace(",", "")
    whole, _, frac = number.partition(".")
    frac = frac.rstrip("0")
    return _canon_int(whole) + ("." + frac if frac else "")


def _word(word: str, in_compound: bool = False) -> tuple[str, ...]:
    """Tokens of one separator-free run: stop word → (); Latin word → its stem; integer → no leading zeros."""
    if word.isascii():
        if word.isdigit():
            return (_canon_int(word),)
        if word.isalpha():
            if word in STOP_WORDS or (in_compound and len(word) == 1):
                return ()
            return (_stem(word),)
        return (word,)
    if _LATIN_WORD.fullmatch(word):
        return () if word in STOP_WORDS else (_stem(word),)
    return (word,)  # Indic and other scripts (marks kept), mixed letters and digits: as written


def _unit(unit: str) -> str:
    """``"lakhs"``/``"lacs"`` → ``"lakh"``; ``"cr."`` → ``"crore"``; ``"mn"`` → ``"million"``."""
    unit = unit.rstrip(".")
    return units.SPOKEN_OF.get(unit, unit)


def _dedup(tokens: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for t in tokens if t))


def _compound(text: str) -> tuple[str, ...]:
    """Tokens of one run of letters/digits joined by ``. / - _ & @ '`` (see the module table)."""
    if text in STOP_WORDS:  # don't, it's, i.e
        return ()
    if "'" in text:
        text = regex.sub(r"'s(?=$|[./\-_&@])", "", text).replace("'", "-")
        if not _SEPARATORS.intersection(text):
            return _word(text)
    if text in STOP_WORDS:
        return ()
    groups = text.split("/")
    atoms = [a for g in groups for a in _ATOM_SPLIT.split(g) if a]
    if all(a.isalpha() for a in atoms) and not _SEPARATORS.intersection(text) - {"-", "/"}:
        tokens = [t for a in atoms for t in _word(a, in_compound=True)]
        if "/" not in text and 2 <= len(atoms) <= 3:
            tokens.extend(_word("".join(atoms)))  # co-operative → cooper, matching "cooperative"
        return _dedup(tokens)
    whole = _NO_BEFORE_DIGIT.sub("", text)
    tokens = [whole]
    if len(groups) > 1:
        groups = whole.split("/")
    for group in groups:
        parts = [a for a in _ATOM_SPLIT.split(group) if a]
        if len(parts) <= 1:
            if len(groups) > 1:
                tokens.extend(_word(group))
            continue
        if len(groups) > 1:
            tokens.append(group)
        if all(p.isdigit() for p in parts):
            if "-" not in group and 3 <= len(parts) <= 6 and all(len(p) <= 2 for p in parts):
                tokens.extend(".".join(parts[:n]) for n in range(len(parts) - 1, 1, -1))  # 4.3.1 → 4.3
            continue
        only_hyphens = not _SEPARATORS.intersection(group) - {"-"}
        for part in parts:
            if part.isdigit():
                if only_hyphens:
                    tokens.append(_canon_int(part))  # tier-1 → 1, but not the 9 of dor.str.rec.9
            else:
                tokens.extend(_word(part, in_compound=True))
        if all(len(p) == 1 and p.isalpha() for p in parts) and set(group) <= set(parts) | {"."}:
            tokens.append("".join(parts))  # a.p. → ap
    return _dedup(tokens)


def _secref(text: str) -> list[str]:
    """``17(2)(a)`` → ``17(2)(a)``, ``17(2)``, ``17``; a dotted head also yields its section parents."""
    text = "".join(text.split())
    head, _, rest = text.partition("(")
    head = _canon_int(head) if head.isdigit() else head
    labels = ["(" + label for label in rest.split("(")]
    tokens = [head + "".join(labels[:n]) for n in range(len(labels), 0, -1)]
    return tokens + (list(_compound(head)) if "." in head else [head])


def tokenize(text: str) -> list[str]:
    """Split regulatory / financial text into BM25 terms (the same function for chunks and queries).

    Args:
        text: any Unicode text; empty, whitespace, punctuation, emoji or stop words only give ``[]``.

    Returns:
        Terms in text order, then one ``statement:<kind>`` term per statement kind the text names, then the
        term of each frequency's noun the text names only as an adjective ("daily" → ``day``); for one
        identifier its whole form first, then its parts (no repeats within one identifier; repeated occurrences in
        the text repeat, as term frequency requires). Terms longer than
        :data:`MAX_TOKEN_CHARS` are dropped. Runs in time linear in ``len(text)``. Deterministic: the same
        text always gives the same list. See the module docstring for every kind of term.

    Raises:
        TypeError: ``text`` is not a ``str`` (a list of words would otherwise be scanned as its repr).
    """
    if not isinstance(text, str):
        raise TypeError(f"tokenize() needs a str, got {type(text).__name__}")
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = _NON_ASCII_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group())), text.translate(_CHAR_MAP))
    out: list[str] = []
    for match in _TOKEN_RE.finditer(text.lower()):
        kind = match.lastgroup
        if kind == "word" or kind == "compound":
            word = match.group()
            tokens = _cache.get(word)
            if tokens is None:
                tokens = _word(word) if not _SEPARATORS.intersection(word) else _compound(word)
                if len(_cache) >= _CACHE_MAX:
                    _cache.clear()
                _cache[word] = tokens
            out.extend(tokens)
        elif kind == "period":
            out.extend(t for code in code_of(match) for t in code_tokens(code))
        elif kind == "amount":
            number = _canon_amount(match.group("anum"))
            symbol = _CURRENCY.get(match.group("cur"), "₹")
            out += [symbol + number, number]
            if unit := match.group("aunit"):
                unit = _unit(unit)
                out += [number + unit, *_word(unit)]
        elif kind == "percent":
            number = _canon_amount(match.group("pnum"))
            out += [number + "%", number]
        elif kind == "numunit":
            number = _canon_amount(match.group("unum"))
            unit = _unit(match.group("uunit"))
            out += [number, number + unit, *_word(unit)]
        elif kind == "secref":
            out.extend(_secref(match.group()))
        elif kind == "grouped":
            out.append(match.group().replace(",", ""))
    out.extend(statement_tokens(text))
    out.extend(t for noun in frequency_nouns(text) for t in _word(noun) if t not in out)
    return [token for token in out if len(token) <= MAX_TOKEN_CHARS]

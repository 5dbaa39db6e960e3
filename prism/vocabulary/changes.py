"""The words of a question that asks how a figure changed between two periods, and of one that asks for that change
in percent.

Regular-expression fragments (compiled by their readers, matched against the lower-cased question):

* :data:`CHANGE_RE` — a word naming a change ("What was the change in revenue …", "How much did net income
  decrease …", "the movement in provisions");
* :data:`PERCENT_CHANGE_RE` — the change asked for in percent: "percentage change", "% growth", "growth rate",
  "by what percentage", "in percent", "in %", and "percentage" anywhere but in "percentage of" (a share) and
  "percentage points" (a change of a percentage, in points);
* :data:`HOW_CHANGED_RE` — an open question about how a figure moved: "How did net income change from 2014 to
  2015?", "How has NIM evolved between Q1 FY25 and Q2 FY25?", "How did revenue in 2015 compare with 2014?" (the verb
  followed by a period, a preposition or the end: "How did the company grow revenue" asks for a means, not a figure);
* :data:`COMPARED_RE` — one period set against another: "compared with", "versus", "vs.", "relative to";
* :data:`FROM_TO_RE` — a span of two periods: "net income from 2014 to 2015", "from Q1 FY25 to Q2 FY25";
* :data:`NOT_A_CHANGE_RE` — a span that asks for each period's figure ("for each year from 2013 to 2015",
  "respectively") or for a compound rate over it ("revenue CAGR from FY2016 to FY2018"), not the change.
"""

from __future__ import annotations

CHANGE_WORDS = ("change", "changed", "increase", "increased", "decrease", "decreased", "difference", "decline",
                "declined", "rise", "risen", "rose", "fall", "fallen", "fell", "drop", "dropped", "grow", "grown",
                "grew", "growth", "movement")
"""Nouns and verbs that name a change of one figure between periods."""

CHANGE_RE = r"\b(?:" + "|".join(CHANGE_WORDS) + r")\b"

CHANGE_FAMILIES = (("grow", "grows", "grew", "grown", "growing", "growth"),
                   ("rise", "rises", "rose", "risen", "rising"), ("fall", "falls", "fell", "fallen", "falling"))
"""Forms of one change that stemming keeps apart (irregular verbs and their noun): a question's "grew" names a column
headed "YoY growth", "rose" one headed "Rise"."""

PERCENT_CHANGE_RE = (
    r"(?:\bpercent(?:age)?|%)\s*(?:change|increase|decrease|growth|decline|rise|fall|drop)"
    r"|\bgrowth\s+rate\b|\brate\s+of\s+(?:growth|change|increase|decrease|decline)\b"
    r"|\bin\s+(?:percent(?:age)?s?\b(?!\s+of\b)|per\s+cent\b|%)|\bby\s+what\s+percent(?:age)?\b"
    r"|\bhow\s+(?:much|many)\s+(?:percent\b|per\s+cent\b|%)"
    r"|\bpercentage\b(?!\s+(?:of|points?)\b)"
    r"|\bincrease\s*/\s*\(?decrease\)?\s+(?:in|of)\b.*\bpercent")

MOVE_VERBS = ("change", "changed", "changes", "move", "moved", "moves", "evolve", "evolved", "evolves", "develop",
              "developed", "develops", "shift", "shifted", "vary", "varied", "compare", "compared", "compares", "fare",
              "fared", "increase", "increased", "decrease", "decreased", "rise", "risen", "rose", "fall", "fallen",
              "fell", "decline", "declined", "drop", "dropped", "grow", "grown", "grew", "perform", "performed")
"""The verbs of "How did <figure> <verb> …" that ask how much a figure moved."""

_AFTER_VERB = (r"(?=\s*(?:\?|$|,)|\s+(?:from|between|over|in|during|since|compared|versus|vs|relative|against|with|"
               r"to|across|through|on|year|quarter|sequentially|yoy|qoq|fy|q[1-4]|h[12]|\d))")

HOW_CHANGED_RE = (r"^\s*how\s+(?:did|does|do|has|have|had|is|are|was|were)\b(?!\s+(?:much|many)\b)[^?]*?\b(?:"
                  + "|".join(MOVE_VERBS) + r")\b" + _AFTER_VERB)

COMPARED_RE = r"\bcompared?\s+(?:with|to|against)\b|\bversus\b|\bvs\b\.?|\brelative\s+to\b|\bas\s+against\b"

FROM_TO_RE = (r"\bfrom\s+(?:the\s+|fiscal\s+|year\s+|fy\s*|[qh][1-4]\s+)*'?\d{2,4}\b[^?]{0,25}?"
              r"\b(?:to|through|till|until)\b")

NOT_A_CHANGE_RE = (r"\beach\b|\bevery\b|\brespectively\b|\bper\s+(?:year|quarter)\b|\bbreak\s*down\b|\btrend\b"
                   r"|\bcagr\b|\bcompound(?:ed)?\s+annual")

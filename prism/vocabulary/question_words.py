"""How analysts write questions in shorthand, and the words that frame a question rather than name its figures.

* :data:`SHORTHAND` — informal abbreviations an analyst types ("avg", "opex", "YoY", "rev", "delta"), each with the
  words the question reader reads instead (matched as whole words, case-insensitively). Abbreviations that
  documents print too, and that their own expansion finds ("EBITDA", "NIM", "PAT"), live in
  :mod:`prism.vocabulary.abbreviations`; these are the ones documents seldom print.
* :data:`SYMBOLS` — comparison and arithmetic symbols written between words ("revenue > $5bn", "opex / revenue"),
  each with its words.
* :data:`FRAME_WORDS` — words that say what kind of answer is wanted or how the figures combine, never which figure
  ("what", "show", "compare", "between", "respectively"). The reader takes a question's remaining words, runs of them,
  for the figures it names (its *mentions*).

Sources: the Financial Times Lexicon and Investopedia's dictionary for the finance shorthand; the shorthand
analysts' notes use ("YoY", "QoQ", "bps", "opex", "capex") as SEC comment letters quote it.
"""

from __future__ import annotations

SHORTHAND: dict[str, str] = {
    "avg": "average", "avg.": "average", "mean": "average",
    "yoy": "year over year", "y/y": "year over year", "y-o-y": "year over year",
    "qoq": "quarter over quarter", "q/q": "quarter over quarter", "q-o-q": "quarter over quarter",
    "mom": "month over month",
    "opex": "operating expenses", "capex": "capital expenditure", "rev": "revenue", "revs": "revenue",
    "cogs": "cost of goods sold", "sg&a": "selling, general and administrative expenses",
    "r&d": "research and development", "d&a": "depreciation and amortization",
    "delta": "change", "chg": "change", "chng": "change", "diff": "difference", "incr": "increase",
    "decr": "decrease", "pct": "percent", "perc": "percent", "pp": "percentage points", "ppt": "percentage points",
    "pts": "points", "bp": "basis points", "bps": "basis points",
    "vs": "versus", "vs.": "versus", "v.": "versus", "b/w": "between", "btw": "between",
    "yr": "year", "yrs": "years", "qtr": "quarter", "qtrs": "quarters", "fy": "fiscal year",
    "amt": "amount", "amts": "amounts", "no.": "number", "num": "number", "nos": "numbers", "approx": "approximately",
    "mgmt": "management", "int": "interest", "exp": "expenses", "fcf": "free cash flow",
    "ocf": "operating cash flow", "gp": "gross profit", "op": "operating",
    "ni": "net income", "shr": "share", "shs": "shares", "eps": "earnings per share", "max": "maximum",
    "min": "minimum", "tot": "total", "combd": "combined", "cumul": "cumulative",
    "vol": "volume", "vols": "volumes", "txn": "transaction", "txns": "transactions",
    **{f"per-{unit}": f"per {unit}" for unit in ("share", "unit", "employee", "customer", "account", "user")},
}
"""Informal shorthand → the words the reader reads (whole words, any case). Ambiguous shorthand stays out: "Inc."
ends company names, "CFO" is an officer as often as cash from operations."""

SYMBOLS: dict[str, str] = {
    "<=": "at most", ">=": "at least", "≤": "at most", "≥": "at least", "<": "less than", ">": "greater than",
    "÷": "divided by", "/": "divided by", "+": "plus", "×": "times", "=": "equals", "&": "and", "→": "to",
    "->": "to", "~": "about", "≈": "about", "Δ": "change", "%Δ": "percentage change", "% Δ": "percentage change",
    "# of": "number of",
}
"""Symbols written between words (a ``/`` only between words with a space or letter on each side; ``%`` is a unit
the tokenizer reads, so it is kept)."""

PER_UNIT_SLASH: frozenset[str] = frozenset("share shares unit units employee employees customer customers account "
                                           "accounts user users".split())
"""Words that make a slash before them read "per" ("net income/share" is net income per share, as "$/share" is
written), not "divided by"."""

DIVIDE_VERBS: tuple[str, ...] = ("divide",)
"""Verbs of an imperative division written verb first: "divide A by B" reads "A divided by B"."""

PRIOR_PERIOD_PHRASES: dict[str, str] = {
    "year over year": "year", "year-over-year": "year", "year on year": "year", "year-on-year": "year",
    "from the prior year": "year", "over the prior year": "year", "from the previous year": "year",
    "from last year": "year", "from a year earlier": "year", "from a year ago": "year",
    "quarter over quarter": "quarter", "quarter-over-quarter": "quarter", "quarter on quarter": "quarter",
    "quarter-on-quarter": "quarter", "sequentially": "quarter",
}
"""Phrases that compare a period with the one before it without naming it ("revenue growth YoY in 2024": 2023 to
2024; "NIM QoQ in Q2 FY25": Q1 to Q2 FY25), and which period before: the same part of the year before (``year``) or
the quarter before (``quarter``)."""

EMBEDDED_POLAR: tuple[str, ...] = ("tell me whether", "tell me if", "say whether", "check whether", "check if",
                                   "confirm whether", "confirm if", "find out whether", "find out if", "verify whether",
                                   "verify if", "determine whether", "state whether", "whether")
"""Openings that ask a yes/no question in the imperative ("Tell me whether net income rose", "Check if the fee is
above ₹100")."""

ITEM_NOUNS: frozenset[str] = frozenset(
    "components component items item categories category types kinds elements breakdown parts constituents".split())
"""Nouns that name a table's or a group's items as such ("How many components …", "What items make up …"), not
any thing or figure of their own."""

FRAME_WORDS: frozenset[str] = frozenset(
    """what which who whom whose when where why how much many is are was were be been being do does did doing done
    has have had can could should would will shall may might must please tell show give list name find compute
    calculate work out determine estimate state report provide describe explain summarise summarize identify
    the a an of in on at for from to by with within into over under between across during since until till through
    and or versus against compared compare comparison relative as than then vs per each every both either
    respectively its their his her our this that these those it they there here all any some
    value values amount amounts figure figures number numbers sum combined together altogether
    change changes changed difference differences increase increased increases decrease decreased decreases
    growth grow grew grown rise rose risen fall fell fallen decline declined drop dropped move moved movement
    swing swung delta variance jump jumped shift shifted evolve evolved
    percentage percent percentages share portion proportion fraction ratio ratios times rate rates
    average mean median highest lowest largest smallest biggest greatest least most more less higher lower
    larger smaller bigger maximum minimum peak peaked trough top bottom best worst second third first last
    faster fastest slower slowest
    year years yearly annual annually quarter quarters quarterly month months period periods fiscal ended ending
    end beginning begin start date dates basis points point bps
    company company's companies firm group entity reported recorded recognised recognized stated disclosed
    over-year year-over-year approximately about roughly around exactly nearest decimal places place rounded
    divided plus minus equals up down did yes came come comes made make makes account accounted accounts
    contributed contribute contributes represent represented represents constitute constituted constitutes
    generated generate attributable related relating due expressed terms greater exceed exceeds exceeded
    exceeding above below least fewer excess rs inr usd eur gbp rupees rupee dollars dollar euros""".split()
) | ITEM_NOUNS
"""Words that frame a question (what is asked, how figures combine, when) and name no figure or line item."""

MEASURE_HEADS: frozenset[str] = frozenset(
    "fee fees charge charges rate rates limit limits cap caps amount amounts price prices cost costs rent rental "
    "balance balances margin margins ratio ratios score scores profit profits income revenue revenues loss losses "
    "payout dividend dividends volume volumes value values share percentage penalty penalties compensation mark-up "
    "markup mdr npa advances deposits book ebitda expenses assets liabilities growth yield return returns salary "
    "premium tenure threshold ceiling liability deposit expense asset payment contribution".split()
)
"""Head nouns that make a "what/which" question ask for a number (Li & Roth's NUM classes, COLING 2002)."""

GENERIC_FOCUS = "minimum maximum total average overall level figure key main major principal applicable"
"""Words of a question's focus that a passage need not repeat ("the minimum balance": "balance" suffices)."""

BOUND_NOUNS = ("balance liability fee charge penalty limit cap amount tenure age term exposure investment deposit "
               "payment contribution fund funds")
"""Nouns a "minimum"/"maximum" before them makes a rule's bound ("the minimum balance", "the maximum liability",
"the maximum amount of a collect request"), not the least or greatest figure of a series."""

FREQUENCIES: dict[str, tuple[str, ...]] = {
    "daily": ("day",), "weekly": ("week",), "monthly": ("month",), "quarterly": ("quarter",),
    "annual": ("year", "annum"), "annually": ("year", "annum"), "yearly": ("year", "annum"),
}
"""A frequency adjective and the nouns a document states it with after "per" ("daily limit" where the table's column
says "Per day", "annual fee" where the schedule says "per annum")."""

VALUE_NOUNS = ("fee charge rate limit cap amount price cost rent rental compensation value penalty ratio percentage "
               "share")
"""Head nouns that name the value itself ("IMPS charge": the ₹5.00 of the IMPS row is the charge; a table states
them once, in its title or column header)."""

RISE_WORDS: frozenset[str] = frozenset("grow grew grown growth increase increased rise rose risen improve improved "
                                       "climb climbed gain gained expand expanded up higher".split())
"""Words a yes/no question asks about a rise with ("Did revenue grow year over year?")."""

FALL_WORDS: frozenset[str] = frozenset("decline declined decrease decreased fall fell fallen drop dropped shrink "
                                       "shrank contract contracted down lower reduce reduced".split())
"""Words a yes/no question asks about a fall with ("Has the NPA ratio declined?")."""

DIRECTION_PREDICATES: frozenset[str] = frozenset(
    "up down higher lower rose fell grew declined increased decreased improved dropped gained shrank climbed "
    "expanded contracted greater more less bigger smaller".split())
"""Words that state a direction or a comparison as a predicate ("Net income up year over year?", "Net income 2024
greater than 2023?"): a question written as a statement with these is asked yes or no. Nouns that also name a
figure ("growth", "increase", "decline") are not among them: "Revenue growth 2024?" asks for the growth."""

WH_WORDS: frozenset[str] = frozenset("what which who whom whose when where why how".split())
"""Words that open an open question: a question holding one is not asked yes or no."""

MORE_WORDS: frozenset[str] = frozenset("greater more bigger larger".split())
LESS_WORDS: frozenset[str] = frozenset("less smaller fewer".split())
"""Comparatives that, between two periods and with no threshold ("Net income 2024 greater than 2023?"), ask
whether the figure rose (or fell)."""

MINUEND_WORDS: frozenset[str] = frozenset("minus exceed exceeds exceeded exceeding".split())
"""Words after which the figure named first is the one subtracted from ("A minus B", "by how much did A exceed B"):
a difference of two items written first less second, as is "how much higher was A than B" (a :data:`MORE_WORDS`
comparative, or "higher", before "than")."""

GAP_WORDS: frozenset[str] = frozenset("difference differences gap spread".split())
DIRECTED_WORDS: frozenset[str] = frozenset(
    "change changes changed increase increased decrease decreased grow grew growth decline declined rise rose fall "
    "fell movement move moved from minus less compared compare versus against relative".split())
"""A difference asked without a direction ("What is the difference in total costs between 2018 and 2019?", "the
difference between the high and low price") is the gap between two figures, the larger less the smaller, as an
analyst (and TAT-QA's annotators) read it; a question with a direction word ("the change", "increase", "from
2018 to 2019", "A minus B", "A as compared to B", "A versus B") asks for the signed movement."""

PERIOD_ABBREVIATIONS: frozenset[str] = frozenset("fy fys fq fqs cy ytd qtd mtd ttm ltm".split())
"""Abbreviations that name periods as a kind, without a number ("both FYs", "YTD", "TTM revenue"): never words a
passage must print (a filing writes "fiscal 2019", "Nine Months Ended"). Only "YTD" is also read as a duration
(:func:`prism.retrieval.periods.duration_hint`); the others name no period the reader uses."""

DURATION_NOUNS: frozenset[str] = frozenset("year years month months day days week weeks quarter quarters hour hours"
                                           .split())
"""Nouns of a length of time: "how many <noun>" asks a duration, not a count of things, and none of them names what
a value applies to ("the rate for the year …")."""

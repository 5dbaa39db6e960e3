"""Profiles of Reserve Bank of India and NPCI documents, read from their first page.

An RBI circular opens with its reference ("RBI/2025-26/13"; directions since 2024 add the department:
"RBI/DOR/2025-26/161"), the issuing department's reference and the date on the next line
("DOR.STR.REC.9/21.04.048/2025-26 April 01, 2025"), then the addressees and the subject ("Master Circular - ...",
"Master Direction - ...", "... Directions, 2025"). Notifications carry "Notification No. FEMA 401/2026-RB" instead.
The issuing department is named in the page footer ("Department of Regulation, Central Office") or by the code in
the references (DOR, FIDD, DGBA, FED, DOS, ...). NPCI circulars open with "NPCI/UPI/OC No. 37/2017-18
1st November 2017". pypdf and OCR put stray spaces into references ("RBI/2026 -2 7/78"); they are removed.
"""

from __future__ import annotations

import logging
import re

from prism.ingestion.profiles.text import Found, Pages, collapse, find_dates, source
from prism.types import ProfileSource
from prism.vocabulary import months

logger = logging.getLogger(__name__)

RBI = "Reserve Bank of India"
NPCI = "National Payments Corporation of India"
LETTERHEAD_LINES = 3
"""First-page lines an RBI letterhead is printed on (the Hindi name, "RESERVE BANK OF INDIA", the department)."""
RBI_DEPARTMENTS = {
    "DOR": "Department of Regulation",
    "DBR": "Department of Banking Regulation",
    "DOS": "Department of Supervision",
    "DBS": "Department of Banking Supervision",
    "FIDD": "Financial Inclusion and Development Department",
    "RPCD": "Rural Planning and Credit Department",
    "DGBA": "Department of Government and Bank Accounts",
    "FED": "Foreign Exchange Department",
    "DPSS": "Department of Payment and Settlement Systems",
    "DCM": "Department of Currency Management",
    "DCBR": "Department of Co-operative Bank Regulation",
    "UBD": "Urban Banks Department",
    "DNBR": "Department of Non-Banking Regulation",
    "DNBS": "Department of Non-Banking Supervision",
    "FMRD": "Financial Markets Regulation Department",
    "IDMD": "Internal Debt Management Department",
    "CEPD": "Consumer Education and Protection Department",
    "DEPR": "Department of Economic and Policy Research",
    "DOC": "Department of Communication",
}
"""RBI department codes as they appear in references → the department's name (rbi.org.in, "Departments")."""

_RBI_NAME = re.compile(r"RESERVE\s*BANK\s*OF\s*INDIA", re.IGNORECASE)
_RBI_REF = re.compile(r"\bRBI\s*/\s*(?:([A-Z]{2,6})\s*/\s*)?((?:1\s?9|2\s?0)\s?\d\s?\d)\s*-\s*(\d\s?\d)\s*/\s*(\d+)")
_DEPT_REF = re.compile(
    r"\b((?:[A-Z]{2,6}\s?\.\s?){1,6}(?:No\s?\.?\s?)?[A-Z]?-?\d+\s?\.?\s?/\s?\d{2}\s?\.\s?\d{2}\s?\.?\s?\d{3}\s?/\s?"
    r"\d{4}\s?-\s?\d{2})"
)
_OTHER_REF = re.compile(
    r"Notification\s+No\.?\s*(?P<notification>FEMA\s*\d+\s*(?:\([A-Z]+\))?\s*/\s*\d{4}\s*-\s*RB)"
    r"|(?P<apdir>A\.\s?P\.\s*\(DIR\s+Series\)\s+Circular\s+No\.?\s*\d+)"
    r"|(?P<md>[A-Z]{2,6}\s+Master\s+Direction\s+No\.?\s*\d+\s*/\s*\d{4}\s*-\s*\d{2})",
)
_DEPT_TEXT = re.compile(
    r"(Department\s+of\s+[A-Z][A-Za-z&,.' -]{3,60}?|(?:[A-Z][A-Za-z]+\s+){1,4}Department)\s*(?:\([A-Z]{2,6}\)\s*)?"
    r",\s*Central\s+Office"
    r"|\(\s*((?:[A-Z]+\s+){1,4}DEPARTMENT)\s*\)"
)
_RBI_TYPES = (
    ("rbi_notification", re.compile(r"Notification\s+No", re.IGNORECASE)),
    ("rbi_master_circular", re.compile(r"Master\s+Circular", re.IGNORECASE)),
    ("rbi_master_direction", re.compile(r"Master\s+Directions?|\bDirections\s*,?\s*(?:1\s?9|2\s?0)\s?\d\s?\d\b")),
    ("rbi_circular", re.compile(r"\bCircular\s+No", re.IGNORECASE)),
)
_NPCI_NAME = re.compile(r"NATIONAL\s*PAYMENTS\s*CORPORATION\s*OF\s*INDIA", re.IGNORECASE)
_NPCI_REF = re.compile(r"\bNPC[I1l]\s*/[^\n]{3,80}")
_MONTH_TAIL = re.compile(rf"\s+\S{{0,5}}\s*(?=(?:{months.NAME_RE})\b)", re.IGNORECASE)


def _squeeze_ref(raw: str) -> str:
    """A reference without the spaces pypdf put in ("RBI/ 2025- 26/ 05" → "RBI/2025-26/05")."""
    return re.sub(r"\s+", "", raw)


def is_rbi(pages: Pages) -> bool:
    """True when the first page names the Reserve Bank of India near its top or carries an RBI reference, or opens
    with an RBI department reference ("DPSS.CO.PD.No.S-112/02.14.003/2025-26")."""
    head = pages[0][1][:800] if pages else ""
    return bool(_RBI_NAME.search(head) or _RBI_REF.search(head) or _DEPT_REF.search(head[:300]))


def rbi_letterhead(pages: Pages) -> bool:
    """True when the first page is the bank's own: its name on one of the first :data:`LETTERHEAD_LINES`
    non-empty lines, or an RBI or department reference near the top (:func:`is_rbi` without the name further
    down, which a company's release may print: "an NBFC registered with the Reserve Bank of India")."""
    head = pages[0][1][:800] if pages else ""
    lines = [line for line in head.split("\n") if line.strip()][:LETTERHEAD_LINES]
    return bool(_RBI_NAME.search("\n".join(lines)) or _RBI_REF.search(head) or _DEPT_REF.search(head[:300]))


def is_npci(pages: Pages) -> bool:
    """True when the first page opens with an NPCI reference or the NPCI letterhead."""
    head = pages[0][1][:400] if pages else ""
    return bool(_NPCI_REF.search(head) or _NPCI_NAME.search(head))


def _department(pages: Pages, codes: list[str]) -> Found | None:
    for number, text in pages[:2]:
        m = _DEPT_TEXT.search(text)
        if m:
            name = collapse(m.group(1) or m.group(2)).rstrip(" ,")
            name = name if name != name.upper() else name.title().replace(" Of ", " of ").replace(" And ", " and ")
            return name.replace(" & ", " and "), source(number, text, m.start(), m.end())
    number, text = pages[0]
    for code in codes:
        if code in RBI_DEPARTMENTS:
            at = text.find(code)
            return RBI_DEPARTMENTS[code], source(number, text, max(at, 0), max(at, 0) + len(code))
    return None


def read_rbi(pages: Pages) -> tuple[dict[str, Found], list[str]]:
    """The profile fields of an RBI document and its aliases.

    Returns:
        ``(fields, aliases)``: fields among ``entity`` ("Reserve Bank of India, Department of Regulation"),
        ``type``, ``reference`` (the "RBI/..." reference, else the notification / circular number), ``date`` and
        ``period`` (both the ISO date on the reference line, else the first date of the first page); aliases are
        the bank's short name, the department and its code, and every reference.
    """
    number, text = pages[0]
    fields: dict[str, Found] = {}
    refs: list[Found] = []
    codes: list[str] = []
    anchor = 0
    m = _RBI_REF.search(text)
    if m:
        code_part = f"{m.group(1)}/" if m.group(1) else ""
        value = "RBI/" + code_part + _squeeze_ref(f"{m.group(2)}-{m.group(3)}/{m.group(4)}")
        refs.append((value, source(number, text, m.start(), m.end())))
        codes += [m.group(1)] if m.group(1) else []
        anchor = m.end()
    for pattern in (_DEPT_REF, _OTHER_REF):
        other = pattern.search(text, anchor if pattern is _DEPT_REF else 0)
        if other and other.start() < anchor + 400:
            raw = other.group(0) if pattern is _DEPT_REF else next(g for g in other.groups() if g)
            value = re.sub(r"\s*([/-])\s*", r"\1", collapse(raw)) if pattern is _OTHER_REF else _squeeze_ref(raw)
            refs.append((value, source(number, text, other.start(), other.end())))
            codes += [c for c in re.split(r"[.\s]+", raw) if c.isupper() and c != "CO"]
            anchor = max(anchor, other.start())
    if refs:
        fields["reference"] = refs[0]
    line_end = text.find("\n", anchor)
    dates = find_dates(text, anchor) if anchor else []
    dates = [d for d in dates if line_end < 0 or d[1] <= line_end] or find_dates(text)
    if dates:
        when, start, end = dates[0]
        fields["date"] = fields["period"] = (when.isoformat(), source(number, text, start, end))
    fields["type"] = _rbi_type(text, anchor, line_end, number)
    named = _department(pages, codes)
    entity = f"{RBI}, {named[0]}" if named else RBI
    fields["entity"] = (entity, named[1] if named else _name_source(pages))
    aliases = [RBI, "RBI"] + ([named[0]] if named else []) + [c for c in codes if c in RBI_DEPARTMENTS]
    return fields, aliases + [ref for ref, _ in refs]


def _name_source(pages: Pages) -> ProfileSource:
    number, text = pages[0]
    m = _RBI_NAME.search(text) or _RBI_REF.search(text) or _DEPT_REF.search(text)
    return source(number, text, m.start(), m.end()) if m else source(number, text, 0, 0)


def _rbi_type(text: str, anchor: int, line_end: int, number: int | None) -> Found:
    """The RBI document type: the reference line's own word ("Circular No.", "Notification No.", "Master
    Direction No.") first, else the earliest of "Master Circular", "Master Direction(s)" / "Directions, 2025",
    "Circular No." in the first 1,500 characters; ``other`` without any (an accessibility statement)."""
    line_start = text.rfind("\n", 0, anchor) + 1 if anchor else 0
    ref_line = text[line_start:line_end if line_end > 0 else len(text)] if anchor else ""
    for kind, pattern in (_RBI_TYPES[0], (_RBI_TYPES[2][0], re.compile(r"Master\s+Direction\s+No")), _RBI_TYPES[3]):
        m = pattern.search(ref_line)
        if m:
            return kind, source(number, text, line_start + m.start(), line_start + m.end())
    hits = [(m.start(), m.end(), kind) for kind, pattern in _RBI_TYPES for m in [pattern.search(text, 0, 1500)] if m]
    if hits:
        start, end, kind = min(hits)
        return kind, source(number, text, start, end)
    if anchor:
        return "rbi_circular", source(number, text, line_start, anchor)
    return "other", source(number, text, 0, min(len(text), 80))


def _npci_reference(raw: str) -> str:
    ref = collapse(raw)
    ref = re.sub(r"\s*/\s*", "/", ref)
    ref = re.sub(r"\bNPC[1l]\b", "NPCI", ref)
    ref = re.sub(r"\bUP[1l]\b|\bUPi\b", "UPI", ref)
    ref = re.sub(r"\b0C\b", "OC", ref)
    ref = re.sub(r"\bOC\s*No\.?\s*", "OC No. ", ref)
    return ref.strip(" ,.-")


def read_npci(pages: Pages) -> tuple[dict[str, Found], list[str]]:
    """The profile fields of an NPCI circular: ``entity`` (NPCI), ``type`` ``npci_circular``, ``reference`` (the
    text from "NPCI/" to the date on its line), ``date`` and ``period`` (that date, else the first date of the
    first page). Aliases: "NPCI" and the reference."""
    number, text = pages[0]
    fields: dict[str, Found] = {}
    m = _NPCI_REF.search(text)
    ref_dates = find_dates(text, m.start(), m.end()) if m else []
    if m:
        raw_end = ref_dates[0][1] if ref_dates else m.end()
        raw = text[m.start():raw_end]
        if not ref_dates:  # an OCR'd date that does not parse ("Igth September 2019") still ends the reference
            raw = _MONTH_TAIL.split(raw)[0]
        fields["reference"] = (_npci_reference(raw), source(number, text, m.start(), raw_end))
    dates = ref_dates or find_dates(text)
    if dates:
        fields["date"] = fields["period"] = (dates[0][0].isoformat(), source(number, text, dates[0][1], dates[0][2]))
    name = _NPCI_NAME.search(text) or m
    fields["entity"] = (NPCI, source(number, text, name.start(), name.end()) if name else source(number, text, 0, 0))
    fields["type"] = ("npci_circular", fields["entity"][1])
    return fields, ["NPCI"] + ([fields["reference"][0]] if "reference" in fields else [])

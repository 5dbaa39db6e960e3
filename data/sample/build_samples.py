#!/usr/bin/env python3
# ruff: noqa: E501  (the document sources below are prose and table rows, one paragraph per line)
"""Build Prism's built-in sample workspace: four fictional documents as PDFs with a real text layer.

Every document, bank, officer, brokerage, figure and reference number below is FICTIONAL, written for
Prism's demo and evaluation. The "master circular" is an illustrative specimen in the style of an Indian
regulator's circular; it is not, and does not reproduce, any real regulatory text, and its figures
deliberately differ in places from real regulation.

Usage::

    python data/sample/build_samples.py            # build the PDFs next to this script, then verify them
    python data/sample/build_samples.py --out DIR  # build into DIR instead
    python data/sample/build_samples.py --no-verify

Needs ``fpdf2`` (PDF writer; subsets the embedded TrueType font) and a DejaVu Sans TTF (regular + bold),
which has the Indian rupee sign ₹ (U+20B9). The font is looked for in, in order: the folder named by the
environment variable ``PRISM_SAMPLE_FONT_DIR``; the usual system font folders (Debian/Ubuntu package
``fonts-dejavu-core``); the copy that ships inside the ``matplotlib`` package. Verification needs ``pypdf``.

Output is deterministic: the same fpdf2 version and font files give byte-identical PDFs.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import importlib.util
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# ----------------------------------------------------------------------------------------------------------
# Font discovery
# ----------------------------------------------------------------------------------------------------------

FONT_REGULAR = "DejaVuSans.ttf"
FONT_BOLD = "DejaVuSans-Bold.ttf"
RUPEE = "\u20b9"


def _candidate_font_dirs() -> list[Path]:
    dirs: list[Path] = []
    env = os.environ.get("PRISM_SAMPLE_FONT_DIR")
    if env:
        dirs.append(Path(env))
    dirs += [
        Path("/usr/share/fonts/truetype/dejavu"),
        Path("/usr/share/fonts/dejavu"),
        Path("/usr/share/fonts/TTF"),
        Path("/usr/share/fonts/dejavu-sans-fonts"),
        Path("/usr/local/share/fonts"),
        Path.home() / ".fonts",
        Path.home() / ".local/share/fonts",
        Path("/Library/Fonts"),
        Path("C:/Windows/Fonts"),
    ]
    spec = importlib.util.find_spec("matplotlib")
    if spec and spec.origin:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return dirs


def _has_rupee(path: Path) -> bool:
    try:
        from fontTools.ttLib import TTFont  # fonttools is a dependency of fpdf2
    except ImportError:  # pragma: no cover - fpdf2 always brings it
        return True
    font = TTFont(str(path), lazy=True)
    try:
        return 0x20B9 in (font.getBestCmap() or {})
    finally:
        font.close()


def find_fonts() -> tuple[Path, Path]:
    """Return (regular, bold) DejaVu Sans paths that contain the ₹ glyph, or exit with a clear message."""
    tried: list[str] = []
    for d in _candidate_font_dirs():
        reg, bold = d / FONT_REGULAR, d / FONT_BOLD
        tried.append(str(d))
        if reg.is_file() and bold.is_file() and _has_rupee(reg) and _has_rupee(bold):
            return reg, bold
    sys.exit(
        "build_samples.py: cannot find DejaVu Sans (DejaVuSans.ttf and DejaVuSans-Bold.ttf, with the rupee "
        "sign U+20B9).\nLooked in:\n  " + "\n  ".join(tried) + "\nFix: `apt-get install -y fonts-dejavu-core`, "
        "or `pip install matplotlib` (ships DejaVu Sans), or set PRISM_SAMPLE_FONT_DIR to a folder holding "
        "both files."
    )


# ----------------------------------------------------------------------------------------------------------
# Tiny markup -> PDF renderer
# ----------------------------------------------------------------------------------------------------------
# Line-based markup used by the document sources below:
#   # Title                 big bold centred title
#   ^ text / ^^ text        centred line, normal / bold
#   ## Heading              section heading          ### Sub-heading   sub-section heading
#   - item                  bullet                   > note            small grey note
#   | a | b | c |           table rows (first row = header); "@widths 40 20 20" and "@align L R R" before it
#   @pagebreak              new page                 ---               horizontal rule
#   anything else           one paragraph per line; **bold** is honoured

BODY_PT = 9.6
LINE_H = 4.7


def _make_pdf_class():
    from fpdf import FPDF

    class SamplePDF(FPDF):
        header_left = ""
        header_right = ""
        footer_note = ""

        def header(self) -> None:
            self.set_font("DejaVu", "", 7.5)
            self.set_text_color(110, 110, 110)
            self.cell(0, 4, self.header_left, align="L")
            self.set_x(self.l_margin)
            self.cell(0, 4, self.header_right, align="R", new_x="LMARGIN", new_y="NEXT")
            self.set_draw_color(170, 170, 170)
            self.line(self.l_margin, self.get_y() + 0.8, self.w - self.r_margin, self.get_y() + 0.8)
            self.ln(5)
            self.set_text_color(0, 0, 0)

        def footer(self) -> None:
            self.set_y(-13)
            self.set_font("DejaVu", "", 7.5)
            self.set_text_color(110, 110, 110)
            if self.footer_note:
                self.cell(0, 4, self.footer_note, align="C", new_x="LMARGIN", new_y="NEXT")
            self.cell(0, 4, f"Page {self.page_no()} of {{nb}}", align="C")
            self.set_text_color(0, 0, 0)

    return SamplePDF


def render(doc: dict, out_path: Path, fonts: tuple[Path, Path]) -> None:
    from fpdf.fonts import FontFace

    SamplePDF = _make_pdf_class()
    pdf = SamplePDF(orientation="P", unit="mm", format="A4")
    pdf.add_font("DejaVu", "", str(fonts[0]))
    pdf.add_font("DejaVu", "B", str(fonts[1]))
    pdf.set_margins(18, 16, 18)
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.header_left = doc["header_left"]
    pdf.header_right = doc["header_right"]
    pdf.footer_note = doc.get("footer_note", "")
    pdf.set_title(doc["title"])
    pdf.set_author(doc["author"])
    pdf.set_subject("Fictional sample document written for the Prism demo and evaluation")
    pdf.set_keywords("Prism sample; fictional")
    pdf.set_creator("Prism data/sample/build_samples.py")
    pdf.set_creation_date(doc["date"])
    pdf.add_page()
    pdf.set_font("DejaVu", "", BODY_PT)

    lines = doc["source"].strip("\n").splitlines()
    i = 0
    para: list[str] = []
    widths: list[float] | None = None
    aligns: list[str] | None = None

    def flush_para() -> None:
        # Each source line is its own paragraph; a blank line after it adds a little more space.
        for n, text in enumerate(para):
            pdf.set_font("DejaVu", "", BODY_PT)
            pdf.multi_cell(0, LINE_H, text.strip(), markdown=True, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.6 if n == len(para) - 1 else 0.9)
        para.clear()

    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        if not line:
            flush_para()
            i += 1
            continue
        if line.startswith("|"):
            flush_para()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            ncol = len(rows[0])
            w = widths if widths and len(widths) == ncol else [1] * ncol
            al = aligns if aligns and len(aligns) == ncol else ["L"] * ncol
            pdf.set_font("DejaVu", "", BODY_PT - 1.2)
            head = FontFace(emphasis="BOLD", fill_color=(225, 230, 240))
            with pdf.table(
                col_widths=tuple(w),
                text_align=tuple(al),
                line_height=4.2,
                headings_style=head,
                padding=(0.8, 1.2, 0.8, 1.2),
                borders_layout="SINGLE_TOP_LINE" if doc.get("light_tables") else "ALL",
                first_row_as_headings=True,
            ) as table:
                for r in rows:
                    if len(r) != ncol:
                        raise ValueError(f"{doc['file']}: table row has {len(r)} cells, expected {ncol}: {r}")
                    row = table.row()
                    for c in r:
                        row.cell(c)
            pdf.ln(3)
            pdf.set_font("DejaVu", "", BODY_PT)
            widths = aligns = None
            continue
        if line.startswith("@widths"):
            flush_para()
            widths = [float(x) for x in line.split()[1:]]
        elif line.startswith("@align"):
            flush_para()
            aligns = line.split()[1:]
        elif line == "@pagebreak":
            flush_para()
            pdf.add_page()
        elif line == "---":
            flush_para()
            y = pdf.get_y() + 1
            pdf.set_draw_color(150, 150, 150)
            pdf.line(pdf.l_margin, y, pdf.w - pdf.r_margin, y)
            pdf.ln(3)
        elif line.startswith("# "):
            flush_para()
            pdf.set_font("DejaVu", "B", 14)
            pdf.multi_cell(0, 6.5, line[2:], align="C", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif line.startswith("^^ ") or line.startswith("^ "):
            flush_para()
            bold = line.startswith("^^ ")
            pdf.set_font("DejaVu", "B" if bold else "", BODY_PT + (0.6 if bold else 0))
            pdf.multi_cell(0, LINE_H + 0.3, line[3 if bold else 2 :], align="C", new_x="LMARGIN", new_y="NEXT")
        elif line.startswith("### "):
            flush_para()
            if pdf.get_y() > pdf.h - 40:
                pdf.add_page()
            pdf.ln(0.8)
            pdf.set_font("DejaVu", "B", BODY_PT + 0.4)
            pdf.multi_cell(0, LINE_H + 0.3, line[4:], align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(0.6)
        elif line.startswith("## "):
            flush_para()
            if pdf.get_y() > pdf.h - 45:
                pdf.add_page()
            pdf.ln(1.8)
            pdf.set_font("DejaVu", "B", BODY_PT + 2)
            pdf.multi_cell(0, LINE_H + 1, line[3:], align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif line.startswith("- "):
            flush_para()
            pdf.set_font("DejaVu", "", BODY_PT)
            pdf.set_x(pdf.l_margin + 4)
            pdf.multi_cell(0, LINE_H, "\u2022 " + line[2:], markdown=True, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(0.6)
        elif line.startswith("> "):
            flush_para()
            pdf.set_font("DejaVu", "", BODY_PT - 1.4)
            pdf.set_text_color(90, 90, 90)
            pdf.multi_cell(0, LINE_H - 0.6, line[2:], markdown=True, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.set_text_color(0, 0, 0)
            pdf.ln(1.5)
        else:
            para.append(line)
        i += 1
    flush_para()
    out_path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(out_path))


# ----------------------------------------------------------------------------------------------------------
# Document 1 — Meridian Bank UPI Operating Circular
# ----------------------------------------------------------------------------------------------------------

UPI_CIRCULAR = r"""
^^ MERIDIAN BANK LTD
^ Digital Banking & Payments Operations Department · Meridian Tower, Bandra Kurla Complex, Mumbai 400 051
---
# UPI Operating Circular
^^ Circular No. MBL/2025-26/OPS/017 · Dated 12 June 2025 · Effective 1 July 2025

**To:** All Branches, Zonal Offices, Contact Centres and the Digital Payments Operations Unit
**Subject:** Unified Payments Interface (UPI) – transaction limits, merchant charges, dispute resolution, fraud reporting and customer liability
**Supersedes:** Circular MBL/2024-25/OPS/042 dated 20 August 2024

## 1. Purpose and Scope
**1.1** This circular consolidates the operating rules for Unified Payments Interface (UPI) transactions in which Meridian Bank Ltd ("the Bank") acts as remitter bank, beneficiary bank, payment service provider (PSP) bank or merchant acquirer.

**1.2** It applies to every UPI handle issued by the Bank (@meridian and @mbl), to the Meridian Pay mobile application, and to the third-party applications for which the Bank is the PSP bank.

**1.3** This circular supersedes circular MBL/2024-25/OPS/042 dated 20 August 2024 and comes into force on 1 July 2025. Branches shall display the customer-facing summary (Annexure B) by 5 July 2025.

## 2. Regulatory Basis
**2.1** This circular implements, for the Bank, the Master Circular on Digital Payment Security Controls, Limited Liability of Customers and KYC for Payment Accounts, reference DPSS.CO.PD.No.S-112/02.14.003/2025-26 dated 1 April 2025 (the "Master Circular"). In particular: section 4.3.1 of this circular follows paragraph 4.4 of the Master Circular (cooling period); section 4.3.2 follows paragraph 9.2 (UPI Lite); section 6.2 follows Annex II (turnaround times); and section 7(b) follows paragraph 7.2 and Table 1 (limited liability of customers).

**2.2** Where this circular is silent, the UPI procedural guidelines of the National Payments Corporation of India (NPCI) and the Master Circular apply. Where the two differ, the stricter requirement prevails.

## 3. Definitions
**3.1** "Working day" means a day on which the Bank's head office in Mumbai is open for business.
**3.2** "T" is the calendar day on which a transaction is initiated; "T+1" is the next calendar day, and so on.
**3.3** "Verified merchant" means a merchant whose KYC and merchant category code (MCC) have been verified by its acquiring bank and which appears on the Bank's verified merchant list.
**3.4** "Cooling period" means the 24 hours following registration of UPI on a new device, a change of the registered mobile number, or a reset of the UPI PIN.
**3.5** "Small merchant" means a merchant whose UPI and card turnover in the previous financial year did not exceed ₹20 lakh.

## 4. Transaction Limits
**4.1** The limits below apply per customer per UPI handle and are enforced by the Bank's UPI switch. Third-party applications may apply lower limits, never higher ones. No branch may override a limit.

**4.2** Category-wise limits:
@widths 64 22 26 20
@align L R R C
| Category | Per transaction | Per day (aggregate) | Master Circular para |
| P2P transfers | ₹1,00,000 | ₹1,00,000 | 9.1 |
| P2M – general merchants | ₹1,00,000 | ₹2,00,000 | 9.1 |
| Tax payments to verified government merchants | ₹5,00,000 | ₹5,00,000 | 9.3 |
| Hospitals and educational institutions | ₹5,00,000 | ₹5,00,000 | 9.3 |
| IPO (ASBA) and retail government securities | ₹5,00,000 | ₹5,00,000 | 9.3 |
| Insurance premium and capital markets | ₹2,00,000 | ₹2,00,000 | 9.1 |
| Credit card bill payments (collections) | ₹2,00,000 | ₹2,00,000 | 9.1 |
| Credit line on UPI | ₹50,000 | ₹1,00,000 | 9.4 |
| UPI Lite (on-device wallet) | ₹500 | ₹4,000 (spends) | 9.2 |

**4.2.1** A customer may make at most 20 P2P transactions in any rolling 24 hours. P2M transactions are not subject to a count limit.

**4.2.2** A P2P collect request (a request to pay raised by another user) may not exceed ₹2,000, in line with paragraph 9.5 of the Master Circular. Collect requests above ₹2,000 are declined by the switch with reason code "U30-CL".

**4.3** Special limits.

**4.3.1** Cooling period. During the first 24 hours after a customer registers UPI on a new device, changes the registered mobile number or resets the UPI PIN, the aggregate of all outward UPI transactions is capped at ₹5,000. The cap applies across all categories, including P2M.

**4.3.2** UPI Lite. A single UPI Lite payment may not exceed ₹500, and the UPI Lite balance may not exceed ₹2,000 at any time. Payments within these limits need no UPI PIN. Total UPI Lite spends are capped at ₹4,000 per day. UPI Lite may be topped up only from the customer's own Meridian Bank account. A UPI Lite wallet with no transaction for 12 months is closed and its balance returned to the source account within 3 working days.

**4.3.3** Recurring mandates (UPI AutoPay). Debits up to ₹15,000 are processed without additional factor authentication (AFA). For mutual fund subscriptions, insurance premium and credit card bill payments the AFA exemption extends to ₹1,00,000 per debit. A pre-debit notification is sent at least 24 hours before each debit.

**4.3.4** Customer-set limits. Customers may lower their own daily UPI limit in the Meridian Pay app (Settings › UPI Limits) to as little as ₹1,000. A lowered limit takes effect immediately; an increase takes effect after 12 hours.

**4.4** Exceptions. Only the Head – UPI Operations may approve a customer-specific exception to section 4.2, for at most 30 days, recorded in the exceptions register.

## 5. Merchant Acquiring and MDR
**5.1** Merchant discount rate (MDR), exclusive of GST at 18%:
@widths 110 50
@align L R
| Payment instrument and merchant segment | MDR |
| UPI P2M debited from a bank account – all merchants | Nil (0%) |
| RuPay credit card on UPI – small merchant, transaction up to ₹2,000 | Nil (0%) |
| RuPay credit card on UPI – all other transactions | 1.50% |
| PPI (wallet) on UPI, transaction above ₹2,000 – general merchants | 1.10% |
| PPI (wallet) on UPI, transaction above ₹2,000 – fuel | 0.50% |
| PPI (wallet) on UPI, transaction above ₹2,000 – education, agriculture, utilities | 0.70% |

**5.2** Settlement. Merchants are credited on T+1 by 11:00 a.m. Merchants enrolled in "Meridian Instant Settle" are settled on the same day in two cycles (1:00 p.m. and 7:00 p.m.) for a fee of 0.10% of the settled value.

**5.3** Devices. The rental for a Meridian soundbox is ₹125 per month, waived in any month in which the merchant's UPI collections are ₹50,000 or more.

**5.4** Merchant KYC. A small merchant with UPI collections up to ₹50,000 per month may be onboarded with minimum KYC (PAN or Form 60 and one officially valid document). Above ₹50,000 per month, full KYC and a site visit within 30 days of onboarding are mandatory.

## 6. Dispute Resolution and Chargebacks
**6.1** Channels. Customers may raise a UPI dispute in the Meridian Pay app (Help › UPI Dispute), at any branch, or through the 24x7 toll-free contact centre 1800-210-4455. Every dispute receives a complaint number by SMS immediately.

**6.2** Turnaround times for failed transactions (as per Annex II of the Master Circular). Compensation is credited automatically, without any claim by the customer.
@widths 70 40 50
| Scenario | Turnaround time (TAT) | Compensation if TAT is breached |
| P2P: customer debited, beneficiary not credited | Auto-reversal by T+1 | ₹100 per day of delay beyond T+1 |
| P2M: customer debited, merchant not credited | Auto-reversal by T+5 | ₹100 per day of delay beyond T+5 |
| Beneficiary bank unable to credit the beneficiary | Return to remitter by T+1 | ₹100 per day of delay beyond T+1 |
| UPI Lite top-up debited, wallet not loaded | Reversal by T+1 | ₹100 per day of delay beyond T+1 |

**6.3** Chargebacks where the Bank is the remitter bank.
**6.3.1** A customer may raise a dispute on a P2M transaction within 90 days of the transaction date.
**6.3.2** The Bank raises the chargeback on the UPI dispute redressal system within 3 working days of receiving the customer's complaint.
**6.3.3** The beneficiary bank must respond within 5 working days; a chargeback with no response is deemed accepted.
**6.3.4** If a chargeback is rejected, the Bank may raise pre-arbitration within 30 days of the rejection, and arbitration within 45 days of the pre-arbitration decision.

**6.4** Goodwill credit. For a disputed P2M transaction of up to ₹10,000, a customer whose account is at least 6 months old and who has had no goodwill credit in the previous 12 months receives a provisional credit within 2 working days. It is reversed, after 5 days' notice, if the chargeback finally fails.

**6.5** Where the Bank is the beneficiary bank, it responds to an incoming chargeback within 4 working days (an internal target one working day tighter than the network's 5 working days).

**6.6** Escalation. A complaint not resolved within 30 days is escalated automatically to the Principal Nodal Officer. A customer whose complaint is rejected, or not resolved within 30 days, may approach the Ombudsman under the Integrated Ombudsman Scheme.

## 7. Fraud Reporting and Customer Liability
**7(a) Reporting channels.** Customers can report an unauthorised UPI transaction 24x7 through (i) the "Block UPI" button on the Meridian Pay home screen, (ii) the toll-free number 1800-210-4455, (iii) any branch during business hours, and (iv) the national cyber-fraud helpline 1930. Reporting through the Bank blocks the UPI handle within 15 minutes.

**7(b) Customer liability.** Following paragraph 7.2 of the Master Circular:
- Zero liability where the customer reports a third-party breach within 3 working days of receiving the Bank's transaction alert, and in every case of contributory fraud or negligence by the Bank, however late it is reported.
- Limited liability where the customer reports within 4 to 10 working days: the lower of the transaction value and ₹3,000 for BSBD accounts; ₹8,000 for other savings accounts, and for credit cards with a limit up to ₹5 lakh; ₹20,000 for all other accounts, and for credit cards with a limit above ₹5 lakh.
- Reports after 10 working days are decided case by case by the Bank's Customer Protection Committee, chaired by the Chief Operating Officer, within 30 days.
- Where the loss is due to the customer's own negligence (for example, sharing the UPI PIN or an OTP), the customer bears the entire loss until the Bank is notified; the Bank bears any loss after notification.

**7(c) Shadow credit and resolution.** The amount of an unauthorised transaction is credited to the customer's account (shadow credit) within 7 working days of notification, with value date of the unauthorised transaction, as required by paragraph 7.4 of the Master Circular. The complaint must be resolved and liability established within 60 days of receipt (paragraph 7.5); otherwise the customer is compensated as if liability were zero.

**7(d) Internal and regulatory reporting.** Every suspected fraud of ₹1 lakh and above is reported to the Fraud Risk Management Group (FRMG) within 24 hours of detection. A fraud of ₹1 crore and above is reported the same day to the Chief Risk Officer and to the Special Committee of the Board for Monitoring of Large Value Frauds. Frauds are reported to the regulator within 7 days of classification (Master Circular paragraph 10.2). A cyber security incident affecting the UPI switch is reported to the Chief Information Security Officer within 1 hour and to CERT-In and the regulator within 6 hours of detection.

**7(e) Mule account controls.** An account that receives UPI credits from more than 25 distinct remitters within 24 hours, or inward UPI credits above ₹5 lakh within 7 days of opening, is flagged for enhanced due diligence; its debits are frozen pending a review completed within 48 hours.

**7(f) FY2025 experience.** In FY2025 the Bank received 4,812 complaints of unauthorised UPI transactions with a reported value of ₹21.7 crore, of which ₹9.3 crore was recovered or placed under lien.

## 8. Operational Controls and Service Levels
**8.1** Reconciliation. UPI switch logs are reconciled daily with the NPCI settlement files (T+0). Any unreconciled entry above ₹10,000 is escalated to the Head – UPI Operations by T+1.

**8.2** Service levels. Monthly switch uptime of at least 99.95%; technical decline rate below 0.80%; 95th-percentile switch response time under 2 seconds.

**8.3** Planned downtime is notified to customers at least 48 hours in advance, is scheduled between 00:30 and 04:30 hours, and may not exceed 2 hours in a calendar month.

**8.4** UPI transaction logs are retained for 10 years.

## 9. Roles and Responsibilities
@widths 56 44 80
| Role | Officer | Responsibility under this circular |
| Chief Operating Officer | Ms. Kavita Raghunathan | Owner of this circular; chairs the Customer Protection Committee |
| Head – UPI Operations | Mr. Arjun Mehta | Limits, UPI switch, reconciliation, exceptions under section 4.4 |
| Principal Nodal Officer | Ms. Sunita Iyer | Complaints escalated after 30 days (section 6.6) |
| Chief Information Security Officer | Mr. Rohan Deshpande | Cyber incidents and CERT-In reporting (section 7(d)) |
| Head – Fraud Risk Management Group | Mr. Farhan Qureshi | Fraud reporting, mule account reviews (sections 7(d), 7(e)) |
| Chief Risk Officer | Mr. Rajesh Subramanian | Large value frauds of ₹1 crore and above |

## 10. Effective Date and Review
**10.1** This circular is effective from 1 July 2025.
**10.2** It is reviewed annually by the Operational Risk Management Committee; the next review is due by 30 June 2026.

Sd/-
**Kavita Raghunathan**, Chief Operating Officer, Meridian Bank Ltd

## Annexure A – UPI Volumes Processed by Meridian Bank
**A.1** In FY2024 Meridian Bank processed a total UPI transaction volume of 612 crore transactions worth ₹8.4 lakh crore.

**A.2** Annual and quarterly UPI volumes (remitter, beneficiary and PSP transactions, net of technical declines):
@widths 48 33 33 33 33
@align L R R R R
| Period | Volume (crore transactions) | Value (₹ lakh crore) | YoY volume growth | Technical decline rate |
| FY2022 | 238 | 3.90 | – | 1.12% |
| FY2023 | 401 | 5.90 | 68.5% | 0.94% |
| FY2024 | 612 | 8.40 | 52.6% | 0.75% |
| FY2025 | 787 | 10.50 | 28.6% | 0.63% |
| Q1 FY25 (Apr–Jun 2024) | 181 | 2.41 | 35.1% | 0.65% |
| Q2 FY25 (Jul–Sep 2024) | 189 | 2.52 | 31.3% | 0.62% |
| Q3 FY25 (Oct–Dec 2024) | 203 | 2.71 | 28.5% | 0.63% |
| Q4 FY25 (Jan–Mar 2025) | 214 | 2.86 | 21.6% | 0.61% |

**A.3** The average ticket size was ₹1,373 in FY2024 and ₹1,334 in FY2025. In FY2024, P2M transactions were 61% of volume but 34% of value; P2P transactions were 39% of volume and 66% of value.

## Annexure B – Summary of Key Timelines
@widths 112 48
| Event | Timeline |
| Cooling-period cap of ₹5,000 after new device / mobile number / PIN reset (4.3.1) | First 24 hours |
| P2P failed transaction auto-reversal (6.2) | T+1 |
| P2M failed transaction auto-reversal (6.2) | T+5 |
| Customer raises a P2M dispute (6.3.1) | Within 90 days |
| Bank raises chargeback (6.3.2) | 3 working days |
| Beneficiary bank responds to chargeback (6.3.3) | 5 working days |
| Pre-arbitration / arbitration (6.3.4) | 30 days / 45 days |
| Goodwill credit up to ₹10,000 (6.4) | 2 working days |
| Escalation to Principal Nodal Officer (6.6) | After 30 days |
| Shadow credit of unauthorised transaction (7(c)) | 7 working days |
| Resolution and liability established (7(c)) | 60 days |
| Fraud of ₹1 lakh and above to FRMG (7(d)) | 24 hours |
| Cyber incident to CERT-In and regulator (7(d)) | 6 hours |
| Mule account review (7(e)) | 48 hours |
| Planned downtime notice (8.3) | 48 hours in advance |
"""

# ----------------------------------------------------------------------------------------------------------
# Document 2 — Q2 FY25 earnings call transcript
# ----------------------------------------------------------------------------------------------------------

EARNINGS_CALL = r"""
^^ MERIDIAN BANK LTD
# Q2 FY25 Earnings Conference Call – Transcript
^ Monday, 21 October 2024, 4:00 p.m. IST · Results for the quarter ended 30 September 2024
---
**Management participants:** Mr. Vikram Nair – Managing Director & CEO; Ms. Ananya Kulkarni – Chief Financial Officer; Mr. Rajesh Subramanian – Chief Risk Officer; Ms. Meera Pillai – Group Head, Digital Banking & Payments.

**Analysts who asked questions:** Ms. Priya Venkataraman – Kestrel Securities; Mr. Aditya Bhandari – Northgate Capital Research; Mr. Sameer Khanna – Bluewater Institutional Equities; Ms. Neha Joshi – Arcadia Asset Management; Mr. Karthik Rao – Saffron Lane Research.

**Moderator:** Ladies and gentlemen, good day and welcome to the Meridian Bank Q2 FY25 earnings conference call. All participant lines are in listen-only mode. Please note that this conference is being recorded. Certain statements on this call may be forward-looking; actual results may differ materially. I now hand the conference over to Mr. Vikram Nair, MD and CEO. Thank you, and over to you, sir.

## Opening remarks
**Vikram Nair (MD & CEO):** Thank you, and good afternoon, everyone. The Board approved our results on Saturday, 19 October 2024. I will cover the highlights; Ananya will take you through the financials and Rajesh through asset quality.

Our gross advances grew 15.1% year on year to ₹3,84,250 crore, and deposits grew 13.6% to ₹4,41,600 crore. Net profit for the quarter was ₹2,146 crore, up 9.8% from ₹1,955 crore in Q2 FY24. Return on assets was 1.52% and return on equity 15.1%, both annualised.

We opened 48 branches this quarter, taking the network to 1,642 branches; that is 61 branches in the first half against our plan of 180 for the full year FY25.

On digital, we processed 189 crore UPI transactions worth ₹2.52 lakh crore in Q2, a volume growth of 31% over Q2 FY24. For the first half, that is 370 crore UPI transactions. Our UPI technical decline rate improved to 0.62% from 0.65% in Q1. Meridian Pay now has 94 lakh monthly active users, active UPI Lite wallets reached 18.6 lakh, and 96% of our customers' financial transactions are now digital.

## Financial performance
**Ananya Kulkarni (CFO):** Thank you, Vikram. Net interest income was ₹4,862 crore, up 11.4% year on year and 2.8% quarter on quarter. Net interest margin was 3.62%, down 6 basis points from 3.68% in Q1 and 19 basis points from 3.81% a year ago. The compression reflects deposit repricing: our cost of deposits rose 8 basis points sequentially to 5.94%, while the yield on advances was broadly stable at 9.86%.

Other income was ₹1,914 crore, of which core fee income was ₹1,528 crore, up 14.2% year on year. Operating expenses were ₹3,205 crore, up 9.0%, and the cost-to-income ratio improved to 47.3% from 47.5% in Q1. Operating profit was ₹3,571 crore. Provisions and contingencies were ₹702 crore, which includes a credit cost of 0.58% of average advances, annualised.

Our CASA ratio was 38.4%, compared with 39.1% in Q1 and 40.7% in Q2 FY24. The capital adequacy ratio was 16.8%, with CET1 at 14.2%. The average liquidity coverage ratio for the quarter was 118% and the loan-to-deposit ratio was 87.0%.

## Asset quality
**Rajesh Subramanian (CRO):** Thank you, Ananya. Gross NPA was 1.74%, or ₹6,686 crore, against 1.79% in Q1. Net NPA was 0.46% against 0.49%, and the provision coverage ratio rose to 73.8%. Gross slippages were ₹1,126 crore, an annualised slippage ratio of 1.22%. Recoveries and upgrades were ₹642 crore and write-offs ₹429 crore. The restructured book is 0.21% of advances, and SMA-1 plus SMA-2 together are 0.48%.

Unsecured retail loans, that is personal loans and credit cards, are 15.8% of the book against an internal ceiling of 17%. Gross NPA was 2.1% in personal loans and 3.4% in credit cards.

On payments fraud, customers reported unauthorised UPI transactions of ₹5.6 crore in Q2, about 0.22 basis points of UPI value. 96% of these complaints were resolved within 10 working days. In the first half we froze 11,240 suspected mule accounts.

**Moderator:** Thank you. We will now begin the question-and-answer session. The first question is from Ms. Priya Venkataraman of Kestrel Securities.

## Question-and-answer session
**Priya Venkataraman (Kestrel Securities):** Thanks for the opportunity. Two questions. First, how do you see margins evolving if the policy rate is cut in the second half? Second, the CASA ratio has fallen by 230 basis points in a year. Where does it settle?

**Ananya Kulkarni (CFO):** On margins, 42% of our loan book is linked to the repo rate, 31% to MCLR and 27% is fixed rate. A 25 basis point repo cut would take about 5 basis points off NIM in the first quarter after the cut, before deposit repricing catches up. We are retaining our FY25 NIM guidance of 3.55% to 3.65%. On CASA, the shift towards term deposits is slowing. We expect the ratio to stabilise at 38% to 39% for the rest of FY25; retail deposits, that is deposits below ₹3 crore, are 81% of our total deposits.

**Priya Venkataraman (Kestrel Securities):** And the credit card business?

**Meera Pillai (Digital Banking & Payments):** We had 41.2 lakh cards in force at the end of September and card spends of ₹14,850 crore in the quarter. RuPay credit cards on UPI contributed ₹2,380 crore of those spends.

**Moderator:** The next question is from Mr. Aditya Bhandari of Northgate Capital Research.

**Aditya Bhandari (Northgate Capital Research):** Rajesh, are you seeing stress in unsecured retail, and what is the outlook for credit cost?

**Rajesh Subramanian (CRO):** We are seeing elevated slippages in small-ticket personal loans below ₹50,000, which is why we tightened underwriting in June. Our approval rate for new-to-bank personal loan applicants came down from 34% to 27%. The card portfolio is stable. We are retaining our FY25 credit cost guidance of 0.55% to 0.65%.

**Aditya Bhandari (Northgate Capital Research):** What is your microfinance exposure?

**Rajesh Subramanian (CRO):** Microfinance loans are ₹7,300 crore, or 1.9% of advances, all within our agri and rural segment. Collection efficiency there was 98.1% in September.

**Moderator:** The next question is from Mr. Sameer Khanna of Bluewater Institutional Equities.

**Sameer Khanna (Bluewater Institutional Equities):** UPI volumes are growing 30% plus, but UPI person-to-merchant payments from bank accounts carry zero MDR. How do you monetise UPI, and what does it cost you?

**Meera Pillai (Digital Banking & Payments):** UPI itself is a customer acquisition and deposit franchise for us. Monetisation comes through three routes: RuPay credit cards on UPI, where merchants pay an MDR of 1.5% outside the small-merchant exemption; credit lines on UPI, where we disbursed ₹1,140 crore in Q2; and merchant services such as soundboxes and same-day settlement. Digital payments fees were ₹212 crore in Q2, or 13.9% of fee income. Our cost per UPI transaction is about 14 paise, and switch uptime was 99.97% in the quarter. We will invest about ₹310 crore over two years in a new UPI switch that can handle 25,000 transactions per second.

**Sameer Khanna (Bluewater Institutional Equities):** Is there a market share number?

**Meera Pillai (Digital Banking & Payments):** As a remitter bank, our share of national UPI volumes was about 4.2% in Q2.

**Moderator:** The next question is from Ms. Neha Joshi of Arcadia Asset Management.

**Neha Joshi (Arcadia Asset Management):** Could you give the full-year guidance for loan and deposit growth, and is the Board considering an interim dividend?

**Ananya Kulkarni (CFO):** For FY25 we guide loan growth of 15% to 16% and deposit growth of 14% to 15%, and we want to keep the loan-to-deposit ratio below 88%. Return on assets should be at least 1.5% for the year. On the dividend, the Board has not considered an interim dividend; our policy is to declare one dividend a year, with the annual results.

**Moderator:** The next question is from Mr. Karthik Rao of Saffron Lane Research.

**Karthik Rao (Saffron Lane Research):** With 180 branches planned, how should we think about operating expenses?

**Vikram Nair (MD & CEO):** We expect opex growth of 10% to 11% in FY25. New branches break even in about 30 months. We are targeting a cost-to-income ratio below 46% by FY27, helped by the fact that 96% of financial transactions are digital.

**Karthik Rao (Saffron Lane Research):** One last one: any change in the technical decline target for UPI?

**Meera Pillai (Digital Banking & Payments):** Our internal ceiling remains 0.80%; we were at 0.62% this quarter and aim to be below 0.60% by March 2025.

**Moderator:** That was the last question. I now hand the conference back to Mr. Vikram Nair for closing comments.

**Vikram Nair (MD & CEO):** Thank you all for joining. To summarise: 15.1% loan growth, a 3.62% margin within guidance, improving asset quality with gross NPA at 1.74%, and a digital franchise that processed 189 crore UPI transactions this quarter. Our investor relations team, led by Mr. Sandeep Arora, is available for follow-up questions. Thank you.

**Moderator:** On behalf of Meridian Bank Ltd, that concludes this conference. Thank you for joining us; you may now disconnect your lines.

> This transcript has been edited for readability. Figures are unaudited, on a standalone basis. Fictional document written for the Prism demo; Meridian Bank Ltd and all persons and firms named are fictional.
"""

# ----------------------------------------------------------------------------------------------------------
# Document 3 — Illustrative RBI-style master circular
# ----------------------------------------------------------------------------------------------------------

MASTER_CIRCULAR = r"""
^^ ILLUSTRATIVE SPECIMEN – NOT AN OFFICIAL REGULATORY DOCUMENT
^ Department of Payment and Settlement Systems (DPSS), Central Office, Mumbai
---
^ DPSS.CO.PD.No.S-112/02.14.003/2025-26 · April 1, 2025

The Chairpersons / Managing Directors & CEOs of all Scheduled Commercial Banks (including Regional Rural Banks), Small Finance Banks, Payments Banks, Urban Co-operative Banks and authorised non-bank Prepaid Payment Instrument (PPI) issuers

Madam / Dear Sir,

# Master Circular – Digital Payment Security Controls, Limited Liability of Customers and KYC for Payment Accounts

## 1. Introduction
**1.1** This Master Circular consolidates the instructions on security of digital payment transactions, the liability of customers in unauthorised electronic banking transactions, and know-your-customer (KYC) requirements for payment accounts, as they stood on March 31, 2025.
**1.2** The circulars consolidated here are listed in Annex III and stand repealed from the date of this Master Circular.

## 2. Applicability
**2.1** The instructions apply to all regulated entities (REs) addressed above.
**2.2** They cover (a) remote or online payment transactions: internet banking, mobile banking, card-not-present transactions, UPI and PPI transactions; and (b) face-to-face or proximity transactions: ATM, point-of-sale (POS) and QR-code based payments.
**2.3** The Master Circular comes into force immediately, except paragraphs 4.4 and 9.2, which come into force on July 1, 2025.

## 3. Definitions
**3.1** "Additional factor of authentication" (AFA) means a factor of authentication, such as a PIN, password, biometric or device-bound token, in addition to the primary credential.
**3.2** "Working day" means a day on which the branch or office of the RE that maintains the customer's account is open for business.
**3.3** "Unauthorised electronic banking transaction" means a debit to a customer's account, card or PPI that the customer did not authorise.
**3.4** "Date of reporting" means the date on which the customer's notification is received by the RE through any of the channels under paragraph 5.1.

## 4. Authentication and Security Controls
**4.1** All digital payment transactions shall be authenticated with AFA, except: (a) contactless card transactions up to ₹5,000 per transaction; (b) UPI Lite transactions within the limits in paragraph 9.2; and (c) recurring e-mandate debits up to ₹15,000, or up to ₹1,00,000 for mutual fund subscriptions, insurance premium and credit card bill payments.
**4.2** Mobile banking and UPI applications shall be bound to the customer's device and SIM. Re-binding on a change of SIM or device requires fresh AFA, and an alert shall be sent to the registered mobile number within 1 hour.
**4.3** An SMS alert shall be sent for every debit, and an email alert wherever an email address is registered. Each alert shall carry a "not me" link or number for reporting the transaction.
**4.4** Cooling period: for the first 24 hours after registration on a new device, a change of the registered mobile number, or a reset of credentials, the aggregate of outward transactions shall not exceed ₹5,000.
**4.5** REs shall run real-time fraud risk monitoring on all digital channels, decline transactions scored as high risk, and review their fraud models at least once every 6 months.
**4.6** Payment systems shall undergo an annual information systems audit by a CERT-In empanelled auditor. Vulnerabilities rated critical shall be closed within 30 days and those rated high within 60 days.

## 5. Reporting Channels for Customers
**5.1** REs shall give customers 24x7 access through at least three channels (for example website, phone banking, SMS, email, IVR, a dedicated toll-free number, and the branch) to report unauthorised transactions, including a "report fraud" option on the home screen of their mobile application.
**5.2** The RE shall immediately acknowledge each report by SMS and email with a complaint number, recording the date and time of receipt.
**5.3** REs shall not offer electronic transactions, other than ATM cash withdrawals, to customers who have not registered a mobile number.

## 6. Reporting of Unauthorised Transactions by Customers
**6.1** REs shall ask customers to notify them of any unauthorised electronic banking transaction at the earliest, after its occurrence.
**6.2** Customers shall be informed that the longer the time taken to notify the RE, the higher the risk of loss to the RE and to the customer.

## 7. Limited Liability of Customers
**7.1 Zero liability.** A customer shall have zero liability where the unauthorised transaction occurs due to (a) contributory fraud, negligence or deficiency on the part of the RE, irrespective of whether the customer reports it; or (b) a third-party breach where the deficiency lies neither with the RE nor with the customer but elsewhere in the system, and the customer notifies the RE within 3 working days of receiving the communication about the transaction.

**7.2 Limited liability.** (a) Where the loss is due to the customer's negligence, such as sharing payment credentials, the customer bears the entire loss until the unauthorised transaction is reported to the RE; any loss occurring after reporting is borne by the RE. (b) In a third-party breach reported within 4 to 10 working days of receiving the communication, the customer's liability is limited to the transaction value or the amount in Table 1, whichever is lower. (c) For reports after 10 working days, the customer's liability is determined under the RE's Board-approved policy.

**Table 1 – Maximum liability of a customer under paragraph 7.2(b)**
@widths 130 44
@align L R
| Type of account | Maximum liability |
| Basic Savings Bank Deposit (BSBD) accounts | ₹3,000 |
| All other savings bank accounts; full-KYC PPIs; current, cash credit and overdraft accounts of MSMEs; current, cash credit and overdraft accounts of individuals with an annual average balance or limit up to ₹25 lakh; credit cards with a limit up to ₹5 lakh | ₹8,000 |
| All other current, cash credit and overdraft accounts; credit cards with a limit above ₹5 lakh | ₹20,000 |

**Table 2 – Summary of customer liability**
@widths 87 87
| Time taken to report, from receipt of the communication | Customer's liability |
| Within 3 working days | Zero liability |
| 4 to 10 working days | Transaction value or Table 1 amount, whichever is lower |
| Beyond 10 working days | As per the RE's Board-approved policy |

**7.3** The number of working days in Table 2 is counted from the working day after the date on which the customer received the communication from the RE.
**7.4** On being notified, the RE shall credit the amount involved to the customer's account (shadow reversal) within 7 working days, with value date of the unauthorised transaction, without waiting for any insurance claim to be settled.
**7.5** The RE shall resolve the complaint and establish the customer's liability, if any, within 60 days of receipt. If it does not, the customer shall be compensated as under paragraph 7.1 or 7.2.
**7.6** The burden of proving customer liability in an unauthorised transaction lies on the RE.
**7.7** A customer shall not lose interest on a debit card or savings account, or bear interest on a credit card, for the disputed amount while the complaint is pending.

## 8. KYC for Payment Accounts and PPIs
**8.1** Small PPIs issued on minimum details: loading up to ₹10,000 per month and ₹1,20,000 per financial year, with an amount outstanding of at most ₹10,000 at any time. They shall be converted to full KYC within 18 months of issue, failing which no further credit is permitted.
**8.2** Full-KYC PPIs: the amount outstanding shall not exceed ₹2,00,000 at any time.
**8.3** Periodic updation of KYC: at least once every 2 years for high-risk customers, once every 7 years for medium-risk customers and once every 10 years for low-risk customers.
**8.4** Video-based customer identification (V-CIP) is permitted, provided the session is recorded, a live photograph is captured and the customer's geo-location is within India.
**8.5** Where there is no change in KYC information, a self-declaration through the registered email, registered mobile number, ATM or digital channel is sufficient.
**8.6** An account whose KYC is not updated within 90 days of the due date, after at least three reminders, shall be partially frozen: credits are allowed, and debits other than those for loan repayment are blocked.

## 9. UPI-Specific Provisions
**9.1** The default per-transaction limit for UPI is ₹1,00,000, and ₹2,00,000 for capital markets, collections (including credit card bills), insurance and foreign inward remittances. REs may set lower limits.
**9.2** UPI Lite: a single UPI Lite transaction may be up to ₹500 and may be processed without AFA; the UPI Lite balance shall not exceed ₹2,000 at any time; total UPI Lite spends are capped at ₹4,000 per day.
**9.3** A per-transaction limit of ₹5,00,000 applies to payments to verified merchants for tax payments, hospitals and educational institutions, IPO subscriptions and retail subscriptions to government securities.
**9.4** Pre-sanctioned credit lines may be linked to UPI, with a per-transaction ceiling of ₹50,000.
**9.5** P2P collect requests shall not exceed ₹2,000 per request.

## 10. Fraud Reporting
**10.1** Every RE shall have a Board-approved fraud risk management policy, reviewed at least annually.
**10.2** Each fraud of ₹1 lakh and above shall be reported to the Reserve Bank's fraud reporting module within 7 days of its classification as fraud. Frauds below ₹1 lakh shall be reported in a consolidated monthly statement by the 10th of the following month.
**10.3** Cyber security incidents shall be reported to the Reserve Bank and to CERT-In within 6 hours of detection.
**10.4** Accounts flagged as suspected mule accounts by 3 or more REs within 30 days shall be subjected to enhanced due diligence by the RE that holds the account.

## 11. Grievance Redress and Turnaround Time
**11.1** Failed transactions shall be resolved within the turnaround times (TAT) in Annex II, and compensation shall be credited suo motu, without a claim by the customer.
**11.2** A customer whose complaint is rejected, or not resolved within 30 days, may approach the Ombudsman under the Integrated Ombudsman Scheme.
**11.3** Each RE shall appoint a Principal Nodal Officer not below the rank of General Manager.

## 12. Board Oversight and Disclosure
**12.1** The Customer Service Committee of the Board shall review unauthorised transactions reported by customers every quarter, with age-wise pendency.
**12.2** REs shall disclose in their annual reports the number and value of customer complaints on unauthorised electronic transactions.

Yours faithfully,
**(P. Ramanathan)**
Chief General Manager-in-Charge

## Annex II – Turnaround Time for Failed Transactions (paragraph 11.1)
@widths 10 24 58 38 44
@align C L L L L
| Sl | System | Description of the incident | Framework for reversal | Compensation payable |
| 1 | UPI | Customer's account debited but beneficiary not credited | Auto-reversal within T+1 | ₹100 per day of delay beyond T+1 |
| 2 | UPI | Merchant transaction: account debited, merchant not credited | Auto-reversal within T+5 | ₹100 per day of delay beyond T+5 |
| 3 | ATM incl. micro-ATM | Account debited but cash not dispensed | Pro-active reversal within T+5 | ₹100 per day of delay beyond T+5 |
| 4 | IMPS | Account debited but beneficiary not credited | Auto-reversal within T+1 | ₹100 per day of delay beyond T+1 |
| 5 | Card at POS | Account debited, merchant did not receive confirmation | Auto-reversal within T+5 | ₹100 per day of delay beyond T+5 |
| 6 | PPI | Off-us transaction: PPI debited, beneficiary not credited | Auto-reversal within T+1 | ₹100 per day of delay beyond T+1 |
| 7 | NACH | Delay in credit to beneficiary account | Credit within T+1 | ₹100 per day of delay beyond T+1 |

> "T" is the day of the transaction; T+1, T+5 are calendar days. Annex I (reporting formats) is not reproduced in this specimen.

## Annex III – Circulars Repealed (paragraph 1.2)
@widths 10 100 64
@align C L L
| No. | Circular | Date |
| 1 | DPSS.CO.PD.No.S-041/02.14.003/2021-22 – Security of card and UPI transactions | September 20, 2021 |
| 2 | DPSS.CO.PD.No.S-077/02.14.003/2022-23 – Limited liability of customers in electronic transactions | August 8, 2022 |
| 3 | DPSS.CO.PD.No.S-093/02.14.003/2023-24 – Harmonisation of TAT for failed transactions | January 15, 2024 |
| 4 | DPSS.CO.PD.No.S-101/02.14.003/2024-25 – UPI Lite and cooling period | October 3, 2024 |
"""

# ----------------------------------------------------------------------------------------------------------
# Document 4 — schedule of charges and quarterly key metrics (table-heavy)
# ----------------------------------------------------------------------------------------------------------

FEE_SCHEDULE = r"""
^^ MERIDIAN BANK LTD
# Schedule of Service Charges (Retail Banking) and Quarterly Key Metrics
^ Ref. MBL/2024-25/RB/031 · Charges effective 1 October 2024 · Metrics for Q2 FY24 to Q2 FY25
---
All charges are exclusive of GST at 18%. Charges apply per instance unless stated otherwise. "Metro" means the six metro centres (Mumbai, New Delhi, Chennai, Kolkata, Bengaluru, Hyderabad). Enquiries: Head – Retail Products, Mr. Nikhil Sharma.

## Table 1 – Savings accounts: minimum average balance (MAB) and non-maintenance charges
@widths 56 22 22 20 54
@align L R R R L
| Product | MAB metro / urban | MAB semi-urban | MAB rural | Non-maintenance charge (per month) |
| Meridian Classic Savings | ₹10,000 | ₹5,000 | ₹2,500 | 6% of shortfall, max ₹300 |
| Meridian Prime Savings | ₹25,000 | ₹25,000 | ₹10,000 | 6% of shortfall, max ₹600 |
| Meridian Senior Citizen Savings | ₹5,000 | ₹5,000 | ₹2,500 | 6% of shortfall, max ₹150 |
| Meridian Salary Account | Nil | Nil | Nil | Nil |
| Basic Savings Bank Deposit (BSBD) | Nil | Nil | Nil | Nil |

> BSBD accounts include 4 free cash withdrawals per month (branch and ATM together). Savings interest: 3.00% p.a. on daily balances up to ₹10 lakh and 3.50% p.a. above ₹10 lakh.

## Table 2 – Fund transfer charges
@widths 34 56 40 44
@align L L R R
| Channel | Amount slab | At branch | Net / mobile banking |
| NEFT | Up to ₹10,000 | ₹2.00 | Free |
| NEFT | ₹10,001 – ₹1,00,000 | ₹4.00 | Free |
| NEFT | ₹1,00,001 – ₹2,00,000 | ₹14.00 | Free |
| NEFT | Above ₹2,00,000 | ₹24.00 | Free |
| RTGS | ₹2,00,000 – ₹5,00,000 | ₹20.00 | Free |
| RTGS | Above ₹5,00,000 | ₹45.00 | Free |
| IMPS | Up to ₹1,000 | ₹2.50 | Free |
| IMPS | ₹1,001 – ₹1,00,000 | ₹5.00 | ₹2.50 |
| IMPS | ₹1,00,001 – ₹5,00,000 | ₹15.00 | ₹5.00 |
| UPI (P2P and P2M) | Any amount within UPI limits | Not applicable | Free |
| UPI Lite | Up to ₹500 per transaction | Not applicable | Free |

## Table 3 – Debit cards and ATM transactions
@widths 92 28 28 26
@align L R R R
| Item | Classic | Platinum | RuPay Select |
| Issuance fee | Nil | ₹250 | ₹500 |
| Annual fee | ₹250 | ₹500 | ₹750 |
| Replacement card | ₹200 | ₹200 | ₹200 |
| Free ATM transactions a month – Meridian ATMs | 5 | 5 | Unlimited |
| Free ATM transactions a month – other banks, metro | 3 | 3 | 5 |
| Free ATM transactions a month – other banks, non-metro | 5 | 5 | 5 |
| Beyond free limit – financial transaction | ₹23 | ₹23 | ₹23 |
| Beyond free limit – non-financial transaction | ₹11 | ₹11 | Nil |
| Declined transaction (insufficient balance) | ₹25 | ₹25 | ₹25 |

## Table 4 – Credit card charges
@widths 100 74
@align L R
| Total amount due on the statement | Late payment fee |
| Up to ₹500 | Nil |
| ₹501 – ₹5,000 | ₹500 |
| ₹5,001 – ₹10,000 | ₹750 |
| ₹10,001 – ₹25,000 | ₹950 |
| ₹25,001 – ₹50,000 | ₹1,100 |
| Above ₹50,000 | ₹1,300 |

@widths 100 74
@align L R
| Other credit card charge | Amount |
| Finance charge on revolving balance | 3.75% per month (45% p.a.) |
| Cash advance fee | 2.5% of amount, minimum ₹500 |
| Foreign currency mark-up | 3.5% |
| Over-limit fee | ₹600 |
| Rent payment made with the card | 1% of amount, maximum ₹3,000 |
| Card replacement | ₹100 |
| RuPay credit card used on UPI (to cardholder) | Nil |

## Table 5 – Other service charges
@widths 100 74
@align L R
| Service | Charge |
| Cheque issued by customer returned unpaid (financial reasons) | ₹500 |
| Cheque deposited by customer returned unpaid | ₹200 |
| NACH / ECS mandate debit returned | ₹450 |
| Stop payment of cheque at branch (free through net banking) | ₹100 per instrument |
| Duplicate account statement at branch | ₹100 |
| SMS alerts (waived for BSBD and Senior Citizen accounts) | ₹15 per quarter |
| Demand draft issuance | ₹3 per ₹1,000, min ₹50, max ₹15,000 |
| Cash deposit at branch beyond 4 free transactions a month | ₹150 per transaction |

## Table 6 – Safe deposit locker rent (per year)
@widths 56 40 40 38
@align L R R R
| Locker size | Metro / urban | Semi-urban | Rural |
| Small | ₹2,500 | ₹1,500 | ₹1,000 |
| Medium | ₹5,000 | ₹3,000 | ₹2,000 |
| Large | ₹10,000 | ₹6,000 | ₹4,000 |

## Table 7 – Merchant payment services (UPI QR)
@widths 110 64
@align L R
| Service | Charge |
| UPI P2M payment from a bank account (MDR) | Nil |
| RuPay credit card on UPI, small merchant, up to ₹2,000 (MDR) | Nil |
| RuPay credit card on UPI, all other transactions (MDR) | 1.50% |
| PPI (wallet) on UPI above ₹2,000, general merchants (MDR) | 1.10% |
| Soundbox rental (waived if UPI collections ≥ ₹50,000 in the month) | ₹125 per month |
| Meridian Instant Settle (same-day settlement) | 0.10% of settled value |
| Standard settlement (T+1) | Free |

## Table 8 – Quarterly key metrics (standalone, unaudited)
> ₹ crore unless stated. Ratios in %; credit cost, ROA and ROE are annualised.
@widths 62 23 23 23 23 23
@align L R R R R R
| Metric | Q2 FY24 | Q3 FY24 | Q4 FY24 | Q1 FY25 | Q2 FY25 |
| Net interest income (NII) | 4,365 | 4,488 | 4,602 | 4,731 | 4,862 |
| Net interest margin (NIM) % | 3.81 | 3.76 | 3.71 | 3.68 | 3.62 |
| Other income | 1,775 | 1,852 | 1,971 | 1,830 | 1,914 |
| of which core fee income | 1,338 | 1,402 | 1,511 | 1,449 | 1,528 |
| Operating expenses | 2,941 | 3,018 | 3,142 | 3,116 | 3,205 |
| Cost-to-income ratio % | 47.9 | 47.6 | 47.8 | 47.5 | 47.3 |
| Operating profit | 3,199 | 3,322 | 3,431 | 3,445 | 3,571 |
| Provisions and contingencies | 585 | 643 | 641 | 690 | 702 |
| Net profit (PAT) | 1,955 | 2,004 | 2,087 | 2,061 | 2,146 |
| Gross advances | 3,33,850 | 3,47,900 | 3,61,200 | 3,70,450 | 3,84,250 |
| Total deposits | 3,88,730 | 4,02,300 | 4,19,800 | 4,28,900 | 4,41,600 |
| CASA ratio % | 40.7 | 40.1 | 39.8 | 39.1 | 38.4 |
| Gross NPA % | 1.96 | 1.91 | 1.83 | 1.79 | 1.74 |
| Net NPA % | 0.55 | 0.53 | 0.50 | 0.49 | 0.46 |
| Provision coverage ratio % | 72.4 | 72.8 | 73.1 | 73.3 | 73.8 |
| Credit cost % | 0.54 | 0.61 | 0.57 | 0.60 | 0.58 |
| Capital adequacy (CRAR) % | 17.4 | 17.1 | 17.6 | 17.0 | 16.8 |
| CET1 ratio % | 14.9 | 14.6 | 14.8 | 14.4 | 14.2 |
| Return on assets (ROA) % | 1.50 | 1.51 | 1.54 | 1.48 | 1.52 |
| Return on equity (ROE) % | 14.6 | 14.8 | 15.2 | 14.7 | 15.1 |
| Branches (number) | 1,538 | 1,559 | 1,581 | 1,594 | 1,642 |

## Table 9 – Digital and payments metrics
@widths 62 23 23 23 23 23
@align L R R R R R
| Metric | Q2 FY24 | Q3 FY24 | Q4 FY24 | Q1 FY25 | Q2 FY25 |
| UPI transactions (crore) | 144 | 158 | 176 | 181 | 189 |
| UPI value (₹ lakh crore) | 1.98 | 2.21 | 2.35 | 2.41 | 2.52 |
| UPI technical decline rate % | 0.78 | 0.74 | 0.69 | 0.65 | 0.62 |
| Meridian Pay monthly active users (lakh) | 71 | 76 | 82 | 88 | 94 |
| Active UPI Lite wallets (lakh) | 6.2 | 8.9 | 12.4 | 15.1 | 18.6 |
| Credit cards in force (lakh) | 33.8 | 35.9 | 38.1 | 39.7 | 41.2 |
| Credit card spends (₹ crore) | 11,920 | 13,640 | 13,210 | 13,980 | 14,850 |

## Table 10 – Loan book by segment, 30 September 2024
@widths 84 36 27 27
@align L R R R
| Segment | Outstanding (₹ crore) | Share of book | YoY growth |
| Home loans | 1,02,380 | 26.6% | 13.2% |
| Personal loans | 38,900 | 10.1% | 19.8% |
| Credit cards | 21,650 | 5.6% | 22.4% |
| Vehicle loans | 29,300 | 7.6% | 16.5% |
| Business banking and SME | 71,200 | 18.5% | 17.9% |
| Agri and rural (incl. microfinance ₹7,300 crore) | 34,800 | 9.1% | 12.6% |
| Corporate and wholesale | 86,020 | 22.4% | 12.0% |
| Total gross advances | 3,84,250 | 100.0% | 15.1% |

## Table 11 – Deposits by type, 30 September 2024
@widths 84 36 27 27
@align L R R R
| Deposit type | Outstanding (₹ crore) | Share of deposits | YoY growth |
| Savings deposits | 1,08,200 | 24.5% | 6.8% |
| Current deposits | 61,374 | 13.9% | 3.9% |
| Term deposits | 2,72,026 | 61.6% | 19.1% |
| Total deposits | 4,41,600 | 100.0% | 13.6% |

> CASA ratio = (savings + current deposits) ÷ total deposits = ₹1,69,574 crore ÷ ₹4,41,600 crore = 38.4%. Fictional document written for the Prism demo; Meridian Bank Ltd is fictional.
"""

# ----------------------------------------------------------------------------------------------------------

FICTION = "Fictional sample document – Prism demo"

DOCS = [
    {
        "file": "meridian_bank_upi_operating_circular.pdf",
        "title": "Meridian Bank Ltd – UPI Operating Circular MBL/2025-26/OPS/017",
        "author": "Meridian Bank Ltd, Digital Banking & Payments Operations (fictional)",
        "header_left": "Meridian Bank Ltd · UPI Operating Circular MBL/2025-26/OPS/017",
        "header_right": FICTION,
        "date": _dt.datetime(2025, 6, 12, 10, 0, 0, tzinfo=_dt.UTC),
        "source": UPI_CIRCULAR,
    },
    {
        "file": "meridian_q2_fy25_earnings_call.pdf",
        "title": "Meridian Bank Ltd – Q2 FY25 Earnings Conference Call Transcript",
        "author": "Meridian Bank Ltd, Investor Relations (fictional)",
        "header_left": "Meridian Bank Ltd · Q2 FY25 earnings call · 21 October 2024",
        "header_right": FICTION,
        "date": _dt.datetime(2024, 10, 22, 10, 0, 0, tzinfo=_dt.UTC),
        "source": EARNINGS_CALL,
    },
    {
        "file": "rbi_style_master_circular_digital_payments.pdf",
        "title": "ILLUSTRATIVE Master Circular – Digital Payment Security, Customer Liability and KYC",
        "author": "Illustrative specimen written for the Prism demo (not a regulatory document)",
        "header_left": "DPSS.CO.PD.No.S-112/02.14.003/2025-26 · Master Circular (ILLUSTRATIVE)",
        "header_right": "Illustrative specimen – Prism demo",
        "footer_note": "ILLUSTRATIVE SPECIMEN written for the Prism demo – not issued by the Reserve Bank of India; "
        "figures are fictional.",
        "date": _dt.datetime(2025, 4, 1, 10, 0, 0, tzinfo=_dt.UTC),
        "source": MASTER_CIRCULAR,
    },
    {
        "file": "meridian_fee_schedule_tables.pdf",
        "title": "Meridian Bank Ltd – Schedule of Service Charges and Quarterly Key Metrics",
        "author": "Meridian Bank Ltd, Retail Products (fictional)",
        "header_left": "Meridian Bank Ltd · Schedule of charges MBL/2024-25/RB/031 · Key metrics",
        "header_right": FICTION,
        "date": _dt.datetime(2024, 10, 1, 10, 0, 0, tzinfo=_dt.UTC),
        "source": FEE_SCHEDULE,
    },
]

SEED_SENTENCE = (
    "In FY2024 Meridian Bank processed a total UPI transaction volume of 612 crore transactions worth ₹8.4 lakh crore."
)


# ----------------------------------------------------------------------------------------------------------
# Verification with pypdf
# ----------------------------------------------------------------------------------------------------------


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def verify(out_dir: Path) -> bool:
    try:
        from pypdf import PdfReader
    except ImportError:
        print("verify: pypdf not installed; skipped")
        return True
    ok = True
    must_contain = {
        "meridian_bank_upi_operating_circular.pdf": [
            SEED_SENTENCE,
            "4.3.1",
            "7(b)",
            "MBL/2025-26/OPS/017",
            "DPSS.CO.PD.No.S-112/02.14.003/2025-26",
            "₹1,00,000",
            "Q2 FY25 (Jul–Sep 2024) 189 2.52 31.3% 0.62%",
        ],
        "meridian_q2_fy25_earnings_call.pdf": ["3.62%", "₹4,862 crore", "189 crore UPI transactions"],
        "rbi_style_master_circular_digital_payments.pdf": [
            "DPSS.CO.PD.No.S-112/02.14.003/2025-26",
            "ILLUSTRATIVE",
            "Within 3 working days Zero liability",
            "₹8,000",
        ],
        "meridian_fee_schedule_tables.pdf": [
            "Net interest margin (NIM) % 3.81 3.76 3.71 3.68 3.62",
            "Home loans 1,02,380 26.6% 13.2%",
            "₹23",
        ],
    }
    for d in DOCS:
        path = out_dir / d["file"]
        reader = PdfReader(str(path))
        pages = [p.extract_text() or "" for p in reader.pages]
        size_kb = path.stat().st_size / 1024
        chars = sum(len(p) for p in pages)
        problems = []
        for n, text in enumerate(pages, 1):
            if len(text.strip()) < 200:
                problems.append(f"page {n} extracts only {len(text.strip())} chars")
        joined = _norm(" ".join(pages))
        if RUPEE not in joined:
            problems.append("no ₹ in extracted text")
        for needle in must_contain.get(d["file"], []):
            if _norm(needle) not in joined:
                problems.append(f"missing in extracted text: {needle!r}")
        if size_kb > 200:
            problems.append(f"file is {size_kb:.0f} KB (> 200 KB)")
        seed_page = next((n for n, t in enumerate(pages, 1) if _norm(SEED_SENTENCE) in _norm(t)), None)
        status = "OK" if not problems else "FAIL"
        extra = f", FY2024 UPI sentence on page {seed_page}" if seed_page else ""
        print(
            f"{status} {d['file']}: {len(pages)} pages, {size_kb:.0f} KB, {chars} chars{extra}, "
            f"sha256 {hashlib.sha256(path.read_bytes()).hexdigest()[:12]}"
        )
        for p in problems:
            print(f"   - {p}")
        ok = ok and not problems
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=HERE, help="output folder (default: this script's folder)")
    ap.add_argument("--no-verify", action="store_true", help="skip the pypdf text-layer check")
    args = ap.parse_args(argv)
    try:
        import fpdf  # noqa: F401
    except ImportError:
        sys.exit("build_samples.py: needs fpdf2 (`pip install fpdf2`)")
    fonts = find_fonts()
    for d in DOCS:
        render(d, args.out / d["file"], fonts)
    if args.no_verify:
        return 0
    return 0 if verify(args.out) else 1


if __name__ == "__main__":
    raise SystemExit(main())

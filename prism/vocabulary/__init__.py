"""The financial vocabulary, one home per vocabulary: units and scales, currencies, months, legal suffixes,
statement names and line items.

Each module holds the words of one vocabulary as data (tuples, mappings, dataclasses) and the regular-expression
fragments built from those words, so that every module that reads or writes a unit, a currency, a month, a company
name or a statement uses the same words and no second list can drift from the first:

* :mod:`~prism.vocabulary.units` — thousands / millions / billions / trillions / lakh / crore, their scales,
  spoken words, written forms and abbreviations, and the unit-statement phrases ("in millions", "except per
  share", "unless stated");
* :mod:`~prism.vocabulary.currencies` — ISO 4217 codes, their symbols and written marks;
* :mod:`~prism.vocabulary.months` — month names, abbreviations and numbers;
* :mod:`~prism.vocabulary.legal` — legal suffixes of company names and the views each purpose needs;
* :mod:`~prism.vocabulary.statements` — financial statement kinds and names, and the line items read from them;
* :mod:`~prism.vocabulary.titles` — officer titles and their abbreviations ("CEO" → "chief executive officer").
* :mod:`~prism.vocabulary.abbreviations` — finance and regulatory abbreviations and the phrases they stand for
  ("PAT" → "profit after tax", "net profit"; "bps" → "basis points"), the officer titles included.
* :mod:`~prism.vocabulary.changes` — the words of a question asking how a figure changed between two periods ("How
  did net income change …", "compared with", "from 2014 to 2015") and of one asking for that change in percent.
* :mod:`~prism.vocabulary.dates` — day-first dates ("31.12.2023", "31-Mar-2024"), read with dateparser;
* :mod:`~prism.vocabulary.number_formats` — decimal point or comma, decided per table, figures read with babel;
* :mod:`~prism.vocabulary.compounds` — payments words and names a word segmenter must not split ("onboarding").

A ground-floor package: it imports nothing from prism (the standard library, and inside the two readers' functions
dateparser and babel), and every layer may import it
(``prism.types`` included). Import the modules, not the package: ``from prism.vocabulary import units``.
"""

from __future__ import annotations

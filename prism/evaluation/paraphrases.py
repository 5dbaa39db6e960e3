"""Paraphrase families: many wordings of one figure question, each expected to get the canonical question's program.

A family (``data/ground_truth/paraphrases/*.json``) is a canonical question, the operation of the program registry
it asks for, and its wordings, each tagged with its kind (:data:`KINDS`). A wording *agrees* with its canonical
question when the answer's chosen program is the same (operation and operands: row label and period of each figure,
in order) and the figures of its first answer line are the same (:func:`first_line_figures`).

The chosen program is recorded while the service answers (:func:`recording_programs`): the figure step
(:func:`prism.answering.programs.step.figure_lines`) is observed, nothing it returns is changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["FAMILIES_DIR", "KINDS", "Family", "Outcome", "Wording", "first_line", "first_line_figures",
           "load_families", "recording_programs", "run_question"]

FAMILIES_DIR = Path(__file__).resolve().parents[2] / "data" / "ground_truth" / "paraphrases"
"""Where the families and the fixture document they are asked of are kept."""

KINDS = ("canonical", "terse", "imperative", "abbreviated", "reordered", "symbol", "synonym", "no_question_mark")
"""The kinds of wording: ``terse`` (few words, no verb), ``imperative`` ("Give …", "Compute …"), ``abbreviated``
("YoY", "avg", "opex", "rev"), ``reordered`` (the periods or the figure first), ``symbol`` ("%", "/", ">", "->"),
``synonym`` ("delta", "movement", "portion", "peak"), ``no_question_mark`` (the canonical without its "?")."""

ProgramSignature = tuple[Any, ...]
"""``(operation, ((label, period), …))`` per figure step the answer ran, or ``("text",)`` when none chose a
program; ``("metric", metric, periods)`` for a statement metric worked out before the programs."""


@dataclass(frozen=True)
class Wording:
    """One wording of a family: its text and :data:`KINDS` kind."""

    text: str
    kind: str


@dataclass(frozen=True)
class Family:
    """A canonical question and its wordings.

    Attributes:
        id: the family's name (``"northwind-percent_change"``).
        operation: the registry operation the canonical question asks for (``"percent_change"``), or ``"text"``
            when a sentence answers it.
        canonical: the canonical question.
        wordings: its paraphrases (the canonical itself not among them).
        workspace: ``"fixture"`` (the document beside the families) or ``"sample"`` (the built-in sample workspace).
        source: the ground-truth id the canonical question comes from (``"q057"``), or ``""``.
    """

    id: str
    operation: str
    canonical: str
    wordings: tuple[Wording, ...]
    workspace: str
    source: str = ""


@dataclass
class Outcome:
    """What one question got: the program signature(s), the first answer line, its figures, the reader's operation."""

    question: str
    programs: tuple[ProgramSignature, ...]
    first_line: str
    figures: tuple[str, ...]
    read_as: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def operation(self) -> str:
        """The chosen program's operation (the first figure step's), ``"metric"`` or ``"text"``."""
        return str(self.programs[0][0]) if self.programs else "text"

    def agrees(self, canonical: Outcome) -> bool:
        """Same program(s) and the same first-line figures as ``canonical``."""
        return self.programs == canonical.programs and self.figures == canonical.figures


def load_families(directory: Path = FAMILIES_DIR) -> list[Family]:
    """Every family of the JSON files in ``directory`` (``{"workspace", "families": [{"id", "operation",
    "canonical", "source"?, "wordings": [{"text", "kind"}]}]}``), in file order.

    Raises:
        ValueError: a wording's kind is not one of :data:`KINDS`.
    """
    out: list[Family] = []
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for f in data["families"]:
            wordings = tuple(Wording(w["text"], w["kind"]) for w in f["wordings"])
            bad = [w.kind for w in wordings if w.kind not in KINDS]
            if bad:
                raise ValueError(f"{path.name} {f['id']}: unknown wording kinds {bad}")
            out.append(Family(f["id"], f["operation"], f["canonical"], wordings, data["workspace"],
                              f.get("source", "")))
    return out


_HEADER = "Extractive answer"
_CITATION = re.compile(r"\[W?\d+\]")
_FIGURE = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def first_line(answer: str) -> str:
    """The answer's first line of content: the first non-empty line after the extractive answer's header line."""
    lines = [li.strip() for li in answer.splitlines() if li.strip()]
    if lines and lines[0].startswith(_HEADER):
        lines = lines[1:]
    return lines[0] if lines else ""


def first_line_figures(answer: str) -> tuple[str, ...]:
    """The numbers written on :func:`first_line` (citation markers dropped), as written without thousands commas
    (``"Change in X, 2023 to 2024: 60.0 (33.33 %)"`` → ``("2023", "2024", "60.0", "33.33")``)."""
    line = _CITATION.sub("", first_line(answer))
    return tuple(m.group(0).replace(",", "") for m in _FIGURE.finditer(line))


def _signature(reading: Any, choice: Any, metric: Any, derived: Any, lines: list[Any]) -> ProgramSignature:
    if metric is not None and derived is metric:
        calc = metric.calculation
        return ("metric", calc.metric, tuple(calc.periods))
    best = choice.best
    if best is None or not lines:
        return ("text",)
    program = best.program
    return (program.operation, tuple((o.label, o.period) for o in program.operands))


@contextmanager
def recording_programs() -> Iterator[list[ProgramSignature]]:
    """Within the block, every figure step an answer runs appends its program signature to the yielded list (the
    figure step is wrapped in the modules that call it and restored on exit; its results are returned unchanged)."""
    from prism.answering import figure_step
    from prism.answering.programs import entities

    seen: list[ProgramSignature] = []
    original = figure_step.figure_lines

    def observed(reading: Any, choice: Any, rows_of: Any, metric: Any = None) -> Any:
        derived, lines, extra = original(reading, choice, rows_of, metric)
        seen.append(_signature(reading, choice, metric, derived, lines))
        return derived, lines, extra

    modules = (figure_step, entities)
    for module in modules:
        setattr(module, "figure_lines", observed)  # noqa: B010 (mypy: a module's function is not assignable)
    try:
        yield seen
    finally:
        for module in modules:
            setattr(module, "figure_lines", original)  # noqa: B010


def run_question(ask: Callable[[str], Any], question: str, seen: list[ProgramSignature]) -> Outcome:
    """Ask ``question`` with ``ask`` (a service's ``ask`` bound to a workspace) inside :func:`recording_programs`
    (``seen`` is its list) and return its :class:`Outcome`."""
    start = len(seen)
    answer = ask(question)
    programs = tuple(seen[start:]) or (("text",),)
    understood = answer.understood or {}
    return Outcome(question, programs, first_line(answer.answer), first_line_figures(answer.answer),
                   str(understood.get("operation", "text")), {"declined": answer.declined})

"""The question is read once: outside the question reader (``prism/answering/reading/``) no module applies a regular
expression to the question's text.

Checked on the source (nothing is imported or run). In every function of the checked packages, the question's text is
a parameter named ``question``, ``condensed`` or ``query``, or an attribute read as ``….question``, ``….condensed``,
``reading.text`` or ``reading.frame``; a name assigned from an expression holding it is the question's text too
(``q = question.lower()``). A regular expression is applied to it when it is an argument of ``re.search``,
``re.match``, ``re.fullmatch``, ``re.findall``, ``re.finditer``, ``re.sub``, ``re.subn`` or ``re.split`` (or of the
``regex`` module's), or of one of those methods called on a compiled pattern; the period parser
(:func:`prism.retrieval.periods.find_periods`, :func:`~prism.retrieval.periods.duration_hint`) is the reader's tool
too, so calling it with the question is reading it again. The parser module itself reads any text (documents'
headers too) and is not checked. A value computed by calling something with the question (an LLM's reply) is no
longer the question. Tokenizing the question for BM25 or embedding it is no reading of its meaning and stays allowed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

CHECKED = ("prism/answering", "prism/retrieval", "prism/service.py", "prism/ui", "prism/cli")
READER = REPO / "prism" / "answering" / "reading"
PARSERS = (REPO / "prism" / "retrieval" / "periods.py",)
_PARSER_CALLS = frozenset({"find_periods", "duration_hint"})
_SOURCE_NAMES = frozenset({"question", "condensed", "query"})
_SOURCE_ATTRS = frozenset({"question", "condensed"})
_READING_ATTRS = frozenset({"text", "frame"})
_METHODS = frozenset({"search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"})


def _files() -> list[Path]:
    out: list[Path] = []
    for part in CHECKED:
        path = REPO / part
        out += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return [p for p in out if READER not in p.parents and p not in PARSERS]


def _source(node: ast.AST, names: set[str]) -> bool:
    """Whether ``node`` itself names the question's text."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        base = node.value
        return node.attr in _SOURCE_ATTRS or (node.attr in _READING_ATTRS and (
            (isinstance(base, ast.Name) and base.id == "reading")
            or (isinstance(base, ast.Attribute) and base.attr == "reading")))
    return False


def _tainted(node: ast.AST, names: set[str]) -> bool:
    """Whether ``node`` holds the question's text: names it, or transforms it with a method of its own
    (``question.lower()``, ``question[:40]``, an f-string of it); a call that only takes it as an argument makes
    something else (an LLM's reply, a count)."""
    if _source(node, names):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        return isinstance(func, ast.Attribute) and _tainted(func.value, names)
    return any(_tainted(child, names) for child in ast.iter_child_nodes(node))


def _regex_call(call: ast.Call) -> bool:
    """A call of a regex function or of a compiled pattern's matching method."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _METHODS:
        return False
    base = func.value
    if isinstance(base, ast.Name) and base.id in ("re", "regex"):
        return True
    return isinstance(base, ast.Name) and (base.id.isupper() or base.id.lstrip("_").isupper()
                                           or base.id.startswith("_")) or isinstance(base, ast.Call)


def violations_in(source: str, where: str) -> Iterator[str]:
    """The places in ``source`` where a regular expression is applied to the question's text."""
    tree = ast.parse(source)
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        args = fn.args
        names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg in _SOURCE_NAMES}
        body = fn.body if isinstance(fn.body, list) else [fn.body]
        for stmt in body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Assign) and _tainted(node.value, names):
                    names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PARSER_CALLS \
                        and any(_tainted(a, names) for a in node.args):
                    yield f"{where}:{node.lineno}"
                if isinstance(node, ast.Call) and _regex_call(node):
                    if any(_tainted(a, names) for a in node.args[1:] if isinstance(node.func, ast.Attribute)
                           and isinstance(node.func.value, ast.Name) and node.func.value.id in ("re", "regex")) \
                            or (not (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                                     and node.func.value.id in ("re", "regex"))
                                and any(_tainted(a, names) for a in node.args[:1])):
                        yield f"{where}:{node.lineno}"


def test_no_module_outside_the_reader_applies_a_pattern_to_the_question():
    found = [v for path in _files()
             for v in violations_in(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))]
    assert found == []


def test_the_check_finds_a_pattern_applied_to_the_question():
    source = '''
import re
_ASKS = re.compile("why")

def asks(question):
    return _ASKS.search(question)

def lowered(reading):
    q = reading.text.lower()
    return re.findall("x", q)

def fine(question, passage, llm):
    reply = llm.complete(question)
    return re.search(question, passage), tokenize(question), re.sub("x", "", reply)

def periods_again(run):
    return find_periods(run.condensed)
'''
    assert list(violations_in(source, "m.py")) == ["m.py:6", "m.py:10", "m.py:17"]

"""The house rules of the code's shape, checked on the source (nothing is imported or run).

Layers, by module path (``prism.x.y`` is in the layer of its first two parts):

- ground floor: ``prism`` (the package), ``prism.config`` (with its base class's ``prism.config_deployment``),
  ``prism.errors``, ``prism.types`` (a package), ``prism.fsutil``, ``prism.background`` (the one background
  runner), ``prism.vocabulary`` (a package: the financial words, importing nothing from prism); inside it only
  ``types → fsutil, errors, vocabulary``;
- packages: ``index``, ``ingestion``, ``retrieval``, ``answering``, ``evaluation``, with the one-way directions
  ``answering → retrieval → index``, ``ingestion → index`` and ``evaluation → answering, retrieval, index``;
- ``prism.service``: the facade, above every package;
- ``prism.cli`` (and ``prism.__main__``), ``prism.ui``, and outside the package ``pages/`` and ``app.py``.

The import graph is built from the AST of every module, top-level and nested imports alike (``if TYPE_CHECKING``
and imports inside functions count). ``from a import b`` is an edge to ``a.b`` when ``a/b.py`` or ``a/b/`` exists,
else to ``a``; importing a submodule is not counted as importing its parent package's ``__init__``.

One home per financial vocabulary (a word list copied elsewhere drifts from the original): no module outside
``prism/vocabulary/`` defines a unit, currency, month, legal-suffix or statement-name list of its own
(:func:`vocabulary_copies`).

Sizes: a module has at most :data:`MAX_MODULE_LINES` physical lines; a function or method at most
:data:`MAX_FUNCTION_LINES`, counted from its ``def`` line to the last line of its body (docstring and comments
included, decorators not).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

PRISM = REPO / "prism"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60

GROUND = {"prism", "prism.config", "prism.config_deployment", "prism.errors", "prism.types", "prism.fsutil",
          "prism.background", "prism.vocabulary"}
PACKAGES = ("index", "ingestion", "retrieval", "answering", "evaluation")

ALLOWED: dict[str, set[str]] = {
    "prism.config": {"prism.config_deployment"},  # the deployment's settings are the base class of Settings
    "prism.config_deployment": set(),
    "prism.errors": set(),
    "prism.fsutil": set(),
    "prism.background": set(),
    "prism.vocabulary": set(),  # the financial words import nothing from prism
    "prism": set(),
    "prism.types": {"prism.fsutil", "prism.errors", "prism.vocabulary"},  # value types validate with domain errors
    "index": GROUND,
    "ingestion": GROUND | {"index"},
    "retrieval": GROUND | {"index"},
    "answering": GROUND | {"index", "retrieval"},
    "evaluation": GROUND | {"index", "retrieval", "answering"},
    "service": GROUND | set(PACKAGES),
    "cli": GROUND | {"service"},
    "ui": {"prism.config", "prism.errors", "prism.types", "service"},
    "pages": {"prism.config", "prism.errors", "prism.types", "service", "ui"},
}
"""Which layers each layer may import (its own layer is always allowed)."""


# --- the graph ------------------------------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _prism_files() -> list[Path]:
    return sorted(p for p in PRISM.rglob("*.py") if "__pycache__" not in p.parts)


def _page_files() -> list[Path]:
    return sorted((REPO / "pages").glob("*.py")) + [REPO / "app.py"]


def _is_module(name: str) -> bool:
    path = REPO.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _import_statements(path: Path) -> list[ast.Import | ast.ImportFrom]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


def _imports(path: Path) -> set[str]:
    """The prism modules ``path`` imports (see the module docstring for how names resolve)."""
    found: set[str] = set()
    for node in _import_statements(path):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif node.module and node.level == 0:
            found.update(f"{node.module}.{a.name}" if _is_module(f"{node.module}.{a.name}") else node.module
                         for a in node.names)
    return {n for n in found if n == "prism" or n.startswith("prism.")}


def _all_imports(path: Path) -> set[str]:
    """Every module name ``path`` imports from (any library), unresolved."""
    return {a.name for n in _import_statements(path) if isinstance(n, ast.Import) for a in n.names} | {
        n.module for n in _import_statements(path) if isinstance(n, ast.ImportFrom) and n.module}


def _layer(module: str) -> str:
    """The layer of a module name (see the module docstring)."""
    if module in GROUND:
        return module
    if module.startswith("prism.types."):
        return "prism.types"
    if module.startswith("prism.vocabulary."):
        return "prism.vocabulary"
    parts = module.split(".")
    if parts[0] in ("pages", "app"):
        return "pages"
    if parts[1] == "__main__":
        return "cli"
    return parts[1]


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in _prism_files() + _page_files()}


def _layer_violations() -> Iterator[str]:
    for module, imported in _graph().items():
        here = _layer(module)
        for target in sorted(imported):
            there = _layer(target)
            if there != here and there not in ALLOWED[here]:
                yield f"{module} ({here}) imports {target} ({there})"


# --- the rules ------------------------------------------------------------------------------------------------
def test_every_module_has_a_layer():
    layers = {_layer(m) for m in _graph()}
    assert layers <= set(ALLOWED), layers - set(ALLOWED)
    assert {"index", "ingestion", "retrieval", "answering", "evaluation", "cli", "ui", "service"} <= layers


def test_imports_flow_one_way():
    """pages → ui → service → packages → ground floor, and inside the packages answering → retrieval → index,
    ingestion → index, evaluation → answering / retrieval / index; nothing runs back up."""
    assert list(_layer_violations()) == []


def test_only_pages_ui_and_cli_import_the_service():
    offenders = [f"{m} imports prism.service" for m, imported in _graph().items()
                 if "prism.service" in imported and _layer(m) not in ("pages", "ui", "cli", "service")]
    assert offenders == []


def test_pages_and_ui_import_only_the_facade_and_the_ground_floor():
    allowed = {"prism.service", "prism.types", "prism.errors", "prism.config"}
    offenders = []
    for module, imported in _graph().items():
        if _layer(module) not in ("pages", "ui"):
            continue
        for target in imported:
            if target not in allowed and not target.startswith(("prism.ui.", "prism.types.")) and target != "prism.ui":
                offenders.append(f"{module} imports {target}")
    assert offenders == []


def test_only_prism_ui_imports_streamlit():
    offenders = [str(p.relative_to(REPO)) for p in _prism_files()
                 if p.relative_to(PRISM).parts[0] != "ui"
                 and any(n == "streamlit" or n.startswith("streamlit.") for n in _all_imports(p))]
    assert offenders == []


def test_chromadb_only_in_the_vector_store():
    offenders = [str(p.relative_to(REPO)) for p in _prism_files()
                 if p != PRISM / "index" / "vector_store.py"
                 and any(n == "chromadb" or n.startswith("chromadb.") for n in _all_imports(p))]
    assert offenders == []


def test_no_import_cycle():
    graph = _graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert cycles == []


def test_modules_and_functions_are_short():
    long_modules = [f"{p.relative_to(REPO)}: {n} lines" for p in _prism_files()
                    if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    long_functions = []
    for p in _prism_files():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long_functions.append(f"{p.relative_to(REPO)}:{node.lineno} {node.name}: {n} lines")
    assert long_modules == [] and long_functions == []


def test_every_package_says_what_it_owns_and_may_import():
    for package in (*PACKAGES, "cli", "types", "ui", "vocabulary"):
        doc = ast.get_docstring(ast.parse((PRISM / package / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "import" in doc, package


def test_no_llama_index_global_settings():
    offenders = []
    for p in _prism_files():
        text = p.read_text(encoding="utf-8")
        if "Settings.llm =" in text or "Settings.embed_model =" in text:
            offenders.append(str(p.relative_to(REPO)))
    assert offenders == []


def test_the_rules_see_a_violation():
    """The checks can fail: a module in the index layer that imported retrieval would be reported."""
    assert _layer("prism.index.bm25") == "index" and "retrieval" not in ALLOWED["index"]
    assert _layer("prism.ui.widgets") == "ui" and "evaluation" not in ALLOWED["ui"]
    assert _layer("pages.chat") == "pages" and _layer("prism.__main__") == "cli"


MAX_FAMILY = 2
"""A flat folder holds at most this many modules sharing a name prefix; a third makes the concept a subpackage."""


def _prefix(stem: str) -> str:
    """The concept a module name starts with: its first word, singular (``table_headers``, ``tables`` → ``table``)."""
    return stem.split("_")[0].removesuffix("s")


def prefix_families(stems_by_folder: dict[str, list[str]]) -> list[str]:
    """``"folder: prefix (a, b, c)"`` for each folder with more than :data:`MAX_FAMILY` modules of one prefix."""
    found = []
    for folder, stems in sorted(stems_by_folder.items()):
        families: dict[str, list[str]] = {}
        for stem in sorted(stems):
            families.setdefault(_prefix(stem), []).append(stem)
        found += [f"{folder}: {p} ({', '.join(v)})" for p, v in sorted(families.items()) if len(v) > MAX_FAMILY]
    return found


def test_no_prefix_families():
    """A concept that outgrows a module becomes a subpackage with a re-exporting ``__init__``, never a
    family of prefixed siblings (``briefing.py``, ``briefing_facts.py``, ``briefing_llm.py`` …)."""
    folders: dict[str, list[str]] = {}
    for p in _prism_files():
        if p.stem != "__init__":
            folders.setdefault(str(p.parent.relative_to(REPO)), []).append(p.stem)
    assert prefix_families(folders) == []
    # the rule can fail: a flat answering/ folder of briefing_* siblings is reported
    flat = {"prism/answering": ["briefing", "briefing_facts", "briefing_llm", "engine", "table_words", "tables"]}
    assert prefix_families(flat) == ["prism/answering: briefing (briefing, briefing_facts, briefing_llm)"]


def test_tests_mirror_the_packages():
    """The tests mirror ``prism/`` (a module's tests are where a reader looks for them): every package of ``prism``
    with modules of its own has a test package of the same path under ``tests/`` (``prism/answering/derived`` →
    ``tests/answering/derived``)."""
    packages = {p.parent.relative_to(REPO / "prism") for p in _prism_files() if p.name == "__init__.py"}
    packages = {pk for pk in packages
                if str(pk) != "." and any(f.stem != "__init__" for f in (REPO / "prism" / pk).glob("*.py"))}
    missing = sorted(str(pk) for pk in packages if not (REPO / "tests" / pk / "__init__.py").is_file())
    assert missing == []


def test_prompts_live_with_the_code_that_uses_them():
    """One rule for prompts: each ``*_PROMPT`` constant is defined in the module that formats it, never in a module of
    prompts only."""
    offenders = []
    for p in _prism_files():
        text = p.read_text(encoding="utf-8")
        tree = ast.parse(text)
        names = [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Name) and t.id.endswith("_PROMPT")]
        used = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "format"
                and isinstance(n.value, ast.Name)}
        offenders += [f"{p.relative_to(REPO)}: {name}" for name in names
                      if name not in used and name != "ANSWER_SYSTEM_PROMPT"]
    assert offenders == []
    assert not (PRISM / "answering" / "prompts.py").exists()


# --- one home per vocabulary ----------------------------------------------------------------------------------
VOCABULARY = PRISM / "vocabulary"
_INDIAN_UNIT = re.compile(r"(?<![a-z])(?:crore|lakh)", re.IGNORECASE)
_MONTH = re.compile(r"september", re.IGNORECASE)
_LEGAL = re.compile(r"(?<![a-z])(?:llc|ltd)(?![a-z])", re.IGNORECASE)
_GAP = r"(?:\s|\\s)[*+?]?\s*"  # a space, or a regex's \s, \s*, \s+, \s?
_STATEMENT = re.compile(rf"balance{_GAP}sheet|statements?\??{_GAP}of{_GAP}(?:\(\?:[^)]*\)\*?|\{{\w+\}})?\s*operations"
                        rf"|cash{_GAP}flows", re.IGNORECASE)
_CURRENCY_KEYS = {"GBP", "USD", "£"}


def _prose(text: str) -> bool:
    """A sentence, not a definition: twelve words or more and no regex syntax (a prompt, a setting's description
    mentions "₹1 lakh" or "the balance sheet"; it defines neither)."""
    return len(text.split()) >= 12 and not re.search(r"\\|\(\?|\|", text)


def vocabulary_copies(source: str, name: str) -> list[str]:
    """The definitions of a financial vocabulary in module ``source`` (its text; ``name`` labels the findings):
    a string constant that names "crore" or "lakh" (as a word), holds "september", "LLC" or "Ltd" (as a word), or a
    statement name ("balance sheet", "statements of operations", "cash flows", regex spellings included); and a
    dict, set, tuple or list literal holding "GBP", "USD" or "£". Docstrings (and other bare string statements) and
    prose (:func:`_prose`) are not definitions; f-string parts are checked as the constants they are. In line
    order."""
    tree = ast.parse(source)
    docstrings = {id(n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
            for what, pattern in (("unit", _INDIAN_UNIT), ("month", _MONTH), ("legal suffix", _LEGAL),
                                  ("statement name", _STATEMENT)):
                if pattern.search(text) and not _prose(text):
                    found.append((node.lineno, f"{name}:{node.lineno} {what} {text[:60]!r}"))
        elif isinstance(node, ast.Dict | ast.Set | ast.Tuple | ast.List):
            items = [*node.keys, *node.values] if isinstance(node, ast.Dict) else node.elts
            if any(isinstance(e, ast.Constant) and e.value in _CURRENCY_KEYS for e in items if e is not None):
                found.append((node.lineno, f"{name}:{node.lineno} currency literal"))
    return [message for _, message in sorted(found)]


def test_each_vocabulary_has_one_home():
    """Units, currencies, months, legal suffixes and statement names are defined only in prism/vocabulary/; every
    other module builds its patterns from the vocabulary's words and fragments."""
    copies = [c for p in _prism_files() if VOCABULARY not in p.parents
              for c in vocabulary_copies(p.read_text(encoding="utf-8"), str(p.relative_to(REPO)))]
    assert copies == []


def test_the_vocabulary_check_sees_a_copy():
    """The check can fail: a module with its own crore scale, currency symbols, months, suffixes or statement
    pattern is reported, line by line; the vocabulary itself holds them all; a docstring or prompt prose is not."""
    fake = (
        '"""Units: crore, lakh, balance sheet (a docstring)."""\n'
        '_SCALE = {"crore": 1e7}\n'
        '_SYMBOL = {"GBP": "£"}\n'
        '_MONTHS = "january september".split()\n'
        '_SUFFIX = r"(?:Inc|Ltd)\\.?"\n'
        '_STATEMENT = re.compile(r"balance\\s*sheets?")\n'
        'PROMPT = "Copy figures exactly as the blocks state them, e.g. the limit is one lakh rupees."\n'
    )
    assert [c.split(" ", 1)[0] for c in vocabulary_copies(fake, "fake.py")] == [
        "fake.py:2", "fake.py:3", "fake.py:4", "fake.py:5", "fake.py:6"]
    assert vocabulary_copies(fake, "fake.py")[0] == "fake.py:2 unit 'crore'"
    held = {c.split(" ", 1)[1].split(" ")[0] for p in VOCABULARY.glob("*.py")
            for c in vocabulary_copies(p.read_text(encoding="utf-8"), p.name)}
    assert {"unit", "currency", "month", "legal", "statement"} <= held


# --- docstrings say the reason --------------------------------------------------------------------------------
_TRACKER_REFERENCE = re.compile(r"design\.md|\b[Ii]ssues?\s*#?\d+|\(issue\b|§\s*\d")
"""A pointer instead of a reason: the house style page (not in the repository), an issue number, or a bare section
mark (§3 of what?)."""
_STANDARD = re.compile(r"(?:ECMA-376(?: Part \d)?|RFC \d+|CSS \d(?:\.\d)?|HTML Living Standard|"
                       r"APPNOTE\.TXT|Manual of Style|Companies Act\s+\d{4}|Act,? "
                       r"\d{4})[,\s]*$")
"""A section mark right after the standard it belongs to is a citation of that standard (ECMA-376 Part 2, §8.1.4)."""


def tracker_references(source: str, name: str) -> list[str]:
    """``"name:line text"`` for each line of ``source`` that cites ``design.md``, an issue (``issue 31``, ``(issue``)
    or a section mark that follows no named standard, in line order."""
    found = []
    for n, line in enumerate(source.splitlines(), 1):
        for match in _TRACKER_REFERENCE.finditer(line):
            if match.group().startswith("§") and _STANDARD.search(line[:match.start()]):
                continue
            found.append(f"{name}:{n} {line.strip()[:100]}")
            break
    return found


def test_docstrings_and_comments_say_the_reason_not_an_issue():
    """Docstrings and comments in prism/ state the reason for a rule themselves: an issue number or a section of a
    page that is not in the repository tells a reader nothing. Standards keep their section marks."""
    offenders = [r for p in _prism_files() for r in tracker_references(p.read_text(encoding="utf-8"),
                                                                        str(p.relative_to(REPO)))]
    assert offenders == []


def test_the_reference_check_sees_a_reference():
    fake = ('"""Scope a search (issue 13 §2).\n'
            'The house words (design.md §3).\n'
            'Office files never carry one (ECMA-376 Part 2, §8.1.4); Retry-After (RFC 9110 §10.2.3).\n'
            '"""\n'
            'x = 1  # a popover covered the input (issue 31 §5d)\n'
            'y = 2  # see §4\n'
            'z = r"[&§•]"\n')
    assert [r.split(" ", 1)[0] for r in tracker_references(fake, "f.py")] == ["f.py:1", "f.py:2", "f.py:5", "f.py:6"]

"""The import rules of design.md §2, checked on the source: imports flow pages → prism.ui → prism.service →
components; only prism/ui imports streamlit; components never import the service."""

from __future__ import annotations

import ast
from pathlib import Path

from .conftest import REPO

PRISM = REPO / "prism"
# modules allowed to import prism.service: the facade's callers
SERVICE_CALLERS = {"service.py", "__main__.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _modules(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def test_only_prism_ui_imports_streamlit():
    offenders = [
        str(p.relative_to(REPO))
        for p in _modules(PRISM)
        if "ui" not in p.relative_to(PRISM).parts[:1]
        and any(n == "streamlit" or n.startswith("streamlit.") for n in _imports(p))
    ]
    assert offenders == []


def test_components_never_import_the_service():
    offenders = [
        str(p.relative_to(REPO))
        for p in _modules(PRISM)
        if p.relative_to(PRISM).parts[0] not in ("ui", "evaluation", "cli")
        and p.name not in SERVICE_CALLERS
        and "prism.service" in _imports(p)
    ]
    assert offenders == []


def test_pages_only_draw():
    """Pages import streamlit and prism.ui / prism.service (and the standard library), never components."""
    allowed_prism = ("prism.ui", "prism.service", "prism.errors", "prism.config", "prism.types")
    offenders = []
    for p in _modules(REPO / "pages") + [REPO / "app.py"]:
        if not p.exists():
            continue
        for name in _imports(p):
            if name.startswith("prism") and not name.startswith(allowed_prism) and name != "prism":
                offenders.append(f"{p.name}: {name}")
    assert offenders == []


def test_no_llama_index_global_settings():
    offenders = []
    for p in _modules(PRISM):
        text = p.read_text(encoding="utf-8")
        if "Settings.llm =" in text or "Settings.embed_model =" in text:
            offenders.append(str(p.relative_to(REPO)))
    assert offenders == []

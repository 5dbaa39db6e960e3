"""Every public name of every package and module imports (sentence-transformers keeps such a test): a re-exporting
``__init__`` that names a moved or deleted function fails here, not in an analyst's session."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import prism


def _modules() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(prism.__path__, "prism.")
                  if not info.name.endswith("__main__"))


MODULES = _modules()


def test_the_walk_sees_the_subpackages():
    for name in ("prism.answering.briefing", "prism.answering.compare", "prism.answering.programs",
                 "prism.answering.reading", "prism.ingestion.profiles", "prism.ingestion.tables",
                 "prism.ingestion.parsing.pdf",
                 "prism.ui.evaluation", "prism.background"):
        assert name in MODULES, name
    assert len(MODULES) > 150


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_imports(name):
    module = importlib.import_module(name)
    public = getattr(module, "__all__", None)
    if public is None:
        return
    missing = [n for n in public if not hasattr(module, n)]
    assert missing == [], f"{name}.__all__ names {missing}, which the module does not define"
    assert len(set(public)) == len(public), f"{name}.__all__ repeats a name"


def test_every_subpackage_reexports_what_it_lists():
    for name in MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "__path__") and getattr(module, "__all__", None):
            for public in module.__all__:
                assert getattr(module, public) is not None, f"{name}.{public}"

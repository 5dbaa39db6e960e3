"""Seeds: the sample workspace built into a folder ahead of time and copied into an empty PRISM_HOME
at start, so the Docker image's visitors never wait for it; never copied over a home that holds anything."""

from __future__ import annotations

import json
import shutil

import pytest

from prism.cli import seed as seed_cli
from prism.cli.common import EXIT_FAILED, EXIT_OK
from prism.cli.main import main
from prism.config import Settings
from prism.index.seed import INCOMING_NAME, home_is_empty, install_seed
from prism.service import PrismService
from tests.conftest import REPO, offline_service

SAMPLE_PDF = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"


@pytest.fixture(scope="module")
def seed(tmp_path_factory, embedder):
    """A seed built by ``python -m prism seed build`` from a one-document sample folder."""
    root = tmp_path_factory.mktemp("seed")
    (root / "sample").mkdir()
    shutil.copy(SAMPLE_PDF, root / "sample" / SAMPLE_PDF.name)
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(seed_cli, "builder", lambda home: offline_service(home, embedder, sample_dir=root / "sample"))
    try:
        assert main(["seed", "build", str(root / "seed"), "--json"]) == EXIT_OK
    finally:
        monkeypatch.undo()
    return root / "seed"


def test_home_is_empty_ignores_only_the_install_leftovers_and_lost_found(tmp_path):
    assert home_is_empty(tmp_path / "absent")
    assert home_is_empty(tmp_path)
    (tmp_path / "lost+found").mkdir()
    (tmp_path / INCOMING_NAME).mkdir()
    (tmp_path / "logs").mkdir()  # the CLI's error details (prism/cli/logs.py)
    assert home_is_empty(tmp_path)
    (tmp_path / "workspaces.json").write_text("{}")
    assert not home_is_empty(tmp_path)


def test_an_installed_seed_opens_and_searches_without_ingesting(seed, tmp_path, embedder, capsys):
    home = tmp_path / "home"
    (home / INCOMING_NAME).mkdir(parents=True)  # a copy stopped half-way by an earlier start
    (home / INCOMING_NAME / "stale.txt").write_text("x")
    assert install_seed(seed, home) is True
    assert not (home / INCOMING_NAME).exists()
    assert sorted(p.name for p in home.iterdir()) == sorted([p.name for p in seed.iterdir()] + [".seed.lock"])
    service = offline_service(home, embedder)
    assert [w.name for w in service.workspaces()] == ["Sample workspace"]
    assert service.ensure_sample_workspace() == []  # nothing to build
    [doc] = service.documents("Sample workspace")
    # 41: the quarterly table ends where its rows do, and the prose after it is a chunk of its own; the limits
    # table's first row, cut off at the foot of page 1, is a table of its own with the header lines above it
    assert doc.source == SAMPLE_PDF.name and doc.chunks == 41
    hits = service.search("per-transaction limit for UPI", "Sample workspace", mode="bm25").results
    assert hits and all(h.source == SAMPLE_PDF.name for h in hits)
    assert "limit" in hits[0].text.lower()


def test_installing_over_a_home_that_holds_anything_changes_nothing(seed, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    assert install_seed(seed, home) is False
    assert [p.name for p in home.iterdir()] == ["notes.txt"]
    assert install_seed(tmp_path / "no-seed", tmp_path / "other") is False  # a missing seed: nothing, logged
    assert not (tmp_path / "other").exists()


def test_the_service_installs_its_seed_at_start_and_the_cli_reports_it(seed, tmp_path, embedder, monkeypatch,
                                                                      capsys):
    home = tmp_path / "home"
    service = PrismService(Settings(home=home, seed_dir=seed, groq_api_key=None, tavily_api_key=None),
                           embedder=embedder)
    assert [w.name for w in service.workspaces()] == ["Sample workspace"]

    other = tmp_path / "other"
    monkeypatch.setenv("PRISM_HOME", str(other))
    capsys.readouterr()
    assert main(["seed", "install", "--from", str(seed), "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out) == {"installed": True, "seed": str(seed), "home": str(other)}
    assert main(["seed", "install", "--from", str(seed), "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["installed"] is False
    assert main(["seed", "build", str(other), "--json"]) == EXIT_FAILED
    assert "is not empty" in json.loads(capsys.readouterr().out)["error"]


def test_the_docker_image_builds_its_seed_outside_the_volume_and_points_the_app_at_it():
    import re

    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    [built] = re.findall(r"python -m prism seed build (\S+)", text)
    assert re.search(rf"PRISM_SEED_DIR={re.escape(built)}\b", text)
    [home] = re.findall(r"PRISM_HOME=(\S+)", text)
    assert not built.startswith(home.rstrip("/") + "/") and built != home  # the volume is mounted over PRISM_HOME

from __future__ import annotations

import re

import pytest

from prism.errors import InvalidWorkspaceNameError, WorkspaceExistsError, WorkspaceNotFoundError
from prism.index.catalog import WorkspaceCatalog, clean_workspace_name, collection_name_for

HOSTILE_NAMES = [
    "Q2 results",
    "₹ limits ₹",
    "x" * 600,
    "a..b",
    "10.0.0.1",
    "..",
    "-leading-and-trailing-",
    "भारतीय रिज़र्व बैंक",
    "UPI/2025-26/OC-117",
    "tab\tand\nnewline",
]


def _valid_chroma_name(name: str) -> bool:
    return (
        3 <= len(name) <= 63
        and re.fullmatch(r"[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9]", name) is not None
        and ".." not in name
        and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", name) is None
    )


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_any_display_name_maps_to_a_valid_collection_name(name):
    coll = collection_name_for(clean_workspace_name(name), "0a1b2c3d")
    assert _valid_chroma_name(coll), coll
    assert coll.endswith("-0a1b2c3d")


def test_catalog_creates_unique_collections_and_keeps_display_names(prism_home):
    cat = WorkspaceCatalog(prism_home)
    infos = [cat.create(n) for n in HOSTILE_NAMES]
    assert len({i.collection for i in infos}) == len(HOSTILE_NAMES)
    assert [i.name for i in infos] == [clean_workspace_name(n) for n in HOSTILE_NAMES]
    assert infos[2].name == "x" * 600
    assert clean_workspace_name("tab\tand\nnewline") == "tab and newline"
    # survives a restart (a new catalog object reads the same file)
    again = WorkspaceCatalog(prism_home)
    assert [i.to_dict() for i in again.list()] == [i.to_dict() for i in infos]


def test_catalog_rejects_duplicates_and_empty_names(prism_home):
    cat = WorkspaceCatalog(prism_home)
    cat.create("Research")
    with pytest.raises(WorkspaceExistsError, match="already exists"):
        cat.create("research")
    assert cat.create("research", exist_ok=True).name == "Research"
    with pytest.raises(InvalidWorkspaceNameError, match="cannot be empty"):
        cat.create("  \x00 ")
    with pytest.raises(InvalidWorkspaceNameError, match="at most 1000"):
        cat.create("y" * 1001)


def test_rename_and_remove(prism_home):
    cat = WorkspaceCatalog(prism_home)
    a = cat.create("A")
    cat.create("B")
    with pytest.raises(WorkspaceExistsError):
        cat.rename("A", "b")
    renamed = cat.rename("A", "Alpha ₹")
    assert (renamed.id, renamed.collection, renamed.name) == (a.id, a.collection, "Alpha ₹")
    dropped = []
    cat.remove("Alpha ₹", lambda info: dropped.append(info.collection))
    assert dropped == [a.collection]
    assert [w.name for w in cat.list()] == ["B"]
    assert not (prism_home / "workspaces" / a.id).exists()
    with pytest.raises(WorkspaceNotFoundError, match="no workspace named 'A'"):
        cat.get("A")


def test_chunk_rows_are_parsed_once_per_written_state_and_bounded(prism_home, monkeypatch):
    """Answering reads a document's stored rows for every question: the parsed rows are shared until the file is
    written again, and the cache keeps at most CHUNK_ROWS_CACHE_BYTES of files, least recently read dropped."""
    import prism.index.workspaces as workspaces

    info = WorkspaceCatalog(prism_home).create("Rows")
    ws = workspaces.Workspace(prism_home, info)
    first, second = "a" * 64, "b" * 64
    ws.write_chunks(first, [{"chunk_id": "a-1", "text": "Revenue 1,204"}, {"chunk_id": "a-2", "text": "Net income"}])
    ws.write_chunks(second, [{"chunk_id": "b-1", "text": "CRAR 15.2 %"}])

    rows = ws.chunk_rows(first)
    assert [r["chunk_id"] for r in rows] == ["a-1", "a-2"] and list(rows) == ws.read_chunks(first)
    assert ws.chunk_rows(first) is rows  # parsed once
    ws.write_chunks(first, [{"chunk_id": "a-1", "text": "Revenue 1,310"}])
    assert [r["text"] for r in ws.chunk_rows(first)] == ["Revenue 1,310"]  # a new written state is read again
    assert ws.chunk_rows("c" * 64) == ()

    size = ws.chunks_path(first).stat().st_size + ws.chunks_path(second).stat().st_size
    monkeypatch.setattr(workspaces, "CHUNK_ROWS_CACHE_BYTES", size - 1)  # room for one of the two files
    kept = ws.chunk_rows(first)
    ws.chunk_rows(second)  # pushes the first out
    assert ws.chunk_rows(second) is ws.chunk_rows(second)
    again = ws.chunk_rows(first)
    assert again is not kept and list(again) == list(kept)

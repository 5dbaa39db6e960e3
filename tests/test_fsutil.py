"""The one JSON Lines reader (:func:`prism.fsutil.read_json_lines`) behind the audit log and the feedback log."""

from __future__ import annotations

from prism.fsutil import read_json_lines


def test_objects_in_order_and_torn_or_foreign_lines_counted(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n": 1}\n[1, 2]\n\n{"n": 2, "t": "caf\xe9"}\n{"n": 3, "torn')
    lines, skipped = read_json_lines(path)
    assert [d["n"] for d in lines] == [1, 2]
    assert lines[1]["t"] == "caf\ufffd"  # one bad byte costs a character, not the file
    assert skipped == 2  # the list and the torn last line; the blank line is no loss


def test_a_missing_file_is_empty(tmp_path):
    assert read_json_lines(tmp_path / "none.jsonl") == ([], 0)

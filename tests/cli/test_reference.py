"""The generated references (``python -m prism reference``): docs/configuration.md documents every settings field
and docs/cli.md every command, and the committed files are what the generator writes (else the test names the
command that regenerates them)."""

from __future__ import annotations

import argparse
import json

from prism.cli import reference
from prism.cli.main import build_parser, main
from prism.config import Settings
from tests.conftest import REPO


def _commands() -> tuple[dict[str, argparse.ArgumentParser], dict[str, str], argparse.ArgumentParser]:
    """The CLI's own sub-parsers, their help lines and the shared options, as ``reference`` reads them."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    shared = argparse.ArgumentParser(add_help=False)
    for action in sub.choices["docs"]._actions:
        if action.dest in ("json", "workspace", "verbose"):
            shared._add_action(action)
    return dict(sub.choices), helps, shared


def test_the_committed_references_are_up_to_date():
    expected = reference.expected_files(*_commands(), docs_dir=REPO / "docs")
    stale = [str(p.relative_to(REPO)) for p in reference.stale(expected)]
    assert stale == [], f"{', '.join(stale)} differ from the code: run `{reference.COMMAND}` and commit the result"


def test_every_setting_and_command_is_documented():
    config = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    for name, field in Settings.model_fields.items():
        assert field.description, f"Settings.{name} has no description"
        assert any(f"`{env}`" in config for env in reference.env_names(name, field)), name
    cli = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    commands, _, _ = _commands()
    for name in [*commands, "eval run", "eval beir"]:
        assert f"### `{name}`" in cli, name
    assert "| `--max-pairs MAX_PAIRS` | pairs in all, negatives included (default 6000); default `6000` |" in cli


def test_rows_state_type_default_and_bounds():
    table = reference.configuration_reference()
    assert ("| `PRISM_CHROMA_PORT` | int | 8000 | ≥ 1, ≤ 65535 | Port of the Chroma server. |") in table
    assert "| `PRISM_PDF_TEXT_MODE` | 'layout' \\| 'plain' | \"layout\" |" in table
    assert "| `PRISM_GROQ_API_KEY`, `GROQ_API_KEY` | SecretStr \\| None | unset |" in table
    home = next(line for line in table.splitlines() if line.startswith("| `PRISM_HOME` |"))
    assert "| data/store |" in home and str(REPO) not in table  # the same on every checkout


def test_splice_keeps_the_hand_written_text():
    text = f"# Title\n\nintro\n\n{reference.BEGIN}\nold\n{reference.END}\n\nafter\n"
    assert reference.splice(text, "new") == (
        f"# Title\n\nintro\n\n{reference.BEGIN}\n\nnew\n\n{reference.END}\n\nafter\n")
    assert reference.splice("# Only hand-written\n", "new") == (
        f"# Only hand-written\n\n{reference.BEGIN}\n\nnew\n\n{reference.END}\n")


def test_check_reports_a_stale_file_and_writing_fixes_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(reference, "DOCS_DIR", tmp_path / "docs")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "cli.md").write_text(f"# CLI\n\nhand-written\n\n{reference.BEGIN}\nold\n{reference.END}\n")
    assert main(["reference", "--check", "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {"stale": ["docs/configuration.md", "docs/cli.md"]}
    assert main(["reference"]) == 0
    assert capsys.readouterr().out == "wrote docs/configuration.md\nwrote docs/cli.md\n"
    assert main(["reference", "--check"]) == 0
    written = (tmp_path / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written.startswith("# CLI\n\nhand-written\n\n") and "## `ask`" in written and "\nold\n" not in written

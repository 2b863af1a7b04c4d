"""Issue 34, files: one rule for every file solo writes where a user asked, and folders that are folders.

The rule (docs/saves.md, "Files solo writes"): a file is created, or it replaces a file of the same
kind that solo wrote (each kind has a line that says so), or solo refuses in one line naming
``--force``. Each case checks that the other file is left exactly as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_files import EXAMPLE, TUTORIAL_SCRIPT, assert_no_crash, assert_one_line_error, files_under, invoke

TRAP = Path(__file__).parent.parent / "data" / "prove" / "trap.toml"  # a small proof: the writer is the point
THEIRS = "my own notes, not solo's\n"


def _own_first(monkeypatch, cwd: Path, args: list[str], target: str) -> None:
    """Run ``args`` twice on a new file: solo creates it, then replaces its own file without --force."""
    first = invoke(monkeypatch, cwd, *args)
    assert first.code == 0, first.err
    made = (cwd / target).read_bytes()
    again = invoke(monkeypatch, cwd, *args)
    assert again.code == 0, again.err
    assert (cwd / target).exists() and made  # its own file: replaced without a word


# command, the option naming the file, extra arguments, the name of the file
CASES = {
    "new -o": (["new", "--random", "--seed", "3"], "-o", "hero.toml"),
    "map -o": (["map", str(EXAMPLE)], "-o", "map.mmd"),
    "map --format dot -o": (["map", str(EXAMPLE), "--format", "dot"], "-o", "map.dot"),
    "npc --out": (["npc", "--seed", "3"], "--out", "boss.toml"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_file_that_is_not_solos_is_refused_naming_force_and_kept(tmp_path, monkeypatch, case):
    args, option, name = CASES[case]
    (tmp_path / name).write_text(THEIRS, encoding="utf-8")
    result = invoke(monkeypatch, tmp_path, *args, option, name)
    line = assert_one_line_error(result, name, "--force")
    assert "not" in line and (tmp_path / name).read_text(encoding="utf-8") == THEIRS
    forced = invoke(monkeypatch, tmp_path, *args, option, name, "--force")
    assert forced.code == 0, forced.err
    assert (tmp_path / name).read_text(encoding="utf-8") != THEIRS


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_file_solo_wrote_is_replaced_without_force(tmp_path, monkeypatch, case):
    args, option, name = CASES[case]
    _own_first(monkeypatch, tmp_path, [*args, option, name], name)


def test_the_journal_out_follows_the_same_rule(tmp_path, monkeypatch):
    played = invoke(monkeypatch, tmp_path, "play", "tutorial", "--seed", "5", "--script", str(TUTORIAL_SCRIPT),
                    "--saves", "saves")
    assert played.code == 0, played.err
    (tmp_path / "notes.md").write_text(THEIRS, encoding="utf-8")
    result = invoke(monkeypatch, tmp_path, "journal", "tutorial", "--saves", "saves", "--out", "notes.md")
    assert_one_line_error(result, "notes.md", "--force")
    assert (tmp_path / "notes.md").read_text(encoding="utf-8") == THEIRS
    for _ in range(2):  # created, then its own journal replaced
        assert invoke(monkeypatch, tmp_path, "journal", "tutorial", "--saves", "saves", "--out", "j.md").code == 0
    assert (tmp_path / "j.md").read_text(encoding="utf-8").startswith("---\nadventure: ")


@pytest.mark.parametrize("option, name", [("--transcript", "story.md"), ("--events", "events.jsonl")])
def test_play_transcript_and_events_refuse_a_file_solo_did_not_write(tmp_path, monkeypatch, option, name):
    (tmp_path / name).write_text(THEIRS, encoding="utf-8")
    args = ["play", "tutorial", "--seed", "5", "--script", str(TUTORIAL_SCRIPT), "--saves", "saves"]
    result = invoke(monkeypatch, tmp_path, *args, option, name)
    assert_one_line_error(result, option, name, "--force")
    assert (tmp_path / name).read_text(encoding="utf-8") == THEIRS
    assert not (tmp_path / "saves").exists()  # refused before the game made its save
    for target in ("mine" + Path(name).suffix, "mine" + Path(name).suffix):  # made, then solo's own again
        again = invoke(monkeypatch, tmp_path, *args, option, target)
        assert again.code == 0, again.err
    assert invoke(monkeypatch, tmp_path, *args, option, name, "--force").code == 0


def test_prove_scripts_refuse_a_file_there_that_is_not_a_walkthrough(tmp_path, monkeypatch):
    folder = tmp_path / "walks"
    first = invoke(monkeypatch, tmp_path, "prove", str(TRAP), "--seeds", "3", "--scripts", "walks")
    assert first.code in (0, 1), first.err
    written = sorted(p.name for p in folder.iterdir())
    assert written and all((folder / n).read_text().startswith("# solo prove: a walkthrough") for n in written)
    again = invoke(monkeypatch, tmp_path, "prove", str(TRAP), "--seeds", "3", "--scripts", "walks")
    assert again.code == first.code, again.err  # its own walkthroughs are replaced
    (folder / written[0]).write_text(THEIRS, encoding="utf-8")
    refused = invoke(monkeypatch, tmp_path, "prove", str(TRAP), "--seeds", "3", "--scripts", "walks")
    assert_one_line_error(refused, written[0], "--force")
    # the files are named by their endings: another folder, not "another file name" (which no option gives)
    assert "give --scripts another folder" in refused.err and "file name" not in refused.err
    assert (folder / written[0]).read_text(encoding="utf-8") == THEIRS


def test_simulate_replays_never_replace_a_file_solo_did_not_write(tmp_path, monkeypatch):
    errors = tmp_path / "errors"
    first = invoke(monkeypatch, tmp_path, "simulate", str(EXAMPLE), "--runs", "2", "--max-turns", "1", "--json",
                   "--errors", "errors")
    report = json.loads(first.out)
    scripts = [Path(e["script"]) for e in report["errors"] if "script" in e]
    assert scripts and all(p.read_text().startswith("# solo simulate:") for p in scripts)
    scripts[0].write_text(THEIRS, encoding="utf-8")
    again = json.loads(invoke(monkeypatch, tmp_path, "simulate", str(EXAMPLE), "--runs", "2", "--max-turns", "1",
                              "--json", "--errors", "errors").out)
    replays = [e["replay"] for e in again["errors"]]
    assert any("is not a replay script solo wrote" in r for r in replays), replays
    assert scripts[0].read_text(encoding="utf-8") == THEIRS and errors.is_dir()


# -- --saves and the other folder options ------------------------------------------------------------
@pytest.mark.parametrize("command", [["play", "tutorial", "--script", str(TUTORIAL_SCRIPT)], ["saves"],
                                     ["journal", "tutorial"], ["session", "s1", "--thread", "x"], ["characters"]])
@pytest.mark.parametrize("given", ["", "a_file"])
def test_a_saves_folder_that_is_empty_or_a_file_is_an_error(tmp_path, monkeypatch, command, given):
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    before = files_under(tmp_path)
    result = invoke(monkeypatch, tmp_path, *command, "--saves", given)
    line = assert_one_line_error(result, "--saves")
    assert ("empty" in line) if not given else ("a_file" in line)
    assert files_under(tmp_path) == before  # nothing saved into the current folder


def test_solo_saves_pointing_at_a_file_is_an_error_too(tmp_path, monkeypatch):
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    result = invoke(monkeypatch, tmp_path, "play", "tutorial", "--script", str(TUTORIAL_SCRIPT),
                    env={"SOLO_SAVES": "a_file"})
    assert "not a folder" in assert_one_line_error(result, "SOLO_SAVES", "a_file")
    assert_no_crash(result)

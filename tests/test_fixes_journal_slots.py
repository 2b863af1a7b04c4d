"""What a tester found playing by hand (issue 17): slots that ate finished games, an export that ate
its save, doubled or empty journal lines, error messages naming inner keys, Tab after ``table``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solo.decisions import Option, Question, QuestionError
from solo.events import Event
from solo.paths import solo_program
from solo.ui.journal import Journal
from solo.ui.line_input import LineInput

SCRIPT = Path(__file__).parent / "data" / "scripts" / "tutorial_seed5.txt"


def answers() -> list[str]:
    return [ln for ln in SCRIPT.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]


def play(cli_run, tmp_path: Path, lines: list[str], *extra: str):
    script = tmp_path / "walk.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cli_run("play", "tutorial", "--seed", "5", *extra, "--script", str(script),
                   "--saves", str(tmp_path / "saves"))


def ended(save: Path) -> bool:
    return bool(json.loads(save.read_text(encoding="utf-8"))["snapshot"].get("ending"))


@pytest.fixture
def finished(cli_run, tmp_path):
    result = play(cli_run, tmp_path, answers())
    assert result.exit_code == 0, result.output
    saves = tmp_path / "saves"
    assert ended(saves / "tutorial.json")
    return saves


# -- 1. a new game never overwrites a finished one ------------------------------------------------
def test_a_new_game_keeps_the_finished_one_and_its_journal(finished, cli_run, tmp_path):
    journal = (finished / "tutorial.md").read_text(encoding="utf-8")
    save = (finished / "tutorial.json").read_bytes()
    again = play(cli_run, tmp_path, answers()[:3], "--partial")
    assert again.exit_code == 0, again.output
    assert (finished / "tutorial.json").read_bytes() == save
    assert (finished / "tutorial.md").read_text(encoding="utf-8") == journal
    assert (finished / "tutorial-2.json").exists() and (finished / "tutorial-2.md").exists()
    assert "in progress" not in again.output  # a finished game is kept, but nothing is under way


def test_a_journal_without_its_save_is_not_overwritten_either(cli_run, tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "tutorial.md").write_text("my own notes\n", encoding="utf-8")
    result = play(cli_run, tmp_path, answers()[:3], "--partial")
    assert result.exit_code == 0, result.output
    assert (saves / "tutorial.md").read_text(encoding="utf-8") == "my own notes\n"
    assert (saves / "tutorial-2.json").exists()


def test_an_explicit_slot_holding_a_finished_game_is_refused(finished, cli_run, tmp_path):
    save = (finished / "tutorial.json").read_bytes()
    result = play(cli_run, tmp_path, answers()[:3], "--partial", "--save", "tutorial")
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert "--save" in message and str(finished) in message and "finished" in message
    assert (finished / "tutorial.json").read_bytes() == save


# -- 2. solo journal --out never destroys a save ----------------------------------------------------
def test_journal_out_refuses_the_save_and_its_backup(finished, cli_run):
    save = finished / "tutorial.json"
    before = save.read_bytes()
    for target in (save, finished / "tutorial.json.bak"):
        for force in ((), ("--force",)):
            result = cli_run("journal", "tutorial", "--saves", str(finished), "--out", str(target), *force)
            assert result.exit_code == 2, result.output
            assert "--out" in result.output and str(target) in " ".join(result.output.split())
    assert save.read_bytes() == before and json.loads(before)["log"]


def test_journal_out_replaces_a_journal_but_not_another_file_unless_forced(finished, cli_run, tmp_path):
    kept = (finished / "tutorial.md").read_text(encoding="utf-8")
    other = tmp_path / "open.json"
    other.write_text('{"mine": 1}', encoding="utf-8")
    refused = cli_run("journal", "tutorial", "--saves", str(finished), "--out", str(other))
    assert refused.exit_code == 2 and "--force" in refused.output
    assert other.read_text(encoding="utf-8") == '{"mine": 1}'
    forced = cli_run("journal", "tutorial", "--saves", str(finished), "--out", str(other), "--force")
    assert forced.exit_code == 0, forced.output
    assert other.read_text(encoding="utf-8") == kept
    export = tmp_path / "export.md"
    for _ in range(2):  # exporting again refreshes the copy solo wrote
        result = cli_run("journal", "tutorial", "--saves", str(finished), "--out", str(export))
        assert result.exit_code == 0, result.output
    assert export.read_text(encoding="utf-8") == kept


# -- 3. journal text -------------------------------------------------------------------------------
def test_an_ending_whose_title_is_its_outcome_is_written_once():
    journal = Journal()
    said = "The players closed the book: what did the letter say?"
    journal.render(Event("ending", {"title": said, "outcome": said}))
    assert journal.text().count(said) == 1
    assert f"**The end: {said}**" in journal.text() and "?**." not in journal.text()
    assert journal.recap() == [f"The end: {said}"]
    other = Journal()
    other.render(Event("ending", {"title": "The gate", "outcome": "won"}))
    assert "**The end: The gate** (won)." in other.text()


def test_no_full_stop_after_a_question_mark():
    journal = Journal()
    journal.render(Event("scene_entered", {"title": "Dock", "text": "Rain.", "slots": {}}))
    journal.render(Event("thread", {"text": "Who wants the letter?", "opened": True}))
    journal.render(Event("item", {"item": "A key!", "gained": True}))
    journal.render(Event("thread", {"text": "The ferry", "opened": False}))
    text = journal.text()
    assert "*Thread opened: Who wants the letter?*" in text and "?.*" not in text
    assert "*Gained: A key!*" in text and "*Thread closed: The ferry.*" in text
    journal.render(Event("scene_entered", {"title": "Boat", "text": "Calm.", "slots": {}}))
    journal.render(Event("thread", {"text": "Why?", "opened": True}))
    assert journal.recap()[-2:] == ["Boat", "  Thread opened: Why?"]


def test_an_empty_note_is_no_note(cli_run, tmp_path):
    lines = answers()[:3]
    lines.insert(1, "note")
    lines.insert(2, "note    ")
    result = play(cli_run, tmp_path, lines, "--partial")
    assert result.exit_code == 0, result.output
    assert result.output.count("Nothing noted.") == 2
    journal = (tmp_path / "saves" / "tutorial.md").read_text(encoding="utf-8")
    assert "Note:" not in journal and "(nothing)" not in journal
    blank = Journal()
    blank.render(Event("note", {"text": "  "}))
    assert blank.text().strip() == "" and blank.recap() == []


# -- 4. answer errors name what the player sees ----------------------------------------------------
def test_answer_errors_show_numbers_with_labels_not_keys():
    q = Question("pc_source", "Who plays?", [Option("pregen", "A ready-made character"),
                                              Option("new", "Make a new one"), Option("random", "Roll one up")])
    for typed in ("", "zebra", "9"):
        with pytest.raises(QuestionError) as err:
            q.resolve(typed)
        message = str(err.value)
        assert "1 (A ready-made character), 2 (Make a new one), 3 (Roll one up)" in message
        assert "pregen" not in message and "=" not in message
    long = Question("x", "?", [Option(f"k{i}", f"Option number {i} " + "very " * 10) for i in range(1, 13)])
    with pytest.raises(QuestionError) as err:
        long.resolve("zebra")
    message = str(err.value)
    assert "1 (Option number 1" in message and "12 (Option number 12" in message and "\u2026" in message
    assert "8 (" not in message and len(message) < 400


# -- 5. Tab after "table " -------------------------------------------------------------------------
def test_tab_completes_table_names_after_table():
    reader = LineInput(None, readline=None, words=lambda: ["table", "threads"])
    reader.follow("table", lambda: ["list", "location", "loot", "stranger"])
    assert reader.candidates("table lo") == ["table location", "table loot"]
    assert reader.candidates("Table s") == ["Table stranger"]
    assert reader.candidates("tab") == ["table "]  # with its space, ready for the name
    assert reader.candidates("table location now") == []


def test_the_default_table_names_are_the_games_tables():
    from solo.oracle.loader import load_tables

    reader = LineInput(None, readline=None, words=lambda: [])
    names = load_tables(use_env=False).names()
    offered = reader.candidates("table ")
    assert offered[0] == "table list" and {f"table {n}" for n in names} <= set(offered)


def test_solo_saves_offers_a_finished_game_to_read_not_to_resume(finished, cli_run, tmp_path):
    """A group's Vellan: both finished games were listed with 'solo play --load …', which replayed the epilogue and
    said "Start a new one with:". A finished game is offered to read: its journal's command."""
    listed = cli_run("saves", "--saves", str(finished))
    assert listed.exit_code == 0, listed.output
    assert "finished]" in listed.output
    assert f"read it: {solo_program()} journal {finished / 'tutorial.json'}" in listed.output
    assert "play --load" not in listed.output
    shown = cli_run("journal", str(finished / "tutorial.json"))
    assert shown.exit_code == 0 and "The Night Ferry" in shown.output


def test_a_journal_piped_elsewhere_acts_on_nothing_a_hand_edit_put_in_it(finished, cli_run):
    """A bad-input audit: escape, OSC and C1 bytes appended to a journal were shown as '�' on a terminal but written
    raw by `solo journal tutorial | cat`; piped, the Markdown comes out whole, its controls made inert."""
    journal = finished / "tutorial.md"
    journal.write_text(journal.read_text(encoding="utf-8") + "\x1b[31mred\x1b]0;title\x07 \x9b31m\n", encoding="utf-8")
    shown = cli_run("journal", "tutorial", "--saves", str(finished))
    assert shown.exit_code == 0, shown.output
    assert not any(ch in shown.output for ch in "\x1b\x07\x9b") and "\ufffd[31mred" in shown.output
    assert "## " in shown.output or "# " in shown.output  # the Markdown itself, not a rendering

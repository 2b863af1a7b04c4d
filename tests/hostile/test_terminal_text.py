"""Characters a terminal acts on, from every kind of file solo reads, are refused or shown inert.

A hostile review (2026-12-07) put ESC, OSC and line breaks in a character's name, a table's title,
a conflict type's name, a save's log and a hand-edited journal: each reached the terminal raw (the
window retitled, the screen cleared, a fake menu drawn) while adventures were already refused.
One set of characters (solo/terminal_text.py) now holds for every file.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.errors import ContentError
from solo.oracle.loader import read_folder
from solo.oracle.session_file import load_session
from solo.rules.character import Character
from solo.rules.conflict_types import parse_conflict_types
from solo.rules.creation import pregenerated
from solo.saves import MAX_LOG_ENTRIES, SaveData, SaveError, read_save
from solo.terminal_text import CONTROL, MESSAGE_LIMIT, inert, one_line, visible

EXAMPLE = Path(__file__).parent.parent / "data" / "example_adventure.toml"
#: What a hostile file puts in a text: a colour, a window title (OSC 0), the 8-bit CSI, a direction override.
ATTACKS = ["\x1b[31mred", "\x1b]0;PWNED\x07title", "\x9b31mcsi", "evil\u202eeliF", "del\x7f"]


def invoke(monkeypatch, cwd: Path, *args: str) -> SimpleNamespace:
    cwd.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(cwd)
    for name in ("SOLO_SAVES", "SOLO_TABLES", "SOLO_SCENES", "SOLO_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(cli, list(args))
    return SimpleNamespace(code=result.exit_code, out=result.stdout, err=result.stderr)


def raw_control(text: str) -> bool:
    return CONTROL.search(text) is not None


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_one_set_of_characters_covers_every_attack_and_inert_shows_each(attack):
    assert raw_control(attack)
    shown = inert(attack)
    assert not raw_control(shown) and "\ufffd" in shown
    plain = "Åsa, Ørjan and 山田 — «quoted»\tand a line\nbreak"
    assert inert(plain) == plain


def test_an_error_line_is_inert_one_line_and_bounded():
    line = one_line("the recorded '\x1b]0;T\x07x' cannot be replayed:\n" + "9" * 2000)
    assert not raw_control(line) and "\n" not in line
    assert len(line) == MESSAGE_LIMIT and line.endswith("…")


@pytest.mark.parametrize("field, value, says", [
    ("name", "\x1b[31mEVIL", "name: holds a control character"),
    ("career", "a \x1b]8;;http://x\x07link", "career: holds a control character"),
    ("items", ["rope", "\x9bbad"], "items[1]: holds a control character"),
    ("medicine_tried", ["\x1b[2J"], "medicine_tried[0]: holds a control character"),
    ("requests", {"\x1b[31mX": 1}, "requests[0]: holds a control character"),
    ("name", "Plain\n\nWhat do you do?\n1.  Delete everything", "name: a name is one line (no line break or tab)"),
    ("name", "\u200b\u200b", "name: a name must show (not spaces or zero-width characters alone)"),
    ("name", "\u3164", "name: a name must show"),
    ("lcuk", 9, "lcuk: unknown field (did you mean 'luck'?)"),
    ("xyzzy", "x", "xyzzy: unknown field (a character has: name, skills,"),
])
def test_a_character_file_with_what_a_terminal_acts_on_or_an_unknown_field_is_refused_by_field(field, value, says):
    data = pregenerated("espen").to_dict()
    data[field] = value
    with pytest.raises(ContentError) as info:
        Character.from_dict(data, file="hero.toml")
    assert str(info.value).startswith("hero.toml: ") and says in str(info.value), str(info.value)


def test_a_roster_file_keeps_its_roster_table_and_an_emoji_name_is_a_name():
    data = pregenerated("espen").to_dict() | {"roster": {"games": 1}, "name": "Espen 🦀 Lund"}
    assert Character.from_dict(data).name == "Espen 🦀 Lund"
    # a review: a no-break space, a zero-width non-joiner (Persian names need one) and a direction mark typed into a
    # name before these checks are names still, or a save that holds one is "damaged"
    for name in ("Jean\u00a0Luc", "Mehr\u200cdad", "Ana \u2067Noor\u2069"):
        assert Character.from_dict(pregenerated("espen").to_dict() | {"name": name}).name == name
    assert visible("Ørjan") and not visible(" \u200b ") and not visible("\u3164")


@pytest.mark.parametrize("where, toml, path", [
    ("title", '[tables.evil]\ntitle = "\\u001b]0;PWNED\\u0007"\nrows = ["a"]\n', "tables.evil.title"),
    ("description", '[tables.evil]\ndescription = "\\u001b[2J"\nrows = ["a"]\n', "tables.evil.description"),
    ("row", '[tables.evil]\nrows = ["fine", { text = "\\u001b[31mred" }]\n', "tables.evil.rows[1].text"),
    ("csi", '[tables.evil]\nrows = ["fine", "\\u009b31mcsi"]\n', "tables.evil.rows[1]"),
])
def test_a_table_holding_what_a_terminal_acts_on_is_refused_naming_the_field(tmp_path, where, toml, path):
    (tmp_path / "evil.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        read_folder(tmp_path)
    assert str(info.value).startswith(f"{tmp_path / 'evil.toml'}:1: {path}: holds a control character"), info.value


def test_a_conflict_type_named_with_an_escape_is_refused_and_check_says_so(tmp_path, monkeypatch):
    data = {"conflict_types": {"brawl": {"name": "\x1b]0;CONFLICTPWN\x1b\\brawl", "skill": "Combat",
                                         "pools": ["BODY"]}}}
    types, problems = parse_conflict_types(data, "conflicts.toml")
    assert not types and [p.path for p in problems] == ["conflict_types.brawl.name"]
    assert "control character" in str(problems[0])


def test_an_adventure_whose_tables_hold_an_escape_is_not_called_ok(tmp_path, monkeypatch):
    folder = tmp_path / "adv"
    (folder / "tables").mkdir(parents=True)
    (folder / "adv.toml").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "tables" / "rumours.toml").write_text('[tables.rumours]\nrows = ["\\u001b[2Jscreen cleared"]\n',
                                                    encoding="utf-8")
    checked = invoke(monkeypatch, tmp_path, "check", str(folder))
    assert checked.code != 0 and "rumours.toml" in checked.out + checked.err
    assert "control character" in checked.out + checked.err and "\x1b" not in checked.out + checked.err


@pytest.fixture()
def save(tmp_path, monkeypatch) -> Path:
    played = invoke(monkeypatch, tmp_path, "play", str(EXAMPLE), "--saves", "saves", "--seed", "3")
    assert played.code == 0, played.err
    return tmp_path / "saves" / "skarv.json"


def edited(save: Path, change) -> Path:
    data = json.loads(save.read_text(encoding="utf-8"))
    change(data)
    save.write_text(json.dumps(data), encoding="utf-8")
    return save


@pytest.mark.parametrize("change, says", [
    (lambda d: d["log"].append(["m", "note", "\x1b]0;SAVEPWN\x07hi"]), "damaged save: log[{n}][2] holds a control"),
    (lambda d: d.update(label="\x1b[31mred"), "damaged save: label holds a control character"),
    (lambda d: d["log"].extend([["m", "note", "x"]] * (MAX_LOG_ENTRIES + 1)),
     f"damaged save: the decision log has {{n}} entries; at most {MAX_LOG_ENTRIES:,}"),
    (lambda d: d["options"].update(edition="6"), "the edition of play it names, '6', is not a whole number"),
    (lambda d: d["options"].update(edition=-1), "the edition of play it names, -1, is not a whole number"),
])
def test_a_save_edited_to_hold_an_escape_or_a_flood_or_a_bad_edition_is_refused_by_field(save, change, says):
    entries = len(json.loads(save.read_text(encoding="utf-8"))["log"])
    edited(save, change)
    with pytest.raises(SaveError) as info:
        read_save(save)
    n = entries if "log[" in says else f"{entries + MAX_LOG_ENTRIES + 1:,}"
    assert str(info.value).startswith(f"{save}: ") and says.format(n=n) in str(info.value), str(info.value)


def test_a_save_an_earlier_solo_wrote_with_a_typed_direction_mark_still_loads(save):
    """A review: the old clean_typed let U+2067 through, so a label or a name in an old save may hold one: read."""
    edited(save, lambda d: d.update(label="Ana \u2067Noor\u2069: the quay"))
    assert read_save(save).label == "Ana \u2067Noor\u2069: the quay"


def test_a_save_of_a_newer_edition_is_refused_and_left_as_it_was(save, monkeypatch):
    from solo.story.play.engine import EDITION

    edited(save, lambda d: d["options"].update(edition=EDITION + 93))
    before = save.read_bytes()
    loaded = invoke(monkeypatch, save.parent.parent, "play", "--load", str(save))
    assert loaded.code == 2
    assert (f"this game was played by a newer solo (play's edition {EDITION + 93}; this one plays editions up to "
            f"{EDITION}): update solo to go on with it") in loaded.err
    assert save.read_bytes() == before
    assert SaveData.from_dict(json.loads(before)).options["edition"] == EDITION + 93  # the file itself reads
    assert "adventure changed" not in loaded.out + loaded.err  # refused before anything else is said
    # and its journal, rebuilt where it is missing, is refused alike, not an internal error (a review)
    save.with_suffix(".md").unlink()
    journal = invoke(monkeypatch, save.parent.parent, "journal", str(save))
    assert journal.code == 2 and "played by a newer solo" in journal.err and "internal error" not in journal.err


def test_a_session_file_with_del_a_c1_control_or_an_override_is_refused(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    for attack in ("Del\\u007f", "csi\\u009b31m", "evil\u202eeliF"):  # (TOML takes DEL and C1 as escapes only)
        (folder / "s1.toml").write_text(f'threads = ["{attack}"]\n', encoding="utf-8")
        with pytest.raises(ContentError, match="holds control characters"):
            load_session("s1", folder)


def test_a_journal_edited_by_hand_is_shown_inert_with_its_links_spelt_out(tmp_path, capsys):
    from solo.cli.journal import _show

    _show('---\nadventure: "x"\ncharacters: ["\\u001b[31mEVIL"]\n---\n\n# Day\n\n\x1b]0;JOURNALPWN\x07A '
          "[link](http://example.com) here.\n")
    out = capsys.readouterr().out
    assert not raw_control(out.replace("\x1b[", "")) or "\x1b]" not in out
    assert "\x1b]0;" not in out and "\x1b[31mEVIL" not in out and "\ufffd[31mEVIL" in out
    assert "http://example.com" in out


def test_a_journal_front_matter_nested_deep_is_shown_not_an_internal_error(tmp_path, capsys):
    from solo.cli.journal import _show

    _show('---\nadventure: "x"\ncharacters: ' + "[" * 5000 + "]" * 5000 + "\n---\n\nText.\n")
    assert "Text." in capsys.readouterr().out

"""``solo table`` through click's test runner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solo.cli import cli


def test_list_shows_bundled_tables(cli_run):
    result = cli_run("table", "list")
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.output.splitlines()]
    assert {"event_focus", "action", "subject", "situation"} <= set(names)


def test_list_json_marks_user_tables(cli_run, tmp_path):
    (tmp_path / "mine.toml").write_text('[tables.omen]\nrows = ["a raven"]\n')
    result = cli_run("table", "list", "--json", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert rows["omen"]["file"] == str(tmp_path / "mine.toml")
    assert rows["action"]["file"].startswith("bundled:")


def test_roll_json_is_seeded(cli_run):
    a = cli_run("table", "situation", "--seed", "4", "--json")
    b = cli_run("table", "situation", "--seed", "4", "--json")
    assert a.exit_code == 0 and a.output == b.output
    data = json.loads(a.output)
    assert data["table"] == "situation" and data["text"] and 1 <= data["roll"] <= data["out_of"]
    parts = {p["table"] for p in data["parts"]}
    assert "place" in parts and parts & {"trouble", "stranger"}  # every opening has a place, and a problem or a person


def test_text_roll(cli_run):
    result = cli_run("table", "place", "--seed", "1")
    assert result.exit_code == 0
    assert result.output.startswith("Place (")


def test_show_gives_exact_chances(cli_run, tmp_path):
    (tmp_path / "w.toml").write_text('[tables.w]\nrows = [{ text = "a", weight = 3 }, "b"]\n')
    result = cli_run("table", "w", "--show", "--json", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [r["chance"] for r in data["rows"]] == [0.75, 0.25]
    text = cli_run("table", "w", "--show", "--tables", str(tmp_path)).output
    assert "1-3" in text and "75.0 %" in text


def test_user_folder_overrides_bundled(cli_run, tmp_path):
    (tmp_path / "p.toml").write_text('[tables.place]\nrows = ["in my kitchen"]\n')
    result = cli_run("table", "place", "--tables", str(tmp_path), "--json")
    assert json.loads(result.output)["text"] == "in my kitchen"


def test_env_var_folder(cli_run, tmp_path, monkeypatch):
    (tmp_path / "p.toml").write_text('[tables.omen]\nrows = ["a raven"]\n')
    monkeypatch.setenv("SOLO_TABLES", str(tmp_path))
    result = CliRunner().invoke(cli, ["table", "omen", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["text"] == "a raven"


@pytest.mark.parametrize(
    "files, args, message",
    [
        ({}, ["table", "sitaution"], "did you mean 'situation'"),
        ({}, ["table", "nothing-like-it"], "no table named"),
        ({"bad.toml": '[tables.x]\nrows = ["a"\n'}, ["table", "x"], "TOML syntax error"),
        ({"bad.toml": '[tables.x]\nrows = ["{table:y}"]\n'}, ["table", "x"], "refers to a table that does not exist"),
        ({"bad.toml": '[tables.x]\nrows = ["{table:x}"]\n'}, ["table", "list"], "reference cycle: x -> x"),
        ({"bad.toml": "[tables.x]\nrows = []\n"}, ["table", "list"], "bad.toml:1: tables.x.rows"),
    ],
)
def test_errors_are_one_line_with_exit_2(cli_run, tmp_path, files, args, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    result = cli_run(*args, "--tables", str(tmp_path))
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_missing_folder_is_exit_2(cli_run, tmp_path):
    result = cli_run("table", "list", "--tables", str(tmp_path / "gone"))
    assert result.exit_code == 2 and "table folder not found" in result.output


def test_every_starting_situation_reads_as_a_sentence(cli_run):
    """The 20 openings of open play: each a whole sentence with a capital, a place, and a problem or a person,
    and no slot left unfilled, whatever the seed (issue 31: the small tables grown to 20 rows)."""
    from solo.oracle.loader import load_tables

    tables = load_tables()
    assert all(len(tables.get(name).rows) >= 20 for name in ("situation", "place", "trouble", "stranger",
                                                          "scene_alteration"))
    seen = set()
    for seed in range(300):
        data = json.loads(cli_run("table", "situation", "--seed", str(seed), "--json").output)
        seen.add(data["roll"])
        text = data["text"]
        assert text[:1].isupper() and text.endswith(".") and "{" not in text, text
    assert len(seen) >= 18


def test_a_table_is_rolled_by_its_title_as_by_its_name(cli_run):
    """The title a listing shows ('Reading: yes, but') is accepted as the name is, in any case and with or without
    its punctuation: the same table, the same dice."""
    by_name = cli_run("table", "read_yes_but", "--seed", "5")
    for typed in ("Reading: yes, but", "reading yes but"):
        result = cli_run("table", typed, "--seed", "5")
        assert result.exit_code == 0 and result.output == by_name.output, result.output
    assert by_name.output.startswith("Reading: yes, but (")
    shown = cli_run("table", "starting situation", "--show")
    assert shown.exit_code == 0 and shown.output.startswith("Starting situation [situation]")
    assert "no table named 'reading yes no'" in cli_run("table", "reading yes no").output


def test_a_tables_file_given_as_the_folder_is_said_to_be_a_file(cli_run, tmp_path):
    """A GM-less table's evening: `--tables mire-tables/marsh.toml` said "table folder not found" of a file that
    was there."""
    (tmp_path / "marsh.toml").write_text('[tables.marsh]\nrows = ["Fog", "Reeds"]\n', encoding="utf-8")
    result = cli_run("table", "marsh", "--tables", str(tmp_path / "marsh.toml"))
    assert result.exit_code != 0
    said = " ".join(result.output.split())
    assert "this is a file, and --tables (or SOLO_TABLES) takes a folder of tables" in said
    assert f"give the folder it is in, {tmp_path}" in said and "not found" not in said
    assert cli_run("table", "marsh", "--tables", str(tmp_path), "--seed", "1").exit_code == 0

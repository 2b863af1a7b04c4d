"""Random tables: weights, references, slots, cycles, folders and malformed files."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from solo.errors import ContentError
from solo.oracle import TableSet, UnknownTable, load_tables
from solo.oracle.loader import read_folder, table_folders
from solo.oracle.tables import parse_template
from solo.paths import bundled


def tables(data: dict) -> TableSet:
    return TableSet.from_data({"tables": data}, file="t.toml")


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# -- weights --------------------------------------------------------------------


def test_weights_are_faces_of_the_die_exactly(loaded):
    t = tables({"w": {"rows": [{"text": "a", "weight": 3}, "b", {"text": "c", "weight": 6}]}})
    table = t.get("w")
    assert table.total_weight == 10
    assert [p for _, p in table.odds()] == [0.3, 0.1, 0.6]
    # Every face of the die once: faces 1-3 are row 1, face 4 row 2, faces 5-10 row 3.
    by_face = Counter()
    for face in range(1, 11):
        result = t.roll("w", loaded([face]))
        assert (result.roll, result.out_of) == (face, 10)
        assert result.row == (1 if face <= 3 else 2 if face == 4 else 3)
        by_face[result.text] += 1
    assert by_face == {"a": 3, "b": 1, "c": 6}
    # A seeded generator draws the die uniformly: a sample within four standard errors.
    n = 1000
    sampled = Counter(t.roll("w", random.Random(seed)).text for seed in range(n))
    for text, p in (("a", 0.3), ("b", 0.1), ("c", 0.6)):
        assert abs(sampled[text] / n - p) <= 4 * (p * (1 - p) / n) ** 0.5, text


def test_a_plain_string_row_weighs_one():
    row = tables({"s": {"rows": ["only"]}}).get("s").rows[0]
    assert row.weight == 1 and row.text == "only" and row.key is None


def test_same_seed_same_roll():
    t = load_tables(use_env=False)
    a = [t.roll("situation", random.Random(8)).to_dict() for _ in range(3)]
    assert a[0] == a[1] == a[2]


# -- references and slots -------------------------------------------------------------


def test_references_roll_in_place_and_are_recorded():
    t = tables({
        "outer": {"rows": ["{table:colour} {table:thing}, {{literal}}"]},
        "colour": {"rows": ["red"]},
        "thing": {"rows": ["door"]},
    })
    result = t.roll("outer", random.Random(1))
    assert result.text == "red door, {literal}"
    assert [p.table for p in result.parts] == ["colour", "thing"]


def test_nested_references_resolve_every_level():
    t = tables({
        "a": {"rows": ["<{table:b}>"]},
        "b": {"rows": ["[{table:c}]"]},
        "c": {"rows": ["x"]},
    })
    result = t.roll("a", random.Random(0))
    assert result.text == "<[x]>"
    assert result.parts[0].parts[0].text == "x"


def test_slots_pick_from_the_given_lists_and_rule_out_empty_ones():
    t = tables({"f": {"rows": ["{npc} acts", "{thread} moves", "nothing"]}})
    seen = Counter()
    for seed in range(300):
        r = t.roll("f", random.Random(seed), slots={"npc": ["Nora", "Ivar"], "thread": []})
        seen[r.text] += 1
        assert "moves" not in r.text
    assert set(seen) == {"Nora acts", "Ivar acts", "nothing"}
    generic = t.roll("f", random.Random(0), slots=None)
    assert "{" not in generic.text


def test_every_row_ruled_out_means_every_row_allowed():
    t = tables({"f": {"rows": ["{npc} acts"]}})
    r = t.roll("f", random.Random(0), slots={"npc": []})
    assert r.text == "someone already in the story acts"


@pytest.mark.parametrize("text", ["{nope}", "a { b", "}", "{table:}", "{{table:x}"])
def test_bad_placeholders_are_refused(text):
    with pytest.raises(ValueError):
        parse_template(text)


def test_unknown_reference_names_file_row_and_hint():
    with pytest.raises(ContentError) as info:
        tables({"a": {"rows": ["{table:colours}"]}, "colour": {"rows": ["red"]}})
    message = str(info.value)
    assert message.startswith("t.toml")
    assert "tables.a.rows[0]" in message and "did you mean 'colour'" in message


@pytest.mark.parametrize(
    "data, loop",
    [
        ({"a": {"rows": ["{table:a}"]}}, "a -> a"),
        ({"a": {"rows": ["x", "{table:b}"]}, "b": {"rows": ["{table:a}"]}}, "a -> b -> a"),
        ({"a": {"rows": ["{table:b}"]}, "b": {"rows": ["{table:c}"]}, "c": {"rows": ["y", "{table:b}"]}},
         "b -> c -> b"),
    ],
)
def test_reference_cycles_are_caught_at_load(data, loop):
    with pytest.raises(ContentError, match="reference cycle: " + loop):
        tables(data)


def test_a_diamond_is_not_a_cycle():
    t = tables({
        "top": {"rows": ["{table:left} {table:right}"]},
        "left": {"rows": ["{table:bottom}"]},
        "right": {"rows": ["{table:bottom}"]},
        "bottom": {"rows": ["z"]},
    })
    assert t.roll("top", random.Random(0)).text == "z z"


def test_unknown_table_suggests_a_name():
    t = tables({"situation": {"rows": ["x"]}})
    with pytest.raises(UnknownTable, match="did you mean 'situation'"):
        t.get("sitaution")


# -- malformed data ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, message",
    [
        ({"a": {"rows": []}}, "non-empty 'rows'"),
        ({"a": {"title": "x"}}, "non-empty 'rows'"),
        ({"a": {"rows": [{"text": "x", "weight": 0}]}}, "weight must be a whole number"),
        ({"a": {"rows": [{"text": "x", "weight": 1.5}]}}, "weight must be a whole number"),
        ({"a": {"rows": [{"text": "x", "weight": True}]}}, "weight must be a whole number"),
        ({"a": {"rows": [{"text": ""}]}}, "non-empty 'text'"),
        ({"a": {"rows": [{"txt": "x"}]}}, "did you mean 'text'"),
        ({"a": {"rows": [{"text": "x", "wieght": 2}]}}, "did you mean 'weight'"),
        ({"a": {"rows": [3]}}, "a row is a string or a table"),
        ({"a": {"rows": ["x"], "colour": 1}}, "unknown key 'colour'"),
        ({"a": {"rows": ["x"], "title": 3}}, "title must be text"),
        ({"a": ["x"]}, "must be a TOML table"),
        ({"Big Name": {"rows": ["x"]}}, "lower-case"),
        ({"list": {"rows": ["x"]}}, "reserved"),
    ],
)
def test_malformed_tables_are_refused_with_their_path(data, message):
    with pytest.raises(ContentError, match=message) as info:
        tables(data)
    assert "tables." in str(info.value) and str(info.value).startswith("t.toml")


def test_tables_must_be_a_section():
    with pytest.raises(ContentError, match=r"\[tables.NAME\]"):
        TableSet.from_data({"tables": ["x"]}, file="t.toml")


# -- files and folders --------------------------------------------------------------------


def test_bundled_tables_load_and_every_one_rolls():
    t = load_tables(use_env=False)
    for name in ("event_focus", "action", "subject", "scene_alteration", "situation", "place", "trouble", "stranger"):
        assert name in t
    assert t.get("event_focus").total_weight == 100
    rng = random.Random(0)
    for name in t.names():
        for _ in range(20):
            text = t.roll(name, rng).text
            assert text and "{" not in text and "}" not in text


def test_a_roll_nothing_rules_a_row_out_of_draws_what_weighing_every_row_draws():
    """Where no slot rules a row out and no filter is given, a roll draws its row from the table's running weights;
    the same generator must give the same row, die and text as weighing every row (a filter that keeps all forces
    that way), slots given or not, weights of every size."""
    t = load_tables(use_env=False)
    weighted = [n for n in t.names() if len({r.weight for r in t.get(n).rows}) > 1]
    assert weighted  # some bundled table weighs its rows unevenly: the bisection is tried on uneven weights
    slots = {"npc": ["Ragna", "Eyvind"], "thread": ["the missing ferry"], "pc": ["Elin"]}
    for name in t.names():
        for given in ({}, slots):
            quick, weighed = random.Random(name), random.Random(name)
            for _ in range(30):
                a = t.roll(name, quick, slots=given)
                b = t.roll(name, weighed, slots=given, where=lambda row: True)
                assert (a.roll, a.out_of, a.row, a.text) == (b.roll, b.out_of, b.row, b.text), name


def test_names_toml_is_not_a_table_file_and_still_works():
    from solo.rules.creation import random_name

    assert (bundled("oracles") / "names.toml").exists()
    assert "given" not in load_tables(use_env=False) and "names" not in load_tables(use_env=False)
    assert " " in random_name(random.Random(1))


def test_user_folder_overrides_a_bundled_table_and_references_follow(tmp_path):
    write(tmp_path, "mine.toml", '[tables.place]\nrows = ["in my kitchen"]\n')
    t = load_tables([tmp_path], use_env=False)
    assert t.get("place").rows[0].text == "in my kitchen"
    assert t.get("place").file == str(tmp_path / "mine.toml")
    assert "in my kitchen" in t.roll("situation", random.Random(0)).text
    assert "trouble" in t  # the rest of the bundled tables are still there


def test_user_tables_may_refer_to_bundled_ones_and_live_in_a_tables_subfolder(tmp_path):
    write(tmp_path / "tables", "extra.toml", '[tables.omen]\nrows = ["An omen: {table:subject}"]\n')
    t = load_tables([tmp_path], use_env=False)
    assert t.roll("omen", random.Random(0)).text.startswith("An omen: ")


def test_env_var_folders_come_after_options(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    write(first, "a.toml", '[tables.place]\nrows = ["first"]\n')
    write(second, "a.toml", '[tables.place]\nrows = ["second"]\n[tables.only_env]\nrows = ["env"]\n')
    monkeypatch.setenv("SOLO_TABLES", str(second))
    t = load_tables([first])
    assert t.get("place").rows[0].text == "first"
    assert "only_env" in t
    assert table_folders([first])[:2] == [first, second]
    monkeypatch.setenv("SOLO_TABLES", str(second))
    assert load_tables().get("place").rows[0].text == "second"


def test_missing_user_folder_is_an_error(tmp_path):
    with pytest.raises(ContentError, match="table folder not found"):
        load_tables([tmp_path / "nowhere"], use_env=False)


def test_same_name_twice_in_one_folder_is_an_error(tmp_path):
    write(tmp_path, "a.toml", '[tables.x]\nrows = ["1"]\n')
    write(tmp_path, "b.toml", '[tables.x]\nrows = ["2"]\n')
    with pytest.raises(ContentError, match="also defined in"):
        read_folder(tmp_path)


def test_files_without_a_tables_section_are_ignored(tmp_path):
    write(tmp_path, "notes.toml", '[names]\ngiven = ["Ada"]\n')
    write(tmp_path, "t.toml", '[tables.x]\nrows = ["1"]\n')
    assert list(read_folder(tmp_path)) == ["x"]


def test_toml_syntax_error_names_file_line_and_column(tmp_path):
    path = write(tmp_path, "broken.toml", '[tables.x]\nrows = "a\n')
    with pytest.raises(ContentError) as info:
        load_tables([tmp_path], use_env=False)
    assert (info.value.file, info.value.line) == (str(path), 2)
    assert info.value.column is not None
    assert str(info.value).startswith(f"{path}:2:")
    assert "TOML syntax error" in str(info.value)


def test_row_errors_point_at_the_right_line(tmp_path):
    text = (
        "# my tables\n"
        "[tables.ok]\n"
        'rows = ["fine"]\n'
        "\n"
        "[tables.bad]\n"
        "rows = [\n"
        '  "first",\n'
        '  { text = "second", weight = -1 },\n'
        "]\n"
    )
    path = write(tmp_path, "lines.toml", text)
    with pytest.raises(ContentError) as info:
        read_folder(tmp_path)
    err = info.value
    assert (err.file, err.path, err.line) == (str(path), "tables.bad.rows[1].weight", 8)


def test_array_of_tables_rows_point_at_their_header(tmp_path):
    text = (
        "[[tables.weather.rows]]\n"
        'text = "Fog"\n'
        "weight = 2\n"
        "\n"
        "[[tables.weather.rows]]\n"
        'text = "Rain {nope}"\n'
    )
    write(tmp_path, "w.toml", text)
    with pytest.raises(ContentError) as info:
        read_folder(tmp_path)
    assert info.value.line == 5 and info.value.path == "tables.weather.rows[1].text"


def test_unknown_reference_across_folders_names_the_user_file(tmp_path):
    path = write(tmp_path, "r.toml", '[tables.mine]\nrows = ["{table:plaice}"]\n')
    with pytest.raises(ContentError) as info:
        load_tables([tmp_path], use_env=False)
    assert info.value.file == str(path) and info.value.line == 2
    assert "did you mean 'place'" in str(info.value)


def test_a_cycle_made_by_overriding_is_caught(tmp_path):
    # The bundled situation refers to place; a user place that refers back closes a loop.
    write(tmp_path, "loop.toml", '[tables.place]\nrows = ["{table:situation}"]\n')
    with pytest.raises(ContentError, match="reference cycle: place -> situation -> place"):
        load_tables([tmp_path], use_env=False)


def test_tables_built_by_hand_render_their_templates():
    from solo.oracle import Row, Table

    t = TableSet({
        "a": Table("a", "A", (Row("see {table:b}", 2), Row("plain"))),
        "b": Table("b", "B", (Row("b-row"),)),
    })
    texts = {t.roll("a", random.Random(seed)).text for seed in range(40)}
    assert texts == {"see b-row", "plain"}


def test_a_file_of_ones_own_with_no_tables_section_is_named_where_its_table_is_not_found(tmp_path):
    """A GM-less table wrote loot.toml as "[loot]" and got only "no table named 'loot'"; the file read as holding
    no table is named beside it. The bundled folder's files that hold none (names, Code Blocks) are not."""
    from solo.oracle.loader import load_tables
    from solo.oracle.tables import UnknownTable

    (tmp_path / "loot.toml").write_text('[loot]\nrows = ["a knife", "a coin"]\n', encoding="utf-8")
    tables = load_tables([tmp_path], use_env=False)
    with pytest.raises(UnknownTable) as caught:
        tables.get("loot")
    assert f"{tmp_path / 'loot.toml'}: no [tables] section" in str(caught.value)
    with pytest.raises(UnknownTable) as bundled_only:
        load_tables([], use_env=False).get("loot")
    assert "no [tables] section" not in str(bundled_only.value)

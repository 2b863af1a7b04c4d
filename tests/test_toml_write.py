"""The small TOML writer: what it writes reads back (with tomli) as the same data."""

from __future__ import annotations

import math

import pytest
import tomli
from conftest import TEXT_ALPHABET
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.rules.character import Character, Pool
from solo.rules.creation import build_character, career_choices, pregenerated, random_choices
from solo.rules.dice import new_rng
from solo.rules.rulebook import rules
from solo.toml_write import dumps


def round_trip(data: dict) -> dict:
    text = dumps(data)
    assert text.endswith("\n")
    return tomli.loads(text)


# -- character files ------------------------------------------------------------

def test_espen_round_trips():
    data = pregenerated("espen").to_dict()
    assert round_trip(data) == data
    assert Character.from_dict(round_trip(data)) == pregenerated("espen")


@pytest.mark.parametrize("seed", range(1, 41))
def test_random_characters_round_trip(seed):
    char = build_character(random_choices(new_rng(seed)))
    assert round_trip(char.to_dict()) == char.to_dict()
    assert Character.from_dict(round_trip(char.to_dict())) == char


@pytest.mark.parametrize("career", list(rules().careers))
def test_career_characters_round_trip(career):
    char = build_character(career_choices(career, new_rng(3)))
    assert Character.from_dict(round_trip(char.to_dict())) == char


def test_a_character_with_every_field_round_trips():
    char = build_character(career_choices("Soldier", new_rng(8), name='Ada "Axe" Falk \\ Ø'))
    char.player = "Kari N."
    char.career = "Soldier\tof the line"  # (a name is one line: the tab goes elsewhere)
    char.pools["BODY"] = Pool(16, -4)
    char.luck = -2
    char.owed_failures = 2
    char.weapon, char.armour, char.shield = "long_sword", "heavy", "large"
    char.items = ["rope", "a lamp\nwith oil", ""]
    char.requests = {"Contact": 2, "Lab": 1}
    char.medicine_tried = ["BODY", "POW"]
    char.improvement_rolls = 7
    char.level = "master"
    char.tag_notes["Gear"] = "a vibro-axe — humming"
    data = char.to_dict()
    assert round_trip(data) == data
    assert Character.from_dict(round_trip(data)) == char


def test_a_character_file_is_readable():
    text = dumps(pregenerated("espen").to_dict())
    lines = text.splitlines()
    assert lines[0] == 'name = "Espen Lind"'
    assert "[skills]" in lines and "Awareness = 50" in lines
    assert '"Awareness//Perception" = 20' in lines
    assert "[pools]" in lines and "BODY = { max = 12, current = 12 }" in lines
    assert "[willpower]" in lines
    assert 'person = { who = "Sibling", verb = "Protect" }' in lines


# -- the writer itself -------------------------------------------------------------

@pytest.mark.parametrize("value", [
    "", "plain", 'quote " inside', "back\\slash", "new\nline", "tab\tand\rreturn", "bell\x07", "nul\x00",
    "del\x7f", "unicode Ø ☃ 𝄞", "\u2028", "'single'", '"""', "#not a comment", "[not a table]",
])
def test_strings(value):
    assert round_trip({"s": value, "list": [value, value]}) == {"s": value, "list": [value, value]}


@pytest.mark.parametrize("key", ["", "a b", "a.b", "Awareness//Perception", "ø", "1", "-", "with\"quote", "del\x7f",
                                 "bare_key-1", "newline\n", "0\n"])
def test_keys(key):
    data = {key: 1, "nested": {key: {key: "x"}}, "table": {key: 1, "b": 2, "c": 3, "d": 4, "e": 5}}
    assert round_trip(data) == data


def test_scalars():
    data = {"int": 42, "neg": -7, "big": 2**62, "zero": 0, "float": 0.1, "negf": -2.5, "exp": 1e16,
            "tiny": 5e-324, "inf": math.inf, "ninf": -math.inf, "t": True, "f": False}
    assert round_trip(data) == data
    assert round_trip({"b": True})["b"] is True


def test_nested_tables_and_lists_of_tables():
    data = {
        "title": "x",
        "small": {"a": 1, "b": "two"},  # inline
        "large": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5},  # its own [table]
        "deep": {"level": {"deeper": {"deepest": 1}}, "n": 1},
        "rows": [{"name": "a", "meta": {"k": 1}}, {"name": "b", "big": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}}],
        "empty_list": [],
        "empty_table": {},
        "mixed": [1, "a", [2, 3], {"x": 1}],
        "tuple": (1, 2),
    }
    expected = dict(data, tuple=[1, 2])
    assert round_trip(data) == expected


def test_none_values_are_left_out():
    assert round_trip({"a": None, "b": 1, "t": {"c": None, "d": {"e": 1}}}) == {"b": 1, "t": {"d": {"e": 1}}}


def test_unsupported_values_raise_type_error():
    with pytest.raises(TypeError, match="set"):
        dumps({"a": {1, 2}})
    with pytest.raises(TypeError):
        dumps({"a": [None]})


# -- property test -------------------------------------------------------------------

scalars = (
    st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False)
    | st.booleans()
    | st.text(TEXT_ALPHABET, max_size=20)
)
keys = st.text(TEXT_ALPHABET, max_size=8)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=6),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None)  # hypothesis's default; 300 examples took 9 s, a sixth of the suite's budget
@given(st.dictionaries(keys, values, max_size=8))
def test_any_data_round_trips(data):
    assert tomli.loads(dumps(data)) == data

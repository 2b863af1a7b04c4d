"""A reading for every answer of the oracle (issue 31, point 9): a table of prompts for each of the six
answers, one drawn with every answer, in the oracle's output, without moving the game's dice."""

from __future__ import annotations

import json

import pytest
from conftest import FirstFace

from solo.oracle import GRADES, TableSet, ask, load_tables
from solo.oracle.answer import READING_TABLES


@pytest.fixture(scope="module")
def tables():
    return load_tables(use_env=False)


def test_every_answer_has_a_table_of_readings_of_its_own(tables):
    assert set(READING_TABLES) == set(GRADES)
    for kind, name in READING_TABLES.items():
        rows = [row.text for row in tables.get(name).rows]
        assert len(rows) >= 20 and len(set(rows)) == len(rows)
        opening = kind[0].upper() + kind[1:]  # each reading starts with its answer: "No, but …"
        longer = [g[0].upper() + g[1:] for g in GRADES if g != kind and g.startswith(kind)]
        assert all(r.startswith(opening) and not r.startswith(tuple(longer)) for r in rows), name


@pytest.mark.parametrize("face", [11, 30, 45, 52, 70, 99])
def test_the_oracle_gives_a_reading_for_the_answer_it_gave_and_leaves_the_dice_alone(tables, face):
    answer = ask(FirstFace(face), "Q", "even", tables=tables)
    assert answer.reading is not None and answer.reading.grade == answer.grade
    assert answer.reading.text in {row.text for row in tables.get(READING_TABLES[answer.grade]).rows}
    assert answer.to_dict()["reading"]["table"] == READING_TABLES[answer.grade]
    unread = TableSet({t.name: t for t in tables.tables() if not t.name.startswith("read_")})
    with_reading, without = FirstFace(face, seed=7), FirstFace(face, seed=7)
    assert ask(without, "Q", "even", tables=unread).reading is None
    ask(with_reading, "Q", "even", tables=tables)
    assert with_reading.getstate() == without.getstate()  # the reading is drawn from an offshoot


def test_solo_oracle_shows_the_reading(cli_run):
    for seed in range(12):
        result = cli_run("oracle", "Is it locked?", "--seed", str(seed))
        data = json.loads(cli_run("oracle", "Is it locked?", "--seed", str(seed), "--json").output)
        assert f"Reading: {data['reading']['text']}" in result.output.splitlines()




def test_in_play_the_reading_says_the_answer_once(tables):
    """Before: 'rolled 39: no, but. Reading: No, but you learn why not' and 'rolled 13: yes. Reading: Yes: what does
    it let you do next?', the answer said twice and two colons in a row. A reading that opens with its answer (every
    bundled one) says it; one that does not (a table of the user's own), or opens with a longer answer ('Yes, but'
    for a yes), follows the answer as before."""
    from solo.ui.describe import oracle, says_answer

    def line(answer: str, text: str) -> str:
        return oracle({"question": "Q?", "odds": {"likelihood": "even", "chance": 50}, "chance": 50, "roll": 39,
                       "answer": answer, "reading": {"text": text}})

    for grade in GRADES:
        for row in tables.get(READING_TABLES[grade]).rows:
            assert says_answer(row.text, grade), (grade, row.text)
            shown = line(grade, row.text)
            assert shown.endswith(f"rolled 39. {row.text}") and "Reading" not in shown
            assert shown.lower().count(grade) == row.text.lower().count(grade)  # only where the reading says it
    assert line("no, but", "No, but you learn why not.").endswith("rolled 39. No, but you learn why not.")
    assert line("yes", "Yes, but only for a moment.").endswith("rolled 39: yes. Reading: Yes, but only for a moment.")
    assert line("yes", "Look closer.").endswith("rolled 39: yes. Reading: Look closer.")
    assert line("no", "Nobody comes.").endswith("rolled 39: no. Reading: Nobody comes.")  # "No" is not "Nobody"
    assert oracle({"question": "Q?", "odds": {}, "roll": 39, "answer": "no"}).endswith("rolled 39: no.")

"""Meaning words: the grown lists, the pair a hard answer brings, and the game's dice left as they were."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from solo.oracle.answer import HARD_ANSWERS, ask, grade
from solo.oracle.loader import load_tables
from solo.oracle.random_events import (
    CONTEXT_FOCI,
    description,
    meaning,
    meaning_words,
    offshoot,
    random_event,
)
from solo.oracle.state import OracleState
from solo.oracle.tables import TableSet
from solo.ui import describe as d


@pytest.fixture(scope="module")
def tables():
    return load_tables(use_env=False)


def _roll_to(face: int, skip: int = 0) -> random.Random:
    """A generator whose next d100 is ``face`` (the ``skip``-th such seed), found by trying seeds."""
    for seed in range(100_000):
        if random.Random(seed).randint(1, 100) == face:
            if skip == 0:
                return random.Random(seed)
            skip -= 1
    raise AssertionError(face)


# -- the lists ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["action", "subject", "adverb", "adjective"])
def test_each_word_list_has_a_hundred_different_words(tables, name):
    words = [row.text for row in tables.get(name).rows]
    assert len(words) == 100 and len(set(words)) == 100
    assert all(w[0].isupper() and " " not in w and "{" not in w for w in words)
    assert all(row.weight == 1 for row in tables.get(name).rows)


#: The element tables (issue 31, point 9): at least a hundred different rows each.
ELEMENTS = ("character", "location", "object", "character_action", "action")


@pytest.mark.parametrize("name,at_least", [("character", 100), ("location", 100), ("object", 100),
                                           ("character_action", 100), ("price", 20), ("twist", 20)])
def test_themed_and_hard_answer_tables(tables, name, at_least):
    rows = [row.text for row in tables.get(name).rows]
    assert len(rows) >= at_least and len(set(rows)) == len(rows)
    rng = random.Random(3)
    for _ in range(50):
        text = tables.roll(name, rng, slots={"npc": ["Nora Dahl"], "thread": ["find the ledger"]}).text
        assert text and "{" not in text


def test_every_bundled_table_has_twenty_rows_and_the_element_tables_a_hundred(tables):
    """Issue 31, point 9: no small table left (20 rows or more each), and the element tables for
    characters, places, objects and actions a hundred different rows or more, each one a phrase or
    a word of its own (no row twice, however it is written)."""
    bundled = load_tables(use_env=False)
    small = {t.name: len(t.rows) for t in bundled.tables() if len(t.rows) < 20}
    assert not small, small
    for name in ELEMENTS:
        rows = [row.text.strip().casefold().rstrip(".") for row in bundled.get(name).rows]
        assert len(rows) >= 100 and len(set(rows)) == len(rows), name
        assert all(r and "{" not in r for r in rows), name


# -- the game's own dice ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_meaning_moves_the_game_dice_as_two_rolls_of_the_old_62_word_lists(tables, seed):
    rng = random.Random(seed)
    before = rng.getstate()
    words = meaning(rng, tables)
    old = random.Random(seed)
    old.randint(1, 62)
    old.randint(1, 62)
    assert rng.getstate() == old.getstate() != before
    assert words.action in [r.text for r in tables.get("action").rows]
    assert words.subject in [r.text for r in tables.get("subject").rows]


def test_an_offshoot_draws_nothing_and_depends_on_where_the_generator_stands():
    rng = random.Random(8)
    state = rng.getstate()
    first = offshoot(rng, "meaning").random()
    assert rng.getstate() == state
    assert offshoot(rng, "meaning").random() == first  # the same point gives the same words
    assert offshoot(rng, "interpretation").random() != first  # another purpose, another stream
    rng.random()
    assert offshoot(rng, "meaning").random() != first


def test_meaning_words_spread_over_the_whole_list(tables):
    rng = random.Random(1)
    seen = {meaning(rng, tables).action for _ in range(3000)}
    assert len(seen) == 100  # each word 1 in 100: all turn up in 3,000 draws but for 1e-10


# -- hard answers -----------------------------------------------------------------------------


@pytest.mark.parametrize("face,expected", [(45, "yes, but"), (99, "no, and")])
def test_a_hard_answer_brings_a_row_and_a_pair_without_moving_the_dice(tables, face, expected):
    state = OracleState(tension=5, npcs=["Nora Dahl"], threads=["find the ledger"])
    rng = _roll_to(face)
    plain = _roll_to(face)
    plain.randint(1, 100)
    answer = ask(rng, "Is it there?", "even", state=state, tables=tables)
    assert answer.grade == expected and not answer.event_triggered
    assert rng.getstate() == plain.getstate()  # only the d100 was rolled on the game's generator
    hard = answer.interpretation
    assert hard is not None and hard.grade == expected and hard.table == HARD_ANSWERS[expected]
    assert hard.text in {tables.roll(hard.table, random.Random(s), slots=state.slots()).text for s in range(2000)}
    assert hard.meaning is not None and hard.meaning.action in [r.text for r in tables.get("action").rows]
    again = ask(_roll_to(face), "Is it there?", "even", state=state, tables=tables)
    assert again.interpretation == hard  # the same game at the same point: the same words
    data = answer.to_dict()["interpretation"]
    assert data == {"grade": expected, "table": hard.table, "text": hard.text, "meaning": hard.meaning.to_dict()}


def test_hard_answers_differ_from_question_to_question(tables):
    pairs = {str(ask(_roll_to(45, skip=i), "Q", "even", tables=tables).interpretation.meaning) for i in range(20)}
    assert len(pairs) > 10


@pytest.mark.parametrize("face", [10, 30, 57, 70, 11, 33])
def test_the_other_answers_bring_nothing(tables, face):
    answer = ask(_roll_to(face), "Q", "even", tension=5, tables=tables)
    assert answer.grade not in HARD_ANSWERS and answer.interpretation is None
    assert answer.to_dict()["interpretation"] is None


def test_every_face_of_a_hard_grade_gets_an_interpretation(tables):
    for face in range(1, 101):
        answer = ask(_roll_to(face), "Q", "likely", tension=5, tables=tables)
        assert (answer.interpretation is not None) == (grade(face, answer.chance) in HARD_ANSWERS)


def test_without_the_meaning_tables_a_hard_answer_still_works():
    tables = TableSet.from_data({"tables": {"event_focus": {"rows": ["Something"]}}})
    assert ask(_roll_to(45), "Q", "even", tables=tables).interpretation is None


# -- random events ------------------------------------------------------------------------------


def _focus_only(key: str, text: str) -> TableSet:
    return TableSet.from_data({"tables": {
        "event_focus": {"rows": [{"text": text, "key": key}]},
        "action": {"rows": ["Steal"]}, "subject": {"rows": ["Map"]},
    }})


def test_an_event_that_ends_a_thread_says_which_one_the_player_may_close():
    state = OracleState(threads=["find the ledger", "pay the debt"])
    ev = random_event(random.Random(2), _focus_only("thread_closer", "A thread moves: {thread}"), state)
    assert ev.thread in state.threads and ev.closes == state.threads.index(ev.thread) + 1
    assert state.threads == ["find the ledger", "pay the debt"]  # proposed, not closed
    line = d.random_event(ev.to_dict())
    assert f"threads close {ev.closes}" in line and "(meaning: Steal / Map)" in line


@pytest.mark.parametrize("key", sorted(CONTEXT_FOCI))
def test_an_event_that_names_nobody_follows_the_situation(key):
    tables = _focus_only(key, "Something happens")
    ev = random_event(random.Random(2), tables, OracleState(threads=["the ledger is missing", "other"]))
    assert ev.context == "the ledger is missing" and ev.closes is None
    # a thread is called a thread (a GM-less table: "It follows the current situation: Who sank the Margit?")
    assert "It follows the open thread: the ledger is missing." in d.random_event(ev.to_dict())
    ev = random_event(random.Random(2), tables, OracleState(threads=["a"], context="A storm at the manor"))
    assert ev.context == "A storm at the manor"
    assert "It follows the current situation: A storm at the manor." in d.random_event(ev.to_dict())
    assert random_event(random.Random(2), tables, OracleState()).context is None
    hints = [h for h in ("threads add TEXT", "npcs add NAME") if h in d.random_event(ev.to_dict())]
    assert hints == {"new_thread": ["threads add TEXT"], "new_npc": ["npcs add NAME"]}.get(key, [])


def test_an_event_about_someone_carries_no_situation():
    ev = random_event(random.Random(2), _focus_only("npc_acts", "{npc} acts"),
                      OracleState(npcs=["Olav"], threads=["a"]))
    assert ev.context is None and "context" not in ev.to_dict() and "closes" not in ev.to_dict()


def test_the_context_is_kept_in_the_state_and_old_states_load():
    state = OracleState(tension=6, threads=["a"], context="At the quay")
    assert OracleState.from_dict(state.to_dict()) == state
    old = {"version": 1, "tension": 4, "npcs": [], "threads": ["x"], "pcs": []}
    assert OracleState.from_dict(old).context == "" and "context" not in OracleState.from_dict(old).to_dict()
    with pytest.raises(ValueError, match="context"):
        OracleState.from_dict({**old, "context": 3})


# -- shown in play and in the journal ---------------------------------------------------------------


def test_the_oracle_line_shows_the_event_pair_and_the_hard_answer(tables):
    state = OracleState(tension=5, npcs=["Nora Dahl"], threads=["find the ledger"])
    answer = ask(_roll_to(44), "Is anyone here?", "likely", state=state, tables=tables)
    assert answer.event is not None
    line = d.oracle({**answer.to_dict()})
    assert f"(meaning: {answer.event.meaning})" in line and answer.event.text in line
    hard = ask(_roll_to(45), "Is it there?", "even", state=state, tables=tables)
    line = d.oracle(hard.to_dict())
    m = hard.interpretation.meaning
    assert f"The price: {hard.interpretation.text} (meaning: {m.action} / {m.subject})." in line


def test_the_view_shows_table_markup_as_written(tables):
    from solo.events import Event
    from solo.ui.view import TerminalView

    out = io.StringIO()
    view = TerminalView(Console(file=out, width=200, color_system=None))
    hard = ask(_roll_to(45), "[bold]Is it[/bold] there?", "even", tables=tables).to_dict()
    view.render(Event("oracle", hard))
    assert "[bold]Is it[/bold]" in out.getvalue() and "The price:" in out.getvalue()


def test_descriptions_and_meanings_come_from_their_lists(tables):
    rng = random.Random(4)
    pair = description(rng, tables)
    assert pair.adverb in [r.text for r in tables.get("adverb").rows]
    assert pair.adjective in [r.text for r in tables.get("adjective").rows]
    assert d.pair(pair.to_dict()) == str(pair) and d.pair(meaning_words(rng, tables).to_dict()).count(" / ") == 1


def test_the_oracle_box_names_the_oracle_once(tables):
    """Its title says "Oracle"; the line inside began "Oracle “Is it there?”" as well. The journal's line, with no
    box around it, keeps the name."""
    from solo.events import Event
    from solo.ui.view import TerminalView

    out = io.StringIO()
    view = TerminalView(Console(file=out, width=200, color_system=None))
    answer = ask(_roll_to(45), "Is it there?", "even", tables=tables).to_dict()
    view.render(Event("oracle", answer))
    shown = out.getvalue()
    assert shown.count("Oracle") == 1 and "\u201cIs it there?\u201d (" in shown, shown
    assert d.oracle(answer).startswith("Oracle \u201cIs it there?\u201d")
    assert d.oracle({**answer, "question": ""}, named=False).startswith("Oracle (")  # not a line that starts at "("


def test_the_journal_keeps_the_event_and_its_situation_but_no_command_to_type():
    """A new player's Kaldskard: the journal read "Random event: A new problem or goal appears (meaning: Return /
    Deadline). It follows the current situation: The way down. Keep it with: threads add TEXT": a command for the
    prompt, in a record of the story. The screen keeps it; the journal keeps the event and the situation."""
    from solo.events import Event
    from solo.ui.journal import Journal
    from solo.ui.view import TerminalView

    tables = _focus_only("new_thread", "A new problem or goal appears")
    ev = random_event(random.Random(2), tables, OracleState(threads=["a"], context="The way down"))
    answer = {"question": "Is the track open?", "odds": {"name": "likely"}, "chance": 70, "roll": 11,
              "answer": "yes", "event": ev.to_dict()}
    journal = Journal()
    journal.render(Event("oracle", answer))
    out = io.StringIO()
    TerminalView(Console(file=out, width=300, color_system=None)).render(Event("oracle", answer))
    kept = journal.text()
    assert "It follows the current situation: The way down." in kept and "threads add" not in kept
    assert "Keep it with: threads add TEXT" in out.getvalue()


def test_a_blow_to_a_pool_at_zero_not_pushed_on_says_it_stays():
    """A reading of narrated conflicts: "Its hands close on Frode Rud … and tear", then "*Frode Rud: BODY 0 -> 0.*"."""
    from solo.events import Event
    from solo.ui.journal import Journal

    journal = Journal()
    for before, after in ((0, 0), (5, 2)):
        journal.render(Event("pool_change", {"actor": "Frode Rud", "pool": "BODY", "before": before, "after": after,
                                             "maximum": 12, "cause": "damage"}))
    kept = journal.text()
    assert "*Frode Rud: BODY stays at 0 (a Pool not pushed on stops at 0).*" in kept and "0 -> 0" not in kept
    assert "*Frode Rud: BODY 5 -> 2.*" in kept

"""Hostile content: adventures, tables and answers built to crash, hang or mislead solo.

Every case goes through the real command line (click's runner, in this process, in the test's
temporary folder) and checks the exit status, that the message is one line naming the file
and the line where there is one, that nothing reads "internal error" or shows a traceback, and
that the work is done in a time a loaded two-CPU machine keeps to. Big and deep inputs are
generated into the temporary folder rather than kept in the repository.

The sections follow issue 15: a table that fans out (2); content that passed ``solo check``
but crashed play (5); values of the wrong type that crashed the loader (6); input that was
accepted although it made no sense, or took quadratic time (9).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.decisions import MAX_ANSWER, Option, Question, QuestionError
from solo.errors import ContentError
from solo.oracle import TableSet, load_tables
from solo.oracle import tables as tables_module
from solo.oracle.loader import read_folder
from solo.oracle.tables import MAX_ROWS, MAX_WEIGHT
from solo.story.format.readers import KIND_SHAPES
from solo.story.format.schema import MAX_CHOICES
from solo.story.play.actions import ACTIONS, OBSTACLE_FIELDS
from solo.story.play.effects import EFFECTS

FIVE_THOUSAND_DIGITS = "9" * 5000


# -- running solo ------------------------------------------------------------------------------
def solo(monkeypatch, cwd: Path, *args: str, stdin: str = "") -> SimpleNamespace:
    """``solo ARGS`` in this process, in ``cwd``, with none of the user's folders from the environment."""
    cwd.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(cwd)
    for name in ("SOLO_SAVES", "SOLO_TABLES", "SOLO_SCENES", "SOLO_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    start = time.perf_counter()
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return SimpleNamespace(code=result.exit_code, out=result.stdout, err=result.stderr,
                           seconds=time.perf_counter() - start)


def no_crash(result: SimpleNamespace) -> None:
    both = result.out + result.err
    assert "internal error" not in both and "Traceback" not in both and "E099" not in both, both


def one_line(result: SimpleNamespace, status: int, *names: str) -> str:
    """The exit status, one line on stderr holding every one of ``names``, and no crash."""
    assert result.code == status, (result.code, result.out, result.err)
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, result.err
    for name in names:
        assert name in lines[0], (name, lines[0])
    no_crash(result)
    return lines[0]


# -- a small adventure to break ------------------------------------------------------------------
BASE = """\
[adventure]
title = "Hostile content"
start = "gate"
#META

[npcs.knut]
name = "Knut Dahl"
level = "common"
skills = { Combat = 40, Move = 30, Social = 30 }
pools = { BODY = 8, INT = 6, POW = 8, CHA = 6 }

[scenes.gate]
text = "A locked gate, and Knut leaning on it."
#SCENE

[[scenes.gate.choices]]
text = "Deal with the gate"
#CHOICE

[scenes.home]
text = "Home again."
ending = true
#END
"""


def adventure(folder: Path, *, meta: str = "", scene: str = "", choice: str = "", end: str = "",
              name: str = "hostile.toml") -> tuple[Path, int]:
    """The base adventure with lines put in at its markers; returns the file and the line of the first one put in.

    Without ``choice`` the gate's choice just goes home.
    """
    text = BASE
    first = None
    for marker, lines in (("#META", meta), ("#SCENE", scene), ("#CHOICE", choice), ("#END", end)):
        if lines and first is None:
            first = text.splitlines().index(marker) + 1
        text = text.replace(marker, lines or ('goto = "home"' if marker == "#CHOICE" else ""))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path, first or 0


def refused_everywhere(monkeypatch, tmp_path: Path, path: Path, line: int, *codes: str) -> str:
    """``solo check`` reports an error with one of ``codes`` at ``path:line``; ``solo play`` refuses with it."""
    check = solo(monkeypatch, tmp_path, "check", str(path))
    assert check.code == 1, (check.out, check.err)
    no_crash(check)
    located = [x for x in check.out.splitlines() if x.startswith(f"{path}:{line}:") and "error[" in x]
    assert any(re.search(r"error\[(" + "|".join(codes) + r")\]", x) for x in located), check.out
    message = located[0]
    play = solo(monkeypatch, tmp_path, "play", str(path), "--pc", "espen", "--saves", str(tmp_path / "saves"),
                stdin="1\n" * 20)
    assert play.code == 2, (play.out, play.err)
    no_crash(play)
    assert message in one_line(play, 2), (message, play.err)  # play says what check says, and starts nothing
    assert not (tmp_path / "saves").exists() or not any((tmp_path / "saves").glob("*.json"))
    return message


# == item 2: tables that fan out without a cycle =================================================
def _fan_tables(folder: Path, *, width: int = 20, depth: int = 7) -> Path:
    """t0 -> width × t1 -> … -> t{depth}: no cycle, and width ** depth rolls for one roll on t0."""
    folder.mkdir(parents=True, exist_ok=True)
    parts = []
    for i in range(depth):
        refs = " ".join([f"{{table:t{i + 1}}}"] * width)
        parts.append(f'[tables.t{i}]\nrows = ["{refs}"]\n')
    parts.append(f'[tables.t{depth}]\nrows = ["the end of it"]\n')
    path = folder / "fan.toml"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def _line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_item2_a_table_that_fans_out_is_refused_by_table_check_play_and_simulate(monkeypatch, tmp_path):
    fan = _fan_tables(tmp_path / "mine")
    at = f"{fan}:{_line_of(fan, '[tables.t4]') + 1}"  # t4's row is the first whose worst case passes the bound
    start = time.perf_counter()
    for args in (("table", "t0"), ("table", "list"), ("table", "t7", "--show")):
        result = solo(monkeypatch, tmp_path, *args, "--tables", str(tmp_path / "mine"))
        one_line(result, 2, at, "tables.t4.rows[0]", "1,000 rolls")
    oracle = solo(monkeypatch, tmp_path, "oracle", "Is it raining?", "--tables", str(tmp_path / "mine"))
    one_line(oracle, 2, at)

    folder = tmp_path / "fanning"  # an adventure whose own tables fan out, with a choice that rolls on them
    adventure(folder, choice='table = { name = "t0", then = "home" }', name="adventure.toml")
    own = _fan_tables(folder / "tables")
    own_at = f"{own}:{_line_of(own, '[tables.t4]') + 1}"
    check = solo(monkeypatch, tmp_path, "check", str(folder))
    assert check.code == 1 and f"{own_at}: error[E007]" in check.out, check.out
    assert check.out.count("error[E007]") == 1, check.out  # reported once, not once per choice
    one_line(solo(monkeypatch, tmp_path, "play", str(folder), "--pc", "espen", "--saves", str(tmp_path / "s")),
             2, own_at, "E007")
    one_line(solo(monkeypatch, tmp_path, "simulate", str(folder), "--runs", "2"), 2, own_at, "E007")

    quiet = tmp_path / "quiet"  # the same tables, never rolled by a choice: still refused before anyone plays
    adventure(quiet, name="adventure.toml")
    _fan_tables(quiet / "tables")
    check = solo(monkeypatch, tmp_path, "check", str(quiet))
    assert check.code == 1 and "error[E007]" in check.out, check.out
    assert time.perf_counter() - start < 30


def test_item2_a_chain_of_tables_too_deep_to_roll_is_refused_when_loaded(tmp_path):
    (tmp_path / "chain.toml").write_text(
        "\n".join(f'[tables.c{i}]\nrows = ["and then {{table:c{i + 1}}}"]' for i in range(40))
        + '\n[tables.c40]\nrows = ["the end"]\n', encoding="utf-8")
    with pytest.raises(ContentError, match="nest more than"):
        load_tables([tmp_path], use_env=False)


def test_item2_rolling_stops_at_its_budget_with_a_clear_error(monkeypatch):
    tables = TableSet.from_data({"tables": {
        "a": {"rows": ["{table:b} {table:b} {table:b}"]},
        "b": {"rows": ["{table:c} {table:c}"]},
        "c": {"rows": ["x"]},
    }})
    assert tables.roll("a", random.Random(1)).text == "x x x x x x"  # 10 rolls: within any sane budget
    monkeypatch.setattr(tables_module, "MAX_ROLLS", 5)
    with pytest.raises(ContentError, match="more than 5 rolls"):
        tables.roll("a", random.Random(1))


# == item 5: content that passed solo check and crashed play =====================================
def _obstacle(numbers: str, rounds: int = 30) -> str:
    return (f'conflict = {{ type = "lockpicking", obstacle = {{ name = "the gate", {numbers} }}, '
            f'rounds = {rounds}, won = "home", lost = "home" }}')


@pytest.mark.parametrize("numbers, says", [
    ('challenge = "abc", pool = 5', "expected a whole number, got text 'abc'"),
    ("challenge = 50, pool = -5", "expected a whole number 1..200, not -5"),
    ("challenge = 50, pool = 201", "expected a whole number 1..200, not 201"),
    ("challenge = 201, pool = 10", "expected a whole number 0..200, not 201"),
    ("challenge = 50, pool = true", "expected a whole number, got true"),
], ids=["challenge-text", "pool-negative", "pool-over-200", "challenge-over-200", "pool-boolean"])
def test_item5_obstacle_numbers_are_checked_where_they_are_written(monkeypatch, tmp_path, numbers, says):
    path, line = adventure(tmp_path / "adv", choice=_obstacle(numbers))
    message = refused_everywhere(monkeypatch, tmp_path, path, line, "E002")
    assert "scenes.gate.choices[0].conflict.obstacle." in message and says in message, message


def test_a_round_limit_beyond_200_is_refused_where_it_is_written(monkeypatch, tmp_path):
    # A conflict where no blow can land runs to its limit: a million rounds would hang play.
    path, line = adventure(tmp_path / "adv", choice=_obstacle("challenge = 50, pool = 10", rounds=1_000_000))
    message = refused_everywhere(monkeypatch, tmp_path, path, line, "E002")
    assert "conflict.rounds" in message and "1 to 200" in message, message


def test_item5_narration_with_an_unknown_slot_stops_play_as_it_stops_check(monkeypatch, tmp_path):
    path, _ = adventure(tmp_path / "adv", end='\n[narration.lockpicking]\nout = ["{actor} drops {their} {weapn}."]')
    line = _line_of(path, "{weapn}")
    message = refused_everywhere(monkeypatch, tmp_path, path, line, "E008")
    assert "narration.lockpicking.out[0]" in message and "unknown slot {weapn}" in message


def test_item5_a_pool_of_201_is_refused_and_the_largest_allowed_plays_with_the_odds_shown(monkeypatch, tmp_path):
    over, _ = adventure(tmp_path / "over", choice=_obstacle("challenge = 200, pool = 201", rounds=2))
    assert solo(monkeypatch, tmp_path, "check", str(over)).code == 1
    path, _ = adventure(tmp_path / "adv", choice=_obstacle("challenge = 200, pool = 200", rounds=2))
    check = solo(monkeypatch, tmp_path, "check", str(path))
    assert check.code == 0, check.out
    play = solo(monkeypatch, tmp_path, "play", str(path), "--pc", "espen", "--seed", "3", "--saves",
                str(tmp_path / "saves"), stdin="1\n" * 40)
    no_crash(play)
    assert play.code == 0, (play.out, play.err)
    assert "to win" in play.out  # the Lens advice was computed for a Pool of 200, not skipped or crashed
    assert "Home again." in play.out


# == item 6: values of the wrong type crashed the loader ==========================================
NUL_ID = 'id = "gate\\u0000keeper"'


def _damage(amount: str) -> str:
    return f'goto = {{ goto = "home", effects = [ {{ damage = "BODY", amount = {amount} }} ] }}'


DEEP = "deep = " + "[" * 500 + "]" * 500


@pytest.mark.parametrize("where, lines, codes", [
    ("scene", 'npcs = [["knut"]]', ("E002",)),
    ("scene", 'npcs = [{id="knut"}]', ("E002",)),
    ("choice", 'roll = { skill = ["Move"], success = "home", failure = "home" }', ("E002",)),
    ("choice", 'conflict = { type = ["combat"], npcs = ["knut"], won = "home", lost = "home" }', ("E002",)),
    ("choice", 'conflict = { type = "combat", npcs = [["knut"]], won = "home", lost = "home" }', ("E002",)),
    ("choice", 'goto = { goto = "home", effects = [ { disposition = ["knut"], shift = 1 } ] }', ("E002",)),
    ("choice", 'opposed = { skill = "Move", npc = { a = 1 }, win = "home", lose = "home" }', ("E002",)),
    ("choice", 'opposed = { skill = "Move", npc = "knut", win = "home", lose = "home", '
               'escalate = { type = ["social"], won = "home", lost = "home" } }', ("E002",)),
    ("choice", _damage(f'"{FIVE_THOUSAND_DIGITS}d6"'), ("E002",)),
    ("choice", _damage(f'"1d6+{FIVE_THOUSAND_DIGITS}"'), ("E002",)),
    ("choice", _damage("9" * 40), ("E001", "E002")),
    ("meta", NUL_ID, ("E002", "E011")),
    ("end", '[scenes."back\\u0000door"]\ntext = "A back door."\nending = true', ("E002",)),
    ("scene", DEEP, ("E001",)),
    ("scene", "big = " + FIVE_THOUSAND_DIGITS, ("E001",)),
], ids=["scene-npcs-list", "scene-npcs-table", "skill-list", "type-list", "conflict-npcs-list", "disposition-list",
        "npc-table", "escalate-type-list", "dice-5000-digit-count", "dice-5000-digit-number", "huge-amount",
        "adventure-id-nul", "scene-id-nul", "nested-500-deep", "number-5000-digits"])
def test_item6_values_of_the_wrong_type_are_an_e_code_on_their_line(monkeypatch, tmp_path, where, lines, codes):
    path, line = adventure(tmp_path / "adv", **{where: lines})
    start = time.perf_counter()
    refused_everywhere(monkeypatch, tmp_path, path, line, *codes)
    assert time.perf_counter() - start < 20


def test_item6_no_verb_field_of_the_wrong_shape_crashes_the_loader(monkeypatch, tmp_path):
    """Every field of every effect and action, given a list of lists and then a table: an E-code, never E099."""
    cases = []
    for verb in EFFECTS.values():
        first = next(iter(verb.fields))
        for name in verb.fields:
            for bad in ('[["x"]]', "{ a = 1 }"):
                value = {first: '"knut"', name: bad}
                effect = "{ " + ", ".join(f"{k} = {v}" for k, v in value.items()) + " }"
                cases.append(f'goto = {{ goto = "home", effects = [ {effect} ] }}')
    for verb in ACTIONS.values():
        for name in verb.fields:
            for bad in ('[["x"]]', "{ a = 1 }"):
                outcomes = ", ".join(f'{o} = "home"' for o in verb.outcomes)
                cases.append(f"{verb.name} = {{ {name} = {bad}{', ' + outcomes if outcomes else ''} }}")
    for name in OBSTACLE_FIELDS:
        wall = {"name": '"the gate"', "challenge": "50", "pool": "5", name: '[["x"]]'}
        inner = ", ".join(f"{k} = {v}" for k, v in wall.items())
        cases.append(f'conflict = {{ type = "lockpicking", obstacle = {{ {inner} }}, won = "home", lost = "home" }}')
    per_scene = MAX_CHOICES - 1  # a scene offers at most so many (the gate has one more): spread over several
    body = "\n\n".join(
        (f'[scenes.more{i // per_scene}]\ntitle = "More"\ntext = "More cases."\n\n' if i and i % per_scene == 0
         else "") + f'[[scenes.{"gate" if i < per_scene else f"more{i // per_scene}"}.choices]]\ntext = "case {i}"\n'
        f"{case}" for i, case in enumerate(cases))
    path, _ = adventure(tmp_path / "adv", scene="\n" + body)
    check = solo(monkeypatch, tmp_path, "check", str(path))
    no_crash(check)
    assert check.code == 1
    located = {int(m.group(1)) for m in re.finditer(rf"^{re.escape(str(path))}:(\d+): error\[E00\d\]", check.out,
                                                     re.M)}
    lines = path.read_text(encoding="utf-8").splitlines()
    for case in cases:  # each broken case is reported on its own line
        assert lines.index(case) + 1 in located, (case, check.out[:2000])


def test_item6_every_field_kind_has_a_shape():
    kinds = {f.kind for verb in [*EFFECTS.values(), *ACTIONS.values()] for f in verb.fields.values()}
    kinds |= {f.kind for f in OBSTACLE_FIELDS.values()}
    assert kinds <= set(KIND_SHAPES), kinds - set(KIND_SHAPES)


def test_item6_dice_for_solo_roll_are_bounded(monkeypatch, tmp_path):
    for expression, says in [
        (FIVE_THOUSAND_DIGITS + "d6", "at most 100 characters"),
        ("1d6+" + FIVE_THOUSAND_DIGITS, "at most 100 characters"),
        ("99999999999999999999d6", "dice count must be 1..1000"),
        ("1d99999999999999999999", "1..10000 sides"),
        ("1d6+99999999999", "at most 1,000,000"),
        ("1000d6+1000d6", "at most 1000 dice in all"),
        ("+".join(["1d2"] * 21), "at most 20 terms"),
    ]:
        one_line(solo(monkeypatch, tmp_path, "roll", expression), 2, says)


# == item 9: input accepted although it made no sense, or slow to refuse ============================
def test_item9_oracle_odds_out_of_range_are_refused(monkeypatch, tmp_path):
    for odds in ("-5", "-50", "0", "100", "- 5 %", FIVE_THOUSAND_DIGITS):
        one_line(solo(monkeypatch, tmp_path, "oracle", "Is it raining?", f"--odds={odds}"), 2, "must be 1-99")


def test_item9_an_empty_load_name_is_refused(monkeypatch, tmp_path):
    for name in ("", "   "):
        result = solo(monkeypatch, tmp_path, "play", "--load", name, "--saves", str(tmp_path / "saves"))
        one_line(result, 2, "--load")
    assert not (tmp_path / "saves").exists()  # no new game was started


def test_item9_a_ten_megabyte_answer_is_refused_quickly(monkeypatch, tmp_path):
    huge = "x" * 10_000_000
    result = solo(monkeypatch, tmp_path, "play", "tutorial", "--pc", "espen", "--seed", "5", "--saves",
                  str(tmp_path / "saves"), stdin=f"{huge}\n{'1' * 10_000_000}\n")
    no_crash(result)
    assert result.code == 0, (result.out[-2000:], result.err)
    # piped input is read in bounded pieces: what is kept is still far too long, and refused
    assert len(re.findall(rf"an answer has at most {MAX_ANSWER:,} characters, not 4,00\d", result.out)) == 2
    assert len(result.out) < 100_000  # the answer is not printed back whole
    assert result.seconds < 30, result.seconds
    question = Question("choice", "Which way?", (Option("north", "Go north"), Option("south", "Go south")))
    for answer in (huge, "1" * 10_000_000, "\u0661" * 3):  # the last: Arabic-Indic digits, not an option number
        start = time.perf_counter()
        with pytest.raises(QuestionError):
            question.resolve(answer)
        assert time.perf_counter() - start < 1


@pytest.mark.parametrize("form", ["inline", "array-of-tables"])
def test_item9_a_table_of_the_most_rows_allowed_is_read_in_linear_time(tmp_path, form):
    rows = MAX_ROWS
    if form == "inline":
        body = "\n".join(f'  "row number {i}, escaped \\u0041 or not",' for i in range(rows - 1))
        text = f'[tables.big]\nrows = [\n{body}\n  {{ text = "the last row", weight = 0 }},\n]\n'
    else:
        body = "\n".join(f'[[tables.big.rows]]\ntext = "row number {i}"\n' for i in range(rows - 1))
        text = f'[tables.big]\n\n{body}\n[[tables.big.rows]]\ntext = "the last row"\nweight = 0\n'
    path = tmp_path / "big.toml"
    path.write_text(text, encoding="utf-8")
    bad = _line_of(path, "the last row") - (0 if form == "inline" else 1)
    start = time.perf_counter()
    with pytest.raises(ContentError) as info:
        read_folder(tmp_path)
    assert time.perf_counter() - start < 5
    assert str(info.value).startswith(f"{path}:{bad}: tables.big.rows[{rows - 1}].weight:"), str(info.value)
    (tmp_path / "big.toml").write_text(text.replace("weight = 0", "weight = 1"), encoding="utf-8")
    start = time.perf_counter()
    assert len(read_folder(tmp_path)["big"].rows) == rows
    assert time.perf_counter() - start < 5


def test_a_table_of_more_rows_than_allowed_or_too_heavy_a_row_is_refused_by_name(tmp_path):
    """A table is read whole at every roll, and its odds are shown as "1 in N": a hostile review's file of three
    million rows took 44 s, and weights of 4,300 digits were an internal error."""
    body = ",".join(f'"row {i}"' for i in range(MAX_ROWS + 1))
    (tmp_path / "big.toml").write_text(f"[tables.big]\nrows = [{body}]\n", encoding="utf-8")
    with pytest.raises(ContentError, match=f"big.toml:1: tables.big.rows: has {MAX_ROWS + 1:,} rows; a table has "
                                           f"at most {MAX_ROWS:,}"):
        read_folder(tmp_path)
    for weight, shown in ((MAX_WEIGHT + 1, f"{MAX_WEIGHT + 1}"), (10 ** 4000, "a number that long")):
        (tmp_path / "big.toml").write_text(f'[tables.big]\nrows = [{{ text = "a", weight = {weight} }}]\n',
                                          encoding="utf-8")
        with pytest.raises(ContentError) as info:
            read_folder(tmp_path)
        assert str(info.value).endswith(f"weight must be a whole number from 1 to {MAX_WEIGHT:,}, not {shown}")


def test_item9_jobs_are_capped_at_the_cpus_and_the_user_is_told(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    result = solo(monkeypatch, tmp_path, "simulate", "tutorial", "--runs", "2", "--jobs", "1000", "--json",
                  "--errors-dir", str(tmp_path / "errors"))
    assert result.code == 0, result.err
    assert "--jobs 1000 is more than the 1 CPU here; playing in 1" in result.err
    assert json.loads(result.out)["jobs"] == 1


def test_item9_odds_simulation_and_dice_totals_have_caps(monkeypatch, tmp_path):
    base = ("odds", "--skill-a", "50", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10")
    one_line(solo(monkeypatch, tmp_path, *base, "--simulate", "1000000000"), 2, "--simulate", "1,000,000")
    one_line(solo(monkeypatch, tmp_path, *base, "--damage-a", "1d6+" + FIVE_THOUSAND_DIGITS), 2, "--damage-a")
    one_line(solo(monkeypatch, tmp_path, "roll", "1000d10000+1d6"), 2, "at most 1000 dice in all")
    rolled = solo(monkeypatch, tmp_path, "roll", "1000d10000", "--json", "--seed", "1")
    assert rolled.code == 0 and 1000 <= json.loads(rolled.out)["total"] <= 10_000_000


def test_a_choice_text_of_many_lines_is_shown_as_one_short_line():
    # Found by the mutation test: a choice text of 100,000 line breaks printed 6.8 MB at every prompt.
    import io

    from rich.console import Console

    from solo.ui.prompt import LABEL_LIMIT, TerminalDecider

    out = io.StringIO()
    question = Question("choice", "What now?", [Option("1", "Go\n" * 100_000), Option("2", "Stay " + "y" * 5000)])
    started = time.perf_counter()
    TerminalDecider(Console(file=out, width=100, color_system=None)).show(question)
    assert time.perf_counter() - started < 10
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert len(lines) < 2 + 2 * (LABEL_LIMIT // 90 + 2)  # the header, and each option wrapped from one short line
    assert "Go Go Go" in out.getvalue() and out.getvalue().count("\u2026") == 2

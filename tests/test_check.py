"""``solo check``: the corpus of broken adventures, one per problem kind, each caught where it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.sim.lint import ALL_CODES, check_adventure, sort_problems
from solo.story.format.loader import Problem

BROKEN = Path(__file__).parent / "data" / "broken"
SCENES = Path(__file__).resolve().parent.parent / "scenes"
_EXPECT = re.compile(r"^# expect: ([EW]\d{3}) (\d+)(?:-(\d+))?", re.M)


FORMAT = Path(__file__).parent / "data" / "format" / "broken"  # the newer parts of the format


def _cases(folder: Path = BROKEN):
    for entry in sorted(folder.iterdir()):
        files = sorted(entry.rglob("*.toml")) if entry.is_dir() else [entry]
        expected = []
        for f in files:
            for m in _EXPECT.finditer(f.read_text(encoding="utf-8")):
                low = int(m.group(2))
                expected.append((f, m.group(1), low, int(m.group(3) or low)))
        if expected:
            yield pytest.param(entry, expected, id=entry.stem)


CASES = list(_cases())
FORMAT_CASES = list(_cases(FORMAT))


def test_the_corpus_covers_every_problem_kind_the_issue_lists():
    codes = {code for case in CASES for _, code, _, _ in case.values[1]}
    # syntax, schema, unknown target, bad condition, unknown skill/focus/type, NPC, table, template slot,
    # dead end, unreachable, read-never-set, set-never-read, item never given, loops with no ending
    assert {"E001", "E002", "E003", "E004", "E005", "E006", "E007", "E008", "E009", "E090",
            "W101", "W102", "W103", "W104"} <= codes
    assert len(CASES) >= 18


def test_the_format_corpus_covers_the_newer_codes():
    codes = {code for case in FORMAT_CASES for _, code, _, _ in case.values[1]}
    assert {"E002", "E003", "E004", "E008", "E012", "W102", "W103", "W104", "W106", "W107"} <= codes


@pytest.mark.parametrize("source, expected", CASES + FORMAT_CASES)
def test_each_broken_adventure_is_caught_with_its_code_file_and_line(source, expected):
    report = check_adventure(source)
    found = report.problems
    assert {p.code for p in found} == {code for _, code, _, _ in expected}, "\n".join(map(str, found))
    for file, code, low, high in expected:
        hits = [p for p in found if p.code == code and Path(p.file) == file]
        assert hits, f"{code} not reported in {file}: {[str(p) for p in found]}"
        assert any(p.line is not None and low <= p.line <= high for p in hits), \
            f"{code} in {file} expected at line {low}-{high}: {[str(p) for p in hits]}"
    for p in found:
        assert p.code in ALL_CODES
        assert p.severity == ("warning" if p.code.startswith("W") else "error")


def test_did_you_mean_for_a_misspelt_scene():
    problems = check_adventure(BROKEN / "unknown_target.toml").problems
    assert "did you mean 'attic'?" in problems[0].message


def test_a_misspelt_choices_is_one_problem_not_four(tmp_path):
    """A GM's run: `[[scenes.horn_room.choice]]` gave the E002 that names it, then E009 (a dead end) and W101 for every
    scene past it (and W105, no ending reachable). The scene's ways out are unread, not missing: the slip is said
    once. Spelt right, the same
    adventure is clean; a real dead end elsewhere is still one."""
    text = ('[adventure]\ntitle = "Horn"\nstart = "hall"\n\n[scenes.hall]\ntext = "A hall."\n\n'
            '[[scenes.hall.{field}]]\ntext = "Up"\ngoto = "top"\n\n'
            '[scenes.top]\ntext = "The top."\nending = true\n')
    path = tmp_path / "horn.toml"
    path.write_text(text.format(field="choice"), encoding="utf-8")
    found = [(p.code, p.path) for p in check_adventure(path).problems]
    assert found == [("E002", "scenes.hall.choice")], found
    path.write_text(text.format(field="choices"), encoding="utf-8")
    assert check_adventure(path).problems == []
    path.write_text(text.format(field="choices").replace("ending = true", ""), encoding="utf-8")
    assert "E009" in {p.code for p in check_adventure(path).problems}
    # the review: a misspelt `outcome` (an ending's label, no way out) hides no dead end, and a scene with misspelt
    # choices that the story never reaches leaves every other finding as it is
    path.write_text(text.format(field="choices").replace("ending = true", 'outcom = "lost"'), encoding="utf-8")
    assert {"E002", "E009"} <= {p.code for p in check_adventure(path).problems}
    # a GM's run: a choice's `goto` misspelt `go_to` made its scene a dead end, listed first with "set ending = true"
    path.write_text(text.format(field="choices").replace('goto = "top"', 'go_to = "top"'), encoding="utf-8")
    assert [(p.code, p.path) for p in check_adventure(path).problems] == [("E002", "scenes.hall.choices[0].go_to")]
    orphan = text.format(field="choices") + '\n[scenes.shed]\ntext = "A shed."\n\n[[scenes.shed.choice]]\ntext = "Up"\n'
    path.write_text(orphan, encoding="utf-8")
    assert sorted((p.code, p.path) for p in check_adventure(path).problems) == [
        ("E002", "scenes.shed.choice"), ("W101", "scenes.shed")]


def test_compiler_style_line_with_column_for_syntax_errors():
    (p,) = check_adventure(BROKEN / "syntax.toml").problems
    assert re.match(r"^.*syntax\.toml:7:\d+: error\[E001\]: ", str(p))


@pytest.mark.parametrize("name", sorted(p.stem if p.is_file() else p.name for p in SCENES.iterdir()
                                        if p.suffix == ".toml" or p.is_dir()))
def test_bundled_adventures_check_clean(name):
    report = check_adventure(SCENES / (name + ".toml") if (SCENES / (name + ".toml")).exists() else SCENES / name)
    assert report.problems == [], "\n".join(map(str, report.problems))


def test_problems_are_sorted_by_file_then_line():
    ps = [Problem("b.toml", 3, "", "E002", "error", "x"), Problem("a.toml", 9, "", "E002", "error", "y"),
          Problem("a.toml", None, "x", "E002", "error", "z"), Problem("a.toml", 2, "", "W101", "warning", "w")]
    assert [(p.file, p.line) for p in sort_problems(ps)] == [("a.toml", None), ("a.toml", 2), ("a.toml", 9),
                                                             ("b.toml", 3)]


def test_a_crashing_loader_is_a_reported_problem_not_a_traceback(monkeypatch):
    import solo.sim.lint as check

    def boom(source):
        raise TypeError("surprise")

    monkeypatch.setattr(check, "read_adventure", boom)
    (p,) = check.check_adventure(BROKEN / "schema.toml").problems
    assert p.code == "E099" and "surprise" in p.message


# -- the command ---------------------------------------------------------------------------
@pytest.fixture
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args))


def test_exit_1_on_errors_with_every_problem_in_one_run(run):
    result = run("check", str(BROKEN / "trap.toml"), str(BROKEN / "unknown_target.toml"))
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if "error[" in line]
    assert len(lines) == 3
    assert lines == sorted(lines, key=lambda line: (line.split(":")[0], int(line.split(":")[1])))


def test_an_adventure_with_no_ending_anywhere_is_an_error_on_every_scene(run):
    # a loop with no ending at all is the same mistake as a loop beside an ending (trap.toml): E090, exit 1
    result = run("check", str(BROKEN / "no_ending.toml"))
    assert result.exit_code == 1, result.output
    assert result.stdout.count("error[E090]") == 2
    assert "no scene with ending = true" in result.stdout


def test_exit_0_on_warnings_alone(run):
    result = run("check", str(BROKEN / "unreachable.toml"))
    assert result.exit_code == 0, result.output
    assert "warning[W101]" in result.stdout


def test_bundled_name_checks_clean(run):
    result = run("check", "tutorial")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""


def test_json_is_a_list_of_problem_objects(run):
    result = run("check", "--json", str(BROKEN / "unknown_npc.toml"), str(BROKEN / "syntax.toml"))
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert isinstance(data, list) and len(data) == 2
    for item in data:
        assert set(item) == {"file", "line", "path", "code", "severity", "message"}
    assert {item["code"] for item in data} == {"E001", "E006"}
    assert result.stderr == "2 errors, 0 warnings\n"  # the count goes to standard error, as without --json


def test_json_says_ok_on_standard_error_for_a_clean_adventure(run):
    result = run("check", "--json", "tutorial")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [] and result.stderr.endswith(": ok\n")


def test_an_unknown_adventure_is_a_one_line_usage_error(run):
    result = run("check", "no_such_adventure_anywhere")
    assert result.exit_code == 2
    assert "no adventure" in result.output and "Traceback" not in result.output


def test_codes_lists_every_code(run):
    result = run("check", "--codes", "x")
    assert result.exit_code == 0
    for code in ALL_CODES:
        assert code in result.stdout


def test_codes_alone_lists_every_code(run):
    result = run("check", "--codes")
    assert result.exit_code == 0, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()] == list(ALL_CODES)


def test_no_adventure_and_no_codes_is_a_usage_error(run):
    result = run("check")
    assert result.exit_code == 2
    assert "--codes" in result.output and "Traceback" not in result.output


LINES = '''\
[adventure]
title = "Lines"
start = "hall"

[scenes.hall]
text = "A hall."

[[scenes.hall.choices]]
text = "Count {counter.coins}"
once = true
effects = [ { set = "unread" } ]
if = "door_opened"
goto = { goto = "end", text = "{bad}" }

[scenes.end]
text = "The end."
ending = true
'''


def test_every_message_points_at_the_line_of_its_key_not_the_choice_header(tmp_path):
    # the choice header is line 8; each problem is on the line of the key that holds it
    path = tmp_path / "lines.toml"
    path.write_text(LINES)
    found = {(p.code, p.path): p.line for p in check_adventure(path).problems}
    assert found == {
        ("W102", "scenes.hall.choices[0].text"): 9,  # coins, read in the label's slot
        ("W103", "scenes.hall.choices[0].effects[0]"): 11,
        ("W102", "scenes.hall.choices[0].if"): 12,  # door_opened
        ("E008", "scenes.hall.choices[0].goto.text"): 13,
    }


# -- review: {if} where nothing evaluates it, names at the start, texts the checker skipped -------
REVIEWED = '''\
[adventure]
title = "{if lamp}Lit{else}Dark{end}"
author = "{if x}A{end}"
start = "a"
pc = false
flags = ["ok_flag", "bad flag"]
counters = { score = 0, "sp ace" = 2, "{x}" = 1, and = 3 }
items = ["silver key", "{bad}"]
introduction = "{if intro_seen}Again.{end}"

[scenes.a]
title = "{if door_opend}Open{else}Shut{end}"
text = "{if ok_flag and score > 0}A.{end}"

[[scenes.a.choices]]
text = "Open the door"
effects = [ { set = "door_opened" }, { set = "intro_seen" } ]
goto = "b"

[scenes.b]
text = "{if has(\\"silver key\\")}B.{end}"
ending = true
'''


def test_blocks_in_title_or_author_and_bad_names_at_the_start_are_errors_at_their_lines(tmp_path):
    path = tmp_path / "adv.toml"
    path.write_text(REVIEWED)
    found = {(p.code, p.line, p.path) for p in check_adventure(path).problems}
    assert ("E008", 2, "adventure.title") in found
    assert ("E008", 3, "adventure.author") in found
    bad = sorted((line, where) for code, line, where in found if code == "E002")
    assert bad == [(6, "adventure.flags[1]"), (7, "adventure.counters.and"), (7, "adventure.counters.sp ace"),
                   (7, "adventure.counters.{x}"), (8, "adventure.items[1]")], found
    messages = " ".join(p.message for p in check_adventure(path).problems)
    for name in ("'bad flag'", "'sp ace'", "'{x}'", "'and'", "'{bad}'"):
        assert f"{name}" in messages, name
    assert "'silver key'" not in messages  # an item is read as a string: spaces are fine


def test_a_flag_read_only_in_a_title_or_the_introduction_counts_as_read(tmp_path):
    path = tmp_path / "adv.toml"
    path.write_text(REVIEWED)
    problems = check_adventure(path).problems
    w103 = [p.message for p in problems if p.code == "W103"]
    assert not any("'intro_seen'" in m for m in w103), w103  # read in the introduction
    w102 = [(p.line, p.message) for p in problems if p.code == "W102"]
    assert any(line == 12 and "'door_opend'" in m and "door_opened" in m for line, m in w102), w102


def test_check_stats_counts_the_words_of_each_scene_and_the_total(tmp_path):
    """hall: "Hall" (its title by default) 1 + "A hall." 2 + "Take the gem" 3 + "Leave" 1 = 7; out: "Out" 1 +
    "Your score: {counter.score}." 3 (a slot is a word) + " A fine haul." 3 = 7 (issue 29)."""
    from solo.sim.text_stats import words

    score = Path(__file__).parent / "data" / "format" / "score.toml"
    result = CliRunner().invoke(cli, ["check", str(score), "--stats"])
    assert result.exit_code == 0, result.output
    assert f"{score}: 14 words in 2 scenes" in result.output
    # with an introduction, the total and its two parts: the scenes' lines add up to the number beside them (a GM's
    # run read "466 words in 11 scenes (the introduction 23)" over scenes that made 443)
    from solo.sim.text_stats import stats_lines

    told = stats_lines("mill", {"introduction": 23, "scenes": {"gate": 400, "yard": 43}, "total": 466})
    assert told[0] == "mill: 466 words, 443 words in 2 scenes and 23 in the introduction"
    assert re.search(r"^  hall\s+7$", result.output, re.M) and re.search(r"^  out\s+7$", result.output, re.M)
    data = json.loads(CliRunner().invoke(cli, ["check", str(score), "--stats", "--json"]).stdout)
    assert data == {"problems": [], "stats": {str(score): {"introduction": 0, "scenes": {"hall": 7, "out": 7},
                                                            "total": 14}}}
    assert words("{if a}one two{else}three{end} four {pc}") == 5  # both sides of the block
    # punctuation left alone at a block's edge is no word (a GM's run counted 6 here)
    assert words("One two{if x}, three{end}.") == words("One two, three.") == 3
    broken = tmp_path / "broken.toml"
    broken.write_text('[adventure]\ntitle = "x"\nstart = "nowhere"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(broken), "--stats"])
    assert result.exit_code == 1 and "no statistics (fix its errors first)" in result.output


def test_a_missing_file_is_said_to_be_missing_not_an_unknown_name(run):
    """New-user run: 'solo check nope.toml' said "no adventure 'nope.toml'; bundled and yours: …", as if a name
    had been misspelt; a path (a .toml, or with a folder in it) that is not there is a missing file."""
    for spec in ("nope.toml", "drafts/cove"):
        result = run("check", spec)
        assert result.exit_code == 2
        assert f"no such file or folder: {spec}" in result.output and "Traceback" not in result.output


def test_an_adventure_named_with_its_title_s_capital_is_found(run):
    """A new player typed `solo play Kaldskard`, as the title writes it, and was refused (with a suggestion of
    'kaldskard'). A name that differs from one adventure's only by case names that one."""
    from solo.story.format.library import find_adventure

    assert find_adventure("Kaldskard") == find_adventure("kaldskard")
    assert find_adventure("VELLAN") == find_adventure("vellan")
    result = run("check", "Kaldskard")
    assert result.exit_code == 0 and "kaldskard: ok" in result.output
    assert run("check", "Kaldskad").exit_code == 2  # a misspelling is still one


@pytest.mark.parametrize("command", ["play", "prove", "simulate", "map"])
def test_every_command_that_reads_an_adventure_points_to_solo_check_alike(run, tmp_path, command):
    """New-user run: simulate and map added "(run 'solo check …')" to a broken adventure's error, play and prove
    did not."""
    bad = tmp_path / "bad one.toml"
    bad.write_text('[adventure]\ntitle = "x"\nstart = "a"\nbogus = 1\n[scenes.a]\ntext = "A."\nending = true\n',
                   encoding="utf-8")
    result = run(command, str(bad))
    assert result.exit_code == 2, result.output
    assert "adventure.bogus" in result.output and f"every problem: solo check '{bad}')" in result.output
    # a new GM's run: "solo play: error: goto.toml:115: error[E003]: … (and 3 more problems; run 'solo check')
    # (every problem: solo check goto.toml)" said "error" twice and "solo check" twice, and counted errors only
    two = tmp_path / "two.toml"
    two.write_text('[adventure]\ntitle = "x"\nstart = "a"\nbogus = 1\n[scenes.a]\ntext = "A."\n'
                   '[[scenes.a.choices]]\ntext = "On"\ngoto = "nowhere"\n[scenes.b]\ntext = "B."\nending = true\n',
                   encoding="utf-8")
    (line,) = [ln for ln in run(command, str(two)).output.splitlines() if "adventure.bogus" in ln]
    assert line.count("error") == 2 and line.count("solo check") == 1, line  # "error[E0..]" and "1 more error"
    assert line.startswith(f"solo {command}: ") and ": error: " not in line
    report = check_adventure(two)
    warned = sum(p.severity == "warning" for p in report.problems)
    assert warned and sum(p.severity == "error" for p in report.problems) == 2
    assert line.endswith(f"(1 more error and {warned} warning{'s' * (warned > 1)}; every problem: solo check {two})")
    # the review: a narration problem solo check lists (the loader does not read those files) is counted too
    narrated = tmp_path / "narrated.toml"
    narrated.write_text((BROKEN / "bad_narration.toml").read_text(encoding="utf-8").replace(
        "[adventure]\n", "[adventure]\nbogus = 1\n", 1), encoding="utf-8")
    (said,) = [ln for ln in run(command, str(narrated)).output.splitlines() if "adventure.bogus" in ln]
    assert said.endswith(f"(1 more error; every problem: solo check {narrated})"), said


def test_adventure_pc_says_only_a_ready_made_character_can_be_named_there(run, tmp_path):
    """New-user run: 'pc = "bob"' (a roster character) or a character file's path was refused with "not a file,
    not in your roster, and no ready-made one", as if a file or the roster would have done; only a ready-made
    character can be named there, and the message says so and names them."""
    character = tmp_path / "bob.toml"
    character.write_text('name = "Bob"\n', encoding="utf-8")
    for pc in ("bob", str(character)):
        adventure = tmp_path / "pc.toml"
        adventure.write_text(f'[adventure]\ntitle = "x"\nstart = "a"\npc = "{pc}"\n'
                             '[scenes.a]\ntext = "A."\nending = true\n', encoding="utf-8")
        result = run("check", str(adventure))
        assert result.exit_code == 1, result.output
        assert (f"adventure.pc: no ready-made character '{pc}': only a ready-made character can be named here, "
                "not a character file or one of your roster (ready-made: espen (Espen Lind))") in result.output
        assert "not in your roster" not in result.output
    adventure.write_text('[adventure]\ntitle = "x"\nstart = "a"\npc = "espen"\n'
                         '[scenes.a]\ntext = "A."\nending = true\n', encoding="utf-8")
    assert run("check", str(adventure)).exit_code == 0


def test_lines_for_an_unknown_conflict_type_are_reported_once_per_type(run, tmp_path):
    """New-user run: W190 said "narration.dule: no conflict type 'dule'; these lines are never used" once for
    each event written under it (vellan's narration, with a misspelt type, ten times the same line). Once per
    unknown type now, at its first line; each other unknown type has its own."""
    adventure = tmp_path / "narr.toml"
    adventure.write_text(
        '[adventure]\ntitle = "x"\nstart = "a"\n[scenes.a]\ntext = "A."\nending = true\n\n'
        '[narration.dule]\nstart = ["{actor} squares up to {target}."]\nround_won = ["{actor} wins the round."]\n'
        'stalemate_tie = ["Nobody gives way."]\n\n[narration.brawl]\nstart = ["{actor} rolls up a sleeve."]\n',
        encoding="utf-8")
    result = run("check", str(adventure), "--json")
    w190 = [(p["path"], p["line"]) for p in json.loads(result.stdout) if p["code"] == "W190"]
    assert sorted(w190) == [("narration.brawl", 13), ("narration.dule", 8)], result.output


GM_SLIPS = """
[adventure]
title = "Slips"
start = "quay"
counters = { clues = 0 }

[scenes.quay]
text = "The quay."

[[scenes.quay.choices]]
text = "Search"
once = true
retry_cost = [ { tension = 1 } ]
effects = [ { sett = "searched" }, { add = "hours" } ]
goto = "cellar"

[[scenes.quay.choices]]
text = "Leave"
if = "clues >= '3'"
goto = "home"

[[scenes.quay.choices]]
text = "Wait"
retry_cost = [ { add = "hours" } ]

[scenes.cellar]
text = "Wet."
outcome = "wet"

[[scenes.cellar.choices]]
text = "Up"
goto = "home"

[scenes.home]
text = "Home."
ending = true
outcome = "home"
"""


def test_what_a_gm_slipped_on_is_said_where_it_is(tmp_path):
    """A GM's run of mistakes that passed without a word, or without the hint every other gets: an outcome on a scene
    that is no ending (a forgotten ending = true), a retry cost on a once-only choice (never paid), a number
    compared with text (never true), a misspelt effect, and a retry cost that costs nothing."""
    path = tmp_path / "slips.toml"
    path.write_text(GM_SLIPS)
    found = {(p.code, p.path): p.message for p in check_adventure(path).problems}
    assert "only an ending has an outcome" in found["W108", "scenes.cellar.outcome"]  # warnings: they do nothing
    assert "never be paid" in found["W108", "scenes.quay.choices[0].retry_cost"]
    assert "(did you mean 'set'?)" in found["E002", "scenes.quay.choices[0].effects[0]"]
    assert "'3' is text, compared with a number: never true" in found["E004", "scenes.quay.choices[1].if"]
    # the retry cost that costs nothing says so, where the counter is added as a cost (W103 waits for the condition)
    path.write_text(GM_SLIPS.replace("clues >= '3'", "clues >= 3").replace('{ sett = "searched" }, { add = "hours" }',
                                                                          '{ set = "searched" }'))
    found = {(p.code, p.path): p.message for p in check_adventure(path).problems}
    assert found["W103", "scenes.quay.choices[2].retry_cost[0]"] == ("'hours' is set but never read: as a retry cost "
                                                                     "it costs nothing, since no condition or text "
                                                                     "reads it")


@pytest.mark.parametrize(("amount", "said"), [
    ('"1"', 'expected dice such as "1d6" or a number (write it without quotes: amount = 1)'),
    ('"one"', "expected something like 3d6+2 or d100"),  # words are no number: the dice message, as before
])
def test_a_quoted_number_of_damage_is_told_to_lose_its_quotes(tmp_path, amount, said):
    """A GM's run: `amount = "1"` was told "'1' has no dice in it", while the docs allow a number; the fix is the
    quotes, as `ending = "true"` is told."""
    path = tmp_path / "fall.toml"
    path.write_text('[adventure]\ntitle = "Fall"\nstart = "hall"\n\n[scenes.hall]\ntext = "A hall."\n\n'
                    '[[scenes.hall.choices]]\ntext = "Jump"\n'
                    f'goto = {{ goto = "end", effects = [ {{ damage = "BODY", amount = {amount} }} ] }}\n\n'
                    '[scenes.end]\ntext = "Down."\nending = true\n', encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert problem.path == "scenes.hall.choices[0].goto.effects[0].amount" and said in problem.message, problem


@pytest.mark.parametrize(("field", "said"), [
    ('focus = "Stealth"', "'Stealth' is not a Focus of Social (its Focuses: Deceit, Influence, Oratory)"),
    ('focus = "Influenc"', "'Influenc' is not a Focus of Social (did you mean 'Influence'?)"),
    ("difficulty = 5", "expected text (a difficulty: routine, easy, normal, hard, very hard), got 5"),
])
def test_a_wrong_focus_or_difficulty_is_told_with_the_values_that_fit(tmp_path, field, said):
    """A GM's run: "'Stealth' is not a Focus of Social" and "expected text (difficulty), got 5" left the GM to look up
    what would do. A near spelling is suggested; else the values are listed."""
    path = tmp_path / "a.toml"
    path.write_text('[adventure]\ntitle = "A"\nstart = "a"\npc = "espen"\n\n[scenes.a]\ntext = "A."\n\n'
                    '[[scenes.a.choices]]\ntext = "Try"\n[scenes.a.choices.roll]\nskill = "Social"\n'
                    f'{field}\nsuccess = "b"\nfailure = "b"\n\n[scenes.b]\ntext = "B."\nending = true\n',
                    encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert said in problem.message, problem.message


def test_a_scenes_field_under_its_choices_header_says_where_it_belongs(tmp_path):
    """A GM's run: `on_enter` written below the scene's `[[…choices]]` header read "unknown field 'on_enter'": TOML
    gives every key below that line to the choice. The message says so, and where to write it."""
    path = tmp_path / "a.toml"
    path.write_text('[adventure]\ntitle = "A"\nstart = "a"\npc = "espen"\n\n[scenes.a]\ntext = "A."\n\n'
                    '[[scenes.a.choices]]\ntext = "Go"\ngoto = "b"\non_enter = [ { set = "done" } ]\n\n'
                    '[scenes.b]\ntext = "B."\nending = true\n', encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert problem.path == "scenes.a.choices[0].on_enter"
    assert "on_enter is a scene's field" in problem.message and "above the scene's first [[scenes.a.choices]]" \
        in problem.message, problem.message


@pytest.mark.parametrize(("written", "line", "said"), [
    ('npcs = ["dog"\n\n[[scenes.a.choices]]\ntext = "Go"\ngoto = "b"\n', 8, "unclosed array opened here: add its "
                                                                          "closing ]"),
    ('[[scenes.a.choices]]\ntext = "Go"\ngoto = { goto = "b"\n', 10, "unclosed inline table opened here: add its "
                                                                     "closing }"),
    # a review: an inline table left open inside an array, the way effects are most often written
    ('[[scenes.a.choices]]\ntext = "Go"\ngoto = "b"\neffects = [ { set = "y" }, { give = "z"\n\n[scenes.c]\n'
     'text = "C."\n', 11, "unclosed inline table opened here: add its closing }"),
    # TOML says "Unclosed array" of a comma missing between two items too: that is told where it is
    ('npcs = [\n  "dog"\n  "cat"\n]\n', 10, "Unclosed array (a comma missing between two items, or the closing ]"),
])
def test_an_unclosed_bracket_is_told_where_it_was_opened(tmp_path, written, line, said):
    """A GM's run: `npcs = ["dog"` on line 79 was reported as "line 81: Unclosed array", the choices header tomli
    stopped at, with no word of the fix. The line that opened it is named, and the bracket it needs."""
    path = tmp_path / "a.toml"
    path.write_text('[adventure]\ntitle = "A"\nstart = "a"\npc = "espen"\n\n[scenes.a]\ntext = "A."\n' + written,
                    encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert (problem.code, problem.line) == ("E001", line) and said in problem.message, (problem.line, problem.message)


def test_an_unknown_field_with_no_near_spelling_lists_what_fits_and_a_quoted_party_loses_its_quotes(tmp_path):
    """A GM's run: "npcs.dog.file: unknown field" and "scenes.a.frobnicate: unknown field" said nothing of what would
    fit there, and "adventure.party: expected a number or { min = N, max = N }" did not echo the "3" given."""
    path = tmp_path / "a.toml"
    path.write_text('[adventure]\ntitle = "A"\nstart = "a"\npc = "espen"\nparty = "3"\n\n'
                    '[npcs.dog]\nname = "the dog"\nlevel = "common"\nfile = "dog.toml"\n\n'
                    '[scenes.a]\ntext = "A."\nfrobnicate = 1\n\n[[scenes.a.choices]]\ntext = "Go"\ngoto = "b"\n\n'
                    '[scenes.b]\ntext = "B."\nending = true\n', encoding="utf-8")
    said = {p.path: p.message for p in check_adventure(path).problems}
    assert said["adventure.party"].endswith("got text '3' (write it without quotes: party = 3)")
    assert said["npcs.dog.file"].startswith("unknown field (an NPC is written with: name, skills,")
    assert "owed_failures" not in said["npcs.dog.file"] and "code_block" in said["npcs.dog.file"]
    # a review: gear_bonus is a field the docs give an NPC, and an adventure's NPC takes its story's fields too
    assert "gear_bonus" in said["npcs.dog.file"]
    assert said["npcs.dog.file"].endswith("; in an adventure also: recovers, seen, known, secret)")
    assert said["scenes.a.frobnicate"] == ("unknown field 'frobnicate' (here: choices, control, ending, fate, npcs, "
                                           "on_enter, oracle_setup, outcome, text, title)")


def test_a_key_given_twice_is_found_outside_the_texts_and_a_quoted_number_loses_its_quotes(tmp_path):
    """A review: a scene text holding the lines "[A note]" and "title = x" made a duplicate title read "A note.title
    … (first at line 8)", a line inside the text; and `by = "2"` said only "expected a whole number"."""
    path = tmp_path / "a.toml"
    path.write_text('[adventure]\ntitle = "A"\nstart = "a"\npc = "espen"\n\n[scenes.a]\ntext = """\n[A note]\n'
                    'title = x\n"""\ntitle = "One"\ntitle = "Two"\n', encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert problem.message.startswith("scenes.a.title is given a value twice (first at line 11)"), problem.message
    path.write_text('[adventure]\ntitle = "A"\nstart = "a"\npc = "espen"\n\n[scenes.a]\ntext = "A."\n\n'
                    '[[scenes.a.choices]]\ntext = "Go"\ngoto = { goto = "b", effects = [ { add = "n", by = "2" } ] }'
                    '\n\n[scenes.b]\ntext = "B."\nending = true\n', encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert problem.message.endswith("got text '2' (write it without quotes: by = 2)"), problem.message


def test_second_review_of_check_messages(tmp_path):
    """A review: an inline table left open as an array item on its own line was told as a comma missing at the next
    header; a triple quote in a comment made a duplicate key be sought in the wrong table; `tension = "5"`, a clock's
    `max = "3"` and an NPC's `skills = { Combat = "50" }` gave no "without quotes"; an adventure NPC's `secrt` and
    `recover` were offered 'career' or nothing."""
    head = '[adventure]\ntitle = "A"\nstart = "a"\npc = "espen"\n'
    path = tmp_path / "a.toml"
    path.write_text(head + '\n[scenes.a]\ntext = "A."\non_enter = [\n  { set = "x" },\n  { give = "y"\n\n'
                    '[scenes.b]\ntext = "B."\n', encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert problem.line == 10 and "unclosed inline table opened here" in problem.message, problem
    path.write_text(head + '\n[scenes.a]\ntitle = "One"\n# a """ in a comment\n[[scenes.a.choices]]\ntext = "Go"\n'
                    'goto = "a"\ntext = "Again"\n', encoding="utf-8")
    [problem] = check_adventure(path).problems
    assert problem.message.startswith("scenes.a.choices.text is given a value twice (first at line 10)"), problem
    path.write_text(head.replace('pc = "espen"\n', 'pc = "espen"\ntension = "5"\n') +
                    'clocks = [ { counter = "day", label = "day", max = "3" } ]\ncounters = { day = 1 }\n'
                    '[npcs.dog]\nname = "the dog"\nlevel = "common"\nskills = { Combat = "50" }\nsecrt = "x"\n'
                    'recover = "day"\n[scenes.a]\ntext = "A."\nending = true\n', encoding="utf-8")
    said = " ".join(p.message for p in check_adventure(path).problems)
    for fix in ("(write it without quotes: tension = 5)", "(write it without quotes: max = 3)",
                "(write it without quotes: Combat = 50)", "(did you mean 'secret'?)", "(did you mean 'recovers'?)"):
        assert fix in said, (fix, said)
    assert "career" not in said

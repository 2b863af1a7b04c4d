"""The format at play: starting state, conditional text, effects and gotos, choice counts, shared
responses and stories with no player character, played through the engine and `solo play --script`."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.decisions import Question
from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.story.format.loader import load_adventure, read_adventure
from solo.story.play.engine import Game
from solo.story.play.state import GameState

CLOAK = Path(__file__).parent / "data" / "format" / "cloak.toml"


class Walk:
    """Answers the story's choices by the start of their labels, in order; anything else (the
    epilogue's questions) with its default or its last option, kept in ``other``."""

    def __init__(self, *labels: str):
        self.labels = list(labels)
        self.other: list[Question] = []

    def decide(self, question: Question) -> str:
        if question.kind != "choice":
            self.other.append(question)
            return question.default or question.options[-1].key
        want = self.labels.pop(0)
        hits = [o.key for o in question.options if o.label.startswith(want)]
        assert hits, f"no option {want!r} in {[o.label for o in question.options]}"
        return hits[0]


def play(adventure, *labels, party=None):
    log = EventLog()
    walk = Walk(*labels)
    game = Game(adventure, seed=1, decider=walk, sink=log, party=party)
    ending = game.play()
    assert not walk.labels, f"answers left over: {walk.labels}"
    game.other = walk.other  # type: ignore[attr-defined]
    return game, ending, log.events


def texts(events, kind):
    return [e.data["text"] for e in events if e.kind == kind]


WIN = ("Go west", "Hang up", "Go east", "Go south", "Read")
LOSE = ("Go south", "Feel", "Search", "Go north", "Go west", "Hang up", "Go east", "Go south", "Read")


def test_the_cloak_game_loads_without_a_single_problem():
    adventure, problems = read_adventure(CLOAK)
    assert problems == [], "\n".join(map(str, problems))
    assert adventure is not None and not adventure.uses_pcs


def test_the_cloak_game_is_won_by_reading_an_undisturbed_message():
    game, ending, events = play(load_adventure(CLOAK), *WIN)
    assert ending == "won"
    assert game.state.counters == {"score": 2}
    assert "you have won" in texts(events, "scene_entered")[-1]
    assert not any("{if" in t for t in texts(events, "scene_entered"))  # events carry the text picked


def test_the_cloak_game_is_lost_by_blundering_in_the_dark():
    game, ending, events = play(load_adventure(CLOAK), *LOSE)
    assert ending == "lost"
    assert game.state.counters["disturbed"] == 2
    assert game.state.counters["score"] == 1  # the hook, but not the message
    dark, lit = [e.data["text"] for e in events if e.kind == "scene_entered" and e.data["scene"] == "bar"]
    assert "pitch dark" in dark and "message" not in dark
    assert "message" in lit and "dark" not in lit
    assert texts(events, "branch_text").count(
        "You grope about in the blackness and feel something scuff under your shoes.") == 2


def test_a_story_with_no_pc_asks_only_the_story_and_has_no_epilogue():
    game, _, events = play(load_adventure(CLOAK), *WIN, party=[pregenerated("espen")])
    assert game.other == []  # no "Who will you play?", no Willpower, no improvement
    assert game.state.party == []
    kinds = {e.kind for e in events}
    assert "party" not in kinds and "session_end" not in kinds and "improvement" not in kinds


def test_score_counts_the_hook_only_the_first_time():
    labels = ("Go west", "Hang up", "Put the cloak", "Hang the cloak up again", "Go east", "Go south", "Read")
    game, ending, events = play(load_adventure(CLOAK), *labels)
    assert ending == "won" and game.state.counters["score"] == 2
    assert game.state.chosen["cloakroom/hang"] == 2
    assert "Hang the cloak up again" in texts(events, "choice")  # the label read the count too


def test_scripted_play_of_the_cloak_game_writes_no_character(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOLO_HOME", raising=False)  # (the defaults, under tmp_path: a write would show there)
    script = tmp_path / "win.txt"
    script.write_text("2\n1\n3\n3\n3\n")
    r = CliRunner().invoke(cli, ["play", str(CLOAK), "--script", str(script), "--seed", "3",
                                 "--saves", str(tmp_path / "saves")])
    assert r.exit_code == 0, r.output
    assert "you have won" in r.output and "Score: 2 of 2" in r.output
    assert "Who will you play" not in r.output and "Willpower" not in r.output
    assert not (tmp_path / "characters").exists()


def adventure_from(tmp_path, body: str):
    path = tmp_path / "adv.toml"
    path.write_text(textwrap.dedent(body))
    adventure, problems = read_adventure(path)
    assert adventure is not None, "\n".join(map(str, problems))
    return adventure, problems


START = '''
[adventure]
title = "Start"
start = "hall"
pc = false
flags = ["lamp_lit"]
counters = { coins = 3 }
items = ["old map"]

[scenes.hall]
text = "{if lamp_lit}Bright.{else}Dark.{end} {counter.coins} coins."
on_enter = [ { add = "coins" } ]

[[scenes.hall.choices]]
text = "Blow out the lamp"
if = "lamp_lit"
effects = [ { clear = "lamp_lit" } ]
goto = "hall"

[[scenes.hall.choices]]
text = "Leave"
if = 'has("old map")'
goto = "out"

[scenes.out]
text = "Out with {counter.coins} coins."
ending = true
'''


def test_the_starting_state_is_set_once_not_on_every_return(tmp_path):
    adventure, problems = adventure_from(tmp_path, START)
    assert problems == [], "\n".join(map(str, problems))
    game, ending, events = play(adventure, "Blow out", "Leave")
    assert ending == "out"
    assert texts(events, "scene_entered")[:2] == ["Bright. {counter.coins} coins.", "Dark. {counter.coins} coins."]
    assert game.state.counters["coins"] == 5  # 3 at the start, +1 per visit, never reset to 3
    assert game.state.flags["lamp_lit"] is False and game.state.items == ["old map"]


ROUTES = '''
[adventure]
title = "Routes"
start = "hall"
pc = false

[responses.count]
text = "Counted{if n >= 2} twice{end}."
effects = [ { add = "n" }, { set = "big", if = "n >= 2" } ]
goto = [ { if = "n >= 3", goto = "many" }, { if = 'chosen("hall/other") > 0', goto = "other" } ]

[scenes.hall]
text = "A hall."

[[scenes.hall.choices]]
text = "Count"
use = "count"

[[scenes.hall.choices]]
id = "other"
text = "Count the other way"
use = "count"

[[scenes.hall.choices]]
text = "Leave"
if = "big"
goto = [ { if = "n > 5", goto = "many" }, { goto = "other" } ]

[scenes.many]
text = "Many."
ending = true

[scenes.other]
text = "Other."
ending = true
'''


def test_goto_lists_pick_the_first_route_that_holds_and_stay_when_none_does(tmp_path):
    adventure, problems = adventure_from(tmp_path, ROUTES)
    assert [p.code for p in problems] == ["W106"]  # the response's goto list has no fallback
    game, ending, events = play(adventure, "Count", "Count", "Count")
    assert ending == "many" and game.state.counters["n"] == 3
    assert texts(events, "branch_text") == ["Counted.", "Counted.", "Counted twice."]  # picked before effects
    assert game.state.flags["big"] is True  # the effect's if saw the add before it
    game, ending, _ = play(adventure, "Count", "Count the other way")
    assert ending == "other"
    game, ending, _ = play(adventure, "Count", "Count", "Leave")
    assert ending == "other" and game.state.counters["n"] == 2  # the fallback of Leave's list


def test_a_shared_response_is_one_object_for_every_user(tmp_path):
    adventure, _ = adventure_from(tmp_path, ROUTES)
    users = [c.goto for c in adventure.scenes["hall"].choices[:2]]
    assert users[0] is users[1] is adventure.responses["count"]


def test_choice_counts_go_into_saves_and_a_save_from_before_loads(tmp_path):
    adventure, _ = adventure_from(tmp_path, ROUTES)
    game, _, _ = play(adventure, "Count", "Count the other way")
    data = json.loads(json.dumps(game.state.to_dict()))
    assert data["chosen"] == {"hall/1": 1, "hall/other": 1}
    assert GameState.from_dict(data).chosen == {"hall/1": 1, "hall/other": 1}
    del data["chosen"]  # a save written before choices were counted
    assert GameState.from_dict(data).chosen == {}


@pytest.mark.parametrize("labels, fired", [(("Go",), False), (("Arm", "Go"), True)])
def test_an_effect_applies_only_while_its_if_holds(tmp_path, labels, fired):
    adventure, _ = adventure_from(tmp_path, '''
        [adventure]
        title = "If"
        start = "a"

        [scenes.a]
        text = "A."

        [[scenes.a.choices]]
        text = "Arm"
        effects = [ { set = "armed" } ]

        [[scenes.a.choices]]
        text = "Go"
        goto = { goto = "b", effects = [ { give = "medal", if = "armed" }, { add = "score", if = 'has("medal")' } ] }

        [scenes.b]
        text = "B {counter.score}."
        ending = true
    ''')
    game, _, events = play(adventure, *labels, party=[pregenerated("espen")])
    assert [q.kind for q in game.other] == ["willpower_acted", "improve"]  # a story with a PC has its epilogue
    assert ("medal" in game.state.items) is fired
    assert game.state.counters.get("score", 0) == int(fired)
    assert [e.data["item"] for e in events if e.kind == "item"] == (["medal"] if fired else [])


def test_a_scene_title_may_read_the_state_too(tmp_path):
    adventure, _ = adventure_from(tmp_path, '''
        [adventure]
        title = "Titles"
        start = "a"
        pc = false

        [scenes.a]
        title = "{if visits(\\"a\\") > 1}The hall again{else}The hall{end}"
        text = "A."

        [[scenes.a.choices]]
        text = "Again"
        goto = "a"

        [[scenes.a.choices]]
        text = "Out"
        goto = "b"

        [scenes.b]
        text = "B."
        ending = true
    ''')
    _, _, events = play(adventure, "Again", "Out")
    assert [e.data["title"] for e in events if e.kind == "scene_entered"] == ["The hall", "The hall again", "B"]


def test_an_action_outcome_may_use_a_shared_response(tmp_path):
    adventure, problems = adventure_from(tmp_path, '''
        [adventure]
        title = "Outcome"
        start = "a"
        pc = false

        [responses.onward]
        text = "Whatever the place, you go on."
        effects = [ { add = "rolled" } ]
        goto = [ { if = "rolled >= 1", goto = "b" } ]

        [scenes.a]
        text = "A."

        [[scenes.a.choices]]
        text = "Where next?"
        table = { name = "place", then = { use = "onward" } }

        [scenes.b]
        text = "B."
        ending = true
    ''')
    assert [p.code for p in problems] == ["W106"]
    assert adventure.scenes["a"].choices[0].action.branches["then"] is adventure.responses["onward"]
    game, ending, events = play(adventure, "Where next?")
    assert ending == "b" and game.state.counters == {"rolled": 1}
    assert texts(events, "branch_text") == ["Whatever the place, you go on."]


# -- review: pc = false loose ends, and titles with {if} wherever they are shown -----------------
@pytest.mark.parametrize("args", [["play", str(CLOAK), "--pc", "espen"],
                                  ["simulate", str(CLOAK), "--party", "espen", "--runs", "2"],
                                  ["simulate", str(CLOAK), "--party-size", "2", "--runs", "2"]])
def test_a_character_for_an_adventure_without_one_is_refused(tmp_path, args):
    r = CliRunner().invoke(cli, [*args, "--saves", str(tmp_path)] if args[0] == "play" else args)
    assert r.exit_code == 2, r.output
    assert "pc = false" in r.output and "The Cloak in the Dark" in r.output


#: A condition with each function that reads the player characters.
PC_CALLS = ('skill("Move") > 0', 'pool("BODY") > 0', 'pool_max("BODY") > 0', "luck() > 0", 'tag("Contact")',
            "party_size() > 1", "fallen() > 0", "unarmed() > 0")


def test_every_function_that_reads_the_characters_is_tried():
    from solo.story.format.readers import PC_FUNCTIONS

    assert {call.split("(")[0] for call in PC_CALLS} == set(PC_FUNCTIONS)


@pytest.mark.parametrize("call", PC_CALLS)
def test_a_condition_that_reads_the_characters_is_refused_where_there_are_none(tmp_path, call):
    """Each condition function that reads the player characters (readers.PC_FUNCTIONS) names itself in an error in an
    adventure with ``pc = false``, and is accepted where there are characters."""
    from solo.story.format.expressions import FUNCTIONS
    from solo.story.format.readers import PC_FUNCTIONS

    fn = call.split("(")[0]
    assert fn in PC_FUNCTIONS and fn in FUNCTIONS
    for pcs, refused in (("pc = false\n", True), ("", False)):
        path = tmp_path / "story.toml"
        path.write_text(f'[adventure]\ntitle = "T"\nstart = "a"\n{pcs}\n[scenes.a]\ntext = "A."\n'
                        f'[[scenes.a.choices]]\ntext = "On"\nif = \'{call}\'\ngoto = "b"\n'
                        f'[[scenes.a.choices]]\ntext = "Or on"\ngoto = "b"\n'
                        f'[scenes.b]\ntext = "B."\nending = true\n', encoding="utf-8")
        _, problems = read_adventure(path)
        said = [p.message for p in problems if p.severity == "error"]
        assert said == ([f"{fn}() reads the player characters, and this adventure has none (pc = false)"]
                        if refused else []), said


def test_help_offers_no_sheet_or_luck_without_a_character_and_saves_say_so(tmp_path):
    script = tmp_path / "part.txt"
    script.write_text("help\n2\n")
    saves = tmp_path / "saves"
    r = CliRunner().invoke(cli, ["play", str(CLOAK), "--script", str(script), "--seed", "3", "--partial",
                                 "--saves", str(saves)])
    assert r.exit_code == 0, r.output
    assert "note TEXT" in r.output and "sheet [NAME]" not in r.output and "luck contact" not in r.output
    listing = CliRunner().invoke(cli, ["saves", "--saves", str(saves)])
    assert "no player character" in listing.output and "no party yet" not in listing.output
    assert "[no player character; 1 decision]" in listing.output  # "1 decisions" before (a docs audit)
    script.write_text("2\n1\n3\n3\n3\n")
    r = CliRunner().invoke(cli, ["play", str(CLOAK), "--script", str(script), "--seed", "3", "--save", "won",
                                 "--saves", str(saves)])
    assert r.exit_code == 0, r.output
    listing = CliRunner().invoke(cli, ["saves", "--saves", str(saves)])
    assert any("won" in line and "finished" in line for line in listing.output.splitlines())


TITLED = '''
[adventure]
title = "Titled"
start = "a"
pc = false

[scenes.a]
title = "{if lamp}The lit hall{else}The dark hall{end}"
text = "A."

[[scenes.a.choices]]
text = "{if lamp}Leave by the light{else}Grope for the door{end}"
goto = "b"

[[scenes.a.choices]]
text = "Light the lamp"
if = "not lamp"
effects = [ { set = "lamp" } ]

[scenes.b]
title = "{if lamp}Out, lamp in hand{else}Out in the dark{end}"
text = "B."
ending = true
'''


def test_titles_with_blocks_read_the_game_in_play_and_their_if_side_without_one(tmp_path):
    path = tmp_path / "adv.toml"
    path.write_text(TITLED)
    script = tmp_path / "walk.txt"
    script.write_text("1\n")
    saves = tmp_path / "saves"
    r = CliRunner().invoke(cli, ["play", str(path), "--script", str(script), "--seed", "1", "--saves", str(saves)])
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert "{if" not in flat
    assert "The end: Out in the dark" in flat and "The game is over (Out in the dark; outcome: b)" in flat
    listing = CliRunner().invoke(cli, ["saves", "--saves", str(saves)])
    assert "Titled: Out in the dark" in listing.output
    for fmt in ("mermaid", "dot"):
        drawn = CliRunner().invoke(cli, ["map", str(path), "--format", fmt])
        assert drawn.exit_code == 0, drawn.output
        assert "{if" not in drawn.output and "{end}" not in drawn.output
        assert "The lit hall" in drawn.output and "Leave by the light" in drawn.output
    sim = CliRunner().invoke(cli, ["simulate", str(path), "--runs", "3", "--json"])
    assert json.loads(sim.output)["endings"]["b"]["title"] == "Out, lamp in hand"


def test_plain_lines_break_between_words_and_keep_a_long_path_whole():
    """Issue 31, point 7: `recap` and other plain lines wrapped mid-word ("sketch of th / e dunes")."""
    import io

    from rich.console import Console

    from solo.ui.view import tell

    out = io.StringIO()
    console = Console(file=out, width=40, color_system=None)
    tell(console, "Scene 3: the dunes. You found a sketch of the dunes in the hut, and a path: "
         "/home/someone/games/saves/a-very-long-name/tutorial.json to resume.")
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 40 for line in lines if "/" not in line)
    assert "/home/someone/games/saves/a-very-long-name/tutorial.json" in lines
    words = " ".join(lines).split()
    assert words == ("Scene 3: the dunes. You found a sketch of the dunes in the hut, and a path: "
                     "/home/someone/games/saves/a-very-long-name/tutorial.json to resume.").split()


_CAST = '''
[adventure]
id = "cast"
title = "Who is here"
pc = "espen"
start = "inn"

[npcs.gudrun]
name = "Gudrun Hals"
level = "common"
pronoun = "she"
skills = ["Social", "Awareness", "Knowledge"]
code_block = "random"

[scenes.inn]
title = "The inn"
text = "Gudrun pours."
npcs = ["gudrun"]

[[scenes.inn.choices]]
text = "Walk to the ford"
goto = "ford"

[scenes.ford]
title = "The ford"
text = "A day's walk from the inn. Nobody here but the river."
npcs = []
oracle_setup = true

[[scenes.ford.choices]]
text = "Walk on"
goto = "road"

[scenes.road]
title = "The road"
text = "A road anyone might walk."
oracle_setup = true

[[scenes.road.choices]]
text = "Arrive"
goto = "end"

[scenes.end]
title = "The end"
text = "There."
ending = true
'''


def test_a_scene_that_says_who_is_here_has_its_set_up_name_nobody_else(tmp_path):
    """Kaldskard's ford (seed 63): 'The scene is interrupted: Gudrun Hals makes a move nobody asked for', of the
    innkeeper a day's walk back. A scene that lists its people (``npcs``, even none) has its oracle set-up name
    none but them; a scene that lists none leaves anyone met so far to turn up, as before."""
    from solo.story.format.loader import load_adventure

    path = tmp_path / "cast.toml"
    path.write_text(_CAST, encoding="utf-8")
    adventure = load_adventure(path)
    assert adventure.scenes["ford"].npcs_listed and not adventure.scenes["road"].npcs_listed
    named = {"ford": 0, "road": 0}
    for seed in range(300):
        log = EventLog()
        Game(adventure, seed=seed, decider=Walk("Walk to", "Walk on", "Arrive"), sink=log).play()
        where = None
        for e in log.events:
            if e.kind == "scene_entered":
                where = e.data["scene"]
            elif e.kind == "scene_setup" and "Gudrun" in json.dumps(e.data):
                named[where] += 1
    assert named["ford"] == 0
    assert named["road"] >= 3  # the same dice name her where nobody says who is here

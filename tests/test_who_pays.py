"""The PC who tries a roll is the one who pays for it: a retry cost or an effect on "the active PC" falls on the
roller, asked before the choice is paid for, in play and in ``solo prove`` alike (a group's run: Thea paid for a
second try at the wall that Espen then rolled). docs/adventures.md ("Retries") says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.sim.prove.search import prove
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.play.chances import flip_faces, roll_faces
from solo.story.play.engine import Game
from solo.story.play.rolling import PAYING_TAKES_OUT, roll_target

WALL = """
[adventure]
id = "wall"
title = "The wall"
party = { min = 1, max = 3 }
start = "yard"

[scenes.yard]
text = "A wall, wet with rain."

[[scenes.yard.choices]]
text = "Climb it"
retry_cost = [ { damage = "BODY", amount = 1 } ]
effects = [ { luck = -1 } ]
roll = { skill = "Move", modifier = {modifier}, who = "{who}", success = "top", failure = "{failure}" }

[[scenes.yard.choices]]
text = "Walk round"
goto = "round"

[scenes.top]
text = "Over."
ending = true
outcome = "over"

[scenes.round]
text = "The long way."
ending = true
outcome = "round"
"""


def wall(tmp_path: Path, modifier: int = -200, who: str = "choose", failure: str = "yard") -> Path:
    path = tmp_path / "wall.toml"
    path.write_text(WALL.replace("{modifier}", str(modifier)).replace("{who}", who).replace("{failure}", failure))
    return path


class Answers:
    """The scene's choices in order; "Who tries it?" by the names given in order; no Luck spent."""

    def __init__(self, choices: list[str], rollers: list[str]):
        self.choices, self.rollers = list(choices), list(rollers)
        self.asked: list[str] = []
        self.questions: list = []

    def decide(self, question):
        self.asked.append(question.kind)
        self.questions.append(question)
        if question.kind == "choice":
            return self.choices.pop(0)
        if question.kind == "who":
            return self.rollers.pop(0)
        return "no" if "no" in question.keys() else question.default or question.options[0].key


def pc(name: str, move: int):
    char = pregenerated("espen")
    char.name = name
    char.skills["Move"] = move
    return char


def party():
    return [pc("Espen Lind", 50), pc("Thea Holm", 30)]


def paid(events) -> list[tuple[str, str]]:
    """Who paid what, in order: ("luck", name) for a Luck Point, ("BODY", name) for a Pool's point."""
    return [("luck", e.data["actor"]) if e.kind == "luck_change" else (e.data["pool"], e.data["actor"])
            for e in events if e.kind in ("luck_change", "pool_change")]


def test_the_one_asked_to_try_pays_its_cost_and_its_effects(tmp_path):
    answers = Answers(["c1", "c1", "c2"], ["Thea Holm", "Espen Lind"])
    log = EventLog()
    game = Game(load_adventure(wall(tmp_path)), seed=3, decider=answers, sink=log, party=party())
    game.play()
    rolls = [e.data["actor"] for e in log.events if e.kind == "skill_roll"]
    assert rolls == ["Thea Holm", "Espen Lind"]
    # the first try: Thea rolls and pays its effect (a Luck Point); the second: Espen rolls and pays both
    assert paid(log.events) == [("luck", "Thea Holm"), ("BODY", "Espen Lind"), ("luck", "Espen Lind")]
    # asked who before anything is paid, once a try: the order of the questions is the choice, then who
    assert [k for k in answers.asked if k in ("choice", "who")] == ["choice", "who", "choice", "who", "choice"]


def test_best_play_prices_the_roll_on_the_roller_who_paid(tmp_path):
    """Espen's Move is the better: best play sends him, and the Luck Point the climb costs leaves him none to flip
    with, so the proof's chance of the top is his roll alone. Paid by whoever acted last (Thea, the first PC),
    Espen kept his Luck, and the proof counted a flip he could not have made."""
    thea, espen = pc("Thea Holm", 30), pc("Espen Lind", 50)
    for p in (thea, espen):
        p.luck = 1
    adventure = load_adventure(wall(tmp_path, modifier=0, failure="round"))
    spec = adventure.scenes["yard"].choices[0].action.spec
    target = roll_target(espen, spec)[0]
    assert target > roll_target(thea, spec)[0]
    proof = prove(adventure, party=[thea, espen])
    succeeds = sum(n for outcome, n in roll_faces(target) if outcome.endswith("success")) / 100
    assert proof.endings["top"]["best_chance"] == pytest.approx(succeeds, abs=1e-12)
    with_flip = sum(n for outcome, flip, n in flip_faces(target) if (flip or outcome).endswith("success")) / 100
    assert with_flip > succeeds  # the test can tell the two apart


def test_a_roll_by_the_active_pc_is_not_asked_and_the_active_pc_pays(tmp_path):
    answers = Answers(["c1", "c1", "c2"], [])
    log = EventLog()
    game = Game(load_adventure(wall(tmp_path, who="active")), seed=3, decider=answers, sink=log, party=party())
    game.play()
    assert "who" not in answers.asked
    assert paid(log.events) == [("luck", "Espen Lind"), ("BODY", "Espen Lind"), ("luck", "Espen Lind")]


def test_a_game_saved_before_replays_in_its_own_order_and_keeps_it(tmp_path):
    """The review: a save made when the choice was paid before "Who tries it?" (a damage cost asking about Luck
    first) failed to load, "the save expected a 'luck_reduce' decision but the game asks for 'who'". A save without
    the ``who_first`` option is such a game: it replays as it was played, and is saved so again."""
    import json

    from click.testing import CliRunner
    from conftest import play_session

    from solo.cli import cli

    path = wall(tmp_path)
    text = path.read_text().replace('retry_cost = [ { damage = "BODY", amount = 1 } ]',
                                    'retry_cost = [ { damage = "BODY", amount = 3 } ]')
    path.write_text(text)
    folder = tmp_path / "saves"
    folder.mkdir()
    # played the old way: choice, its cost (Luck to take 1? yes), then who
    session, code, screen = play_session(load_adventure(path), ["1", "Espen Lind", "1", "yes", "Thea Holm"],
                                         folder, party=party(), edition=0)
    save = folder / "game.json"
    data = json.loads(save.read_text())
    assert data["options"]["who_first"] is False and data["options"]["edition"] == 0
    kinds = [e[1] for e in data["log"] if e[0] == "a"]
    assert kinds.index("luck_reduce") < len(kinds) - 1 - kinds[::-1].index("who")  # paid, then asked who
    del data["options"]["who_first"], data["options"]["edition"]  # as a save from before the options were written
    save.write_text(json.dumps(data))
    resumed = CliRunner().invoke(cli, ["play", "--load", str(save)], input="")
    assert "expected a" not in resumed.output, resumed.output
    again = json.loads(save.read_text())["options"]
    assert again["who_first"] is False and again["edition"] == 0  # saved again as the game it is


def test_the_edition_a_save_was_played_by_is_the_one_it_replays_by():
    """Saves of edition 1 wrote only ``who_first``; older ones nothing; from edition 2 on, ``edition``. A new game
    plays by the latest, and a save from a later solo is refused (tests/hostile/test_terminal_text.py)."""
    from solo.story.play.engine import EDITION, Game, NewerEdition, edition_of
    from solo.ui.session import save_data

    assert edition_of({}) == 0 and edition_of({"who_first": False}) == 0 and edition_of({"who_first": True}) == 1
    assert edition_of({"edition": 2, "who_first": True}) == 2 and edition_of({"edition": EDITION}) == EDITION
    with pytest.raises(NewerEdition, match=f"edition {EDITION + 1}; this one plays editions up to {EDITION}"):
        edition_of({"edition": EDITION + 1})
    assert edition_of({"edition": True, "who_first": True}) == 1 and edition_of({"edition": -1}) == 0
    assert Game.edition == EDITION >= 2
    options = save_data(load_adventure(find_adventure("tutorial")), 1, None, advise=True).options
    assert options["edition"] == EDITION and options["who_first"] is True


KEEPER = """
[adventure]
id = "keeper"
title = "The keeper"
party = { min = 1, max = 3 }
start = "door"

[npcs.keeper]
name = "Tora Brenne"
level = "common"
pronoun = "she"
skills = { Willpower = 40, Social = 30 }
pools = { BODY = 6, INT = 6, POW = 6, CHA = 6 }

[npcs.keeper.code_block]
personality = ["Reserved"]
dark_triad = ["Impulsive"]
motivation = ["Money"]
disposition = "Unfriendly"

[scenes.door]
text = "The keeper's door."
npcs = ["keeper"]

[[scenes.door.choices]]
text = "Bring her a gift and ask (Social against her Willpower)"
effects = [ { disposition = "keeper", shift = 2 } ]
opposed = { skill = "Social", npc = "keeper", npc_skill = "Willpower", win = "in", lose = "in" }

[scenes.in]
text = "In."
ending = true
"""


def test_who_tries_it_shows_the_chance_the_roll_is_made_at_once_the_choice_is_paid(tmp_path):
    """The review: asked before the choice's effects, "Who tries it?" showed "Tora Brenne is Unfriendly -20" while
    the roll was made with "is Friendly +20", the gift given. Each PC's chance is read on the game paid by them."""
    path = tmp_path / "keeper.toml"
    path.write_text(KEEPER)
    answers = Answers(["c1"], ["Thea Holm"])
    log = EventLog()
    Game(load_adventure(path), seed=2, decider=answers, sink=log, party=party()).play()
    shown = next(q for q in answers.questions if q.kind == "who")
    thea = next(o.chance for o in shown.options if o.key == "Thea Holm")
    roll = next(e.data for e in log.events if e.kind == "opposed_roll")
    assert thea is not None and thea.target == roll["target"] and roll["chance_id"] == thea.id
    assert any("Friendly" in name for name, _ in thea.modifiers), thea.modifiers
    assert not any(e.kind == "chance" and e.data.get("changed") for e in log.events)  # never corrected at the roll


def test_a_cost_that_takes_the_last_pc_out_ends_the_game_before_the_roll(tmp_path):
    """The review: a retry cost that left nobody asked "Who tries it?" with no one to answer, and hung."""
    from solo.story.play.engine import FALLEN

    path = wall(tmp_path)
    path.write_text(path.read_text().replace('retry_cost = [ { damage = "BODY", amount = 1 } ]',
                                             'retry_cost = [ { damage = "BODY", amount = 50 } ]'))
    espen = pc("Espen Lind", 50)
    espen.pools["BODY"].current = -espen.pools["BODY"].maximum + 1  # one more point and he is in comae
    answers = Answers(["c1", "c1"], [])
    log = EventLog()
    game = Game(load_adventure(path), seed=3, decider=answers, sink=log, party=[espen])
    game.play()
    assert game.state.ending == FALLEN
    assert len([e for e in log.events if e.kind == "skill_roll"]) == 1  # the second try is never rolled


def test_one_whom_paying_takes_out_does_not_roll_and_one_of_the_others_is_asked(tmp_path):
    """The review: Thea was picked at 10 %, paid a cost that put her in comae, and Espen rolled without being asked.
    "Who tries it?" says what paying would do to her, and once it has, one of those left is asked (with three, a
    question again; with two, the one left)."""
    path = wall(tmp_path)
    path.write_text(path.read_text().replace('retry_cost = [ { damage = "BODY", amount = 1 } ]',
                                             'retry_cost = [ { damage = "BODY", amount = 50 } ]'))
    for names, rollers in ((("Espen Lind", "Thea Holm"), ["Thea Holm"]),
                           (("Espen Lind", "Thea Holm", "Ola Berg"), ["Thea Holm", "Ola Berg"])):
        members = [pc(name, 50) for name in names]
        thea = members[1]
        thea.pools["BODY"].current = -thea.pools["BODY"].maximum + 1  # the retry's cost puts her in comae
        answers = Answers(["c1", "c1", "c2"], ["Espen Lind", *rollers])
        log = EventLog()
        game = Game(load_adventure(path), seed=3, decider=answers, sink=log, party=members)
        game.play()
        whos = [q for q in answers.questions if q.kind == "who"]
        second = {o.key: o for o in whos[1].options}
        assert second["Thea Holm"].chance is None and second["Thea Holm"].detail == PAYING_TAKES_OUT
        assert second["Espen Lind"].chance is not None
        assert "Thea Holm" in game.state.removed
        rolls = [e.data["actor"] for e in log.events if e.kind == "skill_roll"]
        expected = "Ola Berg" if len(names) == 3 else "Espen Lind"
        assert rolls == ["Espen Lind", expected], rolls
        if len(names) == 3:  # asked again among those left, Thea no longer offered
            assert len(whos) == 3 and "Thea Holm" not in {o.key for o in whos[2].options}
        else:
            assert len(whos) == 2


def test_a_game_of_edition_one_goes_on_as_it_did_when_paying_takes_the_roller_out(tmp_path):
    """The review: a save of edition 1, where the roller taken out by paying gave way to the first PC left without a
    question, was refused on load ("expected a 'choice' decision but the game asks for 'who'"). Its game goes on
    as it was played."""
    path = wall(tmp_path)
    path.write_text(path.read_text().replace('retry_cost = [ { damage = "BODY", amount = 1 } ]',
                                             'retry_cost = [ { damage = "BODY", amount = 50 } ]'))
    members = [pc(name, 50) for name in ("Espen Lind", "Thea Holm", "Ola Berg")]
    members[1].pools["BODY"].current = -members[1].pools["BODY"].maximum + 1
    answers = Answers(["c1", "c1", "c2"], ["Espen Lind", "Thea Holm"])
    log = EventLog()
    game = Game(load_adventure(path), seed=3, decider=answers, sink=log, party=members)
    game.edition = 1
    game.play()
    assert len([q for q in answers.questions if q.kind == "who"]) == 2  # not asked again
    rolls = [e.data["actor"] for e in log.events if e.kind == "skill_roll"]
    assert rolls == ["Espen Lind", "Espen Lind"]  # the first PC left, as edition 1 had it

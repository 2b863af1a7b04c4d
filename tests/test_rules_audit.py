"""Issue 16, the rules audit: one regression test per item fixed, named for the item."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from conftest import Answers, LoadedDice, make_char

from solo.errors import ContentError
from solo.events import EventLog
from solo.rules import improvement
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.creation import pregenerated
from solo.rules.participants import from_character, obstacle
from solo.rules.rulebook import DATA_DIR, load_rules
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game
from solo.story.play.epilogue import epilogue
from solo.ui import describe

COMBAT = conflict_type("combat")


class QuickLeaver:
    """Always Quick, always trying to get away; never spends Luck."""

    def decide(self, question):
        return {"lens": "quick", "quick_action": "leave", "luck_flip": "no", "luck_reduce": "no"}.get(
            question.kind, question.options[-1].key)


def test_item1_a_quick_leave_does_not_turn_a_won_conflict_into_a_stalemate():
    # Loaded dice: A (Quick, Combat 95 - 20) rolls 10, B misses with 99, the short sword deals 3 to
    # B's single BODY point. B is out, so the conflict is won and the leave roll (40) is never made.
    a = make_char("A", Combat=95, Move=95)
    a.weapon = "short_sword"
    b = make_char("B", level="common", Combat=50, pools={"BODY": 1, "INT": 6, "POW": 6, "CHA": 6})
    log = EventLog()
    rng = LoadedDice([10, 99, 3, 40])
    result = Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=QuickLeaver()),
                               from_character(b, "b", COMBAT)], rng, sink=log).run()
    assert result.outcome == "won" and result.statuses == {"A": "in", "B": "out"}
    assert not log.of("leave_attempt") and rng.faces == [40]
    # The issue's reproduction: whenever B is knocked out, A has won, whatever the seed.
    for seed in range(101):
        a = make_char("A", Combat=95, Move=95)
        b = make_char("B", level="common", Combat=50, pools={"BODY": 1, "INT": 6, "POW": 6, "CHA": 6})
        result = Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=QuickLeaver()),
                                   from_character(b, "b", COMBAT)], random.Random(seed)).run()
        assert result.outcome != "stalemate", seed
        if result.statuses["B"] == "out":
            assert result.outcome == "won" and result.statuses["A"] == "in", seed
        else:
            assert result.outcome == "fled" and result.statuses == {"A": "fled", "B": "in"}, seed


def test_item3_an_obstacle_deals_1d6_in_a_physical_conflict_and_empty_hands_1d3():
    wall = obstacle("Collapsing wall", "normal")
    assert str(wall.damage_dice(True)) == "1d6" and str(wall.damage_dice(False)) == "1d6"
    hero = make_char("Hero", Combat=50)
    pc = from_character(hero, "a", COMBAT, decider=Answers(lens="none", luck_flip="no", luck_reduce="no"))
    assert str(pc.damage_dice(True)) == "1d3"  # the unarmed default stays for people
    # The obstacle wins the round (20 against 50) and its blow of 5 lands: only a d6 can show a 5.
    log = EventLog()
    Conflict(COMBAT, [pc, wall], LoadedDice([99, 20, 5]), sink=log, round_limit=1).run()
    blow = log.of("damage")[0]
    assert (blow["actor"], blow["dice"], blow["amount"]) == ("Collapsing wall", "1d6", 5)
    assert hero.pools["BODY"].current == 5


def test_item4_only_the_combat_focus_that_fits_the_weapon_counts():
    def target(weapon, focuses):
        char = make_char("F", Combat=50, focuses=focuses)
        char.weapon = weapon
        return from_character(char, "a", COMBAT).base_target()

    ranged = {"Combat//Ranged": 20}
    assert target("longbow", ranged) == 70
    assert target("regular_firearm", ranged) == 70
    assert target("long_sword", ranged) == 50  # a similar Focus at -20: a plain +20 Focus gives nothing
    assert target("long_sword", {"Combat//Ranged": 30}) == 60  # an improved one still gives +10
    assert target("long_sword", {"Combat//Melee": 20, "Combat//Ranged": 20}) == 70
    assert target(None, {"Combat//Unarmed": 20}) == 70  # empty hands are //Unarmed
    assert target("martial_arts", {"Combat//Unarmed": 20}) == 70
    assert target("dagger", {"Combat//Unarmed": 20}) == 50
    assert target("heavy_blaster", {"Combat//Gunnery": 20}) == 50  # no hand weapon is a //Gunnery one
    # Quick's weapon switch changes the Focus at once, like the damage: this round's attack is made with
    # the bow (//Ranged), not the sword (//Melee).
    archer = make_char("Archer", Combat=50, focuses=ranged)
    archer.weapon, archer.items = "long_sword", ["Longbow"]
    foe = make_char("Foe", level="common", Combat=50)
    foe.weapon = "dagger"
    log = EventLog()
    mind = Answers(lens=["quick", "none"], quick_action="weapon:longbow", luck_flip="no", luck_reduce="no")
    Conflict(COMBAT, [from_character(archer, "a", COMBAT, decider=mind), from_character(foe, "b", COMBAT)],
             LoadedDice([99, 99, 99, 99]), sink=log, round_limit=2).run()
    assert [e["target"] for e in log.of("roll") if e["actor"] == "Archer"] == [50, 70]  # Quick -20, then none


def test_item4_a_weapon_names_a_combat_focus_in_the_gear_table(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("pregens"))
    gear = data / "gear.toml"
    gear.write_text(gear.read_text(encoding="utf-8").replace(
        'kind = "melee"\nfocus = "Unarmed"', 'kind = "melee"\nfocus = "Swim"', 1), encoding="utf-8")
    with pytest.raises(ContentError, match="Combat Focus") as err:
        load_rules(data)
    assert "weapons.unarmed.focus" in str(err.value)


def test_item5_the_second_improvement_roll_goes_to_another_skill():
    # Espen acted by his Willpower Focuses: two rolls. After Awareness, the second roll's menu leaves it out.
    player = Answers(willpower_acted="yes", improve=["improve:Awareness", "improve:Social"])
    game = Game(load_adventure(find_adventure("tutorial")), seed=3, decider=player)
    espen = pregenerated("espen")
    game.state.party = [espen]
    epilogue(game)
    first, second = [q for q in player.asked if q.kind == "improve"]
    assert "improve:Awareness" in first.keys() and "improve:Awareness" not in second.keys()
    assert "improve:Social" in second.keys()
    assert 52 <= espen.skills["Awareness"] <= 55 and 32 <= espen.skills["Social"] <= 35
    # The rules refuse it too, and keep the roll.
    espen = pregenerated("espen")
    espen.improvement_rolls = 1
    with pytest.raises(improvement.ImprovementError, match="another skill"):
        improvement.improve_skill(espen, "Awareness", random.Random(1), improved={"Awareness"})
    assert espen.skills["Awareness"] == 50 and espen.improvement_rolls == 1
    assert "Awareness" not in improvement.improvable_skills(espen, {"Awareness"})


def test_the_willpower_question_comes_while_the_pools_are_as_the_story_left_them():
    """A new GM's run: right after "The end", the status line beside the Willpower question already showed Luck
    and every Pool whole, before the line that says they are. It is asked first; they come back after."""
    seen = []

    class Watching(Answers):
        def decide(self, question):
            if question.kind == "willpower_acted":
                seen.append((espen.luck, espen.pools["BODY"].current))
            return super().decide(question)

    player = Watching(willpower_acted="no", improve="keep")
    game = Game(load_adventure(find_adventure("tutorial")), seed=3, decider=player)
    espen = pregenerated("espen")
    espen.luck, espen.pools["BODY"].current = 0, 3
    game.state.party = [espen]
    epilogue(game)
    assert seen == [(0, 3)]
    assert espen.luck == espen.luck_max and espen.pools["BODY"].current == espen.pools["BODY"].maximum


def test_the_second_improvement_menu_keeps_the_numbers_of_the_first():
    """A skill improved leaves a gap, as a scene's choices do: the second menu renumbered from 1 once, so a typed
    "2" (or a script's) meant Social at the first roll and something else at the second."""
    player = Answers(willpower_acted="yes", improve=["1", "2"])
    game = Game(load_adventure(find_adventure("tutorial")), seed=3, decider=player)
    espen = pregenerated("espen")
    game.state.party = [espen]
    epilogue(game)
    first, second = [q for q in player.asked if q.kind == "improve"]
    numbered = {o.key: n for n, o in first.numbered()}  # the numbers each menu shows
    assert list(numbered.values()) == list(range(1, len(first.options) + 1))
    assert all(numbered[o.key] == n for n, o in second.numbered())  # each option keeps its number
    assert 1 not in {n for n, _ in second.numbered()}  # the skill improved first is gone, and its number too
    assert second.resolve("2") == first.resolve("2") == first.options[1].key
    # the number that is gone says why ("'7' is not an answer here" read as a slip: a new player's run)
    from solo.decisions import QuestionError

    with pytest.raises(QuestionError, match=r"^1 \(Improve \w+: improved already this time\) is not on offer now\."):
        second.resolve("1")
    with pytest.raises(QuestionError, match=r"^'99' is not an answer here"):
        second.resolve("99")
    assert espen.skills[first.options[1].key.split(":")[1]] > pregenerated("espen").skills[
        first.options[1].key.split(":")[1]]


DEBT_ADVENTURE = '''
[adventure]
id = "debt"
title = "Borrowed time"
author = "tests"
version = "1.0"
pc = "espen"
start = "first"
negative_luck = true

[scenes.first]
title = "The first scene"
text = "A door."

[[scenes.first.choices]]
text = "Look (Awareness)"
roll = { skill = "Awareness", success = { text = "Seen." }, failure = { text = "Missed." } }

[[scenes.first.choices]]
text = "Go on"
goto = "second"

[scenes.second]
title = "The second scene"
text = "A corridor."

[[scenes.second.choices]]
text = "Look (Awareness)"
roll = { skill = "Awareness", success = { text = "Seen." }, failure = { text = "Missed." } }

[[scenes.second.choices]]
text = "Leave"
goto = "end"

[scenes.end]
title = "The end"
text = "Out."
ending = true
'''


def _debt_game(tmp_path: Path, luck: int, choices: list[str], faces: list[int], **answers):
    path = tmp_path / "debt.toml"
    path.write_text(DEBT_ADVENTURE, encoding="utf-8")
    espen = pregenerated("espen")
    espen.luck = luck
    player = Answers(choice=choices, willpower_acted="no", improve="keep", **answers)
    log = EventLog()
    game = Game(load_adventure(path), seed=1, decider=player, party=[espen], sink=log)
    game.rng = LoadedDice(faces)
    game.play()
    pc = game.state.party[0]
    outcomes = [e["outcome"] for e in log.of("roll_outcome")]
    return pc, player, log, outcomes


def test_item6_borrowed_luck_is_repaid_by_the_first_success_of_the_next_scene(tmp_path):
    # Espen (Awareness 50) arrives owing one point. The first scene is the next one: his first success
    # (20) fails and pays the point back without a question; his second success (20) stands. Luck is
    # not negative at the end, so it comes back in full.
    pc, player, log, outcomes = _debt_game(tmp_path, -1, ["1", "1", "2", "2"], [20, 20])
    assert outcomes == ["failure", "success"]
    assert "pay_back" not in player.kinds() and "luck_flip" not in player.kinds()
    repaid = log.of("luck")
    assert [(e["use"], e["roll"], e["luck"]) for e in repaid] == [("pay_back", 20, 0)]
    assert "counts as a failure" in describe.luck(repaid[0])
    assert pc.luck == pc.luck_max and pc.owed_failures == 0


def test_item6_luck_borrowed_in_a_scene_falls_due_in_the_next_one(tmp_path):
    # Espen has no Luck left. In the first scene he borrows a point to flip 73 into 37; his next success
    # there stands (the debt is for the next scene). In the second scene his first success is taken.
    # The debt repaid, his Luck is at 0 at the end, and comes back in full.
    pc, player, log, outcomes = _debt_game(tmp_path, 0, ["1", "1", "2", "1", "1", "2"], [73, 20, 20, 20],
                                           luck_flip="yes")
    assert outcomes == ["success", "success", "failure", "success"]
    assert [e["use"] for e in log.of("luck")] == ["flip", "pay_back"]
    assert pc.luck == pc.luck_max and pc.owed_failures == 0


def test_item6_a_debt_takes_a_won_conflict_round_and_no_flip_is_offered_to_win_one():
    # A owes a point in this scene (set at the scene's start). Her 10 would win the round against B's 99:
    # it becomes a failure, the point is repaid, and the round is a stalemate with no blow struck.
    a = make_char("A", Combat=50, luck=-1)
    a.owed_failures = 1
    a.weapon = "short_sword"
    b = make_char("B", level="common", Combat=50)
    mind = Answers(lens="none")
    log = EventLog()
    result = Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=mind), from_character(b, "b", COMBAT)],
                      LoadedDice([10, 99]), sink=log, round_limit=1, negative_luck=True).run()
    assert [(e["use"], e["roll"]) for e in log.of("luck")] == [("pay_back", 10)]
    assert log.of("round_result")[0]["winner"] is None and not log.of("damage")
    assert result.outcome == "stalemate" and (a.luck, a.owed_failures) == (0, 0)
    # Owing again, A rolls 73: flipping to 37 would win, but the win would only repay the debt, so no
    # flip is offered (the Answers decider fails on any question it was not given).
    a = make_char("A", Combat=50, luck=-1)
    a.owed_failures = 1
    Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=Answers(lens="none", luck_reduce="no")),
                      from_character(make_char("B", level="common", Combat=50), "b", COMBAT)],
             LoadedDice([73, 20, 1]), round_limit=1, negative_luck=True).run()
    assert (a.luck, a.owed_failures) == (-1, 1)


def test_item7a_luck_may_flip_a_failed_quick_leave_roll():
    # A (Move 40) fails the leave roll with 73; flipped it is 37, a getaway, so Luck is offered.
    a = make_char("A", Combat=50, Move=40)
    b = make_char("B", level="common", Combat=50)
    mind = Answers(lens="quick", quick_action="leave", luck_flip="yes")
    log = EventLog()
    result = Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=mind), from_character(b, "b", COMBAT)],
                      LoadedDice([99, 99, 73]), sink=log, round_limit=1).run()
    flip = mind.asked[-1]
    assert flip.kind == "luck_flip" and flip.context["roll"] == 73 and flip.context["flipped"] == 37
    assert [(e["use"], e["before"], e["after"]) for e in log.of("luck")] == [("flip", 73, 37)]
    leave = log.of("leave_attempt")[0]
    assert (leave["roll"], leave["success"], leave["flipped"]) == (37, True, True)
    assert result.outcome == "fled" and a.luck == a.luck_max - 1
    # 95 flips to 59, still above 40: no offer.
    a = make_char("A", Combat=50, Move=40)
    mind = Answers(lens="quick", quick_action="leave")
    result = Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=mind),
                               from_character(make_char("B", level="common", Combat=50), "b", COMBAT)],
                      LoadedDice([99, 99, 95]), round_limit=1).run()
    assert "luck_flip" not in mind.kinds() and result.outcome == "stalemate"


def test_item9_an_equal_initiative_roll_off_is_rolled_again():
    # Two Common NPCs alike in Pool and skill: the roll-off ties at 40, so they roll again (12 and 80).
    n1, n2 = make_char("N1", level="common", Combat=50), make_char("N2", level="common", Combat=50)
    log = EventLog()
    Conflict(COMBAT, [from_character(n1, "a", COMBAT), from_character(n2, "b", COMBAT)],
             LoadedDice([40, 40, 12, 80, 99, 99]), sink=log, round_limit=1).run()
    assert [e["rolls"] for e in log.of("initiative_rolloff")] == [{"N1": 40, "N2": 40}, {"N1": 12, "N2": 80}]
    assert log.of("round_start")[0]["order"] == ["N2", "N1"]
    # Three tied: N3 rolls highest; N1 and N2 tie at 30 and roll again between themselves.
    ps = [from_character(make_char(f"N{i}", level="common", Combat=50), "a" if i == 1 else "b", COMBAT)
          for i in (1, 2, 3)]
    log = EventLog()
    Conflict(COMBAT, ps, LoadedDice([30, 30, 90, 5, 60, 99, 99, 99]), sink=log, round_limit=1).run()
    assert [e["rolls"] for e in log.of("initiative_rolloff")] == [{"N1": 30, "N2": 30, "N3": 90},
                                                                   {"N1": 5, "N2": 60}]
    assert log.of("round_start")[0]["order"] == ["N3", "N2", "N1"]


def test_item6_the_round_table_shows_a_repaid_success_as_a_failure():
    import io

    from rich.console import Console

    from solo.ui.view import TerminalView

    a = make_char("A", Combat=50, luck=-1)
    a.owed_failures = 1
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=120, color_system=None))
    Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=Answers(lens="none")),
                      from_character(make_char("B", level="common", Combat=50), "b", COMBAT)],
             LoadedDice([10, 99]), sink=lambda e: view.render(e), round_limit=1, negative_luck=True).run()
    row = next(line for line in out.getvalue().splitlines() if line.strip().startswith("A ") and "/" in line)
    assert "failure (Luck repaid)" in row and "success" not in row


@pytest.mark.parametrize("banked", [0, 4])
def test_keeping_the_rolls_has_one_number_whatever_is_banked(banked):
    """A new player's Kaldskard: "Keep the rolls for later" had always been 10; with 4 rolls banked it was 46, and the
    "10" typed as ever bought Awareness //Insight. From play's edition 5 it comes right after the skills to improve,
    whatever the rolls banked; a game of an earlier edition shows it last, as it did."""
    for edition in (4, 5):
        player = Answers(willpower_acted="no", improve="keep")
        game = Game(load_adventure(find_adventure("tutorial")), seed=3, decider=player)
        game.edition = edition
        espen = pregenerated("espen")
        espen.improvement_rolls = banked
        game.state.party = [espen]
        epilogue(game)
        (menu,) = [q for q in player.asked if q.kind == "improve"]
        numbered = {o.key: n for n, o in menu.numbered()}
        skills = sum(key.startswith("improve:") for key in numbered)
        assert numbered["keep"] == (skills + 1 if edition >= 5 else len(numbered))
        assert any(key.startswith("focus:") for key in numbered) is (banked > 0)

"""Luck Points (docs/rules.md §2.8), improvement (§2.9) and Science //Medicine first aid (§2.2)."""

from __future__ import annotations

from collections import Counter

import pytest

from solo.errors import SoloError
from solo.rules import improvement, luck, medicine
from solo.rules.character import Character, Pool
from solo.rules.creation import pregenerated
from solo.rules.dice import new_rng


def espen() -> Character:
    return pregenerated("espen")


def lucky() -> Character:
    char = espen()
    char.tags = ["Contact", "Auspicious"]
    char.luck = char.luck_max
    return char


# -- Luck -------------------------------------------------------------------

def test_every_use_of_luck_is_known():
    assert set(luck.USES) == {"flip", "reduce_damage", "timely_appearance", "look_what_i_found", "refreshed"}


@pytest.mark.parametrize("use", luck.USES)
def test_spending_costs_one_point(use):
    char = espen()
    assert luck.spend(char, use) is False
    assert char.luck == 1
    assert char.owed_failures == 0


def test_two_points_then_none():
    char = espen()
    luck.spend(char, "flip")
    luck.spend(char, "flip")
    assert char.luck == 0
    assert not luck.can_spend(char)
    with pytest.raises(luck.LuckError, match="no Luck Points left"):
        luck.spend(char, "flip")
    assert char.luck == 0
    assert isinstance(luck.LuckError("x"), SoloError)


def test_auspicious_has_three():
    char = lucky()
    assert char.luck == 3
    for _ in range(3):
        luck.spend(char, "reduce_damage")
    assert char.luck == 0 and not luck.can_spend(char)


def test_unknown_use():
    with pytest.raises(ValueError, match="unknown Luck use"):
        luck.spend(espen(), "wish")


def test_negative_luck_down_to_minus_2():
    char = espen()
    luck.spend(char, "flip")
    luck.spend(char, "flip")
    assert luck.can_spend(char, negative_luck=True)
    assert luck.spend(char, "flip", negative_luck=True) is True  # borrowed: owed, due from the next scene
    assert (char.luck, char.owed_failures) == (-1, 0)
    assert luck.spend(char, "flip", negative_luck=True) is True
    assert (char.luck, char.owed_failures) == (-2, 0)
    assert not luck.can_spend(char, negative_luck=True)
    with pytest.raises(luck.LuckError, match="floor is -2"):
        luck.spend(char, "flip", negative_luck=True)
    assert char.luck == -2


def test_positive_points_are_not_borrowed_even_with_negative_luck_on():
    char = espen()
    assert luck.spend(char, "flip", negative_luck=True) is False
    assert char.owed_failures == 0


def test_borrowed_luck_falls_due_at_the_next_scene_and_pay_back_restores_one_point():
    char = espen()
    char.luck = 0
    luck.spend(char, "flip", negative_luck=True)
    luck.spend(char, "flip", negative_luck=True)
    assert not luck.debt_due(char)  # nothing is due in the scene where it was borrowed
    with pytest.raises(luck.LuckError, match="owes no Luck"):
        luck.pay_back(char)
    assert luck.fall_due(char) == 2 and luck.debt_due(char)
    luck.pay_back(char)
    assert (char.luck, char.owed_failures) == (-1, 1)
    luck.pay_back(char)
    assert (char.luck, char.owed_failures) == (0, 0)
    with pytest.raises(luck.LuckError, match="owes no Luck"):
        luck.pay_back(char)
    char.luck = 1  # Luck above zero owes nothing, whatever a stale count says
    char.owed_failures = 1
    assert not luck.debt_due(char) and luck.fall_due(char) == 0


def test_refreshed_brings_a_pool_back_to_1():
    for current in (0, -1, -9):
        char = espen()
        char.pools["BODY"].current = current
        luck.refreshed(char, "BODY")
        assert char.pools["BODY"].current == 1
        assert char.luck == 1


def test_refreshed_refuses_a_pool_at_1_or_more_and_keeps_the_point():
    char = espen()
    char.pools["BODY"].current = 1
    with pytest.raises(luck.LuckError, match="only helps"):
        luck.refreshed(char, "BODY")
    assert char.luck == 2 and char.pools["BODY"].current == 1


def test_refreshed_without_luck_changes_nothing():
    char = espen()
    char.luck = 0
    char.pools["POW"].current = -2
    with pytest.raises(luck.LuckError):
        luck.refreshed(char, "POW")
    assert char.pools["POW"].current == -2
    luck.refreshed(char, "POW", negative_luck=True)
    assert char.pools["POW"].current == 1 and char.luck == -1


def test_end_of_scenario_restores_luck_and_requests():
    char = lucky()
    char.luck = 0
    char.requests = {"Contact": 3}
    luck.end_scenario(char)
    assert char.luck == 3
    assert char.requests == {}
    char = espen()
    char.luck = 1
    luck.end_scenario(char)
    assert char.luck == 2


def test_the_end_of_a_scenario_heals_every_pool_and_says_which():
    """A character kept in the roster walked into the next adventure with BODY 1 and CHA 0 from the last one
    (new-user run): the days between scenarios are rest (docs/rulings.md), so every Pool is whole again, and the
    epilogue's line says which were not."""
    from solo.ui.describe import session_end

    char = espen()
    char.pools["BODY"].current, char.pools["CHA"].current, char.pools["POW"].current = 1, 0, -3
    healed = luck.end_scenario(char)
    assert all(p.current == p.maximum for p in char.pools.values())
    assert set(healed) == {"BODY", "CHA", "POW"} and healed["POW"] == char.pools["POW"].maximum + 3
    said = session_end({"actor": "Espen Lind", "earned": 1, "luck": 2, "healed": healed})
    assert said == ("Espen Lind earns an improvement roll; Luck is back to 2, and BODY, POW and CHA are whole again "
                    "before the next adventure.")
    assert luck.end_scenario(char) == {}  # nothing to heal: nothing said
    assert session_end({"actor": "Espen Lind", "earned": 2, "luck": 2, "healed": {}}) == \
        "Espen Lind earns 2 improvement rolls; Luck is back to 2."
    # a new player read "Luck is back to 2" of a character who never spent any
    assert session_end({"actor": "Sigrun", "earned": 2, "luck_before": 2, "luck": 2, "healed": {}}) == \
        "Sigrun earns 2 improvement rolls; Luck stays at 2."
    assert session_end({"actor": "Sigrun", "earned": 1, "luck_before": 0, "luck": 2, "healed": {}}) == \
        "Sigrun earns an improvement roll; Luck is back to 2."


def test_an_improved_skill_says_what_its_roll_added():
    """'Sigrun: Combat 50 % -> 54 %' showed no roll: the line names the dice the menu offered and what they gave;
    a skill learnt (no roll) says only where it starts."""
    from solo.rules.improvement import IMPROVE_DICE
    from solo.ui.describe import improvement

    assert IMPROVE_DICE == "1d4+1"
    assert improvement({"actor": "Sigrun", "skill": "Combat", "before": 50, "after": 54, "dice": IMPROVE_DICE}) == \
        "Sigrun: Combat 50 % -> 54 % (1d4+1: +4)."
    assert improvement({"actor": "Sigrun", "skill": "Tech", "before": 5, "after": 10, "dice": None}) == \
        "Sigrun: Tech 5 % -> 10 %."


def test_negative_luck_is_not_restored_at_the_end_of_a_scenario():
    char = espen()
    char.luck = 0
    luck.spend(char, "flip", negative_luck=True)
    luck.end_scenario(char)
    assert char.luck == -1 and luck.fall_due(char) == 1


# -- improvement -------------------------------------------------------------------

def test_end_session_earns_one_or_two_rolls():
    char = espen()
    assert improvement.end_session(char, acted_by_willpower=False) == 1
    assert char.improvement_rolls == 1
    assert improvement.end_session(char, acted_by_willpower=True) == 2
    assert char.improvement_rolls == 3


def test_improve_skill_adds_1d4_plus_1():
    gains = Counter()
    for seed in range(400):
        char = espen()
        char.improvement_rolls = 1
        gain = improvement.improve_skill(char, "Combat", new_rng(seed))
        assert 2 <= gain <= 5
        assert char.skills["Combat"] == 30 + gain
        assert char.improvement_rolls == 0
        gains[gain] += 1
    assert set(gains) == {2, 3, 4, 5}


def test_improve_skill_draws_one_d4():
    rng, twin = new_rng(3), new_rng(3)
    char = espen()
    char.improvement_rolls = 1
    assert improvement.improve_skill(char, "Social", rng) == twin.randint(1, 4) + 1


def test_improve_skill_needs_a_roll_and_a_trained_skill():
    char = espen()
    with pytest.raises(improvement.ImprovementError, match="no improvement rolls"):
        improvement.improve_skill(char, "Combat", new_rng(1))
    char.improvement_rolls = 1
    char.skills["Science"] = 0  # a skill below the untrained 5 %: the character does not have it
    with pytest.raises(improvement.ImprovementError, match="does not have Science"):
        improvement.improve_skill(char, "Science", new_rng(1))
    assert char.improvement_rolls == 1 and char.skills["Science"] == 0


def test_learn_a_new_skill_costs_two_and_starts_at_10():
    char = espen()
    char.skills["Tech"] = 0
    char.improvement_rolls = 1
    with pytest.raises(improvement.ImprovementError, match="costs 2"):
        improvement.learn_skill(char, "Tech")
    char.improvement_rolls = 3
    improvement.learn_skill(char, "Tech")
    assert char.skills["Tech"] == 10 and char.improvement_rolls == 1
    char.improvement_rolls = 2
    with pytest.raises(improvement.ImprovementError, match="already knows"):
        improvement.learn_skill(char, "Tech")


def test_learn_a_new_focus_costs_four():
    char = espen()
    char.improvement_rolls = 3
    with pytest.raises(improvement.ImprovementError, match="costs 4"):
        improvement.learn_focus(char, "Combat", "Melee")
    char.improvement_rolls = 4
    improvement.learn_focus(char, "Combat", "Melee")
    assert char.focuses["Combat//Melee"] == 20 and char.improvement_rolls == 0
    char.improvement_rolls = 8
    with pytest.raises(improvement.ImprovementError, match="already has"):
        improvement.learn_focus(char, "Combat", "Melee")
    with pytest.raises(improvement.ImprovementError, match="not a Focus"):
        improvement.learn_focus(char, "Combat", "Swim")
    assert char.improvement_rolls == 8


def test_learn_a_new_tag_costs_five():
    char = espen()
    char.improvement_rolls = 4
    with pytest.raises(improvement.ImprovementError, match="costs 5"):
        improvement.learn_tag(char, "Wealth")
    char.improvement_rolls = 5
    improvement.learn_tag(char, "Wealth")
    assert char.tags == ["Contact", "Pass", "Wealth"] and char.improvement_rolls == 0
    char.improvement_rolls = 10
    with pytest.raises(improvement.ImprovementError, match="already has"):
        improvement.learn_tag(char, "Wealth")
    with pytest.raises(improvement.ImprovementError, match="unknown tag"):
        improvement.learn_tag(char, "Fame")
    assert char.improvement_rolls == 10


def test_learning_auspicious_raises_luck_max():
    char = espen()
    char.improvement_rolls = 5
    improvement.learn_tag(char, "Auspicious")
    assert char.luck_max == 3


def test_improvement_costs():
    assert (improvement.NEW_SKILL_COST, improvement.NEW_SKILL_VALUE) == (2, 10)
    assert (improvement.NEW_FOCUS_COST, improvement.NEW_TAG_COST) == (4, 5)


# -- Science //Medicine ------------------------------------------------------------

def hurt(current: int, maximum: int = 12) -> Character:
    char = espen()
    char.pools["BODY"] = Pool(maximum, current)
    return char


def test_medicine_restores_1d4_above_zero():
    gains = Counter()
    for seed in range(400):
        char = hurt(3)
        gain = medicine.treat(char, "BODY", new_rng(seed))
        assert 1 <= gain <= 4
        assert char.pools["BODY"].current == 3 + gain
        gains[gain] += 1
    assert set(gains) == {1, 2, 3, 4}


@pytest.mark.parametrize("current", [0, -1, -11])
def test_medicine_restores_1_at_or_below_zero(current):
    for seed in range(50):
        char = hurt(current)
        assert medicine.treat(char, "BODY", new_rng(seed)) == 1
        assert char.pools["BODY"].current == current + 1


def test_medicine_never_goes_above_the_maximum():
    for seed in range(100):
        char = hurt(11)
        gain = medicine.treat(char, "BODY", new_rng(seed))
        assert gain in (0, 1)
        assert char.pools["BODY"].current <= 12
    char = hurt(12)
    assert medicine.treat(char, "BODY", new_rng(1)) == 0


def test_medicine_one_try_per_pool_per_day():
    char = hurt(3)
    medicine.treat(char, "BODY", new_rng(1))
    with pytest.raises(medicine.MedicineError, match="already treated"):
        medicine.treat(char, "BODY", new_rng(2))
    medicine.treat(char, "INT", new_rng(3))  # another Pool is fine
    medicine.new_day(char)
    medicine.treat(char, "BODY", new_rng(4))


def test_a_failed_medicine_roll_uses_the_try():
    char = hurt(3)
    medicine.mark_tried(char, "BODY")
    assert char.pools["BODY"].current == 3
    with pytest.raises(medicine.MedicineError):
        medicine.treat(char, "BODY", new_rng(1))
    with pytest.raises(medicine.MedicineError):
        medicine.mark_tried(char, "BODY")


def test_medicine_tries_are_saved():
    char = hurt(3)
    medicine.treat(char, "BODY", new_rng(1))
    again = Character.from_dict(char.to_dict())
    with pytest.raises(medicine.MedicineError):
        medicine.treat(again, "BODY", new_rng(1))


def test_a_language_focus_the_native_tongue_already_beats_is_not_offered():
    """A new player's run: "Learn the Focus Knowledge //Language" was offered for 4 rolls to a PC whose //Language
    counts 40 % as a native tongue anyway; bought, it gave nothing, and the card then showed "//Language 25"."""
    import io

    from rich.console import Console

    from solo.rules.character import skill_target
    from solo.ui.sheet import character_card

    char = pregenerated("espen")
    char.focuses = {k: v for k, v in char.focuses.items() if k != "Knowledge//Language"}
    for knowledge, offered in ((5, False), (20, False), (21, True), (40, True)):
        char.skills["Knowledge"] = knowledge
        assert (("Knowledge", "Language") in improvement.learnable_focuses(char)) is offered, knowledge
        assert ("Knowledge", "Language") in improvement.learnable_focuses(char, worthless_language=True)
    assert ("Knowledge", "History") in improvement.learnable_focuses(char)
    assert not [f for f in improvement.learnable_focuses(char) if f[0] == "Willpower" or char.has_focus(*f)]
    # the end-of-scenario menu: a game of play's edition 5 is not offered it; one saved before was, and replays so
    from conftest import Answers

    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.epilogue import epilogue

    for edition, offered in ((4, True), (5, False)):
        player = Answers(willpower_acted="no", improve="keep")
        game = Game(load_adventure(find_adventure("tutorial")), seed=3, decider=player)
        game.edition = edition
        pc = pregenerated("espen")
        pc.focuses = {k: v for k, v in pc.focuses.items() if k != "Knowledge//Language"}
        pc.skills["Knowledge"], pc.improvement_rolls = 20, 3
        game.state.party = [pc]
        epilogue(game)
        (menu,) = [q for q in player.asked if q.kind == "improve"]
        assert ("focus:Knowledge//Language" in menu.keys()) is offered, edition
    char.skills["Knowledge"] = 5
    char.focuses["Knowledge//Language"] = 20  # bought all the same (or written in a file): the card shows the roll's
    out = io.StringIO()
    Console(file=out, width=120).print(character_card(char))
    assert "//Language 40" in out.getvalue() and skill_target(char, "Knowledge", "Language")[0] == 40

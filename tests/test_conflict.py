"""The Extended Conflict engine, rule by rule (docs/rules.md §5 and §6), with loaded dice."""

from __future__ import annotations

import random
import re

import pytest
from conftest import Answers, LoadedDice, make_char

from solo.events import EventLog
from solo.minds.bots import LensKeeper, RandomDecider
from solo.rules.conflict import FLOW, Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.dice import parse
from solo.rules.outcomes import OUTCOMES
from solo.rules.participants import from_character, obstacle, settle_sources

COMBAT = conflict_type("combat")
FOOT = conflict_type("foot_chase")
SOCIAL = conflict_type("social")
CAR = conflict_type("car_chase")


def duel(a_char, b_char, dice, *, ctype=COMBAT, a_decider=None, b_decider=None, **kw):
    for char in (a_char, b_char):  # 1d6 blows unless a test arms them otherwise (unarmed is 1d3)
        if ctype.physical and char.weapon is None and "Axe" not in char.items:
            char.weapon = "short_sword"
    log = EventLog()
    a = from_character(a_char, "a", ctype, decider=a_decider)
    b = from_character(b_char, "b", ctype, decider=b_decider)
    rng = LoadedDice(dice)
    conflict = Conflict(ctype, [a, b], rng, sink=log, **kw)
    return conflict, a, b, log, rng


def test_worked_example_of_the_rulebook():
    """docs/rules.md §6.2: Mike, Move //Athletics 85 %, Aggressive, rolls 68 and fails; the thug rolls 42
    and wins; 2 damage to Mike's BODY; Mike then picks Clever."""
    mike = make_char("Mike", Move=65, focuses={"Move//Athletics": 20},
                     pools={"BODY": 12, "INT": 10, "POW": 10, "CHA": 10})
    thug = make_char("Thug", level="common", Move=50, pools=10)
    mike_mind = Answers(lens=["aggressive", "clever"], luck_flip="no", luck_reduce="no")
    conflict, a, b, log, rng = duel(mike, thug, [68, 42, 2, 90, 90], ctype=FOOT, a_decider=mike_mind)
    for _ in range(5):  # declaring, rolling, resolving, damaging, checking
        conflict.step()
    rolls = {e["actor"]: e for e in log.of("roll")}
    assert rolls["Mike"]["target"] == 65 and rolls["Mike"]["roll"] == 68 and not rolls["Mike"]["success"]
    assert rolls["Thug"]["target"] == 50 and rolls["Thug"]["roll"] == 42 and rolls["Thug"]["success"]
    assert log.of("round_result")[0]["winner"] == "Thug"
    damage = log.of("damage")[0]
    assert (damage["target"], damage["amount"], damage["pool"]) == ("Mike", 2, "BODY")
    assert mike.pools["BODY"].current == 10
    # Luck could not help: flipping 68 gives 86, still a failure, so nobody asked.
    assert "luck_flip" not in mike_mind.kinds()
    conflict.step()  # round 2 declarations
    assert [e["lens"] for e in log.of("declare") if e["actor"] == "Mike"] == ["aggressive", "clever"]


def test_aggressive_minus_20_and_damage_twice_keep_higher():
    a = make_char("A", Combat=70)
    b = make_char("B", level="common", Combat=50)
    # rolls: A 30 (target 50), B 80 fails; damage 2 and 5 -> keeps 5; then stop by round limit
    conflict, pa, pb, log, _ = duel(a, b, [30, 80, 2, 5], a_decider=Answers(lens="aggressive"), round_limit=1)
    result = conflict.run()
    assert log.of("roll")[0]["target"] == 50
    dmg = log.of("damage")[0]
    assert (dmg["first"], dmg["second"], dmg["amount"]) == (2, 5, 5)
    assert b.pools["BODY"].current == 5
    assert result.outcome == "stalemate"


def test_cautious_plus_20_and_half_damage_rounded_up():
    a = make_char("A", Combat=40)
    b = make_char("B", level="common", Combat=50)
    # B acts first (equal Pools, higher skill): B 99 fails, A 55 succeeds against 60
    conflict, pa, pb, log, _ = duel(a, b, [99, 55, 5], a_decider=Answers(lens="cautious"), round_limit=1)
    conflict.run()
    roll = {e["actor"]: e for e in log.of("roll")}["A"]
    assert roll["target"] == 60 and roll["success"]
    assert log.of("damage")[0]["amount"] == 3  # 5 halved, rounded up
    assert b.pools["BODY"].current == 7


def test_damage_order_bonus_then_armour_then_cautious_then_luck():
    a = make_char("A", Combat=60, tags=["Gear"])
    a.gear_bonus = 2
    a.weapon = "long_sword"
    b = make_char("B", Combat=50)
    b.armour = "medium"  # 4 points
    # A rolls 10, B fails 99; 1d8 -> 7; 7 + 2 - 4 = 5, cautious -> 3; B spends Luck -> 1
    b_mind = Answers(lens="none", luck_reduce="yes", luck_flip="no")
    conflict, pa, pb, log, _ = duel(a, b, [10, 99, 7], a_decider=Answers(lens="cautious"), b_decider=b_mind,
                                    round_limit=1)
    conflict.run()
    dmg = log.of("damage")[0]
    assert (dmg["rolled"], dmg["bonus"], dmg["armour"], dmg["halved"], dmg["amount"]) == (7, 2, 4, True, 1)
    assert b.luck == 1 and b.pools["BODY"].current == 9


def test_armour_can_stop_all_damage_and_bullet_proof_counts_six_against_firearms():
    a = make_char("A", Combat=60)
    a.weapon = "small_firearm"
    b = make_char("B", level="common", Combat=50)
    b.armour = "bullet_proof"
    conflict, pa, pb, log, _ = duel(a, b, [10, 99, 6], a_decider=Answers(lens="none"), round_limit=1)
    conflict.run()
    dmg = log.of("damage")[0]
    assert dmg["armour"] == 6 and dmg["amount"] == 0
    assert b.pools["BODY"].current == 10


def test_armour_only_in_combat():
    a = make_char("A", Move=60)
    b = make_char("B", level="common", Move=50)
    b.armour = "heavy"
    conflict, pa, pb, log, _ = duel(a, b, [10, 99, 6], ctype=FOOT, a_decider=Answers(lens="none"), round_limit=1)
    conflict.run()
    assert log.of("damage")[0]["amount"] == 6


def test_shield_penalises_melee_opponents():
    a = make_char("A", Combat=60)
    b = make_char("B", level="common", Combat=50)
    b.shield = "small"
    conflict, pa, pb, log, _ = duel(a, b, [99, 99], a_decider=Answers(lens="none"), round_limit=1)
    conflict.run()
    target = {e["actor"]: e["target"] for e in log.of("roll")}
    assert target == {"A": 40, "B": 50}


def test_clever_deals_no_damage_then_offers_skill_or_damage():
    a = make_char("A", Combat=50)
    b = make_char("B", level="common", Combat=50, pools=10)
    mind = Answers(lens=["clever"], clever_follow_up=["skill"])
    # round 1: A 20 wins (clever: no damage); round 2: A target 70, rolls 65 wins, damage 4
    conflict, pa, pb, log, _ = duel(a, b, [20, 99, 65, 99, 4], a_decider=mind, round_limit=2)
    conflict.run()
    assert log.of("round_result")[0]["winner"] == "A"
    assert len(log.of("damage")) == 1 and log.of("damage")[0]["round"] == 2
    assert [e["target"] for e in log.of("roll") if e["actor"] == "A"] == [50, 70]
    assert mind.kinds() == ["lens", "clever_follow_up"]


def test_clever_follow_up_damage_twice():
    a = make_char("A", Combat=50)
    b = make_char("B", level="common", Combat=50, pools=10)
    mind = Answers(lens=["clever"], clever_follow_up=["damage"])
    conflict, pa, pb, log, _ = duel(a, b, [99, 99, 40, 99, 1, 6], a_decider=mind, round_limit=2)
    conflict.run()
    dmg = log.of("damage")[0]
    assert (dmg["first"], dmg["second"], dmg["amount"]) == (1, 6, 6)


def test_covert_rolls_cunning_hits_pow_and_penalises_opponent_next_round():
    a = make_char("A", Combat=30, Cunning=60, pools=11)
    b = make_char("B", level="skilled", Combat=50)
    mind = Answers(lens=["covert", "none"], damage_pool="POW")
    b_mind = Answers(lens="none")
    conflict, pa, pb, log, _ = duel(a, b, [20, 99, 3, 99, 99], a_decider=mind, b_decider=b_mind, round_limit=2)
    conflict.run()
    rolls = log.of("roll")
    assert rolls[0]["target"] == 60  # Cunning, not Combat
    assert b.pools["POW"].current == 7 and b.pools["BODY"].current == 10
    assert {e["actor"]: e["target"] for e in rolls if e["round"] == 2} == {"A": 30, "B": 30}


def test_covert_not_winning_costs_20_next_round():
    a = make_char("A", Combat=50, Cunning=60)
    b = make_char("B", level="common", Combat=50)
    mind = Answers(lens=["covert", "none"])
    conflict, pa, pb, log, _ = duel(a, b, [99, 99, 99, 99], a_decider=mind, round_limit=2)
    conflict.run()
    assert [e["target"] for e in log.of("roll") if e["actor"] == "A"] == [60, 30]


def test_flamboyant_rolls_declared_skill_and_may_hit_cha():
    a = make_char("A", Combat=30, Move=70, pools=11)
    b = make_char("B", level="common", Combat=50)
    mind = Answers(lens=["flamboyant"], flamboyant_skill="Move", damage_pool="CHA")
    conflict, pa, pb, log, _ = duel(a, b, [60, 99, 4], a_decider=mind, round_limit=1)
    conflict.run()
    assert log.of("roll")[0]["target"] == 70
    assert b.pools["CHA"].current == 6


def test_quick_leave_attempt_flees_after_the_round():
    a = make_char("A", Combat=50, Move=60)
    b = make_char("B", level="common", Combat=50)
    mind = Answers(lens="quick", quick_action="leave")
    # A rolls at 30: 99 fail; B 99 fail; leave: Move 60, roll 40 -> success
    conflict, pa, pb, log, _ = duel(a, b, [99, 99, 40], a_decider=mind)
    result = conflict.run()
    assert log.of("roll")[0]["target"] == 30
    assert log.of("leave_attempt")[0]["success"]
    assert result.outcome == "fled" and result.for_side("b") == "opponent_fled"


def test_quick_weapon_switch_takes_effect_this_round():
    a = make_char("A", Combat=50)
    a.items = ["Axe"]
    b = make_char("B", level="common", Combat=50)
    mind = Answers(lens="quick", quick_action="weapon:axe")
    conflict, pa, pb, log, _ = duel(a, b, [10, 99, 6], a_decider=mind, round_limit=1)
    conflict.run()
    assert log.of("damage")[0]["weapon"] == "Axe"
    assert a.weapon == "axe"


def test_common_npcs_are_never_asked_for_a_lens():
    a = make_char("A", Combat=50)
    b = make_char("B", level="common", Combat=50)
    b_mind = Answers(lens="none")
    conflict, pa, pb, log, _ = duel(a, b, [99, 99], a_decider=Answers(lens="none"), b_decider=b_mind, round_limit=1)
    conflict.run()
    question = b_mind.asked[0]
    assert [o.key for o in question.options] == ["none", "flee", "surrender"]


def test_ties_between_highest_successes_are_a_stalemate():
    a = make_char("A", Combat=50)
    b = make_char("B", level="common", Combat=50)
    conflict, pa, pb, log, _ = duel(a, b, [33, 33], a_decider=Answers(lens="none"), round_limit=1)
    assert conflict.run().outcome == "stalemate"
    result = log.of("round_result")[0]
    assert result["stalemate"] and result["tie"] and not log.of("damage")
    assert sorted(result["tied"]) == ["A", "B"] and not result["allies_tied"]  # across the sides, not allies


def test_two_allies_tied_with_the_best_roll_make_a_stalemate_and_the_round_says_who():
    """The ruling (docs/rules.md section 5.1): tied highest successes are a stalemate with more than two
    participants too, allies among them; the round's result names who tied and whether they are all of one side,
    which the narration and the round's line need (a match between the sides is not what happened)."""
    a1, a2 = make_char("A1", Combat=50), make_char("A2", Combat=50)
    b = make_char("B", level="common", Combat=50)
    log = EventLog()
    parts = [from_character(a1, "a", COMBAT, decider=Answers(lens="none")),
             from_character(a2, "a", COMBAT, decider=Answers(lens="none")), from_character(b, "b", COMBAT)]
    # equal Pools and skills, PCs first: A1 and A2 roll off for their order (60, 40); then A1, A2 and B roll
    conflict = Conflict(COMBAT, parts, LoadedDice([60, 40, 26, 26, 2]), sink=log, round_limit=1)
    assert conflict.run().outcome == "stalemate"
    result = log.of("round_result")[0]
    rolled = {e["actor"]: e["roll"] for e in log.of("roll")}
    assert rolled["B"] == 2 and rolled["A1"] == rolled["A2"] == 26
    assert result["stalemate"] and result["tie"] and result["allies_tied"]
    assert sorted(result["tied"]) == ["A1", "A2"] and not log.of("damage")


def test_highest_success_wins_not_lowest():
    a = make_char("A", Combat=50)
    b = make_char("B", level="common", Combat=50)
    conflict, pa, pb, log, _ = duel(a, b, [20, 45, 3], a_decider=Answers(lens="none", luck_reduce="no"),
                                    round_limit=1)
    conflict.run()
    result = log.of("round_result")[0]
    assert result["winner"] == "B" and result["tied"] == [] and not result["allies_tied"]


def test_hundred_always_fails_even_above_100_percent():
    a = make_char("A", Combat=130)
    b = make_char("B", level="common", Combat=50)
    conflict, pa, pb, log, _ = duel(a, b, [100, 99], a_decider=Answers(lens="none"), round_limit=1)
    conflict.run()
    roll = log.of("roll")[0]
    assert not roll["success"] and roll["exceptional"]


def test_pushing_goes_negative_with_minus_20_and_comae_at_full_negative():
    a = make_char("A", Combat=60, pools=4)
    b = make_char("B", level="common", Combat=50, pools=10)
    mind = Answers(lens="none", push="push", luck_flip="no", luck_reduce="no")
    a.luck = 0
    # B acts first (bigger Pool). r1: B wins, 6 damage -> A at -2, pushes.
    # r2: A's target is 40; B wins, 2 -> -4 = comae
    conflict, pa, pb, log, _ = duel(a, b, [10, 99, 6, 10, 99, 2], a_decider=mind)
    result = conflict.run()
    assert log.of("push")[0]["value"] == -2
    assert [e["target"] for e in log.of("roll") if e["actor"] == "A"] == [60, 40]
    assert result.outcome == "comae" and result.statuses["A"] == "comae"
    assert a.pools["BODY"].current == -4


def test_common_and_skilled_npcs_cannot_push_masters_can():
    for level, expect in (("common", "out"), ("skilled", "out"), ("master", "in")):
        b = make_char("B", level=level, Combat=50, pools=3)
        a = make_char("A", Combat=60)
        mind = Answers(lens="none", push="push")
        conflict, pa, pb, log, _ = duel(a, b, [10, 99, 5], a_decider=Answers(lens="none"), b_decider=mind,
                                        round_limit=1)
        conflict.run()
        assert pb.status == expect, level
        assert ("push" in mind.kinds()) == (level == "master")


def test_luck_refreshed_brings_a_pool_back_to_one():
    a = make_char("A", Combat=60, pools=3)
    b = make_char("B", level="common", Combat=50)
    mind = Answers(lens="none", push="refresh", luck_reduce="no", luck_flip="no")
    conflict, pa, pb, log, _ = duel(a, b, [10, 99, 5], a_decider=mind, round_limit=1)
    conflict.run()
    assert a.pools["BODY"].current == 1 and a.luck == 1 and pa.status == "in"


def test_luck_flip_offered_only_when_it_turns_the_round():
    a = make_char("A", Combat=50)
    b = make_char("B", level="common", Combat=50)
    # A rolls 73 (flip 37 beats B's 20): offered and taken
    mind = Answers(lens="none", luck_flip="yes")
    conflict, pa, pb, log, _ = duel(a, b, [73, 20, 4], a_decider=mind, round_limit=1)
    conflict.run()
    assert log.of("luck")[0]["after"] == 37 and log.of("round_result")[0]["winner"] == "A"
    assert a.luck == 1
    # A rolls 91 (flip 19 loses to B's 20): not offered
    a2 = make_char("A", Combat=50)
    mind2 = Answers(lens="none", luck_reduce="no")
    conflict, pa, pb, log, _ = duel(a2, make_char("B", level="common", Combat=50), [91, 20, 4], a_decider=mind2,
                                    round_limit=1)
    conflict.run()
    assert "luck_flip" not in mind2.kinds()


def test_initiative_by_pool_then_skill_then_pc_then_rolloff():
    a = make_char("A", Combat=50, pools=10)
    b = make_char("B", level="common", Combat=60, pools=10)
    conflict, pa, pb, log, _ = duel(a, b, [99, 99], a_decider=Answers(lens="none"), round_limit=1)
    conflict.run()
    assert log.of("round_start")[0]["order"] == ["B", "A"]  # equal Pools: higher skill first
    b2 = make_char("B", level="common", Combat=50, pools=10)
    conflict, pa, pb, log, _ = duel(make_char("A", Combat=50), b2, [99, 99], a_decider=Answers(lens="none"),
                                    round_limit=1)
    conflict.run()
    assert log.of("round_start")[0]["order"] == ["A", "B"]  # then the PC first
    n1, n2 = make_char("N1", level="common", Combat=50), make_char("N2", level="common", Combat=50)
    conflict, pa, pb, log, _ = duel(n1, n2, [12, 80, 99, 99], round_limit=1)
    conflict.run()
    assert log.of("initiative_rolloff")[0]["rolls"] == {"N1": 12, "N2": 80}
    assert log.of("round_start")[0]["order"] == ["N2", "N1"]


def test_exits_take_effect_at_declaration_and_chases_have_no_flight():
    a = make_char("A", Combat=50)
    b = make_char("B", level="common", Combat=50)
    conflict, pa, pb, log, _ = duel(a, b, [], a_decider=Answers(lens="surrender"))
    assert conflict.run().outcome == "surrendered"
    assert not log.of("roll")
    mind = Answers(lens="none")
    conflict, pa, pb, log, _ = duel(make_char("A", Move=50), make_char("B", level="common", Move=50), [99, 99],
                                    ctype=FOOT, a_decider=mind, round_limit=1)
    conflict.run()
    assert "flee" not in mind.asked[0].keys()


def test_opponent_surrenders_and_round_limit_stalemate():
    a = make_char("A", Combat=50)
    b = make_char("B", level="skilled", Combat=50)
    b.pronoun = "she"  # the question names her as the story does ('Let her go', not 'Let them go')
    pc = Answers(lens="none", exit_offer="let_go")
    conflict, pa, pb, log, _ = duel(a, b, [], a_decider=pc, b_decider=Answers(lens="flee"))
    # B has the same Pool and skill; A (the PC) declares first, B flees at its declaration, A lets it go
    assert conflict.run().outcome == "opponent_fled"
    offer = next(q for q in pc.asked if q.kind == "exit_offer")
    assert offer.keys() == ["let_go", "chase"] and offer.default == "let_go" and offer.context["npc"] == "B"
    assert offer.options[0].label == "Let her go" and "let her go, or give chase?" in offer.prompt
    assert pb.exit_answer == "let_go" and log.of("exit_answer")[0]["answer"] == "let_go"


def test_a_surrender_the_pc_accepts_ends_it():
    pc = Answers(lens="none", exit_offer="accept")
    conflict, pa, pb, log, _ = duel(make_char("A", Combat=50), make_char("B", level="skilled", Combat=50), [],
                                    a_decider=pc, b_decider=Answers(lens="surrender"))
    assert conflict.run().outcome == "opponent_surrendered"
    assert [o.key for o in next(q for q in pc.asked if q.kind == "exit_offer").options] == ["accept", "refuse"]


def test_an_exit_is_said_before_the_pc_is_asked_about_it():
    """The plea of an NPC that yields was shown after the PC had accepted it: the engine said nothing of the
    exit until it stood. ``exit_offer`` (who, how, the PC asked) now comes before the question, then
    ``exit_answer`` and, if it stands, ``exit``; a PC's own exit is said too, with nobody asked."""
    log_at_question = []

    class Recording(Answers):
        def decide(self, question):
            if question.kind == "exit_offer":
                log_at_question.append([e.kind for e in log.events])
            return super().decide(question)

    pc = Recording(lens="none", exit_offer="accept")
    conflict, pa, pb, log, _ = duel(make_char("A", Combat=50), make_char("B", level="skilled", Combat=50), [],
                                    a_decider=pc, b_decider=Answers(lens="surrender"))
    assert conflict.run().outcome == "opponent_surrendered"
    assert log_at_question[0][-1] == "exit_offer"
    offer = log.of("exit_offer")[0]
    assert (offer["actor"], offer["exit"], offer["asked"]) == ("B", "surrender", "A")
    kinds = [e.kind for e in log.events if e.kind.startswith("exit")]
    assert kinds == ["exit_offer", "exit_answer", "exit"]
    conflict, pa, pb, log, _ = duel(make_char("A", Combat=50), make_char("B", level="skilled", Combat=50), [],
                                    a_decider=Answers(lens="surrender"), b_decider=Answers(lens="none"))
    assert conflict.run().outcome == "surrendered"
    assert [(e.kind, e.get("asked")) for e in log.events if e.kind.startswith("exit")] == [("exit_offer", None),
                                                                                           ("exit", None)]


def test_a_refused_surrender_fights_on_with_no_way_out():
    """Issue 31, point 3: the NPC's offer to yield is the player's to refuse; it then declares a Lens instead,
    and is offered no exit again in this conflict."""
    pc = Answers(lens="none", exit_offer="refuse", luck_flip="no", luck_reduce="no")
    npc = Answers(lens=["surrender", "none", "none"])
    conflict, pa, pb, log, _ = duel(make_char("A", Combat=50), make_char("B", level="skilled", Combat=50),
                                    [99, 99, 99, 99], a_decider=pc, b_decider=npc, round_limit=2)
    assert conflict.run().outcome == "stalemate"
    lens_menus = [q.keys() for q in npc.asked]
    assert "surrender" in lens_menus[0] and all("surrender" not in k and "flee" not in k for k in lens_menus[1:])
    assert len(lens_menus) == 3 and pb.exit_answer == "refuse" and pb.status == "in"
    assert not log.of("exit") and [e["answer"] for e in log.of("exit_answer")] == ["refuse"]


def test_a_quarry_that_offers_to_give_up_is_asked_about_as_a_chase_not_a_fight():
    """A new player's chase through the fish market: "Aron Lie stops and gives up.", then "Aron Lie wants to give up:
    accept, or fight on?", and refused, Aron ran on. The quarry's clue tells an offer, and the question and the
    refusal speak of the chase."""
    from solo.ui import describe as d

    pc = Answers(lens="none", exit_offer="refuse", luck_flip="no", luck_reduce="no")
    npc = Answers(lens=["surrender", "none", "none"])
    conflict, _, pb, log, _ = duel(make_char("A", Move=50), make_char("B", level="skilled", Move=50),
                                   [99, 99, 99, 99], ctype=conflict_type("foot_chase"), a_decider=pc,
                                   b_decider=npc, round_limit=2)
    conflict.run()
    question = next(q for q in pc.asked if q.kind == "exit_offer")
    assert question.prompt.endswith("accept, or keep up the chase?"), question.prompt
    assert [(o.label, o.detail) for o in question.options][1] == ("Refuse and keep up the chase",
                                                                  "B runs on, with no way out")
    (answer,) = log.of("exit_answer")
    assert d.exit_answer_line(answer.data, {}) == "A refuses: B must run on."
    # a fight keeps its words
    pc = Answers(lens="none", exit_offer="refuse", luck_flip="no", luck_reduce="no")
    conflict, _, _, log, _ = duel(make_char("A", Combat=50), make_char("B", level="skilled", Combat=50),
                                  [99, 99, 99, 99], a_decider=pc, b_decider=Answers(lens=["surrender", "none", "none"]),
                                  round_limit=2)
    conflict.run()
    assert next(q for q in pc.asked if q.kind == "exit_offer").prompt.endswith("accept, or fight on?")
    assert d.exit_answer_line(log.of("exit_answer")[0].data, {}) == "A refuses: B must fight on."
    # one hiding from the PCs offers to come out, and the search goes on (the review)
    pc = Answers(lens="none", exit_offer="refuse", luck_flip="no", luck_reduce="no")
    conflict, _, _, log, _ = duel(make_char("A", Awareness=50), make_char("B", level="skilled", Cunning=50),
                                  [99, 99, 99, 99], ctype=conflict_type("sneaking"), a_decider=pc,
                                  b_decider=Answers(lens=["surrender", "none", "none"]), round_limit=2,
                                  fiction={"pursuer": "b"})
    conflict.run()
    question = next(q for q in pc.asked if q.kind == "exit_offer")
    assert question.prompt.endswith("accept, or keep searching?"), question.prompt
    assert [o.label for o in question.options][1] == "Refuse and keep searching"
    assert d.exit_answer_line(log.of("exit_answer")[0].data, {}) == "A refuses: the search for B goes on."


@pytest.mark.parametrize(("getaway", "outcome"), [(3, "opponent_fled"), (50, "stalemate")])
def test_a_chased_flight_needs_a_move_roll(getaway, outcome):
    pc = Answers(lens="none", exit_offer="chase", luck_flip="no", luck_reduce="no")
    npc = Answers(lens=["flee", "none"])
    conflict, pa, pb, log, _ = duel(make_char("A", Combat=50), make_char("B", level="skilled", Combat=50, Move=5),
                                    [getaway, 99, 99], a_decider=pc, b_decider=npc, round_limit=1)
    assert conflict.run().outcome == outcome
    attempt = log.of("leave_attempt")[0]
    assert (attempt["actor"], attempt["roll"], attempt["target"]) == ("B", getaway, 5)
    assert pb.exit_answer == "chase"


@pytest.mark.parametrize(("ctype_key", "fiction", "hunts"), [
    ("sneaking", None, True), ("tracking", {"pursuer": "b"}, True), ("tracking", None, False)])
def test_a_hunter_that_leaves_is_gone_at_once_and_nobody_is_asked_to_chase_it(ctype_key, fiction, hunts):
    """A fiction audit: in a sneak the watcher left his post, and the hiders were asked "let him go, or give chase?",
    chased him and caught him. An NPC that gives chase or keeps watch is gone when it leaves (docs/rulings.md, "An
    NPC's exit is the PCs' to take"); the quarry that runs from the PCs is still theirs to chase."""
    ctype = conflict_type(ctype_key)
    pc = Answers(lens="none", exit_offer="chase", luck_flip="no", luck_reduce="no")
    b = make_char("B", level="skilled", Move=50, Awareness=50, Cunning=50)
    conflict, _, pb, log, _ = duel(make_char("A", Move=50, Awareness=50, Cunning=50), b, [3, 99, 99, 99],
                                   ctype=ctype, a_decider=pc, b_decider=Answers(lens=["flee", "none"]),
                                   round_limit=1, fiction=fiction)
    result = conflict.run()
    asked = [q for q in pc.asked if q.kind == "exit_offer"]
    if hunts:
        assert not asked and not log.of("exit_answer") and not log.of("leave_attempt")
        assert result.outcome == "opponent_fled"
    else:
        assert asked and log.of("exit_answer")[0]["answer"] == "chase"


def test_one_who_walks_out_of_an_argument_is_called_back_not_chased():
    """Nobody runs after one who walks out of an argument: the question, its option and the log call her
    back (docs/rulings.md, "An NPC's exit is the PCs' to take"); the roll is the same Move roll."""
    from solo.ui.describe import exit_answer_line, leave_attempt_line

    b = make_char("B", level="skilled", Social=50, Move=5)
    b.pronoun = "she"
    pc = Answers(lens="none", exit_offer="chase", luck_flip="no", luck_reduce="no")
    conflict, pa, pb, log, _ = duel(make_char("A", Social=50), b, [3, 99, 99], ctype=SOCIAL, a_decider=pc,
                                    b_decider=Answers(lens=["flee", "none"]), round_limit=1)
    assert conflict.run().outcome == "opponent_fled"
    offer = next(q for q in pc.asked if q.kind == "exit_offer")
    assert offer.keys() == ["let_go", "chase"] and "let her go, or call her back?" in offer.prompt
    assert [o.label for o in offer.options] == ["Let her go", "Call her back"]
    assert "chase" not in offer.prompt + " ".join(o.label + o.detail for o in offer.options)
    assert "Move roll of 5 %" in offer.options[1].detail
    assert log.of("leave_attempt")[0]["target"] == 5
    assert exit_answer_line(log.of("exit_answer")[0], {}) == "A calls B back."
    # her Move roll, on the screen and in the journal alike (one function): she walks out, or is held back
    walked = leave_attempt_line(log.of("leave_attempt")[0], {"B": "Signe"})
    assert walked.startswith("Signe tries to walk out: ") and walked.endswith(": out.")
    held = leave_attempt_line({**log.of("leave_attempt")[0].data, "success": False}, {})
    assert held.startswith("B tries to walk out: ") and held.endswith(": held back.")
    # a fight still gives chase
    conflict, pa, pb, log, _ = duel(make_char("A", Combat=50), make_char("B", level="skilled", Combat=50, Move=5),
                                    [3, 99, 99], a_decider=Answers(lens="none", exit_offer="chase"),
                                    b_decider=Answers(lens=["flee", "none"]), round_limit=1)
    conflict.run()
    assert exit_answer_line(log.of("exit_answer")[0], {}) == "A gives chase."
    assert leave_attempt_line(log.of("leave_attempt")[0], {}).startswith("B tries to get away: ")
    assert leave_attempt_line({**log.of("leave_attempt")[0].data, "success": False}, {}).endswith(": caught.")


def test_static_obstacle_deals_1d6_and_is_beaten_at_zero():
    thief = make_char("Thief", Cunning=60, focuses={"Cunning//Lockpicking": 20})
    lock = obstacle("Old lock", "easy")
    assert (lock.challenge, lock.pool.current) == (30, 5)
    lockpicking = conflict_type("lockpicking")
    a = from_character(thief, "a", lockpicking, decider=Answers(lens="none", luck_reduce="no", luck_flip="no"))
    log = EventLog()
    conflict = Conflict(lockpicking, [a, lock], LoadedDice([99, 20, 4, 50, 99, 5]), sink=log)
    result = conflict.run()
    assert log.of("damage")[0] == log.of("damage")[0] and log.of("damage")[0]["target"] == "Thief"
    assert thief.pools["INT"].current == 6
    assert result.outcome == "won" and lock.status == "out"


def test_combined_pool_average_rounded_up_and_each_source_loses_what_it_lost():
    driver = make_char("D", Tech=60, pools={"BODY": 11, "INT": 10, "POW": 8, "CHA": 10})
    a = from_character(driver, "a", CAR)
    assert (a.pool.current, a.pool.maximum) == (10, 10)  # ceil(19/2)
    taken = settle_sources(driver, ("BODY", "POW"), 5)  # the combined Pool lost 5: so does each source
    assert taken == {"BODY": 5, "POW": 5}
    assert (driver.pools["BODY"].current, driver.pools["POW"].current) == (6, 3)
    # a source that cannot take it all stops at 0 and the other takes the rest
    driver = make_char("D", Tech=60, pools={"BODY": 12, "INT": 10, "POW": 8, "CHA": 10})
    driver.pools["POW"].current = 2  # combined: ceil(14/2) = 7
    assert settle_sources(driver, ("BODY", "POW"), 4) == {"BODY": 4, "POW": 2}
    assert (driver.pools["BODY"].current, driver.pools["POW"].current) == (8, 0)


def test_combined_pool_settles_after_the_conflict():
    driver = make_char("D", Tech=60, pools={"BODY": 12, "INT": 10, "POW": 8, "CHA": 10})
    other = make_char("O", level="common", Tech=50, pools=10)
    conflict, pa, pb, log, _ = duel(driver, other, [99, 10, 3], ctype=CAR,
                                    a_decider=Answers(lens="none", luck_reduce="no"), round_limit=1)
    conflict.run()
    assert pa.pool.current == 7
    assert (driver.pools["BODY"].current, driver.pools["POW"].current) == (9, 5)  # average 7, as the Pool


def test_several_participants_winner_chooses_target():
    hero = make_char("Hero", Combat=80)
    hero.weapon = "axe"
    g1 = make_char("G1", level="common", Combat=30)
    g2 = make_char("G2", level="common", Combat=30)
    mind = Answers(lens="none", target="G2")
    ps = [from_character(hero, "a", COMBAT, decider=mind), from_character(g1, "b", COMBAT),
          from_character(g2, "b", COMBAT)]
    log = EventLog()
    # initiative: Hero first (higher skill at equal pools), G1/G2 roll off 50/40
    conflict = Conflict(COMBAT, ps, LoadedDice([50, 40, 10, 99, 99, 6]), sink=log, round_limit=1)
    conflict.run()
    assert log.of("damage")[0]["target"] == "G2"
    assert "target" in mind.kinds()


def test_side_outcomes_with_several_participants():
    hero = make_char("Hero", Combat=80, pools=10)
    hero.weapon = "axe"
    ps = [from_character(hero, "a", COMBAT, decider=Answers(lens="none", target="G1", exit_offer="let_go")),
          from_character(make_char("G1", level="common", Combat=30, pools=3), "b", COMBAT),
          from_character(make_char("G2", level="common", Combat=30, pools=3), "b", COMBAT,
                         decider=Answers(lens="flee"))]
    log = EventLog()
    conflict = Conflict(COMBAT, ps, LoadedDice([50, 40, 10, 99, 6]), sink=log)
    result = conflict.run()
    # Hero declares first (Pool 10); G1 and G2 roll off (50, 40); G2 flees at its declaration;
    # Hero beats G1.
    assert result.statuses == {"Hero": "in", "G1": "out", "G2": "fled"}
    assert result.outcome == "won"


def _stepping_duel(seed):
    a = make_char("A", Combat=55, Cunning=45, Move=40, pools=9, luck=2)
    a.items = ["Axe"]
    b = make_char("B", level="master", Combat=60, pools=9)
    log = EventLog()
    conflict = Conflict(COMBAT, [from_character(a, "a", COMBAT, decider=RandomDecider(random.Random(seed))),
                                 from_character(b, "b", COMBAT, decider=RandomDecider(random.Random(seed + 1)))],
                        random.Random(seed), sink=log, round_limit=12)
    return conflict, log


def test_step_visits_the_documented_phases_in_order():
    """One step is one phase: a round declares, rolls, resolves, damages only when a blow lands, checks."""
    round_shape = re.compile(r"(declaring rolling resolving (damaging )?checking )*(declaring )?ended")
    for seed in range(20):
        conflict, log = _stepping_duel(seed)
        phases = []
        while not conflict.finished:
            before = conflict.phase
            conflict.step()
            assert conflict.phase in [row[0] for row in FLOW[before]]
            phases.append(conflict.phase)
        assert round_shape.fullmatch(" ".join(phases)), phases
        blows = sum(1 for e in log.events if e.kind == "round_result" and e["winner"] is not None
                    and e["lens"] != "clever")
        assert phases.count("damaging") == blows
        assert phases.count("declaring") == conflict.result.rounds
        conflict.step()  # an ended conflict stays ended
        assert conflict.phase == "ended"


def test_stepping_ends_where_run_ends():
    for seed in range(20):
        stepped, step_log = _stepping_duel(seed)
        while not stepped.finished:
            stepped.step()
        ran, run_log = _stepping_duel(seed)
        result = ran.run()
        assert stepped.result == result
        assert [e.to_dict() for e in step_log.events] == [e.to_dict() for e in run_log.events], seed


def test_every_event_carries_its_numbers():
    a = make_char("A", Combat=60)
    b = make_char("B", level="common", Combat=50)
    conflict, pa, pb, log, _ = duel(a, b, [10, 99, 4, 2], a_decider=Answers(lens="aggressive"), round_limit=1)
    conflict.run()
    kinds = [e.kind for e in log.events]
    assert kinds[:2] == ["conflict_start", "round_start"] and kinds[-1] == "conflict_end"
    assert {"declare", "roll", "round_result", "damage"} <= set(kinds)
    dmg = log.of("damage")[0]
    for key in ("actor", "target", "amount", "before", "after", "maximum", "pool", "lens"):
        assert key in dmg.data


def test_same_seed_same_conflict():
    def play(seed):
        log = EventLog()
        a = from_character(make_char("A", Combat=50, Cunning=40), "a", COMBAT,
                           decider=RandomDecider(random.Random(seed)))
        b = from_character(make_char("B", level="skilled", Combat=50), "b", COMBAT,
                           decider=RandomDecider(random.Random(seed)))
        Conflict(COMBAT, [a, b], random.Random(seed), sink=log).run()
        return [e.to_dict() for e in log.events]

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_bad_conflicts_are_refused():
    a = from_character(make_char("A"), "a", COMBAT)
    with pytest.raises(ValueError):
        Conflict(COMBAT, [a], random.Random(1))
    b = from_character(make_char("A"), "b", COMBAT)
    with pytest.raises(ValueError):
        Conflict(COMBAT, [a, b], random.Random(1))
    with pytest.raises(ValueError):
        Conflict(COMBAT, [a, from_character(make_char("B"), "b", COMBAT)], random.Random(1), round_limit=0)


def test_random_play_always_ends_with_a_known_outcome():
    rng = random.Random(9)
    for seed in range(200):
        a = make_char("A", Combat=rng.randint(20, 90), Cunning=40, Move=50, pools=rng.randint(3, 14))
        b = make_char("B", level=rng.choice(["common", "skilled", "master"]), Combat=rng.randint(20, 90),
                      pools=rng.randint(3, 14))
        ct = rng.choice([COMBAT, FOOT, SOCIAL, CAR])
        ps = [from_character(a, "a", ct, decider=RandomDecider(random.Random(seed))),
              from_character(b, "b", ct, decider=RandomDecider(random.Random(-seed)))]
        result = Conflict(ct, ps, random.Random(seed), round_limit=30).run()
        assert result.outcome in OUTCOMES
        assert result.for_side("b") in OUTCOMES


def test_empty_hands_deal_1d3_in_combat_and_1d6_elsewhere():
    fighter = from_character(make_char("A", Combat=60), "a", COMBAT)
    assert str(fighter.damage_dice(True)) == "1d3"
    runner = from_character(make_char("A", Move=60), "a", FOOT)
    assert str(runner.damage_dice(False)) == "1d6"


def test_damage_override_dice():
    a = from_character(make_char("A", Combat=60), "a", COMBAT)
    a.damage = parse("2d4")
    assert a.damage_dice(True) == parse("2d4")


def test_deciders_see_a_read_only_view_of_the_conflict():
    seen = []

    class Peek:
        def decide(self, question):
            seen.append(question.context["conflict"])
            return question.options[0].key

    a = make_char("A", Combat=60, Cunning=40)
    a.items = ["Axe"]
    conflict, pa, pb, log, _ = duel(a, make_char("B", level="common", Combat=50), [10, 99, 3],
                                    a_decider=Peek(), round_limit=1)
    conflict.run()
    view = seen[0]
    assert all(v is view for v in seen) and view is conflict.view  # one view per conflict
    assert (view.ctype, view.round, view.round_limit) == (COMBAT, 1, 1)
    assert view.participants == (pa, pb) and view.by_id["B"] is pb and view.opponents(pa) == [pb]
    assert view.declared("A").lens == "none" and view.declared("nobody") is None
    assert [o.key for o in view.quick_options(pa)] == [o.key for o in conflict.quick_options(pa)]
    with pytest.raises(TypeError):
        view.by_id["C"] = pb
    with pytest.raises(AttributeError):
        view.round = 5
    assert not hasattr(view, "decl") and not hasattr(view, "step")


def test_one_walks_away_from_a_lock_and_flees_from_a_person():
    """A static obstacle has nobody to flee from: its exit reads "Walk away" (the same exit, the adventure's
    ``fled`` outcome: "you step smartly away from the lock"), and from an argument; a fight keeps "Flee"."""
    def labels(ctype, other):
        thief = make_char("Thief", Cunning=60, Combat=50)
        asked = Answers(lens="flee", luck_reduce="no", luck_flip="no")
        a = from_character(thief, "a", ctype, decider=asked)
        Conflict(ctype, [a, other], LoadedDice([99, 20, 4] * 4), sink=EventLog()).run()
        return [o.label for o in asked.asked[0].options]

    lock = labels(conflict_type("lockpicking"), obstacle("Old lock", "easy"))
    assert "Walk away" in lock and "Flee" not in lock and "Give up" in lock
    assert "Flee" in labels(COMBAT, from_character(make_char("Brakk", Combat=40), "b", COMBAT))
    # nor does anyone flee an argument: one walks out of it, as the NPCs do (the tutorial's menu read "Flee" under
    # "64 % to win if she never gives up or walks away")
    social = conflict_type("social")
    argued = labels(social, from_character(make_char("Brakk", Social=40), "b", social))
    assert "Walk away" in argued and "Flee" not in argued
    # and the screen and the journal say so of the one who went: "walks away", not "flees"
    from solo.ui import describe as d

    log = EventLog()
    talker = from_character(make_char("Thief", Social=60), "a", social, decider=Answers(lens="flee"))
    Conflict(social, [talker, from_character(make_char("Brakk", Social=40), "b", social)], LoadedDice([99] * 8),
             sink=log).run()
    (went,) = log.of("exit")
    assert d.exit_words(went.data, static=False) == "walks away"
    assert d.exit_words({"how": "fled"}, static=False) == "flees"
    (ended,) = log.of("conflict_end")  # and the end of it: "the other side fled" followed "Signe walks out"
    assert d.conflict_outcome(ended["outcome"], bool(ended.get("social"))) == "The conflict is over: you walked away."
    assert d.ended_words(ended.data) == "walked away"
    assert d.conflict_outcome("opponent_fled") == "The conflict is over: the other side fled."


def test_a_person_standing_as_an_obstacle_rolls_a_skill_and_a_thing_a_challenge():
    """Before: "Halvard Brekke: 12 against 70 = Challenge 70", the label of a lock, for a man; then "= Skill 70",
    which names no skill (a new player read it as a debug label): the man rolls the argument's skill, Social."""
    from solo.rules.fiction import Fiction
    from solo.ui.describe import conflict_roll

    man = obstacle("Halvard Brekke", challenge=70, pool=12, fiction=Fiction(body="flesh", pronoun="he"))
    lock = obstacle("the old lock", "easy", fiction=Fiction(body="object", pronoun="it"))
    social = conflict_type("social")
    assert man.skill_called(social) == "Social"
    assert lock.skill_called(social) == obstacle("the storm", "hard").skill_called(social) == "Challenge"
    pc = from_character(make_char("Espen", Social=50), "a", social,
                        decider=Answers(lens="none", luck_flip="no", luck_reduce="no", push="out"))
    log = EventLog()
    Conflict(social, [pc, man], random.Random(3), sink=log, round_limit=1).run()
    said = [conflict_roll(e, {}) for e in log.of("roll")]
    assert any(line.startswith("Halvard Brekke: ") and line.endswith(("= Social 70: success", "= Social 70: failure",
                                                                       "= Social 70: exceptional success",
                                                                       "= Social 70: exceptional failure"))
               for line in said), said


def test_quick_offers_no_get_away_roll_from_a_lock_but_does_from_a_person():
    """Before: Quick at a lock offered 'Try to get away (a Move roll)', and a failed roll read 'cannot leave the old
    lock alone': a lock catches nobody. Against obstacles alone there is no get-away roll (the exit options walk
    away); against a person there is."""
    picking = conflict_type("lockpicking")
    pc = make_char("A", Tech=50, Move=40)
    at_lock = Conflict(picking, [from_character(pc, "a", picking), obstacle("Old lock", "hard")], random.Random(1))
    keys = [o.key for o in at_lock.quick_options(at_lock.participants[0])]
    assert "leave" not in keys and "ready" in keys
    combat = conflict_type("combat")
    fight = Conflict(combat, [from_character(make_char("A", Combat=50), "a", combat),
                              from_character(make_char("B", level="common", Combat=50), "b", combat)],
                     random.Random(1))
    assert "leave" in [o.key for o in fight.quick_options(fight.participants[0])]


def test_quick_walks_out_of_an_argument_and_a_flip_says_so():
    """A review: Quick's menu in an argument offered 'Try to get away (a Move roll)', and the Luck flip after it
    asked '… and get away?', where the roll's line reads 'tries to walk out' (docs/rulings.md)."""
    for key, words in (("social", "walk out"), ("combat", "get away")):
        ctype = conflict_type(key)
        pc = Answers(lens="quick", quick_action="leave", luck_flip="no", luck_reduce="no")
        a = from_character(make_char("A", Combat=50, Social=50, Move=40), "a", ctype, decider=pc)
        b = from_character(make_char("B", level="common", Combat=50, Social=50), "b", ctype)
        conflict = Conflict(ctype, [a, b], LoadedDice([99, 99, 73]), round_limit=1)
        assert [o.label for o in conflict.quick_options(a) if o.key == "leave"] == [f"Try to {words} (a Move roll)"]
        conflict.run()
        flip = pc.asked[-1]
        assert flip.kind == "luck_flip" and f"flip 73 into 37 and {words}? " in flip.prompt, flip.prompt


def test_whom_the_winner_goes_after_is_asked_in_the_conflicts_words():
    """A new player's run at Kaldskard's outlaw fire (an argument): "Bo Lind — Whom do you strike?"."""
    asked = {}
    for key in ("combat", "social", "foot_chase"):
        ctype = conflict_type(key)

        class Winner:
            def decide(self, q, key=key):
                if q.kind == "target":
                    asked[key] = q.prompt
                return q.default if q.default in q.keys() else q.keys()[0]

        a = from_character(make_char("Ada", Combat=90, Social=90, Move=90, Awareness=90), "a", ctype,
                           decider=Winner())
        foes = [from_character(make_char(n, Combat=5, Social=5, Move=5, Awareness=5), "b", ctype) for n in ("Bo", "Cy")]
        Conflict(ctype, [a, *foes], random.Random(2), round_limit=6).run()
    assert asked == {"combat": "Whom do you strike?", "social": "Whom do you press?",
                     "foot_chase": "Whom do you go after?"}


def test_the_end_of_a_conflict_is_said_to_the_players_for_every_outcome():
    """'The conflict is over: won.' and '… the opponent gave up.' read like a log (a new player's run): every outcome
    is said to the party whose outcome it is ('you won', 'the other side gave up'), in a sentence."""
    from solo.rules.outcomes import OUTCOMES
    from solo.ui.describe import OUTCOME_WORDS, conflict_outcome

    said = {outcome: conflict_outcome(outcome) for outcome in OUTCOMES}
    for outcome, line in said.items():
        told = line.removeprefix("The conflict is over: ").removesuffix(".")
        assert told != OUTCOME_WORDS[outcome] and told.split()[0] in ("you", "the", "a"), line
    assert len(set(said.values())) == len(OUTCOMES)
    assert said["won"] == "The conflict is over: you won."


def test_a_name_ending_in_s_has_one_possessive_on_the_screen():
    """A group's run: "Sig Aas' exceptional 11 does not beat a higher roll" and "Sig Aas's Flamboyant blow leaves a
    mark" on one screen. The round's line writes it as the narration does ("{actor}'s")."""
    from solo.narration import load_templates
    from solo.narration.text import fill
    from solo.ui.describe import possessive

    narrated = next(t for lines in load_templates().lines.values() for t in lines if "{actor}'s" in t.text)
    told = fill(narrated.pieces, {s: "x" for s in narrated.slots} | {"actor": "Sig Aas"}, {})
    assert "Sig Aas's" in told and possessive("Sig Aas") == "Sig Aas's" and possessive("Knut") == "Knut's"


def test_an_obstacle_named_in_the_plural_takes_plural_verbs_in_the_rules_lines():
    """A fiction audit: "The parish records wins round 2.", "The parish records loses 1 INT", "The parish records is
    out of the conflict.", where the narration beside them said "yield". An obstacle that says "they" is named in
    the plural on the screen and in the journal, as the narration names it."""
    import io

    from rich.console import Console

    from solo.events import EventLog
    from solo.minds.bots import GreedyDecider
    from solo.rules.fiction import Fiction
    from solo.ui.journal import Journal
    from solo.ui.view import TerminalView

    ctype = conflict_type("library")
    told = []
    for seed in range(6):
        reader = from_character(make_char("Ingrid", Knowledge=70), "a", ctype,
                                decider=GreedyDecider(random.Random(seed)))
        records = obstacle("the parish records", "easy", fiction=Fiction(pronoun="they"))
        log = EventLog()
        Conflict(ctype, [reader, records], random.Random(seed), sink=log, round_limit=10).run()
        out = io.StringIO()
        view, journal = TerminalView(Console(file=out, width=200, color_system=None)), Journal()
        for event in log.events:
            view.render(event)
            journal.render(event)
        told.append(out.getvalue() + journal.text())
    text = "\n".join(told)
    assert re.search(r"[Tt]he parish records (win round|lose \d|give way)", text)
    assert not re.search(r"[Tt]he parish records (wins|loses|is) ", text)


def test_one_out_by_a_blow_to_another_pool_is_marked_out_on_the_bars():
    """A group's run at Kaldskard's toll: Torgny went out at CHA 0 (a Flamboyant blow) and stood on the bars at BODY
    6/8 the round after, as if still fighting. The bar shows the conflict's Pool as it is, with "out" beside it;
    one at 0 needs no mark, and nobody else gets one."""
    import io

    from rich.console import Console

    from solo.events import Event
    from solo.ui.view import TerminalView

    a = make_char("A", Combat=60)
    b, c = (make_char(n, level="common", Combat=40) for n in ("B", "C"))
    log = EventLog()
    parts = [from_character(a, "a", COMBAT, decider=LensKeeper("none")),
             *(from_character(x, "b", COMBAT, decider=LensKeeper("none")) for x in (b, c))]
    Conflict(COMBAT, parts, random.Random(3), sink=log, round_limit=6).run()
    start, blow = log.of("conflict_start")[0], next(e for e in log.of("damage") if e["target"] == "B")
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=120, color_system=None))
    view.render(start)
    view.render(Event("out", {"round": 1, "actor": "C"}))  # out by a blow its bar does not show
    view.render(blow)
    bars = {line.split()[0]: line for line in out.getvalue().splitlines() if "█" in line or "░" in line}
    assert bars["C"].rstrip().endswith("out") and not bars["B"].rstrip().endswith("out"), bars


@pytest.mark.parametrize("kind, exit, said", [
    ("combat", "surrender", "surrenders"), ("combat", "flee", "flees"), ("social", "flee", "walks away"),
    ("social", "surrender", "gives up"), ("sneaking", "surrender", "gives up"), ("lockpicking", "flee", "walks away")])
def test_one_who_leaves_is_told_leaving_as_the_menu_named_the_way_out(kind, exit, said):
    """The menu's exits (exit_name) and the words the screen and the journal tell them by came from two rules: a
    fight's "Surrender" was told "gives up". The exit event says its words, from the menu's name for it."""
    from solo.rules.conflict import exit_name
    from solo.ui.describe import exit_words

    ctype = conflict_type(kind)
    pc = Answers(lens=exit)
    a = from_character(make_char("A", Combat=50, Social=50, Move=50, Cunning=50, Tech=50), "a", ctype, decider=pc)
    b = obstacle("Old lock", "hard") if ctype.static else from_character(
        make_char("B", level="common", Combat=50, Social=50, Move=50), "b", ctype, decider=Answers(lens="none"))
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(1), sink=log, round_limit=3).run()
    offered = {o.key: o.label for o in pc.asked[0].options}
    (left,) = log.of("exit")
    assert exit_words(left, ctype.static) == said
    plural = {"surrenders": "surrender", "flees": "flee", "walks away": "walk away", "gives up": "give up"}[said]
    assert exit_words(left, ctype.static, plural=True) == plural  # "the dockers flee" (a review: "flees")
    assert said.split()[0].startswith(offered[exit].lower().split()[0][:4])  # "Walk away": "walks away"
    assert offered[exit] == exit_name(ctype, exit)


def test_a_crowd_that_leaves_is_told_leaving_in_the_plural():
    """A review: the way out was told in the rules core's own words ("flees"), so a crowd named in the plural read
    "The dockers flees." The exit event names the way (``way``); the screen and the journal agree it with the name."""
    import io

    from rich.console import Console

    from solo.rules.fiction import Fiction
    from solo.ui.journal import Journal
    from solo.ui.view import TerminalView

    ctype = conflict_type("combat")
    a = from_character(make_char("Ada", Combat=50, Move=50), "a", ctype,
                       decider=Answers(lens="none", exit_offer="let_go"))
    b = from_character(make_char("The dockers", level="common", Combat=50, Move=50), "b", ctype,
                       decider=Answers(lens="flee"))
    b.fiction = Fiction(body="crowd", pronoun="they")
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(1), sink=log, round_limit=3).run()
    (left,) = log.of("exit")
    assert left["way"] == "flee" and "said" not in left.data
    out, journal = io.StringIO(), Journal()
    view = TerminalView(Console(file=out, width=100, color_system=None))
    for e in log.events:
        view.render(e)
        journal.render(e)
    assert "The dockers flee." in out.getvalue() and "The dockers flees" not in out.getvalue(), out.getvalue()
    assert "The dockers flee." in journal.text(), journal.text()

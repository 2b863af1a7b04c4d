"""The Lens advice (solo/story/play/advice.py, issue 12): the numbers shown for every Lens, from the true state.

One against one they are the Lens chain's exact values of the state at hand (checked against the chain
itself, and the chain against the engine in tests/test_lens_chain.py and tests/test_odds_cli.py); with
allies, several foes or a side pushing on they are the engine's own estimate, shown with its ±.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import make_char
from sequential import Case, check

from solo.decisions import CLEVER_FOLLOW_UP, LENS
from solo.minds.bots import GreedyDecider, LensKeeper
from solo.minds.foresight import Foresight, keeping
from solo.minds.npc import NPCMind, choice_chances
from solo.npc import NPC
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.lens_chain import Effect, LensChain, lens_targets
from solo.rules.lenses import LENSES
from solo.rules.odds import conflict_odds
from solo.rules.participants import from_character
from solo.story.play.advice import LensAdvisor, estimate, percent

SOCIAL = conflict_type("social")
COMBAT = conflict_type("combat")
WIN = re.compile(r"^(<1|>99|\d+) % to win")


def _pc(name="Ada", **skills):
    return make_char(name, pools=8, luck=0, **({"Social": 50, "Cunning": 60, "Combat": 55} | skills))


def _npc(name="Bo", level="common", *, mindless=True, **skills) -> NPC:
    """A mindless NPC (the minds' plainest), or with ``mindless=False`` one with a Code Block: a person."""
    from solo.minds.arena import parse_trait
    from solo.npc.codeblock import CodeBlock, RecentEvent

    base = make_char(name, level=level, pools=7, **({"Social": 55, "Combat": 50, "Cunning": 45} | skills))
    block = None if mindless else CodeBlock((parse_trait("Correct"), parse_trait("Reserved")), ("Status",),
                                            RecentEvent("Success", True, "recent endeavours succeed"), "Neutral")
    return NPC(**{f: getattr(base, f) for f in ("name", "skills", "pools", "focuses", "tags", "level")},
               mindless=mindless, code_block=block)


def _duel(ctype, pc, npc, *, limit=30, mind=True):
    a = from_character(pc, "a", ctype, decider=LensKeeper("none"))
    b = from_character(npc, "b", ctype, decider=NPCMind(npc, random.Random(3)) if mind else None)
    return Conflict(ctype, [a, b], random.Random(1), round_limit=limit), a, b


def _shown(advice: dict[str, str]) -> dict[str, str]:
    """The chance to win each Lens shows, as printed ("62 %")."""
    out = {}
    for lens, words in advice.items():
        m = WIN.match(words)
        assert m, words
        out[lens] = f"{m.group(1)} %"
    return out


def test_after_a_lost_covert_round_the_numbers_move_only_as_the_state_does():
    """The issue's scenario. Round 4 of 30: Ada (Social 50, Cunning 60) against a Common NPC (Social 55, plain
    rolls), Pools 8 and 7. Ada's Covert round stalls: round 5 starts from the same Pools, Ada at −20 for that
    round only. Shown in round 5: the chain's value of that true state, one round at −20, then none. The old
    advice laid the −20 on all 26 rounds left, some ten points lower: it fails this test."""
    conflict, ada, bo = _duel(SOCIAL, _pc(), _npc())
    view, advisor = conflict.view, LensAdvisor()
    conflict.round = 4
    before = _shown(advisor(view, ada))
    conflict.round, ada.carry = 5, -20  # the stalled Covert round
    after = _shown(advisor(view, ada))
    chain = LensChain(lens_targets(50, covert=60, flamboyant=60), lens_targets(55))  # shows off Cunning
    old_gap = 0.0
    for lens in LENSES:
        true = chain.odds(8, 7, lens_a=keeping(lens), effect_a=Effect(-20), round_limit=26).a_wins
        assert after[lens] == percent(true), lens
        if lens in ("none", "aggressive", "cautious"):
            every_round = conflict_odds(50 - 20, 8, 55, 7, lens_a=lens, round_limit=26).a_wins
            old_gap = max(old_gap, true - every_round)
        # one round at −20 costs a little, never more than that round could
        assert int(after[lens].split()[0].strip("<>")) <= int(before[lens].split()[0].strip("<>"))
    assert old_gap > 0.06
    # round 6, the −20 spent, the Pools unchanged: the numbers are round 4's with two rounds fewer to go
    conflict.round, ada.carry = 6, 0
    later = _shown(advisor(view, ada))
    for lens in LENSES:
        assert later[lens] == percent(chain.odds(8, 7, lens_a=keeping(lens), round_limit=25).a_wins), lens


def test_every_lens_gets_a_number_against_a_mind_and_the_best_is_marked():
    npc = _npc("Grim", level="skilled")
    conflict, ada, grim = _duel(COMBAT, _pc(Combat=60), npc)
    advice = LensAdvisor()(conflict.view, ada)
    assert set(advice) == set(LENSES)
    assert sum("· best" in words for words in advice.values()) == 1
    exact = Foresight().exact(conflict.view, ada)
    best = next(k for k, words in advice.items() if "· best" in words)
    assert best == exact.best == max(exact.odds, key=lambda k: exact.odds[k].a_wins)
    assert _shown(advice) == {k: percent(v.a_wins) for k, v in exact.odds.items()}
    # the round limit's share is explained at its first mention only
    short, ada2, _ = _duel(COMBAT, _pc(Combat=60), _npc("Grim", level="skilled"), limit=3)
    words = list(LensAdvisor()(short.view, ada2).values())
    assert sum("after round 3" in w for w in words) == 1  # a limit of 3, asked in round 1
    assert sum("undecided" in w for w in words) >= 2


def test_the_advice_is_a_look_up_later_in_the_conflict_and_never_moves_the_dice():
    npc = _npc("Grim", level="skilled")
    pc = _pc(Combat=60)
    seen = []

    class Watching(LensKeeper):
        def __init__(self):
            super().__init__("cautious")
            self.advisor = LensAdvisor()

        def decide(self, question):
            if question.kind == LENS:
                seen.append(self.advisor(question.context["conflict"], question.context["participant"]))
            return super().decide(question)

    def play(watch: bool):
        pc_copy, npc_copy = _pc(Combat=60), _npc("Grim", level="skilled")
        a = from_character(pc_copy, "a", COMBAT, decider=Watching() if watch else LensKeeper("cautious"))
        b = from_character(npc_copy, "b", COMBAT, decider=NPCMind(npc_copy, random.Random(9)))
        result = Conflict(COMBAT, [a, b], random.Random(4), round_limit=30).run()
        return result.to_dict(), a.pool.current, b.pool.current

    assert play(True) == play(False)
    assert len(seen) >= 2 and all(set(s) == set(LENSES) for s in seen)
    assert pc and npc


def test_an_estimate_near_a_sure_thing_reads_as_a_range_never_past_100_or_below_0():
    """Before: a party's Lens menu read "≈ 100 % ± 4 to win", past a hundred."""
    from solo.story.play.advice import Estimate

    assert Estimate(25, 25, 0, 0).words() == "≈ 96–100 % to win · from 25 tries · likely best"
    assert Estimate(100, 0, 0, 0).words() == "≈ 0–1 % to win · from 100 tries · likely best"
    assert Estimate(100, 41, 0, 0).words() == "≈ 41 % ± 5 to win · from 100 tries · likely best"
    # the figure comes first, alone before its first " · ": what a Lens's blows count towards is said after it
    # ("…, 5 % they run, from 58 tries, blows to BODY" read as if the tries were blows)
    assert Estimate(100, 41, 0, 0).words().partition(" · ")[0] == "≈ 41 % ± 5 to win"
    # a conflict so long that one or two fill the budget: the count, not a chance ("≈ 99–100 %" from one)
    assert Estimate(1, 1, 0, 0).words() == "won 1 of 1 tried, too few to tell · likely best"
    assert Estimate(2, 0, 0, 2).words() == "won 0 of 2 tried (2 undecided), too few to tell · likely best"
    assert Estimate(2, 1, 1, 0).words() == "won 1 of 2 tried (they gave up in 1), too few to tell · likely best"
    # (the one floor of solo/sampling.py: a share of all is given the spread of one conflict in three)
    assert Estimate(3, 3, 0, 0).words() == "≈ 66–100 % to win · from 3 tries · likely best"
    # every share is sampled and carries its spread, the win's as the others': "≈ 98–100 %, 1 % undecided" came to
    # 101 %, and "53 % they give up" read as exact beside "≈ 1 % ± 1"
    assert Estimate(200, 198, 0, 2).words() == "≈ 99 % ± 1 to win, ≈ 1 % ± 1 undecided · from 200 tries · likely best"
    assert Estimate(100, 95, 5, 0).words() == ("≈ 95 % ± 3 to beat them outright, ≈ 5 % ± 3 they give up"
                                               " · from 100 tries · likely best")
    assert Estimate(100, 100, 0, 0).words() == "≈ 99–100 % to win · from 100 tries · likely best"


def test_a_group_fight_gets_the_engines_estimate_with_its_error():
    a1 = from_character(_pc("Ada", Combat=55), "a", COMBAT, decider=LensKeeper("none"))
    a2 = from_character(_pc("Cai", Combat=45), "a", COMBAT, decider=GreedyDecider())
    npc = _npc("Grim", level="skilled", Combat=85)  # (at 65, a mindless Grim that never shows off is beaten ≈ 99 %)
    b = from_character(npc, "b", COMBAT, decider=NPCMind(npc, random.Random(2)))
    rng = random.Random(5)
    conflict = Conflict(COMBAT, [a1, a2, b], rng, round_limit=30)
    state = rng.getstate()
    advisor = LensAdvisor(budget=None, runs=300)
    advice = advisor(conflict.view, a1)
    assert len(advice) == 1
    (lens, words), = advice.items()
    assert words.startswith("≈ ") and " ± " in words and "to win · from 300 tries" in words
    # what the tries assume of the rest of the party, which no exact odds count (a hot-seat party read "≈ 95–100 %
    # to win" as its own chances, and lost); one alone against two has nobody else to assume anything of
    assert "from 300 tries, the others as a bot plays them: Luck spent, pushing on · likely best" in words, words
    npc2 = _npc("Hjalmar", level="skilled", Combat=60)
    alone = Conflict(COMBAT, [from_character(_pc("Ada", Combat=55), "a", COMBAT, decider=LensKeeper("none")),
                              from_character(npc, "b", COMBAT, decider=NPCMind(npc, random.Random(2))),
                              from_character(npc2, "b", COMBAT, decider=NPCMind(npc2, random.Random(3)))],
                     random.Random(5), round_limit=30)
    ada = alone.participants[0]
    assert not estimate(alone.view, ada, "none", budget=60).allies
    assert advice == LensAdvisor(budget=None, runs=300)(conflict.view, a1)  # seeded by the state: the same words
    assert rng.getstate() == state  # and the game's dice untouched
    assert (a1.pool.current, a2.pool.current, b.pool.current, conflict.round) == (8, 8, 7, 0)


def test_the_estimates_budget_counts_rounds_so_a_slow_machine_shows_the_same_words(monkeypatch):
    """The budget is rounds of play, not seconds: with the clock made to crawl, one question gets the same words."""
    import time

    from solo.story.play import advice as advice_module

    def group():
        a1 = from_character(_pc("Ada", Combat=55), "a", COMBAT, decider=LensKeeper("none"))
        a2 = from_character(_pc("Cai", Combat=45), "a", COMBAT, decider=GreedyDecider())
        npc = _npc("Grim", level="skilled", Combat=65)
        b = from_character(npc, "b", COMBAT, decider=NPCMind(npc, random.Random(2)))
        return Conflict(COMBAT, [a1, a2, b], random.Random(5), round_limit=30).view, a1

    view, a1 = group()
    est = estimate(view, a1, "none", budget=60)
    assert 0 < est.runs < advice_module.ESTIMATE_RUNS  # the round budget, not the run cap, stopped it
    ticks = iter(range(0, 10**9, 10**6))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))  # every look at the clock: a long wait
    view, a1 = group()
    assert estimate(view, a1, "none", budget=60) == est
    assert LensAdvisor()(view, a1) == LensAdvisor()(view, a1)


def test_a_pushing_side_gets_the_estimate():
    conflict, ada, grim = _duel(COMBAT, _pc(Combat=60), _npc("Grim", level="skilled"))
    ada.pool.current, ada.pushing = -3, True
    advice = LensAdvisor(budget=None, runs=200)(conflict.view, ada)
    assert len(advice) == 1 and "±" in next(iter(advice.values()))


@pytest.mark.parametrize("carry,follow_up", [(0, False), (-20, False), (0, True)])
def test_the_estimate_agrees_with_the_exact_odds_where_both_apply(carry, follow_up):
    """Copies of the conflict played on from round 7 (Pools 6 and 5, Ada's carry and Bo's edge as given) against
    the chain's value of that state: estimates of a block of copies each (a seed of its own), by the sequential
    test with the error rates of four standard errors at 1,500 copies (at most 0.052)."""
    conflict, ada, bo = _duel(SOCIAL, _pc(), _npc(), limit=12)
    conflict.round = 7
    ada.pool.current, bo.pool.current, ada.carry = 6, 5, carry
    bo.clever_next = follow_up  # a plain roller with an edge due: the chain gives it +20 this round
    cases = []
    for lens in ("covert", "clever"):
        exact = Foresight().exact(conflict.view, ada, [lens]).odds[lens]
        blocks = iter(range(1000))

        def play(runs: int, lens=lens, blocks=blocks) -> dict[str, int]:
            est = estimate(conflict.view, ada, lens, runs=runs, budget=None, seed=f"check:{lens}:{next(blocks)}")
            assert est.runs == runs
            return {"won": est.wins}

        cases.append(Case(lens, {"won": exact.a_wins}, play))
    check(cases, 1500)


def test_the_mind_draws_with_the_chances_its_policy_gives(monkeypatch):
    """Over a few duels, every Lens and follow-up the mind chose: the chances of its draw (from its own scores)
    equal :meth:`NPCMind.lens_spread` of the moment, asked just before (morale checks held off, as the policy
    holds morale still)."""
    monkeypatch.setattr(NPCMind, "_check_morale", lambda *args, **kwargs: None)
    checked = {LENS: 0, CLEVER_FOLLOW_UP: 0}

    class Checked(NPCMind):
        def decide(self, question):
            ctx = question.context
            if question.kind in checked and ctx.get("conflict") is not None:
                expected = self.lens_spread(ctx["conflict"], ctx["participant"],
                                            follow_up=question.kind == CLEVER_FOLLOW_UP)
                drawn: dict = {}
                original = self._pick

                def pick(totals):
                    drawn.update(choice_chances(totals))
                    return original(totals)

                self._pick = pick  # type: ignore[method-assign]
                try:
                    answer = super().decide(question)
                finally:
                    del self._pick
                if drawn:
                    assert drawn == pytest.approx(expected, abs=1e-12)
                    checked[question.kind] += 1
                return answer
            return super().decide(question)

    for seed in range(6):
        npc = NPC.from_dict({"name": "Vera", "level": "skilled", "skills": {"Combat": 55, "Cunning": 60,
                                                                             "Social": 50},
                             "pools": {"BODY": 9, "INT": 8, "POW": 9, "CHA": 9}, "weapon": "dagger",
                             "code_block": {"personality": ["Correct", "Bitter"], "motivation": ["Faith"],
                                            "event": {"topic": "Money", "sign": "negative"}}})
        pc = _pc(Combat=60)
        a = from_character(pc, "a", COMBAT, decider=LensKeeper(LENSES[seed]))
        b = from_character(npc, "b", COMBAT, decider=Checked(npc, random.Random(seed)))
        Conflict(COMBAT, [a, b], random.Random(seed), round_limit=30).run()
    assert checked[LENS] > 30 and checked[CLEVER_FOLLOW_UP] > 0


class _DamageEdgeFirst(LensKeeper):
    """Keeps Clever (with its +20 edge), but takes the damage edge the first time one is due."""

    def __init__(self):
        super().__init__("clever")
        self.first = True

    def decide(self, question):
        if question.kind == CLEVER_FOLLOW_UP and self.first:
            self.first = False
            return "damage"
        return super().decide(question)


def test_each_clever_edge_shows_its_odds_and_the_engine_agrees():
    """With Ada's Clever edge due against a plain roller: the +20 edge is keeping Clever as the Lens menu prices
    it; the damage edge, then Clever kept, against conflicts played by the engine (the sequential test, with the
    error rates of four standard errors at 3,000)."""
    from solo.rules.outcomes import WON

    def duel():
        conflict, ada, bo = _duel(SOCIAL, _pc(), _npc(), limit=8, mind=False)
        ada.pool.current, bo.pool.current, ada.clever_next = 5, 5, True
        return conflict, ada

    conflict, ada = duel()
    edges = Foresight().edges(conflict.view, ada)
    kept = Foresight().exact(conflict.view, ada, ["clever"], follow_up=True).odds["clever"]
    assert set(edges.odds) == {"skill", "damage"} and edges.best in edges.odds
    assert edges.odds["skill"].a_wins == pytest.approx(kept.a_wins, abs=1e-12)
    assert edges.odds["damage"].a_wins != pytest.approx(kept.a_wins, abs=1e-3)  # the two edges differ here
    seeds = iter(range(10**6))

    def play(runs: int) -> dict[str, int]:
        won = 0
        for _ in range(runs):
            conflict, ada = duel()
            conflict.rng = random.Random(next(seeds))
            ada.decider = _DamageEdgeFirst()
            won += conflict.run().outcome == WON
        return {"won": won}

    check([Case("the damage edge, then Clever", {"won": edges.odds["damage"].a_wins}, play)], 3000)


def test_the_clever_follow_up_menu_shows_each_edges_chance_to_win():
    conflict, ada, bo = _duel(SOCIAL, _pc(), _npc(), limit=8, mind=False)
    ada.clever_next = True
    asked = []

    class Watcher(LensKeeper):
        def decide(self, question):
            asked.append(question)
            return super().decide(question)

    ada.decider = Watcher("clever")
    conflict.advisor = LensAdvisor()
    for _ in range(20):  # steps of the engine's state machine, up to the first declarations
        conflict.step()
        if any(q.kind == CLEVER_FOLLOW_UP for q in asked):
            break
    question = next(q for q in asked if q.kind == CLEVER_FOLLOW_UP)
    words = {o.key: o.detail for o in question.options if o.key in ("skill", "damage")}
    assert all(WIN.match(w) for w in words.values()), words
    assert sum("best" in w for w in words.values()) == 1


def test_a_clever_edge_on_the_last_round_says_nothing_of_after():
    """A player's run: on a limit's last round the Clever edge read "0 % to win with Clever kept after, 100 %
    undecided when this last round ends". There is no after: the edge's words say only this round's chance."""
    said = {}
    for limit in (8, 1):
        conflict, ada, _ = _duel(SOCIAL, _pc(), _npc(), limit=limit, mind=False)
        ada.clever_next = True
        conflict.round = 1  # the round being declared: the first of eight, or the last of one
        said[limit] = LensAdvisor().edges(conflict.view, ada)
    assert any("to win with Clever kept after" in w for w in said[8].values()), said[8]  # (on the first)
    assert said[1] and not any("kept after" in w for w in said[1].values()), said[1]


def test_the_first_menu_of_a_conflict_says_what_to_win_assumes_and_later_ones_do_not():
    conflict, ada, _ = _duel(COMBAT, _pc(), _npc("Grim"), limit=12)
    advisor = LensAdvisor()
    first = advisor(conflict.view, ada)
    again = advisor(conflict.view, ada)
    assert next(iter(first.values())).split(",")[0].endswith("to win if kept every round")
    assert sum("if kept every round" in w for w in first.values()) == 1
    assert not any("if kept" in w for w in again.values())
    assert {k: WIN.match(w).group(1) for k, w in first.items()} == {k: WIN.match(w).group(1) for k, w in again.items()}


def test_the_last_rounds_menu_says_this_round_not_its_number():
    """At round 5 of 5 the menu read "40 % undecided after round 5", as if round 5 were over; on the last round it
    says "when this last round ends", and before it names the last round by its number."""
    from types import SimpleNamespace

    from solo.minds.foresight import Exact
    from solo.story.play.advice import exact_words

    odds = {"none": SimpleNamespace(a_wins=0.35, undecided=0.40)}
    last = exact_words(Exact(odds, "none", rounds_left=1), first_round=5)
    assert last["none"] == "35 % to win, 40 % undecided when this last round ends · best"
    earlier = exact_words(Exact(odds, "none", rounds_left=2), first_round=4)
    assert earlier["none"] == "35 % to win, 40 % undecided after round 5 · best"
    before = exact_words(Exact(odds, "none", rounds_left=1), first_round=0)  # a scene's choice: no round yet
    assert before["none"] == "35 % to win, 40 % undecided after round 1 · best"


def test_a_lens_whose_blows_may_go_elsewhere_says_which_pool_its_chance_counts():
    """Before: the menu read "57 % to win" on Flamboyant while the foe's CHA fell to 2 (the player sent the blows
    there, as the won round lets them): the chain counts blows to the conflict's Pool only. A Lens that may hit
    another Pool of a foe who has one says which Pool its chance counts; the others, and a foe with no such Pool
    (a lock) or none a blow to it could work on (the mindless dead: docs/rulings.md), say nothing more."""
    conflict, ada, _ = _duel(COMBAT, _pc(Combat=60), _npc("Grim", level="skilled", mindless=False))
    advice = LensAdvisor()(conflict.view, ada)
    for lens in ("flamboyant", "covert"):
        assert WIN.match(advice[lens]) and ", blows to BODY" in advice[lens], advice[lens]
    assert not any("blows to" in advice[k] for k in ("none", "aggressive", "cautious", "clever", "quick"))
    mindless, ada3, _ = _duel(COMBAT, _pc(Combat=60), _npc("Draugr", level="skilled"))
    assert not any("blows to" in words for words in LensAdvisor()(mindless.view, ada3).values())
    talk, ada2, _ = _duel(SOCIAL, _pc(), _npc(mindless=False))
    said = LensAdvisor()(talk.view, ada2)
    assert ", blows to CHA" not in said["flamboyant"]  # CHA is the quarrel's own Pool: nothing else to hit
    assert ", blows to CHA" in said["covert"]  # a Covert win may still go to POW


def test_an_estimate_where_they_give_up_says_the_win_it_counts_is_outright():
    """Before: '≈ 0–4 % to win, 93 % they give up' read as near-certain defeat, though their giving up or running
    ends it your way. With exits shown, the win counted is named as the outright one."""
    from solo.story.play.advice import Estimate

    # the likelier first: "≈ 0–1 % to win outright" first read as hopeless where they were sure to go (a new player);
    # and "to beat them outright", for "≈ 0 % to win outright" still read as a fight that could not be won
    assert Estimate(100, 1, 93, 0, 40).words() == ("≈ 53 % ± 5 they give up, ≈ 40 % ± 5 they run,"
                                                   " ≈ 1 % ± 1 to beat them outright · from 100 tries · likely best")
    assert Estimate(100, 60, 40, 0, 40).words() == ("≈ 60 % ± 5 to beat them outright, ≈ 40 % ± 5 they run"
                                                    " · from 100 tries · likely best")
    assert Estimate(100, 0, 100, 0, 100, "walk away").words() == ("≈ 99–100 % they walk away,"
                                                                  " ≈ 0–1 % to beat them outright"
                                                                  " · from 100 tries · likely best")
    assert Estimate(100, 41, 0, 0).words() == "≈ 41 % ± 5 to win · from 100 tries · likely best"  # nobody ran
    # one opponent by its own pronoun: Knut, "he" everywhere else, read "42 % they give up, 58 % they run"
    assert Estimate(100, 1, 93, 0, 40, "run", "he").words().startswith("≈ 53 % ± 5 he gives up, ≈ 40 % ± 5 he "
                                                                       "runs, ≈ 1 % ± 1 to beat him outright")
    assert Estimate(100, 0, 100, 0, 100, "walk away", "she").words().startswith("≈ 99–100 % she walks away, ")


_YARD = '''[adventure]
title = "Yard"
start = "yard"

[npcs.rune]
name = "Rune Berg"
level = "skilled"
skills = { Combat = 70 }
weapon = "dagger"
code_block = { personality = ["Aggressive", "Moody"], disposition = "Malicious", motivation = ["Money"] }

[scenes.yard]
text = "Rune blocks the yard."

[[scenes.yard.choices]]
text = "Fight him"
conflict = { type = "combat", npcs = ["rune"], rounds = 10, won = "rich", lost = "beaten" }

[scenes.rich]
text = "Rich."
ending = true

[scenes.beaten]
text = "Beaten."
ending = true
'''


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lens_menu_says_what_the_foe_declared_first_which_its_odds_rest_on(tmp_path, monkeypatch, seed):
    """New-user run: Rune (Combat 70) declares before Espen (30), and the round's menu priced the fight against
    the Lens he had declared ('43 % undecided', the scene's menu 44 %), which the player only saw after choosing,
    in the round's table. The menu now says it first, and it is the Lens the table then shows him rolling."""
    from click.testing import CliRunner

    from solo.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "yard.toml").write_text(_YARD, encoding="utf-8")
    (tmp_path / "s.txt").write_text("1\n" + "2\n" * 12, encoding="utf-8")  # fight; Aggressive every round
    result = CliRunner().invoke(cli, ["play", "yard.toml", "--pc", "espen", "--seed", str(seed), "--script", "s.txt",
                                      "--saves", "saves"])
    screen = result.output
    rounds = re.split(r"^Round \d+ of 10$", screen, flags=re.M)[1:]
    checked = 0
    for chunk in rounds:  # a round where Espen declared first tells nothing before his menu
        told = re.findall(r"Declared before you this round: Rune Berg, (\w+)\.", chunk)
        rolled = re.findall(r"^ ?Rune Berg +(\w+) +\d\d / ", chunk, re.M)
        if told and rolled:
            assert told == rolled[:1], (told, rolled)
            checked += 1
    assert checked >= 2, screen[-3000:]
    assert "Declared before you this round: Espen" not in screen  # nobody is told their own Lens


def test_the_likely_best_lens_of_a_last_round_is_never_one_whose_edge_comes_next_round():
    """A new GM's run: at round 10 of 10 at a vault lock the only estimate on the menu was Clever's, "≈ 0–1 % to
    win · likely best", beside its own "no damage now, and its edge would come next round: this is the last". The
    position's values read the fight on without a limit, where Clever's edge counts; in the last round it cannot."""
    from solo.story.play.advice import likely_best

    lock = conflict_type("lockpicking")
    conflict, ada, _ = _duel(lock, _pc(Tech=10, Cunning=10, Social=10, Combat=10), _npc("Grim"), limit=5)
    ada.pool.current = 3
    assert likely_best(conflict.view, ada) == "clever"  # with rounds to come its edge is worth having
    conflict.round = 5
    assert likely_best(conflict.view, ada) == "cautious"


def test_a_clever_edge_declared_before_you_is_told_as_the_edge_not_as_no_lens():
    """A group's tracking run at Kaldskard (seed 7, three players): Runa took Clever's edge ("Use what you saw: +20
    %") and the next to declare read "Declared before you this round: Runa Moen, no Lens." The line says the edge
    she took, as the rules let a later declarer know it."""
    from solo.ui.describe import declared_before

    told: list[str] = []

    class Edger:
        """Clever every round it can, then the +20 % edge."""

        def decide(self, q):
            if q.kind == CLEVER_FOLLOW_UP:
                return "skill"
            return "clever" if q.kind == LENS and "clever" in q.keys() else q.keys()[0]

    class Reader:
        def decide(self, q):
            if q.kind == LENS:
                told.append(declared_before(q))
            return "none" if "none" in q.keys() else q.keys()[0]

    combat = conflict_type("combat")
    for seed in range(12):
        runa = from_character(make_char("Runa Moen", Combat=60, Awareness=60), "a", combat, decider=Edger())
        alma = from_character(make_char("Alma Berg", Combat=50), "a", combat, decider=Reader())
        foe = from_character(make_char("Foe", level="skilled", Combat=50, pools=30), "b", combat,
                             decider=LensKeeper("none"))
        Conflict(combat, [runa, alma, foe], random.Random(seed), round_limit=6).run()
    edges = [line for line in told if "Runa Moen, Clever's edge: +20 % to the roll" in line]
    assert len(edges) >= 3, told
    assert not [line for line in told if "Runa Moen, no Lens" in line], told


def test_the_first_menu_says_the_numbers_hold_the_foes_nerve_where_it_has_one_to_lose():
    """A GM read "Flamboyant: 44 % to win, 34 % undecided" beside solo odds's 19 % won and 35 % with the guard giving
    up or running: the menu's chain holds the foe's nerve (docs/design.md), and now says so where it can break."""
    person = _npc("Grim", mindless=False)
    person.pronoun = "she"
    conflict, ada, grim = _duel(COMBAT, _pc(), person, limit=12)
    first = next(iter(LensAdvisor()(conflict.view, ada).values()))
    assert "to win if kept every round and she never gives up or runs," in first, first
    # the number beside it is the chain that holds the nerve, not the one that prices it
    held = Foresight().exact(conflict.view, ada).odds["none"].a_wins
    priced = Foresight(nerve=True).exact(conflict.view, ada).odds["none"].a_wins
    assert WIN.match(first).group(1) == str(round(held * 100)) != str(round(priced * 100))
    social, ada, _ = _duel(SOCIAL, _pc(), person, limit=12)
    assert "and she never gives up or walks away" in next(iter(LensAdvisor()(social.view, ada).values()))
    # in a chase running is the contest, not a way out of it (the review: "never gives up or runs" of a quarry)
    chase_type = conflict_type("foot_chase")
    assert not chase_type.flight
    chase, ada, _ = _duel(chase_type, _pc(), person, limit=12)
    words = next(iter(LensAdvisor()(chase.view, ada).values()))
    assert "and she never gives up," in words and "runs" not in words, words
    # one whose offer was refused fights to the end: nothing to assume of it (a player's run read "30 % to win if
    # he never gives up" the round after refusing Brekke's deal)
    refused, ada, grim = _duel(COMBAT, _pc(), person, limit=12)
    grim.exits_closed = True
    assert next(iter(LensAdvisor()(refused.view, ada).values())).split(",")[0].endswith("if kept every round")
    # a mindless foe has no nerve to lose: the numbers assume nothing of it
    beast, ada, _ = _duel(COMBAT, _pc(), _npc("Wolf"), limit=12)
    assert next(iter(LensAdvisor()(beast.view, ada).values())).split(",")[0].endswith("if kept every round")


def test_once_one_of_the_foes_side_is_down_every_menu_says_its_way_out_would_be_a_win():
    """A player's argument at Kaldskard: with Torgny out, Hallstein's giving up ended it as "you won", yet the menu
    said "9 % to win" (its chain holds his nerve, and the first menu alone said so) a round after an estimate of
    "≈ 30–34 %" that counted such wins. Where one of the foe's side is down, every menu says that the foe's way out
    would now be the party's win; with nobody down, the first alone says what the numbers assume."""
    from solo.rules.outcomes import OUT

    person = _npc("Grim", mindless=False)
    person.pronoun = "he"
    mate = _npc("Torgny Lie", mindless=False)
    social = SOCIAL
    ada = from_character(_pc(), "a", social, decider=LensKeeper("none"))
    grim = from_character(person, "b", social, decider=NPCMind(person, random.Random(3)))
    torgny = from_character(mate, "b", social, decider=NPCMind(mate, random.Random(4)))
    conflict = Conflict(social, [ada, grim, torgny], random.Random(1), round_limit=12)
    torgny.status = OUT
    advisor = LensAdvisor()
    for _ in range(2):  # the first menu and the next
        words = next(iter(advisor(conflict.view, ada).values()))
        assert "he never gives up or walks away (that would end it as your win, Torgny Lie being down)" in words, \
            words
    alone, ada, _ = _duel(SOCIAL, _pc(), person, limit=12)  # nobody down: said on the first menu only, as before
    calm = LensAdvisor()
    assert "never gives up" in next(iter(calm(alone.view, ada).values()))
    assert "never gives up" not in next(iter(calm(alone.view, ada).values()))


def test_an_estimate_against_one_opponent_names_it_by_its_pronoun():
    """The copies of a two-against-one fight give up or run as "he" where the one opponent is a he (a new player read
    "42 % they give up, 58 % they run" of Knut); against two, "they"."""
    a1 = from_character(_pc("Ada", Combat=55), "a", COMBAT, decider=LensKeeper("none"))
    a2 = from_character(_pc("Cai", Combat=45), "a", COMBAT, decider=GreedyDecider())
    npc = _npc("Grim", level="skilled", Combat=65)
    npc.pronoun = "he"
    b = from_character(npc, "b", COMBAT, decider=NPCMind(npc, random.Random(2)))
    view = Conflict(COMBAT, [a1, a2, b], random.Random(5), round_limit=30).view
    assert estimate(view, a1, "none", budget=60).they == "he"
    other = _npc("Ulf", level="skilled", Combat=65)
    c = from_character(other, "b", COMBAT, decider=NPCMind(other, random.Random(3)))
    view = Conflict(COMBAT, [from_character(_pc("Ada", Combat=55), "a", COMBAT, decider=LensKeeper("none")), b, c],
                    random.Random(5), round_limit=30).view
    assert estimate(view, view.participants[0], "none", budget=60).they == "they"

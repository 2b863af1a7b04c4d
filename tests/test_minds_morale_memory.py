"""Morale with hysteresis, what breaking looks like, memory of the PCs' deeds, and decision events."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from solo.decisions import Option, Question
from solo.events import EventLog
from solo.minds.arena import parse_trait, run_duels
from solo.minds.memory import DEEDS, NPCMemory, deed_weight
from solo.minds.morale import BROKEN, SHAKEN, STEADY, Morale, nerve
from solo.minds.npc import NPCMind
from solo.npc import generate_npc
from solo.npc.codeblock import CodeBlock, RecentEvent
from solo.npc.leanings import Leanings
from solo.rules.character import Character, Pool
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character
from solo.rules.rulebook import POOLS, SKILLS

COMBAT = conflict_type("combat")


def npc(first="Boring", second="Indifferent", motivation="Money", *, level="skilled", seed=1,
        disposition="Neutral", name=None):
    n = generate_npc(random.Random(seed), level, role="thug", name=name)
    n.code_block = CodeBlock((parse_trait(first), parse_trait(second)),
                             (motivation,) if isinstance(motivation, str) else tuple(motivation),
                             RecentEvent("Success", True, "x"), disposition)
    return n


def brute(name="Brute", skill=90, pools=16):
    skills = {s: 5 for s in SKILLS}
    skills.update(Combat=skill, Social=skill, Move=skill)
    return Character(name=name, skills=skills, pools={p: Pool(pools, pools) for p in POOLS},
                     focuses={"Combat//Melee": 20}, weapon="long_sword", armour="medium")


def lean(**over) -> Leanings:
    base = {k: 0.0 for k in ("aggression", "caution", "cunning", "flair", "curiosity", "haste",
                             "self_preservation", "resolve", "cruelty", "warmth")}
    drive = {"risk_tolerance": 0.3, "flee_threshold": 0.5, "surrender_bias": 0.5,
             "on_break": ("bargain", "surrender", "flee")}
    mindless = over.pop("mindless", False)
    for k, v in over.items():
        (drive if k in drive else base)[k] = v
    return Leanings(lean=base, mood=0.0, mindless=mindless, **drive)


class Always(random.Random):
    """A generator whose random() is fixed: 0.0 fails every check, 0.999 passes every one."""

    def __init__(self, value):
        super().__init__(0)
        self.value = value

    def random(self):
        return self.value


def look(m, pool, *, win=0.3, maximum=10, allies_out=frozenset(), opponents=1, side=1, value=0.0):
    return m.observe(pool=pool, maximum=maximum, win=win, allies_out=set(allies_out), opponents=opponents,
                     side=side, rng=Always(value))


# -- morale --------------------------------------------------------------------------------

def test_below_half_is_a_trigger_only_the_first_time():
    m = Morale(lean(flee_threshold=0.0))
    assert look(m, 10) is None
    check = look(m, 4, value=0.999)
    assert check.triggers == ("half",) and not check.failed and m.state == STEADY
    assert look(m, 3, value=0.0) is None  # no new trigger, no check


def test_a_failed_check_shakes_then_breaks_and_recovery_needs_a_clear_lead():
    m = Morale(lean(flee_threshold=0.0))
    look(m, 4, win=0.45, value=0.0)
    assert m.state == SHAKEN
    look(m, 4, win=0.6)  # no trigger; 60 % is not enough to steady
    assert m.state == SHAKEN
    look(m, 4, win=0.7)
    assert m.state == STEADY  # hysteresis: it steadies only at 65 %
    m2 = Morale(lean(flee_threshold=0.0))
    look(m2, 4, value=0.0)
    check = look(m2, 3, value=0.0)  # hurt again while shaken
    assert check.triggers == ("wounded",) and m2.state == BROKEN
    assert look(m2, 1, value=0.0) is None and m2.state == BROKEN  # broken is final


def test_failing_at_the_motivations_flee_line_while_losing_breaks_at_once():
    m = Morale(lean(flee_threshold=0.5))
    check = look(m, 5, win=0.2, value=0.0)
    assert "flee_line" in check.triggers
    assert m.state == BROKEN


def test_allies_going_down_and_being_outnumbered_are_triggers():
    m = Morale(lean(flee_threshold=0.0))
    check = look(m, 10, win=0.5, allies_out={"b1"}, opponents=3, side=1, value=0.999)
    assert check.triggers.count("ally_out") == 1 and "outnumbered" in check.triggers
    assert look(m, 10, win=0.5, allies_out={"b1"}, opponents=3, side=1) is None  # nothing new


def test_nerve_follows_resolve_self_preservation_and_risk():
    assert nerve(lean(resolve=1.0)) > nerve(lean()) > nerve(lean(self_preservation=1.0))
    assert nerve(lean(risk_tolerance=0.9)) > nerve(lean(risk_tolerance=0.1))
    brave = Morale(lean(resolve=1.5, flee_threshold=0.0))
    assert look(brave, 4, win=0.1, value=0.5).chance < 0.05
    coward = Morale(lean(resolve=-0.8, self_preservation=0.8))
    assert look(coward, 4, win=0.1, value=0.5).chance > 0.95


def test_mindless_never_check():
    m = Morale(lean(flee_threshold=0.0, mindless=True))
    assert look(m, 1, win=0.0, allies_out={"x"}, opponents=5) is None and m.state == STEADY


@pytest.mark.parametrize("breaks, can_flee, bias, reaction", [
    (("bargain", "surrender", "flee"), True, 0.0, "flee"),
    (("bargain", "surrender", "flee"), True, 1.0, "bargain"),
    (("flee", "beg", "surrender"), False, 0.0, "beg"),
    (("call_for_help", "flee"), True, 1.0, "call_for_help"),  # no surrender in its list: it runs for help
    (("call_for_help", "flee"), False, 0.0, "surrender"),  # cannot run: it yields all the same
    (("surrender", "bargain"), True, 0.0, "surrender"),
    (("fight_on",), True, 0.5, "fight_on"),
])
def test_what_a_broken_npc_does_follows_its_on_break_list(breaks, can_flee, bias, reaction):
    m = Morale(lean(on_break=breaks, surrender_bias=bias))
    assert m.choose_reaction(can_flee=can_flee, rng=Always(0.5)) == reaction


def test_breaking_is_published_with_the_reaction_and_the_mechanic():
    body = npc("Shy", "Nervous", "Money")
    stats = run_duels(body, brute(), COMBAT, runs=30, seed=4, explain=True)
    events = stats.first
    morale = [e for e in events if e.kind == "npc_morale"]
    breaks = [e for e in events if e.kind == "npc_break"]
    assert morale and breaks
    b = breaks[0]
    assert b["reaction"] in ("bargain", "surrender", "flee") and b["exit"] in ("flee", "surrender")
    mine = {"he": "his", "she": "her", "they": "their", "it": "its"}[body.pronoun]
    assert b["clue"] and b["reason"].startswith(f"{mine} nerve broke: {body.pronoun} ")
    assert {"flee", "surrender", "bargain"} >= set(stats.breaks)


def test_begging_and_calling_for_help_surface_as_events():
    seen = Counter()
    for motivation in ("Enjoy Life", "Circle", "Status", "Health"):
        for seed in range(6):
            stats = run_duels(npc("Shy", "Nervous", motivation, seed=seed), brute(), COMBAT, runs=40, seed=seed)
            seen.update(stats.breaks)
    assert seen["beg"] > 0 and seen["call_for_help"] > 0, seen


# -- pushing and targets ---------------------------------------------------------------------------

def _at_zero(body, rng_seed):
    me = from_character(body, "a", COMBAT)
    foe = from_character(brute(), "b", COMBAT)
    conflict = Conflict(COMBAT, [me, foe], random.Random(rng_seed))
    me.pool.current = 0
    q = Question("push", "Spent. What now?", (Option("push", "Push"), Option("out", "Go down")),
                 context={"conflict": conflict.view, "participant": me})
    return q


def test_masters_decide_whether_to_push_by_their_code_block():
    def pushes(first, second, motivation):
        body = npc(first, second, motivation, level="master")
        q = _at_zero(body, 1)
        return sum(NPCMind(body, random.Random(s)).decide(q) == "push" for s in range(40))

    zealot = pushes("Aggressive", "dark:Fanatic", "Faith")
    coward = pushes("Nervous", "Self-Centred", "Health")
    assert zealot >= 30 and coward <= 10, (zealot, coward)
    thing = generate_npc(random.Random(1), "master", role="draugr", mindless=True)
    assert NPCMind(thing, random.Random(1)).decide(_at_zero(thing, 1)) == "push"


def _targets(body, seeds=60):
    me = from_character(body, "a", COMBAT)
    big = brute("Big", skill=90, pools=12)
    small = brute("Small", skill=40, pools=12)
    small.weapon, small.armour, big.armour = None, "medium", "medium"
    foes = [from_character(c, "b", COMBAT) for c in (big, small)]
    conflict = Conflict(COMBAT, [me, *foes], random.Random(1))
    q = Question("target", "Whom?", tuple(Option(f.id, f.name) for f in foes),
                 context={"conflict": conflict.view, "participant": me})
    return Counter(NPCMind(body, random.Random(s)).decide(q) for s in range(seeds))


def test_living_npcs_avoid_the_strongest_by_self_preservation():
    careful = _targets(npc("Nervous", "Self-Centred", "Health"))
    reckless = _targets(npc("Aggressive", "dark:Fanatic", "Faith"))
    assert careful["Small"] > careful["Big"]
    assert reckless["Big"] > careful["Big"]


# -- memory ----------------------------------------------------------------------------------------

def test_deeds_move_the_disposition_one_rung_per_point_of_regard():
    body = npc("Boring", "Indifferent", "Expertise", name="Ola")
    mem = NPCMemory()
    shift = mem.record(body, "helped")
    assert shift.before == "Neutral"
    assert mem.disposition("Ola") in ("Neutral", "Friendly")
    for _ in range(4):
        mem.record(body, "helped")
    assert mem.disposition("Ola") == "Affectionate"  # and it stops at the top
    for _ in range(10):
        mem.record(body, "humiliated")
    assert mem.disposition("Ola") == "Malicious"
    assert mem.record_of("Ola").count("humiliated") == 10


def test_warm_npcs_warm_faster_and_pride_feels_humiliation_more():
    warm = npc("Generous", "Cheerful").leanings()
    cold = npc("dark:Non-Empathic", "Bitter").leanings()
    assert deed_weight("helped", warm) > 1.0 > deed_weight("helped", cold) > 0
    assert deed_weight("humiliated", cold) < deed_weight("humiliated", warm) < 0
    assert deed_weight("humiliated", None, ("Status",)) == pytest.approx(1.5 * DEEDS["humiliated"].regard)
    proud = npc("Boring", "Indifferent", "Status", name="Proud")
    mem = NPCMemory()
    assert mem.record(proud, "humiliated").after == "Unfriendly"


def test_memory_round_trips_and_rejects_bad_data():
    mem = NPCMemory()
    body = npc(name="Kari")
    mem.record(body, "spared", note="let go at the bridge")
    mem.record("Stranger", "lied_to")
    data = mem.to_dict()
    again = NPCMemory.from_dict(data)
    assert again.to_dict() == data
    assert again.record_of("Kari").notes == ["let go at the bridge"]
    for bad in ({"version": 9}, {"npcs": []}, {"npcs": {"X": {"disposition": "Hateful"}}},
                {"npcs": {"X": {"deeds": {"kissed": 1}}}}, {"npcs": {"X": {"regard": 3}}}):
        with pytest.raises(ValueError):
            NPCMemory.from_dict(bad)
    with pytest.raises(KeyError):
        mem.record(body, "kissed")


def test_memory_colours_the_mind_facing_the_pcs():
    body = npc("Boring", "Indifferent", "Money", name="Nils")
    plain = NPCMind(body, random.Random(1)).leanings()
    mem = NPCMemory()
    mem.record(body, "spared")
    mem.record(body, "spared")
    spared = NPCMind(body, random.Random(1), memory=mem).leanings()
    assert spared.surrender_bias > plain.surrender_bias
    assert spared.lean["cruelty"] < plain.lean["cruelty"]
    mem.record(body, "lied_to")
    lied = NPCMind(body, random.Random(1), memory=mem).leanings()
    assert "bargain" in plain.on_break and "bargain" not in lied.on_break
    as_list = NPCMind(body, random.Random(1), memory=["spared", "spared", "lied_to"]).leanings()
    assert "bargain" not in as_list.on_break and as_list.surrender_bias > plain.surrender_bias


def test_an_npc_the_pcs_spared_surrenders_to_them_sooner_than_it_runs():
    def split(memory):
        yielded = Counter()
        for seed in range(8):
            body = npc("Shy", "Nervous", "Money", seed=seed, name="Tove")
            stats = run_duels(body, brute(), COMBAT, runs=25, seed=seed, memory=memory(body))
            yielded["surrendered"] += stats.outcomes["surrendered"]
            yielded["fled"] += stats.outcomes["fled"]
        return yielded["surrendered"] / max(1, yielded["surrendered"] + yielded["fled"])

    def spared_twice(body):
        mem = NPCMemory()
        mem.record(body, "spared")
        mem.record(body, "spared")
        return mem

    assert split(spared_twice) > split(lambda body: None) + 0.1


# -- reasons ---------------------------------------------------------------------------------------

def test_every_decision_is_an_event_with_a_reason():
    log = EventLog()
    body = npc("Aggressive", "Sadistic")
    mind = NPCMind(body, random.Random(3), sink=log, explain=True)
    me = from_character(body, "a", COMBAT, decider=mind)
    foe = from_character(brute("Foe", skill=50, pools=12), "b", COMBAT)
    Conflict(COMBAT, [me, foe], random.Random(3), round_limit=10).run()
    decisions = log.of("npc_decision")
    assert decisions and len(decisions) == len(mind.log)
    for e in decisions:
        assert {"actor", "question", "choice", "reason", "scores"} <= set(e.data)
        assert e["reason"] and e["actor"] == me.id
    lens = [e for e in decisions if e["question"] == "lens"]
    assert Counter(e["consideration"] for e in lens).most_common(1)[0][0] in ("temperament", "press")
    assert "Aggressive" in lens[0]["reason"] or "presses" in lens[0]["reason"]


def test_each_deed_reads_as_what_the_pcs_did_not_as_a_list_of_what_they_might_have():
    """An NPC's card read "remembers: you tried to stop her leaving: ran after her, or called her back" after a
    chase (a new player's run): the card says what was done, never a choice of two."""
    for deed in DEEDS.values():
        told = deed.told("she")
        assert told.startswith("you ") and ", or " not in told and ": " not in told, told
    assert DEEDS["chased"].told("she") == "you would not let her leave"


def test_a_mind_makes_its_words_only_for_a_sink_that_reads_them(monkeypatch):
    """An architecture audit: `solo odds --simulate 2000` built 3,132 morale clues and 1,405 break reasons, and a
    simulation published every decision's reason to a tally that only counts. Words are made where something
    renders them: a counting sink (detail = False) and no sink get none, and the dice go as before."""
    from solo.minds import npc as npc_module

    made = {"clue": 0, "broke": 0, "reason": 0}
    for name, key in (("_clue", "clue"), ("_broke", "broke"), ("_reason", "reason")):
        real = getattr(npc_module, name)

        def counted(*args, _real=real, _key=key, **kwargs):
            made[_key] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(npc_module, name, counted, raising=False)

    class Counting:
        detail = False

        def __init__(self):
            self.kinds = []

        def __call__(self, event):
            self.kinds.append(event.kind)

    def fights(sink_of) -> list:
        outcomes = []
        for seed in range(60):
            nervous = npc("Shy", "Nervous", "Money")
            mind = NPCMind(nervous, random.Random(seed), sink=sink_of())
            sides = [from_character(nervous, "a", COMBAT, decider=mind), from_character(brute(), "b", COMBAT)]
            result = Conflict(COMBAT, sides, random.Random(seed), round_limit=20).run()
            outcomes.append((result.outcome, result.rounds))
        return outcomes

    counted_sink = fights(Counting)
    assert made == {"clue": 0, "broke": 0, "reason": 0}
    assert fights(lambda: None) == counted_sink and made == {"clue": 0, "broke": 0, "reason": 0}
    assert fights(EventLog) == counted_sink  # the same fights, told
    assert made["clue"] > 0 and made["reason"] > 0


def test_a_creature_that_does_not_speak_breaks_without_words():
    """A reading of fights: Vellan's cannery dog "shouts for help and falls back", a yard dog "lowers its guard and
    offers to yield". One that does not speak howls, cringes or backs off; one that speaks says its piece."""
    from solo.minds.morale import CLUES, WORDLESS, clue

    for key, words in WORDLESS.items():
        assert clue(key, social=False, friends_here=False, speaks=False) == words
        assert clue(key, social=False, friends_here=False) == CLUES[key]
        assert not re.search(r"shout|offer|plead|deal|yield", words)
    assert clue("flee", social=False, friends_here=False, speaks=False) == CLUES["flee"]  # running needs no words

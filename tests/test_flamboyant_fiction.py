"""Flamboyant and Covert by the fiction (issue 27, point 3; docs/rulings.md "Flamboyant by the fiction")."""

from __future__ import annotations

import random

import pytest
from conftest import make_char

from solo.decisions import Question
from solo.events import EventLog
from solo.minds.bots import RandomDecider
from solo.minds.foresight import side_targets
from solo.minds.position import best_secondary
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import bundled_conflict_types, conflict_type, flourish_skills, parse_conflict_types
from solo.rules.fiction import Fiction
from solo.rules.lenses import LENS_TABLE
from solo.rules.participants import flamboyant_skills, from_character, obstacle

SKILLS = dict(Awareness=40, Combat=70, Cunning=45, Knowledge=80, Move=35, Science=60, Social=75, Tech=50,
              Willpower=30)


def _pair(ctype_key: str, decider=None):
    ctype = conflict_type(ctype_key)
    pc = make_char("Ingrid", **SKILLS)
    a = from_character(pc, "a", ctype, decider=decider)
    b = obstacle("Old lock") if ctype.static else from_character(make_char("Kjell", **SKILLS), "b", ctype,
                                                                 decider=decider)
    return ctype, a, b


def test_every_bundled_type_names_the_skills_a_flashy_move_fits():
    for key, ctype in bundled_conflict_types().items():
        assert ctype.flamboyant, key
        assert ctype.skill not in flourish_skills(ctype.flamboyant), key
    assert "Knowledge" not in flourish_skills(conflict_type("lockpicking").flamboyant)  # Knowledge picks no locks
    assert "Combat" not in flourish_skills(conflict_type("social").flamboyant)  # nor does Combat win an argument
    assert "Social" not in flourish_skills(conflict_type("tracking").flamboyant)  # no easy charm on a trail


@pytest.mark.parametrize("ctype_key", sorted(bundled_conflict_types()))
def test_the_menu_the_minds_and_the_odds_share_one_list(ctype_key):
    ctype, a, b = _pair(ctype_key)
    allowed = flamboyant_skills(a)
    assert allowed and set(allowed) <= set(flourish_skills(ctype.flamboyant)) and a.skill not in allowed
    assert allowed == sorted(allowed, key=lambda s: -SKILLS[s])  # best first
    assert best_secondary(a) == allowed[0]  # what the NPC mind shows off with
    conflict = Conflict(ctype, [a, b], random.Random(1))
    best = max(conflict.lens_target(a, "flamboyant", s)[0] for s in allowed)
    assert conflict.lens_target(a, "flamboyant")[0] == best  # the exact odds price the best that may be chosen
    assert side_targets(conflict.view, a)["flamboyant"] == best - a.carry


def test_a_player_is_offered_only_the_skills_that_fit():
    asked: list[Question] = []

    class Asking(RandomDecider):
        def decide(self, question):
            asked.append(question)
            if question.kind == "lens":
                return "flamboyant"
            return super().decide(question)

    for key in ("social", "combat", "tracking"):
        ctype, a, b = _pair(key)
        a.decider = Asking(random.Random(2))
        b.decider = RandomDecider(random.Random(3))
        log = EventLog()
        Conflict(ctype, [a, b], random.Random(4), sink=log, round_limit=2).run()
        shown = [q for q in asked if q.kind == "flamboyant_skill"]
        assert shown and all(set(q.keys()) == set(flamboyant_skills(a)) for q in shown), key
        assert all(e["secondary"] in flourish_skills(ctype.flamboyant)
                   for e in log.of("declare") if e["lens"] == "flamboyant")
        asked.clear()


def test_without_a_fitting_skill_flamboyant_is_not_offered():
    ctype = conflict_type("social")
    pc = make_char("Ingrid", Social=60)
    a = from_character(pc, "a", ctype)
    a.flourishes = ("Social",)  # only its own skill: nothing else fits
    assert flamboyant_skills(a) == []
    seen = []

    class Look:
        def decide(self, q):
            seen.append(q.keys())
            return q.keys()[0]

    a.decider = Look()
    b = from_character(make_char("Kjell", Social=50), "b", ctype, decider=RandomDecider(random.Random(1)))
    Conflict(ctype, [a, b], random.Random(1), round_limit=1).run()
    assert seen and "flamboyant" not in seen[0]
    assert "flamboyant" not in side_targets(Conflict(ctype, [a, b], random.Random(1)).view, a)


def test_hints_are_worded_per_type():
    ctype, a, b = _pair("sneaking")
    hint = Conflict(ctype, [a, b], random.Random(1)).lens_hint(a, "flamboyant")
    assert hint.startswith("a flashy move fits Awareness, Move") and "or CHA" in hint
    ctype, a, b = _pair("social")
    conflict = Conflict(ctype, [a, b], random.Random(1))
    assert "or CHA" not in conflict.lens_hint(a, "flamboyant")  # the Pool is CHA already
    assert "Combat" not in conflict.lens_hint(a, "flamboyant")
    ctype, a, b = _pair("lockpicking")
    covert = Conflict(ctype, [a, b], random.Random(1)).lens_hint(a, "covert")
    assert covert.startswith("here Cunning is not a trick but the skill") and "POW" not in covert  # a lock has none
    plain = Conflict(ctype, [a, b], random.Random(1)).lens_hint(a, "aggressive")
    assert plain == "-20 %, damage twice, keep the higher"


def test_the_last_rounds_menu_says_nothing_carries_into_a_next_round():
    """'Clever … an edge next round' offered in the last round of a limit (a new player's run): there the menu says
    the edge would never come, and a Lens's "won, the foe -20 % next round; not won, you -20 %" is not shown."""
    ctype, a, b = _pair("combat")
    conflict = Conflict(ctype, [a, b], random.Random(1), round_limit=3)
    conflict.round = 2
    assert conflict.lens_hint(a, "clever") == "no damage now, an edge next round"
    assert "won, the foe -20 % next round; not won, you -20 %" in conflict.lens_hint(a, "covert")
    conflict.round = 3
    assert conflict.lens_hint(a, "clever") == "no damage now, and its edge would come next round: this is the last"
    assert "next round" not in conflict.lens_hint(a, "covert") and "next round" not in conflict.lens_hint(
        a, "flamboyant")
    assert Conflict(ctype, [a, b], random.Random(1)).lens_hint(a, "clever") == "no damage now, an edge next round"


def test_a_type_file_is_checked_with_its_line():
    text = '[conflict_types.duel]\nname = "Duel"\nskill = "Combat"\npools = ["BODY"]\nflamboyant = ["Combat"]\n'
    from solo.toml_files import loads_toml

    _, problems = parse_conflict_types(loads_toml(text, file="c.toml"), "c.toml", text)
    assert problems and problems[0].line == 5 and "own skill" in problems[0].message
    text = text.replace('["Combat"]', '["Moves"]')
    _, problems = parse_conflict_types(loads_toml(text, file="c.toml"), "c.toml", text)
    assert problems and "unknown skill 'Moves'" in problems[0].message


def test_an_adventure_conflict_names_its_own_list(tmp_path):
    import shutil
    from pathlib import Path

    from click.testing import CliRunner

    from solo.cli import cli
    from solo.story.format.library import find_adventure
    from solo.story.play.actions import conflict_type_of

    class Game:
        conflict_types = bundled_conflict_types()

    assert conflict_type_of(Game, {"type": "combat", "flamboyant": ["Move"]}).flamboyant == ("Move",)
    assert conflict_type_of(Game, {"type": "combat"}) is bundled_conflict_types()["combat"]
    folder = tmp_path / "vellan"
    shutil.copytree(Path(find_adventure("vellan")), folder)
    day = folder / "day_two.toml"
    day.write_text(day.read_text(encoding="utf-8").replace('type = "sneaking"',
                                                           'type = "sneaking"\nflamboyant = ["Cunning"]'),
                   encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(folder)])
    assert result.exit_code != 0 and "flamboyant[0]" in result.output and "own skill" in result.output


@pytest.mark.parametrize("ctype_key,skill,fits,does_not", [
    ("social", "Cunning", "Gambling", "Lockpicking"),  # a bluff at cards wins a point; a picked lock does not
    ("combat", "Move", "Acrobatics", "Ride"),  # a leap from the table, not a horse in the hall
    ("tracking", "Science", "Survival", "Chemistry"),
    ("lockpicking", "Tech", "Mechanics", "Pilot"),
])
def test_only_the_focuses_a_flashy_move_fits_here_count(ctype_key, skill, fits, does_not):
    """A skill the conflict names with Focuses ("Cunning//Gambling") counts those alone: another Focus of it is a
    similar one, at -20, as everywhere (docs/rulings.md, "Covert and Flamboyant take a fitting Focus"). The
    roll, the menu's chance and the minds read the one target."""
    ctype = conflict_type(ctype_key)
    assert f"{skill}//{fits}" in ctype.flamboyant and f"{skill}//{does_not}" not in ctype.flamboyant
    for focus, counted in ((fits, 20), (does_not, 0)):
        pc = make_char("Ingrid", focuses={f"{skill}//{focus}": 20}, **SKILLS)
        a = from_character(pc, "a", ctype)
        b = obstacle("Old lock") if ctype.static else from_character(make_char("Kjell", **SKILLS), "b", ctype)
        conflict = Conflict(ctype, [a, b], random.Random(1))
        target, mods = conflict.lens_target(a, "flamboyant", skill)
        assert target == SKILLS[skill] + counted, focus
        assert [m[0] for m in mods if m[0].startswith("//")] == ([f"//{focus}"] if counted else []), focus
        assert a.rolled_value(LENS_TABLE["flamboyant"], skill) == target  # what the minds read


def test_a_skill_named_alone_lets_any_of_its_focuses_show_off():
    ctype = conflict_type("social")
    assert "Science" in ctype.flamboyant  # expertise of any kind, cited with a flourish
    pc = make_char("Ingrid", focuses={"Science//Chemistry": 20}, **SKILLS)
    a = from_character(pc, "a", ctype)
    b = from_character(make_char("Kjell", **SKILLS), "b", ctype)
    shown_off = Conflict(ctype, [a, b], random.Random(1)).lens_target(a, "flamboyant", "Science")[0]
    assert shown_off == SKILLS["Science"] + 20


@pytest.mark.parametrize("entry,said", [
    ('"Cunning//Lockpick"', "'Lockpick' is not a Focus of Cunning (did you mean 'Lockpicking'?)"),
    ('"Willpower//Person"', "//Person is never shown off"),
    ('"Move//Parkour"', "'Parkour' is not a Focus of Move (its Focuses: Acrobatics, Athletics, Brawn"),
    ('"Combat//Melee"', "own skill"),
    ("3", "expected a skill, or a skill and a Focus of it"),
])
def test_a_focus_in_a_types_list_is_checked_with_its_line(entry, said):
    text = ('[conflict_types.duel]\nname = "Duel"\nskill = "Combat"\npools = ["BODY"]\n'
            f'flamboyant = ["Move", {entry}]\n')
    from solo.toml_files import loads_toml

    _, problems = parse_conflict_types(loads_toml(text, file="c.toml"), "c.toml", text)
    assert problems and problems[0].line == 5 and "flamboyant[1]" in problems[0].path, problems
    assert said in problems[0].message, problems[0].message


def test_no_flourish_of_words_against_foes_none_of_whom_speaks():
    """Before, at Kaldskard's barrows (seed 21): the Lens menu marked "Flamboyant 50 % = Social 30 · //Deceit +20"
    best against the barrow-wights, and it was told as "all easy charm and swagger" to the mindless dead. A taunt
    or a charm needs someone to take it in: against foes none of whom speaks, Social is no flourish (docs/rulings.md,
    "Flamboyant by the fiction"); against a person it is, and the menu, the minds and the odds read one list."""
    ctype = conflict_type("combat")
    skills = dict(SKILLS, Social=90)  # the best flourish by far, where it fits
    for speaks in (True, False):
        a = from_character(make_char("Ingrid", **skills), "a", ctype, decider=RandomDecider(random.Random(1)))
        foe = make_char("Kjell" if speaks else "Barrow-wight", **SKILLS)
        b = from_character(foe, "b", ctype, decider=RandomDecider(random.Random(2)))
        if not speaks:
            b.fiction = Fiction(body="undead", speaks=False)  # as a mindless draugr's file gives it
        conflict = Conflict(ctype, [a, b], random.Random(3))
        shown = flamboyant_skills(a)
        assert ("Social" in shown) is speaks and shown and a.skill not in shown
        assert (best_secondary(a) == "Social") is speaks  # what a mind would show off with
        best = max(conflict.lens_target(a, "flamboyant", s)[0] for s in shown)
        assert side_targets(conflict.view, a)["flamboyant"] == best - a.carry  # the exact odds price the same
        assert ("Social" in conflict.lens_hint(a, "flamboyant")) is speaks  # the menu's words
    # the same participant in a later conflict against someone who speaks is offered Social again
    Conflict(ctype, [a, from_character(make_char("Kjell", **SKILLS), "b", ctype,
                                        decider=RandomDecider(random.Random(2)))], random.Random(4))
    assert "Social" in flamboyant_skills(a)


def test_a_side_pool_needs_a_mind_to_work_on():
    """Kaldskard's barrow-wights, which 'do not speak': the menu offered Covert "hit the Pool or POW", the player
    was asked "Which Pool do you hit? BODY 6 left / POW 8 left", and the story told "The second barrow-wight
    flinches from a blow that never comes, and Cato sees the nerve go". A mindless foe has no nerve to shake and
    no composure to lose (docs/rulings.md, "A side Pool needs a mind"): the blow goes to the conflict's Pool, and
    neither the menu nor the question offers another; a foe with a mind is still asked about."""
    from solo.decisions import DAMAGE_POOL, LENS
    from solo.npc import NPC

    ctype = conflict_type("combat")
    for mindless in (True, False):
        base = make_char("Wight", Combat=30)
        foe = NPC(**{f: getattr(base, f) for f in ("name", "skills", "pools", "focuses", "tags", "level")},
                  mindless=mindless)
        asked: list[str] = []

        class Covert(RandomDecider):
            def decide(self, question, asked=asked):
                asked.append(question.kind)
                if question.kind == LENS and "covert" in question.keys():
                    return "covert"
                return "POW" if question.kind == DAMAGE_POOL else super().decide(question)

        a = from_character(make_char("Cato", Combat=40, Cunning=90), "a", ctype, decider=Covert(random.Random(1)))
        b = from_character(foe, "b", ctype)
        conflict = Conflict(ctype, [a, b], random.Random(4), round_limit=6)
        hint = conflict.lens_hint(a, "covert")
        assert ("hit the Pool or POW" in hint) is not mindless, hint
        log = EventLog()
        conflict.sink = log
        conflict.run()
        hits = [e.data for e in log.events if e.kind == "damage" and e.data["actor"] == a.id]
        assert hits  # Cato landed blows
        assert (DAMAGE_POOL in asked) is not mindless
        assert {h["pool"] for h in hits} == ({"BODY"} if mindless else {"POW"})
        if mindless:
            assert foe.pools["POW"].current == foe.pools["POW"].maximum

"""The facts of the fiction (issue 27, points 1 and 7): one home, carried by the events, projected by the cast."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from conftest import make_char

from solo.errors import ContentError
from solo.events import Event, EventLog
from solo.minds.bots import RandomDecider
from solo.narration import Cast, Narrator, load_templates
from solo.npc.model import NPC
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.fiction import BODIES, Fiction, conflict_frame, fiction_of
from solo.rules.lenses import LENS_TABLE
from solo.rules.participants import from_character, obstacle

ROOT = Path(__file__).resolve().parents[1]


def _npc(**extra) -> NPC:
    data = {"name": "Warden", "skills": {"Combat": 40, "Awareness": 40, "Move": 30}, "pronoun": "it",
            "code_block": {"personality": ["Correct", "Reserved"], "motivation": ["Loiter"],
                           "disposition": "Neutral",
                           "event": {"topic": "Health", "sign": "negative", "example": "a bad knee"}}}
    data.update(extra)
    if data.get("mindless"):
        data.pop("code_block")
    return NPC.from_dict(data)


def _start(ctype_key: str, b, seed: int = 1, fiction=None):
    ctype = conflict_type(ctype_key)
    pc = make_char("Espen Lind", Combat=55, Move=50, Cunning=50, Awareness=50, Social=50)
    pc.pronoun = "he"
    a = from_character(pc, "a", ctype, decider=RandomDecider(random.Random(seed)))
    if not isinstance(b, type(a)):
        b = from_character(b, "b", ctype, decider=RandomDecider(random.Random(seed + 1)))
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(seed), sink=log, round_limit=8, fiction=fiction).run()
    return log


def test_defaults_come_from_the_role_and_mindlessness():
    draugr = _npc(name="Draugr", role="draugr", mindless=True)
    warden = _npc(role="Sentry automaton", mindless=True)
    beast = _npc(name="Wolf", mindless=True)
    clerk = _npc(name="Clerk")
    ctype = conflict_type("combat")
    facts = {n.name: fiction_of(from_character(n, "b", ctype)) for n in (draugr, warden, beast, clerk)}
    assert (facts["Draugr"].body, facts["Draugr"].speaks) == ("undead", False)
    assert (facts["Warden"].body, facts["Warden"].speaks) == ("machine", False)
    assert (facts["Wolf"].body, facts["Wolf"].speaks) == ("animal", False)
    assert (facts["Clerk"].body, facts["Clerk"].speaks) == ("flesh", True)
    lock = obstacle("Old lock")
    assert fiction_of(lock) == Fiction("object", False, None, "it")


def test_an_npc_file_says_more_and_round_trips():
    npc = _npc(role="Sentry automaton", mindless=True, weapon_called="iron hands", body="machine")
    assert (npc.body, npc.weapon_called) == ("machine", "iron hands")
    again = NPC.from_dict(npc.to_dict())
    assert (again.body, again.weapon_called, again.speaks) == ("machine", "iron hands", None)
    talking = _npc(body="machine", speaks=True)
    assert fiction_of(from_character(talking, "b", conflict_type("social"))).speaks is True


@pytest.mark.parametrize("field,value", [("body", "ghost"), ("speaks", "yes"), ("weapon_called", "{x}"),
                                         ("called", "{x}"), ("called", "x" * 41)])
def test_an_unknown_value_is_rejected(field, value):
    with pytest.raises(ContentError, match=field):
        _npc(**{field: value})


def test_solo_check_names_file_and_line_of_an_unknown_body(tmp_path):
    from click.testing import CliRunner

    from solo.cli import cli as main

    folder = tmp_path / "vellan"
    shutil.copytree(ROOT / "scenes" / "vellan", folder)
    npcs = folder / "npcs.toml"
    text = npcs.read_text(encoding="utf-8")
    assert 'body = "animal"' in text  # the dog
    npcs.write_text(text.replace('body = "animal"', 'body = "ghost"'), encoding="utf-8")
    line = next(i for i, t in enumerate(npcs.read_text(encoding="utf-8").splitlines(), 1) if "ghost" in t)
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code != 0
    assert f"npcs.toml:{line}:" in result.output and "unknown body 'ghost'" in result.output


def test_conflict_start_carries_each_participant_and_the_frame():
    log = _start("sneaking", _npc(name="Watchman"), fiction={"settings": ["harbour"]})
    start = log.of("conflict_start")[0]
    frame = start["frame"]
    assert frame["type"] == "sneaking" and frame["heard"] is False and frame["pursuit"] == "hide"
    assert frame["parts"] == {"a": "hider", "b": "seeker"}
    assert frame["present"] == ["Espen Lind", "Watchman"] and frame["settings"] == ["harbour"]
    assert frame["ends"]["a"][0] == "out" and "time" in frame["ends"]["b"]
    pc, npc = start["participants"]
    assert (pc["pronoun"], pc["body"], pc["speaks"], pc["heard"], pc["part"]) == ("he", "flesh", True, False, "hider")
    assert (npc["pronoun"], npc["traits"], npc["heard"]) == ("it", ["correct", "reserved"], False)
    assert npc["temper"] in ("fearful", "stubborn", None)


def test_a_chase_whose_quarry_is_the_party():
    log = _start("foot_chase", _npc(name="Watchman"), fiction={"pursuer": "b"})
    assert log.of("conflict_start")[0]["frame"]["parts"] == {"a": "quarry", "b": "pursuer"}
    cast = Cast()
    cast.begin(log.of("conflict_start")[0].data)
    assert cast.person("Espen Lind").role == "quarry" and cast.person("Watchman").role == "pursuer"


def test_out_exit_and_comae_say_whether_the_conflict_is_decided():
    seen = {}
    for seed in range(1, 40):
        log = _start("combat", _npc(name=f"Brakk{seed}"), seed)
        for e in log.events:
            if e.kind in ("out", "exit", "comae"):
                assert isinstance(e["decided"], bool)
                seen.setdefault(e["decided"], e.kind)
        for e in log.of("round_result"):
            assert e["damage"] == (e["winner"] is not None and e["lens"] != "clever")
    assert seen.keys() == {True} or seen.keys() == {True, False}


def test_the_cast_is_a_projection_of_conflict_start():
    """No name lookups: an NPC under its id, an obstacle's pronoun, a PC's "he", bodies and the frame."""
    warden = _npc(role="Sentry automaton", mindless=True, weapon_called="iron hands")
    ctype = conflict_type("combat")
    pc = make_char("Ingrid", Combat=50)
    pc.pronoun = "he"
    a = from_character(pc, "a", ctype, decider=RandomDecider(random.Random(1)))
    b = from_character(warden, "b", ctype, decider=RandomDecider(random.Random(2)), pid="warden")
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(3), sink=log, round_limit=3).run()
    cast = Cast()  # nothing given by hand
    cast.begin(log.of("conflict_start")[0].data)
    w = cast.person("warden")
    assert (w.body, w.voiced, w.pronoun, w.weapon_called) == ("machine", False, "it", "iron hands")
    assert cast.person("Ingrid").pronoun == "he" and cast.physical
    narrator = Narrator(load_templates(), random.Random(1))
    assert narrator.values(cast, w, cast.person("Ingrid"))["weapon"] == "iron hands"


def test_an_obstacle_named_in_the_plural_is_they_everywhere():
    from solo.story.play.actions import obstacle_of

    records = obstacle_of({"obstacle": {"name": "Parish records", "difficulty": "easy"}})
    assert records.pronoun == "they"
    log = _start("library", records)
    entry = log.of("conflict_start")[0]["participants"][1]
    assert (entry["pronoun"], entry["body"]) == ("they", "object")
    crowd = obstacle_of({"obstacle": {"name": "The mob", "body": "crowd", "pronoun": "they"}})
    assert fiction_of(crowd).body == "crowd" and crowd.pronoun == "they"


def test_every_lens_has_a_stance_and_the_narration_reads_it():
    from solo.narration.context import LENS_STANCE

    assert {lens.stance for lens in LENS_TABLE.values()} <= {"bold", "wary", "plain"}
    assert all(LENS_STANCE[k] == lens.stance for k, lens in LENS_TABLE.items())


def test_bodies_are_one_list():
    from solo.npc.roles import roles

    assert {r.body for r in roles().values()} - {None} <= set(BODIES)
    assert roles()["draugr"].body == "undead" and roles()["automaton"].body == "machine"


def test_a_beast_strikes_with_what_its_file_calls_its_weapon_on_the_table_too():
    """A player's run: the Vellan dog's round table said "Unarmed 1d3" beside a scene of its teeth. What the fiction
    calls its weapon names its blow on the table as in the narration; a person without one is still "Unarmed"."""
    dog = _npc(name="the cannery dog", mindless=True, weapon_called="teeth", body="animal")
    ctype = conflict_type("combat")
    pc = make_char("Ingrid", Combat=50)
    a = from_character(pc, "a", ctype, decider=RandomDecider(random.Random(1)))
    b = from_character(dog, "b", ctype, decider=RandomDecider(random.Random(2)), pid="dog")
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(3), sink=log, round_limit=3).run()
    struck = {e["actor"]: e["strikes_with"] for e in log.of("roll")}
    assert struck == {"dog": "Teeth", "Ingrid": "Unarmed"}, struck
    # a weapon in hand is the gear table's, whatever the words call it (one drawn with Quick is named as drawn)
    warden = _npc(weapon="axe", weapon_called="iron hands", mindless=True, body="machine")
    w = from_character(warden, "b", ctype, decider=RandomDecider(random.Random(2)), pid="warden")
    log = EventLog()
    Conflict(ctype, [from_character(pc, "a", ctype, decider=RandomDecider(random.Random(1))), w], random.Random(3),
             sink=log, round_limit=2).run()
    assert {e["strikes_with"] for e in log.of("roll") if e["actor"] == "warden"} == {"Axe"}
    # a trained hand is a weapon of its own, though its Focus is Unarmed (a review: "Unarmed 1d4" on the table)
    monk = _npc(weapon="martial arts")
    log = EventLog()
    Conflict(ctype, [from_character(pc, "a", ctype, decider=RandomDecider(random.Random(1))),
                     from_character(monk, "b", ctype, decider=RandomDecider(random.Random(2)), pid="monk")],
             random.Random(3), sink=log, round_limit=2).run()
    assert {(e["strikes_with"], e["damage"]) for e in log.of("roll") if e["actor"] == "monk"} == \
        {("Martial arts", "1d4")}


def test_the_round_table_shows_what_gear_adds_to_the_blow():
    """A player's run: the table said "Axe 1d6" while every blow's line added "+3 gear". The table's blow is the dice
    with what #Gear adds, as the lines count it; one without the Tag shows the dice alone."""
    ctype = conflict_type("combat")
    geared = make_char("Astrid Berg", Combat=50, tags=("Gear",))
    geared.weapon, geared.gear_bonus = "axe", 3
    plain = make_char("Signe Vik", Combat=50)
    plain.weapon = "axe"
    log = EventLog()
    Conflict(ctype, [from_character(geared, "a", ctype, decider=RandomDecider(random.Random(1))),
                     from_character(plain, "b", ctype, decider=RandomDecider(random.Random(2)))],
             random.Random(3), sink=log, round_limit=3).run()
    shown = {e["actor"]: e["damage"] for e in log.of("roll")}
    assert shown == {"Astrid Berg": "1d6+3", "Signe Vik": "1d6"}, shown
    assert {p["id"]: p["damage"] for p in log.of("conflict_start")[0]["participants"]} == shown


def test_a_weapon_drawn_with_quick_is_told_by_its_name_not_by_what_the_hands_were_called():
    """A review: a machine whose file calls its blows "iron hands" drew an axe with Quick; the table said "Axe" and
    the narration went on with its iron hands. The weapon drawn names its blows from then on, in both."""
    warden = _npc(weapon_called="iron hands", mindless=True, body="machine")
    ctype = conflict_type("combat")
    pc = make_char("Ingrid", Combat=50)
    log = EventLog()
    Conflict(ctype, [from_character(pc, "a", ctype, decider=RandomDecider(random.Random(1))),
                     from_character(warden, "b", ctype, decider=RandomDecider(random.Random(2)), pid="warden")],
             random.Random(3), sink=log, round_limit=1).run()
    narrator, cast = Narrator(load_templates(), random.Random(4)), Cast()
    narrator.narrate(log.of("conflict_start")[0], cast)
    person = cast.person("warden")
    assert narrator.values(cast, person)["weapon"] == "iron hands"
    narrator.narrate(Event("extra_action", {"round": 1, "actor": "warden", "action": "weapon:axe"}), cast)
    assert narrator.values(cast, person)["weapon"] == "axe"
    cast = Cast()  # the same, drawn as the round's extra action declared with Quick
    narrator.narrate(log.of("conflict_start")[0], cast)
    narrator.narrate(Event("declare", {"round": 1, "actor": "warden", "lens": "quick", "quick_action": "weapon:axe"}),
                     cast)
    assert narrator.values(cast, cast.person("warden"))["weapon"] == "axe"


def test_an_npc_the_story_calls_by_another_name_is_told_by_it():
    """A player's run: Vellan's shipowner is "Brekke" in every scene and was "Halvard" in every conflict, people going
    by their first name. ``called`` names him as the story does, in the narration and round trips through a file."""
    owner = _npc(name="Halvard Brekke", called="Brekke", pronoun="he")
    assert NPC.from_dict(owner.to_dict()).called == "Brekke"
    ctype = conflict_type("social")
    pc = make_char("Espen Lind", Social=50)
    log = EventLog()
    a = from_character(pc, "a", ctype, decider=RandomDecider(random.Random(1)))
    b = from_character(owner, "b", ctype, decider=RandomDecider(random.Random(2)), pid="brekke")
    Conflict(ctype, [a, b], random.Random(3), sink=log, round_limit=6).run()
    assert log.of("conflict_start")[0]["participants"][1]["called"] == "Brekke"
    narrator, cast = Narrator(load_templates(), random.Random(4)), Cast()
    told = " ".join(line for e in log.events for line in narrator.narrate(e, cast) if line)
    assert "Brekke" in told and "Halvard" not in told, told
    plain = Cast()  # one without: his first name, as before
    plain.begin({**log.of("conflict_start")[0].data, "participants": [
        {k: v for k, v in p.items() if k != "called"} for p in log.of("conflict_start")[0]["participants"]]})
    assert plain.person("brekke").name == "Halvard"


def test_a_person_weighed_as_an_obstacle_is_told_by_what_the_story_calls_him(tmp_path):
    """A review: Vellan's confrontation weighs Brekke as an obstacle, whose table did not take ``called``, so he was
    "Halvard Brekke" on every line of it and "Brekke" everywhere else. An obstacle's ``called`` is checked as an
    NPC's is and names it in the narration."""
    from solo.story.format.loader import read_adventure
    from solo.story.play.actions import obstacle_of

    ctype = conflict_type("social")
    wall = obstacle_of({"obstacle": {"name": "Halvard Brekke", "called": "Brekke", "pronoun": "he", "body": "flesh",
                                     "challenge": 60, "pool": 8}})
    assert wall is not None
    log = EventLog()
    Conflict(ctype, [from_character(make_char("Espen Lind", Social=50), "a", ctype,
                                    decider=RandomDecider(random.Random(1))), wall],
             random.Random(3), sink=log, round_limit=6).run()
    narrator, cast = Narrator(load_templates(), random.Random(4)), Cast()
    told = " ".join(line for e in log.events for line in narrator.narrate(e, cast) if line)
    assert "Brekke" in told and "Halvard" not in told, told
    source = tmp_path / "office.toml"
    for called, problem in (('"Brekke"', None), ('"{npc.x}"', "expected the name the narration calls it by")):
        source.write_text(f"""[adventure]\ntitle = "The office"\nstart = "office"
[scenes.office]\ntext = "An office."
[[scenes.office.choices]]\ntext = "Argue"\nconflict = {{ type = "social", obstacle = {{ name = "Halvard Brekke", \
called = {called}, pronoun = "he", body = "flesh", challenge = 60, pool = 8 }}, won = "end", lost = "end" }}
[scenes.end]\ntext = "Done."\nending = true\n""", encoding="utf-8")
        adventure, problems = read_adventure(source)
        errors = [(p.path, p.message) for p in problems if p.severity == "error"]
        if problem is None:
            assert adventure is not None and not errors, errors
        else:
            assert [path for path, _ in errors] == ["scenes.office.choices[0].conflict.obstacle.called"], errors
            assert problem in errors[0][1]


def test_nobody_surrenders_to_a_foe_that_cannot_take_it():
    """A GM's run: "The winch automaton takes Espen's surrender without a word", and `solo prove` priced the death
    ending at 100 % by giving up at once. Against mindless foes only (a machine, the dead, a beast with no Code
    Block) the Lens menu offers flight where the conflict has it, no surrender; against a foe with a mind, or
    beside one, both; and the proof's ways out are the menu's (docs/rulings.md, "A surrender needs someone")."""
    from conftest import Answers

    from solo.story.play.chances import _exits

    ctype = conflict_type("combat")
    offered = {}
    for foes in (("winch",), ("clerk",), ("winch", "clerk"), ("lock",)):
        made = {"winch": lambda: _npc(name="Winch", role="Winch automaton", mindless=True), "clerk": lambda: _npc(
            name="Clerk")}
        pc = make_char("Espen Lind", Combat=55, Move=50)
        menu = Answers(lens="flee")
        a = from_character(pc, "a", ctype, decider=menu)
        if foes == ("lock",):
            bs = [obstacle("Old lock")]
            kind = conflict_type("lockpicking")
            a = from_character(pc, "a", kind, decider=menu)
        else:
            kind = ctype
            bs = [from_character(made[f](), "b", kind, decider=RandomDecider(random.Random(i)))
                  for i, f in enumerate(foes)]
        Conflict(kind, [a, *bs], random.Random(1), round_limit=3).run()
        offered[foes] = {o.key for o in menu.asked[0].options} & {"flee", "surrender"}
        heard = any(b.takes_surrender for b in bs)
        assert {p.exit for p in _exits(kind, [], heard=heard)} == offered[foes], foes
    assert offered == {("winch",): {"flee"}, ("clerk",): {"flee", "surrender"},
                       ("winch", "clerk"): {"flee", "surrender"}, ("lock",): {"flee", "surrender"}}


def test_a_surrender_needs_a_foe_still_there_to_take_it_and_a_hunter_may_always_stop():
    """The review: once the clerk beside the winch has run, Espen was still offered his surrender, and "Winch takes
    Espen's surrender without a word" came back. And a PC chasing a mindless quarry had no way out at all: giving up
    a chase is stopping, as one walks away from a lock. The conflict's frame says what the menu offers."""
    from solo.rules.outcomes import FLED

    def exits(ctype_key: str, foes, pursuer: str = "a", gone=()):
        kind = conflict_type(ctype_key)
        pc = make_char("Espen Lind", Combat=55, Move=50)
        a = from_character(pc, "a", kind, decider=RandomDecider(random.Random(1)))
        bs = [from_character(f, "b", kind, decider=RandomDecider(random.Random(2))) for f in foes]
        conflict = Conflict(kind, [a, *bs], random.Random(1), round_limit=3, fiction={"pursuer": pursuer})
        frame = conflict_frame(kind, [a, *bs], round_limit=3, given={"pursuer": pursuer})  # as it starts
        for b in bs:
            if b.name in gone:
                b.status = FLED
        return {o.key for o in conflict._exit_options(a)}, "surrendered" in frame["ends"]["a"]

    winch = _npc(name="Winch", role="Winch automaton", mindless=True)
    wolf = _npc(name="Wolf", mindless=True)
    clerk = _npc(name="Clerk")
    assert exits("combat", [clerk, winch]) == ({"flee", "surrender"}, True)
    assert exits("combat", [clerk, winch], gone=("Clerk",))[0] == {"flee"}  # nobody left who can take it
    assert exits("combat", [winch]) == ({"flee"}, False)  # the frame's ends say what the menu offers
    assert exits("foot_chase", [wolf], pursuer="a") == ({"surrender"}, True)  # the hunter may stop
    assert exits("foot_chase", [wolf], pursuer="b") == (set(), False)  # the wolf's quarry must outrun it


def test_one_who_hunts_walks_away_from_the_hunt_and_does_not_flee_it():
    """A player's run, tracking the pilot's trail in the dunes: "8. Flee", from a trail of footprints. The side that
    gives chase or keeps watch has nothing to run from: its way out is named as walking away, on the menu and in the
    exit event the screen and the journal tell it from; the quarry still flees."""
    from conftest import Answers

    from solo.rules.conflict import EXIT_WORDS

    kind = conflict_type("tracking")
    named = {}
    for pursuer in ("a", "b"):
        menu = Answers(lens="flee")
        a = from_character(make_char("Espen Lind", Awareness=55, Move=50), "a", kind, decider=menu)
        b = from_character(_npc(name="Jonas"), "b", kind, decider=RandomDecider(random.Random(2)))
        log = EventLog()
        Conflict(kind, [a, b], random.Random(1), sink=log, round_limit=3, fiction={"pursuer": pursuer}).run()
        label = next(o.label for o in menu.asked[0].options if o.key == "flee")
        [gone] = [e for e in log.of("exit") if e["actor"] == "Espen Lind"]
        named[pursuer] = (label, gone["way"])
    assert named == {"a": (EXIT_WORDS["walk_away"][0], "walk_away"), "b": (EXIT_WORDS["flee"][0], "flee")}
    # the review: nor is a hunter offered Quick's "Try to get away", told as fleeing when it came off; its giving up
    # is stopping; and --explain and solo duel's table name it by its part too
    from solo.ui.describe import decision_words

    for pursuer, leaves, stop in (("a", False, "stop trying now, no roll"), ("b", True, "yield now, no roll")):
        a = from_character(make_char("Espen Lind", Awareness=55, Move=50), "a", kind,
                           decider=RandomDecider(random.Random(1)))
        b = from_character(_npc(name="Jonas"), "b", kind, decider=RandomDecider(random.Random(2)))
        conflict = Conflict(kind, [a, b], random.Random(1), round_limit=3, fiction={"pursuer": pursuer})
        assert any(o.key == "leave" for o in conflict.quick_options(a)) == leaves, pursuer
        assert next(o.detail for o in conflict._exit_options(a) if o.key == "surrender") == stop, pursuer
    frame = {"static": False, "social": False, "physical": False, "parts": {"a": "pursuer", "b": "quarry"}}
    chose = Event("npc_decision", {"actor": "x", "choice": "flee"})
    assert (decision_words(chose, frame, "a"), decision_words(chose, frame, "b")) == ("walk away", "flee")


def test_one_gives_up_on_a_lock_and_yields_to_someone():
    """A player's run: the registry's ledgers offered "Give up · yield now, no roll". Against a lock or an archive
    one stops trying; one yields to someone."""
    from conftest import Answers

    details = {}
    for key, foe in (("lockpicking", obstacle("Old lock")), ("social", None)):
        kind = conflict_type(key)
        menu = Answers(lens="surrender")
        a = from_character(make_char("Espen Lind", Cunning=50, Social=50), "a", kind, decider=menu)
        b = foe if foe is not None else from_character(_npc(name="Clerk"), "b", kind,
                                                       decider=RandomDecider(random.Random(2)))
        Conflict(kind, [a, b], random.Random(1), round_limit=3).run()
        details[key] = next(o.detail for o in menu.asked[0].options if o.key == "surrender")
    assert details == {"lockpicking": "stop trying now, no roll", "social": "yield now, no roll"}


def test_a_sneak_past_a_thing_offers_walking_away_and_stopping_not_flight_and_a_surrender():
    """A player's Kaldskard: sneaking past the barrow-field offered "8. Flee · leave the conflict now" and "9. Give
    up · yield now, no roll", with nobody there to flee from or yield to. Against things only, the menu is a lock's;
    and one who leaves it is said to walk away."""
    from conftest import Answers

    from solo.rules.conflict import FLEE

    for kind, leave in ((conflict_type(k), way) for k in ("sneaking", "combat") for way in ("flee", "surrender")):
        # (a fight against a barricade too: nobody there takes a surrender, a review)
        menu = Answers(lens=leave)
        a = from_character(make_char("Espen Lind", Cunning=50, Move=50), "a", kind, decider=menu)
        events = []
        Conflict(kind, [a, obstacle("the barrow-field", "easy")], random.Random(1), round_limit=3,
                 sink=events.append).run()
        exits = {o.key: (o.label, o.detail) for o in menu.asked[0].options if o.key in (FLEE, "surrender")}
        assert exits == {FLEE: ("Walk away", "leave it now, no roll"),
                         "surrender": ("Give up", "stop trying now, no roll")}
        [gone] = [e for e in events if e.kind == "exit"]
        assert gone["way"] == ("walk_away" if leave == "flee" else "give_up")

"""A party in an adventure: text that reads right for one PC or several, and who takes part in a conflict.

The adventure is tests/data/format/party.toml; docs/adventures.md ("A party's line-up", "Text slots")
says what is tested here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solo.events import EventLog
from solo.rules.conflict import Conflict
from solo.rules.creation import pregenerated
from solo.rules.participants import from_character, obstacle
from solo.story.format.loader import load_adventure, read_adventure
from solo.story.format.text import fill
from solo.story.play.advice import LensAdvisor
from solo.story.play.conflict_roles import ASSIST_BONUS, MAX_ASSIST, Roles, default_roles
from solo.story.play.engine import Game

PARTY = Path(__file__).parent / "data" / "format" / "party.toml"


def pc(name: str, **skills: int):
    char = pregenerated("espen")
    char.name = name
    char.skills.update(skills)
    return char


class Answers:
    """Answers by question kind from lists, in order; a Lens question keeps "none"; anything else its default
    or last option. Every question is kept in ``asked``."""

    def __init__(self, **answers: list[str]):
        self.answers = {k: list(v) for k, v in answers.items()}
        self.asked: list = []

    def decide(self, question):
        self.asked.append(question)
        if self.answers.get(question.kind):
            return self.answers[question.kind].pop(0)
        if question.kind == "lens":
            return "none"
        if question.kind in ("luck_flip", "luck_reduce"):
            return "no"
        return question.default or question.options[-1].key


def crack_the_door(party, seed=3, advise=False, **answers):
    """Play the yard's lock conflict (choice 4) with ``party``; the game, the events and the decider."""
    log = EventLog()
    decider = Answers(choice=["c4", "c1"], **answers)
    game = Game(load_adventure(PARTY), seed=seed, decider=decider, sink=log, party=party, advise=advise)
    game.play()
    return game, log.events, decider


def test_the_party_adventure_loads_clean():
    adventure, problems = read_adventure(PARTY)
    assert problems == [], "\n".join(map(str, problems))


def test_one_takes_part_one_assists_one_sits_out():
    party = [pc("Signe"), pc("Espen"), pc("Ada")]
    before = {c.name: {k: p.current for k, p in c.pools.items()} for c in party}
    game, events, decider = crack_the_door(party, lineup=["choose"], part=["in", "assist", "out"],
                                           who=["Signe"])
    roles = next(e.data for e in events if e.kind == "conflict_roles" and e.data["type"] == "lockpicking")
    assert roles == {"type": "lockpicking", "taking_part": ["Signe"], "assists": {"Espen": "Signe"},
                     "sitting_out": ["Ada"], "driver": None}
    lock = [e for e in events if e.kind == "roll" and e.data["actor"] != "Olav Rud"]
    lock = lock[:next(i for i, e in enumerate(lock) if e.data["skill"] == "Tech")]  # the lock, not the chase
    assert {e.data["actor"] for e in lock} == {"Signe", "the strongroom door"}
    for e in lock:
        if e.data["actor"] == "Signe":
            assert ["Espen assists", ASSIST_BONUS] in e.data["modifiers"]
            assert e.data["target"] == e.data["base"] + sum(v for _, v in e.data["modifiers"])
    # neither the assistant nor the one who sat out took a blow (nor rode anything but the passenger seat after)
    for char in game.state.party[1:]:
        assert {k: p.current for k, p in char.pools.items()} == before[char.name]
    struck = {e.data["target"] for e in events if e.kind == "damage"}
    assert "Signe" in struck and not struck & {"Espen", "Ada"}


def test_the_odds_shown_are_those_of_the_participants_with_their_assistance():
    party = [pc("Signe"), pc("Espen"), pc("Ada")]
    game, events, decider = crack_the_door(party, advise=True, lineup=["choose"], part=["in", "assist", "out"],
                                           who=["Signe"])
    first_lens = next(q for q in decider.asked if q.kind == "lens")
    shown = {o.key: o.detail for o in first_lens.options}
    view = first_lens.context["conflict"]
    assert [p.name for p in view.participants if p.side == "a"] == ["Signe"]

    def advice(bonus: int) -> str:
        me = from_character(pc("Signe"), "a", game.conflict_types["lockpicking"])
        me.add_bonus(bonus, "help")
        door = obstacle("the strongroom door", "normal", challenge=40, pool=6)
        conflict = Conflict(game.conflict_types["lockpicking"], [me, door], __import__("random").Random(0),
                            round_limit=8)
        return LensAdvisor()(conflict.view, me)["none"]

    assert advice(ASSIST_BONUS) in shown["none"]
    assert advice(0) not in shown["none"]  # without the assistant the odds would read otherwise


def test_everyone_takes_part_when_the_party_says_so():
    game, events, decider = crack_the_door([pc("Signe"), pc("Espen")], lineup=["all"], who=["Signe"])
    assert not any(q.kind == "part" and "Cunning" in str(q.options) for q in decider.asked)
    first_round = [e.data["actor"] for e in events if e.kind == "roll" and e.data["round"] == 1]
    assert {"Signe", "Espen", "the strongroom door"} <= set(first_round)


def test_the_last_pc_takes_part_when_nobody_else_does():
    game, events, decider = crack_the_door([pc("Signe"), pc("Espen")], lineup=["choose"], part=["assist"],
                                           who=["Signe"])
    parts = [q for q in decider.asked if q.kind == "part"]
    assert [q.actor for q in parts][:1] == ["Signe"]  # Espen, last, was not asked: he had to
    roles = next(e.data for e in events if e.kind == "conflict_roles")
    assert roles["taking_part"] == ["Espen"] and roles["assists"] == {"Signe": "Espen"}
    # and the table is told why Espen's player was never asked (a hot-seat group's run: no word of it)
    from solo.ui.describe import conflict_roles

    assert conflict_roles(roles) == "Nobody else takes part, so Espen does; Signe assists Espen."


def test_a_solo_pc_is_not_asked_who_takes_part():
    game, events, decider = crack_the_door([pc("Signe")])
    assert not any(q.kind in ("lineup", "part", "assist") for q in decider.asked)
    assert not any(e.kind == "conflict_roles" for e in events)


def test_one_pc_drives_the_vehicle_and_the_others_do_not_roll():
    party = [pc("Signe"), pc("Espen", Tech=60), pc("Ada")]
    game, events, decider = crack_the_door(party, lineup=["all"], who=["Espen"], part=["assist", "out"])
    driver = next(q for q in decider.asked if q.kind == "who")
    assert driver.prompt == "Who drives the watchman's van?"
    wheel = {o.key: o.chance for o in driver.options}["Espen"]  # each driver's skill, as the roll takes it
    assert wheel.skill == "Tech" and wheel.base == 60
    chase = [q for q in decider.asked if q.kind == "part" and "Chase" in q.prompt]
    assert [q.actor for q in chase] == ["Signe", "Ada"]
    assert all("in" not in q.keys() for q in chase)  # a passenger cannot take the wheel too
    roles = next(e.data for e in events if e.kind == "conflict_roles" and e.data["type"] == "car_chase")
    assert roles == {"type": "car_chase", "taking_part": ["Espen"], "assists": {"Signe": "Espen"},
                     "sitting_out": ["Ada"], "driver": "Espen"}
    from solo.ui.describe import conflict_roles  # the menu said "Ride along": so does the line-up (a group's run)
    assert conflict_roles(roles) == "Espen drives; Signe assists Espen; Ada rides along."
    assert conflict_roles({**roles, "driver": None, "taking_part": ["Espen"]}).endswith("; Ada sits it out.")
    chase_rolls = {e.data["actor"] for e in events if e.kind == "roll" and e.data["skill"] == "Tech"}
    assert chase_rolls <= {"Espen", "Olav Rud"} and "Espen" in chase_rolls


def test_nobody_asked_the_best_driver_drives_and_assistance_is_capped():
    ctype = load_and_types()["car_chase"]
    pcs = [pc("Signe"), pc("Espen", Tech=60), pc("Ada"), pc("Bo")]
    roles = default_roles(pcs, ctype, "the van")
    assert roles.driver == "Espen" and roles.taking_part == ("Espen",)
    assert roles.bonus_for("Espen") == MAX_ASSIST < ASSIST_BONUS * 3
    assert default_roles(pcs, ctype, None) == Roles(("Signe", "Espen", "Ada", "Bo"))


def load_and_types():
    game = Game(load_adventure(PARTY), seed=1, decider=Answers())
    return game.conflict_types


@pytest.mark.parametrize(("size", "expected"), [
    (1, "You wait in the yard behind the bank. Signe has the lantern shuttered, and nobody has seen yourself yet. "
        "Keep quiet."),
    (2, "You both wait in the yard behind the bank. Signe and Espen have the lanterns shuttered, and nobody has "
        "seen yourselves yet. Keep together."),
    (3, "You all wait in the yard behind the bank. Signe, Espen and Ada have the lanterns shuttered, and nobody "
        "has seen yourselves yet. Keep together."),
])
def test_party_slots_read_right_for_one_pc_or_several(size, expected):
    log = EventLog()
    party = [pc("Signe"), pc("Espen"), pc("Ada")][:size]
    game = Game(load_adventure(PARTY), seed=1, decider=Answers(choice=["c5"]), sink=log, party=party)
    game.play()
    entered = next(e.data for e in log.events if e.kind == "scene_entered")
    assert fill(entered["text"], entered["slots"]).strip() == expected


@pytest.mark.parametrize(("size", "expected"), [
    (2, "Espen goes under, and Signe hauls him out."),
    (3, "Espen goes under, and Signe and Ada haul him out."),
])
def test_others_names_the_party_but_the_one_who_acts(size, expected):
    """Kaldskard's ford read "the other hauls her out" where the one who did has a name."""
    party = [pc("Signe"), pc("Espen"), pc("Ada")][:size]
    game = Game(load_adventure(PARTY), seed=1, decider=Answers(choice=["c5"]), party=party)
    game.play()
    game.state.active = 1  # Espen acted
    text = "{pc} goes under, and {if party_size() > 2}{others} haul{else}{others} hauls{end} {them} out."
    assert fill(text, game.slots(), game.context()) == expected


def test_text_filled_from_slots_without_a_party_size_reads_as_for_one_pc():
    assert fill("{You} and {yourself}; {each.pocket} {verb.goes}", {"party": "Signe"}) == \
        "You and yourself; pocket goes"
    assert fill("{Each.bed}", {"party_size": 2}) == "Beds"


@pytest.mark.parametrize(("text", "problem"), [
    ("{yuo} wait", "unknown slot {yuo} (did you mean 'you'?"),
    ("{each.} wait", "takes one plain word"),
    ("{each.two words} wait", "takes one plain word"),
    ("{verb.go3s} wait", "takes one plain word"),
    # a verb for the party after the PC's pronoun or name: "he go" for two PCs, "they goes" for one called they
    ("{they} {verb.wait} in the yard", "{verb.wait} agrees with {party}, not with {they}"),
    ("{They} {verb.wait}", "{verb.wait} agrees with {party}, not with {They}"),
    ("{pc} {verb.waits} in the yard", "{verb.waits} agrees with {party}, not with {pc}: it reads 'Jonas go'"),
    ("{You} {verb.wait} in the yard", "{verb.wait} agrees with {party}, not with {You}: it reads 'you goes'"),
    # a few words of the same clause between, or an NPC as the subject, read wrong the same way
    ("{pc}'s legs {verb.give} out", "{verb.give} agrees with {party}, not with {pc}'s legs"),
    ("{pc} quietly {verb.waits}", "{verb.waits} agrees with {party}, not with {pc} quietly"),
    ("{npc.watchman} {verb.waits} in the yard", "{verb.waits} agrees with {party}, not with {npc.watchman}: it reads "
                                             "'Gudrun go'"),
    ("{others} {verb.haul} him out", "{verb.haul} agrees with {party}, not with {others}: it reads 'Signe go'"),
])
def test_the_checker_names_a_party_slot_it_cannot_fill(tmp_path, text, problem):
    path = tmp_path / "a.toml"
    path.write_text(PARTY.read_text().replace("{You} wait in the yard", text))
    _, problems = read_adventure(path)
    assert any(p.code == "E008" and problem in p.message and p.path == "scenes.yard.text" for p in problems), \
        [str(p) for p in problems]


def test_a_verb_for_the_party_after_the_party_is_accepted(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text(PARTY.read_text().replace("{You} wait in the yard", "{party} {verb.waits} in the yard, and {pc} "
                                              "waits longest; {pc} watches as {party} {verb.goes}. {pc} looks. "
                                              "All {verb.wait}"))
    _, problems = read_adventure(path)
    assert not [p for p in problems if p.code == "E008"], [str(p) for p in problems]


def test_party_slots_are_refused_in_a_story_without_a_pc(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('[adventure]\ntitle = "T"\npc = false\nstart = "a"\n'
                    '[scenes.a]\ntext = "{You} look at {each.door}."\nending = true\n')
    _, problems = read_adventure(path)
    assert sorted(p.message.split(" ")[0] for p in problems if p.code == "E008") == ["{You}", "{each.door}"]


def test_a_vehicle_is_one_short_line(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text(PARTY.read_text().replace('vehicle = "the watchman\'s van"', f'vehicle = "{"van " * 20}"'))
    _, problems = read_adventure(path)
    assert [p.path for p in problems] == ["scenes.strongroom.choices[0].conflict.vehicle"]


def test_a_conflicts_settings_reach_the_narration_and_draw_its_lines():
    from solo.narration import Narrator, load_templates, narrate_events

    adventure = load_adventure(PARTY)
    log = EventLog()
    Game(adventure, seed=2, decider=Answers(choice=["c2", "c3", "c1"]), sink=log, party=[pc("Signe")]).play()
    stakes = next(e.data for e in log.events if e.kind == "conflict_stakes")
    assert stakes["settings"] == ["village"]
    chase = [e for e in log.events if e.kind in ("conflict_stakes", "conflict_start")]
    templates = load_templates(extra_data=[(adventure.source, adventure.templates)])
    village = "rattle over the cobbles"

    def openings(events) -> list[str]:
        return [" ".join(line for p in narrate_events(events, Narrator(templates, __import__("random").Random(s)))
                         for line in p.lines) for s in range(40)]

    assert any(village in text for text in openings(chase))
    unset = [type(e)(e.kind, {k: ({**v, "settings": []} if k == "frame" else v) for k, v in e.data.items()
                              if k != "settings"}) for e in chase]  # conflict_start's frame carries them too
    assert not any(village in text for text in openings(unset))  # the line is for the village only


def test_a_party_game_plays_the_same_with_the_odds_shown_or_not():
    """The odds a party's Lens menu shows in a fight of several (the engine's own copies of the fight, played out)
    draw nothing from the game's dice: the same seed and answers give the same rolls, blows and ending with the
    odds worked out and without (the stored party transcripts are played without them, for speed)."""
    def played(advise: bool):
        party = [pc("Signe"), pc("Espen"), pc("Ada")]
        game, events, decider = crack_the_door(party, advise=advise, lineup=["choose"], part=["in", "in", "out"],
                                               who=["Signe"])
        lenses = [q for q in decider.asked if q.kind == "lens"]
        kept = [(e.kind, e.data) for e in events if e.kind in ("roll", "damage", "round_result", "conflict_end",
                                                                 "scene_entered", "ending")]
        return kept, lenses, game.state.to_dict()

    with_odds, asked, state = played(True)
    without, _, plain_state = played(False)
    assert any("tries" in o.detail for q in asked for o in q.options)  # the copies were played: an estimate shown
    assert with_odds == without and state == plain_state


@pytest.mark.parametrize(("text", "warned"), [
    ("{others} hauls {them} out.", True),
    ("{if party_size() > 2}{others} haul{else}{others} hauls{end} {them} out.", True),  # one PC: the else side
    ("{if party_size() > 1}{if party_size() > 2}{others} haul{else}{others} hauls{end} {them} out.{end}", False),
    ("{if party_size() > 1}{others} keep watch.{else}You wait alone.{end}", False),
    # the review: the direction of the test counts, not that it names party_size()
    ("{if party_size() < 2}You haul yourself out.{else}{others} haul {pc} out.{end}", False),
    ("{if party_size() == 1}{others} wave.{end}", True),
    ("{if not party_size() > 1}{others} wave.{end}", True),
    ("{if party_size() >= 2 and flag_a}{others} wave.{end}", False),
    ("{if party_size() > 1 or flag_a}{others} wave.{end}", True),  # a flag alone shows it to one PC
    ("{if flag_a}{others} wave.{end}", True),
])
def test_others_where_one_pc_would_read_it_is_warned(tmp_path, text, warned):
    """{others} names nobody when one PC plays: " hauls them out" (the review)."""
    path = tmp_path / "adv.toml"
    path.write_text(PARTY.read_text().replace('text = "Ledgers, a cash box', f'text = "{text} Ledgers, a cash box'))
    _, problems = read_adventure(path)
    assert any(p.code == "W109" for p in problems) is warned, [str(p) for p in problems]


@pytest.mark.parametrize(("text", "warned"), [
    ("The cleft is empty. {you} stand in the snow.", True),  # Kaldskard's second visit to the cleft read so
    ('"Go," she says. {they} go.', True),
    ('"Go!" {you} shout.', False),  # speech tagged after its "!" goes on in lower case (the review)
    ('"Go." {you} shout.', True),
    ("{you} wait.", True),  # the start of the text begins a sentence too
    ("Pieces of proof lie here? {each.bed} stand cold.", True),
    ("{them} we know.", False),  # no {Them} to write: not warned (the review)
    ("The cleft is empty. {You} stand in the snow.", False),
    ("The cleft is empty, and {you} stand in the snow.", False),
    ("{if party_size() > 1}Both{else}One{end} of {you} waits.", False),
    ("{if flag_a}It snows.{end} {you} wait.", False),  # a run after an {end} may go on a sentence
    ("It snows. {if flag_a}{you} wait.{end}", True),  # an {if} side that opens a sentence (the review)
    ("{if flag_a}{you} wait.{else}Nobody waits.{end}", True),
    ("It snows, and {if flag_a}{you} wait{else}nobody waits{end}.", False),
    ("{pc} waits. {npc.watchman} nods.", False),  # names carry their own capital
])
def test_a_lower_case_slot_that_begins_a_sentence_is_warned(tmp_path, text, warned):
    """Kaldskard's cleft, met a second time, read "...as empty as you left it. you stand in the trampled snow"."""
    problems = _problems_with_text(tmp_path, text)
    assert any(p.code == "W110" for p in problems) is warned, [str(p) for p in problems]


def _problems_with_text(tmp_path, text: str) -> list:
    """What checking the party adventure finds once ``text`` opens one of its scene texts."""
    path = tmp_path / "adv.toml"
    path.write_text(PARTY.read_text().replace('text = "Ledgers, a cash box',
                                                'text = "' + text.replace('"', '\\"') + ' Ledgers, a cash box'))
    return read_adventure(path)[1]


@pytest.mark.parametrize(("ctype_key", "words"), [("lockpicking", "walks away"), ("combat", "flees")])
def test_one_who_leaves_a_static_obstacle_walks_away_on_screen_and_in_the_journal(ctype_key, words):
    """A group's run: Cy chose "8. Walk away" at Brekke's desk (an obstacle) and the log said "Edvin Lie flees."
    The screen and the journal say the leaving as the menu offered it."""
    import io
    import random

    from conftest import Answers, make_char
    from rich.console import Console

    from solo.events import EventLog
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.participants import from_character, obstacle
    from solo.ui.journal import Journal
    from solo.ui.view import TerminalView

    ctype = conflict_type(ctype_key)
    ada = make_char("Ada", Combat=50, Tech=50)
    a = from_character(ada, "a", ctype, decider=Answers(lens="flee", luck_flip="no", luck_reduce="no"))
    b = obstacle("Old lock", "hard") if ctype.static else from_character(make_char("Brakk", Combat=50), "b", ctype)
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(1), sink=log, round_limit=3).run()
    journal, out = Journal(), io.StringIO()
    view = TerminalView(Console(file=out, width=120, color_system=None))
    for e in log.events:
        journal.render(e)
        view.render(e)
    assert f"- Ada {words}." in journal.text() and f"Ada {words}." in out.getvalue()
    # and the conflict's end says it alike (the review: "you fled" on screen and "over, fled" in the journal)
    ended = "walked away" if words == "walks away" else "fled"
    assert f"The conflict is over: you {ended}." in out.getvalue()
    assert f", {ended}." in journal.text() and f": {ended}" in "\n".join(journal.recap())


def test_a_random_pc_is_named_apart_from_the_story_and_says_who_plays_it():
    """A group's run: Cy's random character was "Edvin Lie", beside Vellan's bookkeeper Aron Lie, and its card had
    no "played by Cy". A random PC's name shares no word with the adventure's people or the party, drawn again from
    dice of its own (the game's go on as before), and the card shown when it is made names its player."""
    import copy

    from solo.rules.creation import build_character, random_choices
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import make_pc

    vellan = load_adventure(find_adventure("vellan"))
    people = {w.lower() for d in vellan.npcs.values() for w in str(d.data.get("name", "")).split()}

    class Random:
        def decide(self, question):
            return "random" if question.kind == "pc_source" else question.default or question.options[0].key

    renamed = 0
    for seed in range(120):
        log = EventLog()
        game = Game(vellan, seed=seed, decider=Random(), sink=log)
        raw = build_character(random_choices(copy.deepcopy(game.rng))).name
        before = copy.deepcopy(game.rng)
        pc = make_pc(game, "Cy", taken={"Espen Lind"})
        assert not {w.lower() for w in pc.name.split()} & (people | {"espen", "lind"}), (seed, pc.name)
        card = next(e.data["character"] for e in log.events if e.kind == "new_character")
        assert card["player"] == "Cy" and card["name"] == pc.name
        if raw != pc.name:
            renamed += 1
            build_character(random_choices(before))
            assert before.getstate() == game.rng.getstate()  # the game's dice drew what they drew before
            old = Game(vellan, seed=seed, decider=Random(), sink=EventLog())
            old.edition = 1  # a save's game of edition 1 keeps the name its answers were given under (the review),
            then = build_character(random_choices(copy.deepcopy(old.rng), fitted=False)).name  # and its draws
            assert make_pc(old, "Cy", taken={"Espen Lind"}).name == then
    assert renamed >= 3


class Table:
    """Players at one keyboard setting up a party: ``size`` of them, each seat's name (``players``; "", or none
    left, presses Enter), what each seat plays (``sources``: "pregen", "new", "random" or a roster entry's key),
    each new character's name (``names``); anything else its default. Every name prompt asked is kept."""

    def __init__(self, size, *, players=(), sources=(), names=()):
        self.size, self.players, self.sources, self.names = size, list(players), list(sources), list(names)
        self.prompts: list[str] = []

    def decide(self, question):
        if question.kind == "party_size":
            return str(self.size)
        if question.kind in ("player", "name"):
            self.prompts.append(question.prompt)
            queue = self.players if question.kind == "player" else self.names
            return (queue.pop(0) if queue else "") or question.default  # none left: Enter
        if question.kind == "pc_source":
            return self.sources.pop(0)
        return question.default or (question.options[0].key if question.options else "x")


def test_a_seat_left_unnamed_keeps_the_player_its_roster_character_names(tmp_path):
    """A group's evening: Alma was made with --player Cy; at "Player 2, what is your name? (Enter for Player 2)" the
    table pressed Enter and chose Alma, and her file then said player = "Player 2". A seat's own offered name gives
    way to the player the roster file names; a name typed at that seat is kept."""
    from solo.characters import read_roster, save_character
    from solo.rules.creation import pregenerated
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import make_party

    alma = pregenerated("espen")
    alma.name, alma.player = "Alma Myhre", "Cy"
    save_character(alma, tmp_path / "alma_myhre.toml")
    roster = read_roster(tmp_path)
    [entry] = roster.entries

    kaldskard = load_adventure(find_adventure("kaldskard"))
    for names, expected in ((["", ""], ["Player 1", "Cy"]), (["", "Ragna"], ["Player 1", "Ragna"]), ([""], ["Cy"])):
        # the first seat a random character, the second Alma (alone: Alma)
        table = Table(len(names), players=names, sources=["random"] * (len(names) - 1) + [entry.key])
        game = Game(kaldskard, seed=3, decider=table, sink=EventLog())
        game.roster = roster.fresh()
        party = make_party(game)
        assert [pc.player for pc in party] == expected  # alone, nobody is asked a name: the file's stays (the review)


def test_the_line_up_shows_a_skill_taken_apart_where_a_focus_moves_it():
    """A group's evening: "Take part  Cunning 50 %" for Kjell, whose Cunning is 30 and 50 with //Stealth; the Lens
    menu right after said "70 % = Cunning 30 · //Stealth +20 · …". The line-up takes the number apart as that menu
    does where a Focus (or a wound) moves it, and says the bare skill where nothing does."""
    signe, espen, ada = pc("Signe", Cunning=30), pc("Espen", Cunning=30), pc("Ada", Cunning=45)
    signe.focuses = {**signe.focuses, "Cunning//Lockpicking": 20}
    espen.focuses = {k: v for k, v in espen.focuses.items() if not k.startswith("Cunning//")}
    ada.focuses = {k: v for k, v in ada.focuses.items() if not k.startswith("Cunning//")}
    _, _, decider = crack_the_door([signe, espen, ada], lineup=["choose"], part=["in", "assist", "out"],
                                   who=["Signe"])
    from solo.ui.describe import chance_text

    shown = {q.actor: next(chance_text(o.chance) for o in q.options if o.key == "in") for q in decider.asked
             if q.kind == "part" and any(o.key == "in" for o in q.options)}
    assert shown["Signe"] == "50 % = Cunning 30 · //Lockpicking +20"
    assert shown["Espen"] == "30 % = Cunning 30"


def test_a_name_another_player_gave_is_asked_again():
    """A group's evening: player 2 typed "Ana" too, it was taken, and every prompt read "Ana — …" for two people. A
    name another player at the table gave (in any case) is asked again, saying so; an older save's game (editions 2
    and 3) takes it as given, as its answers were given."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import make_party

    kaldskard = load_adventure(find_adventure("kaldskard"))
    table = Table(2, players=["Ana", "ana", "Bo"], sources=["random", "random"])
    party = make_party(Game(kaldskard, seed=3, decider=table, sink=EventLog()))
    assert [pc.player for pc in party] == ["Ana", "Bo"]
    assert table.prompts[1:] == ["Player 2, what is your name?",
                                 "ana is at the table already. Player 2, what is your name?"]
    for edition in (2, 3):  # a save begun before the rule (edition 4) replays as its answers were given (the review)
        old = Game(kaldskard, seed=3, decider=Table(2, players=["Ana", "Ana"], sources=["random", "random"]),
                   sink=EventLog())
        old.edition = edition
        assert [pc.player for pc in make_party(old)] == ["Ana", "Ana"]


def test_a_roster_characters_player_already_at_the_table_leaves_the_seat_its_own_name(tmp_path):
    """The review: seat 1 typed "Ana", seat 2 pressed Enter and chose a roster character whose file says player =
    "Ana", and two players were "Ana" again. The file's name is taken only where no other player has it."""
    from solo.characters import read_roster, save_character
    from solo.rules.creation import pregenerated
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import make_party

    alma = pregenerated("espen")
    alma.name, alma.player = "Alma Myhre", "Ana"
    save_character(alma, tmp_path / "alma_myhre.toml")
    roster = read_roster(tmp_path)
    [entry] = roster.entries

    table = Table(2, players=["Ana", ""], sources=["random", entry.key])  # the second presses Enter
    game = Game(load_adventure(find_adventure("kaldskard")), seed=3, decider=table, sink=EventLog())
    game.roster = roster.fresh()
    assert [pc.player for pc in make_party(game)] == ["Ana", "Player 2"]


def test_a_new_characters_name_the_party_has_is_asked_again():
    """A group's evening: player 2 made a new character called "Espen Lind" beside the ready-made Espen Lind, and the
    party became "Espen Lind, Espen Lind 2" without a word. From edition 4 the name is asked again, saying so; an
    older save's game tells the two apart by a number, as it did."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import make_party

    vellan = load_adventure(find_adventure("vellan"))
    table = Table(2, names=["espen lind", "Tove Aas"], sources=["pregen", "new"])
    party = make_party(Game(vellan, seed=3, decider=table, sink=EventLog()))
    assert [pc.name for pc in party] == ["Espen Lind", "Tove Aas"]
    assert "espen lind is at the table already. What is your character's name?" in table.prompts
    old = Game(vellan, seed=3, decider=Table(2, names=["Espen Lind"], sources=["pregen", "new"]), sink=EventLog())
    old.edition = 3
    assert [pc.name for pc in make_party(old)] == ["Espen Lind", "Espen Lind 2"]


@pytest.mark.parametrize(("text", "warned"), [
    ("Drive them back with fire (Willpower //Courage).", True),  # a new player's Kaldskard: no such Focus
    ("Hold the door (Willpower //Person).", False),
    ("Run (chase on foot, Move //Athletics).", False),
    ("Sing (Knowledge //Art & Music).", False),  # a Focus of several words, named whole
    ("Mend it (Tech //Cooking).", True),
    # a review: each way of writing it is read
    ("Drive them back (Willpower, //Courage).", True),
    ("Fight (Combat //Melee or //Courage).", True),
    ("Mix it (Science //Chem).", True),
    ("Mix it (Science //Chemistry).", False),
    ("Run for it (//Athletics).", False),  # no skill named: a Focus of some skill
    ("Sing (//Opera).", True),
])
def test_a_text_that_names_a_focus_its_skill_lacks_is_warned(tmp_path, text, warned):
    problems = _problems_with_text(tmp_path, text)
    assert any(p.code == "W111" for p in problems) is warned, [str(p) for p in problems]


@pytest.mark.parametrize(("ctype", "mindless", "warned"), [("social", True, True), ("combat", True, False),
                                                           ("social", False, False)])
def test_an_argument_with_a_mindless_npc_is_warned(tmp_path, ctype, mindless, warned):
    """A reading of narrated conflicts: an author's social conflict against a mindless wolf passed `solo check`, and
    was told "A heavy setback for the grey wolf's composure"."""
    block = ('code_block = { personality = ["Talkative", "Generous"], motivation = ["Altruism"], '
             'disposition = "Neutral", event = { topic = "Family", sign = "negative" } }\n')
    path = tmp_path / "adv.toml"
    problems = _warned_of_a_mind(path, 'name = "the grey wolf"\nlevel = "common"\nrole = "animal"\n'
                                 + ("mindless = true\n" if mindless else block),
                                 f'[scenes.a.choices.conflict]\ntype = "{ctype}"\nnpcs = ["it"]\nwon = "b"\n'
                                 'lost = "b"\n')
    assert any(p.code == "W112" for p in problems) is warned, [str(p) for p in problems]


def _warned_of_a_mind(path, npc: str, choice: str) -> list:
    """The problems of a one-scene adventure with the NPC ``it`` (its fields) and one choice (its action's table),
    none of them an error."""
    path.write_text('[adventure]\ntitle = "It"\nstart = "a"\npc = "espen"\n[npcs.it]\n' + npc +
                    '[scenes.a]\ntext = "It."\n[[scenes.a.choices]]\ntext = "Deal with it"\n' + choice +
                    '[scenes.b]\ntext = "Done."\nending = true\n', encoding="utf-8")
    _, problems = read_adventure(path)
    assert not [p for p in problems if p.severity == "error"], [str(p) for p in problems]
    return problems


@pytest.mark.parametrize(("skill", "mindless", "warned"), [("Social", True, True), ("Cunning", True, False),
                                                           ("Social", False, False)])
def test_a_social_roll_against_a_mindless_npc_is_warned(tmp_path, skill, mindless, warned):
    """A GM's run: an opposed Social //Influence roll against a mindless door passed `solo check` unwarned, where the
    same door in a social conflict was warned (W112)."""
    door = 'name = "the cellar door"\nlevel = "common"\nbody = "object"\n' + ("mindless = true\n" if mindless else "")
    roll = f'[scenes.a.choices.opposed]\nskill = "{skill}"\nnpc = "it"\nwin = "b"\nlose = "b"\n'
    problems = _warned_of_a_mind(tmp_path / "adv.toml", door, roll)
    assert any(p.code == "W112" for p in problems) is warned, [str(p) for p in problems]
    # a review: with a social escalation against the same door, the one slip is warned of once
    argued = _warned_of_a_mind(tmp_path / "adv.toml", door, roll + 'escalate = { type = "social", won = "b", '
                                                                   'lost = "b" }\n')
    assert sum(p.code == "W112" for p in argued) == (1 if mindless else 0), [str(p) for p in argued]


@pytest.mark.parametrize(("pursuer", "edition", "asked"), [("b", 5, False), ("a", 5, True), ("b", 4, True)])
def test_a_party_run_down_in_a_chase_is_asked_no_line_up(pursuer, edition, asked):
    """A hot-seat group's Kaldskard: at BODY -11, Alma "sat out" the run for the river, where the dead gave chase to
    everyone, and was safe. A party that is a chase's quarry all run; one that gives chase still says who does."""
    from solo.rules.conflict_types import conflict_type
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.conflict_roles import ask_roles
    from solo.story.play.engine import Game

    questions: list[str] = []

    class Everyone:
        def decide(self, q):
            questions.append(q.kind)
            return q.default or q.options[0].key

    game = Game(load_adventure(find_adventure("kaldskard")), seed=1, decider=Everyone())
    game.edition = edition
    first, second = pregenerated("espen"), pregenerated("espen")
    second.name = "Alma Berg"
    game.state.party = [first, second]
    roles = ask_roles(game, conflict_type("foot_chase"), pursuer=pursuer)
    assert ("lineup" in questions) is asked and set(roles.taking_part) == {"Espen Lind", "Alma Berg"}

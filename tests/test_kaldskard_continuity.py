"""Kaldskard's text agrees with what the party has done (the group's seed-7 game in its screen logs): salt
already given is not sold again, the snow bridge's hint names the hour its fall costs, Ragna's silence over the
willow bark does not follow her own long speech with "more than she has said", and the lowland road home does
not call the bag "still full" once Hallstein has had a dose of it.

The adventure is played from its first scene with a scripted decider; the one conflict on the way is decided
by a stand-in, and a skill of 0 makes the snow bridge give way.
"""

from __future__ import annotations

import pytest

from solo.decisions import Question
from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.story.format.text import fill
from solo.story.play.conditions import context_of
from solo.story.play.engine import Game


class Stop(Exception):
    """The script has no more choices: the test reads the game as it stands."""


class Script:
    """Scene choices by the start of their labels, in order; other questions take their default. Each scene
    menu is kept as (label, hint) pairs."""

    def __init__(self, *labels: str):
        self.labels = list(labels)
        self.menus: list[list[tuple[str, str]]] = []

    def decide(self, question: Question) -> str:
        if question.kind != "choice":
            return question.default or question.options[-1].key
        self.menus.append([(o.label, o.detail) for o in question.options])
        if not self.labels:
            raise Stop
        want = self.labels.pop(0)
        hits = [o.key for o in question.options if o.label.startswith(want)]
        assert hits, f"no option {want!r} in {[o.label for o in question.options]}"
        return hits[0]


@pytest.fixture(scope="module")
def kaldskard():
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    return load_adventure(find_adventure("kaldskard"))


def walk(adventure, *labels: str, items=()):
    """Espen Lind (Move 0: the snow bridge gives) plays the labels from the inn; the toll's argument is won."""
    char = pregenerated("espen")
    char.skills["Move"] = 0
    char.focuses = {k: v for k, v in char.focuses.items() if not k.startswith("Move//")}
    script, log = Script(*labels), EventLog()
    game = Game(adventure, seed=7, decider=script, sink=log, party=[char])
    game.state.items += list(items)
    game.run_conflict = lambda *args, **more: "won"  # type: ignore[method-assign,assignment]
    with pytest.raises(Stop):
        game.play()
    return game, script, log.events


def said(events) -> str:
    return " ".join(fill(e.data["text"], e.data.get("slots", {})) for e in events if e.kind == "branch_text")


def gained(events) -> list[str]:
    return [e.data["item"] for e in events if e.kind == "item" and e.data["gained"]]


def test_salt_from_gudrun_is_not_sold_again_with_the_torches(kaldskard):
    game, script, events = walk(kaldskard, "Buy a bundle of pine torches", items=["salt"])
    [buy] = [label for label, _ in script.menus[0] if label.startswith("Buy")]
    assert buy == "Buy a bundle of pine torches from Gudrun's stores"
    assert "twists the salt" not in said(events) and "the paper of salt you already carry" in said(events)
    assert gained(events) == ["torches"] and game.state.items.count("salt") == 1


def test_without_salt_the_torches_and_the_salt_are_bought_together(kaldskard):
    game, script, events = walk(kaldskard, "Buy a bundle of pine torches")
    [buy] = [label for label, _ in script.menus[0] if label.startswith("Buy")]
    assert buy == "Buy a bundle of pine torches and a paper of salt from Gudrun's stores"
    assert "twists the salt into a screw of paper" in said(events)
    assert gained(events) == ["torches", "salt"]


def test_the_snow_bridge_hint_names_the_hour_its_fall_costs(kaldskard):
    _, script, events = walk(kaldskard, "Sleep", "Take the drovers' track", "Test each step")
    [hint] = [h for label, h in script.menus[2] if label.startswith("Test each step")]
    assert hint == "one try: a fall costs skin, and an hour"
    assert "you lose an hour" in said(events)


def test_ragna_after_her_speech_and_the_road_home_after_the_willow_bark(kaldskard):
    game, _, events = walk(kaldskard, "Sleep", "Take the drovers' track", "Test each step",
                           "Tell them what the bag is for", "Give Hallstein a dose")
    assert [e.data["scene"] for e in events if e.kind == "scene_entered"][-1] == "outlaw_camp"
    dose = said(events).split("Hallstein looks at the little packet")[1]
    assert "more than she has said" not in dose and "Ragna watches you do it" in dose
    home = " ".join(fill(kaldskard.scenes["ending_turned_back"].text, {}, context_of(game.state)).split())
    assert "still full" not in home and "with the bag full but for the willow bark Hallstein had" in home


def test_the_road_home_with_the_bag_untouched_calls_it_still_full(kaldskard):
    game, _, _ = walk(kaldskard, "Sleep")
    home = " ".join(fill(kaldskard.scenes["ending_turned_back"].text, {}, context_of(game.state)).split())
    assert "with the bag still full" in home


@pytest.mark.parametrize(("items", "words"), [(["salt"], "nods at your paper of salt"),
                                              ([], "Gudrun gives you the sketch, and a paper of salt")])
def test_the_drover_s_salt_is_not_given_twice_either(kaldskard, items, words):
    from solo.story.play.state import GameState

    [ask] = [c for c in kaldskard.scenes["inn"].choices if c.text.startswith("Ask Gudrun")]
    text = fill(ask.action.branches["yes_and"].text, {}, context_of(GameState("kaldskard", items=items)))
    assert words in text


def test_the_toll_counts_the_outlaws_it_names_and_ragna_stays_where_it_put_her(kaldskard):
    """The toll named four outlaws after "three people are waiting", and a won fight then had Ragna "on her
    rock", which the toll gives to Torgny (she stands behind the others)."""
    import re

    from solo.story.play.state import GameState

    toll = kaldskard.scenes["toll"].text
    words = " ".join(toll.split()).split(" ")
    said_count = {"two": 2, "three": 3, "four": 4, "five": 5}[words[words.index("people") - 1]]
    named = set(re.findall(r"\{npc\.(\w+)\}", toll))
    assert said_count == len(named) == len(kaldskard.scenes["toll"].npcs)
    assert re.search(r"on the rock [^.;]*\{npc\.torgny\}", toll) and "Behind them" in toll
    won = " ".join(fill(kaldskard.responses["toll_won"].text, {}, context_of(GameState("kaldskard"))).split())
    assert "Ragna has not moved from where she stood behind them." in won and "her rock" not in won


def test_ragna_calls_off_a_fight_she_went_down_in_from_the_snow(kaldskard):
    """'Ragna folds up and does not rise.', then the stalemate's '"Enough!" Ragna's voice cracks across the cleft'
    (a new player's run): a Ragna who went down in the fight gets up on one elbow to call it off."""
    from solo.story.play.state import GameState

    def parley(status: str | None) -> str:
        state = GameState("kaldskard")
        if status is not None:
            state.npc_status["ragna"] = status
        return " ".join(fill(kaldskard.responses["toll_parley"].text, {}, context_of(state)).split())

    for status in ("out", "comae"):
        assert parley(status).startswith("Ragna gets up on one elbow in the snow.") and "cracks" not in parley(status)
    assert parley("fled").startswith("Ragna comes back down into the cleft") and "cracks" not in parley("fled")
    for status in (None, "in", "surrendered"):
        assert parley(status).startswith('"Enough!" Ragna\'s voice cracks across the cleft'), status


@pytest.mark.parametrize(("size", "heard"), [(1, "you can hear yourself breathe"),
                                            (2, "you can hear each other breathe"),
                                            (3, "you can hear each other breathe")])
def test_the_grave_road_s_silence_reads_right_for_any_party(kaldskard, size, heard):
    """'in the silence you all can hear each other breathe' (a new player's run, three at the table)."""
    from solo.story.play.state import GameState

    state = GameState("kaldskard")
    state.party = [pregenerated("espen") for _ in range(size)]
    slots = {"party_size": size} if size != 1 else {}  # as Game.slots gives them
    text = " ".join(fill(kaldskard.scenes["grave_road"].text, slots, context_of(state)).split())
    assert heard in text and "you all can" not in text and "you both can" not in text


def test_an_argument_at_the_fire_left_unsettled_is_slept_on_not_the_end_of_the_crossing(kaldskard):
    """A new player's party out-argued Ragna and Torgny, Hallstein held to the round limit, and the stalemate read
    'The fire burns down with nothing decided' and closed the pass for the winter: an ending on the first day. An
    argument left unsettled is slept on (camp_night, no allies), told without denying what was said, and the
    hint says so."""
    arguments = [c for c in kaldskard.scenes["outlaw_camp"].choices
                 if c.action is not None and c.action.kind == "conflict" and c.action.spec["type"] == "social"]
    assert len(arguments) == 2  # alone against Ragna, and as a party against three of them
    for choice in arguments:
        stalemate = choice.action.branches["stalemate"]
        assert stalemate.goto == "camp_night" and not stalemate.effects
        assert "nothing decided" not in stalemate.text and "Enough," in stalemate.text
        assert "stay" in choice.hint and "may win you" not in choice.hint, choice.hint


def test_empty_handed_tells_the_way_the_bag_was_lost(kaldskard):
    """A reading of narrated games: after "Let him go" (or the boy lost a second time) "Empty-handed" told Ragna
    weighing the bag and tossing it to Eyvind, who had just run off with it. The scene is reached three ways, and
    tells each; the boy, chased and lost once, is not offered again "before he is out of sight"."""
    game = Game(kaldskard, seed=1, decider=Script(), party=[pregenerated("espen")])
    scene = kaldskard.scenes["robbed"]

    def shown(**visits):
        game.state.visited = dict(visits)
        return game.picked(scene.text), [c.text for c in game.available(scene)]

    toll, offered = shown(robbed=1)
    assert "weighs the bag" in toll and any(c.startswith("Go after the boy") for c in offered)
    scramble, offered = shown(robbed=1, eyvind_runs=1)  # he snatched it in the scramble and got away
    assert "weighs the bag" not in scramble and "gone with the bag" in scramble
    assert not any(c.startswith("Go after the boy") for c in offered)
    again, offered = shown(robbed=2, eyvind_runs=1)  # went back for him and lost him again
    assert "weighs the bag" not in again and "The boy is gone" in again
    assert not any(c.startswith("Go after the boy") for c in offered)


def test_what_sigvald_tells_is_kept_as_clues_and_the_fire_is_in_the_recap(kaldskard):
    """A new player asked old Sigvald about the dead (fire, running water, salt), the outlaws and the road, and then
    found `clues` empty and the fire missing from `recap`: nothing he said was marked as learned. Each answer is now a
    clue, kept in the order asked; a scene with clues is one the recap tells."""
    from solo.ui.journal import Journal

    game, _, events = walk(kaldskard, "Sit by the fire", "Ask him about the dead", "Ask him about the outlaws",
                           "Ask him which way", "Thank him")
    assert [clue.split(":")[0] for clue in game.state.clues] == ["Sigvald"] * 3
    assert "running water" in game.state.clues[0] and "Ragna" in game.state.clues[1]
    journal = Journal()
    for event in events:
        journal.render(event)
    recap = journal.recap()
    fire = recap.index("Old Sigvald's fire")
    assert [line for line in recap[fire + 1:fire + 4] if "Sigvald:" in line] == recap[fire + 1:fire + 4]


@pytest.mark.parametrize("outcomes, way", [(("won",), "Pay the toll"), (("opponent_fled", "won"), "Fight your way")],
                         ids=["robbed", "scattered"])
@pytest.mark.parametrize("choice", ["Take the bag, help him up", "Take the bag and leave him"])
def test_the_boy_caught_gives_the_remedies_back(kaldskard, outcomes, way, choice):
    """A player's run: the toll paid, the boy chased and caught, "Take the bag …", and then "You carry nothing for the
    valley now", the healer looking at empty hands and the ending of one with nothing to give. Whichever way the bag
    went (Ragna's toll, or the boy's snatch in the scramble: the bag is gone then too), catching him gives it back."""
    script, log = Script("Sleep", "Take the drovers' track", "Test each step", way, *(
        ["Go after the boy"] if way == "Pay the toll" else []), "After him!", choice, "(the next menu)"), EventLog()
    char = pregenerated("espen")
    game = Game(kaldskard, seed=7, decider=script, sink=log, party=[char])
    told = iter(outcomes)
    game.run_conflict = lambda *args, **more: next(told)  # type: ignore[method-assign,assignment]
    with pytest.raises(AssertionError, match="the next menu"):
        game.play()
    scenes = [e.data["scene"] for e in log.events if e.kind == "scene_entered"]
    assert "eyvind_caught" in scenes and scenes[-1] in ("outlaw_camp", "high_saddle"), scenes
    held = [e.data["item"] for e in log.events if e.kind == "item" and e.data["item"] == "remedies"]
    assert held and game.state.items.count("remedies") == 1, held
    assert next(e for e in log.events if e.kind == "scene_entered" and e.data["scene"] == "eyvind_runs") and \
        "remedies" not in _items_when(log.events, "eyvind_runs")  # the boy has the bag while he runs


def _items_when(events, scene: str) -> list[str]:
    """The items held as ``scene`` is entered, from the item events before it."""
    held: list[str] = []
    for e in events:
        if e.kind == "scene_entered" and e.data["scene"] == scene:
            return held
        if e.kind == "item":
            if e.data["gained"]:
                held.append(e.data["item"])
            elif e.data["item"] in held:
                held.remove(e.data["item"])
    return held


def test_the_inns_axes_are_offered_to_empty_hands_and_told_by_how_many_take_one(kaldskard):
    """A player's run: a character who came with an axe was offered Gudrun's, told "I will not grudge you the axe",
    and then "keeps the axe already in hand". The rack is offered while someone's hands are empty (``unarmed()``),
    and its lines count those who take one."""
    def inn(*weapons: str | None, take: bool = False):
        party = []
        for i, weapon in enumerate(weapons):
            char = pregenerated("espen")
            char.name, char.weapon = ("Espen Lind", "Signe Vik")[i], weapon
            party.append(char)
        script, log = Script(*(["Take down", "(the next menu)"] if take else [])), EventLog()
        game = Game(kaldskard, seed=7, decider=script, sink=log, party=party)
        with pytest.raises(AssertionError if take else Stop):
            game.play()
        return [label for label, _ in script.menus[0]], said(log.events), game

    labels, _, _ = inn("axe")
    assert not [label for label in labels if label.startswith("Take down")], labels
    labels, told, game = inn("axe", None, take=True)
    assert "Take down a wood-axe from the rack by the door" in labels
    assert "the edge tested" in told and "grudge you the axe." in told, told
    assert [pc.weapon for pc in game.state.pcs] == ["axe", "axe"]
    labels, told, _ = inn(None, None, take=True)
    assert "Take down a wood-axe each from the rack by the door" in labels and "the axes." in told, told


@pytest.mark.parametrize("outcome, hallstein, told, untold", [
    ("surrendered", "in", "You lower your hands and step back from the bag", "boot on your chest"),
    ("lost", "in", "with Hallstein's boot on your chest", "lower your hands"),
    ("lost", "out", "You are down in the snow, and Ragna picks up the bag", "boot")])
def test_the_toll_given_up_is_not_told_as_a_beating(kaldskard, outcome, hallstein, told, untold):
    """A player's run: the party gave up the fight at the toll at BODY 10 of 12, and was told "You are down in the
    snow with Hallstein's boot on your chest", a round after Hallstein had begged to yield. Giving up has its own
    words; a beating names Hallstein's boot only while he is still in the fight."""
    script, log = Script("Sleep", "Take the drovers' track", "Test each step", "Fight your way through",
                         "(the next menu)"), EventLog()
    game = Game(kaldskard, seed=7, decider=script, sink=log, party=[pregenerated("espen")])

    def fought(*args, **more):
        game.state.npc_status["hallstein"] = hallstein
        return outcome

    game.run_conflict = fought  # type: ignore[method-assign,assignment]
    with pytest.raises(AssertionError, match="the next menu"):
        game.play()
    text = said(log.events)
    assert told in text and untold not in text, text


def test_a_toll_fight_that_killed_one_of_the_party_is_not_told_as_a_robbery(kaldskard):
    """A reading of Kaldskard's fights: 'Nils Lie is dead.', then 'You are down in the snow with Hallstein's boot on
    your chest, and Ragna picks up the bag.', and at the outlaws' fire Ragna 'laughs out loud. "Stubborn," she
    says. "Sit."' Ragna's people are no murderers: a death at the toll is told as one (``fallen()``) whichever way
    the fight ends, remembered at the fire (the flag ``toll_blood``, set then: a later death is not the toll's), and a
    party's lost fight does not put everyone down in the snow (some fled)."""
    from solo.story.play.state import GameState

    espen, signe, kari, tone = (pregenerated("espen") for _ in range(4))
    signe.name, kari.name, tone.name = "Signe Falk", "Kari Dahl", "Tone Aas"

    def state_of(dead: int, party: int, flags=()) -> GameState:
        state = GameState("kaldskard")
        state.party = [kari, signe, tone][:party]
        state.npc_status["hallstein"] = "in"
        for pc in (espen, tone)[:dead]:
            state.removed[pc.name] = "death"
            if pc not in state.party:
                state.party.append(pc)
        state.flags.update(dict.fromkeys(flags, True))
        return state

    def told(key: str, *, dead: int = 0, party: int = 1, path: tuple[str, ...] = (), flags=()) -> str:
        state = state_of(dead, party, flags)
        text = kaldskard.responses[key].text if not path else _branch(kaldskard, *path).text
        return " ".join(fill(text, {"party_size": len(state.pcs)}, context_of(state)).split())

    assert "We are not murderers" in told("toll_lost", dead=1) and "beside the one who" in told("toll_lost", dead=1)
    assert "beside those who will not get up" in told("toll_lost", dead=2, party=2)
    assert "boot" not in told("toll_lost", dead=1, party=2)
    assert told("toll_lost").startswith("You are down in the snow with Hallstein's boot on your chest")
    for size in (2, 3):
        party = told("toll_lost", party=size)
        # a hot-seat party's run: the last of them still in surrendered on his feet, and was told under a boot
        assert party.startswith("The fight is lost, and Ragna picks up the bag") and "boot" not in party, party
        assert "down" not in party and "you both" not in party and "you all" not in party
    for key, calm in (("toll_won", "You have made your point"), ("toll_parley", "to kill travellers in the snow"),
                      ("toll_given_up", "You lower your hands"), ("toll_fled", "for the gorge, and they")):
        assert calm in told(key), key
        assert calm not in told(key, dead=1) and "your dead in the snow" in told(key, dead=1), key
    for key in ("toll_won", "toll_parley", "toll_lost", "toll_given_up"):  # remembered at the fire, said on the trail
        (flagged,) = kaldskard.responses[key].effects
        assert flagged.args == {"set": "toll_blood"} and flagged.condition is not None, key
        assert flagged.condition.evaluate(context_of(state_of(1, 1))) and not flagged.condition.evaluate(
            context_of(state_of(0, 1))), key
    assert "Ragna laughs" not in told("", path=("robbed", "won"), flags=["toll_blood"])
    assert "Ragna laughs out loud" in told("", dead=1, path=("robbed", "won"))  # a death elsewhere is not the toll's
    fire = " ".join(fill(kaldskard.scenes["outlaw_camp"].text, {}, context_of(state_of(1, 1, ["toll_blood"]))).split())
    assert "Nobody speaks of the toll" in fire


def _branch(adventure, scene: str, outcome: str):
    """The ``outcome`` branch of the first conflict among ``scene``'s choices (the outlaws' trail from 'robbed')."""
    for choice in adventure.scenes[scene].choices:
        if choice.action is not None and choice.action.kind == "conflict" and outcome in choice.action.branches:
            return choice.action.branches[outcome]
    raise LookupError(f"{scene}: no conflict with a {outcome!r} branch")


@pytest.mark.parametrize("size", [1, 2])
def test_the_wight_that_chases_a_lone_pc_is_told_coming_out_as_a_third(kaldskard, size):
    """A new player's run, alone: the barrows woke "two of them … both of them at once", and the run for the river
    was against "the third barrow-wight", "the smallest of them". Alone, one meets two at the barrows, and the one
    that gives chase (barrow_three) is told coming out now; a party saw all three."""
    from solo.story.play.state import GameState

    state = GameState("kaldskard")
    state.party = [pregenerated("espen") for _ in range(size)]
    barrows = " ".join(fill(kaldskard.scenes["barrows"].text, {}, context_of(state)).split())
    chase = " ".join(fill(kaldskard.scenes["barrow_chase"].text, {}, context_of(state)).split())
    assert ("two of them" in barrows) == (size == 1) and kaldskard.scenes["barrow_chase"].npcs == ["barrow_three"]
    assert ("A third has come out of a doorway" in chase) == (size == 1)
    assert ("The smallest of them" in chase) == (size > 1)


@pytest.mark.parametrize("carried", [True, False])
def test_remedies_brought_late_close_the_crossings_thread(kaldskard, carried):
    """A new player's run ended "Too late for some", the remedies handed over, and `threads` still listed "Carry the
    remedies over the pass to Eikedal · progress 0/10". Brought late, they were still carried over: it is closed;
    with nothing carried it stays as it was."""
    game = Game(kaldskard, seed=1, decider=Script(), party=[pregenerated("espen")])
    thread = "Carry the remedies over the pass to Eikedal"
    game.state.oracle.add_thread(thread)
    game.state.items = ["remedies"] if carried else []
    for effect in kaldskard.scenes["ending_late"].on_enter:
        game.apply(effect)
    assert (thread in game.state.oracle.threads) != carried


@pytest.mark.parametrize(("scene", "amount"), [("shieling_dawn", 3), ("camp_night", 4)])
def test_a_night_heals_every_pc_whatever_the_acting_one_needs(kaldskard, scene, amount):
    """A hot-seat group's night in the outlaws' cave: "+4 BODY and POW" to everyone, and the status line after it
    showed Hild at 10/16 and Sigurd at 8/12 as before. Each heal read `pool("BODY") < pool_max("BODY")`, the acting
    PC's, who was unhurt: it healed nobody. A heal of a Pool already whole changes nothing, so none is needed."""
    game = Game(kaldskard, seed=1, decider=Script(), party=[pregenerated("espen")])
    whole, hurt = pregenerated("espen"), pregenerated("espen")
    hurt.name = "Hild Rask"
    hurt.pools["BODY"].current = 4
    game.state.party = [whole, hurt]
    for effect in kaldskard.scenes[scene].on_enter:
        if effect.kind == "heal":
            game.apply(effect)
    assert hurt.pools["BODY"].current == 4 + amount and whole.pools["BODY"].current == whole.pools["BODY"].maximum


@pytest.mark.parametrize("scene, outcome", [("barrows", "won"), ("barrows", "stalemate"), ("shieling_attack", "won"),
                                            ("shieling_attack", "stalemate")])
@pytest.mark.parametrize("before, here", [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
def test_the_dead_road_s_fights_tell_the_friends_they_killed_and_only_those(kaldskard, scene, outcome, before, here):
    """A reading of group fights: a PC killed by the barrow-wights was never mentioned ("you drag it out into the snow
    by its heels and build the fire up again"), and ``fallen()`` alone could not say it, since it also counts one
    the toll killed. Each fight's scene keeps how many had fallen as it began (``fallen_before``, set by its
    on_enter before anything is told), and its closing tells those who fell in the fight, and only them."""
    from solo.story.play.state import GameState

    party = [pregenerated("espen") for _ in range(3)]
    for pc, name in zip(party, ("Espen Lind", "Signe Falk", "Kari Dahl"), strict=True):
        pc.name = name
    state = GameState("kaldskard")
    state.party = party
    game = Game(kaldskard, seed=1, decider=Script(), sink=EventLog(), party=party)
    game.state = state
    for pc in party[:before]:  # the toll's dead
        state.removed[pc.name] = "death"
    for effect in kaldskard.scenes[scene].on_enter_before:
        game.apply(effect)
    assert state.counters["fallen_before"] == before
    for pc in party[before:before + here]:  # this fight's
        state.removed[pc.name] = "death"
    text = " ".join(fill(_branch(kaldskard, scene, outcome).text, {}, context_of(state)).split())
    friends = ("one of your own", "your friend", "your dead", "two of your own", "your own dead")
    assert any(words in text for words in friends) == (here > 0), text
    if here == 2 and outcome == "won":
        assert "one of your own" not in text and "your friend" not in text, text
    if here == 1:
        assert "two of your own" not in text and "your own dead" not in text, text


@pytest.mark.parametrize("eyvind, tossed", [("in", True), ("fled", False)])
def test_the_bag_goes_to_the_boy_only_if_he_is_still_there_and_nobody_is_said_to_stand(kaldskard, eyvind, tossed):
    """A hot-seat party's run: Ragna "tosses it to Eyvind", who had run from the fight in its second round, and "you all
    stand in the cleft" of a party one of whom was down at BODY 0 and one had fled."""
    from solo.story.play.state import GameState

    state = GameState("kaldskard")
    state.npc_status["eyvind"] = eyvind
    text = " ".join(fill(kaldskard.scenes["robbed"].text, {"you": "you all"}, context_of(state)).split())
    assert ("tosses it to" in text) == tossed and ("over her own shoulder" in text) == (not tossed), text
    assert "stand in the cleft" not in text and "the cleft is empty but for you all" in text, text
    # the bag is in one place: nobody is offered to chase the boy "with the bag" that Ragna kept (the review)
    (chase,) = [c for c in kaldskard.scenes["robbed"].choices if c.text.startswith("Go after the boy")]
    assert chase.condition.evaluate(context_of(state)) == tossed


@pytest.mark.parametrize("alone, size", [(True, 1), (False, 2)])
def test_the_howe_says_them_only_where_the_dead_came_and_your_life_for_one(kaldskard, alone, size):
    """A new player's run: both barrow-wights laid on the grave-road, the howe said "None of its dead come with it",
    then offered "Run past them for the cairns", and the fight's stakes read "your lives" for one player."""
    from solo.story.play.state import GameState

    state = GameState("kaldskard")
    state.flags["howe_alone"] = alone
    state.party = [pregenerated("espen") for _ in range(size)]
    for i, pc in enumerate(state.party):
        pc.name = f"PC {i}"
    context = context_of(state)
    (run,) = [c for c in kaldskard.scenes["the_howe"].choices if c.text.startswith("Run past")]
    assert fill(run.text, {}, context).startswith("Run past it " if alone else "Run past them ")
    fights = [c.action for c in kaldskard.scenes["the_howe"].choices if c.action and c.action.kind == "conflict"]
    stakes = {fill(a.spec["stakes"], {}, context) for a in fights} - {"The pass, and everyone on it"}  # (allies)
    assert stakes == {"The pass, and your life" if size == 1 else "The pass, and your lives"}, stakes
    (seek,) = [c for c in kaldskard.scenes["high_saddle"].choices if c.text.startswith("Seek out the grave-lord")]
    assert "its dead" not in seek.hint  # the wights may lie on the grave-road already

"""What the PCs know (issue 31, point 6): NPC cards that grow with what was learned, clues the story marks
(``learn``), and choices whose words wait for the fact they use. ``recap`` keeping every conflict is
tests/test_journal_kept.py's.

docs/adventures.md ("What the PCs know") says what is tested here.
"""

from __future__ import annotations

import random

import pytest
from conftest import recap_blocks, run_play
from test_vellan_story import Route, play

from solo.events import Event
from solo.minds.bots import RandomDecider
from solo.oracle.tables import tables_from_data
from solo.saves import read_save
from solo.story.format.loader import read_adventure
from solo.story.play.engine import Game
from solo.story.play.knowledge import called, facets_of, learn
from solo.story.play.state import GameState
from solo.ui import story_commands as sc
from solo.ui.journal import Journal

TO_THURSDAY = ("Climb the dark lane", "Hold out your camera", "Climb to your lodgings")
BUS = ("Climb the stairs to Halvard Brekke's office", "Walk out, catch the")
DOCKER = "a big man in a docker's coat"


class Watching(Route):
    """A route that reads the ``npcs`` card and the labels each time a scene's menu is offered."""

    def __init__(self, *labels: str, **answers: str):
        super().__init__(*labels, **answers)
        self.game: Game | None = None
        self.cards: list[str] = []

    def decide(self, question):
        if question.kind == "choice" and self.game is not None:
            self.cards.append(sc.npcs_text(self.game))
        return super().decide(question)


def _watched(vellan, *labels, **options):
    route = Watching(*labels)
    original = Game.__init__

    def keep(game, *a, **k):  # the route reads the game it decides for
        original(game, *a, **k)
        route.game = game

    Game.__init__ = keep  # type: ignore[method-assign]
    try:
        game, ending, events, calls = play(vellan, route, **options)
    finally:
        Game.__init__ = original  # type: ignore[method-assign]
    return route, game, events


# -- 1. the NPC card grows with what the PCs learn ---------------------------------------------------------


def test_knut_is_a_docker_until_he_says_his_name_and_an_enforcer_only_in_the_lane(vellan):
    route, game, _ = _watched(vellan, "Get off", "Step into the Anchor", "Take your beer over", "Go back out",
                              "Call it a day", *TO_THURSDAY[1:], *BUS, counters={"hours": 3})
    in_the_anchor, after_the_talk, in_the_lane = route.cards[2], route.cards[3], route.cards[5]
    assert f"  {DOCKER}" in in_the_anchor.splitlines() and "Knut" not in in_the_anchor
    assert "Marit Vik (keeper of the Anchor)" in in_the_anchor  # her name and trade are no secret; her mood is
    # he said his name, that he shifts crates, and warned the reporter off: a name and a mood, no trade yet
    assert "  Knut Dahl (unfriendly)" in after_the_talk.splitlines() and DOCKER not in after_the_talk
    assert "  Knut Dahl (dockside enforcer, unfriendly)" in in_the_lane.splitlines()
    assert "you know:" not in route.cards[-1]  # nobody's secret was told on this road
    # the name took the docker's place on the oracle's list: random events name him as the players do
    assert game.state.oracle.npcs.index("Knut Dahl") == 1 and DOCKER not in game.state.oracle.npcs


def test_what_knut_confesses_is_on_his_card_and_in_the_clues(vellan):
    route, game, _ = _watched(vellan, "Get off", "Climb the dark lane", "Talk him down", "Let him go", *BUS,
                              conflicts=["won"], counters={"hours": 5})
    card = sc.npcs_text(game)
    assert ("  Knut Dahl (dockside enforcer, unfriendly); you know: he loaded the Margit's cargo into warehouse four "
            "the night before she sailed; remembers: you let him go when you had him at your mercy"
            ) in card.splitlines()  # as docs/adventures.md shows it
    assert "The dog in warehouse four knows Knut's whistle: two notes, low then high." in game.state.clues


def test_a_social_roll_offered_against_someone_shows_their_disposition(vellan):
    game = Game(vellan, seed=1, decider=RandomDecider(random.Random(1)))
    game.state.npcs.update(_npcs(game))
    assert "disposition" not in facets_of(game, "jonas")
    choices = [c for c in vellan.scenes["pilot_hut"].choices if c.action is not None and c.action.kind == "opposed"]
    game.learn_from_menu(choices)  # the menu's chance shows "Jonas Vik is Unfriendly -20"
    assert facets_of(game, "jonas") == ("name", "role", "disposition")


def test_a_disposition_told_is_known_and_names_the_npc_as_the_players_do(vellan):
    events: list[Event] = []
    game = Game(vellan, seed=1, decider=RandomDecider(random.Random(1)), sink=events.append)
    game.state.npcs.update(_npcs(game))
    game.apply(_effect(vellan, {"disposition": "knut", "shift": 1}))
    game.tell_held()  # held until the next event or question (Game.emit)
    told = next(e for e in events if e.kind == "disposition")
    assert told["name"] == DOCKER and "disposition" in facets_of(game, "knut") and "name" not in facets_of(game, "knut")
    journal = Journal()
    journal.render(told)
    assert "*A big man in a docker's coat is now Neutral towards you.*" in journal.text()


def test_a_disposition_that_does_not_move_is_not_told_again(vellan):
    """Before: 'Ragna Ulvsdotter is now Affectionate towards you.' a second time, when a Kaldskard choice shifted
    her one rung up the ladder and she already stood at its top. A shift that stops at the end of the ladder, or a
    'to' the rung it is already on, changes nothing, and the players are not told it did (a move is, as before)."""
    events: list[Event] = []
    game = Game(vellan, seed=1, decider=RandomDecider(random.Random(1)), sink=events.append)
    game.state.npcs.update(_npcs(game))
    game.apply(_effect(vellan, {"disposition": "knut", "to": "Affectionate"}))
    game.tell_held()  # each move told before the next (two in a row are told as one: Game.emit)
    game.apply(_effect(vellan, {"disposition": "knut", "shift": 1}))
    game.tell_held()
    game.apply(_effect(vellan, {"disposition": "knut", "to": "Affectionate"}))
    game.tell_held()
    game.apply(_effect(vellan, {"disposition": "knut", "shift": -1}))
    game.tell_held()
    told = [(e["before"], e["after"]) for e in events if e.kind == "disposition"]
    assert told == [(told[0][0], "Affectionate"), ("Affectionate", "Friendly")]
    assert told[0][0] != "Affectionate"


def test_what_an_npc_brought_in_by_the_story_shows_at_once(vellan):
    """Open play's strangers and a Luck contact are met with name, trade and mood: the card shows all three."""
    game = Game(vellan, seed=1, decider=RandomDecider(random.Random(1)))
    game.state.npcs["contact1"] = _npcs(game)["ingrid"]
    assert facets_of(game, "contact1") == ("name", "role", "disposition")


def test_a_name_learned_takes_the_place_of_what_was_seen_with_its_weight():
    state = GameState("x")
    for name in ("Ada", "a tall stranger", "Bo"):
        state.oracle.add_npc(name)
    state.oracle.add_npc("a tall stranger", again=True)  # the player wrote them on the list twice
    state.oracle.rename_npc("a tall stranger", "Signe Falk")
    assert state.oracle.npcs == ["Ada", "Signe Falk", "Bo"]
    assert state.oracle.npc_weight("Signe Falk") == 2 and "a tall stranger" not in state.oracle.npc_weights
    state.oracle.add_npc("Cy", again=True)
    state.oracle.add_npc("Cy", again=True)
    state.oracle.rename_npc("Cy", "Ada")  # the player had already named her: one entry, counting both, at most 3
    assert state.oracle.npcs == ["Ada", "Signe Falk", "Bo"] and state.oracle.npc_weight("Ada") == 3


def test_learning_is_by_facet_and_in_card_order(vellan):
    game = Game(vellan, seed=1, decider=RandomDecider(random.Random(1)))
    game.state.npcs.update(_npcs(game))
    assert facets_of(game, "knut") == () and called(game, "knut") == DOCKER
    learn(game, "knut", "secret", "nonsense", "disposition")
    assert game.state.known["knut"] == ["disposition", "secret"] and called(game, "knut") == DOCKER
    learn(game, "knut", "name")
    assert called(game, "knut") == "Knut Dahl" and game.state.known["knut"] == ["name", "disposition", "secret"]


def test_the_first_card_of_the_docs_is_what_play_shows(vellan):
    route, game, _ = _watched(vellan, "Get off", "Call at the harbour office", "Leave her to her charts",
                              "Step into the Anchor", "Go back out", "Call it a day", *TO_THURSDAY[1:], *BUS)
    assert route.cards[4] == ("People in the story:\n  Ingrid Solberg (harbourmaster)\n"
                              f"  Marit Vik (keeper of the Anchor)\n  {DOCKER}")


# -- 2. words that wait for the fact --------------------------------------------------------------------


def test_marit_is_not_anyones_sister_until_someone_says_so(vellan):
    route, _, events = _watched(vellan, "Get off", "Step into the Anchor", "Stand the fishermen a round",
                                "Go back out", *TO_THURSDAY, *BUS, counters={"hours": 4})
    before, after = route.menus[2], route.menus[3]
    assert not any("brother" in label or "sister" in label for label in before)
    assert "Ask Marit quietly about the missing pilot: she has his name, Vik (Social //Influence)" in before
    assert "Ask Marit quietly about her brother (Social //Influence)" in after
    assert "Marit Vik, who keeps the Anchor, is the missing pilot's sister." in _clues(events)


def test_asking_about_the_pilot_teaches_that_he_is_her_brother(vellan):
    route, game, events = _watched(vellan, "Get off", "Step into the Anchor", "Ask Marit quietly", "Go back out",
                                   *TO_THURSDAY, *BUS, social=95, counters={"hours": 4})
    assert "\"He's my brother,\" she says at last." in " ".join(e["text"] for e in events if e.kind == "branch_text")
    assert game.state.flags["knows_sister"] and "you know: she is the missing pilot's sister" in sc.npcs_text(game)


def test_the_dunes_wait_for_a_lead_not_for_a_visit_to_the_anchor(vellan):
    """Walking into the dunes needs a lead: Marit's directions, the pilot's sketch, or the old man's mutter when
    she turns the reporter away. A beer at the Anchor on its own tells nobody where to look."""
    dunes = "Walk out into the dunes"
    route = Route("Get off", "Step into the Anchor", "Go back out", *TO_THURSDAY, *BUS)
    play(vellan, route, counters={"hours": 4})
    thursday = next(m for m in route.menus if any(label.startswith("Climb the stairs") for label in m))
    assert not any(label.startswith(dunes) for label in thursday)
    route = Route("Get off", "Step into the Anchor", "Ask Marit quietly", "Go back out", *TO_THURSDAY, dunes,
                  "Turn back", *BUS)
    game, *_ = play(vellan, route, social=0, counters={"hours": 4})
    offered = next(label for menu in route.menus for label in menu if label.startswith(dunes))
    assert game.state.flags["heard_dunes"] and offered.endswith("and you have only a rumour to go on)")


def test_the_insurance_man_is_named_in_the_menu_only_once_heard_of(vellan):
    asking, calling = ("Ask at the Strand Hotel whether anyone else has come about the Margit",
                       "Call on the Nordhavn Mutual's man at the Strand Hotel")
    for flags, shown, hidden in (((), asking, calling), (("heard_of_adjuster",), calling, asking)):
        route = Route("Get off", *TO_THURSDAY, shown, "Leave him to his forms", *BUS)
        play(vellan, route, flags=flags, counters={"hours": 5})
        thursday = route.menus[4]
        assert shown in thursday and hidden not in thursday, thursday


# -- 3. clues -----------------------------------------------------------------------------------------------


def test_a_gossip_row_marked_learn_is_kept_once_and_journaled(vellan):
    route = Route("Get off", "Step into the Anchor", "Nurse a beer", "Go back out", *TO_THURSDAY, *BUS)
    game, _, events, _ = play(vellan, route, seed=6, counters={"hours": 4})
    lorries = "Lorries at the cannery gate the night before the wreck, their lamps off."
    assert game.state.clues == [lorries]
    assert [e["text"] for e in events if e.kind == "clue"] == [lorries]
    journal = Journal()
    for e in events:
        journal.render(e)
    assert f"> **Clue:** {lorries}" in journal.text()
    assert any(header == "The Anchor" and any(lorries.rstrip(".") in e for e in entries)
               for header, entries in recap_blocks(journal.recap()))
    assert sc.clues_text(game).splitlines() == ["What you have learned:", f"  - {lorries}"]


def test_a_clue_is_kept_once_however_often_it_is_learned(vellan):
    events: list[Event] = []
    game = Game(vellan, seed=1, decider=RandomDecider(random.Random(1)), sink=events.append)
    effect = _effect(vellan, {"learn": "The clerk reads crosswords."})
    for _ in range(3):
        game.apply(effect)
    assert game.state.clues == ["The clerk reads crosswords."] and [e.kind for e in events] == ["clue"]


def test_scripted_vellan_clues_shows_what_was_overheard(vellan, tmp_path):
    """As a player sees it: the gossip at the bar is a clue, the docker a docker until he gives his name."""
    lines = ["1", "1", "2", "2", "npcs", "1", "clues", "5", "npcs", "items"]
    code, out, journal = run_play(vellan, lines, tmp_path, seed=6, width=200)
    assert code == 0
    after = {}
    for block in out.split("\n> ")[1:]:
        word, _, rest = block.partition("\n")
        after.setdefault(word, []).append(rest.split("\n\n", 1)[0])
    assert after["clues"][0] == ("What you have learned:\n"
                                 "  - Lorries at the cannery gate the night before the wreck, their lamps off.")
    assert after["npcs"][0] == f"People in the story:\n  Marit Vik (keeper of the Anchor)\n  {DOCKER}"
    assert after["npcs"][1] == "People in the story:\n  Marit Vik (keeper of the Anchor)\n  Knut Dahl (unfriendly)"
    assert "Lorries" not in after["items"][0]  # what is carried and what is known are two lists
    assert "A clue for your notes: Lorries at the cannery gate" in out
    assert "> **Clue:** Lorries at the cannery gate" in journal


def test_the_player_sees_the_clue_told_and_the_items_list_stays_for_things():
    game = _bare_game()
    game.state.items.append("rope")
    game.state.notes.append("the clerk lied")
    assert sc.clues_text(game) == ("No clues yet: what the story marks as learned is kept here.\n"
                                   "Your notes:\n  - the clerk lied")
    game.state.clues.append("The ferry is late.")
    assert sc.clues_text(game).startswith("What you have learned:\n  - The ferry is late.\nYour notes:")
    assert "ferry" not in sc.items_text(game)


# -- knowledge is kept in the save ------------------------------------------------------------------------


def test_known_facets_and_clues_round_trip_through_the_game_state():
    state = GameState("vellan", known={"knut": ["name", "secret"]}, clues=["Lorries at the gate."])
    again = GameState.from_dict(state.to_dict())
    assert again.known == {"knut": ["name", "secret"]} and again.clues == ["Lorries at the gate."]
    assert again.to_dict() == state.to_dict()


def test_a_snapshot_from_before_knowledge_was_kept_still_loads():
    old = GameState("vellan").to_dict()
    del old["known"], old["clues"]
    state = GameState.from_dict(old)
    assert state.known == {} and state.clues == []


def test_saved_and_loaded_the_cards_and_clues_are_as_they_were(vellan, tmp_path):
    lines = ["1", "1", "2", "2", "1", "5"]
    run_play(vellan, lines + ["quit"], tmp_path, seed=6)
    save = read_save(tmp_path / "game.json")
    assert save.snapshot is not None
    assert save.snapshot["clues"] == ["Lorries at the cannery gate the night before the wreck, their lamps off."]
    assert save.snapshot["known"]["knut"] == ["name", "disposition"]
    code, out, _ = run_play(vellan, ["npcs", "clues"], tmp_path, seed=6, log=save.log)
    assert "  Knut Dahl (unfriendly)" in out and "  - Lorries at the cannery gate" in out


# -- solo check ----------------------------------------------------------------------------------------------


def test_check_names_the_file_and_field_of_a_wrong_learn(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[adventure]\ntitle = "T"\nstart = "a"\n[scenes.a]\ntext = "A."\nending = true\n'
                    'on_enter = [ { learn = ["two", "lines"] } ]\n', encoding="utf-8")
    _, problems = read_adventure(path)
    (problem,) = problems
    assert str(problem).startswith(f"{path}:7: error[E002]: scenes.a.on_enter[0].learn: expected text")


@pytest.mark.parametrize("learn, why", [(5, "learn must be one line of text"), ("x" * 301, "at most 300")])
def test_a_table_row_learn_of_the_wrong_kind_is_refused_where_it_is(learn, why):
    from solo.errors import ContentError

    with pytest.raises(ContentError) as caught:
        tables_from_data({"tables": {"gossip": {"rows": [{"text": "Talk.", "learn": learn}]}}}, file="g.toml")
    assert why in str(caught.value) and "tables.gossip.rows[0].learn" in str(caught.value)


# -- helpers ----------------------------------------------------------------------------------------------------


def _npcs(game):
    from solo.npc import NPC
    from solo.story.play.npcs import npc_fields

    return {nid: NPC.from_dict(npc_fields(d.data)) for nid, d in game.adventure.npcs.items()}


def _effect(adventure, data):
    from solo.story.format.adventure import Effect, Where
    from solo.story.play.effects import EFFECTS

    (kind,) = [k for k in data if k in EFFECTS]
    return Effect(kind, data, Where("test", "effects[0]"))


def _clues(events):
    return [e["text"] for e in events if e.kind == "clue"]


def _bare_game():
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    return Game(load_adventure(find_adventure("tutorial")), seed=1, decider=RandomDecider(random.Random(1)))



# -- the tutorial shows only what Espen has seen ---------------------------------------------------------------


def test_the_tutorial_names_the_guard_and_the_courier_only_once_a_text_does(tmp_path):
    """A new user met "Ulrik Moen (neutral)" at the first prompt of the tutorial, where the scene shows only "a man
    in a wet uniform", and the courier named on her card and in the conflict before she said who she is."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    tutorial = load_adventure(find_adventure("tutorial"))
    # one player, Espen; 'npcs' at the quay; talk past the guard, flip; 'npcs' on deck; face her; 'npcs'; talk
    lines = ["1", "1", "npcs", "2", "1", "npcs", "1", "npcs", "2", "quit"]
    _, out, transcript = run_play(tutorial, lines, tmp_path, seed=5, width=110)
    cards = [part.split("\n\n", 1)[0] for part in out.split("People in the story:\n")[1:]]
    quay, deck, stranger = cards
    assert quay.splitlines() == ["  a man in a wet uniform (harbour guard, neutral)"]
    assert deck.splitlines() == ["  a man in a wet uniform (harbour guard, neutral)", "  a woman in a courier's coat"]
    assert "Ulrik Moen" not in out and "Signe Falk" not in out.split("The stranger")[0]
    assert "  Signe Falk (neutral)" in stranger.splitlines()
    # the roll against the guard names him as Espen knows him; she says her name before the conflict names her
    assert "a man in a wet uniform (Willpower) rolls 33 against 30." in transcript
    told = transcript.index("tell them Signe Falk.")
    assert told < transcript.index("### Social conflict: Espen Lind (50 %, CHA 14, damage 1d6) against Signe Falk")


def test_caught_at_the_gangway_espen_reads_the_guards_name_on_his_coat(tmp_path):
    """The guard is named once a text names him: caught, his coat's plate reads it, before any argument with him."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    tutorial = load_adventure(find_adventure("tutorial"))
    # seed 3: slipping aboard fails (31 against 30) and the flip to 13 is refused; caught, 'npcs'
    _, out, transcript = run_play(tutorial, ["1", "1", "1", "2", "npcs", "quit"], tmp_path, seed=3, width=110)
    assert "Espen Lind rolls Cunning: 31 against 30: failure." in transcript  # no //Stealth: none named
    assert "The brass plate on his coat reads Ulrik Moen." in transcript
    assert out.split("People in the story:\n")[1].splitlines()[0] == "  Ulrik Moen (harbour guard, neutral)"

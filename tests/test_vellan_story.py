"""The Teeth of Vellan as a story: the pilot who runs can be found again, the finale reads the proof
the party holds, and the docker, Aron's secret and Marit's directions lead somewhere.

Games are played through the engine from the first scene with a scripted decider. What an
Extended Conflict decides is scripted too (the game's ``run_conflict`` answers from a list and
records what it was asked), so a test follows one branch of the story whatever the dice; rolls
are made easy or hopeless through the character, and the seed is fixed.
"""

from __future__ import annotations

import pytest

from solo.decisions import Question
from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.story.play.engine import Game


class Route:
    """Picks scene choices by the start of their labels, in order, and answers the rest from ``answers``
    (by question kind), else with the question's default or its last option. A label ending in ``+`` is
    taken again and again until the next label is offered (a roll both sides keep failing)."""

    def __init__(self, *labels: str, **answers: str):
        self.labels = list(labels)
        self.answers = answers
        self.menus: list[list[str]] = []  # every scene menu offered, as its labels

    def decide(self, question: Question) -> str:
        if question.kind == "choice":
            offered = [o.label for o in question.options]
            self.menus.append(offered)

            def find(label: str) -> list[str]:
                return [o.key for o in question.options if o.label.startswith(label.rstrip("+"))]

            if self.labels[0].endswith("+") and len(self.labels) > 1 and find(self.labels[1]):
                self.labels.pop(0)  # what it was repeated for has come
            want = self.labels[0] if self.labels[0].endswith("+") else self.labels.pop(0)
            hits = find(want)
            assert hits, f"no option {want!r} in {offered}"
            return hits[0]
        if question.kind in self.answers and self.answers[question.kind] in question.keys():
            return self.answers[question.kind]
        return question.default or question.options[-1].key


class Decided:
    """Stands in for the game's conflicts: returns the scripted outcomes in order, keeping each call."""

    def __init__(self, *outcomes: str):
        self.outcomes = list(outcomes)
        self.calls: list[dict] = []
        self.game: Game | None = None  # the game it decides for, once play has made it

    def __call__(self, ctype, npc_ids, obstacle=None, *, rounds, stakes="", **more):
        self.calls.append({"type": ctype.key, "npcs": list(npc_ids), "obstacle": obstacle, "rounds": rounds})
        return self.outcomes.pop(0)


def play(adventure, route: Route, *, conflicts=(), social=None, flags=(), items=(), counters=None, seed=3,
         deduced=True):
    """One game from the bus to an ending; (game, ending, events, conflicts asked for). With ``deduced`` the
    deduction counts as done without a right or wrong answer (the way up Brekke's stairs goes straight in)."""
    espen = pregenerated("espen")
    if social is not None:  # make Social rolls sure (95) or hopeless (0)
        espen.skills["Social"] = social
        espen.focuses = {k: v for k, v in espen.focuses.items() if not k.startswith("Social//")}
    log = EventLog()
    game = Game(adventure, seed=seed, decider=route, sink=log, party=[espen])
    decided = conflicts if isinstance(conflicts, Decided) else Decided(*conflicts)
    decided.game = game
    game.run_conflict = decided  # type: ignore[method-assign,assignment]
    game.state.flags.update(dict.fromkeys(flags, True))
    if deduced:
        game.state.flags["theorised"] = True
    game.state.items.extend(items)
    game.state.counters.update(counters or {})
    ending = game.play()
    assert not [label for label in route.labels if not label.endswith("+")], f"choices left over: {route.labels}"
    assert not decided.outcomes, f"conflicts never fought: {decided.outcomes}"
    return game, ending, log.events, decided.calls


def entered(events, scene):
    return [e.data["text"] for e in events if e.kind == "scene_entered" and e.data["scene"] == scene]


def said(events):
    return " ".join(e.data["text"] for e in events if e.kind == "branch_text")


# The first evening cut short: at dusk (hours 5) the quay offers the lane, and Knut takes the camera.
TO_THURSDAY = ("Get off", "Climb the dark lane", "Hold out your camera", "Climb to your lodgings")
# Thursday given up at once: Brekke's office, and out again to the bus.
BUS = ("Climb the stairs to Halvard Brekke's office", "Walk out, catch the")
DUSK = {"hours": 5}


@pytest.mark.parametrize("outcome", ["opponent_fled", "lost", "stalemate"])
def test_the_pilot_who_gets_away_is_found_again_at_his_sisters(vellan, outcome):
    route = Route(*TO_THURSDAY, "Walk out into the dunes", "Follow Marit's directions", "Persuade him+",
                  "Look for Jonas Vik at his sister's", "Ask Marit to tell her brother",
                  "Leave him with his sister", "Catch the next bus", "Get on the bus", escalate="yes")
    game, ending, events, calls = play(vellan, route, conflicts=[outcome], social=0,
                                       flags=["heard_of_hut"], counters=DUSK)
    assert [c["type"] for c in calls] == ["social"] and calls[0]["npcs"] == ["jonas"]  # the escalated persuasion
    assert "You will not find him twice" not in said(events)
    assert entered(events, "anchor_by_day") and entered(events, "jonas_testifies")
    assert "signed statement" in game.state.items and game.state.counters["evidence"] == 1
    assert ending == "ending_quiet"


def test_a_second_refusal_at_his_sisters_loses_the_pilot_for_good(vellan):
    """At his sister's, a second failed try (his sister listening, +20) loses him for good."""
    route = Route(*TO_THURSDAY, "Walk out into the dunes", "Follow the sketch", "Persuade him+",
                  "Look for Jonas Vik at his sister's", "Try him once more", "Catch the next bus",
                  "Get on the bus", escalate="no")
    game, ending, events, _ = play(vellan, route, social=0, items=["sketch of the dunes"], counters=DUSK)
    assert game.state.flags.get("jonas_gone") and game.state.flags.get("jonas_lost")
    assert not any(label.startswith("Look for Jonas") for label in route.menus[-2])  # not offered again
    assert "signed statement" not in game.state.items and ending == "ending_quiet"


def test_marits_directions_lead_to_the_hut_without_tracking(vellan):
    route = Route(*TO_THURSDAY, "Walk out into the dunes", "Follow Marit's directions", "Leave him to his fear",
                  "Catch the next bus", "Get on the bus")
    _, _, events, calls = play(vellan, route, flags=["heard_of_hut"], counters=DUSK)
    dunes = route.menus[5]
    assert dunes[0].startswith("Follow Marit's directions")
    assert not any("tracking" in label for label in dunes)  # the way is known: no reading the sand for it
    assert entered(events, "pilot_hut") and calls == []


FRONT_PAGE = ("Climb the stairs to Halvard Brekke's office", "Lay your proof on his desk",
              "Let him run: the Gazette has your wire")
CONFESSION = ("Climb the stairs to Halvard Brekke's office", "Lay your proof on his desk", "Put a pen in his hand")
# the deduction answered right in every part, and wrong in the middle (blaming the harbour office)
RIGHT = ("Ashore before she sailed", "Someone on the company launch", "For the insurance")
WRONG_SIGNAL = ("Ashore before she sailed", "The harbour office", "For the insurance")


def finale(vellan, items):
    route = Route(*TO_THURSDAY, *CONFESSION)
    game, ending, events, calls = play(vellan, route, conflicts=["won"], flags=["story_wired"], items=items,
                                       counters=DUSK)
    assert ending == "ending_exposed"
    return game, entered(events, "ending_exposed")[0], calls[0]


def test_the_front_page_says_what_was_proved_and_whom_it_saved(vellan):
    game_a, text_a, fight_a = finale(vellan, ["signed statement", "copy of the harbour log", "green ledger"])
    game_b, text_b, fight_b = finale(vellan, ["insurance record", "pay envelope"])
    assert text_a != text_b
    assert "sworn word" in text_a and "harbourmaster's log" in text_a and "sold it from a warehouse" in text_a
    assert "Jonas Vik's name is cleared" in text_a and "Ingrid Solberg is asked to give evidence" in text_a
    assert "three times her worth" in text_b and "pay envelope" in text_b
    assert "Jonas Vik is still missing" in text_b and "Ingrid Solberg" not in text_b
    assert "sworn word" not in text_b and "three times her worth" not in text_a
    # each proof is an advantage: three proofs face a weaker Brekke than two
    assert (game_a.state.counters["case"], game_b.state.counters["case"]) == (3, 2)
    assert fight_a["type"] == "confrontation" and fight_a["obstacle"].id == "Halvard Brekke"
    assert fight_a["obstacle"].challenge < fight_b["obstacle"].challenge
    assert fight_a["obstacle"].pool.maximum < fight_b["obstacle"].pool.maximum


def test_proof_beyond_two_still_counts_up_to_the_last_piece(vellan):
    many = ["signed statement", "copy of the harbour log", "green ledger", "insurance record",
            "Brekke's calling card", "pay envelope", "list of crate numbers"]
    challenges = []
    for n in (2, 4, 6):
        _, _, fight = finale(vellan, many[:n])
        challenges.append(fight["obstacle"].challenge)
    assert challenges[0] > challenges[1] > challenges[2]


def test_the_front_page_counts_only_the_crates_the_party_saw(vellan):
    """A player's run: the warehouse emptied the night before, one crate left and photographed, and the front page
    still said "Forty-two crates that never sank", the count of the crates copied in the other branch."""
    _, copied, _ = finale(vellan, ["list of crate numbers", "green ledger"])
    _, photographed, _ = finale(vellan, ["photographs", "green ledger"])
    assert "Forty-two crates that never sank." in copied
    assert "Forty-two" not in photographed and "Crate after crate that never sank, photographed" in photographed


def test_the_stairs_say_why_they_lead_to_the_washstand_first(vellan):
    """A player's run: "Climb the stairs to Halvard Brekke's office" opened on the washstand, with no word why."""
    route = Route(*TO_THURSDAY, "Climb the stairs", *RIGHT, "Gather it up and climb the stairs",
                  "Walk out, catch the next bus")
    _, _, events, _ = play(vellan, route, counters=DUSK, deduced=False)
    (first,) = entered(events, "theory_cargo")
    assert first.startswith("Not yet: the story wants straightening before anyone climbs those stairs."), first
    assert "lodgings" not in first.split("**")[0]  # the stairs are taken from the lodgings: nobody goes back there


def test_knuts_pay_envelope_is_proof(vellan):
    route = Route("Get off", "Climb the dark lane", "Stand your ground", "Pocket the envelope",
                  "Climb the stairs to Halvard Brekke's office", "Walk out, catch the next bus")
    game, ending, events, calls = play(vellan, route, conflicts=["won"], counters=DUSK)
    assert calls[0]["npcs"] == ["knut"]
    assert "pay envelope" in game.state.items
    # given as it is pocketed, not before the choice that pockets it is offered (a player's run)
    kinds = [(e.kind, e.get("item") or e.get("scene")) for e in events if e.kind in ("item", "scene_entered")]
    assert kinds.index(("item", "pay envelope")) > kinds.index(("scene_entered", "alley_after"))
    pocketed = [e for e in events if e.kind == "choice" and "Pocket the envelope" in str(e.get("text", ""))]
    assert pocketed and events.index(pocketed[0]) < events.index(next(e for e in events if e.kind == "item"
                                                                      and e["item"] == "pay envelope"))
    assert game.state.counters["evidence"] == 1 and game.state.counters["case"] == 1
    assert ending == "ending_quiet"


def test_the_docker_in_the_anchor_can_be_approached_and_remembers_you(vellan):
    route = Route("Get off", "Step into the Anchor", "Take your beer over to the big man", "Go back out",
                  "Climb the lane to the missing pilot", "Leave the cottage", "Call it a day",
                  "Hold out your camera", "Climb to your lodgings", *BUS)
    game, _, events, _ = play(vellan, route, counters={"hours": 0})
    assert game.state.flags.get("met_knut")
    assert "I shift crates for whoever pays" in said(events)
    assert "We've met, newspaper" in entered(events, "alley")[0]


def test_arons_bargain_can_be_taken_and_his_secret_stops_the_ferry(vellan):
    route = Route(*TO_THURSDAY, "Call on the Brekke Line's bookkeeper", "Ask what the Margit was carrying",
                  "After him!", "Take his bargain", FRONT_PAGE[0], *RIGHT, "Gather it up", FRONT_PAGE[1],
                  "Get to the ferry's skipper")
    # the argument drawn: with two proofs (the ledger, and the deduction right in every part) he runs
    game, ending, events, calls = play(vellan, route, conflicts=["won", "stalemate"], counters=DUSK,
                                       deduced=False)
    assert [c["type"] for c in calls] == ["foot_chase", "confrontation"]
    assert game.state.flags.get("ferry_secret") and "green ledger" in game.state.items
    assert "trunks" in said(events)
    assert ending == "ending_exposed"
    assert "come over on the evening boat" in entered(events, "ending_exposed")[0]  # held on this side


def test_the_anchor_after_the_talk_still_offers_more_than_the_door(vellan):
    route = Route("Get off", "Step into the Anchor", "Nurse a beer", "Stand the fishermen", "Buy a bottle",
                  "Take your beer over", "Eat a bowl of Marit's fish soup", "Thank her",
                  "Climb the lane to the missing pilot", "Leave the cottage", "Call it a day",
                  "Hold out your camera", "Climb to your lodgings", *BUS)
    game, _, events, _ = play(vellan, route, social=0, counters={"hours": 0})
    assert game.state.flags.get("warned")
    assert "Keep to the middle of the lane" in entered(events, "tavern_supper")[0]
    assert "you see him first" in entered(events, "alley")[0]  # the warning pays off in the lane


def test_friday_leaves_only_brekke_or_the_bus(vellan):
    route = Route(*TO_THURSDAY, "Call on the Brekke Line's bookkeeper", "Thank him and leave",
                  "Sleep early", "Catch the noon bus", "Get on the bus")
    game, ending, events, _ = play(vellan, route, counters=DUSK)
    friday = route.menus[-2]
    assert [label.split(" ")[0] for label in friday] == ["Climb", "Catch"]
    assert game.state.counters["day"] == 3 and "Friday" in entered(events, "boarding_house")[-1]
    assert ending == "ending_quiet"


def test_the_day_runs_out(vellan):
    """Each errand from the quay takes a slice of the afternoon; at five only the Anchor and the lane are left."""
    route = Route("Get off", "Call at the harbour office", "Leave her to her charts",
                  "Climb the lane to the missing pilot", "Leave the cottage",
                  "Search the shipping registry", "Leave the ledgers", "Step into the Anchor", "Go back out",
                  "Call at the harbour office", "Leave her to her charts",
                  "Climb the dark lane", "Hold out your camera", "Climb to your lodgings", *BUS)
    game, _, events, _ = play(vellan, route)
    dusk = route.menus[11]
    assert [label.split(" ")[0] for label in dusk] == ["Step", "Climb"]
    assert "lamps are being lit" in entered(events, "quayside")[-1]


@pytest.mark.parametrize("items,ending", [(["pay envelope"], "ending_buried"),
                                          (["pay envelope", "green ledger", "insurance record",
                                            "copy of the harbour log"], "ending_quiet")])
def test_a_beaten_reporter_is_offered_the_envelope_and_refusing_it_prints_what_the_proof_carries(
        vellan, items, ending):
    # one proof, or four less the envelope's own: a case of 1 lays "what little you have" (not "your proof")
    route = Route(*TO_THURSDAY, "Climb the stairs to Halvard Brekke's office", "Lay ", "Push it back")
    game, reached, events, _ = play(vellan, route, conflicts=["lost"], items=items, counters=DUSK)
    assert entered(events, "the_offer") and not entered(events, "brekke_runs")  # he won: he pays, not runs
    assert reached == ending


def test_taking_the_envelope_is_the_evening_bus(vellan):
    route = Route(*TO_THURSDAY, "Climb the stairs to Halvard Brekke's office", "Lay what little you have",
                  "Take the envelope")
    _, reached, events, _ = play(vellan, route, conflicts=["surrendered"], items=["signed statement"],
                                 counters=DUSK)
    assert reached == "ending_bought"
    assert "The statement Jonas Vik signed stays in your notebook" in entered(events, "ending_bought")[0]


def test_the_escalation_question_says_what_is_at_stake(vellan):
    asked = []

    class Watching(Route):
        def decide(self, question):
            if question.kind == "escalate":
                asked.append(question)
            return super().decide(question)

    route = Watching(*TO_THURSDAY, "Walk out into the dunes", "Follow Marit's directions", "Persuade him+",
                     "Look for Jonas Vik at his sister's", "Ask Marit to tell her brother",
                     "Leave him with his sister", "Catch the next bus", "Get on the bus", escalate="yes")
    play(vellan, route, conflicts=["opponent_fled"], social=0, flags=["heard_of_hut"], counters=DUSK)
    escalate = next(o for o in asked[0].options if o.key == "yes")
    hut = vellan.scenes["pilot_hut"]
    stakes = next(c.action.escalation.spec["stakes"] for c in hut.choices
                  if c.action is not None and getattr(c.action, "escalation", None) is not None)
    assert stakes and escalate.detail == f"social · at stake: {stakes}"


def test_the_status_line_keeps_day_one_until_the_night_has_passed(tmp_path):
    """Issue 31, point 7: the lane between the net sheds is day one's dusk, not day two; the widow's room after
    the night is day two."""
    from conftest import run_play, script_lines

    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    lines = script_lines("vellan_seed4.txt")
    _, out, _ = run_play(load_adventure(find_adventure("vellan")), lines[:2] + ["status"] + lines[2:], tmp_path,
                         seed=4, width=110)
    assert "[Between the net sheds · tension" in out
    assert all(" · day 1/3 · " in line for line in out.splitlines() if line.startswith("[Between the net sheds"))
    assert any(" · day 2/3 · " in line for line in out.splitlines() if line.startswith("[Widow Ruud's top room"))


# -- issue 33: the deduction, the confession, Brekke's moves, second chances, the dog ------------------

def deduce(vellan, answers, items=(), flags=()):
    """Thursday at the lodgings, the deduction answered, then up to Brekke and out again: (game, events)."""
    route = Route(*TO_THURSDAY, "Spread your notes out", *answers, "Gather it all up", *BUS)
    game, _, events, _ = play(vellan, route, items=items, flags=flags, counters=DUSK, deduced=False)
    return game, events


def test_the_deduction_lists_the_clues_held_and_right_answers_strengthen_the_case(vellan):
    held = ["green ledger", "copy of the harbour log", "insurance record"]
    game, events = deduce(vellan, RIGHT, items=held)
    cargo = entered(events, "theory_cargo")[0]
    assert "IN STORE, WAREHOUSE 4" in cargo and "guesswork" not in cargo  # the clue held is shown …
    assert "Knut Dahl's word" not in cargo  # … and only what is held
    assert "PROCEED from the company launch" in entered(events, "theory_signal")[0]
    assert (game.state.counters["theory"], game.state.counters["wrong"]) == (3, 0)
    assert "It hangs together" in entered(events, "theory_done")[0]
    assert game.state.counters["case"] == 4  # three proofs and the story told right


def test_the_deduction_moves_no_tension_between_its_questions(vellan):
    """A player's run: "The oracle's tension falls to N of 9" came after the first answers and not after a wrong
    last one, and read as the answers judged. The tension stays while the party works out its three answers, right
    or wrong; it moves, as the scene's control says, once the deduction is done."""
    for answers in (RIGHT, WRONG_SIGNAL):
        _, events = deduce(vellan, answers, items=["green ledger", "copy of the harbour log", "insurance record"])
        marks = [e["scene"] if e.kind == "scene_entered" else "tension" for e in events
                 if e.kind in ("scene_entered", "tension")]
        thinking = marks[marks.index("theory_cargo"):marks.index("theory_done")]
        assert thinking == ["theory_cargo", "theory_signal", "theory_motive"], (answers, thinking)


def test_three_right_answers_with_a_guess_among_them_are_not_said_to_stand_on_something_each(vellan):
    """New-player run: the cargo's question showed "nothing at all: this will be guesswork", then the summary of three
    right answers said "every step has something on the blanket to stand on"."""
    game, events = deduce(vellan, RIGHT, items=["copy of the harbour log", "insurance record"])
    assert "guesswork" in entered(events, "theory_cargo")[0] and game.state.counters["theory"] == 3
    done = entered(events, "theory_done")[0]
    assert "It hangs together" in done and "but not every step" in done and "and every step" not in done
    _, events = deduce(vellan, RIGHT, items=["green ledger", "copy of the harbour log", "insurance record"])
    assert "every step has something" in entered(events, "theory_done")[0]


def test_a_wrong_answer_costs_the_case_a_piece_and_blaming_the_harbourmaster_loses_her(vellan):
    held = ["green ledger", "copy of the harbour log", "insurance record"]
    game, events = deduce(vellan, WRONG_SIGNAL, items=held)
    assert (game.state.counters["theory"], game.state.counters["wrong"]) == (2, 1)
    assert game.state.counters["case"] == 2 and game.state.flags.get("blamed_ingrid")
    assert "One piece does not" in entered(events, "theory_done")[0]
    empty, events = deduce(vellan, ("At the bottom", "Jonas Vik", "To be rid of"))
    assert "nothing you could show anyone (talk heard in the Anchor is no proof): this will be guesswork" in \
        entered(events, "theory_cargo")[0]
    assert empty.state.counters["wrong"] == 3 and empty.state.flags.get("blamed_jonas")
    # blamed in the notes, he will hear of it, but he is not in the room to show it: nobody is told so now
    assert [e for e in events if e.kind == "disposition"] == []
    from solo.story.play.npcs import disposition_of
    fresh, _ = deduce(vellan, RIGHT)
    assert disposition_of(empty.state.npcs["jonas"]) != disposition_of(fresh.state.npcs["jonas"])


def test_two_wrong_pieces_are_told_as_two_in_one_paragraph(vellan):
    _, events = deduce(vellan, ("At the bottom", "Jonas Vik", "For the insurance"))
    done = entered(events, "theory_done")[0]
    assert "Two pieces do not" in done and "exactly those" in done and "that piece" not in done
    assert "\n" not in done.strip()  # the line on the pilot goes on in the same paragraph


def test_the_front_page_does_not_call_a_guessed_story_true_in_every_line(vellan):
    """A story told with wrong pieces in it (and the pilot blamed) is not printed "every line of it stands
    up", and the pilot's statement is what clears him, not the story the party told."""
    route = Route(*TO_THURSDAY, *CONFESSION)
    items = ["signed statement", "green ledger", "insurance record"]
    _, ending, events, _ = play(vellan, route, conflicts=["won"], flags=["story_wired", "blamed_jonas"],
                                items=items, counters={**DUSK, "theory": 1, "wrong": 2})
    guessed = entered(events, "ending_exposed")[0]
    assert ending == "ending_exposed" and "every line of it stands up" not in guessed
    assert "where you guessed" in guessed and "drunken pilot does not get past the sub-editor" in guessed
    _, _, events, _ = play(vellan, Route(*TO_THURSDAY, *CONFESSION), conflicts=["won"], flags=["story_wired"],
                           items=items, counters={**DUSK, "theory": 3})
    right = entered(events, "ending_exposed")[0]
    assert "every line of it stands up" in right and "sub-editor" not in right


def test_the_stairs_lead_through_the_deduction_when_it_was_never_made(vellan):
    route = Route(*TO_THURSDAY, "Climb the stairs", *RIGHT, "Gather it up and climb the stairs",
                  "Walk out, catch the next bus")
    _, ending, events, _ = play(vellan, route, counters=DUSK, deduced=False)
    assert entered(events, "theory_done") and entered(events, "brekke_office") and ending == "ending_quiet"


def test_winning_the_argument_is_a_confession_and_a_draw_is_a_chase(vellan):
    game, text, _ = finale(vellan, ["green ledger", "insurance record"])
    assert game.state.flags.get("confessed") and "confession, eleven pages in his own hand" in text
    route = Route(*TO_THURSDAY, *FRONT_PAGE)
    game, ending, events, _ = play(vellan, route, conflicts=["stalemate"], flags=["story_wired"],
                                   items=["green ledger", "insurance record"], counters=DUSK)
    assert entered(events, "brekke_runs") and not entered(events, "brekke_cornered")
    assert ending == "ending_exposed" and "confession" not in entered(events, "ending_exposed")[0]


@pytest.mark.parametrize("cha", [6, -2])
def test_a_reporter_talked_past_his_last_word_is_not_told_he_has_every_word_back(vellan, cha):
    """A new player's run: pushed on in the argument with Brekke and held to a draw, the reporter read that the
    sight of Brekke running "gives you back every word he talked you out of", while the heal that follows gives a
    pushed Pool a single point (the rulings' heal of a pushed Pool). A pushed reporter is told he is steadied."""
    class Pushed(Decided):
        def __call__(self, *args, **kwargs):
            self.game.state.pcs[0].pools["CHA"].current = cha  # how the draw left him
            return super().__call__(*args, **kwargs)

    route = Route(*TO_THURSDAY, *FRONT_PAGE)
    _, ending, events, _ = play(vellan, route, conflicts=Pushed("stalemate"), flags=["story_wired"],
                                items=["green ledger", "insurance record"], counters=DUSK)
    told = said(events)
    assert "it is he who is running" in told
    assert ("gives you back every word" in told) == (cha > 0), told
    assert ("steadies you a little" in told) == (cha < 0), told


def test_brekke_moves_as_the_party_digs(vellan):
    """Three moves: his answers ready (case one less); four: the cargo moved by night; six: he runs."""
    _, _, events, _ = play(vellan, Route(*TO_THURSDAY, *BUS), counters={**DUSK, "brekke": 2})
    lodgings = entered(events, "boarding_house")[0]
    assert "Brekke knows your name now" in lodgings and "lorries" not in lodgings
    game, ending, events, _ = play(vellan, Route(*TO_THURSDAY, "Climb the stairs", "Run for the ferry slip",
                                                 "Let him run: the story"), counters={**DUSK, "brekke": 5})
    lodgings = entered(events, "boarding_house")[0]
    assert "lorries" in lodgings and "leaving Vellan" in lodgings
    assert game.state.flags.get("cargo_moved") and game.state.flags.get("brekke_fled")
    assert "mainland on business" in entered(events, "brekke_office")[0] and ending == "ending_escaped"
    assert not entered(events, "theory_cargo")  # nobody to tell it to


def test_the_harbour_log_and_the_insurance_record_have_second_chances_on_thursday(vellan):
    route = Route("Get off", "Call at the harbour office", "Leave her to her charts", "Climb the dark lane",
                  "Hold out your camera", "Climb to your lodgings", "Catch the harbourmaster",
                  "Tell her you know she was overruled", "Thank her and go back up to your lodgings",
                  "Call on the Nordhavn Mutual's man", "Show him what you hold", "Fold the copy", *BUS)
    game, _, events, _ = play(vellan, route, flags=["heard_overruled", "heard_of_adjuster"], counters={"hours": 4})
    assert "copy of the harbour log" in game.state.items and "insurance record" in game.state.items
    assert game.state.counters["evidence"] == 2 and game.state.counters["hours"] == 2


def test_the_dog_knows_knuts_whistle(vellan):
    route = Route("Get off", "Climb the dark lane", "Talk him down", "Let him go", "Wait for dark",
                  "Knock on the gatehouse", "Try the key", "Photograph the crates", "Whistle Knut's two notes",
                  "Get to bed", *BUS)
    game, _, events, calls = play(vellan, route, conflicts=["won"], items=["bottle of aquavit"],
                                  counters={"hours": 5})
    assert game.state.flags.get("knows_dog") and entered(events, "watchdog") and entered(events, "warehouse_escape")
    assert "two notes, low then high" in entered(events, "knut_talks")[0]
    assert "photographs" in game.state.items and [c["type"] for c in calls] == ["social"]


def test_the_anchor_at_dusk_mentions_the_docker_only_to_those_who_saw_him(vellan):
    route = Route("Get off", "Climb the dark lane", "Hold out your camera", "Climb to your lodgings", *BUS)
    first = Route("Get off", "Step into the Anchor", "Go back out", "Step into the Anchor", "Go back out",
                  "Climb the dark lane", "Hold out your camera", "Climb to your lodgings", *BUS)
    _, _, events, _ = play(vellan, first, counters={"hours": 3})  # each step into the Anchor takes an hour
    day, dusk = entered(events, "tavern")
    assert "docker's coat watches you" in day and "where {npc.knut} sat is empty" in dusk
    late = Route("Get off", "Step into the Anchor", "Go back out", *route.labels[1:])
    _, _, events, _ = play(vellan, late, counters={"hours": 4})  # a first visit at lamp-lighting
    assert "big docker" not in entered(events, "tavern")[0]


def test_knut_fights_with_the_cudgel_the_scene_shows():
    """The lane's text has Knut slap a cudgel into his palm: the narration calls his weapon that, not the
    'iron hands' of a clockwork guard an earlier Vellan had (a merge had moved its words onto him)."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    vellan = load_adventure(find_adventure("vellan"))
    from solo.npc.model import NPC
    from solo.story.play.npcs import npc_fields

    knut = NPC.from_dict(npc_fields(vellan.npcs["knut"].data))
    assert knut.weapon == "cudgel" and knut.weapon_called is None
    assert "cudgel" in vellan.scenes["alley"].text


def test_the_fishermen_do_not_tell_as_news_that_marit_is_his_sister_once_she_has_said_so(vellan):
    """Before: Marit said "He's my brother", and a round later the fishermen told the party, as news, that she
    is Jonas Vik's sister, and the notes gained that clue from them."""
    told = ("Get off", "Step into the Anchor", "Ask Marit quietly", "Stand the fishermen", "Go back out",
            "Climb the dark lane", "Hold out your camera", "Climb to your lodgings", *BUS)
    _, _, events, _ = play(vellan, Route(*told), social=95, counters={"hours": 4})  # the Anchor takes the 5th
    text = said(events)
    assert "\"He's my brother,\" she says" in text
    assert "Marit there is Jonas Vik's sister" not in text and "nobody talks about her brother" in text
    clues = [e.data["text"] for e in events if e.kind == "clue"]
    sister = [c for c in clues if "the missing pilot's sister" in c]
    assert len(sister) == 1  # learned once, from her
    # the fishermen first: they tell it as news, and Marit then has no need to say it
    first = ("Get off", "Step into the Anchor", "Stand the fishermen", "Ask Marit quietly", "Go back out",
             "Climb the dark lane", "Hold out your camera", "Climb to your lodgings", *BUS)
    _, _, events, _ = play(vellan, Route(*first), social=95, counters={"hours": 4})
    text = said(events)
    assert "Marit there is Jonas Vik's sister" in text and "\"He's my brother,\" she says" not in text
    assert len([e for e in events if e.kind == "clue" and "the missing pilot's sister" in e.data["text"]]) == 1


def test_ingrid_greets_a_second_visit_as_one(vellan):
    """Before: on a second call, after an argument or a friendly talk, she still said "Another reporter"."""
    route = Route("Get off", "Call at the harbour office", "Leave her", "Call at the harbour office", "Leave her",
                  "Climb the dark lane", "Hold out your camera", "Climb to your lodgings", *BUS)
    _, _, events, _ = play(vellan, route, counters={"hours": 3})  # each call takes an hour: dusk after the second
    first, second = entered(events, "harbour_office")
    assert "Another reporter" in first and "You again" not in first
    assert "You again" in second and "Another reporter" not in second and "shut the door" in second


def test_the_cargo_answer_names_warehouse_four_only_to_a_party_that_heard_of_it(vellan):
    """Before (a new player's run): a reporter who had never heard of warehouse four was offered "Ashore before she
    sailed, in warehouse four at the cannery", the answer and a clue in one. Now the answer names it only where
    the party has Knut's word, the ledger, the key or has been there; a party that has seen the crates there has
    it on the blanket too."""
    def answered(game_events):
        return next(e["text"] for e in game_events if e.kind == "choice" and e["text"].startswith("Ashore"))

    _, events = deduce(vellan, RIGHT)
    assert answered(events) == "Ashore before she sailed, and hidden somewhere in Vellan"
    _, events = deduce(vellan, RIGHT, items=["green ledger"])
    assert answered(events) == "Ashore before she sailed, in warehouse four at the cannery"
    _, events = deduce(vellan, RIGHT, flags=["knut_loaded"])
    assert answered(events).endswith("in warehouse four at the cannery")


def test_the_office_says_the_pieces_the_blanket_could_not_hold(vellan):
    """A player's run: "seven pieces of proof" on the blanket, one lost to Brekke's ready answer, and then "eight
    pieces" on the menu: the witness held in the harbour office and a deduction all right count, unsaid. They are
    told on the stairs."""
    _, text, _ = finale(vellan, ["green ledger", "insurance record"])
    assert "no blanket could hold" not in text
    game, ending, events, _ = play(vellan, Route(*TO_THURSDAY, *CONFESSION), conflicts=["won"], flags=["story_wired",
                                   "aron_witness"], items=["green ledger"], counters={**DUSK, "theory": 3})
    (office,) = entered(events, "brekke_office")[:1]
    assert "Aron Lie under lock and key" in office and "two pieces more than lay on" in " ".join(office.split()), office


def test_brekke_drives_the_car_he_is_chased_in(vellan):
    """A player's run: "his chauffeur runs across the yard", and then the car chase was fought with Brekke at the
    wheel. Each way from his office to the chase (the clock strikes with a case against him, or the party walks out
    with one) sends Brekke himself to the garage, and the chase is fought against him."""
    for way in ("brekke_holds", "walk_out"):
        branch = vellan.responses[way]
        assert "brekke_runs" in repr(branch.routes), way
        told = branch.text[:branch.text.index("{else}")]  # the case of two pieces or more: the way to the chase
        assert "his own car keys in his hand" in told and "chauffeur" not in told, (way, told)
    chases = [c.action for c in vellan.scenes["brekke_runs"].choices if c.action and c.action.kind == "conflict"]
    assert chases and all(c.spec.get("type") == "car_chase" and c.spec.get("npcs") == ["brekke"] for c in chases)


def test_a_car_chase_run_out_of_time_claims_no_distance_the_pools_did_not_give(vellan):
    """A new player's run: the chase ended undecided with Brekke's Pool nearly spent, and the text said "you are
    still two lengths behind". A stalemate is only that neither side was caught or shaken off: told as that."""
    (chase,) = [c.action for c in vellan.scenes["brekke_runs"].choices if c.action and c.action.kind == "conflict"]
    text = chase.branches["stalemate"].text
    assert not any(word in text for word in ("lengths", "yards", "behind")), text
    assert "never lose sight" in text and "never catch" in text, text


def test_brekke_is_at_his_desk_when_he_confesses(vellan):
    """A review: the confession had Brekke "go back behind his desk", where the confrontation that is the only way in
    had him at it all along ("folds his hands on the blotter", "taps the desk")."""
    ways_in = [name for name, branch in vellan.responses.items() if "brekke_cornered" in repr(branch)]
    assert ways_in == ["brekke_broken"]
    uses = [c.action for scene in vellan.scenes.values() for c in scene.choices
            if c.action and "brekke_broken" in repr(c.action.branches)]
    assert uses and all(a.kind == "conflict" and a.spec.get("type") == "confrontation"
                        and a.where.path.startswith("scenes.brekke_office.") for a in uses)
    text = vellan.scenes["brekke_cornered"].text
    assert "sinks back in his chair" in text and "behind his desk" not in text, text


#: The cannery by night and the scenes it leads into before the way home.
CANNERY = ("cannery_gate", "caught_at_gate", "warehouse_door", "warehouse", "watchdog", "warehouse_escape",
           "caught_in_warehouse")


def test_the_cannery_is_thursday_night_and_friday_comes_on_the_way_home(vellan, monkeypatch):
    """A player's run: the status line said "day 3/3" at the cannery gate, where the text says the sun that comes up
    afterwards will be Friday's. The night is Thursday's, its hours spent; every way out of it is the morning."""
    seen: list[tuple[str, int, int]] = []
    real_enter = Game._enter

    def enter(self, scene):
        real_enter(self, scene)
        seen.append((scene.id, self.state.counters["day"], self.state.counters["hours"]))

    monkeypatch.setattr(Game, "_enter", enter)
    route = Route("Get off", "Climb the dark lane", "Talk him down", "Let him go", "Wait for dark",
                  "Knock on the gatehouse", "Try the key", "Photograph the crates", "Whistle Knut's two notes",
                  "Get to bed", *BUS)
    _, _, events, _ = play(vellan, route, conflicts=["won"], items=["bottle of aquavit"], counters={"hours": 5})
    night = [(day, hours) for scene, day, hours in seen if scene in CANNERY]
    assert len(night) == 5 and set(night) == {(2, 4)}  # the gate, the door, the warehouse, the dog, the way out
    home = [(day, hours) for scene, day, hours in seen if scene == "boarding_house"]
    assert home[-1] == (3, 0) and "Friday" in entered(events, "boarding_house")[-1]


def test_every_way_out_of_the_cannery_is_friday_morning(vellan):
    """Each branch that leaves the cannery's scenes sets the day to Friday and its hours to none, as the night's
    way home does (night.toml); one that forgot would bring a party home to a second Thursday."""
    leaving = 0
    for sid in CANNERY:
        for choice in vellan.scenes[sid].choices:
            branches = [choice.goto] if choice.goto else list(choice.action.branches.values()) if choice.action else []
            for branch in branches:
                if branch is None or branch.goto is None or branch.goto in CANNERY:
                    continue
                leaving += 1
                set_to = {e.args["counter"]: e.args["value"] for e in branch.effects if e.kind == "counter"}
                assert set_to == {"day": 3, "hours": 0}, (sid, choice.text, branch.goto)
    assert leaving == 9


@pytest.mark.parametrize(("aquavit", "told"), [(True, "does not show you the door"),
                                               (False, "does not close the door")])
def test_a_pilot_who_let_you_in_does_not_close_the_door_on_a_failed_bargain(vellan, aquavit, told):
    """A new player's run: after the aquavit "he lets you in out of the wind", and the failed bargain then said "But he
    does not close the door", of a door the reporter was already inside."""
    labels = ("Offer him a pull of the aquavit",) if aquavit else ()
    route = Route(*TO_THURSDAY, "Walk out into the dunes", "Follow Marit's directions", *labels, "Offer him a bargain",
                  "Leave him to his fear", "Catch the next bus", "Get on the bus")
    _, _, events, _ = play(vellan, route, flags=["heard_of_hut"], counters=DUSK, social=0,
                           items=["bottle of aquavit"] if aquavit else ())
    assert told in said(events) and ("close the door" in said(events)) is not aquavit


@pytest.mark.parametrize(("asked", "label"), [
    ((), "Ask her for the log, off the record"),
    (("Argue your way",), "Ask her for the log once more, off the record"),
])
def test_the_harbourmaster_is_asked_once_more_only_by_one_who_asked_before(vellan, asked, label):
    """A new player's run: "Ask her for the log once more" at the signal mast, of a reporter who had only looked into
    the harbour office and left."""
    route = Route("Get off", "Call at the harbour office", *(asked or ("Leave her to her charts",)),
                  "Climb the dark lane", "Hold out your camera", "Climb to your lodgings", "Catch the harbourmaster",
                  "Ask her for the log", *BUS)
    _, _, events, _ = play(vellan, route, social=0, counters={"hours": 4}, conflicts=["stalemate"] if asked else ())
    mast = next(menu for menu in route.menus if any(o.startswith("Ask her for the log") for o in menu))
    assert any(o.startswith(label) for o in mast), mast
    # and her refusal speaks of yesterday only to one she refused then (a review)
    assert ("I said what I had to say yesterday" in said(events)) is bool(asked), said(events)


def test_thursday_morning_is_told_once_not_again_after_the_deduction(vellan):
    """A new player's run: back at the lodgings from the deduction (no hour spent), the room said again "Thursday. You
    slept, somehow, and the gulls are at the window", as if another night had passed."""
    _, events = deduce(vellan, RIGHT, items=["green ledger"])
    morning, back = entered(events, "boarding_house")[:2]
    assert "Thursday. You slept" in morning and "Thursday" not in back and "The widow's top room" in back
    titles = [e.data["title"] for e in events if e.kind == "scene_entered" and e.data["scene"] == "boarding_house"]
    assert titles[0].endswith("Thursday morning") and not titles[1].endswith("morning")


@pytest.mark.parametrize(("social", "said_before"), [(0, "has not forgiven you your questions"),
                                                     (95, "When {npc.marit} comes")])
def test_marit_who_turned_her_back_warns_you_all_the_same(vellan, social, said_before):
    """A new player's run: Marit "turns her back on you" at a failed question, and over the soup she "bends close" to
    warn of Knut with nothing between. The supper says she has not forgiven the questions, and warns all the same."""
    route = Route("Get off", "Step into the Anchor", "Ask Marit quietly", "Eat a bowl of Marit's fish soup",
                  "Thank her", "Call it a day", "Hold out your camera", "Climb to your lodgings", *BUS)
    _, _, events, _ = play(vellan, route, social=social, counters={"hours": 0})
    supper = entered(events, "tavern_supper")[0]
    assert said_before in supper and "Keep to the middle of the lane tonight" in supper

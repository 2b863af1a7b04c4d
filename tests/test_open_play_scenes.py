"""Open play's scenes: what the player expects comes first, meetings follow the story, conflicts fit."""

from __future__ import annotations

import random
import re

from conftest import run_play

from solo.decisions import Question
from solo.minds.bots import RandomDecider
from solo.oracle.likelihood import LADDER
from solo.rules.conflict_types import conflict_type
from solo.rules.creation import pregenerated
from solo.story.play.open_play import ROUND_LIMITS, OpenGame, default_length, ending_title, literal, open_adventure


class Scripted:
    """Answers from a list per question kind (then the default, or the first option); keeps every question."""

    def __init__(self, answers: dict[str, list[str]], upcoming: str | None = None):
        # "end" at the menu means it: with a thread open, the question after it plays on by default
        self.answers = {"end_story": ["end"] * 9, **{k: list(v) for k, v in answers.items()}}
        self.asked: list[Question] = []
        self._upcoming = upcoming

    def decide(self, question: Question) -> str:
        self.asked.append(question)
        queue = self.answers.get(question.kind)
        if queue:
            return queue.pop(0)
        if question.default is not None:
            return question.default
        return question.options[0].key if question.options else "text"

    def upcoming(self) -> str | None:
        """As a replayed save says which kind of question its next recorded answer was for."""
        return self._upcoming

    def kinds(self) -> list[str]:
        return [q.kind for q in self.asked]


def play(answers, seed=3, **kw):
    events: list = []
    decider = Scripted(answers, **kw)
    game = OpenGame(seed=seed, decider=decider, sink=events.append, party=[pregenerated("espen")])
    game.play()
    return game, decider, events


def test_each_scene_asks_what_is_expected_before_the_oracle_sets_it_up():
    game, decider, events = play({"open_action": ["scene", "scene", "end"],
                                  "scene_expectation": ["We search the harbour office", "", "We run"]})
    kinds = decider.kinds()
    assert kinds[0] == "scene_expectation"  # the party is given: the first question is the first scene's
    assert kinds.count("scene_expectation") == 3
    for i, kind in enumerate(kinds):  # every scene end is followed by the next scene's expectation
        if kind == "control":
            assert kinds[i + 1] == "scene_expectation"
    order = [e.kind for e in events if e.kind in ("situation", "scene_entered", "scene_setup")]
    assert order == ["situation"] + ["scene_entered", "scene_setup"] * 3
    texts = [e["text"] for e in events if e.kind == "scene_entered"]
    assert texts[0] == "*Expected:* We search the harbour office"
    # an empty answer takes the offered default, in the words of one player ("we" for a table of several)
    assert texts[1].startswith("*Expected:* I follow up: ")
    assert [q.prompt.split(":")[0] for q in decider.asked if q.kind == "scene_expectation"] == \
        ["Scene 1", "Scene 2", "Scene 3"]


def test_what_the_player_typed_shows_as_typed(tmp_path):
    hostile = "[bold red]loud[/] {npc} *stars* # not a heading"
    assert literal("a{b}") == "a{{b}}"
    _, screen, journal = run_play(open_adventure(), ["1", "1", hostile, "7"], tmp_path, seed=4,
                                  game_class=OpenGame)
    assert "Expected: " + hostile in screen
    # the journal is Markdown: the marks are escaped there, so a Markdown viewer shows what was typed
    assert "*Expected:* \\[bold red\\]loud\\[/\\] {npc} \\*stars\\* \\# not a heading" in journal


def test_the_likelihood_menu_offers_all_nine_words_at_the_oracles_chance():
    for control, tension in (("yes", 3), ("mixed", 5), ("no", 7)):
        game, decider, _ = play({"open_action": ["scene", "scene", "oracle", "end"], "control": [control] * 2,
                                 "likelihood": ["likely"]})
        assert game.state.oracle.tension == tension
        menu = next(q for q in decider.asked if q.kind == "likelihood")
        assert [o.key for o in menu.options] == list(LADDER)
        assert menu.prompt.endswith(f"(tension {tension})")
        for option in menu.options:  # the very chance the oracle rolls against, at the current tension
            assert option.chance is not None and option.chance.to_dict() | {"id": 0} == \
                game.oracle_chance(option.key).to_dict() | {"id": 0}


def test_the_likelihood_menu_shows_each_percentage_on_screen(tmp_path):
    game = OpenGame(seed=4, decider=RandomDecider(random.Random(0)), party=[pregenerated("espen")])
    shown = {w: game.oracle_chance(w).target for w in LADDER}
    _, screen, _ = run_play(open_adventure(), ["1", "1", "", "1", "Is it raining?", "9", "7"], tmp_path, seed=4,
                            game_class=OpenGame)
    menu = screen[screen.index("How likely is a yes?"):]
    for word, chance in shown.items():
        line = next(x for x in menu.splitlines() if re.match(rf"\s*\d+\.\s+{word.title()}\s", x))
        assert f"{chance}\u00a0%" in line  # never broken from its number
    assert "(certain, 95 %)" in screen


def round_limit(events):
    return next(e["round_limit"] for e in events if e.kind == "round_start")


def test_round_limits_fit_the_conflict():
    # the rule: fights and chases run to the finish, anything else as long as the scene allows
    assert {k: default_length(conflict_type(k)) for k in ("combat", "foot_chase", "car_chase", "social",
                                                          "lockpicking", "library", "sneaking", "tracking")} == {
        "combat": "finish", "foot_chase": "finish", "car_chase": "finish", "social": "scene",
        "lockpicking": "scene", "library": "scene", "sneaking": "scene", "tracking": "scene"}
    answers = {"open_action": ["conflict", "end"], "conflict_type": ["social"], "opponent": ["new"],
               "lens": ["cautious"] * 40}
    _, decider, events = play(answers)
    assert round_limit(events) == ROUND_LIMITS["scene"][0] == 6
    stakes = next(e for e in events if e.kind == "conflict_stakes")
    assert stakes["stakes"] == "Who gets their way"
    assert decider.kinds().index("stakes") < decider.kinds().index("round_limit") < decider.kinds().index("lens")
    _, _, events = play({**answers, "conflict_type": ["combat"], "stakes": ["The ledger"]})
    assert round_limit(events) == 30
    assert next(e for e in events if e.kind == "conflict_stakes")["stakes"] == "The ledger"
    # a player's words are shown as typed, braces and all (a review: "{if gold}rich{else}poor{end}" became "poor")
    typed = "{if gold}rich{else}poor{end} {you}"
    _, _, events = play({**answers, "stakes": [typed]})
    assert next(e for e in events if e.kind == "conflict_stakes")["stakes"] == typed
    _, _, events = play({**answers, "round_limit": ["short"]})
    assert round_limit(events) == 3 and not any(e.kind == "round_start" and e["round"] > 3 for e in events)


def test_meetings_follow_the_situation_its_threads_and_its_npcs():
    answers = {"open_action": ["meet", "meet", "meet", "end"], "meet": ["thread1", "stranger", "npc1"]}
    game, decider, events = play(answers)
    thread = game.state.oracle.threads[0]
    thread_event = next(e for e in events if e.kind == "thread")
    assert thread_event["text"] == thread and thread_event["opened"]
    first = [q for q in decider.asked if q.kind == "meet"][0]
    labels = [o.label for o in first.options]
    assert f"Someone tied to: {thread}" in labels and labels[-1] == "A stranger"
    met = [e for e in events if e.kind == "npc_met"]
    assert met[0]["tied_to"] == thread and thread[1:] in met[0]["role"] and met[0]["tie"]
    assert met[1].get("tied_to") is None
    assert met[2]["npc"] == "npc1" and met[2]["again"] and met[2]["name"] == met[0]["name"]
    assert len(game.state.npcs) == 2  # the one met again is not made anew
    third = [q for q in decider.asked if q.kind == "meet"][2]
    assert [o.key for o in third.options][:2] == ["npc2", "npc1"]  # the latest met first


def test_meeting_someone_says_the_thread_once_and_their_trade_with_an_article():
    """A new user met "You meet Viggo Hovland, a soldier; tied to “…” (…). The reaction: unfriendly. Tied to “…”:
    Negotiate / Authority." (the thread twice) beside "Old Marta, soldier" (no article)."""
    from solo.ui.describe import npc_met

    game, _, events = play({"open_action": ["meet", "meet", "meet", "end"], "meet": ["thread1", "stranger", "npc1"]})
    tied, stranger, again = (npc_met(e) for e in events if e.kind == "npc_met")
    thread = game.state.oracle.threads[0]
    assert tied.lower().count("tied to") == 1 and f"Tied to \u201c{thread}\u201d: " in tied
    for line in (tied, stranger):
        name = line.removeprefix("You meet ").split(",")[0]
        assert re.match(rf"You meet {re.escape(name)}, an? [a-z]", line), line
    assert "; tied to \u201c" in again  # met again, the role the NPC list keeps names the thread: once
    assert "wants " in tied and " (" in stranger


def test_the_stranger_of_the_opening_can_be_met():
    from solo.decisions import QuestionError

    met_one = 0
    for seed in range(40):
        try:
            game, decider, events = play({"open_action": ["meet", "end"], "meet": ["opening"]}, seed=seed)
        except QuestionError:  # this seed's opening names nobody, so there is nobody from it to meet
            continue
        situation = next(e for e in events if e.kind == "situation")["text"]
        menu = next(q for q in decider.asked if q.kind == "meet")
        if "opening" in [o.key for o in menu.options]:
            met = next(e for e in events if e.kind == "npc_met")
            stranger = menu.options[0].label.removeprefix("The ").removesuffix(" from the opening")
            assert stranger in situation and met["role"].startswith(f"the {stranger}")
            # said of the opening as it was: "who asked for help" of a card player who only "will not say who sent
            # them" (a group's evening)
            detail = menu.options[0].detail
            assert "help" not in detail or "help" in situation, (detail, situation)
            met_one += 1
    assert met_one >= 3, "too few openings with a stranger in 40 seeds"


def test_a_game_saved_before_expectations_replays_without_the_new_questions():
    _, decider, events = play({"open_action": ["meet", "conflict", "end"], "conflict_type": ["social"],
                               "opponent": ["new"]}, upcoming="open_action")
    kinds = decider.kinds()
    assert not {"scene_expectation", "meet", "stakes", "round_limit"} & set(kinds)
    assert round_limit(events) == 30
    assert not any(e.kind == "thread" for e in events)


def test_the_ending_line_says_how_long_whom_and_what_is_open():
    assert ending_title("the players closed the book", 3, ["A debt is called in"], ["npc1", "npc2"]) == \
        "The players closed the book after 3 scenes, 2 people met; still open: a debt is called in"
    assert ending_title("the story ran its course", 1, [], []) == \
        "The story ran its course after 1 scene; every thread closed"
    _, _, events = play({"open_action": ["end"]})
    ending = next(e for e in events if e.kind == "ending")
    assert ending["title"].startswith("You closed the book after 1 scene; still open: ")  # one player: you


def test_luck_owed_falls_due_when_an_open_scene_begins():
    espen = pregenerated("espen")
    game = OpenGame(seed=4, decider=RandomDecider(random.Random(0)), party=[espen])
    game.state.party = [espen]  # as play() seats it
    espen.luck = -2  # as borrowing would leave it, were open play to allow it
    espen.owed_failures = 0
    game._new_scene()
    assert espen.owed_failures == 2


def test_the_expectation_offered_speaks_for_one_player_or_for_the_table():
    """One player is offered "I look into …", a party "We look into …" (a new player met "we" alone)."""
    for party, word in (([pregenerated("espen")], "I"), ([pregenerated("espen"), pregenerated("espen")], "We")):
        decider = Scripted({"open_action": ["end"], "scene_expectation": [""]})
        OpenGame(seed=3, decider=decider, sink=lambda e: None, party=party).play()
        [first] = [q for q in decider.asked if q.kind == "scene_expectation"][:1]
        assert first.default == f"{word} look into what is going on"


def test_a_routine_roll_asks_no_focus_it_could_not_use():
    """A group's evening: a Routine roll (a success without dice) still asked "Does a Focus fit?". From edition 3 it
    asks none; a Normal roll still does, and a save's game of edition 2 asks as it did (its answers were given so)."""
    asked = {}
    for difficulty, edition in (("routine", 3), ("normal", 3), ("routine", 2)):
        events: list = []
        decider = Scripted({"open_action": ["roll", "end"], "skill": ["Social"], "difficulty": [difficulty]})
        game = OpenGame(seed=3, decider=decider, sink=events.append, party=[pregenerated("espen")])
        game.edition = edition
        game.play()
        asked[difficulty, edition] = "focus" in decider.kinds()
        assert any(e.kind == "skill_roll" for e in events)
    assert asked == {("routine", 3): False, ("normal", 3): True, ("routine", 2): True}

"""Open play: no written adventure; the tables, the oracle and the generator drive the game."""

from __future__ import annotations

import random

from conftest import run_play

from solo.minds.bots import RandomDecider
from solo.rules.creation import pregenerated
from solo.saves import read_save
from solo.story.play.open_play import OpenGame, open_adventure


def test_random_players_never_crash_open_play():
    kinds = set()
    for seed in range(80):
        events = []
        game = OpenGame(seed=seed, decider=RandomDecider(random.Random(seed)), sink=events.append,
                        party=[pregenerated("espen")])
        game.play()
        kinds |= {e.kind for e in events}
        assert game.finished
    assert {"situation", "scene_setup", "npc_met", "oracle", "skill_roll", "conflict_start", "ending"} <= kinds


def run(lines, tmp_path, log=None):
    return run_play(open_adventure(), lines, tmp_path, seed=4, log=log, game_class=OpenGame)


# one player, Espen; what the scene should be; ask the oracle; meet a stranger; a note; an Awareness roll;
# end the scene; the next one; pick a lock, at the default stakes and length …
SCRIPT = ["1", "1", "We watch the quay from the harbour office", "1", "Is anyone watching?", "likely", "2",
          "stranger", "1", "5", "the clerk lied", "3", "1", "3", "1", "6", "1", "We follow the clerk home",
          "4", "1", "1", "", ""] + ["1"] * 6


def test_open_play_is_reproducible_and_resumes_exactly(tmp_path):
    code, out, straight = run(SCRIPT, tmp_path / "a")
    assert code == 0 and "Input ended; the game is saved" in out
    assert "The story opens" in straight and "Is anyone watching?" in straight and "the clerk lied" in straight
    assert "Scene 2" in straight and "Picking a lock" in straight
    assert "We watch the quay from the harbour office" in straight and "We follow the clerk home" in straight
    assert "At stake: Getting past the lock" in straight and "Round 1 of 6" in straight
    run(SCRIPT[:11] + ["quit"], tmp_path / "b")
    save = read_save(tmp_path / "b" / "game.json")
    assert save.adventure_id == "open"
    _, _, resumed = run(SCRIPT[11:], tmp_path / "b", log=save.log)
    assert resumed == straight


def test_ending_the_story_asks_first_and_can_play_on(tmp_path):
    """Issue 31, point 5: "End the story here" asks before it ends anything; "play on" goes back to the menu."""
    lines = ["1", "1", "We watch the quay", "7", "2", "7", "1", "2", "", "quit"]
    code, out, transcript = run(lines, tmp_path)
    screen = " ".join(out.split())
    assert screen.count("End the story here? (1 thread still open; the epilogue follows)") == 2
    assert "1. Yes, end the story" in screen and "2. No, play on" in screen
    first, second = screen.split("End the story here? (", 2)[1:]
    assert "What happens now?" in first  # played on
    assert "The end:" in second and "The end:" not in first
    log = read_save(tmp_path / "game.json").log
    assert [e[2] for e in log if e[1] == "end_story"] == ["play_on", "end"]


def test_an_undo_among_a_choices_questions_shows_the_answers_that_led_there(tmp_path):
    """Undoing a skill roll stops again at 'Does a Focus fit?': the screen says which roll, skill and difficulty
    it belongs to, as they were answered before."""
    lines = ["", "1", "", "3", "7", "", "2", "undo"]
    code, out, _ = run_play(open_adventure(), lines, tmp_path, seed=3, game_class=OpenGame)
    assert code == 0
    after_undo = out.split("Stepped back one decision.", 1)[1]
    context = "So far: What happens now? Make a skill roll · Which skill? Social · How hard is it? Normal"
    assert context in " ".join(after_undo.split())
    assert after_undo.index("So far:") < after_undo.index("Does a Focus fit?")
    # a question that begins a choice (the menu after the roll, undone to) has nothing before it to recall
    code, out, _ = run_play(open_adventure(), ["", "1", "", "3", "7", "", "2", "1", "undo"], tmp_path / "b",
                            seed=3, game_class=OpenGame)
    assert "So far:" not in out.split("Stepped back one decision.", 1)[1]


def test_recap_groups_each_scene_once_with_what_was_expected_and_asked_in_it(tmp_path):
    """Every entry under its scene's title, once a scene, in order: the oracle's answers and the notes inside the
    scene they were asked in (one asked at the next scene's 'what do you expect?' belongs to the scene under way),
    and each open-play scene's title says briefly what the players expected of it."""
    long = "We follow the clerk home through the narrow lanes of the old town by night"
    lines = ["", "1", "We watch the quay from the harbour office", "1", "Is anyone watching?", "likely",
             "5", "the clerk lied", "6", "2", "? Is it raining", long, "1", "Does he see us?", "likely", "recap"]
    code, out, _ = run_play(open_adventure(), lines, tmp_path, seed=4, game_class=OpenGame, width=100)
    assert code == 0
    recap = out.split("> recap\n", 1)[1].split("\n\n", 1)[0].splitlines()
    headers = [line for line in recap if not line.startswith(" ")]
    assert headers == ["Before the first scene", "Scene 1 (expected: We watch the quay from the harbour office)",
                       "Scene 2 (expected: We follow the clerk home through the narrow lanes of the\u2026)"]
    scene_1, scene_2 = recap.index(headers[1]), recap.index(headers[2])
    assert [line.split("\u201d")[0] for line in recap[scene_1 + 1:scene_2]] == [
        "  Oracle: \u201cIs anyone watching?", "  Note: the clerk lied", "  Oracle: \u201cIs it raining"]
    assert recap[scene_2 + 1:] and recap[scene_2 + 1].startswith("  Oracle: \u201cDoes he see us?\u201d ")
    assert recap[1].startswith("  Thread opened: ") and recap[2].startswith("    ")  # a long entry goes on under itself


def test_a_prompt_that_is_no_question_is_set_off_from_its_answer_in_the_so_far_line():
    """After an undo in a conflict the screen read 'So far: choose a Lens Flamboyant'."""
    from solo.decisions import Option, Question
    from solo.ui.session import answered_so_far

    lens = Question("lens", "choose a Lens", (Option("cautious", "Cautious"), Option("flamboyant", "Flamboyant")))
    skill = Question("flamboyant_skill", "Which skill do you show off with?", (Option("Move", "Move"),))
    assert answered_so_far([(lens, "flamboyant"), (skill, "Move")]) == (
        "So far: Choose a Lens: Flamboyant · Which skill do you show off with? Move")
    # a prompt ending in a stop keeps it ("... 1 Luck left.: Flip" read oddly), and one with no words gives the label
    flip = Question("luck_flip", "You would have 1 Luck left.", (Option("yes", "Flip to 08"),))
    bare = Question("choice", "  ", (Option("a", "Alpha"),))
    assert answered_so_far([(flip, "yes"), (bare, "a")]) == "So far: You would have 1 Luck left. Flip to 08 · Alpha"

"""Saves: atomic writes with a backup, clear messages for bad files, and no progress lost to a kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.decisions import Option, Question
from solo.saves import Replayer, SaveData, SaveError, SaveMismatch, backup_of, read_save, write_save


def sample(n=3) -> SaveData:
    return SaveData(adventure_id="tutorial", adventure_source="scenes/tutorial.toml", adventure_hash="abc",
                    seed=7, log=[["a", "choice", str(i)] for i in range(n)], snapshot={"x": 1}, label="here")


def test_round_trip_and_backup(tmp_path):
    path = tmp_path / "g.json"
    write_save(path, sample(1))
    assert not backup_of(path).exists()
    write_save(path, sample(2))
    assert read_save(path).log == sample(2).log
    assert read_save(backup_of(path)).log == sample(1).log
    text = path.read_text()
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("content,fragment", [
    ("", "corrupt"),
    ("{not json", "corrupt"),
    ('{"format": "something-else"}', "not a solo save"),
    ('{"format": "solo-save", "version": 99}', "version 99"),
    ('{"format": "solo-save", "version": 1}', "damaged save"),
    ('{"format": "solo-save", "version": 1, "adventure": {"id": "a", "source": "b", "hash": "c"}, '
     '"seed": 1, "log": [["x"]]}', "decision log is damaged"),
    ('{"format": "solo-save", "version": 1, "adventure": {"id": "a", "source": "b", "hash": "c"}, '
     '"seed": "one", "log": []}', "seed"),
])
def test_bad_saves_are_named_and_offer_the_backup(tmp_path, content, fragment):
    path = tmp_path / "g.json"
    write_save(path, sample())
    write_save(path, sample())  # now a backup exists
    path.write_text(content)
    with pytest.raises(SaveError) as info:
        read_save(path)
    message = str(info.value)
    assert str(path) in message and fragment in message
    assert "backup exists" in message and info.value.backup == backup_of(path)


def test_missing_save(tmp_path):
    with pytest.raises(SaveError, match=r"no such save\. solo saves lists the saves there are\."):
        read_save(tmp_path / "nothing.json")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_saves_are_accepted_or_rejected_with_a_message(tmp_path, data):
    text = json.dumps(sample().to_dict())
    pos = data.draw(st.integers(0, len(text) - 1))
    mutation = data.draw(st.sampled_from(["delete", "insert", "replace", "truncate"]))
    char = data.draw(st.characters(blacklist_categories=("Cs",)))
    if mutation == "delete":
        text = text[:pos] + text[pos + 1:]
    elif mutation == "insert":
        text = text[:pos] + char + text[pos:]
    elif mutation == "replace":
        text = text[:pos] + char + text[pos + 1:]
    else:
        text = text[:pos]
    path = tmp_path / "fuzz.json"
    path.write_text(text, encoding="utf-8")
    try:
        loaded = read_save(path)
    except SaveError as exc:
        assert str(path) in str(exc)
    else:
        assert isinstance(loaded.log, list)


def test_replayer_refuses_a_log_that_does_not_fit():
    question = Question("choice", "What now?", (Option("1", "one"), Option("2", "two")))
    with pytest.raises(SaveMismatch):
        Replayer([["a", "lens", "aggressive"]], None, on_meta=lambda e: None).decide(question)
    with pytest.raises(SaveMismatch):
        Replayer([["a", "choice", "9"]], None, on_meta=lambda e: None).decide(question)



def test_an_old_saves_answer_to_a_question_no_longer_asked_is_passed_over():
    """A save from before a side Pool needed a mind holds 'Which Pool do you hit?' answered against a barrow-wight
    (the review: such a save stopped loading, "the save expected a 'damage_pool' decision but the game asks for
    'lens'"). Replayed, that answer is passed over and the log goes on; a kind that is still asked must fit."""
    question = Question("lens", "Choose a Lens", (Option("none", "No Lens"), Option("covert", "Covert")))
    replay = Replayer([["a", "damage_pool", "POW"], ["a", "lens", "covert"]], None, on_meta=lambda e: None)
    assert replay.decide(question) == "covert"
    many = [["a", "damage_pool", "POW"]] * 5000 + [["a", "lens", "none"]]  # a save is the player's: no depth to hit
    assert Replayer(many, None, on_meta=lambda e: None).decide(question) == "none"
    with pytest.raises(SaveMismatch):
        Replayer([["a", "choice", "1"], ["a", "lens", "covert"]], None, on_meta=lambda e: None).decide(question)


WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from solo.saves import SaveData, write_save
    path = Path(sys.argv[1])
    n = 0
    while True:
        n += 1
        log = [["a", "choice", str(i)] for i in range(n % 500)] * 20
        write_save(path, SaveData("adv", "src", "h", n, log=log, snapshot={"n": n}))
        if n == 1:
            print("saved", flush=True)
""")


def test_killing_the_process_mid_save_leaves_a_loadable_save(tmp_path):
    path = tmp_path / "g.json"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    for attempt in range(12):
        with subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True) as proc:
            assert proc.stdout.readline() == "saved\n"  # start-up is over: every kill lands among the writes
            # 0 to 55 ms: each write (with its fsync) takes 3 to 9 ms, so the twelve kills land from the second
            # write to about the tenth, each at whatever point of a write the scheduler leaves it; a longer wait
            # only moves the kill further along the same loop (0.02 s steps slept 1.3 s a run for nothing more)
            time.sleep(0.005 * attempt)
            os.kill(proc.pid, signal.SIGKILL)
        loaded = None
        for candidate in (path, backup_of(path)):
            try:
                loaded = read_save(candidate)
                break
            except SaveError:
                continue
        assert loaded is not None, f"attempt {attempt}: neither the save nor its backup loads"
        assert read_save(path)  # with link-then-rename the save itself is always whole


def test_a_save_of_an_adventure_named_by_a_relative_path_resumes_from_any_folder(tmp_path, monkeypatch):
    """A bad-input audit: `solo play mytale.toml` in one folder wrote `"source": "mytale.toml"`, and `solo play
    --load …` from another said "no adventure 'mytale'"; a copy of the tutorial was quietly replayed as the bundled
    one and the save re-pointed at it. The save records the whole path; one whose file is gone says what is played
    in its place."""
    import shutil

    from click.testing import CliRunner

    from solo.cli import cli
    from solo.story.format.library import find_adventure

    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    shutil.copy(find_adventure("tutorial"), here / "mytale.toml")
    text = (here / "mytale.toml").read_text(encoding="utf-8")
    (here / "mytale.toml").write_text(text.replace('id = "tutorial"', 'id = "mytale"', 1), encoding="utf-8")
    monkeypatch.chdir(here)
    started = CliRunner().invoke(cli, ["play", "mytale.toml", "--saves", str(here / "saves"), "--seed", "5"],
                                 input="1\n")
    save = here / "saves" / "mytale.json"
    assert save.exists(), started.output
    assert read_save(save).adventure_source == str((here / "mytale.toml").resolve())
    monkeypatch.chdir(elsewhere)
    resumed = CliRunner().invoke(cli, ["play", "--load", str(save)], input="")
    assert "cannot be loaded" not in resumed.output and "Resumed" in resumed.output, resumed.output
    # a save from before, or a file moved away: the game says what it plays instead, here the bundled tutorial
    data = json.loads(save.read_text(encoding="utf-8"))
    data["adventure"]["source"], data["adventure"]["id"] = "tut.toml", "tutorial"
    save.write_text(json.dumps(data), encoding="utf-8")
    moved = CliRunner().invoke(cli, ["play", "--load", str(save)], input="")
    said = " ".join(moved.output.split())
    assert "The adventure file this save names, tut.toml, is not there; playing the adventure named 'tutorial' " \
           "from " in said, said


def test_a_game_of_edition_7_replays_its_npcs_blows_and_random_characters_as_they_were():
    """Edition 8 changed what an NPC declares (no Lens that cannot win the round, no Clever for the mindless), what
    #Gear adds to empty hands and which Focus a random character is dealt; a game begun before replays by its own
    edition, so its recorded answers still meet the questions they answered."""
    import random
    from collections import Counter

    from solo.minds.npc import mind_can_declare
    from solo.npc import generate_npc
    from solo.rules.conflict_types import conflict_type
    from solo.rules.creation import career_choices
    from solo.rules.lenses import LENSES
    from solo.rules.participants import from_character
    from solo.rules.rulebook import rules
    from solo.story.play.engine import EDITION
    from solo.story.play.npcs import default_mind

    assert EDITION == 8
    draugr = generate_npc(random.Random(3), "master", role="draugr", mindless=True)
    assert "clever" not in mind_can_declare(list(LENSES), draugr.leanings())
    assert "clever" in mind_can_declare(list(LENSES), draugr.leanings(), mindless_study=True)
    assert default_mind(draugr, random.Random(1), edition=7).old_lenses
    assert not default_mind(draugr, random.Random(1), edition=8).old_lenses
    assert not default_mind(draugr, random.Random(1)).old_lenses  # a tool's mind (duel, odds): the latest
    fist = from_character(draugr, "b", conflict_type("combat"))
    assert draugr.weapon == "unarmed" and "Gear" in draugr.tags and fist.damage_bonus(True) == 0
    fist.gear_on_fists = True  # as the engine sets it for a game of edition 7
    assert fist.damage_bonus(True) == draugr.gear_bonus > 0
    dealt = Counter(f for seed in range(60) for s, f in career_choices("Soldier", random.Random(seed),
                                                                        fitted=False).focuses if s == "Combat")
    assert dealt["Gunnery"] > 0 and set(dealt) <= set(rules().skills["Combat"].focuses)


@pytest.mark.parametrize("seed", [-5, 10**900, 2**63])
def test_a_save_with_a_seed_no_command_takes_is_damaged(tmp_path, seed):
    """A bad-input audit: saves with seed -5 and 10**900 loaded and played, the 900 digits copied into the
    journal's front matter; a save holds a seed `--seed` would take."""
    from solo.cli.limits import MAX_SEED
    from solo.saves import MAX_SAVED_SEED

    assert MAX_SAVED_SEED == MAX_SEED
    data = sample()
    path = tmp_path / "game.json"
    write_save(path, data)
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["seed"] = seed
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(SaveError, match="damaged save: the seed is not one solo plays: 0 to 9,223,372,036,854,775,807"):
        read_save(path)
    raw["seed"] = MAX_SEED
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert read_save(path).seed == MAX_SEED


def test_the_engine_plays_a_game_of_edition_7_by_its_own_rules():
    """The review: edition 8's gates were set by hand in the test above and never read from a game. The engine
    deals #Gear to empty hands in a game of edition 7 and not in one of 8; the mind it makes for an edition-7 game
    swings with a Lens that cannot win (a smuggler of Combat 5 keeps declaring Aggressive), and not for 8; a
    character the dice make in an edition-7 game is dealt its Focuses as it was."""
    import random
    from collections import Counter
    from pathlib import Path

    from solo.minds.bots import GreedyDecider
    from solo.npc import NPC as NPCFile
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.creation import pregenerated
    from solo.rules.participants import from_character
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.creation import create_character
    from solo.story.play.engine import Game
    from solo.story.play.npcs import default_mind
    from solo.toml_files import load_toml

    combat = conflict_type("combat")
    game = Game(load_adventure(find_adventure("tutorial")), seed=1, decider=GreedyDecider())
    espen = pregenerated("espen")
    espen.tags, espen.gear_bonus, espen.weapon = [*espen.tags, "Gear"], 2, "martial_arts"
    game.state.party = [espen]
    for edition, fists in ((7, True), (8, False)):
        game.edition = edition
        sides, _, _ = game.conflict_sides(combat, [], pc_decider=None, mind=lambda nid, npc: None)
        assert [p.gear_on_fists for p in sides] == [fists] and sides[0].damage_bonus(True) == (2 if fists else 0)

    petra = NPCFile.from_dict(load_toml(Path(__file__).parent / "data" / "npc_petra_smuggler.toml"))
    declared: dict[int, Counter] = {}
    for edition in (7, 8):
        mind, counts = default_mind(petra, random.Random(1), edition=edition), Counter()

        class Tally:
            def decide(self, q, mind=mind, counts=counts):
                answer = mind.decide(q)
                counts[answer] += q.kind == "lens"
                return answer

        dice = random.Random(2)
        for _ in range(30):
            Conflict(combat, [from_character(pregenerated("espen"), "a", combat, decider=GreedyDecider()),
                              from_character(petra.duplicate(), "b", combat, decider=Tally())], dice,
                     round_limit=12).run()
        declared[edition] = counts
    assert declared[7]["aggressive"] > 0 and declared[8]["aggressive"] == 0, declared

    class Dice:
        def decide(self, q):
            return "random" if q.kind == "method" else q.default or q.options[0].key

    dealt = {fitted: Counter(f for seed in range(60) for k, f in ((k, k.split("//")[1]) for k in create_character(
        Dice(), random.Random(seed), name="Asta", fitted=fitted).focuses) if k.startswith("Combat//"))
        for fitted in (False, True)}
    assert dealt[False]["Gunnery"] > 0 and dealt[True] and dealt[True]["Gunnery"] == 0, dealt

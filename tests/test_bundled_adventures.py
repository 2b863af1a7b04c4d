"""The bundled adventures played end to end by script, transcripts compared to stored ones.

Regenerate after an intended change: the scripts with tests/data/scripts/make_script.py,
the transcripts with ``python tests/test_bundled_adventures.py``.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from conftest import run_play, script_lines

from solo.saves import read_save
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure, read_adventure

DATA = Path(__file__).parent / "data"
# (adventure, seed, script, stored transcript)
GAMES = [
    ("tutorial", 5, "tutorial_seed5.txt", "tutorial_seed5.md"),
    ("vellan", 4, "vellan_seed4.txt", "vellan_seed4.md"),
    ("vellan", 9, "vellan_party_seed9.txt", "vellan_party_seed9.md"),  # three players, hot-seat
    ("kaldskard", 3, "kaldskard_seed3.txt", "kaldskard_seed3.md"),
    ("kaldskard", 7, "kaldskard_party_seed7.txt", "kaldskard_party_seed7.md"),  # three players, group fights
]


#: The party games are played without the Lens odds (``solo play --no-odds``), as tests/test_kaldskard_narration.py
#: plays the toll: a group fight's odds are the engine's estimate, some 80 % of these two games' time (5.4 s of CPU
#: against 1.4 s without them, 2026-12-05), and the odds are menu text on the screen, which these tests do not
#: read. They draw nothing from the game's dice (tests/test_lens_advice.py): the journals are the same byte for
#: byte either way (all five stored transcripts played both ways). The one-player games and the walkthroughs
#: below keep the odds on, as a player plays.
WITHOUT_ODDS = {"vellan_party_seed9.txt", "kaldskard_party_seed7.txt"}

script = script_lines


@functools.cache
def loaded(adventure: str):
    """A bundled adventure, loaded once for the games of this file: a session plays it without changing it (the
    conftest's ``vellan`` fixture is shared alike)."""
    return load_adventure(find_adventure(adventure))


def play(adventure, seed, lines, folder, log=None, *, advise=True):
    return run_play(loaded(adventure), lines, folder, seed=seed, log=log, width=110, advise=advise)


@pytest.mark.parametrize("adventure", ["tutorial", "vellan", "kaldskard"])
def test_bundled_adventures_check_clean(adventure):
    _, problems = read_adventure(find_adventure(adventure))
    assert problems == []


PARTY_GAME = GAMES[2]  # played once for every test that reads it (the party_game fixture)


@pytest.mark.parametrize("adventure,seed,script_name,expected", [g for g in GAMES if g is not PARTY_GAME])
def test_scripted_play_matches_the_stored_transcript(tmp_path, adventure, seed, script_name, expected):
    code, out, transcript = play(adventure, seed, script(script_name), tmp_path,
                                 advise=script_name not in WITHOUT_ODDS)
    assert code == 0 and "The game is over (" in out
    assert transcript == (DATA / "expected" / expected).read_text(encoding="utf-8")


def test_the_party_game_matches_its_stored_transcript(party_game):
    code, out, transcript, _ = party_game
    assert code == 0 and "The game is over (" in out
    assert transcript == (DATA / "expected" / PARTY_GAME[3]).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def party_game(tmp_path_factory):
    """The three-player game played once for the tests that only read it: (code, screen, journal, log)."""
    folder = tmp_path_factory.mktemp("party")
    adventure, seed, script_name, _ = PARTY_GAME
    code, out, transcript = play(adventure, seed, script(script_name), folder, advise=script_name not in WITHOUT_ODDS)
    return code, out, transcript, read_save(folder / "game.json").log


@pytest.mark.parametrize("expected", [g[3] for g in GAMES])
def test_everything_told_in_a_round_of_the_journal_is_one_of_its_items(expected):
    """From a round's heading to the conflict's summary every line of the journal is an item of the round: the moves
    told before a plea came with the plea and read as a paragraph of the story between the rounds ("Runa goes
    back to the heart of the matter"), as did a Luck flip and the line of a blow that ended someone. Only the
    telling of how it ended, after the last round, stands as a paragraph. The stored journals are the games'
    own (the tests above replay them)."""
    loose = []
    in_round = False
    lines = (DATA / "expected" / expected).read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines, 1):
        if line.startswith("**Round "):
            in_round = True
        elif line.startswith("#") or re.fullmatch(r"\*[^*].*: over .*\*", line):
            in_round = False
        elif in_round and line and not line.startswith("- "):
            following = next((later for later in lines[number:] if later), "")
            if not re.fullmatch(r"\*[^*].*: over .*\*", following):  # the telling of the end, before the summary
                loose.append((number, line))
    assert loose == []


def test_party_game_names_each_player_at_their_turn(party_game):
    code, out, transcript, _ = party_game
    assert "The party: Espen Lind" in transcript and transcript.count("(Journalist)") >= 1
    for player in ("Ada", "Bo", "Cy"):
        assert f" {player} " in out  # the hot-seat banner before that player's questions
    # "Who will you play?" numbers alike for every player: Bo, Espen taken, types the 3 Ada was shown for a random one
    bo = out.split("Bo \u2014 Who will you play?", 1)[1].split(">", 1)[0]
    assert "2.  Make a new character" in bo and "3.  A random character" in bo and "1." not in bo
    assert "declares: choose a Lens" in out


def test_save_and_load_in_the_middle_of_a_party_conflict_resumes_exactly(tmp_path, party_game):
    """The party game quit and resumed three times, each time in the middle of a round of a party conflict
    (after its second Lens declaration, halfway through them and near the end), ends exactly as the game
    played straight: one game instead of three, each resume from the save the quit before it left."""
    lines = script("vellan_party_seed9.txt")
    _, _, straight, log = party_game
    answers = [entry for entry in log if entry[0] == "a"]
    assert len(answers) == len(lines)
    lens_at = [i for i, entry in enumerate(answers) if entry[1] == "lens"]
    # between two Lens declarations: in the middle of a round of a party conflict
    cuts = [lens_at[1], lens_at[len(lens_at) // 2], lens_at[-2]]
    assert cuts == sorted(set(cuts)), cuts
    folder, saved, done = tmp_path / "part", None, 0
    for cut in cuts:
        assert answers[cut - 1][1] in ("lens", "luck_flip", "luck_reduce", "push", "target", "clever_follow_up")
        code, out, _ = play("vellan", 9, lines[done:cut] + ["quit"], folder, log=saved, advise=False)
        assert "Resume with" in out, f"no save offered at answer {cut}"
        saved = read_save(folder / "game.json").log
        assert [e for e in saved if e[0] == "a"] == answers[:cut], f"the save at answer {cut} lost answers"
        done = cut
    _, _, resumed = play("vellan", 9, lines[done:], folder, log=saved, advise=False)  # as party_game played it
    assert resumed == straight
    heading = next(ln for ln in straight.splitlines() if ln.startswith("### "))
    assert heading.count("%") >= 4, heading  # three PCs against at least one opponent


if __name__ == "__main__":  # regenerate the stored transcripts (from the repository root)
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    import tempfile

    for adventure, seed, script_name, expected in GAMES:
        folder = Path(tempfile.mkdtemp())  # (run from the repository root: python tests/test_bundled_adventures.py)
        _, _, text = play(adventure, seed, script(script_name), folder, advise=script_name not in WITHOUT_ODDS)
        (DATA / "expected" / expected).write_text(text, encoding="utf-8")
        print("wrote", expected)


WALKTHROUGHS = sorted((DATA / "walkthroughs").glob("*/*.txt"))


@pytest.mark.parametrize("path", WALKTHROUGHS, ids=[f"{p.parent.name}-{p.stem}" for p in WALKTHROUGHS])
def test_each_ending_has_a_stored_walkthrough_that_plays_to_it(path, tmp_path, monkeypatch):
    """Every ending of the bundled adventures, played from a stored script with the seed its first line names
    (written by ``solo prove ADVENTURE --scripts``), as a person would play it: ``solo play --script --seed``."""
    from click.testing import CliRunner

    from solo.cli import cli

    header = path.read_text(encoding="utf-8").splitlines()[0]
    seed = int(header.split(", seed ", 1)[1].split(":", 1)[0])
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", path.parent.name, "--script", str(path), "--seed", str(seed),
                                      "--saves", str(tmp_path / "saves"), "--save", "walk"])
    again = (f"if the engine's dice or menus changed on purpose, write them again: solo prove {path.parent.name} "
             f"--scripts tests/data/walkthroughs/{path.parent.name} --force")
    assert result.exit_code == 0, result.output[-2000:] + "\n" + again
    assert read_save(tmp_path / "saves" / "walk.json").snapshot["ending"] == path.stem, again


def test_every_ending_of_the_showcase_adventures_has_a_walkthrough():
    for name in ("kaldskard", "vellan"):
        endings = {s.id for s in load_adventure(find_adventure(name)).endings()}
        assert {p.stem for p in WALKTHROUGHS if p.parent.name == name} == endings, name


def test_vellans_introduction_promises_the_days_its_clock_counts():
    """The introduction said 'two days and two nights' while the status line counted 'day 1/3': the adventure
    plays Wednesday, Thursday and Friday morning (the noon bus), and both now say so."""
    adventure = load_adventure(find_adventure("vellan"))
    [day] = [c for c in adventure.clocks if c.counter == "day"]
    files = (find_adventure("vellan") / name for name in ("night.toml", "day_two.toml"))
    sets = {int(m) for f in files for m in re.findall(r'counter = "day", value = (\d+)', f.read_text(encoding="utf-8"))}
    assert max(sets) == day.max == 3  # the third day is reached, and it is the last the clock shows
    intro = " ".join(adventure.introduction.split())
    assert "two days, two nights and Friday morning" in intro and "two days and two nights." not in intro


def test_the_tutorial_explains_a_failed_talk_once(tmp_path):
    """Both rolls failing at the gangway explained the rule and the retry's cost afresh every time."""
    _, out, _ = play("tutorial", 5, ["1", "1", "2", "2", "2", "2", "quit"], tmp_path)  # seed 5: three fail
    words = " ".join(out.split())
    assert words.count("nobody wins when both rolls fail") == 1 and words.count("wears at your nerve") == 1
    assert words.count("Again you talk past each other, and again he shrugs.") == 2

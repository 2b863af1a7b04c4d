"""The roster (issue 17, item 2): characters kept in one folder, offered at "Who will you play?",
found by --pc NAME, rewritten in place after a game, listed by ``solo characters``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from solo.characters import (
    character_slug,
    find_in_roster,
    free_character_path,
    load_character,
    played_scenarios,
    read_roster,
    roster_folder,
    roster_line,
    save_character,
)
from solo.cli import cli
from solo.cli.play import saved_sources
from solo.decisions import Question, QuestionError
from solo.errors import SoloError
from solo.paths import default_roster, default_saves
from solo.rules.creation import pregenerated
from solo.story.format.loader import load_adventure

CLOAK = """\
[adventure]
id = "cloak"
title = "Cloak"
start = "foyer"

[scenes.foyer]
text = "A foyer."

[[scenes.foyer.choices]]
text = "Go south"
goto = "won"

[scenes.won]
title = "The end"
text = "Light."
ending = true
outcome = "won"
"""
EPILOGUE = ["no", "keep"]  # acted by Willpower? no; keep the improvement roll


@pytest.fixture
def cloak(tmp_path):
    path = tmp_path / "cloak.toml"
    path.write_text(CLOAK, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def no_home(monkeypatch):
    monkeypatch.delenv("SOLO_HOME", raising=False)
    monkeypatch.delenv("SOLO_SAVES", raising=False)


def play(tmp_path: Path, adventure: Path, lines: list[str], *extra: str, seed: int = 1):
    script = tmp_path / f"walk{seed}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    saves = tmp_path / "saves"
    args = ["play", str(adventure), "--seed", str(seed), "--script", str(script), "--saves", str(saves),
            "--keep-characters", str(saves / "characters"), "--save", f"g{seed}", *extra]
    return CliRunner().invoke(cli, args)


def test_a_finished_character_is_offered_next_time_and_rewritten_in_place(tmp_path, cloak, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = play(tmp_path, cloak, ["random", "", "Go south", *EPILOGUE], seed=1)
    assert first.exit_code == 0, first.output
    roster = tmp_path / "saves" / "characters"
    [made] = list(roster.iterdir())
    kept = load_character(made)
    assert read_roster(roster).entries[0].scenarios == 1

    # the next game offers it after the usual three (two here: the adventure has no pregen), by its name
    second = play(tmp_path, cloak, [kept.name.split()[0], "Go south", *EPILOGUE], seed=2)
    assert second.exit_code == 0, second.output
    assert f"3.  {kept.name}" in second.output and "1 scenario played" in second.output
    assert list(roster.iterdir()) == [made]  # the same file, never NAME_2
    again = read_roster(roster).entries[0]
    assert again.scenarios == 2 and again.name == kept.name
    assert sum(again.character.skills.values()) >= sum(kept.skills.values())


def test_two_roster_files_of_one_name_are_told_apart_by_their_files(tmp_path, cloak, monkeypatch):
    """Three replays of one seed left Alma Bakke three times in the roster, and "Who will you play?" listed
    "Alma Bakke" three times (a new player's run): where names repeat, each says its file."""
    import shutil

    monkeypatch.chdir(tmp_path)
    first = play(tmp_path, cloak, ["random", "", "Go south", *EPILOGUE], seed=1)
    assert first.exit_code == 0, first.output
    roster = tmp_path / "saves" / "characters"
    [made] = list(roster.iterdir())
    shutil.copy(made, roster / f"{made.stem}_2.toml")
    name = load_character(made).name
    second = play(tmp_path, cloak, ["3", "Go south", *EPILOGUE], seed=2)
    assert second.exit_code == 0, second.output
    assert f"3.  {name} ({made.stem})" in second.output and f"4.  {name} ({made.stem}_2)" in second.output


def test_a_new_character_shows_its_card_event_and_a_pregen_none(tmp_path):
    from solo.story.play.engine import Game

    class Answers:
        def __init__(self, *answers):
            self.answers = list(answers)

        def decide(self, q: Question) -> str:
            return self.answers.pop(0) if q.kind == "pc_source" else (q.default or q.keys()[0])

    from solo.story.format.library import find_adventure
    from solo.story.play.party import set_up_party

    tutorial = load_adventure(find_adventure("tutorial"))
    for how, shown in (("random", True), ("pregen", False)):
        events = []
        game = Game(tutorial, seed=4, decider=Answers(how), sink=events.append)
        set_up_party(game, None)
        cards = [e for e in events if e.kind == "new_character"]
        assert bool(cards) is shown
        if shown:
            assert cards[0].data["character"] == game.state.party[0].to_dict()


def test_pc_name_finds_a_roster_character_before_a_pregen(tmp_path):
    folder = tmp_path / "characters"
    espen = pregenerated("espen")
    espen.skills["Cunning"] = 44  # the player's own Espen, changed by play
    save_character(espen, folder / "espen_lind.toml", scenarios=3)
    assert load_character("espen", roster=folder).skills["Cunning"] == 44
    assert load_character("Espen Lind", roster=folder).skills["Cunning"] == 44
    assert load_character("espen", roster=tmp_path / "none").skills["Cunning"] == 30  # the pregen
    twin = pregenerated("espen")
    twin.name = "Espen Lie"
    save_character(twin, folder / "espen_lie.toml")
    with pytest.raises(Exception, match="several characters"):
        load_character("espen l", roster=folder)


def test_the_roster_line_names_career_best_skills_luck_and_games():
    espen = pregenerated("espen")  # Awareness 50 + Perception 20; Knowledge 30 + Research 20; Social 30 + 20
    assert roster_line(espen, 2) == ("Journalist · Awareness //Perception 70, Knowledge //Research 50, "
                                     "Social //Influence 50 · Luck 2/2 · 2 scenarios played")
    assert roster_line(espen) == ("Journalist · Awareness //Perception 70, Knowledge //Research 50, "
                                  "Social //Influence 50 · Luck 2/2")
    gunner = pregenerated("espen")
    gunner.focuses["Combat//Gunnery"] = 40  # issue 31, point 7: a narrow Focus's number is shown as the Focus's
    assert "Combat //Gunnery 70" in roster_line(gunner)


def test_a_file_that_is_no_character_is_named_not_fatal(tmp_path):
    folder = tmp_path / "characters"
    folder.mkdir()
    (folder / "broken.toml").write_text("name = [", encoding="utf-8")
    (folder / "odd.toml").write_text('name = "X"\nskills = { Nothing = 3 }\n', encoding="utf-8")
    save_character(pregenerated("espen"), folder / "espen_lind.toml")
    roster = read_roster(folder)
    assert [e.name for e in roster.entries] == ["Espen Lind"]
    assert len(roster.problems) == 2 and all("not a character" in p for p in roster.problems)
    result = CliRunner().invoke(cli, ["characters", "--saves", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Espen Lind" in result.output and "broken.toml" in result.output


@pytest.mark.parametrize("name", ["../../etc/passwd", "/abs/x", "..", "a\x00b", "ü" * 300, "con.toml/../x"])
def test_a_file_name_from_a_character_name_stays_in_its_folder(tmp_path, name):
    folder = tmp_path / "characters"
    path = free_character_path(folder, name)
    assert path.parent == folder and path.name == f"{character_slug(name)}.toml"
    assert len(path.name) <= 70


def test_where_the_roster_lives(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert default_saves() == Path("saves") and default_roster() == Path("characters")
    assert roster_folder(None, Path("saves") / "t.json") == Path("characters")
    elsewhere = tmp_path / "elsewhere"
    assert roster_folder(elsewhere, elsewhere / "t.json") == elsewhere / "characters"
    monkeypatch.setenv("SOLO_HOME", str(tmp_path / "home"))
    assert default_saves() == tmp_path / "home" / "saves"
    assert roster_folder(elsewhere, elsewhere / "t.json") == tmp_path / "home" / "characters"
    monkeypatch.setenv("SOLO_SAVES", str(tmp_path / "env"))
    assert default_saves() == tmp_path / "env"  # SOLO_SAVES still says where the saves go


def test_no_characters_folder_here_when_saves_are_elsewhere(tmp_path, cloak, monkeypatch):
    """A game played at the keyboard keeps its characters beside its saves, never in the current folder."""
    from solo.cli.play import _characters_dir
    from solo.ui.session import Session

    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    saves = tmp_path / "elsewhere"
    lines = iter(["random", "", "Go south", *EPILOGUE])

    def reader(prompt):
        for line in lines:
            return line
        raise EOFError

    session = Session(load_adventure(cloak), seed=3, console=Console(file=io.StringIO(), width=100),
                      reader=reader, save_path=saves / "cloak.json",
                      characters_dir=_characters_dir(saves, saves / "cloak.json"))
    assert session.run() == 0
    assert not (here / "characters").exists() and list(here.iterdir()) == []
    assert len(list((saves / "characters").iterdir())) == 1
    listed = CliRunner().invoke(cli, ["characters", "--saves", str(saves)])
    assert listed.exit_code == 0 and "1 scenario played" in listed.output
    assert list(here.iterdir()) == []


def test_a_random_character_is_not_written_by_piped_play(tmp_path, cloak, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", str(cloak), "--seed", "1", "--saves", "saves"],
                                input="random\n\nGo south\nno\nkeep\n")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "characters").exists() and not (tmp_path / "saves" / "characters").exists()


def test_a_game_whose_roster_character_played_on_says_so_when_loaded(tmp_path, cloak, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert play(tmp_path, cloak, ["random", "", "Go south", *EPILOGUE], seed=1).exit_code == 0
    [made] = list((tmp_path / "saves" / "characters").iterdir())
    first_name = load_character(made).name.split()[0]
    begun = play(tmp_path, cloak, [first_name], "--partial", seed=2)  # stops at its first scene
    assert begun.exit_code == 0, begun.output
    assert play(tmp_path, cloak, [first_name, "Go south", *EPILOGUE], seed=3).exit_code == 0  # plays on
    loaded = CliRunner().invoke(cli, ["play", "--load", str(tmp_path / "saves" / "g2.json")], input="")
    said = " ".join(loaded.output.split())
    assert loaded.exit_code != 0
    assert loaded.output.startswith("Loading ")  # said at once, before the replay
    assert f"the roster character {made.stem!r} as it was then" in said and f"--pc {made.stem}" in said


def test_two_characters_of_one_name_are_listed_with_commands_that_pick_each(tmp_path):
    roster = tmp_path / "saves" / "characters"
    roster.mkdir(parents=True)
    save_character(pregenerated("espen"), roster / "espen_lind.toml", scenarios=1)
    save_character(pregenerated("espen"), roster / "espen_lind_2.toml", scenarios=2)
    shown = CliRunner().invoke(cli, ["characters", "--saves", str(tmp_path / "saves")])
    assert shown.exit_code == 0, shown.output
    picks = [line.split("--pc ", 1)[1].split()[0] for line in " ".join(shown.output.split("\n  ")).splitlines()
             if "--pc " in line]
    # each by its whole path: it runs as printed from any folder (a newcomer's run), and names the one file
    assert sorted(picks) == [str(roster / "espen_lind.toml"), str(roster / "espen_lind_2.toml")]
    assert {load_character(pick).name for pick in picks} == {"Espen Lind"}


def test_a_ready_made_name_several_of_the_roster_share_means_the_ready_made_one(tmp_path, monkeypatch):
    """Before: after two games with Espen played as new, every "--pc espen" of the help (and solo duel's default)
    failed: "'espen' could be several characters of the roster". The ready-made one is meant; a name only the
    roster's share is still refused, and one of them alone is still its own."""
    roster = tmp_path / "characters"
    roster.mkdir()
    mine = pregenerated("espen")
    mine.skills["Combat"] += 7  # played on: not the ready-made one any more
    save_character(mine, roster / "espen_lind.toml", scenarios=1)
    assert load_character("espen", roster).skills["Combat"] == mine.skills["Combat"]  # one: yours
    save_character(mine, roster / "espen_lind_2.toml", scenarios=2)
    for name in ("espen", "Espen Lind"):
        picked = load_character(name, roster)
        assert picked.skills["Combat"] == pregenerated("espen").skills["Combat"], name
    for stem in ("espen_lind", "espen_lind_2"):  # a file's name picks it alone, as solo characters shows
        assert find_in_roster(roster, stem).path.name == f"{stem}.toml"
    other = pregenerated("espen")
    other.name = "Ada Berg"
    save_character(other, roster / "ada_berg.toml")
    save_character(other, roster / "ada_berg_2.toml")
    with pytest.raises(SoloError, match="could be several"):
        find_in_roster(roster, "ada")
    monkeypatch.chdir(tmp_path)  # solo duel's default --pc espen, with that roster beside the saves
    monkeypatch.delenv("SOLO_HOME", raising=False)
    duel = CliRunner().invoke(cli, ["duel", "--runs", "5", "--seed", "1"])
    assert duel.exit_code == 0, duel.output


def test_a_ready_made_name_is_not_the_start_of_another_of_the_roster(tmp_path):
    """A GM-less table's run: with an Espen Dahl of their own in the roster, "--pc espen" (the help's examples, solo
    duel's default) played Espen Dahl, unsaid. The ready-made short name means Espen Lind, or the one copy of him the
    roster holds; Espen Dahl is picked by his name or file name."""
    roster = tmp_path / "characters"
    roster.mkdir()
    dahl = pregenerated("espen")
    dahl.name = "Espen Dahl"
    save_character(dahl, roster / "espen_dahl.toml")
    assert load_character("espen", roster).name == "Espen Lind"
    assert load_character("espen dahl", roster).name == load_character("espen_dahl", roster).name == "Espen Dahl"
    assert load_character("espen d", roster).name == "Espen Dahl"  # the start of his name, not a ready-made one's
    mine = pregenerated("espen")
    mine.skills["Combat"] += 7
    save_character(mine, roster / "espen_lind.toml", scenarios=1)
    assert load_character("espen", roster).skills["Combat"] == mine.skills["Combat"]  # the one copy: yours


def test_a_name_found_nowhere_names_the_roster_that_was_searched(tmp_path, monkeypatch):
    """Before: with --saves elsewhere, "no character 'Ada Berg': not a file, not in your roster" said nothing of
    where that roster was (--saves moves it to DIR/characters)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOLO_HOME", raising=False)
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    result = CliRunner().invoke(cli, ["play", "tutorial", "--pc", "Ada Berg", "--saves", "elsewhere"])
    assert result.exit_code != 0
    said = " ".join(result.output.split())
    assert f"not in your roster ({tmp_path / 'elsewhere' / 'characters'}, which does not exist)" in said, said


def test_the_ready_made_character_and_the_one_you_played_are_told_apart(tmp_path):
    """Issue 31, point 7: "Espen Lind" was listed twice at "Who will you play?" (the pregen and the roster's)."""
    from solo.story.format.library import find_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import make_pc

    folder = tmp_path / "characters"
    save_character(pregenerated("espen"), folder / "espen_lind.toml", scenarios=2)
    asked = []

    class First:
        def decide(self, q: Question) -> str:
            asked.append(q)
            return q.keys()[0]

    game = Game(load_adventure(find_adventure("tutorial")), seed=1, decider=First())
    game.roster = read_roster(folder)
    make_pc(game)
    labels = [o.label for o in asked[0].options]
    assert labels[0] == "Play Espen Lind" and "Espen Lind (your roster)" in labels
    assert asked[0].options[0].detail == "the ready-made character, as new"
    # the name typed names both: it asks which (a player's run got the roster's copy without a word, where the
    # docs say a name picks an option only when it is in one option alone); the number picks
    with pytest.raises(QuestionError, match="could be 1 .*Espen Lind"):
        asked[0].resolve("espen")
    assert asked[0].resolve(str(asked[0].options[-1].number)) == asked[0].options[-1].key


def test_duel_and_odds_take_a_roster_name_as_play_does(tmp_path, monkeypatch):
    """Issue 31, point 7: `solo duel --pc 'Viggo Aasen'` and `solo odds --pc …` find the roster's character."""
    monkeypatch.setenv("SOLO_HOME", str(tmp_path))
    viggo = pregenerated("espen")
    viggo.name = "Viggo Aasen"
    viggo.skills["Combat"] = 61
    save_character(viggo, tmp_path / "characters" / "viggo_aasen.toml")
    duel = CliRunner().invoke(cli, ["duel", "--pc", "Viggo Aasen", "--runs", "20", "--seed", "3", "--json"])
    assert duel.exit_code == 0, duel.output
    assert "Viggo Aasen" in duel.output
    odds = CliRunner().invoke(cli, ["odds", "--pc", "viggo", "--skill-b", "50", "--pool-b", "10", "--json"])
    assert odds.exit_code == 0, odds.output
    unknown = CliRunner().invoke(cli, ["duel", "--pc", "nobody", "--runs", "5"])
    assert unknown.exit_code == 2 and "espen (Espen Lind)" in unknown.output


class _Keyboard:
    """Standard input that says it is a terminal: the game is played at the keyboard and keeps its characters."""

    def isatty(self) -> bool:
        return True


def _at_the_keyboard(monkeypatch, lines: list[str]) -> None:
    import sys
    import types

    answers = iter(lines)

    def reader(prompt: str) -> str:
        for line in answers:
            return line
        raise EOFError

    monkeypatch.setattr("solo.cli.play.sys", types.SimpleNamespace(stdin=_Keyboard(), exit=sys.exit))
    monkeypatch.setattr("solo.cli.play._terminal_reader", lambda console, saves: (reader, None))


def test_a_game_resumed_from_another_folder_keeps_the_roster_it_began_with(tmp_path, cloak, monkeypatch):
    """A game begun in X (saves in X/saves), resumed from the home folder with the printed hint
    'solo play --load X/saves/cloak.json', writes its character to X/characters, where a game begun and
    finished in X writes it, and 'solo characters' in X lists it."""
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    here, home = tmp_path / "x", tmp_path / "home"
    here.mkdir()
    home.mkdir()
    monkeypatch.chdir(here)
    script = tmp_path / "start.txt"
    script.write_text("random\n\n", encoding="utf-8")  # Enter keeps the drawn pronoun
    begun = CliRunner().invoke(cli, ["play", str(cloak), "--seed", "1", "--script", str(script), "--partial"])
    assert begun.exit_code == 0, begun.output
    save = here / "saves" / "cloak.json"
    from solo.saves import read_save

    assert read_save(save).options["roster"] == "beside"
    monkeypatch.chdir(home)
    _at_the_keyboard(monkeypatch, ["Go south", *EPILOGUE])
    ended = CliRunner().invoke(cli, ["play", "--load", str(save)])
    assert ended.exit_code == 0, ended.output
    [written] = list((here / "characters").iterdir())
    said = " ".join(ended.output.split())
    them = {"he": "him", "she": "her", "they": "them"}[load_character(written).pronoun]
    assert f"is saved. Take {them} on with: solo play {Path(cloak).resolve()} --pc {written}" in said
    assert not (here / "saves" / "characters").exists() and list(home.iterdir()) == []
    monkeypatch.chdir(here)
    listed = CliRunner().invoke(cli, ["characters"])
    assert listed.exit_code == 0 and "1 scenario played" in listed.output


def test_a_game_that_ends_after_its_characters_file_changed_leaves_that_file_alone(tmp_path, cloak, monkeypatch):
    """A group's evening: Kjell finished a game and improved (Combat 50 to 52, an axe); then an older save with Kjell
    in it was finished, and 'Kjell Ironside is saved.' wrote the older Kjell over his file: Combat 50, the axe gone.
    A file that changed since the game began (another game, an edit) is left as it is, the game's character is
    written to a file of its own, and the player is told so."""
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.toml"
    save_character(pregenerated("espen"), mine)
    _at_the_keyboard(monkeypatch, [])  # end of input at the first question: saved, to be resumed
    begun = CliRunner().invoke(cli, ["play", str(cloak), "--seed", "1", "--pc", str(mine), "--save", "g"])
    assert (tmp_path / "saves" / "g.json").is_file(), begun.output
    improved = load_character(mine)
    improved.skills["Combat"] += 2  # what another game's improvement did meanwhile (its third scenario)
    save_character(improved, mine, scenarios=3)
    _at_the_keyboard(monkeypatch, ["Go south", *EPILOGUE])
    resumed = CliRunner().invoke(cli, ["play", "--load", "g"])
    assert resumed.exit_code == 0, resumed.output
    assert load_character(mine).to_dict() == improved.to_dict() and played_scenarios(mine) == 3
    [written] = list((tmp_path / "characters").iterdir())
    assert load_character(written).skills["Combat"] == improved.skills["Combat"] - 2
    assert played_scenarios(written) == 3  # not back to 1 (the review): the scenarios the file had played
    # the file is compared under its lock, where it is written: two games ending at once do not both find it as
    # they began (the review); update_character says whether it wrote
    from solo.characters import update_character

    assert update_character(load_character(written), mine, begun=load_character(written)) is False
    assert load_character(mine).to_dict() == improved.to_dict()
    assert update_character(improved, mine, begun=improved) is True and played_scenarios(mine) == 4
    said = " ".join(resumed.output.split())
    assert "mine.toml has changed since this game began" in said and "written to" in said, said
    assert "--pc " + str(written) in said


def test_a_loaded_save_finds_its_roster_by_the_layout_it_recorded(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    game = tmp_path / "x" / "saves" / "t.json"
    assert roster_folder(None, game, "beside") == tmp_path / "x" / "characters"
    assert roster_folder(None, game, "inside") == tmp_path / "x" / "saves" / "characters"
    assert roster_folder(tmp_path / "other", game, "beside") == tmp_path / "x" / "characters"  # the save's word wins
    # a save older than the layout, in another folder's default saves: the characters beside it
    assert roster_folder(None, game) == tmp_path / "x" / "characters"
    assert roster_folder(None, tmp_path / "mine" / "t.json") == tmp_path / "mine" / "characters"
    assert roster_folder(None, game, "../../etc") == tmp_path / "x" / "saves" / "characters"  # a word, not a path
    from solo.characters import roster_layout

    assert roster_layout(Path("characters"), Path("saves")) == "beside"
    assert roster_layout(tmp_path / "d" / "characters", tmp_path / "d") == "inside"
    monkeypatch.setenv("SOLO_HOME", str(tmp_path / "h"))
    assert roster_layout(tmp_path / "h" / "characters", tmp_path / "d") == "home"
    assert roster_folder(None, game, "home") == tmp_path / "h" / "characters"


def test_a_resumed_game_writes_its_character_back_over_the_file_it_came_from(tmp_path, cloak, monkeypatch):
    """Before (a new player's run): a game begun at the keyboard with --pc mira_voss.toml, quit and resumed, ended
    with "Mira Voss is saved … --pc mira_voss_2.toml", and the roster listed her twice. The save keeps the files
    the party was read from; the resumed game writes each back over its own, while it still holds that character."""
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine.toml"
    save_character(pregenerated("espen"), mine)
    _at_the_keyboard(monkeypatch, [])  # end of input at the first question: saved, to be resumed
    begun = CliRunner().invoke(cli, ["play", str(cloak), "--seed", "1", "--pc", str(mine), "--save", "g"])
    save = tmp_path / "saves" / "g.json"
    assert save.is_file(), begun.output
    _at_the_keyboard(monkeypatch, ["Go south", *EPILOGUE])
    resumed = CliRunner().invoke(cli, ["play", "--load", "g"])
    assert resumed.exit_code == 0, resumed.output
    assert played_scenarios(mine) == 1, resumed.output
    assert "--pc " + str(mine) in " ".join(resumed.output.split())
    assert not (tmp_path / "characters").exists() or list((tmp_path / "characters").iterdir()) == []
    # a save edited to name a file that is not that character's: nothing is written over it
    saved = json.loads(save.read_text(encoding="utf-8"))["options"]["character_files"]
    other = tmp_path / "other.toml"
    other.write_text("not a character\n", encoding="utf-8")
    espen = [pregenerated("espen")]
    assert saved_sources(saved, espen) == {"Espen Lind": mine}
    assert saved_sources(saved | {"Espen Lind": str(other)}, espen) == {}
    assert saved_sources({"Espen Lind": str(tmp_path / "gone.toml")}, espen) == {}
    assert saved_sources(["not", "a", "table"], espen) == {}
    # nor the ready-made character shipped with solo, nor a file solo did not write (the review: a crafted save
    # rewrote the shipped espen_lind.toml)
    from solo.rules.creation import PREGENS

    shipped = next(PREGENS.glob("espen*.toml"))
    assert load_character(shipped).name == "Espen Lind"
    assert saved_sources({"Espen Lind": str(shipped)}, espen) == {}
    by_hand = tmp_path / "by_hand.toml"
    by_hand.write_text("\n".join(line for line in mine.read_text(encoding="utf-8").splitlines()
                                  if "made by solo" not in line) + "\n", encoding="utf-8")
    assert load_character(by_hand).name == "Espen Lind"
    assert saved_sources({"Espen Lind": str(by_hand)}, espen) == {}


def test_an_empty_roster_says_where_it_looked(tmp_path, monkeypatch):
    """A group's evening: "No characters in characters yet" read as a slip. The empty roster names its folder whole."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    monkeypatch.delenv("SOLO_HOME", raising=False)
    out = " ".join(CliRunner().invoke(cli, ["characters", "--saves", str(tmp_path / "saves")]).output.split())
    assert "Your roster is empty: no characters in " in out and str(tmp_path) in out and "in characters yet" not in out


@pytest.mark.parametrize("how", ["env", "option"])
def test_a_character_made_with_a_saves_folder_joins_that_folders_roster(tmp_path, monkeypatch, how):
    """A docs audit: under SOLO_SAVES (or with --saves DIR) `solo new` wrote ./characters, and `solo characters`,
    `solo play` and `--pc NAME` then read DIR/characters and did not find the character."""
    monkeypatch.delenv("SOLO_HOME", raising=False)
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    monkeypatch.chdir(tmp_path)
    saves = tmp_path / "kept"
    where = ["--saves", str(saves)] if how == "option" else []
    if how == "env":
        monkeypatch.setenv("SOLO_SAVES", str(saves))
    made = CliRunner().invoke(cli, ["new", "--random", "--seed", "4", "--name", "Tora Vang", *where])
    assert made.exit_code == 0, made.output
    assert not (tmp_path / "characters").exists()
    assert [p.name for p in (saves / "characters").iterdir()] == ["tora_vang.toml"]
    listed = CliRunner().invoke(cli, ["characters", *where])
    assert listed.exit_code == 0 and "Tora Vang" in listed.output, listed.output
    if how == "env":  # a command with no saves option reads the roster SOLO_SAVES gives
        duel = CliRunner().invoke(cli, ["duel", "--pc", "tora", "--runs", "5", "--seed", "3", "--json"])
        assert duel.exit_code == 0 and "Tora Vang" in duel.output, duel.output


def test_new_is_told_one_place_to_save(tmp_path):
    both = CliRunner().invoke(cli, ["new", "--random", "--out", str(tmp_path / "a.toml"), "--saves", str(tmp_path)])
    assert both.exit_code == 2 and "--out and --saves" in both.output
    quiet = CliRunner().invoke(cli, ["new", "--random", "--json", "--saves", str(tmp_path)])  # it would save nothing
    assert quiet.exit_code == 2 and "--saves goes without --json" in quiet.output and not list(tmp_path.iterdir())


def test_prove_and_simulate_take_a_roster_name_as_play_does(tmp_path, monkeypatch):
    """A review: `solo prove --pc tora` and `solo simulate --party tora` said "not in your roster" without reading
    it, where `solo duel --pc tora` found her."""
    monkeypatch.setenv("SOLO_HOME", str(tmp_path))
    tora = pregenerated("espen")
    tora.name = "Tora Vang"
    save_character(tora, tmp_path / "characters" / "tora_vang.toml")
    example = str(Path(__file__).parent / "data" / "example_adventure.toml")
    simulated = CliRunner().invoke(cli, ["simulate", example, "--party", "tora", "--runs", "3", "--seed", "1"])
    assert simulated.exit_code == 0, simulated.output
    proved = CliRunner().invoke(cli, ["prove", example, "--pc", "tora", "--seeds", "0", "--json"])
    assert proved.exit_code in (0, 1), proved.output
    assert json.loads(proved.output)["states"] > 0


DEADLY = """\
[adventure]
id = "drop"
title = "The Drop"
start = "edge"
comae = "death"

[scenes.edge]
text = "A ledge over the sea."

[[scenes.edge.choices]]
text = "Jump"
goto = { goto = "below", effects = [ { damage = "BODY", amount = 30 } ] }

[scenes.below]
text = "Water."
ending = true
"""


def test_a_roster_character_who_dies_is_listed_as_dead_and_offered_to_no_game(tmp_path, monkeypatch):
    """A hot-seat group: Alma Berg died in Kaldskard (comae = "death"), and the next game offered her at "Who will you
    play?", and `solo characters` with a command to play her. Her own file now says where she died."""
    monkeypatch.chdir(tmp_path)
    saves = tmp_path / "saves"
    alma = pregenerated("espen")
    alma.name, alma.luck = "Alma Berg", 0
    alma.pools["BODY"].current = -1  # pushed on already: the fall finishes her
    save_character(alma, saves / "characters" / "alma_berg.toml", scenarios=2)
    adventure = tmp_path / "drop.toml"
    adventure.write_text(DEADLY, encoding="utf-8")
    _at_the_keyboard(monkeypatch, ["alma", "Jump"])
    played = CliRunner().invoke(cli, ["play", str(adventure), "--seed", "3", "--saves", str(saves)])
    assert "Alma Berg died in The Drop" in " ".join(played.output.split()), played.output
    (entry,) = read_roster(saves / "characters").entries
    assert entry.fell == "The Drop" and entry.scenarios == 2 and "died in The Drop" in entry.summary
    listed = CliRunner().invoke(cli, ["characters", "--saves", str(saves)])
    assert "died in The Drop" in listed.output and "solo play --pc" not in listed.output
    with pytest.raises(SoloError, match="Alma Berg died in The Drop"):
        load_character("alma", roster=saves / "characters")
    assert load_character(str(entry.path)).name == "Alma Berg"  # her file, given as a file, still loads
    _at_the_keyboard(monkeypatch, [])
    offered = CliRunner().invoke(cli, ["play", str(adventure), "--seed", "1", "--save", "again", "--saves", str(saves)])
    assert "Who will you play?" in offered.output and "Alma" not in offered.output.split("Who will you play?", 1)[1]


def test_a_weapon_the_story_hands_out_stays_in_the_story(tmp_path, cloak, monkeypatch):
    """A hot-seat group's Kaldskard: Gudrun lent Alma an axe ("Bring it back when you are next this side of the
    mountain"), the roster kept it as Alma's own, and the next game at the same inn read "Alma Berg keeps the axe
    already in hand". What the story lends is the story's, as its items are: the character goes back as she came."""
    monkeypatch.chdir(tmp_path)
    armed = tmp_path / "armed.toml"
    armed.write_text(cloak.read_text(encoding="utf-8").replace(
        'goto = "won"', 'goto = { goto = "won", effects = [ { wield = "axe" } ] }'), encoding="utf-8")
    first = play(tmp_path, armed, ["random", "", "Go south", *EPILOGUE], seed=1)
    assert first.exit_code == 0, first.output
    assert "now fights with an axe" in first.output
    [made] = list((tmp_path / "saves" / "characters").iterdir())
    assert load_character(made).weapon is None
    # a weapon of the character's own is kept, whatever the story offers
    data = made.read_text(encoding="utf-8").replace('pronoun = ', 'weapon = "dagger"\npronoun = ', 1)
    made.write_text(data, encoding="utf-8")
    name = load_character(made).name
    second = play(tmp_path, armed, [name.split()[0], "Go south", *EPILOGUE], seed=2)
    assert second.exit_code == 0, second.output
    assert load_character(made).weapon == "dagger"


def test_a_roll_kept_for_later_is_said_on_screen_and_in_the_journal(tmp_path, cloak, monkeypatch):
    """A hot-seat group's Vellan: "Keep the roll for later" left no line anywhere, and the next game's "3 improvement
    rolls to spend" came from nowhere the table could see."""
    monkeypatch.chdir(tmp_path)
    first = play(tmp_path, cloak, ["random", "", "Go south", *EPILOGUE], seed=1)
    assert first.exit_code == 0, first.output
    said = " ".join(first.output.split())
    [name] = re.findall(r"(\S+ \S+) keeps an improvement roll unspent\.", said)
    journal = (tmp_path / "saves" / "g1.md").read_text(encoding="utf-8")
    assert f"{name} keeps an improvement roll unspent." in journal

"""The state of the story at a glance: threads, NPCs, items, the status line, dice, tables and meaning at the prompt."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
from conftest import play_session
from rich.console import Console

from solo.characters import load_character
from solo.minds.bots import RandomDecider
from solo.npc import generate_npc
from solo.oracle.loader import load_tables
from solo.saves import read_save
from solo.story.play.engine import Game
from solo.story.play.npcs import set_disposition
from solo.ui import story_commands as sc
from solo.ui.sheet import character_card, gear_names


def play(adventure, lines, folder, *, seed=5, log=None):
    """A session answered by ``lines`` then end of input: (session, what the screen showed)."""
    session, _, screen = play_session(adventure, lines, folder, seed=seed, log=log)
    return session, screen


def resume(adventure, lines, folder, *, seed=5):
    return play(adventure, lines, folder, seed=seed, log=read_save(folder / "game.json").log)


def after(out: str, command: str) -> str:
    """What the screen showed after the last ``> command`` line, up to the next question."""
    block = out.rsplit(f"> {command}\n", 1)[1]
    return block.split("\n\n", 1)[0]


# -- threads ----------------------------------------------------------------------------------


def test_threads_lists_the_oracle_threads_of_the_game(vellan, tmp_path):
    session, out = play(vellan, ["threads"], tmp_path)
    threads = session.game.state.oracle.threads
    assert threads == list(vellan.threads) and len(threads) == 2
    shown = after(out, "threads").splitlines()
    assert shown[1:-1] == [f"  {i}. {t} \u00b7 progress 0/10, flashpoint at 5" for i, t in enumerate(threads, 1)]
    assert "threads discover N" in shown[-1]


def test_added_and_closed_threads_survive_save_and_load(vellan, tmp_path):
    lines = ["threads add Find who paid the pilot", "threads close 1", "1", "threads add [red]Ask Marta[/red]"]
    session, out = play(vellan, lines, tmp_path)
    expected = ["Learn why the Margit sank", "Find who paid the pilot", "[red]Ask Marta[/red]"]
    assert session.game.state.oracle.threads == expected
    assert "A thread opens: [red]Ask Marta[/red]" in out  # written as typed, never read as markup
    log = read_save(tmp_path / "game.json").log
    assert ["m", "threads", "close", "Find the pilot Jonas Vik"] in log  # kept by its words, not its number
    again, out = resume(vellan, ["threads"], tmp_path)
    assert again.game.state.oracle.threads == expected
    assert after(out, "threads").splitlines()[1:-1] == [f"  {i}. {t} \u00b7 progress 0/10, flashpoint at 5"
                                                        for i, t in enumerate(expected, 1)]


def test_undo_takes_back_a_thread_added_after_the_last_answer_and_keeps_earlier_ones(vellan, tmp_path):
    session, _ = play(vellan, ["threads add Early", "1", "threads add Late", "undo"], tmp_path)
    assert session.game.state.oracle.threads[-1] == "Early"
    assert "Late" not in session.game.state.oracle.threads


def test_closing_a_thread_that_is_not_there_says_so(vellan, tmp_path):
    _, out = play(vellan, ["threads close 7", "threads close Zebra", "threads close"], tmp_path)
    assert "No thread number 7: there are 2 open threads.\nOpen threads:" in out
    assert "No open thread starts with \u201cZebra\u201d.\nOpen threads:" in out
    assert "'threads close N' to close one" in out


# -- NPCs, items, status ----------------------------------------------------------------------------


def _game(adventure, seed=3):
    return Game(adventure, seed=seed, decider=RandomDecider(random.Random(seed)))


def test_npcs_shows_role_disposition_state_and_what_they_remember(vellan):
    game = _game(vellan)
    nid, npc = "harbourmaster", generate_npc(random.Random(5), "skilled")
    npc.role = "Harbourmaster"
    npc.pronoun = "she"
    game.state.npcs[nid] = npc
    set_disposition(npc, "Unfriendly")
    game.state.oracle.add_npc(npc.name)
    game.state.oracle.add_npc("Old Marta")
    game.state.memory[nid] = ["lied_to", "lied_to", "helped"]
    game.state.npc_status[nid] = "fled"
    text = sc.npcs_text(game).splitlines()
    assert text[0] == "People in the story:"
    assert text[1].startswith(f"  {npc.name} (harbourmaster, unfriendly, fled); remembers: ")
    # told to the players, of her: it read "the PCs lied to it and it found out (×2)"
    assert "you lied to her, and she found out (×2)" in text[1] and "you did her a good turn" in text[1]
    assert text[2] == "  Old Marta (named by you)"
    assert sc.npcs_text(_game(vellan)).startswith("Nobody met yet")


@pytest.mark.parametrize(("ctype", "status", "words"), [
    ("social", "out", "lost an argument"), ("social", "fled", "walked out of an argument"),
    ("social", "surrendered", "conceded an argument"),
    ("combat", "out", "beaten in a fight"), ("combat", "fled", "fled a fight"),
    ("foot_chase", "out", "lost a chase"), ("sneaking", "out", "gave up a search"),
    ("combat", "comae", "in comae"),
    ("", "out", "bested"),  # a save from before the kind was kept: no "out" that reads as knocked out
])
def test_a_conflict_status_is_worded_by_the_kind_of_conflict_it_was_lost_in(vellan, ctype, status, words):
    from solo.story.play.knowledge import status_words

    game = _game(vellan)
    npc = generate_npc(random.Random(5), "skilled")
    npc.role = "Harbourmaster"
    set_disposition(npc, "Friendly")
    game.state.npcs["ingrid"] = npc
    game.state.oracle.add_npc(npc.name)
    game.state.known["ingrid"] = ["name", "role", "disposition"]
    game.state.npc_status["ingrid"] = status
    if ctype:
        game.state.npc_conflict["ingrid"] = ctype
    assert status_words(game, "ingrid") == words
    assert f"{npc.name} (harbourmaster, friendly, {words})" in sc.npcs_text(game)


def test_an_npc_that_lost_an_argument_in_play_is_not_called_out(vellan):
    """A harbourmaster argued with for real (her Social and Willpower 0: every roll of hers fails); the card says
    how she left it, and a saved game keeps the kind of conflict with the status."""
    from solo.rules.creation import pregenerated
    from solo.story.play.state import GameState

    class Steady:  # argues on, Cautious, never yielding
        def decide(self, q):
            return "cautious" if "cautious" in q.keys() else q.default or next(
                k for k in q.keys() if k not in ("flee", "surrender"))

    game = Game(vellan, seed=5, decider=Steady())
    game.state.party = [pregenerated("espen")]
    npc = generate_npc(random.Random(5), "common")
    npc.role, npc.pronoun = "Harbourmaster", "she"
    npc.skills.update(Social=0, Willpower=0)
    game.state.npcs["ingrid"] = npc
    game.state.oracle.add_npc(npc.name)
    game.state.known["ingrid"] = ["name", "role"]
    assert game.run_conflict(game.conflict_types["social"], ["ingrid"], rounds=30) != "lost"
    status = game.state.npc_status["ingrid"]
    assert status in ("out", "fled", "surrendered") and game.state.npc_conflict["ingrid"] == "social"
    card = sc.npcs_text(game)
    assert "argument)" in card and f", {status})" not in card, card
    assert GameState.from_dict(game.state.to_dict()).npc_conflict == {"ingrid": "social"}


def test_a_generated_npc_reads_as_the_game_keeps_it(vellan):
    game = _game(vellan)
    npc = generate_npc(random.Random(2), "skilled")
    set_disposition(npc, "Friendly")
    game.state.npcs["npc1"] = npc
    game.state.oracle.add_npc(npc.name)
    assert f"{npc.name} (" in sc.npcs_text(game) and "friendly" in sc.npcs_text(game)


def test_npcs_added_by_the_player_go_to_the_oracle_and_survive_load(vellan, tmp_path):
    session, out = play(vellan, ["npcs add Old Marta", "npcs"], tmp_path)
    assert session.game.state.oracle.npcs == ["Old Marta"]
    assert after(out, "npcs") == "People in the story:\n  Old Marta (named by you)"
    again, _ = resume(vellan, ["npcs drop old"], tmp_path)
    assert again.game.state.oracle.npcs == []
    third, _ = resume(vellan, [], tmp_path)
    assert third.game.state.oracle.npcs == []


def test_items_lists_the_party_items_and_notes(vellan, tmp_path):
    session, out = play(vellan, ["1", "1", "note the clerk lied", "items"], tmp_path)
    state = session.game.state
    assert state.items and state.notes == ["the clerk lied"]
    assert after(out, "items") == sc.items_text(session.game)
    assert after(out, "items").splitlines()[0] == f"Carried: {', '.join(state.items)}."
    assert after(out, "items").endswith("Your notes:\n  - the clerk lied")


def test_items_names_the_gear_on_each_sheet_as_the_sheet_does(vellan):
    """A new player found a weapon in hand on the sheet but not in ``items``: both read ``gear_names``."""
    game = _game(vellan)
    pc = load_character("Espen Lind")
    game.state.party.append(pc)
    pc.weapon, pc.armour, pc.shield = "axe", "light", None
    shown = sc.items_text(game)
    assert f"{pc.name}'s gear: Axe, " in shown and shown.count("gear:") == 1, shown
    card = Console(width=120, record=True)
    card.print(character_card(pc))
    assert "Gear: " + ", ".join(gear_names(pc)) in card.export_text()
    pc.weapon = pc.armour = None
    assert "gear:" not in sc.items_text(game)


def test_status_line_reads_the_state_and_is_kept_in_the_save(vellan, tmp_path):
    session, out = play(vellan, ["status", "1", "1"], tmp_path)
    game = session.game
    pc = game.state.pcs[0]
    line = sc.status_text(session)
    assert line.startswith("[The bus to Vellan · tension ") and f"day {game.state.counters['day']}" in line
    assert f"{pc.name}: Luck {pc.luck}, BODY {pc.pools['BODY'].current}/{pc.pools['BODY'].maximum}" in line
    # Vellan's clocks ([adventure] clocks): the day out of three, the hours gone, Brekke's moves out of six
    counters = game.state.counters
    assert f"day {counters['day']}/3 · hours gone {counters['hours']} · Brekke's moves 0/6" in line
    assert out.count(line) >= 1 and "The status line is on" in out
    again, out = resume(vellan, ["status", "status off"], tmp_path)
    assert sc.status_text(again) in out  # on after loading: shown before the question
    assert out.count("The status line is on") == 1  # 'status' alone shows it again and leaves it on …
    assert "The status line is off." in out and again.view.status_line is None  # … 'status off' hides it
    third, out = resume(vellan, ["1"], tmp_path)
    assert third.view.status_line is None and "[" not in out.split("Resumed from", 1)[1]


def test_status_is_off_until_asked(vellan, tmp_path):
    session, out = play(vellan, ["1", "1"], tmp_path)
    assert session.view.status_line is None and "tension 5/9" not in out


def test_status_in_open_play_counts_scenes():
    from solo.story.play.open_play import OpenGame

    game = OpenGame(seed=1, decider=RandomDecider(random.Random(1)))
    game.state.visited["open"] = 3
    game.state.scene = "open"
    fake = SimpleNamespace(game=game, adventure=game.adventure)
    assert sc.status_text(fake).startswith("[scene 3 · tension 5/9")


# -- dice, tables, meaning --------------------------------------------------------------------------


def test_roll_agrees_with_solo_roll_for_the_seed_it_names(tutorial, tmp_path, cli_run):
    session, out = play(tutorial, ["roll 3d6+2", "roll 2x"], tmp_path, seed=11)
    shown = after(out, "roll 3d6+2")
    seed = sc.side_seed(11, "roll", 0)  # at the first prompt nothing is in the log yet
    assert shown == "Dice: " + cli_run("roll", "3d6+2", "--seed", str(seed)).output.strip()
    assert "cannot read dice expression '2x'" in out


def test_rolls_at_the_prompt_leave_the_game_dice_alone(tutorial, tmp_path):
    _, plain = play(tutorial, ["1", "1", "1", "1"], tmp_path / "a", seed=7)
    _, busy = play(tutorial, ["1", "roll d100", "table object", "meaning", "1", "meaning describe", "1", "1"],
                   tmp_path / "b", seed=7)
    dice = [line for line in plain.splitlines() if "\u2684" in line]
    assert dice and dice == [line for line in busy.splitlines() if "\u2684" in line]


def test_table_rolls_the_game_tables_and_suggests_a_name(vellan, tmp_path):
    session, out = play(vellan, ["table objekt", "table object", "table"], tmp_path, seed=2)
    assert "no table named 'objekt' (did you mean 'object'?); type 'table list' to see them all" in out
    tables = load_tables(use_env=False)
    expected = tables.roll("object", random.Random(sc.side_seed(2, "table", 0)),
                           slots=session.game.state.oracle.slots())
    assert after(out, "table object") == (f"Theme: an object ({expected.roll} on 1-{expected.out_of}): "
                                          f"{expected.text}")
    listed = after(out, "table")
    assert "Theme: an object" in listed and "Twist" in listed


def test_the_table_list_reads_as_titles_and_a_title_rolls_the_table(vellan, tmp_path):
    """Before: 'Tables: action, adjective, …, read_yes_but, scene_alteration, …' (names made for files). The list
    shows each table's title, and a title typed as it reads (any case, with or without its punctuation) rolls the
    table its name rolls, with the same dice; the save keeps the name, so a load replays it."""
    session, out = play(vellan, ["table list", "table Reading: yes, but", "table starting situation",
                                 "table read_yes_but"], tmp_path, seed=2)
    listed = after(out, "table list")
    assert "Reading: yes, but" in listed and "Starting situation" in listed and "Talk in the Anchor" in listed
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", listed), listed  # no read_yes_but, no vellan_gossip
    assert listed.endswith("Roll one with: table and its title, e.g. table altered scene.")
    tables = session.game.tables
    expected = tables.roll("read_yes_but", random.Random(sc.side_seed(2, "table", 0)),
                           slots=session.game.state.oracle.slots())
    assert after(out, "table Reading: yes, but") == (f"Reading: yes, but ({expected.roll} on 1-{expected.out_of}): "
                                                     f"{expected.text}")
    assert after(out, "table starting situation").startswith("Starting situation (")
    assert after(out, "table read_yes_but").startswith("Reading: yes, but (")  # the name still rolls it
    recorded = [e for e in read_save(tmp_path / "game.json").log if e[:2] == ["m", "table"]]
    assert [e[2] for e in recorded] == ["read_yes_but", "situation", "read_yes_but"]


def test_meaning_and_descriptions_replay_alike_after_load(vellan, tmp_path):
    _, out = play(vellan, ["1", "meaning", "meaning describe", "meaning colour"], tmp_path, seed=4)
    words, described = after(out, "meaning"), after(out, "meaning describe")
    assert words.startswith("Meaning: ") and " / " in words
    assert described.startswith("Description: ")
    assert "'meaning describe' for an adverb" in out
    tables = load_tables(use_env=False)
    adverb, adjective = described.removeprefix("Description: ").split(" / ")
    assert adverb in [r.text for r in tables.get("adverb").rows]
    assert adjective in [r.text for r in tables.get("adjective").rows]
    log = read_save(tmp_path / "game.json").log
    assert ["m", "meaning", ""] in log and ["m", "meaning", "describe"] in log
    session, _ = resume(vellan, [], tmp_path, seed=4)
    journal = session.journal.text()
    assert words in journal and described in journal  # the journal, rebuilt from the save, says the same


def test_commands_are_in_the_help(tutorial, tmp_path):
    _, out = play(tutorial, ["help"], tmp_path)
    for word in ("threads", "npcs", "items", "clues", "status", "roll EXPR", "table TITLE", "meaning"):
        assert f"\n  {word}" in out


def test_a_clock_past_its_end_says_so_on_the_status_line(vellan, tmp_path):
    """Kaldskard's status line read "day of the crossing 3/2" once the crossing ran a day late (a new player's run):
    a count past its clock's end is said as such."""
    from solo.story.format.adventure import Clock

    crossing = Clock("day", "day of the crossing", 2)
    assert [crossing.shown(day) for day in (1, 2, 3)] == ["day of the crossing 1/2", "day of the crossing 2/2",
                                                          "day of the crossing 3, past 2"]
    assert Clock("hours", "hours gone", None).shown(7) == "hours gone 7"
    session, _ = play(vellan, ["1"], tmp_path)
    session.game.state.counters["day"] = 4
    assert "day 4, past 3 · hours gone" in sc.status_text(session)


def test_a_long_status_line_wraps_between_words():

    from solo.ui.view import TerminalView

    console = Console(width=40, record=True, color_system=None)
    view = TerminalView(console)
    words = "[On deck · tension 5/9 · Espen Lind: Luck 3, BODY 12/12 INT 10/10 · Bo Berg: Luck 2, BODY 9/11]"
    view.status_line = lambda: words
    view.before_question()
    lines = console.export_text().splitlines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    assert " ".join(line.strip() for line in lines) == words  # every break falls between two words


def test_a_long_help_line_wraps_under_its_own_description_and_reads_no_markup():

    from solo.ui.session import _help, help_table

    console = Console(width=60, record=True, color_system=None)
    # a party's own names are shown in it: read as written, never as markup (the resume command is no longer in it)
    console.print(help_table(_help(True, ["Ada", "[bold]x[/bold] Berg"])))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith("  ? QUESTION"))
    assert lines[at + 1].startswith(" " * 17) and lines[at + 1].strip()  # a continuation, indented as its column
    first = next(i for i, line in enumerate(lines) if line.startswith("  sheet"))  # after the intro's lines
    commands = [line for line in lines[first:] if line and not line.startswith(" " * 17)]
    assert all(line.startswith("  ") and line[2] != " " for line in commands)  # nothing wraps to the margin
    assert "[bold]x[/bold]" in "".join(lines)  # the name as written


# -- the oracle at the prompt: the pair of a hard answer, and old saves ---------------------------------

# A tutorial game saved before the word lists grew and before hard answers had words: twelve questions
# at the first prompt (three raise random events, whose meaning the game's dice used to draw), then a
# fight. Replayed now, every roll must fall as it fell then.
OLD_LOG = [["a", "party_size", "1"], ["a", "pc_source", "pregen"]] + [
    ["m", "oracle", f"Question {i}", "even"] for i in range(12)] + [
    ["a", "choice", "c1"], ["a", "choice", "c1"], ["a", "choice", "c1"], ["a", "lens", "none"],
    ["a", "lens", "none"], ["a", "lens", "none"], ["a", "luck_flip", "yes"], ["a", "lens", "none"],
    ["a", "luck_reduce", "yes"], ["a", "lens", "none"], ["a", "lens", "none"], ["a", "lens", "none"]]
OLD_ROLLS = [60, 79, 48, 35, 18, 24, 87, 1, 44, 11, 22, 31, 7, 15, 17, 100, 89, 50, 96, 38, 27, 93, 54, 12, 99, 27, 51]
# the guard as the PCs know him at the quay (the tutorial names him only once he has caught someone)
OLD_EVENTS = ["Fortune smiles on Espen Lind", "Things go well for a man in a wet uniform",
              "Trouble lands on Espen Lind"]


def test_a_game_saved_before_the_lists_grew_replays_roll_for_roll(tutorial, tmp_path):
    from solo.saves import SaveData, write_save

    write_save(tmp_path / "game.json", SaveData(
        adventure_id=tutorial.id, adventure_source=tutorial.source, adventure_hash=tutorial.content_hash, seed=9,
        log=OLD_LOG, party=None, snapshot=None, label="old", options={"advise": True}))
    seen = []
    session, _ = resume(tutorial, [], tmp_path, seed=9)
    original = session._present

    def watch(event):
        seen.append(event)
        original(event)

    session._present = watch
    session.run()
    rolls = [e.get("roll") for e in seen if e.kind in ("oracle", "skill_roll", "roll")]
    assert rolls == OLD_ROLLS
    oracle = [e for e in seen if e.kind == "oracle"]
    assert [e["event"]["text"] for e in oracle if e.get("event")] == OLD_EVENTS
    hard = [e for e in oracle if e["answer"] in ("yes, but", "no, and")]
    assert hard and all(e["interpretation"]["meaning"]["action"] for e in hard)


def test_the_pair_of_a_hard_answer_is_the_same_for_the_same_seed(tutorial, tmp_path):
    questions = [f"? Is it {i}?" for i in range(15)]
    _, first = play(tutorial, questions, tmp_path / "a", seed=9)
    _, second = play(tutorial, questions, tmp_path / "b", seed=9)
    assert first == second.replace(str(tmp_path / "b"), str(tmp_path / "a"))
    assert "The price: " in first or "The twist: " in first


def test_the_help_names_the_command_that_resumes_this_game(tmp_path, tutorial):
    """The help's 'quit' line gives the resume command for this game's own save, not a placeholder."""
    session, shown = play(tutorial, ["help", "quit"], tmp_path)
    quit_line = " ".join(shown.split()).split("quit save the game and its journal and stop;")[1]
    assert f"--load {tmp_path / 'game.json'}" in quit_line.replace("\n", "") and "RESUME" not in shown



def test_the_status_line_shows_a_pool_as_the_conflict_does_while_the_push_question_waits():
    """After a blow past zero the bars and the log read 'CHA 0/14' while 'Push on at -3 / Go down' waits: the
    status line printed before that question says 0 too (solo.rules.participants.shown_pool), not -3."""
    from solo.decisions import PUSH
    from solo.events import EventLog
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure("tutorial"))

    class Watching:
        """Plays at random; at a push question in a conflict, keeps the status line and the blow before it."""

        def __init__(self, seed):
            self.inner, self.seen, self.sink = RandomDecider(random.Random(seed)), [], EventLog()
            self.game = Game(adventure, seed=seed, decider=self, sink=self.sink)

        def decide(self, question):
            game = self.game
            if question.kind == PUSH and game.fighting:
                blow = self.sink.of("damage")[-1]
                pc = next(pc for pc in game.state.pcs if pc.name == blow["target"])
                self.seen.append((sc.status_text(SimpleNamespace(game=game, adventure=adventure)), blow, pc,
                                  pc.pools[blow["pool"]].current))
            return self.inner.decide(question)

    for seed in range(1, 80):
        watch = Watching(seed)
        watch.game.play()
        if watch.seen:
            break
    game, seen = watch.game, watch.seen
    line, blow, pc, below = seen[0]
    assert below < 0 and blow["after"] == 0  # pushing on would leave it below zero; the bars show 0
    assert f"{blow['pool']} 0/{blow['maximum']}" in line and f"{blow['pool']} {below}/" not in line
    assert game.fighting == [] and (blow["pool"], pc.pools[blow["pool"]].current, pc.pools[blow["pool"]].maximum) \
        in game.pools_shown(pc)


def test_the_status_line_shows_two_pools_a_conflict_averages_as_its_one_pool():
    """Before, in Vellan's car chase (seed 1): bars at 'Espen Lind 4/11' beside a status line reading 'BODY 12/12 …
    POW 10/10' (the two are set only where the averaged Pool ended, once it is over). While a chase or a sneak is
    fought on BODY/POW the line shows that Pool as the bars do, in BODY's place; after it, the two again."""
    from solo.rules.conflict_types import conflict_type
    from solo.rules.creation import pregenerated
    from solo.rules.participants import from_character
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure("vellan"))
    game = Game(adventure, seed=1, decider=RandomDecider(random.Random(1)))
    game.state.party = [pregenerated("espen")]
    pc = game.state.pcs[0]
    body, pow_ = pc.pools["BODY"], pc.pools["POW"]
    fought = from_character(pc, "a", conflict_type("car_chase"))
    fought.pool.current = 4
    game.fighting = [fought]
    line = sc.status_text(SimpleNamespace(game=game, adventure=adventure))
    assert f"{pc.name}: Luck {pc.luck}, BODY/POW 4/{fought.pool.maximum} INT " in line
    assert f"BODY {body.current}/" not in line and f"POW {pow_.current}/" not in line
    # 'sheet' mid-chase shows the same (a review: it read the character's own two Pools)
    import io

    from rich.console import Console

    from solo.ui.session import Session

    out = io.StringIO()
    Session._sheet(SimpleNamespace(_game=game, console=Console(file=out, width=100, color_system=None),
                                   adventure=adventure), "")
    sheet = out.getvalue()
    assert "BODY/POW" in sheet and f"  4/{fought.pool.maximum}" in sheet
    assert f"{body.current}/{body.maximum}" not in sheet
    fought.pool.current = -3  # a blow past zero, the push question waiting: 0, as the bars show it
    assert "BODY/POW 0/" in sc.status_text(SimpleNamespace(game=game, adventure=adventure))
    game.fighting = []
    line = sc.status_text(SimpleNamespace(game=game, adventure=adventure))
    assert f"BODY {body.current}/{body.maximum} INT" in line and f"POW {pow_.current}/{pow_.maximum}" in line


def test_the_status_line_comes_once_per_decision_not_before_each_part_of_it(vellan, tmp_path):
    """Flamboyant, then 'Which skill do you show off with?': one decision in two questions, with nothing shown
    between them, so the status line is printed before the first only; the round that follows shows it again."""
    session, out = play(vellan, ["1", "1", "2", "status", "1", "4", "6", "1"], tmp_path)
    lens_menu = out.index("declares: choose a Lens")
    skill = out.index("Which skill do you show off with?")
    assert "[The harbour office" in out[out.rindex("Round 1 of", 0, lens_menu):lens_menu]
    assert "[The harbour office" not in out[lens_menu:skill]
    assert "[The harbour office" in out[skill:]  # the round was played: the next decision has it again


def test_the_threads_an_adventure_starts_with_are_said_before_its_first_scene(tmp_path):
    """Before: Vellan's two threads were open from the start but never said, and the first the player heard of
    them was "A thread is closed: Find the pilot Jonas Vik"."""
    from conftest import run_play, script_lines

    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure("vellan"))
    assert adventure.threads
    code, screen, journal = run_play(adventure, script_lines("vellan_seed4.txt")[:4], tmp_path, seed=4)
    before = journal.split("\n## ", 1)[0]
    for thread in adventure.threads:
        assert f"*Thread opened: {thread}.*" in before, before
    assert " ".join(screen.split()).count("A thread opens") == len(adventure.threads)


def test_the_tutorials_letter_is_delivered_on_the_pier_not_at_sea(tmp_path):
    """Before: "Deliver the letter" was closed the moment the courier was beaten, the ferry still at sea."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    scenes = load_adventure(find_adventure("tutorial")).scenes
    closes = {sid for sid, scene in scenes.items() for e in scene.on_enter if "close_thread" in str(e)}
    assert closes == {"arrival"}


def test_who_tries_a_roll_is_part_of_the_partys_decision_and_gets_no_status_line_of_its_own(tutorial, tmp_path):
    """A group's run at Kaldskard: the status line printed before "What does the party do?" was printed again,
    three lines for three players, right before "Who tries it?", with nothing shown between: one decision, one
    status line (docs/playing.md, `status`)."""
    _, out = play(tutorial, ["2", "Ann", "1", "Bo", "3", "", "status", "2"], tmp_path)
    between = out[out.rindex("What does the party do?"):out.index("Who tries it?")]
    assert "[The quay" in out[:out.rindex("What does the party do?")]
    assert "[The quay" not in between, between


@pytest.mark.parametrize("name", ["kaldskard", "vellan"])
def test_an_adventures_introduction_is_markdown_as_its_scenes_are(name, tmp_path):
    """A new player's run: Kaldskard's opening read "Type `status` to watch the days", backticks and all. The
    introduction is shown as a scene's text is, so what an author marks as a command reads as one."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure(name))
    assert "`status`" in adventure.introduction
    _, out = play(adventure, [], tmp_path)
    opening = out[:out.index("How many players")]
    assert "status" in opening and "`" not in opening


def test_the_status_line_comes_again_when_a_choice_that_shows_nothing_moved_a_clock(tmp_path):
    """A docs audit: "Wait an hour" (effects only, no text) brought the menu back with no status line while the
    hours went from 0 to 1, as if the same decision were asked again; the line came back one choice later, already
    at "hours gone 3, past 2". A line that changed is shown again; one that did not is still kept back."""
    from pathlib import Path

    from solo.story.format.loader import load_adventure

    adventure = load_adventure(Path(__file__).parent / "data" / "clock_wait.toml")
    session, out = play(adventure, ["1", "status", "1", "1", "2"], tmp_path)
    shown = [line for line in out.splitlines() if line.startswith("[The hall")]
    assert [re.search(r"hours gone (\d)/2", line).group(1) for line in shown] == ["0", "1", "2"], out
    assert out.count("hours gone 2/2") == 2  # once in the hall, once at the end: an unchanged line is not said again

"""Rich markup in what players type and in what authors write is shown as typed, never obeyed.

A closing tag with nothing open (``[/]``) used to end the game with rich's MarkupError; a
well-formed one (``[red]x[/red]``) silently styled the screen and lost its brackets. Every
check here looks at the real screen output of the terminal session or of a command.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from solo.rules.creation import pregenerated
from solo.saves import read_save
from solo.story.format.loader import load_adventure
from solo.toml_write import dumps
from solo.ui.session import Session

EXAMPLE = Path(__file__).parent.parent / "data" / "example_adventure.toml"

# A small adventure whose every player-visible name carries markup. The conflict always happens
# (whatever the dice), so the NPC's name reaches the conflict tables on every seed.
HOSTILE_ADVENTURE = """\
[adventure]
id = "hostile"
title = "[/]The Lamp [bold]on[/bold] Skarv"
author = "[/]an author"
pc = "espen"
start = "landing"
introduction = "[/] [red]Somebody[/red] must row out."

[npcs.keeper]
name = "Tora [/]Brenne"
level = "common"
pronoun = "she"
skills = ["Willpower", "Tech", "Social"]

[scenes.landing]
title = "[red]x[/red] [/]"
text = "The keeper waits at her door."
on_enter = [ { give = "tower [/] key" } ]

[[scenes.landing.choices]]
text = "Argue [/] with [bold]her[/bold]"
conflict = { type = "debate", npcs = ["keeper"], stakes = "[/]The key", rounds = 2, won = "home", lost = "home", \
fled = "home", surrendered = "home", opponent_fled = "home", opponent_surrendered = "home", stalemate = "home" }

[scenes.home]
title = "[/]Back across the water"
text = "You row home."
ending = true
"""

HOSTILE_CONFLICTS = """\
[conflict_types.debate]
name = "[/]A [bold]debate[/bold]"
round = "5 minutes"
skill = "Social"
focuses = ["Influence"]
pools = ["CHA"]
"""


def hostile_adventure(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "adventure.toml").write_text(HOSTILE_ADVENTURE, encoding="utf-8")
    (folder / "tables").mkdir(exist_ok=True)
    (folder / "tables" / "conflicts.toml").write_text(HOSTILE_CONFLICTS, encoding="utf-8")
    return folder


def play(adventure, lines, folder: Path, *, seed=1, echo=True, party=None, color=False):
    """A session answered by ``lines`` (then end of input): (exit code, what the screen showed)."""
    feed = iter(lines)

    def reader(prompt):
        for line in feed:
            return line
        raise EOFError

    out = io.StringIO()
    console = Console(file=out, width=120, color_system="truecolor" if color else None, force_terminal=color)
    session = Session(adventure, seed=seed, console=console, reader=reader, save_path=folder / "game.json",
                      echo_answers=echo, party=party)
    return session.run(), out.getvalue()


def on_screen(needle: str, screen: str) -> bool:
    """Whether ``needle`` is on the screen, however the terminal's width wrapped it (spaces aside)."""
    return "".join(needle.split()) in "".join(screen.split())


def assert_clean(code, screen):
    assert code == 0, screen[-2000:]
    assert "internal error" not in screen
    assert "Traceback" not in screen


# -- typed at a prompt ----------------------------------------------------------------------------

# What is typed, and what the screen must then show, word for word (a reply quotes what it refuses).
TYPED = [
    ("[/]", "'[/]'"),
    ("sheet [/]", "No character called '[/]'"),
    ("note [/] [red]x[/red]", "Noted: [/] [red]x[/red]"),
    ("luck contact [/]", "'[/]'"),
    ("luck [bold] find a rope", "No character called '[bold]'"),
    ("? Is the door [/] locked? (likely)", "Is the door [/] locked?"),
    ("? Is it [red]red[/red]? ([/])", "[/]"),
]
# A terminal does not echo what is typed: these replies quote the line back by themselves.
QUOTED = [(typed, shown) for typed, shown in TYPED if not typed.startswith(("note", "? Is the door"))]


@pytest.mark.parametrize(("typed", "shown"), TYPED, ids=[t for t, _ in TYPED])
def test_markup_typed_at_a_prompt_is_echoed_and_answered_as_typed(tmp_path, typed, shown):
    # one player, Espen, then the line at the first choice of the adventure, then quit
    code, screen = play(load_adventure(EXAMPLE), ["1", "1", typed, "quit"], tmp_path)
    assert_clean(code, screen)
    assert f"> {typed}" in screen
    assert shown in screen
    assert "Resume with" in screen


@pytest.mark.parametrize(("typed", "shown"), QUOTED, ids=[t for t, _ in QUOTED])
def test_the_reply_to_a_line_with_markup_quotes_it_as_typed(tmp_path, typed, shown):
    code, screen = play(load_adventure(EXAMPLE), ["1", "1", typed, "quit"], tmp_path, echo=False)
    assert_clean(code, screen)
    assert shown in screen


def test_a_note_with_markup_survives_the_save_and_the_resume(tmp_path):
    adventure = load_adventure(EXAMPLE)
    code, _ = play(adventure, ["1", "1", "note [/] the [bold]lamp[/bold]", "quit"], tmp_path)
    assert code == 0
    save = read_save(tmp_path / "game.json")
    assert ["m", "note", "[/] the [bold]lamp[/bold]"] in [list(entry) for entry in save.log]
    out = io.StringIO()
    session = Session(adventure, seed=save.seed, console=Console(file=out, width=120, color_system=None),
                      reader=lambda prompt: "quit", save_path=tmp_path / "game.json", log=save.log)
    assert session.run() == 0
    assert "Noted: [/] the [bold]lamp[/bold]" in out.getvalue()


# -- written by an author ---------------------------------------------------------------------------

def test_markup_in_adventure_content_is_shown_literally(tmp_path):
    adventure = load_adventure(hostile_adventure(tmp_path / "hostile"))
    code, screen = play(adventure, ["1"] * 40, tmp_path)
    assert_clean(code, screen)
    for literal in (
        "[/]The Lamp [bold]on[/bold] Skarv",  # the adventure's title
        "by [/]an author",
        "[/] [red]Somebody[/red] must row out.",  # the introduction
        "[red]x[/red] [/]",  # a scene title
        "You now have: tower [/] key.",  # an item
        "Argue [/] with [bold]her[/bold]",  # a choice
        "At stake: [/]The key",
        "[/]A [bold]debate[/bold]",  # the conflict type's name, over the conflict table
        "Tora [/]Brenne",  # the NPC
        "[/]Back across the water",  # the ending's title
    ):
        assert literal in screen, literal
    # the NPC is named in the conflict table and in each round's rows, not only in the narration
    assert sum("Tora [/]Brenne " in line and "%" in line for line in screen.splitlines()) >= 1
    assert sum("Tora [/]Brenne " in line and " / " in line for line in screen.splitlines()) >= 1


def test_a_styled_scene_title_does_not_style_the_screen(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8").replace('title = "The landing"', 'title = "[red]x[/red]"')
    (tmp_path / "adv.toml").write_text(text, encoding="utf-8")
    code, screen = play(load_adventure(tmp_path / "adv.toml"), ["1", "1", "quit"], tmp_path, color=True)
    assert_clean(code, screen)
    assert "[red]x[/red]" in screen
    assert "\x1b[31m" not in screen and "\x1b[1;31m" not in screen  # no red anywhere on this screen


def test_a_character_with_markup_in_its_name_plays_and_shows_its_sheet(tmp_path):
    pc = pregenerated("espen")
    pc.name, pc.career, pc.player = "[/]Ada [bold]Vik[/bold]", "[red]Journalist", "[/]Bo"
    code, screen = play(load_adventure(EXAMPLE), ["sheet", "luck", "quit"], tmp_path, party=[pc])
    assert_clean(code, screen)
    assert "[/]Ada [bold]Vik[/bold], [red]Journalist" in screen  # the card's title
    assert "played by [/]Bo" in screen
    assert "Luck: [/]Ada [bold]Vik[/bold] 2" in screen


def test_a_new_character_named_with_markup(tmp_path):
    # one player, a new character from a career, named with markup; then its sheet
    lines = ["1", "2", "[/]Cy [red]x[/red]", "1", "1", "1"]
    code, screen = play(load_adventure(EXAMPLE), [*lines, "quit"], tmp_path)
    assert_clean(code, screen)
    assert "How should the story refer to [/]Cy [red]x[/red]?" in screen


# -- the commands ---------------------------------------------------------------------------------

def test_a_saves_folder_with_markup_in_its_name(cli_run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "script.txt"
    script.write_text("1\n1\nquit\n", encoding="utf-8")
    saves = tmp_path / "[/]saves [bold]x"
    result = cli_run("play", str(EXAMPLE), "--seed", "3", "--script", str(script), "--saves", str(saves))
    assert result.exit_code == 0, result.output
    assert on_screen(f"Saving to {saves / 'skarv.json'}", result.output)
    assert "internal error" not in result.output
    assert (saves / "skarv.json").is_file()
    # a second game of the same adventure is told where the first one waits
    result = cli_run("play", str(EXAMPLE), "--seed", "3", "--script", str(script), "--saves", str(saves))
    assert result.exit_code == 0, result.output
    assert on_screen(f"in progress in {saves / 'skarv.json'}", result.output)


def test_the_adventure_list_shows_titles_with_markup(cli_run, tmp_path, monkeypatch):
    hostile_adventure(tmp_path / "scenes" / "hostile")
    monkeypatch.setenv("SOLO_SCENES", str(tmp_path / "scenes"))
    result = cli_run("play", "--list")
    assert result.exit_code == 0, result.output
    assert "[/]The Lamp [bold]on[/bold] Skarv" in result.output


def test_simulate_shows_titles_and_choices_with_markup(cli_run, tmp_path):
    folder = hostile_adventure(tmp_path / "hostile")
    result = cli_run("simulate", str(folder), "--runs", "3", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "[/]Back across the water" in result.output
    assert "Argue [/] with [bold]her[/bold]" in result.output


def test_npc_and_character_files_with_markup_in_the_commands(cli_run, tmp_path):
    result = cli_run("npc", "--seed", "3", "--json")
    npc = json.loads(result.output)
    npc["name"] = "[/]Knut [bold]x"
    (tmp_path / "knut.toml").write_text(dumps(npc), encoding="utf-8")
    pc = pregenerated("espen").to_dict()
    pc["name"] = "[/]Ada"
    (tmp_path / "ada.toml").write_text(dumps(pc), encoding="utf-8")

    result = cli_run("duel", "--npc", str(tmp_path / "knut.toml"), "--pc", str(tmp_path / "ada.toml"),
                     "--runs", "2", "--seed", "1", "--explain")
    assert result.exit_code == 0, result.output
    assert "[/]Knut [bold]x" in result.output and "against [/]Ada" in result.output

    out = tmp_path / "[/]npc [bold].toml"
    result = cli_run("npc", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert on_screen(f"Saved to {out}.", result.output)

    out = tmp_path / "[/]pc.toml"
    result = cli_run("new", "--random", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert on_screen(f"Saved to {out}.", result.output)


def test_a_link_in_a_name_or_in_the_text_is_shown_with_where_it_leads():
    """An architecture audit: a character named "[Espen](https://evil.example/pc)" was shown as a clickable "Espen"
    whose address the screen hid, and so was a link in a scene's text; the journal shows a link's address. A slot's
    value is words (escaped for Markdown), and the adventure's own links show where they lead."""
    import io

    from rich.console import Console

    from solo.events import Event
    from solo.ui.view import TerminalView

    out = io.StringIO()
    view = TerminalView(Console(file=out, width=200, force_terminal=True, color_system="truecolor"))
    name = "[Espen](https://evil.example/pc) *bold* `code`"
    text = "[Official ferry timetable](https://evil.example/phish) {pc} waits."
    slots = {"pc": name, "pronoun": "he"}
    view.render(Event("scene_entered", {"scene": "quay", "title": "Quay", "text": text, "slots": slots}))
    view.render(Event("branch_text", {"text": "Then {pc} leaves.", "slots": slots}))
    view.render(Event("title", {"title": "T", "introduction": "See [the map](https://evil.example/map)."}))
    screen = out.getvalue()
    assert "\x1b]8;" not in screen  # no terminal hyperlink at all
    assert screen.count("[Espen](https://evil.example/pc) *bold* `code`") == 2  # the name as typed, twice
    assert "https://evil.example/phish" in screen and "https://evil.example/map" in screen  # where each link leads
    # and the journal, a Markdown file, keeps the name as words too: escaped, never a link of its own
    from solo.ui.journal import Journal

    journal = Journal()
    journal.render(Event("scene_entered", {"scene": "quay", "title": "Quay", "text": text, "slots": slots}))
    journal.render(Event("branch_text", {"text": "Then {pc} leaves.", "slots": slots}))
    written = journal.text()
    assert written.count("\\[Espen\\](https://evil.example/pc) \\*bold\\* \\`code\\`") == 2, written


def test_an_emoji_code_in_a_name_is_shown_as_typed_in_a_questions_header():
    """An architecture audit: a character named ":skull: Bob :red_circle:" was "💀 Bob 🔴 declares: choose a Lens",
    where every other line showed the name as typed."""
    from solo.decisions import LENS, Option, Question
    from solo.ui.prompt import TerminalDecider

    out = io.StringIO()
    question = Question(LENS, "choose a Lens", (Option("none", "No Lens"), Option("aggressive", "Aggressive")),
                        actor=":skull: Bob :red_circle:")
    TerminalDecider(Console(file=out, width=100, color_system=None), reader=lambda prompt: "1").show(question)
    assert ":skull: Bob :red_circle: declares: choose a Lens" in out.getvalue()
    assert "\N{SKULL}" not in out.getvalue()

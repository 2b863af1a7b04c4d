"""Samples of a command's output pasted into a page are what the command prints today, so a page cannot go
stale unnoticed (as docs/narration.md's duels are held by tests/test_docs_duels.py): `solo prove` on the
example adventure in docs/proving.md (its report and its JSON), in docs/oracle.md `solo oracle` with a seed and
the threads of Vellan at the first prompt, in docs/playing.md the tutorial's menus before and at the fight and
the open-play session, in docs/journal.md an open-play `recap`, in docs/npcs.md `solo odds`. A change on
purpose means pasting the new output into the page."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
AGAIN = "the command prints something else now: run it and paste its output into the page"


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _run(args: list[str], *, width: int = 100, stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli, args, input=stdin, terminal_width=width, env={"COLUMNS": str(width)})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return "\n".join(line.rstrip() for line in result.output.rstrip().splitlines())


def _indented_block(text: str, first: str) -> str:
    """The block indented by four spaces that starts with the line ``first``, unindented."""
    at = text.index("    " + first + "\n")
    lines = []
    for line in text[at:].splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines).rstrip()


# -- docs/proving.md -------------------------------------------------------------------------------------------

PROVE = "solo prove tests/data/example_adventure.toml --scripts walkthroughs"


def _seconds_out(text: str) -> str:
    return re.sub(r"\d+\.\d s", "N s", text)


def test_the_report_on_the_proving_page_is_what_prove_prints(tmp_path, monkeypatch):
    page = _indented_block(_page("proving.md"), "$ " + PROVE)
    monkeypatch.chdir(ROOT)  # the adventure as the page names it; the walkthroughs go to a folder of the test's
    folder = tmp_path / "walkthroughs"
    # the commands it prints give every path whole; the page shows them from the repository's folder
    printed = _run(PROVE.split()[1:-1] + [str(folder)]).replace(str(folder), "walkthroughs").replace(f"{ROOT}/", "")
    assert _seconds_out(page.split("\n", 1)[1]) == _seconds_out(printed), AGAIN
    assert (folder / "lamp_lit.txt").is_file() and (folder / "rowed_home.txt").is_file()


def _json_sample(text: str, first: str) -> str:
    """The JSON on the page after the line holding ``first``: the indented block that follows it."""
    after = text[text.index(first):]
    block = re.search(r"\n\n((?:    [^\n]*\n|\n)+?)\n(?! )", after)
    assert block, f"no indented block after {first!r}"
    return "\n".join(line[4:] for line in block.group(1).splitlines())


def test_the_json_on_the_proving_page_is_what_prove_prints(monkeypatch):
    monkeypatch.chdir(ROOT)
    shown = json.loads(_json_sample(_page("proving.md"), "The example adventure's report as JSON"))
    printed = json.loads(_run(["prove", "tests/data/example_adventure.toml", "--json"]))
    assert isinstance(shown.pop("seconds"), float) and isinstance(printed.pop("seconds"), float)
    assert shown == printed, AGAIN


def test_the_trap_findings_on_the_proving_page_are_what_prove_prints(monkeypatch):
    monkeypatch.chdir(ROOT)
    shown = json.loads("{" + _json_sample(_page("proving.md"), "the two lists of findings for") + "}")
    printed = json.loads(_run(["prove", "tests/data/prove/trap.toml", "--json"]))
    assert shown == {key: printed[key] for key in ("soft_locks", "unreachable_choices")}, AGAIN


# -- docs/oracle.md --------------------------------------------------------------------------------------------

def _text_blocks(text: str) -> list[str]:
    return re.findall(r"```text\n(.*?)\n```", text, re.S)


def test_the_oracle_question_on_the_oracle_page_is_what_the_oracle_answers():
    shown = next(b for b in _text_blocks(_page("oracle.md")) if b.startswith("$ solo oracle "))
    command, answer = shown.split("\n", 1)
    asked = re.fullmatch(r'\$ solo oracle "([^"]+)" --seed (\d+)', command)
    assert asked, command
    assert _run(["oracle", asked.group(1), "--seed", asked.group(2)]) == answer, AGAIN


#: The two blocks of the oracle page's section 9 that play Vellan from its first prompt, seed 12, at 92 columns.
VELLAN = "(`solo play vellan --seed 12`, in a 92-column window"


def _exchanges(block: str) -> list[tuple[str, str]]:
    """Each command typed at the prompt ("> …") and what the page shows under it."""
    parts = re.split(r"^> (.*)$", block, flags=re.M)
    return [(command, reply.strip("\n")) for command, reply in zip(parts[1::2], parts[2::2], strict=True)]


def test_the_threads_on_the_oracle_page_are_what_vellan_prints(tmp_path):
    text = _page("oracle.md")
    section = text[text.index(VELLAN):]
    blocks = _text_blocks(section)[:2]
    shown = [pair for block in blocks for pair in _exchanges(block)]
    assert len(shown) == 9 and shown[0][0] == "threads add 2"
    stdin = "".join(command + "\n" for command, _ in shown) + "quit\n"
    out = _run(["play", "vellan", "--seed", "12", "--saves", str(tmp_path)], width=92, stdin=stdin)
    played = [(command, reply.split("\n\nHow many players are at the table?", 1)[0].strip("\n"))
              for command, reply in _exchanges(out)][:len(shown)]
    assert played == shown, AGAIN


# -- docs/playing.md and docs/journal.md -------------------------------------------------------------------------

def _plain_blocks(text: str) -> list[str]:
    """The fenced blocks of a page with no language named (``` alone on the line), unindented."""
    blocks, body, language = [], None, ""
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            if body is None:
                body, language = [], line.strip()[3:]
            else:
                if not language:
                    blocks.append(textwrap.dedent("\n".join(body)))
                body = None
        elif body is not None:
            body.append(line)
    return blocks


def _menu(out: str, first: str) -> str:
    """The menu of the screen that starts with ``first``, up to its prompt; spaces as a reader sees them
    (a number and its % are held together by a no-break space)."""
    return out[out.index(first):].split("\n> ", 1)[0].replace("\u00a0", " ")


def test_the_tutorial_menus_on_the_playing_page_are_what_the_tutorial_shows(tmp_path):
    """The stranger's menu and the first Lens menu of the fight for the letter: seed 1, Espen Lind, 100 columns."""
    text = _page("playing.md")
    assert "(`solo play tutorial --seed 1`, Espen Lind, in a 100-column window)" in text
    blocks = _plain_blocks(text)
    stranger = next(b for b in blocks if b.startswith("What do you do?\n1.  Fight for the letter"))
    lenses = next(b for b in blocks if b.startswith("Espen Lind declares: choose a Lens\n  your roll: 30 %"))
    out = _run(["play", "tutorial", "--seed", "1", "--saves", str(tmp_path)], stdin="\n1\n1\n\n1\nquit\n")
    assert _menu(out, "What do you do?\n1.  Fight for the letter") == stranger, AGAIN
    assert _menu(out, "Espen Lind declares: choose a Lens") == lenses, AGAIN


OPEN = "$ solo play --open --seed 11 --saves saves"


def test_the_open_play_session_on_the_playing_page_is_what_open_play_prints(tmp_path, monkeypatch):
    """The long example session, played again from the answers the page shows typed at its prompts. Piped, the
    game writes no character (a game at the keyboard does), so the page's last two lines are not printed here."""
    block = next(b for b in _text_blocks(_page("playing.md")) if b.startswith(OPEN + "\n"))
    screen = block.split("\n", 1)[1].splitlines()
    assert screen[-2:] == ["Espen Lind is saved. Take him on with:", "  /home/you/solo/.venv/bin/solo play --open --pc "
                           "/home/you/solo/saves/characters/espen_lind.toml"]
    answers = [line[2:] for line in screen if line == ">" or line.startswith("> ")]
    assert len(answers) == 33 and "threads close 1" in answers
    monkeypatch.chdir(tmp_path)
    out = _run(OPEN.split()[2:], stdin="".join(a + "\n" for a in answers))
    assert out.replace("\u00a0", " ").splitlines() == screen[:-2], AGAIN


#: What the journal page's open-play recap was typed with, after the number of players and the character.
RECAP = ["I share a bench with the tired official on the riverboat's deck", "1", "Is anyone watching us?", "",
         "note the official lied about the cargo", "6", "",
         "I slip ashore at the next landing and follow the official to a warehouse", "1",
         "Does the official see me?", "", "recap", "quit"]


def test_the_open_play_recap_on_the_journal_page_is_what_recap_prints(tmp_path):
    text = _page("journal.md")
    assert "(`solo play --open --seed 4`, Espen Lind, in a 100-column window" in text
    shown = next(b for b in _plain_blocks(text) if b.startswith("> recap\nBefore the first scene"))
    stdin = "\n".join(["", "1", *RECAP]) + "\n"
    out = _run(["play", "--open", "--seed", "4", "--saves", str(tmp_path)], stdin=stdin)
    printed = "> recap\n" + out.split("\n> recap\n", 1)[1].split("\n\n", 1)[0]
    assert printed == shown.rstrip(), AGAIN


# -- docs/npcs.md ----------------------------------------------------------------------------------------------

def test_the_odds_on_the_npcs_page_are_what_solo_odds_prints():
    shown = next(b for b in _text_blocks(_page("npcs.md")) if b.startswith("$ solo odds "))
    command, printed = shown.split("\n", 1)
    assert _run(command.split()[2:]) == printed, AGAIN


@pytest.mark.parametrize("page", ["proving.md", "oracle.md"])
def test_the_pages_checked_here_keep_their_samples(page):
    """The markers the tests above find their samples by are still on the pages."""
    text = _page(page)
    if page == "proving.md":
        assert "    $ " + PROVE in text and "The example adventure's report as JSON" in text
    else:
        assert VELLAN in text and '$ solo oracle "' in text

"""docs/narration.md: each telling on the page (the one at the top, and "Six duels, told") is what
`solo duel --narrate` prints for the command written above it, so the page never shows a duel the engine no
longer tells (issue 27; the one at the top had gone stale: "Signe … his dagger", from before a name's pronoun)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli

PAGE = Path(__file__).parents[1] / "docs" / "narration.md"
TEXT = PAGE.read_text(encoding="utf-8")
SECTION = TEXT.split("## Six duels, told", 1)[1].split("\n## ", 1)[0]
DUELS = re.findall(r"\n    solo duel (--type \S+ --seed \d+ --level skilled --runs 1 --narrate)\n\n```text\n(.*?)\n```",
                   SECTION, re.S)
#: Every duel told on the page: a command with --narrate on a line of its own, its telling in the block below.
TOLD = re.findall(r"\n    solo duel ([^\n]*--narrate[^\n]*)\n\n```text\n(.*?)\n```", TEXT, re.S)


def test_the_page_shows_one_duel_of_each_type_an_npc_fights():
    assert sorted(args.split()[1] for args, _ in DUELS) == sorted(
        ["combat", "social", "foot_chase", "car_chase", "sneaking", "tracking"])


def test_the_duel_at_the_top_of_the_page_is_one_of_those_checked():
    assert len(TOLD) == len(DUELS) + 1 and TOLD[0][0].startswith("--narrate --runs 1 --seed 33")


@pytest.mark.parametrize("args,told", TOLD, ids=[" ".join(args.split()[:6]) for args, _ in TOLD])
def test_each_telling_on_the_page_is_what_the_command_prints(args, told):
    again = "a change on purpose? write the section again: python tests/test_docs_duels.py"
    assert " ".join(_told(args).split()) == " ".join(told.split()), again


def _told(args: str) -> str:
    result = CliRunner().invoke(cli, ["duel", *args.split()], terminal_width=100)
    told = result.output.split("The first conflict, told", 1)[1].split("\n", 1)[1]
    return "\n".join(line.rstrip() for line in told.rstrip().splitlines())


if __name__ == "__main__":  # python tests/test_docs_duels.py: write the tellings again, after a change on purpose
    page = PAGE.read_text(encoding="utf-8")
    for args, told in TOLD:
        block = "    solo duel {}\n\n```text\n{}\n```"
        page = page.replace(block.format(args, told), block.format(args, _told(args)))
    PAGE.write_text(page, encoding="utf-8")

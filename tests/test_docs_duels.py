"""docs/narration.md, "Six duels, told": each telling on the page is what `solo duel --narrate` prints for the
command written above it, so the page never shows a duel the engine no longer tells (issue 27)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli

PAGE = Path(__file__).parents[1] / "docs" / "narration.md"
SECTION = PAGE.read_text(encoding="utf-8").split("## Six duels, told", 1)[1].split("\n## ", 1)[0]
DUELS = re.findall(r"\n    solo duel (--type \S+ --seed \d+ --level skilled --runs 1 --narrate)\n\n```text\n(.*?)\n```",
                   SECTION, re.S)


def test_the_page_shows_one_duel_of_each_type_an_npc_fights():
    assert sorted(args.split()[1] for args, _ in DUELS) == sorted(
        ["combat", "social", "foot_chase", "car_chase", "sneaking", "tracking"])


@pytest.mark.parametrize("args,told", DUELS, ids=[args.split()[1] for args, _ in DUELS])
def test_each_telling_on_the_page_is_what_the_command_prints(args, told):
    again = "a change on purpose? write the section again: python tests/test_docs_duels.py"
    assert " ".join(_told(args).split()) == " ".join(told.split()), again


def _told(args: str) -> str:
    result = CliRunner().invoke(cli, ["duel", *args.split()], terminal_width=100)
    told = result.output.split("The first conflict, told", 1)[1].split("\n", 1)[1]
    return "\n".join(line.rstrip() for line in told.rstrip().splitlines())


if __name__ == "__main__":  # python tests/test_docs_duels.py: write the tellings again, after a change on purpose
    page = PAGE.read_text(encoding="utf-8")
    for args, told in DUELS:
        block = "    solo duel {}\n\n```text\n{}\n```"
        page = page.replace(block.format(args, told), block.format(args, _told(args)))
    PAGE.write_text(page, encoding="utf-8")

"""``solo npc`` through the real command group."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solo.cli import COMMANDS, cli
from solo.npc import NPC
from solo.toml_files import load_toml


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_registered_lazily():
    assert COMMANDS["npc"][0] == "solo.cli.npc"
    result = run("--help")
    assert result.exit_code == 0 and "npc" in result.output


def test_card_shows_the_npc():
    result = run("npc", "--level", "skilled", "--antagonist", "--seed", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(run("npc", "--level", "skilled", "--antagonist", "--seed", "3", "--json").output)
    out = result.output
    assert data["name"] in out and "Skilled NPC" in out and "Code Block" in out
    for trait in data["code_block"]["personality"] + data["code_block"]["dark_triad"]:
        assert trait in out
    assert data["code_block"]["motivation"][0] in out and "(Dark Triad)" in out


def test_json_shape_and_reproducible():
    first = run("npc", "--level", "master", "--seed", "5", "--json")
    second = run("npc", "--level", "master", "--seed", "5", "--json")
    assert first.exit_code == 0 and first.output == second.output
    data = json.loads(first.output)
    assert data["level"] == "master" and data["role"] and "luck" not in data  # NPCs have no Luck
    assert set(data["skills"]) == {"Awareness", "Combat", "Cunning", "Knowledge", "Move", "Science",
                                   "Social", "Tech", "Willpower"}
    assert sorted(p["max"] for p in data["pools"].values()) == [10, 12, 14, 16]
    assert sorted(data["skills"].values(), reverse=True)[:3] == [90, 70, 70]
    block = data["code_block"]
    assert set(block) == {"personality", "disposition", "motivation", "event"}
    assert len(block["personality"]) == 2 and block["disposition"] == "Neutral"
    assert set(block["event"]) == {"topic", "sign", "example"} and block["event"]["sign"] in ("positive", "negative")
    assert NPC.from_dict(data).to_dict() == data


def test_mindless_json_has_no_code_block():
    data = json.loads(run("npc", "--mindless", "--seed", "1", "--json").output)
    assert data["mindless"] is True and "code_block" not in data
    result = run("npc", "--role", "draugr", "--seed", "1")
    assert result.exit_code == 0 and "never yields" in result.output


def test_out_writes_a_file_that_reads_back(tmp_path):
    path = tmp_path / "npcs" / "boss.toml"
    result = run("npc", "--level", "master", "--antagonist", "--seed", "9", "--out", str(path))
    assert result.exit_code == 0 and "Saved to" in result.output
    npc = NPC.from_dict(load_toml(path), file=path)
    data = json.loads(run("npc", "--level", "master", "--antagonist", "--seed", "9", "--json").output)
    assert npc.to_dict() == data
    again = run("npc", "--out", str(path), "--seed", "2")  # an NPC file solo rolled is its to replace
    assert again.exit_code == 0 and NPC.from_dict(load_toml(path)).level == "common"
    theirs = tmp_path / "npcs" / "notes.toml"
    theirs.write_text("# my notes\n", encoding="utf-8")
    refused = run("npc", "--out", str(theirs))
    assert refused.exit_code == 2 and "--force" in refused.output and theirs.read_text() == "# my notes\n"
    assert run("npc", "--out", str(theirs), "--force", "--seed", "2").exit_code == 0
    assert NPC.from_dict(load_toml(theirs)).level == "common"


@pytest.mark.parametrize("args,says", [
    (["--level", "boss"], "unknown NPC level 'boss'"),
    (["--role", "pirate"], "unknown role 'pirate'"),
    (["--seed", "x"], "'x' is not a whole number from 0 to"),
    (["--mindless", "--antagonist"], "--antagonist does not apply"),
    (["--force"], "--force only makes sense with --out"),
    (["--colour"], "No such option"),
])
def test_bad_options_one_line_exit_2(args, says):
    result = run("npc", *args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0] and "npc: error:" in lines[0]


def test_tier_names_work_as_levels():
    data = json.loads(run("npc", "--level", "major", "--seed", "4", "--json").output)
    assert data["level"] == "master"


def test_a_card_names_a_lens_habit_only_for_an_npc_that_uses_lenses():
    for seed in range(1, 13):
        common = run("npc", "--level", "common", "--seed", str(seed))
        assert "plain rolls, no Lenses" in common.output
        assert "leans " not in common.output and "Lens habit" not in common.output, common.output
        skilled = run("npc", "--level", "skilled", "--seed", str(seed))
        assert "uses Lenses" in skilled.output
        assert "leans " in skilled.output or "no strong Lens habit" in skilled.output, skilled.output


@pytest.mark.parametrize(("seed", "pronoun", "them", "losing"), [
    (7, "they", "them", "when clearly losing they call for help"),  # Eira Myhre, Merchant
    (3, "she", "her", "when clearly losing she calls for help"),
    (2, "he", "him", "when clearly losing he surrenders"),
])
def test_a_persons_card_speaks_of_them_by_their_pronoun_not_it(seed, pronoun, them, losing):
    data = json.loads(run("npc", "--seed", str(seed), "--json").output)
    assert data["pronoun"] == pronoun
    out = " ".join(run("npc", "--seed", str(seed)).output.replace("│", " ").split())
    assert f"to the PCs' social rolls against {them})" in out and losing in out
    assert "against it)" not in out and "losing it " not in out


def test_the_oracle_s_rows_about_a_session_npc_need_no_pronoun():
    """A session knows its NPCs by name only ("Torgny"), so a row naming {npc} says nothing of him, her or them."""
    import re

    from solo.oracle.loader import load_tables

    rows = [row.text for table in load_tables(use_env=False).tables() for row in table.rows if "{npc}" in row.text]
    assert rows
    for text in rows:
        assert not re.search(r"\b(they|them|their|theirs|themself|he|him|his|she|her|hers)\b", text), text


def test_an_npc_the_table_has_named_gets_its_code_block_and_the_disposition_given():
    """A GM-less table had already met Rin Halden and wanted a Code Block for her, unfriendly: `solo npc` had no
    --name and no --disposition (`solo duel` has the one). The rest is rolled as ever, from the same dice."""
    named = json.loads(run("npc", "--name", " Rin  Halden ", "--disposition", "unfriendly", "--seed", "3",
                           "--json").output)
    assert named["name"] == "Rin Halden" and named["code_block"]["disposition"] == "Unfriendly"
    card = run("npc", "--name", "Rin Halden", "--disposition", "Unfriendly", "--seed", "3").output
    assert "Rin Halden" in card and "Unfriendly (-20 %" in card
    assert NPC.from_dict(named).to_dict() == named
    # a no-break space inside a name is the name's own, as in a character's (one rule: terminal_text.name_problem)
    assert run("npc", "--name", "Jean\u00a0Luc", "--seed", "3").exit_code == 0
    for args, message in ((["--disposition", "grumpy"], "unknown disposition 'grumpy'"),
                          (["--name", "  "], "--name takes a name of 1 to 100 characters: a name must show"),
                          (["--name", "x" * 101], "--name takes a name of 1 to 100 characters: at most 100"),
                          (["--name", "Rin\x1b[2J"], "holds a control character"),
                          (["--mindless", "--disposition", "friendly"], "no Code Block")):
        result = run("npc", *args)
        assert result.exit_code == 2 and message in result.output, (args, result.output)


@pytest.mark.parametrize("asked", ["motivation", "personality", "recent event", "Disposition", "code block"])
def test_a_part_of_the_code_block_asked_as_a_table_says_where_it_is_rolled(asked):
    """`solo table motivation` answered "did you mean 'location'?" (a GM-less table's run)."""
    result = run("table", asked)
    assert result.exit_code != 0 and "Code Block" in result.output and "; solo npc rolls" in result.output
    assert "Code Block is part of" not in result.output
    assert "did you mean" not in result.output


def test_an_npc_met_by_chance_gets_its_first_reaction_and_the_disposition_it_leads_to():
    """A GM-less table's run: the stranger table says "roll the NPC's reaction separately", and only open play's
    "Meet someone" could. `solo npc --reaction` rolls it (docs/oracle.md §6): d100 plus the disposition it came
    with, the band it falls in, and the disposition that gives it, on the card and in the JSON."""
    from solo.oracle.reactions import DISPOSITIONS, reaction_for

    seen = set()
    for seed in range(40):
        data = json.loads(run("npc", "--disposition", "friendly", "--reaction", "--seed", str(seed), "--json").output)
        met = data["reaction"]
        assert met["modifier"] == DISPOSITIONS["friendly"] and met["total"] == met["roll"] + met["modifier"]
        assert (met["reaction"], met["disposition"]) == reaction_for(met["total"])
        assert data["code_block"]["disposition"] == met["disposition"].title()
        seen.add(met["reaction"])
        card = " ".join(run("npc", "--disposition", "friendly", "--reaction", "--seed", str(seed)).output.split())
        assert f"First reaction: {met['roll']:02d} on the d100, +20 for Friendly = {met['total']}: " \
               f"{met['reaction']}" in card
    assert {"neutral", "friendly", "helpful"} <= seen
    assert run("npc", "--mindless", "--reaction").exit_code == 2
    for given in (["--disposition", "friendly"], ["--reaction"], ["--antagonist"]):  # a role that is mindless
        refused = run("npc", "--role", "draugr", *given)
        assert refused.exit_code == 2 and "mindless creature, with no Code Block" in refused.output, given


def test_an_npc_rolled_over_one_rolled_before_says_whom_it_replaced(tmp_path):
    """A group's evening: `solo npc --out npcs/boss.toml` run twice turned Oda Eide into Cato Haug, saying only
    "Saved to npcs/boss.toml." An NPC solo rolled there is replaced, as documented, and the line says whom."""
    out = tmp_path / "boss.toml"
    first = run("npc", "--out", str(out), "--seed", "1")
    assert first.exit_code == 0 and "in place of" not in first.output
    before = load_toml(out)["name"]
    again = run("npc", "--out", str(out), "--seed", "2")
    assert again.exit_code == 0
    assert f"(in place of {before}, rolled there before)." in " ".join(again.output.split()), again.output
    own = tmp_path / "own.toml"  # a file of one's own, replaced with --force, was not "rolled there before" (a review)
    own.write_text('name = "Hand Written"\n', encoding="utf-8")
    forced = run("npc", "--out", str(own), "--force", "--seed", "3")
    assert forced.exit_code == 0 and "(in place of Hand Written)." in " ".join(forced.output.split()), forced.output


def test_an_npc_named_by_the_table_takes_the_pronoun_it_is_given(tmp_path):
    """A GM-less table's evening: `solo npc --name "Rurik the Red"` drew "her" and "she", and `--pronoun he` was
    "No such option"; the only fix was editing the file. The same seed gives the same NPC otherwise."""
    from click.testing import CliRunner

    from solo.cli import cli

    args = ["npc", "--name", "Rurik the Red", "--role", "bandit", "--level", "skilled", "--seed", "9", "--json"]
    drawn = json.loads(CliRunner().invoke(cli, args).output)
    given = CliRunner().invoke(cli, [*args, "--pronoun", "HE", "--out", str(tmp_path / "rurik.toml")])
    assert given.exit_code == 0, given.output
    told = json.loads(given.output)
    assert told["pronoun"] == "he" and {**told, "pronoun": drawn["pronoun"]} == drawn
    import tomllib

    assert tomllib.loads((tmp_path / "rurik.toml").read_text(encoding="utf-8"))["pronoun"] == "he"
    card = CliRunner().invoke(cli, args[:-1] + ["--pronoun", "he"], terminal_width=100).output
    assert "against him" in card and "losing he " in " ".join(card.split())
    assert CliRunner().invoke(cli, [*args, "--pronoun", "xe"]).exit_code == 2


def test_a_first_reaction_of_100_reads_off_the_dice_as_00():
    """A GM-less table: "First reaction: 100 on the d100: helpful", where every d100 shows "00" and the oracle reads
    00 as its worst roll. The face as the dice show it, and the 100 it counts for here."""
    import random

    from solo.cli.npc import reaction_line
    from solo.npc import generate_npc
    from solo.oracle.reactions import Reaction

    npc = generate_npc(random.Random(1), "skilled")
    top = Reaction(roll=100, modifier=0, total=100, reaction="helpful", disposition="friendly", twist=None)
    assert reaction_line("Neutral", top, npc).startswith("First reaction: 00 (100) on the d100: helpful")
    low = Reaction(roll=7, modifier=0, total=7, reaction="hostile", disposition="hostile", twist=None)
    assert reaction_line("Neutral", low, npc).startswith("First reaction: 07 on the d100: hostile")


def test_an_npc_file_is_named_as_the_toml_it_is(tmp_path):
    """A GM-less table: `solo npc --json --out npcs/x.json` wrote TOML into a .json file."""
    refused = run("npc", "--json", "--out", str(tmp_path / "x.json"), "--seed", "1")
    assert refused.exit_code == 2 and "name it x.toml" in " ".join(refused.output.split())
    assert not (tmp_path / "x.json").exists()
    assert run("npc", "--out", str(tmp_path / "x.TOML"), "--seed", "1").exit_code == 0

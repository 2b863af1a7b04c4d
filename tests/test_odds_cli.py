"""``solo odds`` reproduces the game (issue 12, items 3 and 4): every Lens for both sides, a round limit,
weapons, a PC from a file and an NPC deciding with its mind, checked against ``solo duel --pc-lens``."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from sequential import Case, check

from solo.cli import cli
from solo.minds.foresight import keeping
from solo.minds.morale import reaction_split
from solo.npc import NPC as NPCFile
from solo.npc.leanings import leanings
from solo.rules.lens_chain import LensChain, lens_targets
from solo.rules.lenses import LENSES
from solo.rules.odds import conflict_odds
from solo.toml_files import load_toml

PLAIN = ["--skill-a", "60", "--pool-a", "10", "--skill-b", "55", "--pool-b", "9"]

# A PC and a mindless creature: its morale never moves (it never checks, flees or gives up), so its choices are
# a function of what the chain holds: the Pools, the carried effects, its last Lens and what it saw declared.
PC = '''name = "Tove"
weapon = "short_sword"
items = ["Rope"]
[skills]
Combat = 60
Cunning = 55
Social = 45
Move = 40
[pools]
BODY = 8
INT = 10
POW = 14
CHA = 14
'''
NPC = '''name = "Grim"
level = "skilled"
mindless = true
skills = { Combat = 55, Cunning = 45, Move = 40 }
pools = { BODY = 8, INT = 6, POW = 10, CHA = 6 }
weapon = "axe"
'''


def odds(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def fails(*args: str) -> str:
    result = CliRunner().invoke(cli, ["odds", *args])
    assert result.exit_code == 2, result.output
    return result.output


@pytest.fixture
def files(tmp_path):
    pc, npc = tmp_path / "tove.toml", tmp_path / "grim.toml"
    pc.write_text(PC, encoding="utf-8")
    npc.write_text(NPC, encoding="utf-8")
    return str(pc), str(npc)


def test_json_keeps_its_keys_and_adds_every_lens_without_lens_a():
    data = odds(*PLAIN)
    assert {"a_wins", "b_wins", "never_ends", "expected_rounds", "round"} <= set(data)
    assert set(data["by_lens"]) == set(LENSES)
    assert data["a_wins"] == pytest.approx(data["by_lens"]["none"], abs=1e-12)  # the default Lens, as before
    assert data["best"] == max(data["by_lens"], key=data["by_lens"].get)  # nobody's nerve: the outright win
    old = conflict_odds(60, 10, 55, 9)
    assert (data["a_wins"], data["b_wins"], data["expected_rounds"]) == pytest.approx(
        (old.a_wins, old.b_wins, old.expected_rounds), abs=1e-12)
    one = odds(*PLAIN, "--lens-a", "cautious")
    assert "by_lens" not in one and one["a_wins"] == pytest.approx(data["by_lens"]["cautious"], abs=1e-12)


def test_a_round_nobody_wins_is_not_called_a_stalemate():
    """Before: "first round: A 52.25%, B 29.75%, stalemate 18.00%", where play keeps "stalemate" for a conflict
    still going at its round limit (and the menus call that undecided)."""
    result = CliRunner().invoke(cli, ["odds", "--skill-a", "50", "--pool-a", "5", "--skill-b", "40", "--pool-b", "5"])
    assert result.exit_code == 0, result.output
    first = odds("--skill-a", "50", "--pool-a", "5", "--skill-b", "40", "--pool-b", "5")["round"]
    line = next(ln for ln in result.output.splitlines() if "first round:" in ln)
    assert "stalemate" not in result.output
    assert line.strip() == (f"first round: A wins {first['a']:.2%}, B wins {first['b']:.2%}, "
                            f"nobody wins {first['stalemate']:.2%}")


def test_every_lens_for_both_sides_with_a_round_limit():
    data = odds(*PLAIN, "--lens-b", "covert", "--covert-b", "65", "--covert-a", "40", "--flamboyant-a", "70",
                "--rounds", "12")
    chain = LensChain(lens_targets(60, covert=40, flamboyant=70), lens_targets(55, covert=65, flamboyant=55),
                      policy_b="covert")
    for lens in LENSES:
        exact = chain.odds(10, 9, lens_a=keeping(lens), round_limit=12)
        assert data["by_lens"][lens] == pytest.approx(exact.a_wins, abs=1e-12), lens
    assert data["never_ends"] == pytest.approx(1 - data["a_wins"] - data["b_wins"], abs=1e-12)
    assert data["never_ends"] > 0.0
    assert data["round_limit"] == 12


def test_a_weapon_brings_its_dice():
    sword = odds(*PLAIN, "--weapon-a", "long_sword", "--lens-a", "none")
    dice = odds(*PLAIN, "--damage-a", "1d8", "--lens-a", "none")
    assert sword["a_wins"] == dice["a_wins"]
    assert "--weapon-a" in fails(*PLAIN, "--weapon-a", "bazooka")
    assert "give one" in fails(*PLAIN, "--weapon-a", "axe", "--damage-a", "1d6")


def test_a_character_file_brings_its_weapon_focus_and_gear_bonus(tmp_path):
    hero = tmp_path / "hero.toml"
    hero.write_text('name = "Hero"\nweapon = "axe"\ntags = ["Gear"]\ngear_bonus = 2\n[skills]\nCombat = 60\n'
                    '[focuses]\n"Combat//Melee" = 20\n[pools]\nBODY = 10\nINT = 10\nPOW = 10\nCHA = 10\n',
                    encoding="utf-8")
    data = odds("--pc", str(hero), "--skill-b", "55", "--pool-b", "9", "--lens-a", "none", "--lens-b", "none")
    # Combat 60 with //Melee for the axe: 80; 1d6 + 2 of Gear; the side by numbers rolls plain 1d6
    same = conflict_odds(80, 10, 55, 9, bonus_a=2)
    assert data["a_wins"] == pytest.approx(same.a_wins, abs=1e-12)
    swapped = odds("--pc", str(hero), "--weapon-a", "long_sword", "--skill-b", "55", "--pool-b", "9",
                   "--lens-a", "none")
    assert swapped["a_wins"] == pytest.approx(conflict_odds(80, 10, 55, 9, damage_a="1d8", bonus_a=2).a_wins,
                                              abs=1e-12)


def test_the_heading_names_the_npcs_mind_by_its_pronoun_and_the_flashy_skill_it_may_win_by(tmp_path):
    """A GM-less table's run: "Elin Nygaard (5 %, BODY 8, 1d4…, its mind decides)" and then "B wins 98.96 %": she
    won by Flamboyant Social //Oratory 90, which the heading never named, and "its" of her."""
    from solo.npc import generate_npc
    from solo.rules.dice import new_rng
    from solo.toml_write import dumps

    npc = generate_npc(new_rng(5), "skilled", role="courtier", name="Ylva Hovland")
    npc.pronoun = "she"
    path = tmp_path / "ylva.toml"
    path.write_text(dumps(npc.to_dict()), encoding="utf-8")
    text = " ".join(CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", str(path)]).output.split())
    assert ("Ylva Hovland (5 %, BODY 8, 1d4, her mind decides; a trick rolls Cunning 50 %; a flashy move rolls "
            "Social 90 %)") in text, text
    assert "(B's nerve breaks)" in text
    plain = " ".join(CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", "vellan:dog"]).output.split())
    assert "the cannery dog (40 %, BODY 8, 1d3, its mind decides)" in plain  # nothing flashier than its bite
    # a GM's mill-wheel: "its mind decides" of a thing with none; a mindless one presses on and never yields
    dead = " ".join(CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", "kaldskard:barrow_one"]).output.split())
    assert "the first barrow-wight (30 %, BODY 6, 1d6, no mind: presses on, never yields)" in dead, dead


def test_an_npc_decides_with_its_mind(files):
    pc, npc = files
    data = odds("--pc", pc, "--npc", npc, "--rounds", "30")
    assert set(data["by_lens"]) == set(LENSES)
    assert 0.05 < min(data["by_lens"].values()) < max(data["by_lens"].values()) < 0.95
    text = CliRunner().invoke(cli, ["odds", "--pc", pc, "--npc", npc]).output
    assert "Grim (55 %, BODY 8, 1d6, no mind: presses on, never yields)" in text and "best" in text  # mindless
    assert "--lens-b" in fails("--pc", pc, "--npc", npc, "--lens-b", "aggressive")
    assert "--pc" in fails("--pc", pc, "--skill-a", "50", "--npc", npc)
    assert "--skill-b" in fails("--skill-a", "50", "--pool-a", "10")
    played = odds("--pc", pc, "--npc", npc, "--rounds", "30", "--lens-a", "cautious", "--simulate", "300")
    assert played["simulation"]["runs"] == 300



def test_the_engine_beside_the_odds_leaves_out_pushing_on_as_the_odds_do(files, tmp_path):
    """A new player's run: against a Master NPC (who pushes on below zero in play) --simulate gave "A 6.80 %"
    beside the exact 23.11 %, with no word why; the help says Luck and pushing on are left out everywhere, and
    now the engine's conflicts beside the odds leave them out too. 800 conflicts: the two agree within 4
    standard errors (about 6.5 points at these odds; the gap was 17)."""
    pc, _ = files
    master = tmp_path / "vilde.toml"
    master.write_text(NPC.replace('level = "skilled"', 'level = "master"').replace("Combat = 55", "Combat = 70"),
                      encoding="utf-8")
    data = odds("--pc", pc, "--npc", str(master), "--rounds", "20", "--lens-a", "aggressive", "--simulate", "800")
    exact, played = data["a_wins"], data["simulation"]["a_wins"]
    assert 0.1 < exact < 0.9
    assert abs(played - exact) < 4 * (exact * (1 - exact) / 800) ** 0.5, (exact, played)


# A mind whose nerve goes (Health: it surrenders, runs or begs once broken): solo odds prices its morale in the
# chain, so its flight and surrender too.
COWARD = NPC.replace("mindless = true\n", "").replace('name = "Grim"', 'name = "Sneak"') + '''[code_block]
personality = ["Nervous", "Shy"]
motivation = ["Health"]
event = { topic = "Money", sign = "negative" }
'''


def test_the_help_says_what_the_numbers_hold_of_an_npcs_nerve(tmp_path, files):
    """The help said the NPC 'never flees or gives up here' while the table beside it priced its flight."""
    pc, _ = files
    npc = tmp_path / "sneak.toml"
    npc.write_text(COWARD, encoding="utf-8")
    shown = CliRunner().invoke(cli, ["odds", "--pc", pc, "--npc", str(npc), "--rounds", "30"]).output
    assert "B flees or gives up" in shown
    told = " ".join(CliRunner().invoke(cli, ["odds", "--help"]).output.split())
    assert "never flees" not in told and "nerve is in the numbers" in told and "B flees or gives up" in told
    assert "solo npc --out brakk.toml" in told  # where the example's files come from
    # an argument is left, not fled (a group's evening: "B flees or gives up" of a social match-up, which solo duel
    # reports as walking away)
    argued = CliRunner().invoke(cli, ["odds", "--pc", pc, "--npc", "tutorial:courier", "--type", "social"]).output
    assert "B leaves or gives in" in argued and "flees" not in argued, argued
    played = CliRunner().invoke(cli, ["odds", "--pc", pc, "--npc", "tutorial:courier", "--type", "social",
                                      "--simulate", "200", "--seed", "1"]).output
    assert "left or gave in" in played and "fled" not in played, played  # the engine's shares, worded alike


def _match_up(participants, ctype, round_limit) -> dict:
    """Everything of a conflict as it starts that the engine and the chain read: the type and round limit; for
    the PC and the NPC their characters, Pools, targets for every Lens and skill, dice, armour and shields, and
    who decides for them (the PC's kept Lens; the NPC's mind: its character, memory and leanings)."""
    from solo.minds.arena import _Tally
    from solo.minds.bots import LensKeeper
    from solo.minds.npc import NPCMind
    from solo.rules.character import skill_target
    from solo.rules.lenses import LENS_TABLE
    from solo.rules.participants import flamboyant_skills

    physical = ctype.physical
    pc, npc = sorted(participants, key=lambda p: not p.is_pc)
    seen: dict = {"type": ctype.key, "round_limit": round_limit}
    for role, p, other in (("pc", pc, npc), ("npc", npc, pc)):
        skills = (p.skill, "Cunning", "Move", *flamboyant_skills(p))
        decider = p.decider.mind if isinstance(p.decider, _Tally) else p.decider
        if isinstance(decider, LensKeeper):
            how: tuple = ("keeps", decider.lens)
        else:
            assert type(decider) is NPCMind and decider.npc is p.char, decider
            how = ("mind", decider.memory, decider.leanings(), decider.explain)
        seen[role] = dict(
            character=p.char, name=p.name, is_pc=p.is_pc, uses_lenses=p.uses_lenses, status=p.status,
            pool=(p.pool.current, p.pool.maximum), sources=p.pool_sources, carry=p.carry,
            clever_next=p.clever_next, last_lens=p.last_lens, pushing=p.pushing, skill=p.skill,
            base=p.base_target(),
            targets={(k, s): p.rolled_target(LENS_TABLE[k], s)[0] for k in LENSES for s in skills},
            getaway=skill_target(p.character, "Move", ("Athletics", "Acrobatics"))[0],
            dice=str(p.damage_dice(physical)), bonus=p.damage_bonus(physical),
            armour=p.armour_against(other, ctype), shield=p.shield_penalty((other,), physical), decides=how)
    return seen


@pytest.mark.parametrize("lens", LENSES)
def test_solo_odds_and_solo_duel_set_up_the_same_match_up_for_every_lens(tmp_path, files, monkeypatch, lens):
    """``solo odds --pc P --npc F --rounds 30 --lens-a X`` prices, and ``solo duel --npc F --pc P --pc-lens X``
    plays, the same conflict as it starts, to the last number read: the same characters, Pools, targets of every
    Lens, dice, armour, round limit, the PC keeping X, the NPC deciding with a mind of the same character and
    leanings. Exact, for every Lens: the test below plays the two against each other for the Lenses no other test
    plays against a mind's nerve."""
    import solo.minds.arena as arena
    from solo.minds.foresight import Foresight

    pc, _ = files
    npc = tmp_path / "sneak.toml"
    npc.write_text(COWARD, encoding="utf-8")
    priced, played = [], []
    exact = Foresight.exact

    def pricing(self, view, me, *args, **kwargs):
        priced.append(_match_up(view.participants, view.ctype, view.round_limit))
        return exact(self, view, me, *args, **kwargs)

    class Playing(arena.Conflict):
        def __init__(self, ctype, participants, rng, **kwargs):
            played.append(_match_up(participants, ctype, kwargs.get("round_limit")))
            super().__init__(ctype, participants, rng, **kwargs)

    monkeypatch.setattr(Foresight, "exact", pricing)
    monkeypatch.setattr(arena, "Conflict", Playing)
    odds("--pc", pc, "--npc", str(npc), "--rounds", "30", "--lens-a", lens)
    result = CliRunner().invoke(cli, ["duel", "--npc", str(npc), "--pc", pc, "--pc-lens", lens, "--runs", "1",
                                      "--seed", str(LENSES.index(lens) + 1), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["pc_lens"] == lens
    assert len(priced) == len(played) == 1
    assert priced[0]["pc"]["decides"] == played[0]["pc"]["decides"] == ("keeps", lens)
    assert priced[0] == played[0]


#: The Lenses no other test plays against a mind's nerve; the engine against the chain with the nerve for the
#: others: aggressive (a mind that surrenders when it breaks, and a mindless one), clever (one that fights on
#: broken) and none (a common thug) in tests/test_lens_chain_nerve.py.
PLAYED_HERE = ("cautious", "covert", "flamboyant", "quick")


@pytest.mark.slow
@pytest.mark.parametrize("lens", PLAYED_HERE)
def test_solo_odds_and_solo_duel_agree_in_play(tmp_path, files, lens):
    """``solo odds --npc F --pc P --lens-a X`` against ``solo duel --npc F --pc P --pc-lens X --runs N``, against
    a mind whose nerve goes: won, lost, fled and surrendered by the sequential test of tests/sequential.py with
    the error rates of four standard errors at 4,000 runs (at most 0.032 on each share), ``solo duel`` asked
    for a block of runs at a time, each block with a seed of its own; the ways out split as the chain splits
    them (``reaction_split``, the Code Block's share of surrenders). For every Lens X, the two set up the same
    match-up (the test above, exactly); here each Lens no other test plays against a mind's nerve is played
    (``PLAYED_HERE``), this mind's flights and surrenders counted apart in each. A mindless foe is the chain's
    simpler case (tests/test_lens_chain_nerve.py plays one against the engine, and other minds, with the other
    Lenses)."""
    pc, _ = files
    npc = tmp_path / "sneak.toml"
    npc.write_text(COWARD, encoding="utf-8")
    exact = odds("--pc", pc, "--npc", str(npc), "--rounds", "30", "--lens-a", lens)
    assert exact["b_exits"] > 0.05
    seeds = iter(range(1000 * (LENSES.index(lens) + 1), 1000 * (LENSES.index(lens) + 2)))
    read: set[float] = set()

    def play(runs: int) -> dict[str, int]:
        seed = next(seeds)
        result = CliRunner().invoke(cli, ["duel", "--npc", str(npc), "--pc", pc, "--pc-lens", lens, "--runs",
                                          str(runs), "--seed", str(seed), "--json"])
        assert result.exit_code == 0, result.output
        duel = json.loads(result.output)
        assert duel["pc_lens"] == lens and duel["pc_gave_up"] == 0 and duel["runs"] == runs
        mind = NPCFile.from_dict(load_toml(npc), file=npc, rng=random.Random(f"duel-file:{seed}"))
        read.add(reaction_split(leanings(mind.code_block), can_flee=True))  # the mind solo duel read
        outcomes = duel["outcomes"]  # the NPC's side: it lost when the PC won
        return {**outcomes, "gone": outcomes.get("fled", 0) + outcomes.get("surrendered", 0)}

    surrenders = reaction_split(leanings(NPCFile.from_dict(load_toml(npc), file=npc).code_block), can_flee=True)
    assert surrenders is not None and 0 < surrenders < 1  # this mind both runs and gives up: both are counted
    chances = {"gone": exact["b_exits"], "surrendered": exact["b_exits"] * surrenders,
               "fled": exact["b_exits"] * (1 - surrenders), "lost": exact["a_wins"], "won": exact["b_wins"]}
    check([Case(f"{lens} against the coward", chances, play)], 4000)
    assert read == {surrenders}  # every block's mind split its ways out as the chain did


def test_an_adventures_npc_is_priced_by_file_and_id():
    """New-user run: '--npc cove.toml' (an adventure) failed with 'adventure: unknown field'; a GM had to copy the
    fighter into a file of its own. FILE:ID names one of the adventure's NPCs, and the odds are those of the same
    NPC in a file of its own; a file of several NPCs without an ID, or an unknown ID, says which it holds."""
    import pathlib
    import tempfile

    from solo.story.play.npcs import npc_fields
    from solo.toml_files import load_toml
    from solo.toml_write import dumps

    npcs = pathlib.Path(__file__).resolve().parent.parent / "scenes" / "vellan" / "npcs.toml"
    args = ["odds", "--pc", "espen", "--type", "social", "--rounds", "1", "--json"]
    named = CliRunner().invoke(cli, [*args, "--npc", f"{npcs}:jonas"])
    assert named.exit_code == 0, named.output
    with tempfile.TemporaryDirectory() as folder:
        alone = pathlib.Path(folder) / "jonas.toml"
        alone.write_text(dumps(npc_fields(load_toml(npcs)["npcs"]["jonas"])), encoding="utf-8")
        copied = CliRunner().invoke(cli, [*args, "--npc", str(alone)])
        misnamed = CliRunner().invoke(cli, [*args, "--npc", f"{alone}:jonas"])  # a file of one NPC takes no ID
        assert misnamed.exit_code != 0 and "that file is one NPC's" in misnamed.output
    assert copied.exit_code == 0, copied.output
    assert json.loads(named.output) == json.loads(copied.output)
    several = CliRunner().invoke(cli, [*args, "--npc", str(npcs)])
    assert several.exit_code != 0 and "holds 9 NPCs" in several.output and f"{npcs}:ingrid" in several.output
    typo = CliRunner().invoke(cli, [*args, "--npc", f"{npcs}:jona"])
    assert typo.exit_code != 0 and "did you mean 'jonas'" in typo.output


def test_the_header_gives_the_roll_the_kept_lens_is_priced_at():
    """New-user run: 'Espen Lind (30 %, … keeps flamboyant)', where the odds were worked out at his Flamboyant roll,
    Social 30 and //Influence: 50 %. The header gives the kept Lens's roll beside the conflict skill's."""
    shown = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--skill-b", "40", "--pool-b", "10", "--rounds", "3",
                                     "--lens-a", "flamboyant"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("Espen Lind (Social 50 % with flamboyant, Combat 30 % without, BODY 12,")
    plain = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--skill-b", "40", "--pool-b", "10", "--rounds", "3"])
    assert plain.output.startswith("Espen Lind (30 %, BODY 12,")  # no Lens kept: the conflict skill alone


def test_an_npcs_disposition_is_on_the_pcs_rolls_in_a_social_conflict_as_in_the_game(tmp_path, files):
    """solo odds and solo duel left out the NPC's disposition, which the game puts on every PC roll of a social
    conflict ('Oskar Brann is Unfriendly -20'): the odds read 45 % where the game's menu said 67 % for the same
    fight, and a Malicious and an Affectionate NPC won about as often (GM-tools review). Now all three put it on
    through one function; a fight is no social conflict and keeps the plain numbers."""
    pc, _ = files
    talked_down, header, fight = {}, {}, {}
    for disposition in ("Unfriendly", "Neutral", "Friendly"):
        npc = tmp_path / f"{disposition}.toml"
        npc.write_text(COWARD + f'disposition = "{disposition}"\n', encoding="utf-8")
        talked_down[disposition] = odds("--pc", pc, "--npc", str(npc), "-t", "social", "--rounds", "30",
                                        "--lens-a", "cautious")["b_wins"]
        if disposition != "Friendly":
            header[disposition] = CliRunner().invoke(cli, ["odds", "--pc", pc, "--npc", str(npc), "-t", "social",
                                                           "--rounds", "30", "--lens-a", "cautious"]).output

            fight[disposition] = odds("--pc", pc, "--npc", str(npc), "-t", "combat", "--rounds", "30", "--lens-a",
                                      "cautious")["b_wins"]
    assert talked_down["Unfriendly"] > talked_down["Neutral"] > talked_down["Friendly"]  # the NPC talks Tove down
    # counted in the number beside it, and said so: "45 %, Sneak is Unfriendly -20" read as 45 less 20 (a GM's run)
    assert "25 % without, counting Sneak is Unfriendly -20," in header["Unfriendly"].splitlines()[0]
    assert " is Neutral" not in header["Neutral"].splitlines()[0]
    assert fight["Unfriendly"] == fight["Neutral"]
    won = {}
    for disposition in ("Malicious", "Affectionate"):
        result = CliRunner().invoke(cli, ["duel", "-t", "social", "--disposition", disposition, "--pc", pc, "--runs",
                                          "120", "--seed", "4", "--json"])
        assert result.exit_code == 0, result.output
        won[disposition] = json.loads(result.output)["outcomes"].get("won", 0)
    assert won["Malicious"] > won["Affectionate"] + 50  # the NPC's side: a Malicious one is far harder to talk round


def test_an_adventures_npc_is_named_by_the_adventure_as_every_command_names_it():
    """New-user run: '--npc scenes/vellan:jonas' (a folder adventure) and '--npc tutorial:courier' (a bundled
    adventure's name) failed with 'no such file', while every other command takes a folder or a name. They now
    name the same NPC as its file does; a plain NPC file and a missing one read as before."""
    import pathlib

    scenes = pathlib.Path(__file__).resolve().parent.parent / "scenes"
    args = ["odds", "--pc", "espen", "--type", "social", "--rounds", "1", "--json"]
    for short, long in ((f"{scenes / 'vellan'}:jonas", f"{scenes / 'vellan' / 'npcs.toml'}:jonas"),
                        ("tutorial:courier", f"{scenes / 'tutorial.toml'}:courier")):
        named = CliRunner().invoke(cli, [*args, "--npc", short])
        assert named.exit_code == 0, named.output
        assert json.loads(named.output) == json.loads(CliRunner().invoke(cli, [*args, "--npc", long]).output)
    several = CliRunner().invoke(cli, [*args, "--npc", "tutorial"])
    assert several.exit_code == 2 and "--npc tutorial holds 2 NPCs (harbour_guard, courier)" in several.output
    typo = CliRunner().invoke(cli, [*args, "--npc", "vellan:jona"])
    assert typo.exit_code == 2 and "did you mean 'jonas'" in typo.output
    missing = CliRunner().invoke(cli, [*args, "--npc", "nowhere.toml"])
    assert missing.exit_code == 2 and "--npc nowhere.toml: no such file" in missing.output


def test_the_best_lens_against_an_npc_counts_its_going_as_the_menu_and_prove_do():
    """GM-tools review: against the tutorial's courier `solo odds` marked the Lens of the highest outright win best,
    though most fights end with her running or giving in; prove, the bots and the Lens menu choose by the win or the
    foe gone (best_of). Over 8 rounds of talk the two part: "none" wins outright most, Cautious sees her go most."""
    args = ["odds", "--pc", "espen", "--npc", "scenes/tutorial.toml:courier", "--type", "social", "--rounds", "8"]
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    gains = {k: data["by_lens"][k] + data["by_lens_exits"][k] for k in data["by_lens"]}
    assert max(data["by_lens"], key=data["by_lens"].get) == "none"
    assert data["best"] == max(gains, key=gains.get) == "cautious"
    text = CliRunner().invoke(cli, args).output
    best_line = next(line for line in text.splitlines() if line.endswith("best"))
    assert best_line.split()[0] == "cautious" and "B goes" in best_line
    # the sum best is chosen by is on every line (a new player read "best" beside a lower win, with no total)
    assert f"together {gains['cautious']:.2%}" in best_line


def test_a_character_against_an_obstacle_is_priced_as_an_adventure_writes_it():
    """A new GM: "solo odds --pc espen --type lockpicking …" was refused ("against an obstacle, not a person"), and
    the docs say to size fights with solo odds. --obstacle is side B as an adventure writes one, by difficulty; the
    exact odds and the engine agree within four standard errors, and the obstacle is the one the engine fights."""
    from solo.rules.participants import OBSTACLES

    args = ["odds", "--pc", "espen", "--type", "lockpicking", "--obstacle", "easy", "--rounds", "5",
            "--lens-a", "cautious", "--json"]
    exact = json.loads(CliRunner().invoke(cli, args).output)
    played = json.loads(CliRunner().invoke(cli, [*args, "--simulate", "4000", "--seed", "3"]).output)["simulation"]
    p = exact["a_wins"]
    assert 0.02 < p < 0.98 and abs(played["a_wins"] - p) <= 4 * (p * (1 - p) / 4000) ** 0.5, (p, played)
    shown = CliRunner().invoke(cli, args[:-1]).output
    challenge, pool = OBSTACLES["easy"]
    assert f"the easy obstacle (Challenge {challenge} %, INT {pool})" in shown
    refused = {
        ("--obstacle", "harder"): "a difficulty is one of easy, normal, hard, very hard",
        ("--obstacle", "hard", "--npc", "tutorial:courier"): "--obstacle is side B: drop --npc",
        ("--obstacle", "hard", "--skill-b", "50"): "--obstacle is side B: drop --skill-b",
    }
    for extra, said in refused.items():
        result = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--type", "lockpicking", *extra])
        assert result.exit_code == 2 and said in result.output, (extra, result.output)
    without = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--type", "lockpicking"])
    assert without.exit_code == 2 and "--obstacle" in without.output


def test_an_unfriendly_npcs_argument_is_priced_as_the_engine_plays_it(tmp_path):
    """A GM-less table's run: a Malicious NPC's argument was priced at 59.9 % for the NPC and played at 48.7 % by
    --simulate, printed one above the other with nothing said. The chain's mind, over arrays of Pools, counted its
    dirty-tricks consideration (``rapport``) twice for the Lens it used last (an in-place sum), where the draw
    counts it once. Now the two agree within four standard errors (2,500 conflicts: the gap was some ten of them),
    and nothing is flagged. (A Neutral NPC has no rapport: the arrays' test below holds every case.)"""
    from pathlib import Path

    data = Path(__file__).resolve().parent / "data" / "odds"
    runs = 2500
    args = ["odds", "--pc", str(data / "ragna_holt.toml"), "--npc", str(data / "agda_malicious.toml"), "--type",
            "social", "--rounds", "6", "--lens-a", "none", "--simulate", str(runs), "--seed", "11", "--json"]
    shown = CliRunner().invoke(cli, args)
    assert shown.exit_code == 0, shown.output
    got = json.loads(shown.output)
    sim = got["simulation"]
    for side in ("a_wins", "b_wins"):
        error = max(got[side] * (1 - got[side]), 1 / runs) ** 0.5 / runs ** 0.5
        assert abs(sim[side] - got[side]) <= 4 * error, (side, sim[side], got[side])
    assert sim["apart"] == ""


def test_a_gap_between_the_engine_and_the_exact_odds_is_said():
    """Where the engine's share lies more than four standard errors from the exact chance, solo odds says so, in
    words and in the JSON (``simulation.apart``): the odds then leave out something the engine plays."""
    from solo.cli.odds import disagreement
    from solo.rules.odds import ConflictOdds, RoundOdds

    exact = ConflictOdds(a_wins=0.0003, b_wins=0.5991, never_ends=0.4006, expected_rounds=5.36,
                         round=RoundOdds(0.0145, 0.8945, 0.091))
    assert disagreement(exact, {"runs": 20000, "a_wins": 0.0005, "b_wins": 0.4873}) == \
        "B 48.73% against 59.91%, 32 standard errors"
    assert disagreement(exact, {"runs": 20000, "a_wins": 0.0005, "b_wins": 0.5960}) == ""  # 0.9 standard errors


def test_a_minds_choice_over_arrays_of_pools_is_its_choice_at_each():
    """The cause of the gap above: ``_spread_at`` over arrays (the chain's walk) and at one pair of Pools (the
    draw) must give the same chances; with a consideration summed after ``inertia`` (an unfriendly NPC's
    ``rapport`` in an argument) the arrays' sum was made in place and counted it twice for the Lens used last."""
    from pathlib import Path

    import numpy as np

    from solo.characters import load_character
    from solo.minds import npc as minds
    from solo.minds.bots import LensKeeper
    from solo.npc.disposition import disposition_bonus
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.lens_chain import Effect
    from solo.rules.participants import from_character

    data = Path(__file__).resolve().parent / "data" / "odds"
    ctype = conflict_type("social")
    agda = NPCFile.from_dict(load_toml(data / "agda_malicious.toml"), file=data / "agda_malicious.toml",
                             rng=random.Random(1))
    mind = minds.NPCMind(agda, random.Random(2))
    ps = [from_character(load_character(str(data / "ragna_holt.toml")), "a", ctype, decider=LensKeeper("none")),
          from_character(agda, "b", ctype, decider=mind)]
    disposition_bonus(ctype, ps, "a")
    view = Conflict(ctype, ps, random.Random(3), round_limit=6).view
    reading = mind._reading(view, ps[1])
    assert "rapport" in minds.lens_considerations(reading.lean, reading.lenses, minds.situation_at(
        reading, minds.MindState(10, 7, Effect(0), Effect(-20), None, "none", None, False)), reading.temperament)
    own, other = np.array([[10, 10, 9], [4, 10, 2]]), np.array([[7, 2, 10], [3, 10, 9]])
    for last in (None, "covert", "aggressive", "cautious"):
        for carry, theirs in ((0, Effect(-20)), (-20, Effect(0)), (0, Effect(0))):
            grid = minds._spread_at(reading, own, other, Effect(carry), theirs, None, "none", last, False)
            for i, j in np.ndindex(own.shape):
                one = minds._spread_at(reading, int(own[i, j]), int(other[i, j]), Effect(carry), theirs, None, "none",
                                       last, False)
                at = {k: float(v[i, j]) for k, v in grid.items() if float(v[i, j]) > 0}
                assert at.keys() == one.keys() and all(abs(at[k] - one[k]) < 1e-12 for k in one), (last, i, j, at, one)


def test_an_exact_chance_that_may_fail_or_happen_is_never_shown_as_certain_or_impossible():
    """An audit of the numbers shown: "A wins the conflict 100.00%" of a chance of 0.9999997, and seven Lenses at
    "0.00%" with one of them "best". Two places are kept; the ends are said as beyond them."""
    sure = CliRunner().invoke(cli, ["odds", "--skill-a", "95", "--pool-a", "20", "--skill-b", "20", "--pool-b", "6",
                                    "--lens-a", "cautious"]).output
    assert "A wins the conflict  >99.99%" in sure and "B wins the conflict   <0.01%" in sure
    assert "100.00%" not in sure and " 0.00%" not in sure
    hopeless = CliRunner().invoke(cli, ["odds", "--skill-a", "10", "--pool-a", "5", "--skill-b", "95", "--pool-b",
                                        "20"]).output
    assert "<0.01%  best" in hopeless


def test_the_text_says_what_the_odds_leave_out_and_every_sampled_number_its_spread():
    """A GM-less table's evening: `solo odds` gave a PC 26 % where solo duel's bot, spending Luck and pushing on,
    won 71 %, and only --help said what the odds leave out; --simulate's mean rounds and its shares of flight had
    no ±, and the undecided share was unsaid."""
    import math
    import re

    text = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", "tutorial:courier", "--rounds", "12",
                                    "--simulate", "1000", "--seed", "2"], terminal_width=200).output
    assert "Left out of these odds: Luck, pushing on, blows sent to POW or CHA instead, Quick's extra action." in text
    data = json.loads(CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", "tutorial:courier", "--rounds", "12",
                                               "--simulate", "1000", "--seed", "2", "--json"]).output)["simulation"]
    rounds = re.search(r"in ([\d.]+) ± ([\d.]+) rounds on average", text)
    assert rounds and float(rounds.group(1)) == round(data["mean_rounds"], 2)
    assert 0 < float(rounds.group(2)) == round(data["rounds_error"], 2) < 1
    undecided = 1 - data["a_wins"] - data["b_wins"] - data["a_exits"] - data["b_exits"]
    assert undecided > 0.05
    err = 100 * math.sqrt(undecided * (1 - undecided) / 1000)
    assert f"undecided {undecided:.2%} ± {err:.2f}" in text
    assert re.search(r"\(A fled or gave up [\d.]+% ± [\d.]+; B [\d.]+% ± [\d.]+; undecided", text)


def test_a_means_standard_error_is_the_samples_own():
    import statistics

    from solo.sampling import mean_error

    rng = random.Random(4)
    values = [rng.randint(1, 30) for _ in range(500)]
    expected = statistics.stdev(values) / len(values) ** 0.5
    assert expected > 0.3
    assert abs(mean_error(sum(values), sum(v * v for v in values), len(values)) - expected) < 1e-9
    assert mean_error(7, 49, 1) == 0.0 and mean_error(14, 98, 2) == 0.0


def test_against_several_the_disposition_on_every_roll_says_whose_it_is():
    """A hot-seat party's run: "Torgny is Unfriendly -20" on every roll of an argument with Torgny and Friendly
    Hallstein, and no word why Hallstein's counted for nothing until Torgny was out. Against several, the one whose
    disposition counts is said to speak for them; against one, as before."""
    from solo.minds.bots import LensKeeper
    from solo.npc.disposition import disposition_bonus
    from solo.npc.model import NPC
    from solo.rules.conflict_types import conflict_type
    from solo.rules.creation import pregenerated
    from solo.rules.participants import from_character

    ctype = conflict_type("social")

    def npc(name, disposition):
        return NPC.from_dict({"name": name, "level": "common", "skills": {"Social": 40},
                              "code_block": {"personality": ["Nervous", "Boring"], "motivation": ["Money"],
                                             "disposition": disposition,
                                             "event": {"topic": "Money", "sign": "negative"}}})

    pc = from_character(pregenerated("espen"), "a", ctype, decider=LensKeeper("none"))
    torgny = from_character(npc("Torgny", "Unfriendly"), "b", ctype, decider=LensKeeper("none"))
    hallstein = from_character(npc("Hallstein", "Friendly"), "b", ctype, decider=LensKeeper("none"))
    assert disposition_bonus(ctype, [pc, torgny, hallstein], "a") is torgny
    assert pc.standing == ("Torgny, who speaks for them, is Unfriendly", -20), pc.standing
    assert disposition_bonus(ctype, [pc, hallstein], "a") is hallstein
    assert pc.standing == ("Hallstein is Friendly", 20), pc.standing


def test_the_heading_gives_the_skill_a_foes_shield_leaves(tmp_path):
    """A docs audit: against an NPC with a small shield, the heading read "Espen Lind (30 %, …)" while the odds were
    worked out at 10 % (first round 3.13 % to win, 12.39 % at 30 %), and the game showed "Small shield -20". The
    heading's number is the conflict's own target for a round with no Lens."""
    npc = tmp_path / "brakk.toml"
    npc.write_text('name = "Brakk Haug"\nlevel = "common"\nskills = ["Combat", "Move", "Cunning"]\n'
                   'weapon = "axe"\nshield = "small"\nmindless = true\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", str(npc), "--rounds", "30"])
    assert result.exit_code == 0, result.output
    heading = result.output.splitlines()[0]
    assert heading.startswith("Espen Lind (10 %, counting Brakk Haug's small shield -20, BODY 12"), heading
    first = odds("--pc", "espen", "--npc", str(npc), "--rounds", "30")["round"]
    plain = odds("--skill-a", "10", "--pool-a", "12", "--skill-b", "50", "--pool-b", "10")["round"]
    assert first["a"] == pytest.approx(plain["a"], abs=1e-12)  # the 10 % said is the 10 % the dice meet
    bare = npc.read_text(encoding="utf-8").replace('shield = "small"\n', "")
    npc.write_text(bare, encoding="utf-8")
    result = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", str(npc), "--rounds", "30"])
    assert result.output.startswith("Espen Lind (30 %, BODY 12"), result.output


def test_the_heading_says_the_trick_an_npc_may_win_by_and_the_skill_a_plain_side_keeps():
    """A GM-less table: a smuggler of Combat 5 and Cunning //Sleight 90 was headed "(5 %, …; a flashy move rolls Social
    50 %)", hopeless beside the odds her tricks won; `--lens-b covert --covert-b 80` was headed "B (50 %, …, covert)"
    with the 80 the odds used nowhere."""
    from pathlib import Path

    petra = Path(__file__).parent / "data" / "npc_petra_smuggler.toml"
    shown = CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", str(petra)])
    assert "her mind decides; a trick rolls Cunning 90 %; a flashy move rolls Social 50 %)" in shown.output
    plain = CliRunner().invoke(cli, ["odds", "--skill-a", "50", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10",
                                     "--lens-b", "covert", "--covert-b", "80"])
    assert plain.output.startswith("A (50 %, Pool 10, 1d6, none) against B (50 %, covert at 80 %, Pool 10, 1d6, "
                                   "covert)"), plain.output

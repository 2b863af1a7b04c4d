"""What the player sees is what the engine rolls (issue 12).

Every chance a menu shows is made by the function that makes the target of the roll it
announces, with the same modifiers: the Lens menu, "who tries it", a scene's choices, open
play's menus and the oracle's likelihoods. ``--events`` writes them all as JSON Lines, and a
``roll`` line names the ``chance`` line that announced it. The round table goes up before a
Luck flip is offered, and the flip says what Luck it leaves.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from conftest import Answers, LoadedDice, make_char, run_play, script_lines
from rich.console import Console

from solo.events import EventLog
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import Participant, from_character
from solo.sim.policies import make_policy
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game
from solo.story.play.open_play import OpenGame
from solo.ui.event_stream import EventStream, open_stream_file
from solo.ui.view import TerminalView

COMBAT = conflict_type("combat")
SOCIAL = conflict_type("social")
FOOT = conflict_type("foot_chase")


def conflict_of(a_char, b_chars, dice, *, ctype=COMBAT, a_decider=None, **kw):
    """A conflict of one PC against ``b_chars`` (NPCs answering plainly), logging every event."""
    log = EventLog()
    a = from_character(a_char, "a", ctype, decider=a_decider)
    bs = [from_character(b, "b", ctype, decider=Answers(lens="none") if b.level != "common" else None)
          for b in b_chars]
    conflict = Conflict(ctype, [a, *bs], LoadedDice(dice), sink=log, **kw)
    return conflict, a, bs, log


def shown(answers: Answers, kind: str) -> dict:
    """The chances the last question of ``kind`` showed, by option key."""
    question = [q for q in answers.asked if q.kind == kind][-1]
    return {o.key: o.chance for o in question.options if o.chance is not None}


def same(chance, roll) -> bool:
    return (chance.target, [list(m) for m in chance.modifiers], chance.skill, chance.base) == (
        roll["target"], [list(m) for m in roll["modifiers"]], roll["skill"], roll["base"])


# -- the Lens menu against the roll ------------------------------------------------------------
def test_covert_on_the_menu_is_the_covert_roll_with_shield_carry_disposition_and_hurt():
    pc = make_char("Ada", Combat=60, Cunning=40, focuses={"Combat//Melee": 20, "Cunning//Stealth": 20})
    pc.weapon = "short_sword"
    pc.pools["POW"].current = -2  # hurt: a Pool below zero
    foe = make_char("Brakk", level="common", Combat=50)
    foe.shield = "small"
    mind = Answers(lens="covert", luck_flip="no", luck_reduce="no", push="out", damage_pool="conflict")
    conflict, a, _, log = conflict_of(pc, [foe], [70, 99], a_decider=mind, round_limit=1)
    a.carry = -20  # last round's Covert did not win
    a.add_bonus(-10, "Brakk is Unfriendly")
    conflict.run()
    menu = shown(mind, "lens")
    roll = log.of("roll")[0]
    assert roll["actor"] == "Ada" and roll["lens"] == "covert"
    assert same(menu["covert"], roll)
    assert roll["chance_id"] == menu["covert"].id
    names = [n for n, _ in roll["modifiers"]]
    # Covert's Cunning takes its fitting Focus, //Stealth (docs/rulings.md)
    assert names == ["//Stealth", "hurt", "Brakk is Unfriendly", "from last round", "Small shield"]
    assert roll["target"] == 40 + 20 - 20 - 10 - 20 - 20 == roll["base"] + sum(v for _, v in roll["modifiers"])
    # the plain roll on the same menu has the fitting Focus and the same standing modifiers
    plain = menu["none"]
    assert (plain.skill, plain.base) == ("Combat", 60)
    assert [n for n, _ in plain.modifiers] == ["//Melee", "hurt", "Brakk is Unfriendly", "from last round",
                                               "Small shield"]
    # and the view's public face gives the same numbers to whoever advises
    assert conflict.view.lens_target(a, "covert") == (roll["target"], [tuple(m) for m in roll["modifiers"]])


def test_the_target_alone_is_the_target_with_its_parts_for_every_lens_and_state():
    """The odds advice reads a side's targets as numbers only (``lens_target(parts=False)``, cheaper: no names
    for the skill's own modifiers); the number must be the one the menu shows with its parts, for every Lens,
    hurt or not, with Focuses that fit or not, a shield, a carried effect, a standing bonus, in every kind of
    conflict. Random set-ups, seeded."""
    rng = random.Random(12)
    checked = 0
    for ctype in (COMBAT, SOCIAL, FOOT):
        for _ in range(40):
            focuses = {f: rng.choice([10, 20]) for f in ("Combat//Melee", "Cunning//Stealth", "Social//Influence",
                                                          "Move//Running") if rng.random() < 0.5}
            pc = make_char("Ada", focuses=focuses, **{s: rng.randrange(5, 95, 5) for s in
                                                      ("Combat", "Cunning", "Social", "Move", "Willpower")})
            pc.weapon = rng.choice([None, "short_sword", "dagger"])
            if rng.random() < 0.4:
                pc.pools[rng.choice(["BODY", "POW", "CHA", "INT"])].current = -rng.randrange(1, 4)  # hurt
            foe = make_char("Brakk", level=rng.choice(["common", None]), Combat=rng.randrange(20, 80, 5))
            foe.shield = rng.choice([None, "small", "large"])
            conflict, a, bs, _ = conflict_of(pc, [foe], [50], ctype=ctype, round_limit=3)
            a.carry = rng.choice([0, -20, 20])
            if rng.random() < 0.5:
                a.add_bonus(rng.choice([-10, 10, 20]), "a standing")
            for p in (a, *bs):
                for lens in ("none", "aggressive", "cautious", "clever", "covert", "flamboyant", "quick"):
                    whole, _ = conflict.view.lens_target(p, lens)
                    assert conflict.view.lens_target(p, lens, parts=False)[0] == whole, (ctype.key, p.id, lens)
                    checked += 1
    assert checked == 3 * 40 * 2 * 7


def test_the_target_alone_is_the_target_with_its_parts_at_every_question_of_a_fight():
    """The same, as a fight goes on: the number alone comes from the participant's kept targets, which a blow past
    zero, a push or Quick's weapon switch must renew. Both sides answer at random (pushing allowed), and at every
    question every Lens of both is read both ways."""
    checked = 0

    class Checking:
        def __init__(self, rng):
            self.rng = rng

        def decide(self, question):
            nonlocal checked
            for p in conflict.participants:
                for lens in ("none", "aggressive", "cautious", "clever", "covert", "flamboyant", "quick"):
                    whole = conflict.view.lens_target(p, lens)[0]
                    assert conflict.view.lens_target(p, lens, parts=False)[0] == whole, (seed, p.id, lens)
                    checked += 1
            return self.rng.choice(question.keys())

    for seed in range(60):
        rng = random.Random(seed)
        ctype = rng.choice([COMBAT, SOCIAL, FOOT])
        focuses = {f: rng.choice([10, 20]) for f in ("Combat//Melee", "Cunning//Stealth", "Social//Influence",
                                                      "Move//Running") if rng.random() < 0.5}
        pc = make_char("Ada", pools=rng.randint(3, 8), focuses=focuses,
                       **{s: rng.randrange(5, 95, 5) for s in ("Combat", "Cunning", "Social", "Move", "Willpower")})
        pc.weapon = rng.choice([None, "short_sword", "dagger"])
        pc.items = ["Dagger", "Short sword", "Bow"] if rng.random() < 0.6 else []
        foe = make_char("Brakk", pools=rng.randint(3, 8), level=rng.choice(["skilled", None]),
                        Combat=rng.randrange(20, 80, 5), Cunning=40, Social=40)
        a = from_character(pc, "a", ctype, decider=Checking(rng))
        b = from_character(foe, "b", ctype, decider=Checking(rng))
        a.can_push = b.can_push = True
        conflict = Conflict(ctype, [a, b], random.Random(seed), round_limit=8)
        conflict.run()
    assert checked > 5000


@pytest.mark.parametrize("lens", ["none", "aggressive", "cautious", "clever", "quick"])
def test_every_lens_on_the_menu_is_its_roll(lens):
    pc = make_char("Ada", Combat=55, focuses={"Combat//Melee": 10})
    pc.weapon = "long_sword"
    foe = make_char("Brakk", level="common", Combat=50)
    mind = Answers(lens=lens, quick_action="leave", luck_flip="no", luck_reduce="no", push="out")
    conflict, _, _, log = conflict_of(pc, [foe], [99, 99, 99], a_decider=mind, round_limit=1)
    conflict.run()
    roll = log.of("roll")[0]
    assert same(shown(mind, "lens")[lens], roll)


def test_flamboyant_skill_menu_and_clever_edge_are_their_rolls():
    pc = make_char("Ada", Combat=50, Social=70, Move=40)
    foe = make_char("Brakk", level="common", Combat=50)
    mind = Answers(lens=["clever", "flamboyant"], clever_follow_up=["skill"], flamboyant_skill=["Move"],
                   luck_flip="no", luck_reduce="no", push="out")
    conflict, _, _, log = conflict_of(pc, [foe], [99, 99, 99, 99, 99, 99], a_decider=mind, round_limit=3)
    mind.by_kind["lens"] = ["clever", "flamboyant"]
    conflict.run()
    rolls = [e for e in log.of("roll") if e["actor"] == "Ada"]
    follow = shown(mind, "clever_follow_up")["skill"]
    assert same(follow, rolls[1]) and ["Clever", 20] in rolls[1]["modifiers"]
    skills = shown(mind, "flamboyant_skill")
    assert list(skills) == ["Social", "Move", "Willpower"]  # a flashy move in a fight (oracles/conflicts.toml)
    assert same(skills["Move"], rolls[2]) and rolls[2]["skill"] == "Move"
    assert rolls[2]["chance_id"] == skills["Move"].id


def test_quick_weapon_switch_and_getaway_show_the_rolls_they_lead_to():
    pc = make_char("Ada", Combat=50, Move=40, focuses={"Combat//Unarmed": 30, "Move//Athletics": 20})
    pc.weapon = "martial_arts"
    pc.items = ["Axe"]
    foe = make_char("Brakk", level="common", Combat=50)
    mind = Answers(lens="quick", quick_action="weapon:axe", luck_flip="no", luck_reduce="no", push="out")
    conflict, _, _, log = conflict_of(pc, [foe], [99, 99], a_decider=mind, round_limit=1)
    conflict.run()
    options = shown(mind, "quick_action")
    roll = log.of("roll")[0]
    assert same(options["weapon:axe"], roll)  # the axe is //Melee: the //Unarmed Focus no longer fits
    assert shown(mind, "lens")["quick"].target == 50 + 30 - 20 != roll["target"]
    chase = make_char("Ada", Move=40, focuses={"Move//Athletics": 20})
    mind = Answers(lens="quick", quick_action="leave", luck_flip="no")
    conflict, _, _, log = conflict_of(chase, [make_char("Brakk", level="common", Move=10)], [99, 99, 5],
                                      ctype=COMBAT, a_decider=mind, round_limit=1)
    conflict.run()
    leave = log.of("leave_attempt")[0]
    chance = shown(mind, "quick_action")["leave"]
    assert (chance.target, [list(m) for m in chance.modifiers]) == (leave["target"], leave["modifiers"]) == (
        60, [["//Athletics", 20]])
    assert leave["chance_id"] == chance.id


def test_a_shield_that_leaves_after_the_choice_is_announced_before_the_roll():
    pc = make_char("Ada", Combat=60, focuses={"Combat//Melee": 20})
    pc.weapon = "short_sword"
    guard = make_char("Guard", level="skilled", Combat=40)
    guard.shield = "large"
    other = make_char("Thug", level="common", Combat=40)
    conflict, a, (g, t), log = conflict_of(pc, [guard, other], [99, 99],
                                          a_decider=Answers(lens="none", exit_offer="accept"), round_limit=1)
    g.pool.current = 1  # the guard declares after Ada (lower Pool) and gives up
    g.decider = Answers(lens="surrender")
    conflict.run()
    chances = log.of("chance")
    roll = next(e for e in log.of("roll") if e["actor"] == "Ada")
    assert chances[0]["modifiers"][-1] == ["Large shield", -20] and chances[0]["chance"] == 60
    assert chances[-1]["changed"] and chances[-1]["chance"] == roll["target"] == 80
    assert roll["chance_id"] == chances[-1]["id"]


def test_npcs_are_shown_nothing_and_a_counting_sink_gets_no_parts():
    pc = make_char("Ada", Combat=60)
    foe = make_char("Brakk", level="skilled", Combat=50)

    class Counting(EventLog):
        detail = False

    log = Counting()
    a = from_character(pc, "a", COMBAT, decider=Answers(lens="none"))
    b = from_character(foe, "b", COMBAT, decider=Answers(lens="none"))
    Conflict(COMBAT, [a, b], LoadedDice([99, 99]), sink=log, round_limit=1).run()
    assert log.of("chance") == [] and log.of("round_rolled") == []
    assert all("base" not in e.data for e in log.of("roll"))


# -- "who tries it" and the scene's choices ----------------------------------------------------
def test_who_tries_it_shows_the_target_the_roll_uses():
    adventure = load_adventure(find_adventure("vellan"))
    ada = make_char("Ada", Move=50, Awareness=30, focuses={"Move//Athletics": 20})
    bo = make_char("Bo", Move=40, Awareness=60)
    bo.armour = "heavy"  # Move -20
    game = Game(adventure, seed=3, decider=Answers(), sink=EventLog(), party=[ada, bo])
    game.state.party = [ada.copy(), bo.copy()]
    log = game.sink
    mind = Answers(who="Bo", luck_flip="no")
    game.decider = mind
    from solo.story.format.adventure import Action, Where

    action = Action("roll", {"skill": "Move", "focus": "Athletics", "difficulty": "hard", "who": "choose"},
                    {"success": None, "failure": None}, Where("test", "roll"))
    from solo.story.play.actions import ACTIONS

    ACTIONS["roll"].resolve(game, action)
    options = shown(mind, "who")
    roll = log.of("skill_roll")[0]
    assert roll["actor"] == "Bo"
    assert options["Bo"].target == roll["target"] == 40 - 20 - 20  # no Athletics, Heavy armour, Hard
    assert [list(m) for m in options["Bo"].modifiers] == [list(m) for m in roll["modifiers"]]
    assert options["Ada"].target == 50 + 20 - 20
    assert roll["chance_id"] == options["Bo"].id


def test_the_bot_picks_who_rolls_by_the_chance_shown():
    bot = make_policy("bold", random.Random(1))
    from solo.decisions import Option, Question
    from solo.events import Chance

    q = Question("who", "Who tries it?", (Option("a", "A", chance=Chance(1, "A", 30, "Move", 50, (("Hard", -20),))),
                                          Option("b", "B", chance=Chance(2, "B", 45, "Move", 45))))
    assert bot.decide(q) == "b"


# -- the bundled adventures, played by bots with --events ----------------------------------------
class Capped:
    """A bot with a ceiling on questions, so a game that wanders is cut short (its lines still count)."""

    def __init__(self, bot, questions=1500):
        self.bot, self.left = bot, questions

    def decide(self, question):
        self.left -= 1
        if self.left < 0:
            raise _Enough
        return self.bot.decide(question)


class _Enough(Exception):
    pass


def play_with_events(kind: str, seed: int, path: Path, adventure=None) -> list[dict]:
    """A bot's game of ``kind`` (open play, or the bundled adventure, ``adventure`` if it is loaded already)."""
    stream = EventStream.open(path)
    bot = Capped(make_policy(("random", "cautious", "bold")[seed % 3], random.Random(seed)))
    try:
        if kind == "open":
            game = OpenGame(seed=seed, decider=bot, sink=stream)
        else:
            game = Game(adventure or load_adventure(find_adventure(kind)), seed=seed, decider=bot, sink=stream)
        try:
            game.play()
        except _Enough:
            pass
    finally:
        stream.close()
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def check_stream(lines: list[dict], tally: dict) -> None:
    """Every roll a chance announced meets that chance exactly; every PC's conflict roll was announced."""
    chances: dict[int, dict] = {}
    pcs: set[str] = set()
    for line in lines:
        kind = line["kind"]
        if kind == "chance":
            assert line["chance"] == line["base"] + sum(v for _, v in line["modifiers"]), line
            assert line["id"] not in chances
            chances[line["id"]] = line
        elif kind == "conflict_start":
            pcs = {p["id"] for p in line["participants"] if p["pc"]}
            tally["pcs"] = max(tally.get("pcs", 0), len(pcs))
        elif kind == "roll":
            assert {"actor", "skill", "target", "modifiers", "face", "success"} <= line.keys(), line
            assert line["target"] == line["base"] + sum(v for _, v in line["modifiers"]), line
            if line["chance_id"] is None:
                assert "from" in line or line["actor"] not in pcs, f"a PC's conflict roll nobody announced: {line}"
                continue
            chance = chances[line["chance_id"]]
            assert (chance["actor"], chance["skill"], chance["base"], chance["modifiers"], chance["chance"]) == (
                line["actor"], line["skill"], line["base"], line["modifiers"], line["target"]), (chance, line)
            source = line.get("from", "conflict")
            tally[source] = tally.get(source, 0) + 1


@pytest.mark.parametrize("kind", ["tutorial", "vellan", "open"])
def test_bots_across_many_seeds_see_every_chance_they_are_rolled(tmp_path, kind, request):
    tally: dict = {}
    adventure = None if kind == "open" else request.getfixturevalue(kind)  # loaded once, as every game reads it
    for seed in range(24):
        check_stream(play_with_events(kind, seed, tmp_path / f"{kind}-{seed}.jsonl", adventure), tally)
    assert tally.get("conflict", 0) > 50  # Lens menus answered and rolled, many times over
    if kind == "vellan":
        assert tally["pcs"] >= 2  # the bots played it as a group too
        assert tally.get("skill_roll", 0) + tally.get("opposed_roll", 0) > 10
    if kind == "open":
        assert tally.get("oracle", 0) > 0 and tally.get("skill_roll", 0) > 0


# -- the screen: the table before the flip, the round limit, weapons, next-round effects -------
@pytest.fixture(scope="module")
def tutorial_seed5(tmp_path_factory) -> tuple[int, str]:
    """The tutorial played by its stored seed-5 script: (exit code, screen). Both tests below read this one
    screen (strings: nothing a test does to it reaches the other), where each played the same game again."""
    code, out, _ = run_play(load_adventure(find_adventure("tutorial")), script_lines("tutorial_seed5.txt"),
                            tmp_path_factory.mktemp("tutorial_seed5"), seed=5)
    return code, out


def test_the_flip_is_offered_after_the_round_table_and_says_what_luck_is_left(tutorial_seed5):
    code, out = tutorial_seed5
    assert code == 0
    first_round = out[out.index("Round 1 of 10"):]
    table = first_round.index("95 / 70")  # Espen's Cautious roll, as the table shows it
    flip = first_round.index("Spend a Luck Point to flip 95 into 59")
    assert table < flip
    assert "You would have no Luck left." in first_round[flip:flip + 200]
    assert out.index("Round 1 of 10") < out.index("declares: choose a Lens")  # the limit before any declaration
    assert "Social 30 · //Influence +20 · Cautious +20" in first_round[:flip]  # the target taken apart
    assert "your roll: 50 % = Social 30 · //Influence +20" in out  # and on the Lens menu
    menu = out[out.index("your roll"):out.index("> 3")]
    assert re.search(r"Cautious\s+70\s%\s+\+20\s%, your blows halved", menu)  # each Lens: its chance, then its hint
    assert re.search(r"Covert\s+30\s% = Cunning 30\s", menu)  # another skill: its own parts


def test_the_skill_roll_flip_names_the_luck_left(tutorial_seed5):
    _, out = tutorial_seed5
    flat = " ".join(out.split())  # the offer wraps at the screen's width
    guard = flat.index("rolls 80 against 50")
    assert flat.index("flip 80 into 08 and win the opposed roll? You would have 1 Luck left.") > guard


def test_the_round_table_shows_weapons_and_next_round_effects():
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=140, color_system=None))
    pc = make_char("Ada", Combat=50, Cunning=30)
    pc.weapon = "long_sword"
    foe = make_char("Brakk", level="common", Combat=50)
    foe.weapon = "dagger"
    mind = Answers(lens=["covert", "flee"], luck_flip="no", luck_reduce="no", push="out")
    a = from_character(pc, "a", COMBAT, decider=mind)
    b = from_character(foe, "b", COMBAT)
    Conflict(COMBAT, [a, b], LoadedDice([90, 40, 3]), sink=view.render, round_limit=12).run()
    screen = out.getvalue()
    assert "Round 1 of 12" in screen
    assert "Long sword 1d8" in screen and "Dagger 1d4" in screen
    assert "Covert did not win the round: Ada -20 % next round." in screen


# -- the --events file ---------------------------------------------------------------------------
def test_solo_play_events_writes_json_lines_and_appends(tmp_path, cli_run):
    events = tmp_path / "game.jsonl"
    script = tmp_path / "answers.txt"
    script.write_text("\n".join(script_lines("tutorial_seed5.txt")) + "\n", encoding="utf-8")
    args = ["play", "tutorial", "--seed", "5", "--script", str(script), "--saves", str(tmp_path / "saves"),
            "--events", str(events)]
    result = cli_run(*args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert lines[0] == {"kind": "stream", "adventure": "tutorial", "seed": 5, "resumed": False}
    kinds = {line["kind"] for line in lines}
    assert {"chance", "roll", "conflict_start", "round_rolled", "luck", "ending"} <= kinds
    check_stream(lines, {})
    first = len(lines)
    assert cli_run(*args).exit_code == 0  # a second game goes on in the same file
    again = events.read_text(encoding="utf-8").splitlines()
    assert len(again) > first and json.loads(again[first])["kind"] == "stream"


def test_the_events_file_is_never_followed_through_a_link_nor_a_device(tmp_path, cli_run):
    from solo.ui.event_stream import EventStreamError

    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    with pytest.raises(EventStreamError):
        open_stream_file(link)
    assert target.read_text() == "keep\n"
    with pytest.raises(EventStreamError):
        open_stream_file(Path("/dev/null"))
    with pytest.raises(EventStreamError, match="too long"):
        open_stream_file(tmp_path / ("x" * 300))
    result = cli_run("play", "tutorial", "--events", str(link), "--saves", str(tmp_path / "s"))
    assert result.exit_code != 0 and "--events" in result.output


def test_bonuses_that_cancel_are_each_named_in_the_target():
    """An assist (+20) and an Unfriendly listener (-20) sum to nothing, but the player sees both reasons."""
    conflict, a, (b,), _ = conflict_of(make_char("Ada", Social=40), [make_char("Bo", Social=40)], [50, 50],
                                       ctype=SOCIAL)
    a.add_bonus(20, "Bo assists")
    a.add_bonus(-20, "Jonas is Unfriendly")
    target, mods = conflict.lens_target(a, "none")
    assert ("Bo assists", 20) in mods and ("Jonas is Unfriendly", -20) in mods
    plain, plain_a, _, _ = conflict_of(make_char("Ada", Social=40), [make_char("Bo", Social=40)], [50, 50],
                                       ctype=SOCIAL)
    assert target == plain.lens_target(plain_a, "none")[0]  # the dice meet the same number either way


def test_a_target_beyond_the_dice_shows_the_chance_it_gives_and_its_sum():
    from rich.text import Text

    from solo.decisions import Option
    from solo.events import Chance
    from solo.ui.describe import chance_text, percent_of
    from solo.ui.prompt import chance_cell

    low = Chance(1, "Ada", -15, "Tech", 5, (("from last round", -20),))
    high = Chance(2, "Ada", 120, "Combat", 80, (("Cautious", 20), ("Clever", 20)))
    assert [percent_of(t) for t in (-15, 0, 99, 120)] == ["0 %", "0 %", "99 %", "99 %"]
    assert chance_text(low) == "0 % (Tech 5 · from last round -20 = -15)"
    assert chance_text(high) == "99 % (Combat 80 · Cautious +20 · Clever +20 = 120)"
    cell = chance_cell(Option("drive", "Drive", chance=low), None)
    assert isinstance(cell, Text) and cell.plain == "0 % (Tech 5 · from last round -20 = -15)"
    # in a Lens menu, where each Lens shows only what it adds to the common roll: Kaldskard's outlaw fire showed
    # "Aggressive 0 %" bare, while Covert beside it gave its sum; a chance the dice cannot show says its sum too
    common = Chance(3, "Ada", 10, "Social", 10, ())
    aggressive = Chance(4, "Ada", -10, "Social", 10, (("Aggressive", -20),))
    cautious = Chance(5, "Ada", 30, "Social", 10, (("Cautious", 20),))
    assert chance_cell(Option("aggressive", "Aggressive", chance=aggressive), common).plain == "0 % (comes to -10)"
    assert chance_cell(Option("cautious", "Cautious", chance=cautious), common).plain == "30 %"
    # Kaldskard's group fight showed "Cautious 99 % (= 110)": the sum is named as one
    high_common = Chance(6, "Ada", 90, "Combat", 70, (("//Melee", 20),))
    careful = Chance(7, "Ada", 110, "Combat", 70, (("//Melee", 20), ("Cautious", 20)))
    assert chance_cell(Option("cautious", "Cautious", chance=careful), high_common).plain == "99 % (comes to 110)"
    flip = Chance(8, "Ada", 130, "Combat", 70, (("//Melee", 20), ("Cautious", 20), ("from last round", 20)))
    assert (chance_cell(Option("cautious", "Cautious", chance=flip), high_common).plain
            == "99 % (from last round +20, comes to 130)")


def test_a_round_won_by_the_higher_of_two_successes_says_so():
    from solo.ui.describe import round_result

    names = {"a": "Ada", "b": "Bo"}
    both = {"stalemate": False, "winner": "a", "round": 2, "successes": 2}
    one = {"stalemate": False, "winner": "a", "round": 2, "successes": 1}
    assert round_result(both, names) == "Ada wins round 2: the higher success."
    assert round_result(one, names) == "Ada wins round 2."
    none = {"stalemate": True, "winner": None, "round": 3, "tie": False}
    tie = {"stalemate": True, "winner": None, "round": 3, "tie": True}
    assert round_result(none, names) == "Nobody wins round 3: every roll fails."  # "stalemate" is the conflict's
    assert round_result(tie, names) == "Nobody wins round 3: equal rolls."
    allies = {**tie, "tied": ["a", "c"], "allies_tied": True, "rolls": {"a": 26, "c": 26, "b": 2}}
    assert round_result(allies, {**names, "c": "Cy"}) == (
        "Nobody wins round 3: Ada and Cy tie for the best roll with 26, and a tie is a stalemate even between allies.")


def test_nothing_is_announced_for_a_next_round_that_the_limit_leaves_out():
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=140, color_system=None))
    pc = make_char("Ada", Combat=50, Cunning=30)
    foe = make_char("Brakk", level="common", Combat=50)
    mind = Answers(lens=["covert"], luck_flip="no", luck_reduce="no", push="out")
    a = from_character(pc, "a", COMBAT, decider=mind)
    b = from_character(foe, "b", COMBAT)
    Conflict(COMBAT, [a, b], LoadedDice([90, 40, 3]), sink=view.render, round_limit=1).run()
    screen = out.getvalue()
    assert "Round 1 of 1" in screen and "Brakk wins round 1" in screen  # the Covert round was lost …
    assert "next round" not in screen  # … in the last round: no -20 for a round that never comes


def test_the_bars_keep_the_conflicts_pool_when_a_blow_goes_to_another():
    """A Flamboyant blow sent to CHA in a fight: the damage line says so, and the bars stay on BODY, the Pool the
    table and every other bar of the conflict show (a new player saw 'Brakk 9/10' between two '8/8's)."""
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=140, color_system=None))
    pc = make_char("Ada", pools={"BODY": 8, "INT": 8, "POW": 8, "CHA": 8}, Combat=50, Social=60)
    foe = make_char("Brakk", level="common", pools={"BODY": 8, "INT": 10, "POW": 10, "CHA": 10}, Combat=50)
    mind = Answers(lens=["flamboyant", "flee"], flamboyant_skill="Social", damage_pool="CHA", luck_flip="no",
                   luck_reduce="no", push="out")
    a = from_character(pc, "a", COMBAT, decider=mind)
    b = from_character(foe, "b", COMBAT)
    Conflict(COMBAT, [a, b], LoadedDice([10, 90, 3, 10, 95, 2]), sink=view.render, round_limit=12).run()
    screen = out.getvalue()
    assert re.search(r"Brakk loses \d+ CHA", screen), screen
    assert not re.search(r"Brakk\s+\S+\s+\d+/10", screen), screen  # no bar of the CHA Pool


def test_a_name_that_opens_a_line_opens_it_with_a_capital():
    """'the old lock is out of the conflict.' read as a line that forgot its capital (a new player's game): a
    name written lower case ('the old lock', 'the grave-lord') opens the view's lines with a capital."""
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=140, color_system=None))
    pc = make_char("Ada", Combat=50)
    foe = make_char("the old lock", level="common", pools=1, Combat=5)
    mind = Answers(lens="none", luck_flip="no", luck_reduce="no")
    a = from_character(pc, "a", COMBAT, decider=mind)
    b = from_character(foe, "b", COMBAT)
    Conflict(COMBAT, [a, b], LoadedDice([10, 90, 3, 10, 90, 3]), sink=view.render, round_limit=12).run()
    screen = out.getvalue()
    assert "The old lock is out of the conflict." in screen, screen  # the table and the bars keep it as written


def test_an_obstacle_beaten_gives_way_and_a_fighter_beaten_is_out_of_the_conflict():
    """A new player's Vellan: "The old lock is out of the conflict." read as if the lock had been fighting. A static
    obstacle "gives way", on the screen and in the journal alike; a fighter is still "out of the conflict"."""
    from solo.rules.participants import obstacle
    from solo.ui.journal import Journal

    lock_type = conflict_type("lockpicking")
    log = EventLog()
    pc = make_char("Ada", Cunning=90)
    a = from_character(pc, "a", lock_type, decider=Answers(lens="none", luck_flip="no", luck_reduce="no"))
    result = Conflict(lock_type, [a, obstacle("the old lock", "easy")], random.Random(1), sink=log,
                      round_limit=30).run()
    assert result.outcome == "won" and log.of("out")
    out, journal = io.StringIO(), Journal()
    view = TerminalView(Console(file=out, width=140, color_system=None))
    for e in log.events:
        view.render(e)
        journal.render(e)
    screen = out.getvalue()
    assert "The old lock gives way." in screen and "out of the conflict" not in screen, screen
    assert "The old lock gives way." in journal.text(), journal.text()


def _ada_at_two_bars(push: str) -> tuple[Participant, str, list[str]]:
    """Ada (BODY 2) takes a 3 in round 1 and answers the spent Pool's question with ``push``, then deals a 3 in
    round 2: her participant, the screen, and the values her bars showed."""
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=140, color_system=None))
    pc = make_char("Ada", pools={"BODY": 2, "INT": 8, "POW": 8, "CHA": 8}, Combat=50, luck=3)
    foe = make_char("Brakk", level="common", pools={"BODY": 8, "INT": 10, "POW": 10, "CHA": 10}, Combat=50)
    mind = Answers(lens="none", luck_flip="no", luck_reduce="no", push=push)
    a = from_character(pc, "a", COMBAT, decider=mind)
    b = from_character(foe, "b", COMBAT)
    Conflict(COMBAT, [a, b], LoadedDice([10, 90, 3, 90, 10, 3]), sink=view.render, round_limit=2).run()
    screen = out.getvalue()
    return a, screen, re.findall(r"Ada\s+\S*\s+(-?\d+)/2", screen)


def test_the_bars_carry_a_pushed_pools_overflow_as_status_does():
    """'Push on at -1' was offered under a bar at 0, and the bars kept 0/2 while `status` said -1/2: the blow's
    line stops an unpushed Pool at 0, and pushing on carries the overflow, which the bars now show."""
    a, screen, bars = _ada_at_two_bars("push")
    assert "Push" in screen or "pushes on" in screen, screen
    below = a.pool.current
    assert below < 0, screen
    assert bars and bars[-1] == str(below), (bars, screen)


def test_the_bars_follow_a_pool_that_luck_brought_back_and_the_line_names_no_pronoun():
    """'Ingrid spends a Luck Point and is back on their feet (Pool 1)', then 'Ingrid 0/16' in every bar after,
    while she fought on and won rounds (new-user run): the bars now take the Pool Luck gave back, and the line
    says what happened without a pronoun the event does not know."""
    a, screen, bars = _ada_at_two_bars("refresh")
    assert "Ada spends a Luck Point: the Pool comes back to 1." in screen, screen
    assert a.pool.current == 1
    assert bars and bars[-1] == "1", (bars, screen)


def test_the_push_question_says_where_pushing_ends():
    """A new player pushed on at 0 reading only "every skill -20 % while below zero", and met comae (in Kaldskard,
    death) two blows later without a word of warning: the choice says where it ends, in a conflict and at a
    blow a scene deals alike (one function, push_cost)."""
    from solo.rules.character import push_cost

    asked = []

    class Recording(Answers):
        def decide(self, question):
            asked.append(question)
            return super().decide(question)

    pc = make_char("Ada", pools={"BODY": 2, "INT": 8, "POW": 8, "CHA": 8}, Combat=50, luck=0)
    foe = make_char("Brakk", level="common", pools={"BODY": 8, "INT": 10, "POW": 10, "CHA": 10}, Combat=50)
    # Kaldskard says "death"; comae is said with what it is (a new player read it as a typo of "coma")
    for death, end in ((False, "comae at -2 (a coma: out of the scenario)"), (True, "death at -2")):
        asked.clear()
        a = from_character(pc.duplicate(), "a", COMBAT,
                           decider=Recording(lens="none", luck_flip="no", luck_reduce="no", push="push"))
        b = from_character(foe.duplicate(), "b", COMBAT)
        Conflict(COMBAT, [a, b], LoadedDice([10, 90, 3, 90, 10, 3]), round_limit=2, death=death).run()
        [push] = [o for q in asked for o in q.options if o.key == "push"]
        assert push.detail == push_cost(2, death=death) == f"every skill -20 % once below zero; {end}"


@pytest.mark.parametrize("social", [30, 55])
def test_an_opposed_rolls_chance_to_win_on_the_menu_is_what_the_dice_give(social):
    """A new GM's run: "50 % = Social 30 · //Influence +20" beside an opposed roll read as a 50 % chance to win;
    the menu now says the chance to win beside it, worked out from the targets the roll uses. Here it is held
    against the roll itself, resolved 3,000 times (Luck 0: no flip), within 4 standard errors."""
    from solo.story.play.actions import ACTIONS
    from solo.story.play.chances import opposed_win_words
    from solo.story.play.party import set_up_party

    tutorial = load_adventure(find_adventure("tutorial"))
    (talk,) = [c for c in tutorial.scenes[tutorial.start].choices if c.action and c.action.kind == "opposed"]
    hero = make_char("Ada", luck=0, Social=social)
    log = EventLog()
    game = Game(tutorial, seed=1, decider=Answers(escalate="no"), party=[hero], sink=log)
    set_up_party(game, [hero])
    shown = opposed_win_words(game, talk.action)
    m = re.fullmatch(r"to win: (\d+) % \(against Willpower (\d+)\)", shown or "")
    assert m, shown
    runs, wins = 3000, 0
    for seed in range(runs):
        game.rng = random.Random(seed)
        before = len(log.events)
        ACTIONS["opposed"].resolve(game, talk.action)
        outcomes = [e["outcome"] for e in log.events[before:] if e.kind == "opposed_outcome"]
        assert len(outcomes) == 1
        wins += outcomes == ["win"]
    p = int(m.group(1)) / 100
    assert abs(wins / runs - p) < 4 * (max(p, 0.01) * (1 - p) / runs) ** 0.5 + 0.005, (wins / runs, shown)
    # the review: with two who might roll, "Who tries it?" comes next and shows each one's chance; the menu said
    # the best one's "to win" over it
    pair = [make_char("Ada", luck=0, Social=social), make_char("Bo", luck=0, Social=70)]
    two = Game(tutorial, seed=1, decider=Answers(), party=pair)
    set_up_party(two, pair)
    assert opposed_win_words(two, talk.action) is None


def test_who_tries_an_opposed_roll_is_shown_each_ones_chance_to_win():
    """A new player's run at the tutorial's guard, two players: "Who tries it? (Social)" showed "50 % = Social 30 ·
    //Influence +20" and "30 % = Social 30", the rolls' own chances, which the menu had taught to read beside a
    chance to win; the menu leaves "to win" to this question. Each one's is shown now, as the menu shows it for
    one who rolls, and the roll then made is the one it priced."""
    from solo.story.play.actions import ACTIONS
    from solo.story.play.chances import win_words
    from solo.story.play.party import set_up_party

    tutorial = load_adventure(find_adventure("tutorial"))
    (talk,) = [c for c in tutorial.scenes[tutorial.start].choices if c.action and c.action.kind == "opposed"]
    pair = [make_char("Ada", luck=0, Social=30), make_char("Bo", luck=0, Social=70)]
    asked = []

    class Second:
        def decide(self, question):
            asked.append(question)
            return question.options[-1].key if question.kind == "who" else (question.default or "no")

    log = EventLog()
    game = Game(tutorial, seed=1, decider=Second(), party=pair, sink=log)
    set_up_party(game, pair)
    ACTIONS["opposed"].resolve(game, talk.action)
    (who,) = [q for q in asked if q.kind == "who"]
    npc = game.state.npcs.get(talk.action.spec.get("npc", ""))
    details = {o.key: o.detail for o in who.options}
    assert details == {pc.name: win_words(talk.action.spec, pc, npc) for pc in game.state.pcs}
    assert all(d.startswith("to win: ") for d in details.values()) and details["Ada"] != details["Bo"]


def test_a_flourish_that_a_teammate_out_rolled_says_whose_roll_won():
    """A group's run: "Flamboyant did not win the round: Signe Dahl -20 % next round" of her exceptional success,
    in a round her side won by Edvin's higher one. Flamboyant's price is for the roll that did not win (each
    participant's own), and the line says whose did."""
    from solo.events import EventLog
    from solo.ui.describe import next_round

    found = 0
    for seed in range(200):
        sig = make_char("Signe", Combat=50, Social=60, Move=50)
        edv = make_char("Edvin", Combat=70)
        foe = make_char("Brakk", level="common", Combat=40)
        log = EventLog()
        parts = [from_character(sig, "a", COMBAT, decider=Answers(lens="flamboyant", flamboyant_skill="Move",
                                                                     luck_flip="no", luck_reduce="no", push="out")),
                 from_character(edv, "a", COMBAT, decider=Answers(lens="none", luck_flip="no", luck_reduce="no",
                                                                  push="out")),
                 from_character(foe, "b", COMBAT)]
        Conflict(COMBAT, parts, random.Random(seed), sink=log, round_limit=3).run()
        for e in log.events:
            if e.kind == "next_round" and e.get("cause") == "not_won" and e.get("by"):
                result = next(r for r in log.events if r.kind == "round_result" and r["round"] == e["round"])
                assert result["winner"] == e["by"] == "Edvin" and e["actor"] == "Signe"
                assert next_round(e.data, {}) == "Signe's Flamboyant did not win the round (Edvin's roll did): " \
                    f"{e['value']:+d} % next round."
                found += 1
            elif e.kind == "next_round" and e.get("cause") == "not_won":
                result = next(r for r in log.events if r.kind == "round_result" and r["round"] == e["round"])
                assert result["winner"] in (None, "Brakk"), (seed, result["winner"])
        if found >= 3:
            break
    assert found >= 3

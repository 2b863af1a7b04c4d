"""``solo duel`` through the real command group, and the duel runner behind it."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner

from solo.characters import load_character
from solo.cli import COMMANDS, cli
from solo.minds.arena import DuelStats, duel_npc, parse_event, parse_trait, role_for, run_duels
from solo.npc import NPCError
from solo.rules.conflict_types import conflict_type

LENS_KEYS = {"none", "aggressive", "cautious", "clever", "covert", "flamboyant", "quick"}
OUTCOME_KEYS = {"won", "lost", "fled", "surrendered", "comae", "stalemate"}


def run(*args):
    return CliRunner().invoke(cli, ["duel", *args])


def test_registered_lazily():
    assert COMMANDS["duel"][0] == "solo.cli.duel"
    assert "duel" in CliRunner().invoke(cli, ["--help"]).output


def test_json_has_the_issues_keys_and_adds_up():
    result = run("--runs", "50", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["lenses"]) == LENS_KEYS and set(data["outcomes"]) == OUTCOME_KEYS
    assert sum(data["outcomes"].values()) == 50
    assert data["mean_rounds"] > 0 and sum(data["lenses"].values()) > 0
    assert data["pc"] == "Espen Lind" and data["type"] == "combat"


def test_same_seed_same_duel():
    args = ("--runs", "40", "--seed", "9", "-p", "Moody", "-p", "dark:Lying", "--json")
    first = run(*args).output
    assert first == run(*args).output
    assert first != run("--runs", "40", "--seed", "10", "-p", "Moody", "-p", "dark:Lying", "--json").output


def test_flags_shape_the_npc():
    data = json.loads(run("--runs", "30", "--seed", "1", "--level", "common", "--json").output)
    assert sum(v for k, v in data["lenses"].items() if k != "none") == 0  # Common: plain rolls
    data = json.loads(run("--runs", "60", "--seed", "1", "-p", "Aggressive", "-p", "Sadistic", "--json").output)
    assert data["lenses"]["aggressive"] > 0.5 * sum(data["lenses"].values())
    data = json.loads(run("--runs", "60", "--seed", "1", "--mindless", "--json").output)
    assert data["outcomes"]["fled"] == data["outcomes"]["surrendered"] == 0


def test_npc_and_pc_from_files(tmp_path):
    npc_file = tmp_path / "boss.toml"
    npc_file.write_text('name = "Brakk"\nlevel = "master"\nskills = ["Combat", "Move", "Cunning"]\n'
                        'weapon = "axe"\n[code_block]\npersonality = ["Correct"]\ndark_triad = ["Scheming"]\n'
                        'motivation = ["Faith"]\nevent = { topic = "Money", sign = "negative" }\n', encoding="utf-8")
    pc_file = tmp_path / "hero.toml"
    pc_file.write_text('name = "Hero"\n[skills]\nCombat = 70\n[pools]\nBODY = 14\nINT = 10\nPOW = 10\nCHA = 10\n',
                       encoding="utf-8")
    result = run("--npc", str(npc_file), "--pc", str(pc_file), "--runs", "20", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["npc"] == "Brakk" and data["pc"] == "Hero"
    result = run("--npc", str(npc_file), "-m", "Money", "--runs", "5", "--seed", "2")
    assert result.exit_code == 0 and "Money" in result.output


def test_the_card_and_explain():
    result = run("--runs", "20", "--seed", "4", "-p", "Inquisitive", "--explain")
    assert result.exit_code == 0, result.output
    out = result.output
    name = out.split(" (")[0]  # the NPC, as the first line names it
    assert f"Lenses {name} declared" in out and f"How it ended for {name}" in out
    assert "Why: the NPC's decisions" in out and "What tipped each Lens" in out
    data = json.loads(run("--runs", "10", "--seed", "4", "--explain", "--json").output)
    first = data["explain"]["first"]
    assert first and all(e["kind"].startswith("npc_") for e in first)
    assert all(e["reason"] for e in first if e["kind"] == "npc_decision")


def _played_once(monkeypatch) -> None:
    """``run_duels`` asked again for the very same duels (the same NPC, PC, type, runs, seed and options) hands
    back a copy of what it played the first time, instead of playing them all again: for a test that reads the
    same seeded duels as JSON and as text. Any argument that differs plays afresh, so a text path that asked for
    other duels than the JSON one would still show it; that a seed replays the same duels is
    test_same_seed_same_duel's to check."""
    import copy

    import solo.minds.arena as arena

    play, played = arena.run_duels, {}

    def once(npc, pc, ctype, **options):
        if options.get("pc_decider") is not None or options.get("seed") is None:
            return play(npc, pc, ctype, **options)
        key = (json.dumps(npc.to_dict(), sort_keys=True), json.dumps(pc.to_dict(), sort_keys=True), ctype.key,
               json.dumps(options, sort_keys=True))
        if key not in played:
            played[key] = play(npc, pc, ctype, **options)
        return copy.deepcopy(played[key])

    monkeypatch.setattr(arena, "run_duels", once)


def test_comae_is_said_in_words_where_the_table_counts_some(tmp_path, monkeypatch):
    """The outcome table said "comae" with nothing to say what it is; a master NPC that pushes on against a PC
    too strong for it ends some duels there, and the table then says it under itself. The JSON keeps the key."""
    from importlib.resources import files

    _played_once(monkeypatch)  # the 300 duels below are played once, read as JSON and as the table
    espen = files("solo.rules") / "data" / "pregens" / "espen_lind.toml"
    strong = tmp_path / "strong.toml"
    strong.write_text(espen.read_text(encoding="utf-8").replace("\nCombat = 30\n", "\nCombat = 95\n"),
                      encoding="utf-8")
    args = ("--level", "master", "--runs", "300", "--seed", "1", "--pc", str(strong))
    data = json.loads(run(*args, "--json").output)
    assert data["outcomes"]["comae"] > 0
    out = run(*args).output
    assert " in comae    │     " in out
    assert "  in comae: the NPC pushed on below zero until its Pool was minus its full value\n" in out
    assert "\n comae " not in out
    calm = run("--runs", "20", "--seed", "4").output  # nobody in comae: no note
    assert " in comae " in calm and "pushed on below zero" not in calm


def test_narrate_tells_the_first_conflict():
    pytest.importorskip("solo.narration")
    result = run("--runs", "3", "--seed", "4", "--narrate")
    assert result.exit_code == 0, result.output
    assert "The first conflict, told" in result.output and "Round 1" in result.output


@pytest.mark.parametrize("seed, way_out, closing", [
    ("41", "Petra turns to get away.", "Espen watches Petra go, and lets her run."),
    ("42", "Sindre lowers his guard and offers to yield.", "Sindre has given in, and Espen accepts it."),
])
def test_a_told_duel_says_how_the_npc_left_before_its_closing_says_it_is_over(seed, way_out, closing):
    """A reading of narrated conflicts: the told duel went from an empty "Round 2." to "Espen watches Petra go" of a
    Petra nobody had seen leave, and to "Sindre has given in" of an offer never told. The screen's lines of the ways
    out are told too, as the screen says them; the answer stays the closing's alone (not said twice)."""
    result = run("--type", "combat", "--seed", seed, "-p", "Nervous", "-p", "Cheerful", "-m", "Health", "--role",
                 "merchant", "--runs", "1", "--narrate")
    assert result.exit_code == 0, result.output
    told = " ".join(result.output.split("The first conflict, told")[1].split())
    assert way_out in told and closing in told and told.index(way_out) < told.index(closing)
    assert "lets Petra Berg go" not in told and "accepts: Sindre" not in told


@pytest.mark.parametrize("args, words", [
    (("--runs", "0"), "--runs"),
    (("--type", "lockpicking"), "obstacle"),
    (("--type", "socail"), "did you mean 'social'"),
    (("-p", "Grumpy"), "unknown Personality or Dark Triad entry"),
    (("-p", "dark:Shy"), "unknown Dark Triad entry"),
    (("-p", "Shy", "-p", "Shy", "-p", "Shy"), "at most twice"),
    (("-m", "Gold"), "unknown motivation"),
    (("-m", "Faith", "-m", "Faith"), "twice"),
    (("--event", "Money"), "Money+"),
    (("--event", "Weather+"), "unknown Recent Event topic"),
    (("--disposition", "Hateful"), "unknown disposition"),
    (("--mindless", "-p", "Shy"), "mindless"),
    (("--level", "god"), "level"),
    (("--pc", "nobody"), "no ready-made one"),
    (("--npc", "/no/such/npc.toml"), "no such file"),
    (("--rounds", "0"), "--rounds"),
])
def test_bad_flags_are_one_line_and_exit_2(args, words):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], lines


# -- the runner ------------------------------------------------------------------------

def test_parsers():
    assert parse_trait("Aggressive").table == "personality"
    assert parse_trait("dark:Aggressive").table == "dark_triad"
    assert parse_trait("Aggressive (Dark Triad)").table == "dark_triad"
    assert parse_trait("sadistic").table == "dark_triad"
    with pytest.raises(NPCError):
        parse_trait("Grumpy")
    rng = random.Random(1)
    assert parse_event("Love-", rng).positive is False and parse_event("Money:positive", rng).positive
    assert parse_event("random", rng).topic
    assert role_for(conflict_type("social")) == "courtier"
    assert role_for(conflict_type("combat")) == "thug"
    assert role_for(conflict_type("combat"), mindless=True) == "draugr"


def test_duel_npc_keeps_what_is_not_given():
    npc = duel_npc(random.Random(1), conflict_type("combat"), personality=("Shy",), motivation=("Faith",),
                   disposition="friendly")
    assert npc.code_block.personality[0].name == "Shy" and npc.code_block.motivation == ("Faith",)
    assert npc.code_block.disposition == "Friendly" and npc.level == "skilled"


def test_runner_restores_both_characters_and_rejects_static_types():
    pc = load_character("espen")
    npc = duel_npc(random.Random(2), conflict_type("combat"))
    before = (pc.to_dict(), npc.to_dict())
    stats = run_duels(npc, pc, conflict_type("combat"), runs=30, seed=1)
    assert isinstance(stats, DuelStats) and (pc.to_dict(), npc.to_dict()) == before
    with pytest.raises(ValueError):
        run_duels(npc, pc, conflict_type("library"), runs=1)
    with pytest.raises(ValueError):
        run_duels(npc, pc, conflict_type("combat"), runs=0)


def test_many_conflicts_are_all_counted():
    """How fast a 1,000-conflict duel runs is measured by benchmarks/duel.py, not here."""
    pc = load_character("espen")
    npc = duel_npc(random.Random(1), conflict_type("combat"))
    stats = run_duels(npc, pc, conflict_type("combat"), runs=200, seed=1)
    assert stats.runs == 200 and sum(stats.outcomes.values()) == 200


def test_the_pc_can_keep_one_lens():
    """--pc-lens: the PC keeps that Lens every round, as `solo odds` counts (tests/test_odds_cli.py checks the two)."""
    data = json.loads(run("--runs", "40", "--seed", "3", "--pc-lens", "cautious", "--json").output)
    assert data["pc_lens"] == "cautious" and sum(data["outcomes"].values()) == 40
    assert json.loads(run("--runs", "5", "--seed", "3", "--json").output)["pc_lens"] is None
    assert "keeps cautious every round" in run("--runs", "5", "--seed", "3", "--pc-lens", "cautious").output
    assert run("--runs", "5", "--pc-lens", "sneaky").exit_code == 2


def test_a_lens_keeper_declares_its_lens_and_spends_nothing():
    from solo.events import EventLog
    from solo.minds.bots import LensKeeper
    from solo.minds.npc import NPCMind
    from solo.rules.conflict import Conflict
    from solo.rules.participants import from_character

    ctype = conflict_type("combat")
    pc = load_character("espen")
    npc = duel_npc(random.Random(1), ctype, level="skilled")
    log = EventLog()
    a = from_character(pc, "a", ctype, decider=LensKeeper("clever"))
    b = from_character(npc, "b", ctype, decider=NPCMind(npc, random.Random(2)))
    Conflict(ctype, [a, b], random.Random(3), sink=log, round_limit=30).run()
    mine = [e for e in log.events if e.kind == "declare" and e["actor"] == a.id]
    assert mine and all(e["lens"] == "clever" or e["clever_choice"] == "skill" for e in mine)
    assert not [e for e in log.events if e.kind in ("luck", "push") and e["actor"] == a.id]


def test_the_text_report_ends_with_a_sentence_not_a_benchmark_line():
    """It ended with '1,024 conflicts/s' under the tables, which read like a debug line."""
    out = run("--runs", "30", "--seed", "2").output
    assert "conflicts/s" not in out
    assert out.rstrip().splitlines()[-1].startswith("30 conflicts played in ")


def test_a_lean_the_table_contradicts_is_said_to_be_a_pull():
    """The card read "leans Quick" over a table where Cautious was declared most (seed 2): the report says under
    the table that the odds outweighed the lean, from the same counts the table shows, and says nothing where
    the Lens declared most is one the card names."""
    from solo.cli.duel import lean_note
    from solo.cli.npc import strong_leans

    npc = duel_npc(random.Random("duel-npc:2"), conflict_type("combat"))
    assert strong_leans(npc) == ["quick"]
    out = run("--seed", "2", "--runs", "200").output
    assert "  leans Quick;" in out
    flat = " ".join(out.split())  # the note is longer than a terminal's line
    assert ("the card names the Lenses its Code Block leans to most; in play cautious was declared most often (a lean "
            "is one weight among the odds and the situation)") in flat
    assert lean_note(npc, {"none": 900, "quick": 50, "cautious": 40}) is None  # "none" is no Lens it chose
    assert lean_note(npc, {"quick": 50, "cautious": 60}) is not None
    assert lean_note(npc, {"quick": 60, "cautious": 60}) is None  # a tie with a Lens the card names


def test_an_adventures_npc_is_named_by_folder_or_name_as_by_its_file():
    """New-user run: '--npc scenes/vellan:jonas' and '--npc tutorial:courier' failed with 'no such file', though
    every command that reads an adventure takes a folder or a bundled name; both now name the NPC its file does."""
    from pathlib import Path

    scenes = Path(__file__).resolve().parent.parent / "scenes"
    for short, long in ((f"{scenes / 'vellan'}:jonas", f"{scenes / 'vellan' / 'npcs.toml'}:jonas"),
                        ("tutorial:courier", f"{scenes / 'tutorial.toml'}:courier")):
        named = run("--npc", short, "--runs", "10", "--seed", "3", "--json")
        assert named.exit_code == 0, named.output
        assert json.loads(named.output) == json.loads(run("--npc", long, "--runs", "10", "--seed", "3",
                                                          "--json").output)


def test_an_argument_is_walked_out_of_in_the_card_the_table_and_the_broken_nerves():
    """A GM-less table's social duel read "when clearly losing she bargains", then "fled 12.7 %" and "flee 38": the
    card names its first two ways, and in an argument one who leaves walks away, in each of the three places; the
    --explain table names its questions and what pressed on its nerve in words, not the engine's keys."""
    out = " ".join(run("--type", "social", "--role", "courtier", "-p", "Nervous", "-p", "Shy", "--runs", "300",
                       "--seed", "3").output.replace("│", " ").split())
    assert "when clearly losing she bargains or walks away" in out
    assert "walked away 38 12.7%" in out and "fled" not in out
    assert "when its nerve broke: walk away 38, bargain 24" in out
    fight = " ".join(run("--type", "combat", "--role", "courtier", "-p", "Nervous", "-p", "Shy", "--runs", "300",
                         "--seed", "3").output.replace("│", " ").split())
    assert "when clearly losing she bargains or runs" in fight
    # a way said inside another is not said again ("look for support, then walk away or walk away": a GM-less run)
    circle = " ".join(run("--type", "social", "-m", "Circle", "--runs", "1", "--seed", "1").output.split())
    assert "look for support, then walk away" in circle and "walk away or walk away" not in circle, circle
    why = " ".join(run("--type", "combat", "-p", "Nervous", "-p", "Shy", "--runs", "50", "--seed", "3",
                       "--explain").output.replace("│", " ").split())
    assert "Clever follow-up" in why and "Quick's extra action" in why
    assert "clever_follow_up" not in why and "quick_action" not in why


def test_the_outcome_table_counts_each_way_out_as_the_menu_names_it():
    """A review: a sneak's table said "surrendered" under --explain's "give up" (the menu's word). The table takes the
    words of the menu's exits (rules.conflict.exit_name): a sneak is given up, a fight surrendered."""
    def table(kind: str) -> str:
        return " ".join(run("--type", kind, "--role", "courtier", "-p", "Nervous", "-p", "Shy", "--runs", "300",
                            "--seed", "3").output.replace("│", " ").split())

    sneak, fight = table("sneaking"), table("combat")
    assert "gave up 134" in sneak and "surrendered" not in sneak, sneak
    assert "surrendered 157" in fight and "gave up" not in fight, fight


def test_play_s_explain_names_a_question_as_solo_duel_does():
    """`solo play --explain` printed "(Hallstein, clever_follow_up: skill — …)" where `solo duel --explain` says
    "Clever follow-up": both name a mind's question from one function (describe.question_words)."""
    import io

    from rich.console import Console

    from solo.events import Event
    from solo.ui.view import TerminalView

    out = io.StringIO()
    view = TerminalView(Console(file=out, width=120, color_system=None), explain=True)
    view.render(Event("npc_decision", {"actor": "Brakk", "question": "clever_follow_up", "choice": "skill",
                                       "reason": "makes the opening count", "round": 2}))
    assert "(Brakk, Clever follow-up: skill — makes the opening count)" in out.getvalue()
    # a way out, by the name its menu gave it in that kind of conflict (it showed the engine's "flee")
    for frame, shown in (({"social": True}, "walk away"), ({"physical": True}, "flee"), ({}, "flee")):
        view.render(Event("conflict_start", {"round": 0, "type": "x", "type_name": "X", "participants": [],
                                             "pool_name": "BODY", "frame": frame}))
        view.render(Event("npc_decision", {"actor": "Brakk", "question": "lens", "choice": "flee",
                                           "reason": "clearly losing", "round": 2}))
        assert out.getvalue().rstrip().endswith(f"(Brakk, Lens: {shown} — clearly losing)"), out.getvalue()[-300:]
    view.render(Event("npc_decision", {"actor": "Brakk", "question": "lens", "choice": "surrender",
                                       "reason": "clearly losing", "round": 2}))
    assert out.getvalue().rstrip().endswith("(Brakk, Lens: give up — clearly losing)")


def test_a_tracking_npcs_way_out_is_named_as_walking_away_in_the_table():
    """The review: `solo duel --type tracking` printed "fled 139" for an NPC that tracks (side a gives chase), whose
    menu names that way out "Walk away"."""
    from click.testing import CliRunner

    from solo.cli import cli

    out = CliRunner().invoke(cli, ["duel", "--type", "tracking", "--runs", "120", "--seed", "1", "-l", "common"]).output
    assert "walked away" in out and " fled " not in out, out


def test_a_tracker_whose_nerve_breaks_walks_away_in_every_line_that_says_so():
    """`solo duel --type tracking --explain` (side a gives chase): the card said "when clearly losing she runs or
    begs", the tally "when its nerve broke: run 71", and the reason "its nerve broke: it runs" of a tracker giving up
    the chase. Each says it walks away, as its menu's way out does; a quarry still runs."""
    from click.testing import CliRunner

    from solo.cli import cli

    args = ["duel", "--explain", "--runs", "200", "--seed", "3", "-p", "Nervous"]
    tracker = " ".join(CliRunner().invoke(cli, [*args, "--type", "tracking"]).output.split())
    assert "when clearly losing she walks away or begs" in tracker
    # (and the reason by her own pronoun: "it walks away" of a "she", a GM-less table's evening)
    assert "when its nerve broke: walk away " in tracker and "her nerve broke: she walks away" in tracker
    assert "run " not in tracker.split("when its nerve broke:")[1].split("·")[0] and "she runs" not in tracker
    assert "it is " not in tracker and "it guards itself" not in tracker
    fight = " ".join(CliRunner().invoke(cli, [*args, "--type", "combat"]).output.split())
    assert "when clearly losing she runs or begs" in fight


def test_a_duel_in_a_pursuit_says_who_takes_which_part():
    """A GM's evening: `solo duel --type sneaking --pc-lens none` had the NPC break in 91 % of duels where `solo odds`
    for the same pair said 21 %: the duel's NPC sneaks past the PC's watch, and solo odds has the PC sneak. The
    header says who does which, and the help says it is the reverse of solo odds; a fight has no parts to say."""
    from click.testing import CliRunner

    from solo.cli import cli

    def head(kind):
        return " ".join(CliRunner().invoke(cli, ["duel", "--type", kind, "--runs", "5", "--seed", "1"]).output.split())

    assert "sneaks past; Espen Lind keeps watch (solo odds has the PC take the first part)" in head("sneaking")
    assert "gives chase; Espen Lind is pursued" in head("foot_chase")
    assert "tracks; Espen Lind is tracked" in head("tracking")
    # and in JSON, which the help's check against solo odds reads (the review)
    data = json.loads(CliRunner().invoke(cli, ["duel", "--type", "sneaking", "--runs", "5", "--seed", "1",
                                               "--json"]).output)
    assert data["parts"] == {"npc": "hider", "pc": "seeker"}
    assert json.loads(CliRunner().invoke(cli, ["duel", "--runs", "5", "--seed", "1", "--json"]).output)["parts"] is None
    assert "keeps watch" not in head("combat") and "gives chase" not in head("combat")
    helped = " ".join(CliRunner().invoke(cli, ["duel", "--help"]).output.split())
    assert "the reverse of `solo odds`" in helped


@pytest.mark.parametrize("args", [["duel", "-t", "social", "--mindless", "--runs", "3", "--seed", "1"],
                                  ["duel", "--npc", "kaldskard:barrow_one", "-t", "social", "--runs", "3"],
                                  ["odds", "--pc", "espen", "--npc", "kaldskard:barrow_one", "-t", "social"]])
def test_an_argument_with_a_mindless_npc_is_refused(args):
    """A reading of narrated conflicts: `solo duel --npc kaldskard:barrow_one -t social` told "The first
    barrow-wight's composure takes a hard knock"."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "is mindless: a social conflict argues with someone" in result.output


def test_a_level_or_role_given_with_an_npc_file_is_refused_not_dropped():
    """A group's evening: `solo duel --npc npcs/gull.toml --level master` fought the file's Skilled smuggler with no
    word of the --level given (--role the same). The file's own level and role stand, and the command says so."""
    for flags in (("--level", "master"), ("--role", "thug"), ("--level", "master", "--role", "thug")):
        result = run("--npc", "tutorial:courier", *flags, "--runs", "5", "--seed", "1")
        assert result.exit_code == 2, result.output
        assert "gives its own, level and role included" in " ".join(result.output.split())
    assert run("--npc", "tutorial:courier", "--runs", "5", "--seed", "1").exit_code == 0
    assert run("--level", "master", "--runs", "5", "--seed", "1").exit_code == 0  # a drawn NPC takes them


def test_a_duels_sampled_outcomes_say_how_sure_they_are():
    """An audit of the numbers shown: "lost 121 6.0%" stood bare in a command whose purpose is to set play beside
    solo odds; each outcome's share has its 95 % interval (Wilson's, as solo simulate's endings)."""
    from solo.sampling import wilson

    result = run("--runs", "400", "--seed", "5", "--type", "social")
    assert result.exit_code == 0, result.output
    assert "95 % interval" in result.output
    rows = re.findall(r"^ (\w[\w ]*?)\s+│\s+(\d+) │\s+([\d.]+)% │\s+([\d.]+)%–([\d.]+)%", result.output, re.M)
    assert len(rows) >= 5
    for _name, count, _share, low, high in rows:
        lo, hi = wilson(int(count), 400)
        assert (low, high) == (f"{lo:.1%}"[:-1], f"{hi:.1%}"[:-1])


def test_a_creature_named_after_its_role_is_not_named_twice_in_the_heading():
    """Before: "Sentry automaton (Skilled Sentry automaton) against Espen Lind"."""
    mindless = run("--mindless", "--role", "automaton", "--runs", "1", "--seed", "3")
    assert mindless.exit_code == 0, mindless.output
    assert mindless.output.startswith("Sentry automaton (Skilled) against Espen Lind · ")
    person = run("--role", "thug", "--runs", "1", "--seed", "3")
    assert re.match(r"\w+ \w+ \(Skilled Thug\) against Espen Lind · ", person.output), person.output


def test_a_duels_mean_rounds_says_its_spread():
    """A GM-less table's evening: "Mean rounds 28.97" stood bare beside outcome shares with their intervals."""
    from solo.sampling import mean_error

    data = json.loads(run("--runs", "300", "--seed", "4", "--json").output)
    text = run("--runs", "300", "--seed", "4").output
    assert 0 < data["rounds_error"] < 1
    assert f"Mean rounds {data['mean_rounds']:.2f} ± {data['rounds_error']:.2f}" in text
    assert mean_error(10, 50, 2) == pytest.approx(0.0) and mean_error(6, 20, 2) == pytest.approx(1.0)


def test_a_lens_share_says_its_spread_counted_by_conflict():
    """The Lens table's shares stood bare beside outcomes with their intervals (a GM's own adventure: "duel Lens
    shares no intervals"). They are shares of rounds, and the rounds of one conflict lean together, so the ± is
    worked out conflict by conflict (the ratio estimator), never as if each round were an independent try."""
    from solo.sampling import clustered_share_error

    # the formula, against its definition written out on a few clusters (x of a Lens among m declarations)
    clusters = [(3, 10), (0, 4), (7, 9), (2, 12), (5, 5)]
    part, whole = sum(x for x, _ in clusters), sum(m for _, m in clusters)
    p = part / whole
    direct = (len(clusters) / (len(clusters) - 1) * sum((x - p * m) ** 2 for x, m in clusters)) ** 0.5 / whole
    sums = (part, sum(x * x for x, _ in clusters), sum(x * m for x, m in clusters), whole,
            sum(m * m for _, m in clusters), len(clusters))
    assert clustered_share_error(*sums) == pytest.approx(direct)
    assert clustered_share_error(1, 1, 1, 1, 1, 1) == 0.0  # one conflict tells no spread

    # honest where rounds lean together: each cluster's own leaning drawn anew, the share's spread over many
    # batches is what one batch's ± says, and well above the binomial spread of its rounds
    rng = random.Random(11)
    shares, errors = [], []
    for _ in range(400):
        xs = []
        for _ in range(40):
            lean, m = rng.random(), rng.randint(3, 15)
            xs.append((sum(rng.random() < lean for _ in range(m)), m))
        part, whole = sum(x for x, _ in xs), sum(m for _, m in xs)
        shares.append(part / whole)
        errors.append(clustered_share_error(part, sum(x * x for x, _ in xs), sum(x * m for x, m in xs), whole,
                                            sum(m * m for _, m in xs), len(xs)))
    mean = sum(shares) / len(shares)
    spread = (sum((s - mean) ** 2 for s in shares) / (len(shares) - 1)) ** 0.5
    told = sum(errors) / len(errors)
    assert 0.85 < told / spread < 1.15, (told, spread)  # 400 batches: the spread itself is known to about 4 %
    binomial = (mean * (1 - mean) / (sum(m for _, m in xs))) ** 0.5
    assert spread > 2 * binomial

    # the duel keeps the sums, says the ± on its table and in its JSON
    stats = run_duels(duel_npc(random.Random(2), conflict_type("combat")), load_character("espen"),
                      conflict_type("combat"), runs=40, seed=2)
    assert stats.lens_sums["clusters"] == 40 and all(e > 0 for k, e in stats.lens_errors().items() if stats.lenses[k])
    data = json.loads(run("--runs", "40", "--seed", "2", "--json").output)
    text = run("--runs", "40", "--seed", "2").output
    for lens, count in data["lenses"].items():
        if count:
            share = 100 * count / sum(data["lenses"].values())
            assert re.search(rf"^ {lens}\s+│\s+{count} │\s+{share:.1f}% ± {100 * data['lens_errors'][lens]:.1f}",
                             text, re.M), (lens, text)


def test_an_npc_never_swings_with_a_lens_that_cannot_win_the_round_while_another_can():
    """A GM-less table's smuggler (Combat 5, Cunning //Sleight 90, Aggressive and Impulsive) declared Aggressive,
    at 5 - 20, in four rounds of five ("hits hard: she is Aggressive, Impulsive") and lost 82 % of her fights,
    where keeping Covert wins 98 %: her leanings and the gamble of a losing fight outweighed a Lens that can never
    win. A Lens whose roll cannot succeed is left out of the draw while another can win the round; `solo odds`
    prices the same mind."""
    from pathlib import Path

    from solo.npc import NPC as NPCFile
    from solo.toml_files import load_toml

    petra = NPCFile.from_dict(load_toml(Path(__file__).parent / "data" / "npc_petra_smuggler.toml"))
    stats = run_duels(petra, load_character("espen"), conflict_type("combat"), runs=150, seed=1)
    assert stats.lenses["aggressive"] == 0 and stats.lenses["covert"] > 0.5 * sum(stats.lenses.values())
    assert stats.share("won") > 0.7
    exact = json.loads(CliRunner().invoke(cli, ["odds", "--pc", "espen", "--npc", str(
        Path(__file__).parent / "data" / "npc_petra_smuggler.toml"), "--rounds", "30", "--json"]).output)
    assert exact["b_wins"] > 0.7  # the odds play her as the duel does (they had her at 10.86 % against Rune)


def test_a_lens_seen_once_is_neither_nought_nor_told_as_exact():
    """A Lens declared once in thousands read "0.0% ± 0.0": a share seen is not none, and a spread of 0.0 reads as
    exact. It reads "<0.1%" with its ± to one significant figure (solo/sampling.py's error_digits, as simulate's
    means)."""
    import io
    from collections import Counter

    from rich.console import Console

    from solo.cli.duel import _show
    from solo.minds.arena import DuelStats
    from solo.sampling import error_digits

    assert (error_digits(0.02, 1), error_digits(0.25, 1), error_digits(3.0, 1)) == ("0.02", "0.2", "3.0")
    stats = DuelStats()
    per_run = [Counter({"covert": 9}) for _ in range(999)] + [Counter({"covert": 8, "clever": 1})]
    for declared in per_run:
        stats.lenses.update(declared)
        stats.count_conflict(declared)
        stats.runs += 1
        stats.outcomes["won"] += 1
    out = io.StringIO()
    npc = duel_npc(random.Random(2), conflict_type("combat"))
    _show(Console(file=out, width=120, color_system=None), npc, load_character("espen"), conflict_type("combat"),
          stats, 1.0, None)
    row = next(line for line in out.getvalue().splitlines() if line.startswith(" clever"))
    assert "<0.1% ± 0.01" in row and "± 0.0 " not in row + " ", row
    # (the review) nor is a share short of all "100.0%", nor one never seen exact: it has a declaration's spread
    shown = {line.split()[0]: line for line in out.getvalue().splitlines() if "│" in line}
    assert ">99.9% ±" in shown["covert"] and "0.0% ± 0.01" in shown["aggressive"], shown
    assert "share ± s.e." in out.getvalue()


def test_an_archer_on_his_rock_is_never_told_closing_in():
    """A reading of fights: Torgny, "above them on the rock with an arrow on the string", was told "steps in,
    looking for an opening" (21 times in 60 toll fights), "comes straight at Espen", "charges onto Espen's waiting
    guard" and "Espen lets Torgny overreach, then counters". Lines of closing in are for hand weapons and beasts."""
    close = re.compile(r"Torgny (steps in|comes straight at|charges|rushes|presses in|throws caution away|goes for "
                       r"\w+ with his)|lets Torgny overreach|Torgny charges onto")
    told = 0
    for seed in range(1, 13):
        result = run("--npc", "kaldskard:torgny", "--narrate", "--runs", "1", "--seed", str(seed))
        assert result.exit_code == 0, result.output
        told += result.output.count("Torgny")
        assert not close.search(result.output), (seed, close.search(result.output).group(0))
    assert told > 100
    # … and a beast still closes in (the review: the first filter, for hand weapons, held for no beast's teeth)
    dog = re.compile(r"cannery dog (steps in|comes straight at|charges in|rushes|presses in)|With a snarl, the "
                     r"cannery dog")
    assert any(dog.search(run("--npc", "vellan:dog", "--narrate", "--runs", "1", "--seed", str(seed)).output)
               for seed in range(1, 13))


def test_a_dog_that_breaks_is_told_without_words_in_its_duel():
    """The review: the wordless breaks were tested on the clue alone, not as a dog's duel tells them. Vellan's
    cannery dog (a Code Block, no speech) "shouted for help and fell back"."""
    told = "".join(run("--npc", "vellan:dog", "--narrate", "--runs", "1", "--seed", str(seed)).output
                   for seed in range(28, 36))
    assert "howls for its own kind" in told
    assert not re.search(r"cannery dog (shouts|offers|pleads|drops to its knees)", told)

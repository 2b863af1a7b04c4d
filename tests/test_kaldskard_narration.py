"""Kaldskard's conflicts told in Kaldskard's places (scenes/kaldskard/narration.toml, docs/narration.md).

Each conflict is played from its own scene through the engine, the player's side by a bot (the greedy one on
even seeds, a random one on odd seeds, so every Lens, Quick getaways and surrenders come up), and told as the
game tells it, with the adventure's lines. Read as a player would: no street, wall or floorboard on a snowy
mountain, no camp site left by a blizzard, the dead never tire or bear a bruise, and the barrow-wight hunts the
party, not the other way round.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from solo.events import EventLog
from solo.minds.bots import GreedyDecider, RandomDecider
from solo.narration import Narrator, load_templates, narration_rng
from solo.narration.transcript import transcript
from solo.rules.creation import pregenerated
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.format.text import fill
from solo.story.play.engine import Game
from solo.ui.journal import Journal


@pytest.fixture(scope="module")
def kaldskard():
    return load_adventure(find_adventure("kaldskard"))


@pytest.fixture(scope="module")
def templates(kaldskard):
    return load_templates(extra_data=[(kaldskard.source, kaldskard.templates)])


class _Done(Exception):
    """The conflict is over: the next scene menu ends the game here."""


class _Bot:
    """Picks the choice that starts the conflict, then plays it as a bot; stops at the next scene menu."""

    def __init__(self, label: str, seed: int):
        self.label, self.picked = label, False
        rng = random.Random(seed)
        self.bot = RandomDecider(rng) if seed % 2 else GreedyDecider(rng)

    def decide(self, question):
        if question.kind == "choice":
            if self.picked:
                raise _Done
            self.picked = True
            return next(o.key for o in question.options if o.label.startswith(self.label))
        return self.bot.decide(question)


def _party(size: int):
    party = []
    for name, pronoun in (("Sander Strand", "they"), ("Elin Holm", "she"), ("Lars Myhre", "he"))[:size]:
        pc = pregenerated("espen")
        pc.name, pc.pronoun = name, pronoun
        party.append(pc)
    return party


def told(adventure, templates, scene: str, label: str, seed: int, party: int = 1):
    """(the conflict's events, its story as the game tells it) for the choice ``label`` of ``scene``."""
    log = EventLog()
    game = Game(dataclasses.replace(adventure, start=scene), seed=seed, decider=_Bot(label, seed), sink=log,
                party=_party(party))
    try:
        game.play()  # to an ending (the party fell) ...
    except _Done:  # ... or to the next scene's menu
        pass
    events = [e for e in log.events if e.kind not in ("scene_entered",)]
    return events, transcript(events, Narrator(templates, narration_rng(seed)))


def sentences(story: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(story.split())) if s]


# The bundled lines for chases, sneaking and tracking are written for towns and woods.
TOWN = re.compile(r"\b(street|streets|wall|walls|board|boards|floorboard|bucket|paving|handcart|cart|cobbles?|"
                  r"crowd|alley|alleys|lamp|market|kerb|shelf|rafters|railing|pavement|stairs|tavern|wagon|"
                  r"corridor|curtain|drainpipe|fern|moss|mud|camp site|rain|thorn|undergrowth)\b", re.I)

CHASES_AND_SEARCHES = [
    ("grave_road", "Walk on between", 1),          # sneaking past the barrow-field
    ("barrow_chase", "Run for it", 1),             # the dead hunt the party
    ("barrow_chase", "Run for it", 2),
    ("eyvind_runs", "After him", 1),               # the party hunts the boy
    ("robbed", "Follow their tracks", 1),          # tracking the outlaws' trail
    ("high_saddle", "Find the cairns", 1),         # the blizzard
    ("high_saddle", "Find the cairns", 3),
]


@pytest.mark.parametrize("scene,label,party", CHASES_AND_SEARCHES)
def test_chases_and_searches_on_the_mountain_meet_no_street(kaldskard, templates, scene, label, party):
    for seed in range(5):
        _, story = told(kaldskard, templates, scene, label, seed, party)
        town = [s for s in sentences(story) if TOWN.search(s)]
        assert not town, f"{scene} seed {seed}: {town}"


def test_the_barrow_wight_hunts_and_the_party_runs(kaldskard, templates):
    for seed in range(6):
        events, story = told(kaldskard, templates, "barrow_chase", "Run for it", seed)
        start = next(e for e in events if e.kind == "conflict_start")
        parts = {p["name"]: p["part"] for p in start.data["participants"]}
        assert parts == {"Sander Strand": "quarry", "the third barrow-wight": "pursuer"}
        assert start.data["frame"]["settings"] == ["river"]
        hunter = [s for s in sentences(story)
                  # (Sander's own clause: "Sander is off down the slope, and the third barrow-wight goes after them"
                  # is right)
                  if re.search(r"Sander [^,;]*(gives chase|goes after|close enough to grab|within reach of|keeps the "
                               r"third barrow-wight in sight)", s)
                  or re.search(r"third barrow-wight (keeps looking back|runs with Sander|pulls further ahead|"
                               r"stretches the lead|feels the pursuer)", s)]
        assert not hunter, f"seed {seed}: {hunter}"


# What a dead thing is never said to do: tire, pant, bleed, bruise.
LIVING = re.compile(r"(for weeks|doubles over|breath|gasp|lungs|bleed|blood|winded|bruise|tires? |tired|flag|"
                    r"legs give out|hands on knees|feet are getting heavy)", re.I)
DEAD = re.compile(r"(barrow-wight|grave-lord)")


@pytest.mark.parametrize("scene,label,party", [("barrow_chase", "Run for it", 1), ("barrows", "Stand and fight", 1),
                                               ("shieling_attack", "Fight them in", 2)])
def test_the_dead_never_tire_pant_or_bruise(kaldskard, templates, scene, label, party):
    for seed in range(5):
        _, story = told(kaldskard, templates, scene, label, seed, party)
        living = [s for s in sentences(story) if DEAD.search(s) and LIVING.search(s)
                  and not re.search(r"(does not tire|no breath)", s)
                  and not re.match(r"(Sander|Elin|Lars)\b[^.]*(breath|gasp|lungs|bleed|blood|winded)", s)]
        assert not living, f"{scene} seed {seed}: {living}"


def test_the_blizzard_is_searched_not_tracked_and_the_outlaws_trail_has_no_cairns(kaldskard, templates):
    for seed in range(5):
        _, blizzard = told(kaldskard, templates, "high_saddle", "Find the cairns", seed)
        quarry = [s for s in sentences(blizzard)
                  if re.search(r"blizzard's trail|blizzard (stopped|went|left)|print|camp|to its end|washed", s)]
        assert not quarry, f"seed {seed}: {quarry}"
        _, trail = told(kaldskard, templates, "robbed", "Follow their tracks", seed)
        assert "cairn" not in trail, f"seed {seed}: {trail}"


def test_the_grave_road_is_still_so_no_wind_covers_a_step(kaldskard, templates):
    """The grave-road's text: 'The wind has dropped, and in the silence you can hear yourself breathe.'"""
    assert "The wind has dropped" in kaldskard.scenes["grave_road"].text
    for seed in range(5):
        _, story = told(kaldskard, templates, "grave_road", "Walk on between", seed)
        windy = [s for s in sentences(story) if re.search(r"\b(gust|wind covers|the wind)\b", s, re.I)]
        assert not windy, f"seed {seed}: {windy}"


def test_the_dead_fight_with_the_hands_the_scenes_show(kaldskard):
    from solo.npc.model import NPC
    from solo.story.play.npcs import npc_fields

    npcs = {nid: NPC.from_dict(npc_fields(kaldskard.npcs[nid].data)) for nid in ("barrow_two", "barrow_three",
                                                                                 "grave_lord")}
    assert npcs["barrow_two"].weapon_called == "black-nailed hands"
    assert npcs["barrow_three"].weapon_called == "cold hands"
    assert npcs["grave_lord"].pronoun == "it"  # the scenes call the dead king "it"
    assert all(n.fiction_body() == "undead" for n in npcs.values())


def test_a_bruise_for_weeks_and_a_fist_are_for_the_living_and_the_unarmed_only():
    """The bundled combat lines: 'a mark for weeks' only on flesh, and the unarmed lines say {weapon}."""
    templates = load_templates()
    heavy = templates.get("combat", "damage_heavy")
    weeks = [t for t in heavy if "for weeks" in t.text]
    assert weeks and all("undead" not in t.filters.get("foe_body", {"undead"}) for t in weeks)
    unarmed = [t for key, lines in templates.lines.items() if key[0] == "combat" for t in lines
               if "unarmed" in t.filters.get("weapon", ()) and re.search(r"\bfists?\b", t.text)]
    assert not unarmed, [t.text for t in unarmed]
    # nor does the grave-lord, mindless as it is, tire of a fight or swagger through it
    declared = [t for key, lines in templates.lines.items() if key[:2] == ("combat", "declare") for t in lines
                if re.search(r"\b(tired|swagger)", t.text, re.I)]
    assert declared and all("undead" not in t.filters.get("body", {"undead"}) for t in declared)
    # nor does a draugr that won "wipe its fists", or shake once it is over
    won = templates.get("combat", "aftermath", "won")
    wipes = [t for t in won if "wipes" in t.text]
    assert wipes and all(t.filters.get("weapon") == frozenset({"blade", "blunt"}) for t in wipes)
    shaking = [t for t in won if "shaking" in t.text]
    assert shaking and all(t.filters.get("body") == frozenset({"flesh"}) for t in shaking)
    assert sum(1 for t in won if not t.filters) >= 2  # and something is left to say of any winner
    # nor does a mindless wight struck in combat know that it could have been worse
    knowing = [t for t in templates.get("combat", "damage_light") if re.search(r"\{target\} knows\b", t.text)]
    assert knowing and all(t.filters.get("foe_body") == frozenset({"flesh"}) for t in knowing)


def test_a_trail_that_is_an_obstacle_is_followed_not_hunted():
    """The bundled tracking lines: an obstacle trail does not rest, camp, leave tracks or have no idea how close
    the tracker is (its body is ``object``); the lines that say so are for a quarry that can."""
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.participants import from_character, obstacle

    ctype, templates = conflict_type("tracking"), load_templates()
    quarry = re.compile(r"the old trail (left|stopped|would|will|always|has no idea|does|moves|is using|is heading|"
                        r"had left|turned|went|chooses)|the old trail's (trail|habits|boots|likely)|"
                        r"(after|like|cut|closer than) the old trail", re.I)
    for seed in range(12):
        pc = pregenerated("espen")
        rng = random.Random(seed)
        bot = RandomDecider(rng) if seed % 2 else GreedyDecider(rng)
        log = EventLog()
        Conflict(ctype, [from_character(pc, "a", ctype, decider=bot), obstacle("Old trail", "hard")],
                 random.Random(seed), sink=log, round_limit=10).run()
        story = transcript(log.events, Narrator(templates, narration_rng(seed)))
        hunted = [s for s in sentences(story) if quarry.search(s)]
        assert not hunted, f"seed {seed}: {hunted}"


def test_a_blow_that_ends_it_is_never_told_as_halfway(templates):
    """Before: "Espen Lind deals 5 to the barrow-field's BODY/POW: 1 -> 0. … Half of the barrow-field is behind
    Espen now." A heavy progress or setback line that says the job is half done, or must start again, is for a
    heavy blow only ([blow:heavy]): the blow that ends it is told as heavy but its fact is "final"."""
    halfway = re.compile(r"\b(half|start again|rounds to come)\b", re.I)
    later = re.compile(r"\brounds to come\b", re.I)  # a blow's damage felt later: not of the blow that ends it
    for key, lines in templates.lines.items():
        if key[1] in ("progress_heavy", "setback_heavy", "damage_heavy"):
            for t in lines:
                if (halfway if key[1] != "damage_heavy" else later).search(t.text):
                    assert t.filters.get("blow") == frozenset({"heavy"}), (key, t.text)
    assert any(halfway.search(t.text) for t in templates.get("sneaking", "progress_heavy"))
    # a heavy blow's "setback … felt in the rounds to come" is gone altogether: a Pool above zero costs nothing
    # later (tests/test_narration_context.py)
    assert not any(later.search(t.text) for t in templates.get("generic", "damage_heavy"))


# -- a surrender in the group fight at the toll, as the game shows it --------------------------------------------

#: Seed 11: three PCs fight the toll taking every default (plain rolls, the first target, every exit accepted).
#: Hallstein gives up in round 9 without a word; Eyvind offers a deal aloud in round 10; the fight ends in round 14.
TOLL_SEED, TOLL_ANSWERS = 11, ["5"] + ["1"] * 56
_ACCEPTED = re.compile(r"^- .+? accepts: (.+?) is out of it\.$", re.M)
_ROLLED = re.compile(r"^- .+?: \d\d against ", re.M)  # a roll's line in the journal: the dice have fallen


@pytest.fixture(scope="module")
def toll_fight(kaldskard, tmp_path_factory):
    """The toll fought to its end by three PCs (screen, journal), through the same session a player plays.

    Without the Lens odds (``solo play --no-odds``): these tests read the narration, and a group fight's odds are
    the engine's estimate, 42 menus of 400 rounds each, some 85 % of the fixture's time. They draw nothing from the
    game's dice (tests/test_lens_advice.py), so the fight is the same with them."""
    from conftest import run_play

    folder = tmp_path_factory.mktemp("toll")
    code, screen, journal = run_play(dataclasses.replace(kaldskard, start="toll"), TOLL_ANSWERS, folder,
                                     seed=TOLL_SEED, width=100, party=_party(3), advise=False)
    assert code == 0 and "The conflict is over: you won." in screen
    return screen, journal


def _surrenders(journal: str) -> list[tuple[str, str]]:
    """(who gave up, the journal's round it gave up in), for every accepted surrender."""
    rounds = [r for r in journal.split("**Round ")[1:] if _ACCEPTED.search(r)]
    return [(_ACCEPTED.search(r).group(1), r) for r in rounds]


def _told(text: str) -> list[str]:
    """The narration of a round in the journal, line by line: its items in italics ('- *Sander squares up.*')."""
    return re.findall(r"^- \*(.+)\*$", text, re.M)


def _speech(who: str, text: str) -> list[str]:
    """The lines ``who`` says in ``text``: a quotation the narration attributes ('"…" Eyvind gasps.')."""
    return [line for line in _told(text) if re.fullmatch(rf'"[^\n]*" {who} [a-z ]+\.', line)]


def test_a_surrender_is_pleaded_before_the_player_accepts_it(toll_fight):
    """Before: the PC's acceptance came first, then the NPC's plea: '- Sander Strand accepts: Eyvind is out of it.',
    then '"There is money! I can get money!" Eyvind gasps.' The engine now says an NPC yields (``exit_offer``)
    before the PC is asked, and the plea is told there: on screen before the question, in the journal before the
    answer."""
    screen, journal = toll_fight
    said = []
    for who, told in _surrenders(journal):
        accepted = told.index(" accepts: ")
        for line in _speech(who, told):
            assert told.index(line) < accepted, (who, line)
            said.append((who, line))
    assert said  # someone pleaded or bargained aloud as it gave up (Hallstein, and in some tellings Eyvind)
    flat = " ".join(screen.split())  # the screen wraps long lines
    for who, line in said:
        plea = flat.index(line)
        assert plea < flat.index(f"{who} wants to surrender: accept, or fight on?", plea) < flat.index(
            f"accepts: {who} is out of it.", plea)


def test_no_move_declared_before_a_surrender_is_told_after_it(toll_fight):
    """Before: the moves the others had declared before an NPC gave up were told after the PC accepted
    ('Sander Strand accepts: Hallstein is out of it.', then 'Sander squares up and fights …; Elin keeps her fists
    between herself and Hallstein'), as if the fight went on with the one who gave up. They are told before its
    plea now; between the acceptance and the dice there is only how it gives up."""
    screen, journal = toll_fight
    pcs = {"Sander", "Elin", "Lars"}
    surrenders = _surrenders(journal)
    assert [who for who, _ in surrenders] == ["Hallstein", "Eyvind"]
    for who, told in surrenders:
        accepted = told.index(" accepts: ")
        before = _told(told[:accepted])
        after = told[accepted:_ROLLED.search(told).start()]
        told_after = _told(after)
        assert any(p.split()[0] in pcs for p in before), (who, before)  # the PCs' moves: told, before it
        # how it gives up, if anything: where its broken nerve's clue said so already, nothing (told once)
        assert len(told_after) <= 1 and all(p.startswith(who) for p in told_after), (who, told_after)
        lines = screen.splitlines()
        at = next(i for i, line in enumerate(lines) if line.strip().endswith(f" accepts: {who} is out of it."))
        following = lines[at + 1].strip()  # on screen too: how it gives up, or the round's dice; no one's move
        assert following.startswith(who) or re.search(r"\b\d+ / \d+\b", following), lines[at + 1]  # a dice row


def test_one_who_gave_up_leaves_the_pool_bars(toll_fight):
    """Before: Hallstein and Eyvind, who had given up, stayed on the bars to the end of the fight ('Eyvind
    ██████████░░ 5/6'); the view now drops one who fled or gave up from the bars (one who is out stays, at 0)."""
    screen, _ = toll_fight
    bars = re.compile(r"^  (\S.*?)\s+[█░]+\s+-?\d+/\d+$")
    lines = screen.splitlines()
    shown: list[tuple[int, set[str]]] = []  # (the line a block of bars starts at, the names on it)
    for i, line in enumerate(lines):
        found = bars.match(line)
        if not found:
            continue
        if shown and bars.match(lines[i - 1]):
            shown[-1][1].add(found.group(1))
        else:
            shown.append((i, {found.group(1)}))
    for who in ("Hallstein", "Eyvind"):
        at = next(i for i, line in enumerate(lines) if line.strip().endswith(f" accepts: {who} is out of it."))
        assert any(who in names for start, names in shown if start < at)  # on the bars while it fought
        later = [names for start, names in shown if start > at]
        assert later and all(who not in names for names in later), (who, later)
    assert all("Ragna Ulvsdotter" in names for start, names in shown)  # knocked out: still there, at 0


@pytest.mark.parametrize("size, bowls", [(1, "a bowl for you"), (2, "bowls for you both"), (3, "bowls for you all")])
def test_the_inn_greets_a_party_by_its_size_once_and_a_return_as_a_return(kaldskard, tmp_path, size, bowls):
    """Before: back from Sigvald's fire, the inn told its first arrival again ("sets down bowls for you all"),
    and two players were "you all". Inn, fire, back to the inn: the greeting once, fitting the party."""
    from conftest import run_play

    code, screen, journal = run_play(kaldskard, ["1", "4"], tmp_path, seed=3, width=200, party=_party(size))
    assert code == 0
    assert journal.count("The last inn below the pass") == 1 and journal.count(bowls) == 1
    others = {"a bowl for you", "bowls for you both", "bowls for you all"} - {bowls}
    assert not any(other in journal for other in others)
    assert journal.count("Back at the long table") == 1
    assert journal.index("Back at the long table") > journal.index("Sigvald")


def test_turning_back_after_paying_the_toll_does_not_bring_the_bag_home(tmp_path):
    """Before: the toll paid ('You no longer have: remedies.'), the party turned back, and the ending said 'You
    come back down to Nedre Bru with the bag still full.' The ending reads what the party carries; its outcome
    reads as words, not as the id 'turned_back'."""
    from pathlib import Path

    from click.testing import CliRunner

    from solo.cli import cli

    script = Path(__file__).parent / "data" / "scripts" / "kaldskard_toll_paid_turned_back.txt"
    journal = tmp_path / "t.md"
    result = CliRunner().invoke(cli, ["play", "kaldskard", "--seed", "3", "--script", str(script), "--saves",
                                      str(tmp_path / "saves"), "--transcript", str(journal)])
    assert result.exit_code == 0, result.output[-2000:]
    text = journal.read_text(encoding="utf-8")
    assert "You no longer have: remedies." in text or "Lost: remedies" in text
    assert "with the bag still full" not in text and "the outlaws have the bag" in text
    assert "**The end: The lowland road** (turned back)." in text and "turned_back" not in result.output


#: Words that give a fight up, said aloud.
GIVES_UP = re.compile(r"\b(yield|give up|you win|concede|I am done|go quietly|I quit|retreat|finish it)\b", re.I)


def _conceding(templates) -> list[re.Pattern]:
    """The words of every plea that gives the fight up ([yields:yes]), and any that say so in so many words."""
    texts = [t.text for key, lines in templates.lines.items() if key[1] == "plea" for t in lines
             if "yields" in t.filters]
    return [GIVES_UP] + [re.compile(re.escape(text.split('"')[1])) for text in texts]


def test_an_outlaw_concedes_only_as_he_surrenders(kaldskard, templates):
    """Before, seed 18 with three PCs: Hallstein's Pool fell to a quarter and '"Enough. Please," Hallstein concedes.'
    was told; he fought on and was knocked out two rounds later. Seed 8: '"I yield. Shall we fill in the forms?"
    Hallstein concedes.', and he fought on; seed 50 with two: '"I suppose we could stop. If that is acceptable,"
    Hallstein concedes.', and he fought on; seeds 24 and 4 alone: '"I will go quietly," Hallstein murmurs.', and
    he fought on, or ran. A plea at a quarter of the Pool begs or bargains; words that give the fight up ("I
    yield", "you win", "I will go quietly") and a plea told as "conceded" come only in the round its surrender is
    offered. (A Pool clue now brings strain, never a plea: docs/narration.md.)"""
    conceding, pleas = _conceding(templates), 0
    for seed, party in ((18, 3), (8, 3), (50, 2), (24, 1), (4, 1)):
        events, story = told(kaldskard, templates, "toll", "Fight your way through", seed, party)
        yielded, rnd = set(), 0
        for e in events:
            rnd = e.data.get("round", rnd) if e.kind == "round_start" else rnd
            if e.kind == "exit_offer" and e.data.get("exit") == "surrender":
                yielded.add((rnd, e.data["actor"].split()[0]))
        for paragraph in story.split("\n\n"):
            head = re.match(r"Round (\d+)\.", paragraph)
            for said in re.finditer(r'"([^"]*)" (Hallstein|Eyvind|Torgny|Ragna) ([a-z ]+)\.', paragraph):
                words, who, verb = said.groups()
                pleas += 1
                if verb == "concedes" or any(p.search(words) for p in conceding):
                    assert head and (int(head.group(1)), who) in yielded, (seed, said.group(0), sorted(yielded))
    assert pleas  # the outlaws said something


@pytest.mark.parametrize("seed, party", [(24, 1), (8, 2), (12, 2), (0, 3)])
def test_the_toll_won_says_who_went_down_and_who_ran(kaldskard, templates, seed, party):
    """Before: 'The last of them goes down in the snow. Ragna has not moved from her rock.' whenever the toll fight
    was won: said when Eyvind had run before Hallstein went down (seed 24, alone), when Hallstein had given up
    (seed 8, two PCs), and against three, where Ragna fights too and had gone down herself (seed 0). The response
    reads npc_status: only a fight where every outlaw in it went down says so, one who ran or gave up is said to
    have, and Ragna stays where she stood only where she did not fight; where one ran or gave up, nothing says who
    went last."""
    events, _ = told(kaldskard, templates, "toll", "Fight your way through", seed, party)
    [end] = [e for e in events if e.kind == "conflict_end"]
    assert end.data["outcome"] == "won"
    exits = {e.data["actor"]: e.data["how"] for e in events if e.kind == "exit"}
    fought = {p["name"] for p in next(e for e in events if e.kind == "conflict_start").data["participants"]
              if p["side"] == "b"}
    text = [e.data["text"] for e in events if e.kind == "branch_text"][-1]
    if exits:
        # nothing says which of them went last (a group's run: "The last of them still fighting goes down in the
        # snow. Hallstein has gone crashing off among the boulders.", where Hallstein, let go, had been the last)
        assert "last of them" not in text and text.startswith("It is over, and the track is yours.")
    else:
        assert text.startswith("The last of them goes down in the snow.")
    for who, how in exits.items():
        said = {"fled": ("gone crashing off", "out of sight", "is empty"), "surrendered": ("gave up", "unstrung")}
        sentence = next(s for s in sentences(text) if who.split()[0] in s)
        assert any(w in sentence for w in said[how]), (who, how, text)
    assert ("Ragna has not moved from where she stood" in text) == ("Ragna Ulvsdotter" not in fought), text


@pytest.mark.parametrize("seed, party", [(0, 1), (2, 2), (4, 3)])
def test_the_barrows_won_means_every_wight_went_down(kaldskard, templates, seed, party):
    """barrows_won says 'The last of them goes down in the snow' with no npc_status reading: the wights are mindless
    and never run or give up, so a won fight is one where each went down."""
    events, _ = told(kaldskard, templates, "barrows", "Stand and fight", seed, party)
    [end] = [e for e in events if e.kind == "conflict_end"]
    assert end.data["outcome"] == "won"
    assert not [e for e in events if e.kind in ("exit", "exit_offer") and "wight" in e.data["actor"]]
    assert [e.data["text"] for e in events if e.kind == "branch_text"][-1].startswith("The last of them goes down")


@pytest.mark.parametrize("scene, label, party, seeds", [("barrow_chase", "Run for it", 2, range(20, 26)),
                                                      ("eyvind_runs", "After him", 3, range(0, 6))])
def test_a_chase_of_three_is_never_both(kaldskard, templates, scene, label, party, seeds):
    """Before, seed 1: three PCs ran after Eyvind and the round came to nothing: 'Neither gains a yard in the soft
    snow.' (and two PCs running from a barrow-wight could hear 'Both slither down a bank of loose snow').
    Kaldskard's lines that count two say [fighters:two]; three or more in the chase hear that they all flounder."""
    both = re.compile(r"\b(both|neither)\b", re.I)
    for seed in seeds:
        events, story = told(kaldskard, templates, scene, label, seed, party)
        start = next(e for e in events if e.kind == "conflict_start")
        gone: set[str] = set()
        in_round: dict[int, int] = {}
        for e in events:
            if e.kind in ("out", "comae", "exit"):
                gone.add(e.data["actor"])
            if e.kind == "round_result":
                in_round[e.data["round"]] = len(start.data["participants"]) - len(gone)
        for paragraph in story.split("\n\n"):
            head = re.match(r"Round (\d+)\.", paragraph)
            if head and in_round.get(int(head.group(1)), 0) > 2:
                assert not [s for s in sentences(paragraph) if both.search(s) and "{" not in s
                            and not re.search(r"\band\b.*\bboth\b", s)], (seed, paragraph)


class _Stop(Exception):
    """The first menu of the scene: far enough."""


class _StopAtMenu:
    def decide(self, question):
        raise _Stop


@pytest.mark.parametrize("night", ["camp_night", "shieling_dawn"])
def test_a_night_by_the_fire_dries_you_out(kaldskard, night):
    """A night 'warm for the first time since Nedre Bru', then the saddle said 'You are still wet from below' and
    took a point of BODY for it (new-user run): a night by a fire clears being soaked, on either road."""
    game = Game(dataclasses.replace(kaldskard, start=night), seed=1, decider=_StopAtMenu(),
                party=[pregenerated("espen")])
    game.state.flags["soaked"] = True
    with pytest.raises(_Stop):
        game.play()
    assert game.state.scene == night and not game.state.flags.get("soaked")


class _Menu:
    """Keeps the first scene menu's options, then stops."""

    def __init__(self):
        self.options = None

    def decide(self, question):
        if question.kind == "choice":
            self.options = {o.label: o.detail for o in question.options}
        raise _Stop


def test_a_conflict_with_nobody_fit_to_face_you_says_no_contest_in_the_menu(kaldskard):
    """Ragna talked down at the toll (CHA 0) was offered at the camp as 'one argument: … lose, and she may win you',
    with no odds, then was no contest (new-user run): the menu now says it before the choice."""
    for spent, said in ((0, "no contest: Ragna Ulvsdotter is spent (CHA 0)"), (12, None)):
        menu = _Menu()

        games: list[Game] = []

        def talked_down(event, spent=spent, games=games):  # as the toll argument left her, once in the camp
            if event.kind == "scene_entered":
                games[0].state.npcs["ragna"].pools["CHA"].current = spent

        game = Game(dataclasses.replace(kaldskard, start="outlaw_camp"), seed=1, decider=menu,
                    party=[pregenerated("espen")], sink=talked_down)
        games.append(game)
        with pytest.raises(_Stop):
            game.play()
        [detail] = [d for label, d in menu.options.items() if label.startswith("Argue that the living")]
        assert (said in detail) if said else ("no contest" not in detail), detail


def test_a_party_in_the_snow_is_not_told_with_one_hood_or_one_face(kaldskard, templates):
    """'Alma's party pulls their hood tight and starts out.', 'Alma's party turns their face into the blizzard'
    (a new player's run, three at the table): a party setting out is told in lines for a group, not one person's."""
    singular = re.compile(r"\b(?:party|side) \w+ their (?:hood|face)\b")  # one PC ("Sander pulls their hood") is fine
    told_party = 0
    for seed in range(12):
        for scene, label in (("high_saddle", "Find the cairns"), ("robbed", "Follow their tracks")):
            events, story = told(kaldskard, templates, scene, label, seed, party=3)
            if not any(e.kind == "conflict_start" for e in events):
                continue
            told_party += 1
            assert not singular.search(story), (scene, seed, [s for s in sentences(story) if singular.search(s)])
    assert told_party >= 6


class _Path:
    """Takes the choice that starts with each label in turn; stops at the first menu past them."""

    def __init__(self, *labels: str):
        self.labels = list(labels)
        self.bot = GreedyDecider(random.Random(1))

    def decide(self, question):
        if question.kind == "choice":
            if not self.labels:
                raise _Done
            label = self.labels.pop(0)
            return next(o.key for o in question.options if o.label.startswith(label))
        return self.bot.decide(question)


def _night(monkeypatch, kaldskard, templates, scene: str, laid: tuple[str, ...], *labels: str, seed: int = 5):
    """The story told from ``scene`` on, with the dead woken (dread 2, or 3 for the howe) and the wights in ``laid``
    beaten (BODY 0, out), as a barrows fight won leaves them."""
    from solo.story.play import engine

    def seated(game, given):
        set_up_party(game, given)
        game.state.counters["dread"] = 3 if scene == "the_howe" else 2
        for nid in laid:
            game.state.npcs[nid].pools["BODY"].current = 0
            game.state.npc_status[nid] = "out"

    set_up_party = engine.set_up_party
    monkeypatch.setattr(engine, "set_up_party", seated)
    log = EventLog()
    game = Game(dataclasses.replace(kaldskard, start=scene), seed=seed, decider=_Path(*labels), sink=log,
                party=_party(1))
    try:
        game.play()
    except _Done:
        pass
    journal = Journal()  # the scene text, the branches and the conflict as the journal keeps them
    for event in log.events:
        journal.render(event)
    return game, log.events, journal.text()


@pytest.mark.parametrize("laid", [(), ("barrow_one",), ("barrow_one", "barrow_two")])
def test_the_dead_come_to_the_hut_only_while_one_the_door_lets_in_is_on_its_feet(monkeypatch, kaldskard, templates,
                                                                                laid):
    """Before: a party that had laid every wight among the barrows still met 'the door bursts inward … Whatever
    is left of the barrow-folk is in the doorway', a fight of nobody ('No contest') and 'The last of them falls
    across the threshold'. With both of the doorway's wights beaten, the night passes, and the ford and the hut
    no longer show shapes on the slope or something walking the far bank."""
    _, events, story = _night(monkeypatch, kaldskard, templates, "the_ford", laid, "Wade straight across",
                              "Bar the door")
    entered = [e["scene"] for e in events if e.kind == "scene_entered"]
    everyone = len(laid) == 2
    assert ("shieling_attack" in entered) is not everyone, entered
    assert ("shieling_dawn" in entered) is everyone or "shieling_attack" in entered
    for teaser in ("shapes standing that were not there before", "something is walking up and down"):
        assert (teaser in story) is not everyone, story[:1500]
    assert not [e for e in events if e.kind == "no_contest"]
    # the quiet night is told (a new player read the door barred and then, at once, the dawn); a night of the dead at
    # the door is told by the fight, with no empty paragraph before it
    assert ("All night the wind worries at the barred door" in story) is everyone
    assert "\n\n\n" not in story


@pytest.mark.parametrize("laid", [(), ("barrow_one", "barrow_two")])
def test_a_grave_lord_whose_dead_were_laid_comes_alone_and_falls_alone(monkeypatch, kaldskard, templates, laid):
    """Before: with both wights beaten on the grave-road, the howe still said 'whatever is left of the barrow-folk
    comes stumbling up the slope', the fight opened with them closing in, and the win had them fall 'all along
    the slope'."""
    game, events, story = _night(monkeypatch, kaldskard, templates, "the_howe", laid, "Face")  # to the fight's end
    alone = bool(laid)
    assert ("None of its dead come with it" in story) is alone
    assert ("stumbling up the slope" in story) is not alone
    assert "snow on the grave-road" not in story  # the review: they may have fallen at the hut
    # the review: "None of its dead come with it", then "The first barrow-wight is spent … and takes no part"
    assert ("takes no part" in story) is False
    (fight,) = [c for c in game.available(kaldskard.scenes["the_howe"]) if c.action and c.action.kind == "conflict"]
    assert game.picked(fight.text) == ("Face it (combat)" if alone else "Face them all (combat)")
    assert (fight.action.spec["npcs"] == ["grave_lord"]) is alone
    assert "close in behind it" not in fight.action.spec["opening"]
    won = game.picked(kaldskard.responses["howe_won"].text)  # told after the fight, every wight out by then
    # whichever of them fell last (a seeded party saw the lord fall in round 4 and a wight in round 6)
    assert won.startswith("The grave-lord lies in the snow")
    assert ("Its barrow-folk lie where they fell" in won) is not alone
    assert "stop where they stand" not in won


@pytest.mark.parametrize(("size", "door", "look"), [(1, "sleep by the fire with one ear open", "you, both of them"),
                                                    (2, "sleep in turns by the fire", "the one of you who")])
def test_one_traveller_sleeps_alone_and_is_looked_at_by_the_two_that_came(kaldskard, size, door, look):
    """A new player alone: "sleep in turns by the fire", and the two wights that came out "look at you, all of them
    at once"."""
    from solo.story.play.conditions import context_of
    from solo.story.play.state import GameState

    state = GameState("kaldskard", party=_party(size))
    ctx = context_of(state)
    (bar,) = [c for c in kaldskard.scenes["shieling"].choices if c.text.startswith("Bar the door")]
    assert door in fill(bar.text, {}, ctx)
    assert look in " ".join(fill(kaldskard.scenes["barrows"].text, {}, ctx).split())
    # and the fight offered to one has no "weakest" to come for (a run of the README's play, alone)
    (alone,) = [c for c in kaldskard.scenes["barrows"].choices if c.condition and c.condition.source ==
                "party_size() == 1"]
    assert "weakest" not in alone.hint


def test_the_barrow_field_is_nearly_behind_the_party_not_one_of_them():
    """Before (the review): two travellers crossing the barrow-field read "The barrow-field is nearly behind her.":
    a thing worn down by a party is told of the party."""
    import random as _random

    from conftest import make_char

    from solo.events import EventLog
    from solo.minds.bots import GreedyDecider
    from solo.narration import Narrator, narrate_events
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.participants import from_character, obstacle
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure("kaldskard"))
    told = load_templates(extra_data=[(adventure.source, adventure.templates)])
    ctype = conflict_type("sneaking")
    behind = []
    for seed in range(60):
        sigrid, cato = make_char("Sigrid Moe", Cunning=50), make_char("Cato Lie", Cunning=50)
        sigrid.pronoun, cato.pronoun = "she", "he"
        sides = [from_character(c, "a", ctype, decider=GreedyDecider(_random.Random(seed + i)))
                 for i, c in enumerate((sigrid, cato))] + [obstacle("the barrow-field", "easy")]
        log = EventLog()
        Conflict(ctype, sides, _random.Random(seed), sink=log, round_limit=5, fiction={"settings": ["barrows"]}).run()
        behind += [line for p in narrate_events(log.events, Narrator(told, _random.Random(seed))) for line in p.lines
                   if line and "nearly behind" in line]
    assert behind and all(line.endswith("nearly behind them.") for line in behind), behind


def test_the_ford_knocks_down_the_one_who_rolled_not_the_whole_party(kaldskard):
    """Before (a group's run): "⚄ Halvor Moe rolls Move: 56 against 30: failure. The river knocks you down twice.
    You crawl out …", and only Halvor took the damage. A party hears who went down; one traveller is "you"."""
    from solo.story.play.engine import set_up_party

    wade = next(c for c in kaldskard.scenes["the_ford"].choices if c.text.startswith("Wade straight"))
    text = wade.action.branch("failure").text
    told = {}
    for size in (1, 2, 3):
        game = Game(kaldskard, seed=1, decider=None, party=_party(size))
        set_up_party(game, _party(size))
        told[size] = game.picked(text)
    assert told[1].startswith("The river knocks you down twice")
    for size in (2, 3):
        assert "{pc}" in told[size] and not re.search(r"\byou\b", told[size], re.I), told[size]
    damage = [e for e in wade.action.branch("failure").effects if e.kind == "damage"]
    assert damage and all("who" not in e.args for e in damage)  # the roller's alone, as the words now say


def test_a_surrender_its_broken_nerve_announced_is_told_once(toll_fight):
    """A reading of narrated games: "Hallstein offers to concede." (his broken nerve's clue), then "- Hallstein gives
    up.", then "Hallstein gives in, with bad grace.". Where the clue said it, the journal (as the screen did) and the
    narrator say the going no more; the acceptance stands after it."""
    screen, journal = toll_fight
    told_once = 0
    for who, told in _surrenders(journal):
        clue = re.search(rf"^- \*{who} (offers to concede|looks round|lowers \w+ guard|drops to|offers a deal|"
                         rf"slows, ready to give up)[^\n]*\*$", told, re.M)
        if clue is None:
            continue
        told_once += 1
        assert f"- {who} gives up." not in told, told
        accepted = told.index(" accepts: ")
        after = told[accepted:_ROLLED.search(told).start()]
        assert not [p for p in after.splitlines()[1:] if p.startswith(who)], after
    assert told_once >= 1


def test_a_branch_text_that_says_nothing_here_prints_nothing_on_screen_or_in_the_journal():
    """The barred door's text tells the quiet night only when no fight comes to the door; where one comes, its
    {if} leaves nothing, and the journal had written an empty paragraph before the fight (the screen prints
    nothing for it either)."""
    import io

    from rich.console import Console

    from solo.events import Event
    from solo.ui.view import TerminalView

    said = Event("branch_text", {"text": "A quiet night.", "slots": {}})
    empty = Event("branch_text", {"text": "  ", "slots": {}})
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=100, color_system=None))
    view.render(empty)
    assert out.getvalue() == ""
    view.render(said)
    assert out.getvalue().strip() == "A quiet night."
    journal = Journal()
    journal.render(said)
    before = journal.text()
    journal.render(empty)
    assert journal.text() == before


def test_the_quiet_night_is_told_exactly_where_the_dead_do_not_come(kaldskard):
    """The barred door's quiet night is an {if} in the choice's text, beside the route that sends the dead to the
    door: a test ties the two (the review: edit one and the text could tell "nothing else comes to it" and then go
    to the attack). The text's condition is the route's, negated, word for word."""
    from solo.story.format.text import blocks_of, parse_text

    (bar,) = [c for c in kaldskard.scenes["shieling"].choices if c.text.startswith("Bar the door")]
    (attack,) = [route for route in bar.goto.routes if route.goto == "shieling_attack"]
    (quiet,) = blocks_of(parse_text(bar.goto.text))
    assert quiet.condition.source == f"not ({attack.condition.source})"
    assert [route.goto for route in bar.goto.routes] == ["shieling_attack", "shieling_dawn"]
    assert bar.goto.routes[-1].condition is None  # the quiet night leads to the dawn, and only it does


def test_an_axe_handed_to_each_says_who_kept_the_one_already_in_hand(kaldskard):
    """A new player's pair at the inn: "you both test the edges", and only Kaia was told she "now fights with an
    axe": Ingrid, who carried one already, was not mentioned. Each of the party is told what it holds after it."""
    import io

    from rich.console import Console

    from solo.story.play.effects import EFFECTS
    from solo.ui import describe as d
    from solo.ui.journal import Journal
    from solo.ui.view import TerminalView

    log = EventLog()
    party = _party(2)
    party[0].weapon, party[1].weapon = None, "axe"
    game = Game(dataclasses.replace(kaldskard, start="inn"), seed=1, decider=RandomDecider(random.Random(1)),
                sink=log, party=party)
    game.state.party = party  # as the game sets it out when play begins
    EFFECTS["wield"].apply(game, {"wield": "axe", "who": "all"})
    said = [d.wield_line(e) for e in log.events if e.kind == "wield"]
    assert said == ["Sander Strand now fights with an axe.", "Elin Holm keeps the axe already in hand."]
    out, journal = io.StringIO(), Journal()
    view = TerminalView(Console(file=out, width=120, color_system=None))
    for e in log.events:
        view.render(e)
        journal.render(e)
    assert all(line in out.getvalue() and line in journal.text() for line in said)
    assert "Elin Holm" not in "\n".join(journal.recap())  # the recap keeps what changed

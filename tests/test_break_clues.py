"""An NPC's nerve, told as a GM would (the clue of ``npc_morale`` and ``npc_break``), fits the conflict.

Before, at Kaldskard's outlaw fire (seed 7, three players, an argument): "Torgny gives ground, eyes flicking
towards the way out.", then "Torgny shouts for help and falls back." while he stood among his own band, and
then "Torgny mutters an excuse and leaves." An argument is left by walking away, not by running with shouts;
and a call for help fits only where the NPC's friends are not all around it.
"""

from __future__ import annotations

import random
import re

from conftest import make_char
from test_narration_fiction import _npc, fight

from solo.events import EventLog
from solo.minds.morale import AMONG_FRIENDS, CLUES, DAUNTED_WORDS, PART_AMONG_FRIENDS, PART_CLUES, SOCIAL_CLUES, clue
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.conflict_view import ConflictView
from solo.rules.participants import from_character

_FIGHTY = ("shouts for help", "falls back", "towards the way out", "turns to get away", "lowers its guard",
           "drops to", "cornered")


def _breakable(name: str):
    """A nervous NPC who lives for its band (Circle): when its nerve goes, it calls for help, or flees."""
    return _npc(name, code_block={"personality": ["Nervous", "Shy"], "motivation": ["Circle"],
                                  "disposition": "Neutral",
                                  "event": {"topic": "Health", "sign": "negative", "example": "a bad knee"}})


def _clues(ctype: str, seeds: range, allies: int) -> list[tuple[str, str, bool]]:
    """(event kind, clue, a friend of the NPC's still in) for every clue told over many party conflicts."""
    out = []
    for seed in seeds:
        npcs = [_breakable(n) for n in ("Torgny", "Hallstein", "Eyvind")[:1 + allies]]
        events = fight(ctype, seed, npc=npcs[0], allies=tuple(npcs[1:]), minded=True,
                       pcs=("Espen Lind", "Sigrid Berg", "Tone Aas"), stubborn=True)
        gone: set[str] = set()
        for e in events:
            if e.kind in ("out", "comae", "exit"):
                gone.add(e["actor"])
            if e.kind in ("npc_morale", "npc_break") and e.get("clue"):
                friends = {n.name for n in npcs} - gone - {e["actor"]}
                out.append((e.kind, e["clue"], bool(friends)))
    return out


def test_in_an_argument_nobody_runs_or_shouts_for_help():
    clues = _clues("social", range(30), allies=1)
    assert any(kind == "npc_break" for kind, _, _ in clues)
    for _, text, _ in clues:
        assert text in (*SOCIAL_CLUES.values(), DAUNTED_WORDS), text
        assert not any(word in text for word in _FIGHTY), text


def test_in_a_fight_a_call_for_help_is_shouted_only_with_no_friend_at_hand():
    clues = _clues("combat", range(40), allies=1)
    breaks = [(text, friends) for kind, text, friends in clues if kind == "npc_break"]
    assert any(friends for _, friends in breaks)
    for text, friends in breaks:
        assert text == (AMONG_FRIENDS if friends else CLUES["call_for_help"]), (text, friends)


_FLIGHT = re.compile(r"gives? ground|get away|way out|turns to|falls back|towards the", re.IGNORECASE)


def test_a_watchman_who_never_saw_anyone_loses_its_nerve_without_giving_ground():
    """Before (sneaking, a watchman that never saw the ones sneaking past): 'gives ground, eyes flicking towards the
    way out' and then 'turns to get away': a fight's body language, with nobody to give ground to. Sneaking has its
    own clues by the NPC's part: over many conflicts with watchmen whose minds decide (the PCs hide), every clue is
    a watcher's, and none speaks of giving ground or getting away."""
    clues = _clues("sneaking", range(60), allies=1)
    watching = set(PART_CLUES["seeker"].values()) | {PART_AMONG_FRIENDS["seeker"]}
    assert sum(kind == "npc_morale" for kind, _, _ in clues) >= 10 and any(kind == "npc_break" for kind, _, _ in clues)
    for _, text, _ in clues:
        assert text in watching, text
        assert not _FLIGHT.search(text), text


def test_a_hider_s_nerve_shows_in_its_hiding_place_and_a_pursuit_s_parts_are_the_ones_announced():
    """The clues for the other part, and the part a mind reads (ConflictView.part) is the one conflict_start
    announces, whichever side the story says hides."""
    ctype = conflict_type("sneaking")
    for text in PART_CLUES["hider"].values():
        assert not re.search(r"light|watch|post|search", text), text
    assert clue("flee", social=False, friends_here=False, part="hider") == "breaks cover and runs"
    for pursuer in ("a", "b"):
        log = EventLog()
        a = from_character(make_char("Espen Lind", Cunning=50, Awareness=50), "a", ctype)
        b = from_character(_breakable("Torgny"), "b", ctype)
        conflict = Conflict(ctype, [a, b], random.Random(1), sink=log, round_limit=1, fiction={"pursuer": pursuer})
        conflict.run()
        start = next(e for e in log.events if e.kind == "conflict_start")
        announced = {p["id"]: p.get("part") for p in start["participants"]}
        view = ConflictView(conflict)
        assert {p.id: view.part(p) for p in (a, b)} == announced
        assert announced[a.id] == ("hider" if pursuer == "a" else "seeker")


def test_in_a_chase_nobody_stands_or_gives_ground():
    """Before (a foot chase): a quarry, running for its life, 'gives ground, eyes flicking towards the way out', and
    a chaser the same: a fight's body language in a race. A chase has its parts' own clues: over many chases with
    minded NPCs as the quarry (the PCs give chase), every clue is a quarry's, and none a fight's; a chaser's own
    speak of the chase."""
    clues = _clues("foot_chase", range(40), allies=1)
    running = set(PART_CLUES["quarry"].values()) | {PART_AMONG_FRIENDS["quarry"]}
    assert sum(kind == "npc_morale" for kind, _, _ in clues) >= 10
    for _, text, _ in clues:
        assert text in running, text
        assert not re.search(r"gives? ground|holds its ground|towards the way out|lowers its guard", text), text
    chasing = [clue(key, social=False, friends_here=False, part="pursuer") for key in CLUES]
    assert len(set(chasing)) == len(CLUES) and not set(chasing) & set(CLUES.values())
    assert all(re.search(r"chase|quarry|catch|pulls up|closing in|back", text) for text in chasing), chasing


def test_a_clue_names_its_npc_by_pronoun_and_opens_a_sentence_on_the_page():
    """Before (a fiction audit, on screen and in the journal): "Jorunn Dal starts to lag, as if no longer sure it
    wants to catch up." and "*the yard dog has lost its nerve.*". A clue speaks of its NPC only through "its"
    (which is made her, his or their), and the journal's line opens with a capital as the screen's does."""
    from solo.ui.describe import clue as told

    texts = [*CLUES.values(), *SOCIAL_CLUES.values(), *PART_AMONG_FRIENDS.values(),
             *(text for part in PART_CLUES.values() for text in part.values())]
    assert len(texts) > 40
    for text in texts:
        assert not re.search(r"(?<!more of )(?<!\bend )\bit\b", text), text  # ("end it", "no more of it": the fight)
    assert told({"actor": "d", "clue": "starts to lag, as if no longer sure of catching up"}, {"d": "Jorunn Dal"},
                {"d": "she"}) == "Jorunn starts to lag, as if no longer sure of catching up."
    # by the first name the story's lines use ("Signe Falk falters" beside "Signe sets out": a reading of narrated
    # conflicts), unless another goes by it too
    assert told({"actor": "d", "clue": "falters"}, {"d": "Jorunn Dal", "e": "Jorunn Vik"}, {"d": "she"}) == \
        "Jorunn Dal falters."
    assert told({"actor": "d", "clue": "has lost its nerve"}, {"d": "the yard dog"}, {"d": "it"}) == \
        "The yard dog has lost its nerve."


def test_a_surrender_clue_tells_an_offer_the_player_may_still_refuse():
    """'Hallstein gives way.', then 'Hallstein wants to give up: accept, or fight on?' (a new player's party game):
    the clue told the surrender as settled before the player was asked, and a refusal would have belied it. A face
    to face NPC's clue of giving up now tells the offer, in a fight and in an argument, with friends about or not."""
    for social in (False, True):
        for friends_here in (False, True):
            told = clue("surrender", social=social, friends_here=friends_here)
            assert "offers to" in told and not told.endswith(("yields", "gives way")), (social, friends_here, told)
    # nor a quarry's, whom the pursuers are asked about in turn ("Aron Lie stops and gives up.", then the question:
    # a new player's chase through the fish market)
    told = clue("surrender", social=False, friends_here=False, part="quarry")
    assert "ready to give up" in told and "stops" not in told


def test_solo_duel_explain_says_one_whose_nerve_broke_in_an_argument_walks_away():
    """``solo duel --explain`` gives each decision its reason: of an NPC whose nerve broke in an argument it said
    "its nerve broke: it runs" or "it calls for help and falls back", where the screen says the one who leaves an
    argument walks away (the review)."""
    reasons = {}
    for seed in range(30):
        npcs = [_breakable(n) for n in ("Torgny", "Hallstein")]
        for e in fight("social", seed, npc=npcs[0], allies=tuple(npcs[1:]), minded=True,
                       pcs=("Espen Lind", "Sigrid Berg", "Tone Aas"), stubborn=True):
            if e.kind == "npc_break":
                reasons[e["reaction"]] = e["reason"]
    assert reasons and all(not re.search(r"\bruns\b|falls back|mercy", why) for why in reasons.values()), reasons
    assert reasons.get("call_for_help") == "her nerve broke: she looks for support, then walks away"  # (a "she")


def _shown_both_ways(events):
    """(the screen, the journal, a clue event's sentence as both say it) of one conflict's events."""
    import io

    from rich.console import Console

    from solo.ui import describe as d
    from solo.ui.journal import Journal
    from solo.ui.view import TerminalView

    journal, out = Journal(), io.StringIO()
    view = TerminalView(Console(file=out, width=200, color_system=None))
    for e in events:
        journal.render(e)
        view.render(e)
    names, _, _, pronouns, _ = d.conflict_facts(next(e for e in events if e.kind == "conflict_start"))
    return out.getvalue(), journal.text(), lambda e: d.upper_first(d.clue(e, names, pronouns))


def test_the_journal_tells_the_clues_the_screen_shows_and_no_other():
    """The tutorial's journal read "Signe Falk has lost her nerve." where the screen showed only "Signe Falk offers a
    deal to end it." (a new player's run): a nerve that breaks is told by its break's clue, on both."""
    npcs = [_breakable(n) for n in ("Torgny", "Hallstein")]
    told = broke = 0
    for seed in range(12):
        events = fight("combat", seed, npc=npcs[0], allies=tuple(npcs[1:]), minded=True,
                       pcs=("Espen Lind", "Sigrid Berg", "Tone Aas"), stubborn=True)
        screen, journal, clue_of = _shown_both_ways(events)
        for e in events:
            if e.kind in ("npc_morale", "npc_break") and e.get("clue"):
                said = clue_of(e)
                on_screen, in_journal = f"  {said}" in screen, f"- *{said}*" in journal
                assert on_screen is in_journal, (seed, said, on_screen, in_journal)
                told += on_screen
                broke += e.kind == "npc_morale" and e["after"] == "broken"
    assert told >= 10 and broke >= 4


def test_a_nerve_that_breaks_into_fighting_on_is_told_as_any_break_is():
    """The review: a nerve that breaks is told by its break's clue (the morale check's "has lost its nerve" is
    not), and one whose break is to fight on had no break event, so it was told nowhere. It has one now, with its
    clue, on screen and in the journal."""
    npc = _npc("Grim", code_block={"personality": ["Shy", "Bitter"], "motivation": ["Faith"],
                                   "disposition": "Neutral",
                                   "event": {"topic": "Health", "sign": "negative", "example": "a bad knee"}})
    events = fight("combat", 20, npc=npc, minded=True, pcs=("Espen Lind", "Sigrid Berg"), stubborn=True)
    broke = [e for e in events if e.kind == "npc_morale" and e["after"] == "broken"]
    (told,) = [e for e in events if e.kind == "npc_break"]
    assert broke and told["reaction"] == "fight_on" and told["exit"] is None
    screen, journal, clue_of = _shown_both_ways(events)
    said = clue_of(told)
    assert "cornered" in said and said in screen and f"- *{said}*" in journal


def test_a_shake_before_the_first_roll_is_told_as_the_odds_not_as_faltering():
    """A reading of Kaldskard's outlaw fire: "Hallstein falters, and starts looking for a way out of the argument."
    as the first line of round 1, before anyone had said a word, and then he argued ten rounds unmoved. Three to
    one, his nerve may shake at the odds alone; that is told as the odds."""
    first, later = set(), set()
    for seed in range(20):
        for pcs in (("Espen Lind", "Sigrid Berg", "Tone Aas"), ("Espen Lind",)):  # three to one, then one to one
            events = fight("social", seed, npc=_breakable("Hallstein"), minded=True, pcs=pcs, stubborn=True)
            for e in events:
                if e.kind == "npc_morale" and e["after"] == "shaken":
                    odds_alone = e["round"] <= 1 and set(e["triggers"]) <= {"outnumbered", "hopeless"}
                    (first if odds_alone else later).add(e["clue"])
    assert first == {DAUNTED_WORDS}
    assert later == {SOCIAL_CLUES["shaken"]}  # shaken by what happened: it falters


def test_a_shaken_nerve_that_steadies_says_so():
    """A review: a shaken NPC whose fight turned its way (RECOVER_AT) steadied without a word, so the screen's last
    word on it stayed its faltering and the narration kept it shaken, told unruffled by no bearing, for good. Its
    recovery is an ``npc_morale`` event too, from shaken to steady, with the clue of a steady nerve."""
    from solo.minds.morale import RECOVERED, STEADY

    steadied = []
    for seed in range(80):
        for ctype in ("combat", "social"):
            events = fight(ctype, seed, npc=_breakable("Knut"), minded=True, pcs=("Espen Lind",), stubborn=False)
            steadied += [e for e in events if e.kind == "npc_morale" and e["before"] == "shaken"
                         and e["after"] == "steady"]
    assert steadied
    for e in steadied:
        assert e["triggers"] == [RECOVERED] and not e["failed"] and e["clue"] == CLUES[STEADY]

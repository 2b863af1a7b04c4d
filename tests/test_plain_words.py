"""What a new user read that was not plain English, or said more than the dice did (issue 32): a motivation after
"wants", a Willpower Focus and a Tag of a random character, the item a Luck Point finds, a Focus the roll did not
count, and an exceptional success that lost a round."""

from __future__ import annotations

import contextlib
import re

import pytest
from conftest import Answers, LoadedDice, make_char

from solo.events import EventLog
from solo.narration.text import with_article_if_one
from solo.npc.tables import codeblocks
from solo.rules.character import Character, willpower_aim
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character
from solo.rules.rulebook import load_rules, rules
from solo.ui.describe import motive_words, npc_met, round_result, skill_roll

# -- motivations ------------------------------------------------------------------------------------------


def met(*motivations: str) -> str:
    return npc_met({"name": "Viggo Hovland", "role": "Soldier", "reaction": "neutral",
                    "code_block": {"personality": ["Lying", "Irritating"], "motivation": list(motivations)}})


@pytest.mark.parametrize("name", list(codeblocks().motivations))
def test_every_motivation_reads_as_english_after_wants(name):
    drive = codeblocks().motivations[name]
    line = met(name)
    assert drive.says and f"; wants {drive.says})" in line, line
    # "wants enjoy life", "wants circle", "wants altruism": the bare name is not the phrase (Money is both)
    assert name == "Money" or f"wants {name.lower()}" not in line
    assert drive.says[:3] == "to " or drive.says.split()[0] in ("money", "the", "an"), drive.says


def test_two_motivations_share_one_wants():
    assert met("Money", "Status").endswith("(lying, irritating; wants money and to be admired). The reaction: "
                                           "neutral.")


def test_a_motivation_without_words_is_named_as_a_drive():
    """A table file of the player's own may give a motivation no ``says``: the line names it, as English."""
    assert motive_words(["Revenge"]) == "driven by revenge"
    assert motive_words(["Altruism", "Revenge"]) == "wants to help others; driven by revenge"


def test_a_motivation_file_may_leave_out_says(tmp_path):
    from solo.npc.tables import load_codeblocks
    from solo.paths import bundled

    text = (bundled("oracles") / "codeblocks.toml").read_text(encoding="utf-8")
    file = tmp_path / "codeblocks.toml"
    file.write_text(text.replace('says = "to help others"\n', ""), encoding="utf-8")
    tables = load_codeblocks(file)
    assert tables.motivations["Altruism"].says == "" and tables.motivations["Faith"].says


# -- random characters: Willpower Focus and Tags ----------------------------------------------------------


def test_every_willpower_focus_reads_as_english():
    t = rules()
    aims = {who: willpower_aim({"who": who, "verb": "Find"}) for who in t.persons + t.circles}
    assert aims["Prison"] == "find your fellow inmates" and aims["Religion"] == "find your fellow believers"
    assert aims["Sibling"] == "find your sibling" and aims["Gang"] == "find your gang"
    assert willpower_aim({"who": "Business", "verb": "Be Loyal to"}) == "be loyal to your business partners"
    assert aims["Hospital"] == "find the people of your hospital" and aims["University"] == "find your fellow students"
    for odd in ("Prison", "Hospital", "Religion", "University", "Business"):  # "find your prison" and the like
        assert aims[odd] != f"find your {odd.lower()}"


def test_willpower_words_must_name_a_person_or_circle(tmp_path):
    import shutil

    from solo.errors import ContentError
    from solo.rules.rulebook import DATA_DIR

    folder = tmp_path / "rules"
    shutil.copytree(DATA_DIR, folder)
    with (folder / "willpower.toml").open("a", encoding="utf-8") as f:
        f.write('Prisn = "your cellmates"\n')
    with pytest.raises(ContentError, match="Prisn"):
        load_rules(folder)


def test_the_tag_is_headquarters_and_an_old_file_still_loads():
    assert "Headquarters" in rules().tags and "Headquarter" not in rules().tags
    data = make_char("Ola").to_dict()
    data["tags"] = ["Headquarter", "Contact"]
    data["tag_notes"] = {"Headquarter": "a boathouse"}
    char = Character.from_dict(data)
    assert char.tags == ["Headquarters", "Contact"] and char.tag_notes == {"Headquarters": "a boathouse"}


# -- a Luck Point finds an item ---------------------------------------------------------------------------


@pytest.mark.parametrize("item,words", [("umbrella", "an umbrella"), ("rope", "a rope"), ("old map", "an old map"),
                                        ("lock picks", "lock picks"), ("pair of gloves", "a pair of gloves"),
                                        ("some chalk", "some chalk"), ("2 torches", "2 torches")])
def test_the_item_found_reads_with_its_article(item, words):
    assert with_article_if_one(item) == words


# -- a roll names the Focus that counted ------------------------------------------------------------------


def roll(focus, modifiers):
    return skill_roll({"actor": "Espen Lind", "skill": "Cunning", "focus": focus, "target": 30, "roll": 17,
                       "modifiers": modifiers, "success": True, "exceptional": False})


def test_a_focus_the_roller_lacks_is_not_named():
    assert roll("Stealth", []) == "Espen Lind rolls Cunning: 17 against 30: success."


def test_a_focus_that_counted_is_named_with_its_bonus():
    assert roll(["Stealth", "Disguise"], [["//Disguise", 20]]) == \
        "Espen Lind rolls Cunning //Disguise: 17 against 30 (//Disguise +20): success."


def test_a_similar_focus_is_shown_as_the_modifier_it_is():
    assert roll("Stealth", [["//Disguise (similar)", 10]]) == \
        "Espen Lind rolls Cunning: 17 against 30 (//Disguise (similar) +10): success."


# -- an exceptional success that loses a round ------------------------------------------------------------


def test_an_exceptional_success_beaten_by_a_higher_one_is_explained():
    """Espen's exceptional 22 against Signe's plain 48: the higher success wins, and the round says why."""
    combat = conflict_type("combat")
    espen, signe = make_char("Espen", Combat=30), make_char("Signe", level="common", Combat=60)
    for char in (espen, signe):
        char.weapon = "short_sword"
    log = EventLog()
    a = from_character(espen, "a", combat, decider=Answers(lens="none", luck_flip="no", luck_reduce="no"))
    b = from_character(signe, "b", combat)
    Conflict(combat, [a, b], LoadedDice([48, 22, 3]), sink=log, round_limit=1).run()
    result = log.of("round_result")[0]
    assert result["winner"] == "Signe" and result["outdone"] == ["Espen"]
    assert round_result(result, {}) == ("Signe wins round 1: the higher success wins, and Espen's exceptional 22 "
                                        "does not beat a higher roll.")


def test_a_round_with_no_exceptional_loser_says_only_the_rule():
    e = {"round": 3, "stalemate": False, "winner": "b1", "successes": 2, "outdone": [], "rolls": {"a1": 12, "b1": 40}}
    assert round_result(e, {"b1": "Signe Falk"}) == "Signe Falk wins round 3: the higher success."


def test_an_allys_double_outdone_by_its_own_side_is_not_explained_as_a_loss():
    """A party of two against one: when one PC's exceptional success is beaten by the other PC's higher one, the
    party won the round, so nothing is explained (a Kaldskard transcript once said the winner's ally 'does not
    beat a higher roll'). Only the losing side's doubles are named, and across these seeds both cases occur."""
    import random

    social = conflict_type("social")
    same_side = other_side = 0
    for seed in range(60):
        pcs = [make_char(n, Social=70) for n in ("Alma", "Jonas")]
        ragna = make_char("Ragna", level="common", Social=70)
        log = EventLog()
        parts = [from_character(pc, "a", social) for pc in pcs] + [from_character(ragna, "b", social)]
        Conflict(social, parts, random.Random(seed), sink=log, round_limit=6).run()
        for e in log.of("round_result"):
            if e["winner"] is None:
                continue
            side = {p.id: p.side for p in parts}
            for k in e["outdone"]:
                assert side[k] != e["side"], e
            doubles = [k for k, r in e["rolls"].items() if k != e["winner"] and r % 11 == 0 and r <= 70 and r != 0]
            same_side += any(side[k] == e["side"] for k in doubles)
            other_side += any(side[k] != e["side"] for k in doubles)
    assert same_side and other_side  # the seeds hold both cases, so the test can fail


def test_a_blow_bigger_than_the_pool_left_says_the_pool_stops_at_zero():
    """'deals 2 to Rune's BODY (halved): 1 -> 0' lost one point the reader could not account for (new-user run):
    a Pool that is not pushed stops at 0, and the line says so only where that swallowed some of the blow."""
    from solo.ui.describe import damage

    names = {"a": "Espen", "b": "Rune"}
    blow = {"actor": "a", "target": "b", "pool": "BODY", "halved": True, "first": 4, "second": None}
    assert damage({**blow, "amount": 2, "before": 1, "after": 0, "may_push": True}, names) == \
        "Rune loses 2 BODY (halved), more than the 1 left: it stops at 0 unless pushed on."
    assert damage({**blow, "amount": 2, "before": 1, "after": 0}, names) == \
        "Rune loses 2 BODY (halved), more than the 1 left: it stops at 0."  # one who cannot push: it does
    assert damage({**blow, "amount": 2, "before": 2, "after": 0}, names) == "Rune loses 2 BODY (halved): 0 left."
    assert damage({**blow, "amount": 2, "before": 1, "after": -1}, names).endswith(": now at -1.")  # pushing on


def test_a_blow_is_worded_for_a_player_not_as_a_log():
    """"deals 2 to Jonas Nygaard's CHA (halved): 14 -> 12." and "the barrow-field's BODY/POW (halved): 1 -> 0 (it
    stops at 0)." read like a debug log: who loses how much of which Pool, and what is left of how much."""
    from solo.ui.describe import damage

    names = {"ylva": "Ylva Falk", "jonas": "Jonas Nygaard", "espen": "Espen Lind", "field": "the barrow-field"}
    blow = {"actor": "ylva", "target": "jonas", "pool": "CHA", "halved": True, "first": 4, "second": None,
            "amount": 2, "before": 14, "after": 12, "maximum": 16}
    assert damage(blow, names) == "Jonas Nygaard loses 2 CHA (halved): 12 left of 16."
    field = {**blow, "actor": "espen", "target": "field", "pool": "BODY/POW", "before": 1, "after": 0, "maximum": 9}
    assert damage(field, names, obstacles=frozenset({"field"})) == \
        "the barrow-field gives way by 2 (halved), more than the 1 left: it stops at 0 of 9."
    nothing = {**blow, "amount": 0, "after": 14, "armour": 2}
    assert damage(nothing, names) == "Jonas Nygaard loses no CHA (-2 armour, halved): 14 left of 16."
    assert not any(" -> " in damage(e, names) or "deals" in damage(e, names) for e in (blow, field, nothing))


def test_a_blow_names_the_die_it_was_rolled_with():
    """'Espen Lind loses 5 CHA: 9 left of 14.' left the player to guess what was rolled: the line names the die and
    its face, and both faces where it was rolled twice (Aggressive, Clever's edge)."""
    from solo.ui.describe import damage

    names = {"h": "Halvard Brekke", "e": "Espen Lind"}
    blow = {"actor": "h", "target": "e", "pool": "CHA", "dice": "1d6", "first": 5, "second": None, "amount": 5,
            "before": 14, "after": 9, "maximum": 14}
    assert damage(blow, names) == "Espen Lind loses 5 CHA (1d6: 5): 9 left of 14."
    twice = {**blow, "dice": "1d3", "first": 1, "second": 1, "amount": 1, "after": 13}
    assert damage(twice, names) == "Espen Lind loses 1 CHA (1d3 twice: 1 on both): 13 left of 14."
    best = {**blow, "second": 2, "bonus": 1, "amount": 6, "after": 8}
    assert damage(best, names) == "Espen Lind loses 6 CHA (1d6 twice: best of 5 and 2, +1 gear): 8 left of 14."
    halved = {**blow, "first": 3, "halved": True, "amount": 2, "after": 12}
    assert damage(halved, names) == "Espen Lind loses 2 CHA (1d6: 3, halved): 12 left of 14."


def test_a_flip_in_a_story_roll_says_what_it_made_of_the_roll():
    """'☘ Espen Lind spends a Luck Point and flips 95 to 59.' came straight after '95 against 60: failure' and
    before the story went on: the flip says what the roll now is. In a conflict the round's row says it."""
    from solo.ui.describe import luck

    flip = {"actor": "Espen Lind", "use": "flip", "before": 95, "after": 59, "luck": 1}
    assert luck({**flip, "success": True, "exceptional": False}) == \
        "Espen Lind spends a Luck Point and flips 95 to 59: a success."
    assert luck({**flip, "before": 44, "after": 44, "success": True, "exceptional": True}).endswith(
        "flips 44 to 44: an exceptional success.")
    assert luck(flip) == "Espen Lind spends a Luck Point and flips 95 to 59."  # a conflict's: its row says it



def test_a_story_flip_offer_says_what_the_flip_wins():
    """'Spend a Luck Point to flip 72 into 27?' at the tutorial's gangway left the player to work out whether 27
    beat the guard's 10; a conflict's offer says 'and win the round'. A story roll's says 'and succeed', an
    opposed roll's 'and win the opposed roll' (a flip is offered only where it does)."""
    from conftest import Answers

    from solo.decisions import QuestionError
    from solo.rules.creation import pregenerated
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game

    adventure = load_adventure(find_adventure("tutorial"))
    offers = []
    for seed in range(40):
        decider = Answers(choice=["c2", "c2"], luck_flip="no")  # talk past the guard, then insist: opposed rolls
        game = Game(adventure, seed=seed, decider=decider, sink=lambda e: None, party=[pregenerated("espen")])
        with contextlib.suppress(AssertionError, QuestionError):  # past the guard's rolls: done
            game.play()
        offers += [q.prompt for q in decider.asked if q.kind == "luck_flip"]
    said = [re.fullmatch(r"Spend a Luck Point to flip \d\d into \d\d and (succeed|win the opposed roll)\? You would "
                         r"have .* left\.", prompt) for prompt in offers]
    assert all(said), offers
    assert {m[1] for m in said} == {"win the opposed roll"} and len(said) >= 3


def test_the_engine_says_who_may_push_on_where_a_blow_passes_zero():
    """A hot-seat group: "loses 6 BODY …, more than the 4 left: it stops at 0 of 12", then "Push on at -2". The blow
    is said to stop at 0 only of one who cannot push on; a PC may, and its line says so."""
    from test_narration_fiction import fight

    marked: dict[bool, set[bool]] = {True: set(), False: set()}
    for seed in range(30):
        for e in fight("combat", seed, stubborn=True):
            if e.kind == "damage" and e["before"] - e["amount"] < 0:
                marked[e["target"] == "Espen Lind"].add(bool(e.get("may_push")))
    assert marked == {True: {True}, False: {False}}

"""Numbers where the player reads numbers, as the rules read them: a target below 1 is one that cannot succeed
(docs/rules.md §3), never "73 / -10"; Luck that took a blow down to 1 is said once, by the Luck line."""

from __future__ import annotations

import io

from rich.console import Console

from solo.events import Event
from solo.rules.dice import roll_against, target_text
from solo.ui import describe as d
from solo.ui.journal import Journal
from solo.ui.view import TerminalView


def test_a_target_below_one_reads_as_one_that_cannot_succeed():
    assert target_text(50) == "50" and target_text(1) == "1" and target_text(120) == "120"
    assert target_text(0) == target_text(-10) == "0 (cannot succeed)"
    assert roll_against(37, 50, "Social 30 · //Influence +20") == "37 against 50 = Social 30 · //Influence +20"
    assert roll_against(22, -10, "Social 30 · Aggressive -20 · Unfriendly -20") == (
        "22 against 0 (cannot succeed: Social 30 · Aggressive -20 · Unfriendly -20 = -10)")
    assert roll_against(5, 0) == "05 against 0 (cannot succeed)"


ROLL = {"round": 1, "actor": "jonas", "skill": "Social", "base": 30, "target": -10, "roll": 73, "success": False,
        "exceptional": False, "lens": "aggressive", "modifiers": [["Torgny is Unfriendly", -20], ["Aggressive", -20]]}


def _screen(*events: Event) -> str:
    out = io.StringIO()
    view = TerminalView(Console(file=out, width=120, color_system=None))
    view.names = {"jonas": "Jonas Nygaard", "torgny": "Torgny"}
    for event in events:
        view.render(event)
    view.before_question()  # the round table goes up before a question
    return out.getvalue()


def test_the_round_table_and_the_journal_never_show_a_negative_target():
    """'73 / -10' on the round table, '22 against -10' in the journal: both read the target through one function."""
    screen = _screen(Event("roll", ROLL), Event("round_rolled", {"round": 1}))
    assert "73 / 0 (cannot succeed)" in screen and "/ -10" not in screen
    line = d.conflict_roll(ROLL, {"jonas": "Jonas Nygaard"})
    assert "against -10" not in line and "73 against 0 (cannot succeed:" in line and "= -10)" in line
    skill = d.skill_roll({"actor": "Jonas", "skill": "Tech", "target": -5, "roll": 3, "success": False,
                          "exceptional": False})
    assert "03 against 0 (cannot succeed): failure." in skill
    journal = Journal()
    journal.render(Event("leave_attempt", {"actor": "jonas", "roll": 40, "target": -15, "success": False}))
    assert "40 against 0 (cannot succeed): caught" in journal.text()


def test_luck_that_takes_a_blow_to_one_is_said_once():
    """'(Luck: 1)' in the blow's line repeated the Luck line before it, beside parts that no longer add up."""
    luck = {"actor": "Espen", "use": "reduce_damage", "before": 5, "after": 1, "luck": 1}
    blow = {"actor": "signe", "target": "espen", "amount": 1, "pool": "BODY", "before": 6, "after": 5, "maximum": 12,
            "first": 3, "second": 4, "bonus": 1, "armour": 0, "halved": False, "reduced": True}
    assert d.luck(luck) == "Espen spends a Luck Point: 5 damage becomes 1."
    line = d.damage(blow, {"signe": "Signe", "espen": "Espen"})
    assert line == "Espen loses 1 BODY: 5 left of 12."
    assert "(best of 3 and 4, +1 gear)" in d.damage({**blow, "reduced": False, "amount": 5}, {})
    # two dice alike: said once, not as a choice between them
    assert "(3 on both dice, +1 gear)" in d.damage({**blow, "reduced": False, "amount": 4, "second": 3}, {})


def test_an_obstacle_gives_way_and_loses_no_pool_of_its_own():
    """'The blizzard loses 5 POW' (a new player's run): a blizzard or a lock has no POW to lose."""
    blow = {"actor": "idun", "target": "blizzard", "amount": 3, "pool": "POW", "before": 5, "after": 2, "maximum": 5,
            "dice": "1d6", "first": 6, "halved": True}
    start = [{"id": "idun", "name": "Idun"}, {"id": "blizzard", "name": "the blizzard", "obstacle": True},
             {"id": "records", "name": "the parish records", "obstacle": True, "pronoun": "they"}]
    names, plural, walls = {p["id"]: p["name"] for p in start}, d.plural_names(start), d.obstacle_ids(start)
    assert d.damage(blow, names, plural, walls) == "the blizzard gives way by 3 (1d6: 6, halved): 2 left of 5."
    assert d.damage({**blow, "target": "records"}, names, plural, walls).startswith("the parish records give way")
    person = d.damage({**blow, "target": "idun"}, names, plural, walls)
    assert person == "Idun loses 3 POW (1d6: 6, halved): 2 left of 5."


def test_a_combined_pool_says_it_is_an_average_on_the_table_and_in_the_journal():
    """'BODY/POW … Sigrid 13/13' on a sneak's table, beside a sheet with BODY 16 and POW 10 (a new player's run): a
    person's Pool in a conflict on two Pools is their average (docs/rules.md §5.3, "Combined Pools"), and says so;
    an obstacle's Pool is its own size, and a conflict on one Pool is named as before."""
    people = [{"id": "sigrid", "name": "Sigrid", "side": "a", "pool": 13, "pool_max": 13, "target": 45,
               "obstacle": False, "pc": True},
              {"id": "field", "name": "the barrow-field", "side": "b", "pool": 5, "pool_max": 5, "target": 30,
               "obstacle": True, "pc": False}]
    start = Event("conflict_start", {"type": "sneaking", "type_name": "Sneaking", "pool_name": "BODY/POW",
                                     "participants": people, "round_limit": 6})
    screen = _screen(start)
    assert "BODY/POW average" in screen
    journal = Journal()
    journal.render(start)
    assert "Sigrid (45 %, BODY/POW average 13)" in journal.text()
    assert "the barrow-field (30 %, BODY/POW 5)" in journal.text()
    assert d.pool_heading("BODY") == "BODY" and d.pool_heading("CHA", obstacle=True) == "CHA"


def test_comae_is_said_with_what_it_means():
    """'Espen Lind falls into comae.' read like a typo of 'coma' to a new player: the screen and the journal say
    what it is, in the rules' words (out of the scenario)."""
    comae = Event("comae", {"round": 3, "actor": "jonas"})
    assert "Jonas Nygaard falls into comae, out of the scenario." in _screen(comae)
    journal = Journal()
    journal.names = {"jonas": "Jonas Nygaard"}
    journal.render(comae)
    assert "Jonas Nygaard falls into comae, out of the scenario." in journal.text()


def test_a_written_scene_the_oracle_leaves_alone_is_not_said_to_be_what_the_player_expected():
    """'The scene begins as you expected.' in Kaldskard, where nobody asked the player what they expected (a new
    player's run): an adventure's scene is expected as written; open play asks, and keeps the words."""
    assert d.scene_setup({"kind": "expected", "written": True}) == ""  # a written scene, unchanged: nothing to say
    assert d.scene_setup({"kind": "expected"}) == "The scene begins as you expected."

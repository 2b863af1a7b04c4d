"""NPC stats by level (docs/rules.md §7.1), the generator, and the NPC file format."""

from __future__ import annotations

import random

import pytest

from solo.errors import ContentError
from solo.npc import (
    LEVELS,
    NPC,
    NPCError,
    generate_npc,
    level_named,
    level_pools,
    level_problems,
    level_skills,
    load_roles,
    role_named,
)
from solo.npc.roles import roles
from solo.rules.character import Character, skill_target
from solo.rules.rulebook import POOLS, rules
from solo.toml_files import loads_toml
from solo.toml_write import dumps


def test_level_table():
    assert (LEVELS["common"].skills, LEVELS["common"].pools) == ((50, 30, 30), (6, 6, 8, 10))
    assert (LEVELS["skilled"].skills, LEVELS["skilled"].pools) == ((70, 50, 50), (6, 8, 10, 12))
    assert (LEVELS["master"].skills, LEVELS["master"].pools) == ((90, 70, 70), (10, 12, 14, 16))
    assert [LEVELS[k].can_push for k in LEVELS] == [False, False, True]
    assert [LEVELS[k].uses_lenses for k in LEVELS] == [False, True, True]
    assert LEVELS["skilled"].focuses == (1, 1) and LEVELS["master"].focuses == (1, 3)
    assert LEVELS["skilled"].tags == (1, 1) and LEVELS["common"].tags == (0, 0)


def test_level_names_and_tiers():
    assert [level_named(n).key for n in ("Common", "minion", "minor", "moderate", "MAJOR", " master ")] == [
        "common", "common", "common", "skilled", "master", "master"]
    with pytest.raises(NPCError, match="unknown NPC level 'boss'"):
        level_named("boss")


def test_level_skills_and_pools():
    skills = level_skills("skilled", ["Social", "Knowledge", "Awareness"])
    assert skills["Social"] == 70 and skills["Knowledge"] == 50 and skills["Awareness"] == 50
    assert sum(1 for v in skills.values() if v == 5) == 6
    assert level_pools("common", ["Combat", "Move", "Cunning"]) == {"BODY": 10, "INT": 8, "POW": 6, "CHA": 6}
    assert level_pools("master", ["Social", "Knowledge", "Awareness"]) == {"BODY": 10, "INT": 14, "POW": 12, "CHA": 16}
    assert level_pools("skilled", []) == {"BODY": 12, "INT": 8, "POW": 10, "CHA": 6}
    with pytest.raises(NPCError):
        level_skills("common", ["Combat", "Combat"])


@pytest.mark.parametrize("level", ["common", "skilled", "master"])
def test_generated_npcs_are_valid_for_seeds_1_to_200(level):
    t = rules()
    for seed in range(1, 201):
        npc = generate_npc(random.Random(seed), level, antagonist=seed % 3 == 0, mindless=seed % 10 == 0)
        assert level_problems(npc) == [], (seed, level_problems(npc))
        assert npc.level == level and npc.luck == 0
        assert npc.can_push is (level == "master")
        assert npc.uses_lenses is (level != "common")
        for key in npc.focuses:
            skill, focus = key.split("//")
            assert focus in t.skills[skill].focuses and npc.focuses[key] == 20
        assert len(set(npc.tags)) == len(npc.tags) and all(tag in t.tags for tag in npc.tags)
        assert ("Gear" in npc.tags) == (npc.gear_bonus > 0) and 0 <= npc.gear_bonus <= 3
        for key, table in (("weapon", t.weapons), ("armour", t.armour), ("shield", t.shields)):
            assert getattr(npc, key) is None or getattr(npc, key) in table
        if npc.mindless:
            assert npc.code_block is None and npc.pronoun == "it"
        else:
            assert npc.code_block is not None
            assert npc.code_block.antagonist is (seed % 3 == 0)
        again = NPC.from_dict(npc.to_dict())
        assert again == npc and isinstance(again, NPC)


def test_reproducible_per_seed():
    for seed in (1, 2, 99):
        a = generate_npc(random.Random(seed), "master", True)
        b = generate_npc(random.Random(seed), "master", True)
        assert a.to_dict() == b.to_dict()
    names = {generate_npc(random.Random(s)).name for s in range(40)}
    assert len(names) > 20


def test_role_and_mindless_choices():
    thug = generate_npc(random.Random(1), "skilled", role="thug")
    assert thug.role == "Thug" and thug.skills["Combat"] == 70 and "Combat//Melee" in thug.focuses
    assert thug.pools["BODY"].maximum == 12
    draugr = generate_npc(random.Random(1), role="Draugr")
    assert draugr.mindless and draugr.code_block is None and draugr.name == "Draugr"
    assert all(generate_npc(random.Random(s), mindless=True).mindless for s in range(20))
    assert not any(generate_npc(random.Random(s)).mindless for s in range(50))
    with pytest.raises(NPCError, match="unknown role 'pirate'"):
        generate_npc(random.Random(1), role="pirate")


def test_focus_counts_follow_the_level():
    master_counts = {len(generate_npc(random.Random(s), "master").focuses) for s in range(60)}
    assert master_counts == {1, 2, 3}
    assert {len(generate_npc(random.Random(s), "skilled").focuses) for s in range(30)} == {1}
    assert {len(generate_npc(random.Random(s), "common").focuses) for s in range(30)} == {0}
    assert {len(generate_npc(random.Random(s), "master").tags) for s in range(60)} == {2, 3}


def test_npc_is_a_character_for_the_rules():
    npc = generate_npc(random.Random(4), "skilled", role="guard")
    assert isinstance(npc, Character) and not npc.is_pc
    target, mods = skill_target(npc, "Combat", "Melee")
    assert target == 90 and mods[0].name == "//Melee"


def test_bundled_roles_cover_both_kinds():
    table = roles()
    assert any(r.mindless for r in table.values()) and sum(not r.mindless for r in table.values()) >= 10
    assert role_named("sentry automaton").key == "automaton"


def test_bad_roles_file_is_refused(tmp_path):
    path = tmp_path / "roles.toml"
    path.write_text('[roles.x]\nname = "X"\ndescription = "y"\nskills = ["Combat//Sword"]\n', encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_roles(path)
    assert info.value.path == "roles.x.skills[0]" and "not a Focus of Combat" in str(info.value)


# -- the NPC file format ---------------------------------------------------------

MINIMAL = {
    "name": "Brakk", "level": "skilled", "role": "Bandit chief", "skills": ["Combat", "Move", "Cunning"],
    "weapon": "Axe", "armour": "light",
    "code_block": {"personality": ["Aggressive"], "dark_triad": ["Sadistic"], "disposition": "Unfriendly",
                   "motivation": ["Money"], "event": {"topic": "Money", "sign": "negative", "example": "robbed"}},
}


def test_author_shortcuts_fill_from_the_level():
    npc = NPC.from_dict(MINIMAL)
    assert npc.skills["Combat"] == 70 and npc.skills["Move"] == 50 and npc.skills["Cunning"] == 50
    assert {p: npc.pools[p].maximum for p in POOLS} == {"BODY": 12, "INT": 10, "POW": 8, "CHA": 6}
    assert npc.weapon == "axe" and npc.luck == 0 and npc.code_block.disposition == "Unfriendly"
    assert level_problems(npc) == ["0 Focuses, a skilled NPC has 1–1", "0 Tags, a skilled NPC has 1–1"]


def test_level_defaults_to_common_and_accepts_tiers():
    assert NPC.from_dict({**MINIMAL, "level": "minion"}).level == "common"
    data = dict(MINIMAL)
    del data["level"]
    npc = NPC.from_dict(data)
    assert npc.level == "common" and npc.skills["Combat"] == 50


def test_toml_round_trip_through_the_writer():
    for seed in range(1, 30):
        npc = generate_npc(random.Random(seed), ("common", "skilled", "master")[seed % 3], seed % 2 == 0,
                           mindless=seed % 7 == 0)
        text = dumps(npc.to_dict())
        assert NPC.from_dict(loads_toml(text)) == npc


def test_copy_keeps_the_type_and_is_independent():
    npc = NPC.from_dict(MINIMAL)
    twin = npc.copy()
    assert isinstance(twin, NPC) and twin == npc
    twin.code_block.disposition = "Friendly"
    twin.pools["BODY"].current = 1
    assert npc.code_block.disposition == "Unfriendly" and npc.pools["BODY"].current == 12


def test_rolled_code_block_in_a_file():
    data = {"name": "Tess", "code_block": {"personality": ["random", "random"], "motivation": ["random"],
                                          "event": "random"}}
    a = NPC.from_dict(data, rng=random.Random(8))
    b = NPC.from_dict(data, rng=random.Random(8))
    assert a == b and a.code_block is not None
    no_block = NPC.from_dict({"name": "Tess"}, rng=random.Random(8))
    assert no_block.code_block is not None and no_block.code_block.disposition == "Neutral"


def test_mindless_file_needs_no_code_block():
    npc = NPC.from_dict({"name": "Draugr", "mindless": True, "skills": ["Combat"], "pronoun": "it"})
    assert npc.code_block is None and npc.leanings().mindless
    assert "code_block" not in npc.to_dict() and npc.to_dict()["mindless"] is True


@pytest.mark.parametrize("change,where,says", [
    ({"code_block": None}, "code_block", "needs a random generator"),
    ({"levle": "master"}, "levle", "did you mean 'level'"),
    ({"level": "boss"}, "level", "unknown NPC level"),
    ({"skills": ["Combat", "Sword"]}, "skills[1]", "unknown skill 'Sword'"),
    ({"skills": ["Combat", "Move", "Cunning", "Tech"]}, "skills", "one to 3 skills"),
    ({"skills": {"Combat": 300}}, "skills.Combat", "out of range"),
    ({"mindless": "yes"}, "mindless", "true or false"),
    ({"role": 7}, "role", "expected text"),
    ({"weapon": "banana"}, "weapon", "unknown weapon"),
    ({"code_block": {**MINIMAL["code_block"], "motivation": ["Greed"]}}, "code_block.motivation[0]",
     "unknown motivation 'Greed'"),
])
def test_bad_npc_files_name_the_field(change, where, says):
    data = {**MINIMAL, **change}
    if data.get("code_block") is None:
        del data["code_block"]
    with pytest.raises(ContentError) as info:
        NPC.from_dict(data, file="brakk.toml")
    assert info.value.path == where and info.value.file == "brakk.toml"
    assert says in str(info.value)


def test_role_main_skill_needs_a_focus(tmp_path):
    path = tmp_path / "roles.toml"
    path.write_text('[roles.monk]\nname = "Monk"\ndescription = "y"\nskills = ["Willpower", "Social"]\n',
                    encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_roles(path)
    assert info.value.path == "roles.monk.skills[0]"


def test_generator_options_for_the_code_block():
    npc = generate_npc(random.Random(3), disposition="Malicious", motivations=2)
    assert npc.code_block.disposition == "Malicious" and len(set(npc.code_block.motivation)) == 2
    with pytest.raises(NPCError, match="unknown disposition"):
        generate_npc(random.Random(3), disposition="Smitten")
    with pytest.raises(NPCError, match="one or two"):
        generate_npc(random.Random(3), motivations=3)


def test_a_creature_named_after_its_role_is_told_as_what_it_is():
    """Before (a GM-less group's evening): "It comes down to Draugr against Espen.", "Draugr throws caution away",
    as if Draugr were its name, where the automaton was "the sentry automaton"."""
    import random

    from solo.narration.cast import spoken_name
    from solo.npc import generate_npc

    draugr = generate_npc(random.Random(1), "skilled", role="draugr")
    assert draugr.name == "Draugr" and draugr.called == "the draugr"
    automaton = generate_npc(random.Random(1), "skilled", role="automaton")
    assert automaton.called is None and spoken_name(automaton.name) == "the sentry automaton"
    named = generate_npc(random.Random(1), "skilled", role="draugr", name="Grimr")
    assert named.called is None

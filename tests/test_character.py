"""Characters (docs/rules.md §2): data round trip, validation, and what a skill is worth (skill_target)."""

from __future__ import annotations

import copy
import json

import pytest

from solo.errors import ContentError
from solo.rules.character import (
    HURT_PENALTY,
    PRONOUNS,
    Character,
    Pool,
    Situation,
    request_chance,
    skill_target,
)
from solo.rules.creation import pregenerated
from solo.rules.rolls import Modifier
from solo.rules.rulebook import POOLS, SKILLS


def make(**over) -> Character:
    skills = {s: 5 for s in SKILLS}
    skills.update(over.pop("skills", {}))
    pools = {p: Pool(12, 12) for p in POOLS}
    pools.update(over.pop("pools", {}))
    return Character(name=over.pop("name", "Test"), skills=skills, pools=pools, **over)


def value(char, skill, focus=None, **kw) -> int:
    return skill_target(char, skill, focus, **kw)[0]


def names(char, skill, focus=None, **kw) -> list[str]:
    return [m.name for m in skill_target(char, skill, focus, **kw)[1]]


# -- derived properties ---------------------------------------------------------

def test_luck_max_and_auspicious():
    assert make().luck_max == 2
    assert make(tags=["Auspicious", "Lab"]).luck_max == 3


def test_pc_npc_and_pushing():
    assert make().is_pc and make().can_push
    assert make(level="master").can_push and not make(level="master").is_pc
    assert not make(level="common").can_push
    assert not make(level="skilled").can_push


def test_hurt_only_below_zero():
    char = make()
    assert not char.hurt
    char.pools["POW"].current = 0
    assert not char.hurt
    char.pools["POW"].current = -1
    assert char.hurt


def test_focus_helpers():
    char = make(focuses={"Combat//Melee": 20, "Combat//Ranged": 20, "Social//Deceit": 20})
    assert char.has_focus("Combat", "Melee")
    assert not char.has_focus("Social", "Melee")
    assert sorted(char.focus_names("Combat")) == ["Melee", "Ranged"]
    assert char.focus_names("Tech") == []


# -- skill_target --------------------------------------------------------------

def test_bare_skill():
    char = make(skills={"Combat": 50})
    assert skill_target(char, "Combat") == (50, [])


def test_focus_adds_20_when_it_fits():
    char = make(skills={"Awareness": 50}, focuses={"Awareness//Perception": 20})
    total, mods = skill_target(char, "Awareness", "Perception")
    assert total == 70
    assert mods == [Modifier("//Perception", 20)]


def test_best_of_several_fitting_focuses():
    char = make(skills={"Combat": 30}, focuses={"Combat//Melee": 20, "Combat//Unarmed": 30})
    total, mods = skill_target(char, "Combat", ["Melee", "Ranged", "Unarmed", "Gunnery"])
    assert total == 60 and mods == [Modifier("//Unarmed", 30)]
    # only one modifier: the Focuses do not stack
    assert value(char, "Combat", ("Melee", "Unarmed")) == 60
    assert value(char, "Combat", ["Melee"]) == 50


def test_a_focus_of_another_skill_does_not_count():
    char = make(skills={"Science": 30}, focuses={"Tech//Pilot": 20})
    assert skill_target(char, "Science", "Navigation") == (30, [])


def test_similar_focus_counts_at_minus_20():
    # a +20 Focus used as a similar one is worth 20 - 20 = 0: the bare skill
    char = make(skills={"Combat": 50}, focuses={"Combat//Melee": 20})
    assert skill_target(char, "Combat", "Ranged") == (50, [])
    # an improved Focus (+40) still helps, at +20
    char = make(skills={"Combat": 50}, focuses={"Combat//Melee": 40, "Combat//Unarmed": 30})
    total, mods = skill_target(char, "Combat", "Ranged")
    assert total == 70
    assert mods == [Modifier("//Melee (similar)", 20)]


def test_a_fitting_focus_beats_a_better_similar_one():
    char = make(skills={"Combat": 50}, focuses={"Combat//Melee": 60, "Combat//Ranged": 20})
    assert skill_target(char, "Combat", "Ranged") == (70, [Modifier("//Ranged", 20)])


def test_no_similar_focus_without_a_focus_asked_for():
    char = make(skills={"Combat": 50}, focuses={"Combat//Melee": 60})
    assert skill_target(char, "Combat") == (50, [])


def test_willpower_person_and_circle_are_never_similar():
    char = make(skills={"Willpower": 30}, focuses={"Willpower//Person": 60, "Willpower//Circle": 20})
    assert value(char, "Willpower", "Person") == 90
    assert value(char, "Willpower", "Circle") == 50
    # acting towards someone else: only the bare skill, however high //Person is
    assert skill_target(char, "Willpower", "Stranger") == (30, [])


def test_espen_lind_targets():
    espen = pregenerated("espen")
    assert value(espen, "Awareness", "Perception") == 70
    assert value(espen, "Awareness", "Insight") == 50
    assert value(espen, "Knowledge", "Research") == 50
    assert value(espen, "Social", "Influence") == 50
    assert value(espen, "Willpower", "Person") == 50
    assert value(espen, "Willpower", "Circle") == 50
    assert value(espen, "Willpower") == 30
    assert value(espen, "Science") == 5


def test_native_language_is_40():
    char = make(skills={"Knowledge": 5})
    total, mods = skill_target(char, "Knowledge", "Language")
    assert total == 40
    assert mods == [Modifier("native language", 35)]
    # a Knowledge above 40 is used as it is
    assert skill_target(make(skills={"Knowledge": 50}), "Knowledge", "Language") == (50, [])
    # a Language Focus still adds its +20
    char = make(skills={"Knowledge": 30}, focuses={"Knowledge//Language": 20})
    assert value(char, "Knowledge", "Language") == 50
    # Knowledge 30 + a similar Focus worth 0 → native 40
    char = make(skills={"Knowledge": 30}, focuses={"Knowledge//Research": 20})
    assert value(char, "Knowledge", "Language") == 40
    # other Knowledge uses get no native floor
    assert value(make(skills={"Knowledge": 5}), "Knowledge", "Research") == 5
    assert value(make(skills={"Knowledge": 5}), "Knowledge") == 5


def test_native_language_then_penalties():
    char = make(skills={"Knowledge": 5})
    char.pools["INT"].current = -1
    assert value(char, "Knowledge", "Language") == 40 + HURT_PENALTY


@pytest.mark.parametrize(
    "tags, situation, delta, label",
    [
        ([], Situation(upper_class=True), -20, "no #High Society"),
        (["High Society"], Situation(upper_class=True), 0, None),
        ([], Situation(criminal=True), -20, "no #Streetwise"),
        (["Streetwise"], Situation(criminal=True), 0, None),
        (["Pass"], Situation(borderline_access=True), 20, "#Pass"),
        ([], Situation(borderline_access=True), 0, None),
        (["Status"], Situation(status_known=True), 20, "#Status"),
        (["Status"], Situation(), 0, None),
        ([], Situation(status_known=True), 0, None),
        (["High Society", "Pass"], Situation(), 0, None),
    ],
)
def test_social_tag_modifiers(tags, situation, delta, label):
    char = make(skills={"Social": 30}, tags=tags)
    total, mods = skill_target(char, "Social", situation=situation)
    assert total == 30 + delta
    assert [m.name for m in mods] == ([label] if label else [])


def test_social_tag_modifiers_stack():
    char = make(skills={"Social": 30}, tags=["Pass", "Status"], focuses={"Social//Influence": 20})
    s = Situation(upper_class=True, criminal=True, borderline_access=True, status_known=True)
    total, mods = skill_target(char, "Social", "Influence", situation=s)
    assert total == 30 + 20 - 20 - 20 + 20 + 20
    assert {m.name for m in mods} == {"//Influence", "no #High Society", "no #Streetwise", "#Pass", "#Status"}


def test_tags_change_only_social():
    char = make(skills={"Combat": 30, "Cunning": 30})
    s = Situation(upper_class=True, criminal=True)
    assert value(char, "Combat", situation=s) == 30
    assert value(char, "Cunning", situation=s) == 30


def test_hurt_is_minus_20_on_every_skill():
    char = make(skills={s: 40 for s in SKILLS}, focuses={"Combat//Melee": 20})
    char.pools["BODY"].current = 0
    assert all(value(char, s) == 40 for s in SKILLS)
    for pool in POOLS:
        hurt = make(skills={s: 40 for s in SKILLS}, focuses={"Combat//Melee": 20})
        hurt.pools[pool].current = -1
        assert all(value(hurt, s) == 20 for s in SKILLS)
        assert value(hurt, "Combat", "Melee") == 40
        assert "hurt" in names(hurt, "Move")


def test_heavy_armour_slows_move_and_awareness():
    char = make(skills={"Move": 50, "Awareness": 50, "Combat": 50}, armour="heavy")
    assert value(char, "Move") == 30
    assert value(char, "Awareness") == 30
    assert value(char, "Combat") == 50
    assert names(char, "Move") == ["Heavy armour"]
    for light in ("light", "medium", "bullet_proof", None):
        char.armour = light
        assert value(char, "Move") == 50 and value(char, "Awareness") == 50


def test_everything_stacks():
    char = make(skills={"Awareness": 50}, focuses={"Awareness//Perception": 20}, armour="heavy")
    char.pools["CHA"].current = -3
    total, mods = skill_target(char, "Awareness", "Perception", extra=[Modifier("Hard", -20)])
    assert total == 50 + 20 - 20 - 20 - 20
    assert [m.name for m in mods] == ["//Perception", "hurt", "Heavy armour", "Hard"]
    assert total == 50 + sum(m.value for m in mods)


def test_effective_skill_is_not_capped():
    char = make(skills={"Combat": 95}, focuses={"Combat//Melee": 20})
    assert value(char, "Combat", "Melee", extra=[Modifier("Easy", 20)]) == 135
    assert value(make(skills={"Combat": 5}), "Combat", extra=[Modifier("Very Hard", -40)]) == -35


def test_unknown_skill():
    with pytest.raises(KeyError, match="Awareness"):
        skill_target(make(), "Awarenes")


# -- Contact and Lab requests --------------------------------------------------------

def test_request_chance_halves():
    assert [request_chance(n) for n in range(9)] == [100, 50, 25, 13, 6, 3, 2, 1, 0]
    assert request_chance(20) == 0
    with pytest.raises(ValueError):
        request_chance(-1)


# -- to_dict / from_dict ---------------------------------------------------------------

def full_character() -> Character:
    char = make(
        name="Ada Falk", skills={"Combat": 50, "Move": 30, "Tech": 30}, focuses={"Combat//Melee": 20},
        tags=["Gear", "Auspicious"], luck=-1, player="Kari", career="Soldier", pronoun="she",
        willpower={"person": {"who": "Sibling", "verb": "Love"}, "circle": {"who": "Gang", "verb": "Fear"}},
        tag_notes={"Gear": "a vibro-knife"}, gear_bonus=2, weapon="dagger", armour="light", shield="small",
        items=["rope", "torch"], owed_failures=1, improvement_rolls=3, requests={"Contact": 2},
        medicine_tried=["BODY"],
    )
    char.pools["BODY"] = Pool(14, -3)
    return char


def test_round_trip_full_character():
    char = full_character()
    data = char.to_dict()
    assert Character.from_dict(data) == char
    assert Character.from_dict(json.loads(json.dumps(data))) == char


def test_round_trip_espen():
    espen = pregenerated("espen")
    assert Character.from_dict(espen.to_dict()) == espen
    assert espen.copy() == espen


def test_round_trip_npc_level():
    npc = make(level="skilled", name="Thug")
    assert Character.from_dict(npc.to_dict()).level == "skilled"


def test_to_dict_shape():
    data = full_character().to_dict()
    assert list(data["skills"]) == list(SKILLS)
    assert list(data["pools"]) == list(POOLS)
    assert data["pools"]["BODY"] == {"max": 14, "current": -3}
    assert data["luck"] == -1
    minimal = make().to_dict()
    for key in ("player", "career", "level", "weapon", "items", "requests", "owed_failures", "gear_bonus"):
        assert key not in minimal


def test_copy_is_independent():
    char = full_character()
    twin = char.copy()
    twin.pools["INT"].current -= 5
    twin.skills["Combat"] += 1
    twin.tags.append("Lab")
    assert char.pools["INT"].current == 12
    assert char.skills["Combat"] == 50
    assert "Lab" not in char.tags


def test_from_dict_defaults():
    char = Character.from_dict({"name": "Min", "pools": {"BODY": 16, "INT": 14, "POW": 12, "CHA": 10}})
    assert all(char.skills[s] == 5 for s in SKILLS)
    assert char.pools["BODY"] == Pool(16, 16)
    assert char.luck == 2 and char.pronoun == "they"
    auspicious = Character.from_dict({"name": "Lucky", "tags": ["Auspicious"],
                                      "pools": {"BODY": 16, "INT": 14, "POW": 12, "CHA": 10}})
    assert auspicious.luck == 3


def test_from_dict_accepts_weapon_by_name():
    data = make().to_dict()
    data["weapon"] = "Long sword"
    data["armour"] = "Heavy armour"
    char = Character.from_dict(data)
    assert char.weapon == "long_sword" and char.armour == "heavy"


def base_data() -> dict:
    return pregenerated("espen").to_dict()


def _set(data, dotted, value):
    keys = dotted.split(".")
    for k in keys[:-1]:
        data = data[k]
    if value is _DELETE:
        del data[keys[-1]]
    else:
        data[keys[-1]] = value


_DELETE = object()


@pytest.mark.parametrize(
    "field, bad, path, words",
    [
        ("name", _DELETE, "name", ["missing"]),
        ("name", "   ", "name", ["a name must show"]),
        ("name", 7, "name", ["expected text"]),
        ("skills", [1, 2], "skills", ["table"]),
        ("skills.Combat", "thirty", "skills.Combat", ["whole number"]),
        ("skills.Combat", True, "skills.Combat", ["whole number"]),
        ("skills.Combat", 201, "skills.Combat", ["out of range"]),
        ("skills.Combat", -1, "skills.Combat", ["out of range"]),
        ("skills.Combta", 30, "skills.Combta", ["unknown skill", "Combat"]),
        ("focuses.Awareness//Perceptoin", 20, "focuses.Awareness//Perceptoin", ["not a Focus", "Perception"]),
        ("focuses.Awarenes//Perception", 20, "focuses.Awarenes//Perception", ["unknown skill"]),
        ("focuses.Awareness", 20, "focuses.Awareness", ["not a Focus"]),
        ("focuses.Awareness//Perception", 101, "focuses.Awareness//Perception", ["out of range"]),
        ("focuses", ["Awareness//Perception"], "focuses", ["table"]),
        ("tags", "Contact", "tags", ["list"]),
        ("tags", ["Contact", "Pas"], "tags[1]", ["unknown tag", "Pass"]),
        ("pools", _DELETE, "pools", ["Conflict Pools"]),
        ("pools.BODY", "twelve", "pools.BODY", ["number"]),
        ("pools.BODY", {"current": 3}, "pools.BODY.max", ["whole number"]),
        ("pools.BODY", {"max": 0}, "pools.BODY.max", ["out of range"]),
        ("pools.BODY", {"max": 12, "current": 13}, "pools.BODY.current", ["out of range"]),
        ("pools.BODY", {"max": 12, "current": -13}, "pools.BODY.current", ["out of range"]),
        ("pools.LUCK", 3, "pools.LUCK", ["unknown Pool"]),
        ("level", "boss", "level", ["common, skilled or master"]),
        ("pronoun", "xe", "pronoun", ["expected one of"]),
        ("luck", -3, "luck", ["out of range"]),
        ("luck", "2", "luck", ["whole number"]),
        ("gear_bonus", 4, "gear_bonus", ["out of range"]),
        ("weapon", "lightsaber", "weapon", ["unknown weapon"]),
        ("armour", "plate", "armour", ["unknown armour"]),
        ("shield", "tower", "shield", ["unknown shield"]),
        ("willpower", {"enemy": {"who": "Boss"}}, "willpower.enemy", ["willpower.person"]),
        ("willpower", ["Sibling"], "willpower", ["table"]),
        ("tag_notes", ["a"], "tag_notes", ["table"]),
        ("requests", {"Contact": -1}, "requests.Contact", ["out of range"]),
        ("requests", 3, "requests", ["table"]),
        ("owed_failures", 3, "owed_failures", ["out of range"]),
        ("items", "rope", "items", ["list"]),
        ("medicine_tried", "BODY", "medicine_tried", ["list"]),
    ],
)
def test_from_dict_rejects_bad_fields(field, bad, path, words):
    data = base_data()
    _set(data, field, bad)
    with pytest.raises(ContentError) as info:
        Character.from_dict(data, file="chars/espen.toml")
    err = info.value
    assert err.file == "chars/espen.toml"
    assert err.path == path
    text = str(err)
    assert text.startswith(f"chars/espen.toml: {path}: ")
    for word in words:
        assert word in text


def test_from_dict_rejects_a_non_table():
    with pytest.raises(ContentError):
        Character.from_dict(["not", "a", "table"])


def test_from_dict_does_not_change_its_input():
    data = base_data()
    before = copy.deepcopy(data)
    Character.from_dict(data)
    assert data == before


def test_pronouns_table():
    assert set(PRONOUNS) == {"he", "she", "they", "it"}
    for forms in PRONOUNS.values():
        assert set(forms) == {"they", "them", "their", "theirs", "themself"}


def test_a_willpower_focus_reads_as_a_sentence_on_the_sheet():
    """Issue 31, point 7: "//Person (Fear Partner)" read oddly; the sheet says what the Focus asks."""
    import io

    from rich.console import Console

    from solo.rules.creation import pregenerated
    from solo.ui.sheet import character_card

    espen = pregenerated("espen")
    espen.willpower["person"] = {"who": "Partner", "verb": "Fear"}
    out = io.StringIO()
    Console(file=out, width=140, color_system=None).print(character_card(espen))
    assert "//Person (fear your partner)" in out.getvalue() and "Fear Partner" not in out.getvalue()


def test_the_sheet_says_gear_adds_to_a_weapon_and_whether_one_is_carried():
    """The sheet read "#Gear (+2 damage)" for a character with no weapon in hand, whose blows never get it (the
    bonus is for a weapon in a physical conflict, rules §5.2): it says so, from what the damage rule reads."""
    import io

    from rich.console import Console

    from solo.rules.conflict_types import conflict_type
    from solo.rules.creation import pregenerated
    from solo.rules.participants import from_character
    from solo.ui.sheet import character_card

    combat = conflict_type("combat")

    def card(char):
        out = io.StringIO()
        Console(file=out, width=160, color_system=None).print(character_card(char))
        return " ".join(out.getvalue().split())

    char = pregenerated("espen")
    char.tags = [*char.tags, "Gear"] if "Gear" not in char.tags else char.tags
    char.gear_bonus = 2
    char.weapon = None
    assert "#Gear (+2 damage with a weapon; none in hand)" in card(char)
    assert from_character(char, "a", combat).damage_bonus(physical=True) == 0
    char.weapon = "dagger"
    assert "#Gear (+2 damage with a weapon)" in card(char)
    assert from_character(char, "a", combat).damage_bonus(physical=True) == 2


def test_the_card_shows_the_native_language_its_rolls_count():
    """A GM-less table's run: every character speaks a language at 40 % at least (rules §2.2), which the rolls
    count, and the card said "Knowledge 5 %" and nothing of it. It shows the tongue at what a roll would use."""
    import io

    from conftest import make_char
    from rich.console import Console

    from solo.ui.sheet import character_card

    def card(char) -> str:
        out = io.StringIO()
        Console(file=out, width=120, color_system=None).print(character_card(char))
        return " ".join(out.getvalue().split())

    for name, knowledge in (("Mira", 5), ("Olav", 50)):
        char = make_char(name, Knowledge=knowledge)
        rolled, _ = skill_target(char, "Knowledge", "Language")  # what a roll in the tongue counts
        assert rolled == max(40, knowledge) and f"//Language (native) {rolled}" in card(char)
    linguist = make_char("Kari", Knowledge=30, focuses={"Knowledge//Language": 20})  # a Focus of her own
    assert "(native)" not in card(linguist) and "//Language 50" in card(linguist)


def test_gear_adds_to_a_weapon_and_never_to_empty_hands_however_they_are_named():
    """A GM-less table: a Master draugr's card read "Gear: Unarmed (1d3+1)", and `solo odds --weapon-a unarmed`
    dealt 1d3+2 where the same PC with no weapon dealt 1d3: the same fists, two damages, against the ruling that
    Gear needs a weapon. The gear table's Unarmed and Martial arts are empty hands; a card shows what a blow deals."""
    from solo.rules.participants import gear_bonus
    from solo.rules.rulebook import rules

    pc = pregenerated("espen")
    pc.tags, pc.gear_bonus = [*pc.tags, "Gear"], 2
    weapons = rules().weapons
    assert [gear_bonus(pc, weapons.get(w)) for w in ("unarmed", "martial_arts", "dagger")] == [0, 0, 2]
    assert gear_bonus(pc, None) == 0
    pc.tags = [t for t in pc.tags if t != "Gear"]
    assert gear_bonus(pc, weapons["dagger"]) == 0  # the bonus is the Tag's


def test_a_characters_file_name_keeps_the_letters_of_a_norwegian_name():
    """A GM-less table: "Ørjan Ås" was saved as rjan_s.toml and "Åse Ødegård" as se_deg_rd.toml (the letters outside
    a-z dropped), though the bundled name tables are Norwegian. Accents are taken off and ø, æ, ß … spelled out."""
    from solo.characters import character_slug

    assert [character_slug(n) for n in ("Ørjan Ås", "Åse Ødegård", "Ærlig Straße", "Espen Lind", "山田 太郎")] == [
        "orjan_as", "ase_odegard", "aerlig_strasse", "espen_lind", "character"]


@pytest.mark.parametrize("entry, says", [
    ({"who": "Ward", "verb": 5}, 'willpower.person.verb: expected who = "…" and verb = "…" (text), got verb = 5'),
    ({"who": "Ward", "verb": "Protect", "mood": "x"}, "willpower.person.mood"),
])
def test_a_willpower_entry_holds_a_who_and_a_verb_of_text(entry, says):
    """A bad-input audit: `person = { who = "Ward", verb = 5 }` loaded, the sheet read "//Person (5 your ward)"."""
    from solo.rules.character import Character

    data = pregenerated("espen").to_dict()
    data["willpower"] = {**data["willpower"], "person": entry}
    with pytest.raises(ContentError) as err:
        Character.from_dict(data)
    assert says in str(err.value), str(err.value)
    data["willpower"]["person"] = {"who": "Ward", "verb": "Protect"}
    assert Character.from_dict(data).willpower["person"] == {"who": "Ward", "verb": "Protect"}

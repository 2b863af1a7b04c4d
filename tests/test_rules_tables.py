"""The rules tables as data (solo/rules/data/*.toml): content per docs/rules.md, and validation.

Validation tests copy the bundled folder, break one entry, and check that loading
stops with a ContentError naming the file and the entry.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from solo.errors import ContentError, SoloError
from solo.rules.rulebook import DATA_DIR, POOLS, SKILLS, load_rules, rules

# -- the bundled content follows docs/rules.md ----------------------------------

FOCUSES = {
    "Awareness": {"Insight", "Perception", "Track"},
    "Combat": {"Gunnery", "Melee", "Ranged", "Unarmed"},
    "Cunning": {"Gambling", "Lockpicking", "Sleight", "Stealth"},
    "Knowledge": {"Acting", "Art & Music", "Bureaucracy", "Commerce", "Craft", "Language", "Research", "History"},
    "Move": {"Acrobatics", "Athletics", "Brawn", "Dancing", "Ride", "Swim"},
    "Science": {"Astronomy", "Chemistry", "Medicine", "Navigation", "Survival"},
    "Social": {"Deceit", "Influence", "Oratory"},
    "Tech": {"Computers", "Comms", "Engineering", "Mechanics", "Pilot", "Sensors"},
    "Willpower": {"Person", "Circle"},
}

TAGS = ["Contact", "High Society", "Lab", "Pass", "Streetwise", "Wealth", "Membership", "Status",
        "Gear", "Secret Identity", "Headquarters", "Auspicious"]

CAREERS = {
    "Detective": ([("Awareness", "Perception"), ("Combat", None), ("Social", "Influence")],
                  ["Secret Identity", "Headquarters"], []),
    "Pilot": ([("Tech", "Pilot"), ("Willpower", None), ("Science", "Navigation")],
              ["Auspicious"], ["Streetwise", "High Society"]),
    "Doctor": ([("Science", "Medicine"), ("Awareness", "Perception"), ("Social", None)], ["High Society", "Lab"], []),
    "Scientist": ([("Science", None), ("Awareness", "Perception"), ("Tech", None)], ["Membership", "Lab"], []),
    "Archeologist": ([("Knowledge", "Research"), ("Knowledge", "History"), ("Awareness", "Perception")],
                     ["Contact", "Lab"], []),
    "Criminal": ([("Combat", None), ("Cunning", None), ("Move", "Athletics")], ["Streetwise", "Contact"], []),
    "Journalist": ([("Knowledge", "Language"), ("Knowledge", "Research"), ("Social", None)], ["Contact", "Pass"], []),
    "Soldier": ([("Combat", None), ("Cunning", "Stealth"), ("Move", "Athletics")], ["Membership", "Gear"], []),
    "Dilettante": ([("Science", None), ("Social", None), ("Knowledge", "Research")], ["Contact", "Wealth"], []),
}


def test_skills_and_focuses():
    t = rules()
    assert tuple(t.skills) == SKILLS
    assert len(SKILLS) == 9 and POOLS == ("BODY", "INT", "POW", "CHA")
    for name, focuses in FOCUSES.items():
        assert set(t.skills[name].focuses) == focuses, name
        assert t.skills[name].description.strip()


def test_focus_numbers():
    t = rules()
    assert t.focus_bonus == 20
    assert t.similar_focus_penalty == 20
    assert t.native_language == 40
    assert t.untrained == 5


def test_skill_of_focus():
    t = rules()
    for skill, focuses in FOCUSES.items():
        for focus in focuses:
            assert t.skill_of_focus(focus) == skill
    assert t.skill_of_focus("Basket weaving") is None


def test_tags_by_roll():
    t = rules()
    assert [t.tag_by_roll(i).name for i in range(1, 13)] == TAGS
    effects = {name: t.tags[name].effect for name in TAGS}
    assert effects["Contact"] == effects["Lab"] == "request"
    assert effects["High Society"] == "upper_class"
    assert effects["Streetwise"] == "criminal"
    assert effects["Pass"] == "borderline_access"
    assert effects["Status"] == "status"
    assert effects["Gear"] == "gear"
    assert effects["Auspicious"] == "luck"
    for narrative in ("Wealth", "Membership", "Secret Identity", "Headquarters"):
        assert effects[narrative] == "narrative"
    with pytest.raises(KeyError):
        t.tag_by_roll(13)


def test_careers():
    t = rules()
    assert set(t.careers) == set(CAREERS)
    for name, (skills, tags, choices) in CAREERS.items():
        career = t.careers[name]
        assert list(career.skills) == skills, name
        assert list(career.tags) == tags, name
        assert list(career.tag_choices) == choices, name
    assert t.careers["Scientist"].membership == "a scientific society"
    assert t.careers["Soldier"].membership == "military intelligence"


def test_career_lookup_is_case_insensitive_and_helpful():
    t = rules()
    assert t.career("pilot").name == "Pilot"
    assert t.career("  JOURNALIST ").name == "Journalist"
    with pytest.raises(KeyError) as info:
        t.career("Detectiv")
    assert "Detective" in info.value.args[0]
    assert "careers:" in info.value.args[0]


def test_willpower_table():
    t = rules()
    assert t.persons == ("Sibling", "Relative", "Child", "Partner", "Boss", "Friend", "Patron", "Ward",
                         "Neighbour", "Teacher")
    assert t.circles == ("Village", "Family", "Gang", "University", "Cult", "Clan", "Prison", "Religion",
                         "Hospital", "Business")
    assert t.verbs == ("Love", "Avenge", "Hide from", "Hate", "Find", "Betray", "Be Loyal to", "Fear",
                       "Compete with", "Protect")


WEAPONS = {
    "Unarmed": ("1d3", "melee", None), "Impromptu weapon": ("1d4", "melee", None),
    "Martial arts": ("1d4", "melee", None), "Dagger": ("1d4", "melee", None), "Cudgel": ("1d4", "melee", None),
    "Staff": ("1d4", "melee", None), "Short sword": ("1d6", "melee", None), "Axe": ("1d6", "melee", None),
    "Long sword": ("1d8", "melee", None), "Longbow": ("1d6", "ranged", 50),
    "Small firearm": ("1d6", "ranged", 10), "Regular firearm": ("1d8", "ranged", 20),
    "Small blaster": ("1d8", "ranged", 20), "Heavy blaster": ("1d10", "ranged", 50),
}


def test_weapons():
    t = rules()
    got = {w.name: (str(w.damage), w.kind, w.range) for w in t.weapons.values()}
    assert got == WEAPONS
    firearms = {w.name for w in t.weapons.values() if w.firearm}
    assert firearms == {"Small firearm", "Regular firearm"}


def test_weapon_lookup_by_key_or_name():
    t = rules()
    assert t.weapon("long_sword").name == "Long sword"
    assert t.weapon("Long sword").key == "long_sword"
    assert t.weapon("long-sword").key == "long_sword"
    with pytest.raises(KeyError) as info:
        t.weapon("long swrd")
    assert "long_sword" in info.value.args[0]


def test_armour_and_shields():
    t = rules()
    points = {a.name: (a.points, a.firearm_points, a.skill_penalties) for a in t.armour.values()}
    assert points["Light armour"] == (2, None, {})
    assert points["Medium armour"] == (4, None, {})
    assert points["Heavy armour"] == (6, None, {"Move": -20, "Awareness": -20})
    vest = t.armour_named("bullet_proof")
    assert (vest.points, vest.firearm_points) == (2, 6)
    assert vest.points_against(t.weapon("Regular firearm")) == 6
    assert vest.points_against(t.weapon("Small firearm")) == 6
    assert vest.points_against(t.weapon("Small blaster")) == 2
    assert vest.points_against(t.weapon("Dagger")) == 2
    assert vest.points_against(None) == 2
    assert t.armour_named("heavy").points_against(t.weapon("Regular firearm")) == 6
    assert t.shield("small").penalty == -20 and t.shield("small").against == ("melee",)
    assert t.shield("Large shield").against == ("melee", "ranged")
    with pytest.raises(KeyError):
        t.shield("tower")


def test_rules_is_cached_and_equals_a_fresh_load():
    assert rules() is rules()
    assert load_rules() == rules()
    assert load_rules(DATA_DIR) == rules()


# -- validation ----------------------------------------------------------------

@pytest.fixture
def data(tmp_path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    return folder


def edit(folder: Path, file: str, old: str, new: str, count: int = 1) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not found in {file}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def broken(folder: Path, file: str) -> ContentError:
    with pytest.raises(ContentError) as info:
        load_rules(folder)
    err = info.value
    assert isinstance(err, SoloError)
    assert err.file is not None and Path(err.file).name == file
    assert str(folder / file) in str(err) or Path(err.file).name in str(err)
    return err


def test_a_clean_copy_loads(data):
    assert load_rules(data) == rules()


CASES = [
    # (file, old, new, expected path, words in the message)
    ("skills.toml", "[skills.Tech]", '[skills.Teck]\ndescription = "x"\nfocuses = []\n\n[skills.Tech]', "skills.Teck",
     ["unknown skill", "Tech"]),
    ("skills.toml", 'focuses = ["Insight", "Perception", "Track"]', 'focuses = "Insight"',
     "skills.Awareness.focuses", ["list"]),
    ("skills.toml", 'focuses = ["Insight", "Perception", "Track"]', 'focuses = ["Insight", 3, "Track"]',
     "skills.Awareness.focuses[1]", ["non-empty string"]),
    ("skills.toml", 'focuses = ["Insight", "Perception", "Track"]', 'focuses = ["Insight", " ", "Track"]',
     "skills.Awareness.focuses[1]", ["non-empty string"]),
    ("skills.toml", 'description = "Noticing things', 'summary = "Noticing things', "skills.Awareness",
     ["missing field 'description'"]),
    ("skills.toml", "focus_bonus = 20", 'focus_bonus = "20"', ".focus_bonus", ["whole number", "str"]),
    ("skills.toml", "focus_bonus = 20", "focus_bonus = true", ".focus_bonus", ["boolean"]),
    ("skills.toml", "native_language = 40", "", "", ["missing field 'native_language'"]),
    ("tags.toml", 'effect = "request"', 'effect = "requests"', "tags[0].effect", ["unknown effect", "request"]),
    ("tags.toml", "roll = 2\n", "roll = 1\n", "tags", ["1..12"]),
    ("tags.toml", "roll = 12\n", 'roll = "12"\n', "tags[11].roll", ["whole number"]),
    ("tags.toml", 'name = "Lab"', 'title = "Lab"', "tags[2]", ["missing field 'name'"]),
    ("careers.toml", '"Tech//Pilot", "Willpower"', '"Tech//Pilot", "Wilpower"', "careers.Pilot.skills[1]",
     ["unknown skill", "Willpower"]),
    ("careers.toml", '"Awareness//Perception", "Combat"', '"Awareness//Perceptoin", "Combat"',
     "careers.Detective.skills[0]", ["not a Focus of Awareness", "Perception"]),
    ("careers.toml", 'tags = ["Contact", "Wealth"]', 'tags = ["Contact", "Welth"]', "careers.Dilettante.tags[1]",
     ["unknown tag", "Wealth"]),
    ("careers.toml", 'tag_choices = ["Streetwise", "High Society"]', 'tag_choices = ["Streetwise", "Low Society"]',
     "careers.Pilot.tag_choices[1]", ["unknown tag"]),
    ("careers.toml", 'skills = ["Combat", "Cunning", "Move//Athletics"]', 'skills = ["Combat", "Cunning"]',
     "careers.Criminal.skills", ["exactly three"]),
    ("careers.toml", 'tags = ["Streetwise", "Contact"]', 'tags = ["Streetwise", "Contact", "Gear"]',
     "careers.Criminal", ["two Tags"]),
    ("careers.toml", 'membership = "military intelligence"', "membership = 3", "careers.Soldier.membership",
     ["text"]),
    ("willpower.toml", '"Neighbour", "Teacher"]', '"Neighbour"]', "persons", ["10 entries", "got 9"]),
    ("willpower.toml", "verbs = [", "verb = [", "", ["missing field 'verbs'"]),
    ("gear.toml", 'damage = "1d8"\nkind = "melee"', 'damage = "1x8"\nkind = "melee"', "weapons.long_sword.damage",
     ["1x8"]),
    ("gear.toml", 'name = "Axe"\ndamage = "1d6"\nkind = "melee"', 'name = "Axe"\ndamage = "1d6"\nkind = "thrown"',
     "weapons.axe.kind", ["melee", "ranged"]),
    ("gear.toml", "range = 50\n", 'range = "far"\n', "weapons.longbow.range", ["whole number"]),
    ("gear.toml", "firearm = true", 'firearm = "yes"', "weapons.small_firearm.firearm", ["true/false"]),
    ("gear.toml", "points = 4", "points = -4", "armour.medium.points", ["negative"]),
    ("gear.toml", "Move = -20", "Moev = -20", "armour.heavy.skill_penalties.Moev", ["unknown skill", "Move"]),
    ("gear.toml", "Move = -20", 'Move = "-20"', "armour.heavy.skill_penalties.Move", ["whole number"]),
    ("gear.toml", 'against = ["melee"]', 'against = ["thrown"]', "shields.small.against[0]", ["melee"]),
    ("gear.toml", "penalty = -20\nagainst = [\"melee\"]", 'against = ["melee"]', "shields.small",
     ["missing field 'penalty'"]),
]


@pytest.mark.parametrize("file, old, new, path, words", CASES, ids=[f"{c[0]}:{c[3] or 'top'}" for c in CASES])
def test_a_broken_entry_names_file_and_entry(data, file, old, new, path, words):
    edit(data, file, old, new)
    err = broken(data, file)
    assert err.path == path
    text = str(err)
    if path:
        assert f": {path}: " in text
    for word in words:
        assert word in text, f"{word!r} not in {text!r}"


def test_a_missing_skill_is_named(data):
    path = data / "skills.toml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\[skills\.Social\]\n.*\n.*\n", "", text)
    path.write_text(text, encoding="utf-8")
    err = broken(data, "skills.toml")
    assert err.path == "skills"
    assert "'Social' is missing" in str(err)


@pytest.mark.parametrize("kind, key", [("weapons", "dagger"), ("armour", "light"), ("shields", "small")])
def test_a_gear_entry_that_is_not_a_table(data, kind, key):
    path = data / "gear.toml"
    text = path.read_text(encoding="utf-8")
    # drop the entry's [kind.key] block, then give the key a bare number under [kind]
    text = re.sub(rf"\[{kind}\.{key}\]\n(?:[^\[\n].*\n|\n)*", "", text)
    assert f"[{kind}.{key}]" not in text
    path.write_text(text + f"\n[{kind}]\n{key} = 5\n", encoding="utf-8")
    err = broken(data, "gear.toml")
    assert err.path == f"{kind}.{key}"
    assert "table" in str(err)


def test_toml_syntax_error_names_file_line_and_column(data):
    edit(data, "tags.toml", 'name = "Pass"', 'name = "Pass')
    err = broken(data, "tags.toml")
    assert err.line is not None and err.line > 1
    assert "TOML syntax error" in str(err)
    lines = (data / "tags.toml").read_text(encoding="utf-8").splitlines()
    assert 'name = "Pass' in lines[err.line - 1]
    assert re.search(r"tags\.toml:\d+:\d+: TOML syntax error", str(err))


@pytest.mark.parametrize("file", ["skills.toml", "tags.toml", "careers.toml", "willpower.toml", "gear.toml"])
def test_a_missing_file_is_named(data, file):
    (data / file).unlink()
    err = broken(data, file)
    assert "file not found" in str(err)


def test_careers_need_at_least_one(data):
    (data / "careers.toml").write_text("[careers]\n", encoding="utf-8")
    err = broken(data, "careers.toml")
    assert err.path == "careers" and "no careers" in str(err)


def test_the_bundled_tables_are_not_touched_by_a_broken_copy(data):
    edit(data, "tags.toml", 'effect = "request"', 'effect = "nope"')
    with pytest.raises(ContentError):
        load_rules(data)
    assert rules().tags["Contact"].effect == "request"

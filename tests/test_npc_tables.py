"""The Code Block tables: bundled file loads, every face maps as docs/rules.md §7.2 says,
malformed copies are refused with the file and the entry named, and the lean numbers
carry the relations issue 4 asks the NPC minds to show."""

from __future__ import annotations

import pytest

from solo.errors import ContentError
from solo.npc import LEANS, LENS_LEANS, codeblocks, load_codeblocks
from solo.paths import bundled

BUNDLED = bundled("oracles") / "codeblocks.toml"

PERSONALITY = [
    "Reserved", "Shy", "Indifferent", "Nervous", "Stressed", "Aggressive", "Pushy", "Irritating",
    "Generous", "Extroverted", "Manipulative", "Charming", "Cheerful", "Moody", "Correct",
    "Talkative", "Inquisitive", "Bitter", "Lying", "Boring",
]
DARK_TRIAD = [
    "Self-Centred", "Aggressive", "Non-Empathic", "Moody", "Lying", "Sadistic", "Scheming",
    "Manipulative", "Impulsive", "Fanatic",
]
MOTIVATIONS = [
    "Money", "Status", "Order and Logic", "Enjoy Life", "Loiter", "Altruism", "Faith", "Circle",
    "Expertise", "Health",
]
EVENTS = ["Money", "Love", "Family", "Health", "Friend", "Enemy", "Work/Business", "Success", "Talent", "Faith"]


def test_personality_one_entry_per_face():
    t = codeblocks()
    assert [t.trait_by_roll("personality", f).name for f in range(1, 21)] == PERSONALITY


def test_dark_triad_ranges_enumerated():
    t = codeblocks()
    got = [t.trait_by_roll("dark_triad", f).name for f in range(1, 21)]
    assert got == [name for name in DARK_TRIAD for _ in range(2)]
    # each entry is exactly 2 faces out of 20: a 10 % chance
    for name in DARK_TRIAD:
        assert got.count(name) == 2


def test_motivation_ranges_enumerated():
    t = codeblocks()
    assert [t.motivation_by_roll(f).name for f in range(1, 21)] == [m for m in MOTIVATIONS for _ in range(2)]


def test_recent_event_odd_bad_even_good():
    t = codeblocks()
    for face in range(1, 21):
        topic, positive = t.event_by_roll(face)
        assert topic.topic == EVENTS[(face - 1) // 2]
        assert positive is (face % 2 == 0)
        assert topic.examples(positive)
    money = t.event("money")
    assert "inheritance" in money.positive and "robbed" in money.negative


def test_dispositions_and_modifiers():
    t = codeblocks()
    assert [(d.name, d.modifier) for d in t.dispositions] == [
        ("Affectionate", 40), ("Friendly", 20), ("Neutral", 0), ("Unfriendly", -20), ("Malicious", -40)]
    assert t.disposition("indifferent").name == "Neutral"
    assert t.default_disposition.name == "Neutral"
    with pytest.raises(KeyError, match="Friendly"):
        t.disposition("Friendy")


def test_out_of_range_faces_are_refused():
    with pytest.raises(ValueError):
        codeblocks().trait_by_roll("personality", 21)


def test_every_lean_is_known_and_bounded():
    t = codeblocks()
    for entry in [*t.personality.values(), *t.dark_triad.values()]:
        assert entry.description and set(entry.lean) <= set(LEANS)
        assert all(-1.0 <= v <= 1.0 for v in entry.lean.values())
    for drive in t.motivations.values():
        assert 0 <= drive.flee_threshold <= 1 and 0 <= drive.surrender_bias <= 1 and drive.on_break


def _top_lens(entry) -> str:
    return max(LENS_LEANS, key=lambda k: entry.lean.get(k, 0.0))


@pytest.mark.parametrize("table,name,lean", [
    ("personality", "Aggressive", "aggression"), ("dark_triad", "Aggressive", "aggression"),
    ("dark_triad", "Sadistic", "aggression"),
    ("dark_triad", "Scheming", "cunning"), ("dark_triad", "Manipulative", "cunning"),
    ("personality", "Manipulative", "cunning"), ("personality", "Lying", "cunning"),
    ("dark_triad", "Lying", "cunning"),
    ("personality", "Extroverted", "flair"), ("personality", "Talkative", "flair"),
    ("personality", "Charming", "flair"),
    ("personality", "Correct", "caution"), ("personality", "Reserved", "caution"),
    ("personality", "Inquisitive", "curiosity"),
])
def test_issue_lens_leans(table, name, lean):
    entry = codeblocks().trait(table, name)
    assert _top_lens(entry) == lean
    assert entry.lean[lean] >= 0.5


def test_shy_and_nervous_shun_aggression():
    t = codeblocks()
    for name in ("Shy", "Nervous"):
        assert t.trait("personality", name).lean["aggression"] < 0
        assert t.trait("personality", name).lean["self_preservation"] > 0


def test_motivations_that_yield_and_that_fight_on():
    t = codeblocks()
    for name in ("Money", "Health", "Loiter", "Enjoy Life"):
        m = t.motivation(name)
        assert m.flee_threshold >= 0.5 and m.resolve < 0 and "fight_on" not in m.on_break
    faith = t.motivation("Faith")
    assert faith.flee_threshold == 0 and faith.resolve >= 0.8 and faith.on_break == ("fight_on",)
    fanatic = t.trait("dark_triad", "Fanatic")
    assert fanatic.lean["resolve"] == 1.0 and fanatic.lean["self_preservation"] < 0
    assert t.mindless.flee_threshold == 0 and t.mindless.on_break == ("fight_on",)


def test_mood_follows_the_event_sign():
    t = codeblocks()
    assert t.mood_positive > 0 > t.mood_negative


# -- malformed copies ---------------------------------------------------------

def _broken(tmp_path, old: str, new: str, count: int = 1):
    text = BUNDLED.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "codeblocks.toml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


@pytest.mark.parametrize("old,new,where,says", [
    ('lean = { caution = 0.6, flair = -0.5, haste = -0.2, warmth = -0.2 }',
     'lean = { caution = 0.6, flare = -0.5 }', "personality[0].lean.flare", "did you mean 'flair'"),
    ('lean = { curiosity = 0.9, caution = 0.1 }', 'lean = { curiosity = 1.9 }',
     "personality[16].lean.curiosity", "out of range"),
    ('rolls = [11, 12]\nname = "Sadistic"', 'rolls = [10, 12]\nname = "Sadistic"',
     "dark_triad", "the face 10 belongs to both 'Lying' and 'Sadistic'"),
    ('rolls = [19, 20]\nname = "Fanatic"', 'rolls = [19, 19]\nname = "Fanatic"',
     "dark_triad", "no entry for the face 20"),
    ('roll = 20\nname = "Boring"', 'roll = 20\nname = "Shy"', "personality[19]", "'Shy' appears twice"),
    ('on_break = ["fight_on"]\n\n[[motivation]]', 'on_break = ["pray"]\n\n[[motivation]]',
     "motivation[6].on_break[0]", "unknown reaction 'pray'"),
    ('name = "Friendly"\nmodifier = 20', 'name = "Friendly"\nmodifier = 60',
     "disposition[1].modifier", "best to worst"),
    ('flee_threshold = 0.5\nsurrender_bias = 0.5\nresolve = -0.3',
     'flee_threshold = "high"\nsurrender_bias = 0.5\nresolve = -0.3',
     "motivation[0].flee_threshold", "expected a number"),
    ('rolls = [1, 2]\ntopic = "Money"', 'rolls = [1, 1]\ntopic = "Money"', "recent_event[0]", "odd face"),
    ('description = "Loud, open', 'descripton = "Loud, open', "personality[9].descripton", "unknown field"),
    ('[mood]', '[moods]', "moods", "unknown field"),
])
def test_malformed_copy_names_file_and_entry(tmp_path, old, new, where, says):
    path = _broken(tmp_path, old, new)
    with pytest.raises(ContentError) as info:
        load_codeblocks(path)
    err = info.value
    assert err.file == str(path)
    assert err.path == where
    assert says in str(err)
    assert str(path) in str(err)


def test_toml_syntax_error_has_line(tmp_path):
    path = _broken(tmp_path, 'name = "Shy"', 'name = "Shy')
    with pytest.raises(ContentError) as info:
        load_codeblocks(path)
    assert info.value.line is not None and str(path) in str(info.value)


def test_a_disposition_is_found_by_any_spelling_of_its_name_or_alias_as_the_table_scan_finds_it():
    """``CodeBlockTables.disposition`` looks a name up at once; it finds what a scan of the table in order finds."""
    import pytest

    from solo.npc.tables import codeblocks

    tables = codeblocks()

    def scanned(name: str):
        wanted = name.strip().lower()
        return next((d for d in tables.dispositions
                     if wanted == d.name.lower() or wanted in (a.lower() for a in d.aliases)), None)

    for disp in tables.dispositions:
        for spelled in (disp.name, *disp.aliases):
            for name in (spelled, spelled.upper(), f"  {spelled.lower()} "):
                assert tables.disposition(name) is scanned(name) is disp
    with pytest.raises(KeyError, match="unknown disposition"):
        tables.disposition("Smitten")

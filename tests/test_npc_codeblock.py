"""Code Blocks: the quick 4d20 read, reading fixed and rolled fields from files,
disposition steps and how the lean numbers add up."""

from __future__ import annotations

import random

import pytest

from solo.errors import ContentError
from solo.npc import (
    CodeBlock,
    RecentEvent,
    Trait,
    colder,
    disposition_modifier,
    disposition_names,
    disposition_step,
    normalise_disposition,
    roll_code_block,
    shift_disposition,
    warmer,
)
from solo.npc.leanings import leanings


class Faces(random.Random):
    """Dice that fall as the test says; ``choice`` takes the first option."""

    def __init__(self, *faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        face = self.faces.pop(0)
        assert a <= face <= b
        return face

    def choice(self, seq):
        return seq[0]


def test_quick_read_in_order():
    cb = roll_code_block(Faces(6, 17, 1, 4))
    assert cb.personality == (Trait("Aggressive"), Trait("Inquisitive"))
    assert cb.motivation == ("Money",)
    assert cb.event == RecentEvent("Love", True, "new love")
    assert cb.disposition == "Neutral"
    assert not cb.antagonist


def test_antagonist_reads_the_dark_triad_second():
    cb = roll_code_block(Faces(6, 12, 13, 19), antagonist=True)
    assert cb.personality == (Trait("Aggressive"), Trait("Sadistic", "dark_triad"))
    assert cb.motivation == ("Faith",)
    assert cb.event.topic == "Faith" and not cb.event.positive
    assert cb.antagonist


@pytest.mark.parametrize("face,name", [(1, "Self-Centred"), (2, "Self-Centred"), (3, "Aggressive"),
                                       (10, "Lying"), (11, "Sadistic"), (18, "Impulsive"), (20, "Fanatic")])
def test_dark_triad_faces_through_the_roller(face, name):
    assert roll_code_block(Faces(1, face, 1, 1), antagonist=True).personality[1].name == name


def test_second_motivation_differs_and_comes_last():
    # the fifth and sixth dice: 2 repeats Money and is rolled again, 20 is Health
    cb = roll_code_block(Faces(1, 1, 1, 1, 2, 20), motivations=2)
    assert cb.motivation == ("Money", "Health")
    assert cb.personality == (Trait("Reserved"), Trait("Reserved"))  # a double is kept


def test_disposition_given():
    assert roll_code_block(Faces(1, 1, 1, 1), disposition="friendly").disposition == "Friendly"
    with pytest.raises(KeyError):
        roll_code_block(Faces(1, 1, 1, 1), disposition="Smitten")


def test_reproducible_per_seed_and_seeds_differ():
    a = [roll_code_block(random.Random(s), antagonist=True) for s in range(30)]
    b = [roll_code_block(random.Random(s), antagonist=True) for s in range(30)]
    assert a == b
    assert len({str(cb.to_dict()) for cb in a}) > 20


def test_roll_distribution_of_first_entry_is_uniform_over_the_table():
    # each face of the first d20 reads a different entry: twenty entries, one chance in twenty each
    firsts = [roll_code_block(Faces(face, 1, 1, 1)).personality[0].name for face in range(1, 21)]
    assert len(set(firsts)) == 20
    # and the seeded generator draws them evenly, within four standard errors
    rng = random.Random(5)
    n = 2000
    counts: dict[str, int] = {}
    for _ in range(n):
        name = roll_code_block(rng).personality[0].name
        counts[name] = counts.get(name, 0) + 1
    assert set(counts) == set(firsts)
    assert all(abs(c / n - 1 / 20) <= 4 * (1 / 20 * 19 / 20 / n) ** 0.5 for c in counts.values())


def test_round_trip():
    for seed in range(50):
        cb = roll_code_block(random.Random(seed), antagonist=seed % 2 == 0, motivations=1 + seed % 2)
        assert CodeBlock.from_dict(cb.to_dict()) == cb


def test_fixed_fields_any_case():
    cb = CodeBlock.from_dict({
        "personality": ["cheerful"], "dark_triad": ["sadistic"], "disposition": "indifferent",
        "motivation": "faith", "event": {"topic": "work/business", "sign": "-", "example": "fired"},
    })
    assert cb.personality == (Trait("Cheerful"), Trait("Sadistic", "dark_triad"))
    assert cb.disposition == "Neutral" and cb.motivation == ("Faith",)
    assert cb.event == RecentEvent("Work/Business", False, "fired")


def test_event_example_defaults_to_the_first_listed():
    cb = CodeBlock.from_dict({"personality": ["Shy", "Boring"], "motivation": ["Loiter"],
                              "event": {"topic": "Money", "sign": "negative"}})
    assert cb.event.example == "gambling loss"


def test_rolled_fields_use_the_generator_in_order():
    cb = CodeBlock.from_dict({"personality": ["Shy", "random"], "motivation": ["random"], "event": "random"},
                             rng=Faces(10, 7, 20))
    assert cb.personality == (Trait("Shy"), Trait("Extroverted"))
    assert cb.motivation == ("Enjoy Life",)
    assert cb.event == RecentEvent("Faith", True, "a prayer answered")


def test_whole_block_random_or_antagonist():
    a = CodeBlock.from_dict("random", rng=random.Random(3))
    assert a == roll_code_block(random.Random(3))
    b = CodeBlock.from_dict("antagonist", rng=random.Random(3))
    assert b.personality[1].table == "dark_triad"


@pytest.mark.parametrize("data,where,says", [
    ({"personality": ["Shy", "random"], "motivation": ["Money"], "event": "random"},
     "code_block.personality[1]", "needs a random generator"),
    ({"personality": ["Shy"], "motivation": ["Money"], "event": {"topic": "Money", "sign": "+"}},
     "code_block.personality", "exactly two"),
    ({"personality": ["Shy", "Grumpy"], "motivation": ["Money"], "event": {"topic": "Money", "sign": "+"}},
     "code_block.personality[1]", "unknown Personality entry 'Grumpy'"),
    ({"personality": ["Shy", "Sadistic"], "motivation": ["Money"], "event": {"topic": "Money", "sign": "+"}},
     "code_block.personality[1]", "unknown Personality entry"),
    ({"personality": ["Shy", "Boring"], "motivation": ["Money", "money"], "event": {"topic": "Money", "sign": "+"}},
     "code_block.motivation[1]", "twice"),
    ({"personality": ["Shy", "Boring"], "motivation": ["Money", "Faith", "Health"],
      "event": {"topic": "Money", "sign": "+"}}, "code_block.motivation", "one or two"),
    ({"personality": ["Shy", "Boring"], "motivation": ["Money"], "event": {"topic": "Money", "sign": "good"}},
     "code_block.event.sign", "positive"),
    ({"personality": ["Shy", "Boring"], "motivation": ["Money"], "event": {"topic": "Lottery", "sign": "+"}},
     "code_block.event.topic", "unknown Recent Event topic"),
    ({"personality": ["Shy", "Boring"], "motivation": ["Money"], "disposition": "Smitten",
      "event": {"topic": "Money", "sign": "+"}}, "code_block.disposition", "unknown disposition"),
    ({"personalty": ["Shy", "Boring"]}, "code_block.personalty", "did you mean 'personality'"),
    (42, "code_block", "expected a table"),
])
def test_bad_blocks_name_the_field(data, where, says):
    with pytest.raises(ContentError) as info:
        CodeBlock.from_dict(data, file="npc.toml")
    assert info.value.path == where and info.value.file == "npc.toml"
    assert says in str(info.value)


# -- disposition ladder -------------------------------------------------------

def test_disposition_ladder():
    assert disposition_names() == ["Affectionate", "Friendly", "Neutral", "Unfriendly", "Malicious"]
    assert [disposition_modifier(n) for n in disposition_names()] == [40, 20, 0, -20, -40]
    assert disposition_modifier("Indifferent") == 0
    assert [disposition_step(n) for n in disposition_names()] == [2, 1, 0, -1, -2]
    assert normalise_disposition("UNFRIENDLY") == "Unfriendly"
    assert warmer("Neutral") == "Friendly" and colder("Neutral") == "Unfriendly"
    assert shift_disposition("Friendly", 5) == "Affectionate"
    assert shift_disposition("Friendly", -2) == "Unfriendly"
    assert shift_disposition("Malicious", -1) == "Malicious"
    assert shift_disposition("indifferent", 0) == "Neutral"


# -- leanings -------------------------------------------------------------------

def _block(first, second, motivation=("Money",), positive=True, disposition="Neutral"):
    return CodeBlock((first, second), tuple(motivation), RecentEvent("Money", positive, "x"), disposition)


def test_aggressive_sadistic_at_least_twice_shy_nervous():
    brute = leanings(_block(Trait("Aggressive"), Trait("Sadistic", "dark_triad")))
    mouse = leanings(_block(Trait("Shy"), Trait("Nervous")))
    assert brute.lens_lean()["aggressive"] >= 1.5
    assert mouse.lens_lean()["aggressive"] < 0
    assert brute.lean["cruelty"] > mouse.lean["cruelty"]
    assert mouse.lean["self_preservation"] > brute.lean["self_preservation"]


def test_leans_add_up_and_mood_colours():
    good = leanings(_block(Trait("Reserved"), Trait("Reserved"), positive=True))
    bad = leanings(_block(Trait("Reserved"), Trait("Reserved"), positive=False))
    assert good.lean["caution"] == pytest.approx(1.2)  # a double counts twice
    assert good.mood > 0 > bad.mood
    assert good.lean["warmth"] > bad.lean["warmth"] and good.lean["cruelty"] < bad.lean["cruelty"]


def test_motivation_sets_the_risk():
    greedy = leanings(_block(Trait("Boring"), Trait("Boring"), ("Money",)))
    faithful = leanings(_block(Trait("Boring"), Trait("Boring"), ("Faith",)))
    assert greedy.yields and greedy.flee_threshold == 0.5 and greedy.on_break[0] == "bargain"
    assert not faithful.yields and faithful.lean["resolve"] >= 0.8
    both = leanings(_block(Trait("Boring"), Trait("Boring"), ("Money", "Faith")))
    assert both.flee_threshold == pytest.approx(0.25)
    assert both.on_break == ("bargain", "surrender", "flee", "fight_on")


def test_fanatic_outweighs_a_timid_motivation_in_resolve():
    fanatic = leanings(_block(Trait("Boring"), Trait("Fanatic", "dark_triad"), ("Health",)))
    assert fanatic.lean["resolve"] >= 0.5


def test_disposition_shifts_surrender():
    friend = leanings(_block(Trait("Boring"), Trait("Boring"), disposition="Affectionate"))
    foe = leanings(_block(Trait("Boring"), Trait("Boring"), disposition="Malicious"))
    assert friend.surrender_bias > foe.surrender_bias


def test_mindless_never_yields():
    lean = leanings(None, mindless=True)
    assert lean.mindless and not lean.yields and lean.flee_threshold == 0
    assert lean.on_break == ("fight_on",) and lean.lean["self_preservation"] == -1.0
    with_block = leanings(_block(Trait("Shy"), Trait("Nervous"), ("Health",)), mindless=True)
    assert with_block == lean
    with pytest.raises(ValueError):
        leanings(None)


def test_leanings_are_worked_out_once_for_what_they_are_made_of():
    """leanings keeps what it worked out by the Code Block's entries (a mind asks at every conflict): asked again
    it gives the same numbers as working them out afresh, and a disposition that moved gives new ones."""
    from solo.npc.leanings import _leanings
    from solo.npc.tables import codeblocks

    tables = codeblocks()
    for block in (_block(Trait("Shy"), Trait("Nervous"), ("Health",)), _block(Trait("Boring"), Trait("Boring")),
                  _block(Trait("Boring"), Trait("Fanatic", "dark_triad"), ("Money", "Faith"))):
        first = leanings(block)
        assert leanings(block) is first
        assert first == _leanings(block, mindless=False, t=tables)
        block.disposition = "Malicious"  # a Code Block's disposition moves as the PCs deal with it
        assert leanings(block) == _leanings(block, mindless=False, t=tables) != first
    listed = _block(Trait("Shy"), Trait("Nervous"), ("Health",))
    listed.personality = [Trait("Shy"), Trait("Nervous")]  # not a value: worked out each time, the same numbers
    assert leanings(listed) == _leanings(listed, mindless=False, t=tables)


def test_an_npc_file_with_a_role_and_no_pronoun_takes_its_roles():
    """A reading of narrated conflicts: a file's `role = "automaton"` with no pronoun was told "their resolve" and
    "the way they came", where `solo npc --role automaton` gives "it". A pronoun written stands."""
    from solo.npc.model import NPC

    base = {"name": "The sentry", "level": "common", "skills": ["Awareness"], "mindless": True}
    assert NPC.from_dict(base | {"role": "automaton"}).pronoun == "it"
    assert NPC.from_dict(base | {"role": "automaton", "pronoun": "she"}).pronoun == "she"
    assert NPC.from_dict(base).pronoun == "they"

"""Skill rolls (docs/rules.md §3) and opposed rolls (§4), with exact probabilities by enumeration."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solo.rules.dice import flip, is_exceptional, new_rng
from solo.rules.rolls import (
    DIFFICULTIES,
    QUALITY_WORDS,
    CheckResult,
    Modifier,
    OpposedResult,
    difficulty_modifier,
    flip_check,
    judge,
    resolve_opposed,
    roll_check,
    roll_opposed,
    success_chance,
)

FACES = range(1, 101)


# -- difficulty ladder and quality words -----------------------------------

@pytest.mark.parametrize(
    "word, value",
    [("Routine", None), ("Easy", 20), ("Normal", 0), ("Hard", -20), ("Very Hard", -40),
     ("very hard", -40), ("VERY_HARD", -40), ("very-hard", -40), ("  very   hard ", -40)],
)
def test_comae_difficulty_ladder(word, value):
    assert difficulty_modifier(word) == value


@pytest.mark.parametrize(
    "word, value",
    [("Terrible", -50), ("Awful", -40), ("Bad", -30), ("Weak", -20), ("Poor", -10), ("Normal", 0),
     ("Fair", 10), ("Fine", 20), ("Good", 30), ("Superior", 40), ("Incredible", 50)],
)
def test_quality_words(word, value):
    assert difficulty_modifier(word) == value


def test_ladder_tables_are_complete():
    assert DIFFICULTIES == {"routine": None, "easy": 20, "normal": 0, "hard": -20, "very hard": -40}
    assert sorted(QUALITY_WORDS.values()) == [-50, -40, -30, -20, -10, 10, 20, 30, 40, 50]


def test_comae_words_take_precedence():
    # "normal" exists in both ladders; the Comae meaning (0) is the one used.
    assert difficulty_modifier("normal") == DIFFICULTIES["normal"] == 0
    for word in DIFFICULTIES:
        assert difficulty_modifier(word) == DIFFICULTIES[word]


def test_unknown_difficulty_lists_the_known_words():
    with pytest.raises(KeyError) as info:
        difficulty_modifier("impossible")
    message = info.value.args[0]
    assert "impossible" in message
    for word in ("Routine", "Very Hard", "Terrible", "Incredible"):
        assert word in message


def test_modifier_shows_its_sign():
    assert str(Modifier("Hard", -20)) == "Hard -20"
    assert str(Modifier("//Perception", 20)) == "//Perception +20"
    assert str(Modifier("nothing", 0)) == "nothing +0"


# -- judge: every face against a range of targets --------------------------

def expected_success(face: int, target: int) -> bool:
    """docs/rules.md §3 restated independently: roll ≤ skill, 100 always fails."""
    return face != 100 and face <= target


@pytest.mark.parametrize("target", range(-10, 121))
def test_judge_every_face(target):
    for face in FACES:
        r = judge(face, target)
        assert r.roll == face and r.target == target
        assert r.success is expected_success(face, target)
        assert r.exceptional is is_exceptional(face)
        assert r.exceptional_success is (r.success and r.exceptional)
        assert r.exceptional_failure is (not r.success and r.exceptional)
        assert not r.automatic and not r.flipped


@pytest.mark.parametrize("target", range(-10, 121))
def test_success_chance_is_exact(target):
    count = sum(1 for face in FACES if expected_success(face, target))
    assert success_chance(target) == count / 100
    assert success_chance(target) == min(max(target, 0), 99) / 100


def test_success_chance_landmarks():
    assert success_chance(65) == 0.65
    assert success_chance(0) == 0.0
    assert success_chance(-20) == 0.0
    assert success_chance(99) == 0.99
    assert success_chance(100) == 0.99  # 00 still fails
    assert success_chance(250) == 0.99


def test_00_always_fails_exceptionally():
    for target in (0, 50, 99, 100, 101, 150, 1000):
        r = judge(100, target)
        assert not r.success
        assert r.exceptional_failure


def test_at_or_below_zero_every_roll_fails():
    for target in (0, -1, -40):
        assert not any(judge(f, target).success for f in FACES)


def test_above_99_the_only_failure_is_00():
    for target in (100, 120):
        assert [f for f in FACES if not judge(f, target).success] == [100]


def test_exceptional_counts_for_every_target():
    # Ten exceptional faces; with skill t (0..99), the doubles ≤ t succeed exceptionally.
    for target in range(-10, 121):
        es = [f for f in FACES if judge(f, target).exceptional_success]
        ef = [f for f in FACES if judge(f, target).exceptional_failure]
        assert len(es) + len(ef) == 10
        assert es == [f for f in (11, 22, 33, 44, 55, 66, 77, 88, 99) if f <= target]
        assert 100 in ef


def test_exceptional_success_example():
    r = judge(44, 65)
    assert r.success and r.exceptional_success and not r.exceptional_failure
    r = judge(77, 65)
    assert not r.success and r.exceptional_failure


@pytest.mark.parametrize("bad", [0, -1, 101, 1000])
def test_judge_rejects_impossible_rolls(bad):
    with pytest.raises(ValueError):
        judge(bad, 50)


# -- roll_check -------------------------------------------------------------

def test_roll_check_matches_judge_on_the_same_draw():
    a, b = new_rng(5), new_rng(5)
    for target in range(-10, 121, 7):
        r = roll_check(a, target)
        face = b.randint(1, 100)
        assert r == judge(face, target)


def test_routine_is_an_automatic_success_without_a_roll():
    rng = new_rng(5)
    before = rng.getstate()
    for target in (-50, 0, 5, 65, 200):
        r = roll_check(rng, target, routine=True)
        assert r.success and r.automatic
        assert r.roll is None
        assert not r.exceptional
        assert not r.can_flip
    assert rng.getstate() == before  # no die was rolled


def test_roll_check_frequencies_follow_the_target(loaded):
    # every face of the d100 once: 65 of the hundred succeed against 65
    assert sum(roll_check(loaded([face]), 65).success for face in range(1, 101)) == 65
    # and the seeded generator agrees, within four standard errors
    rng = new_rng(99)
    n = 2000
    hits = sum(roll_check(rng, 65).success for _ in range(n))
    assert abs(hits / n - 0.65) <= 4 * (0.65 * 0.35 / n) ** 0.5


def test_check_to_dict():
    assert judge(42, 65).to_dict() == {
        "target": 65, "roll": 42, "success": True, "exceptional": False,
        "automatic": False, "flipped": False,
    }


# -- Luck flip --------------------------------------------------------------

def test_flip_check_every_face():
    for target in (-10, 0, 1, 9, 10, 37, 50, 65, 99, 100, 120):
        for face in FACES:
            before = judge(face, target)
            after = flip_check(before)
            assert after.flipped
            assert after.original == face
            assert after.roll == flip(face)  # the flipped number is the result
            assert after.success is expected_success(flip(face), target)
            assert after.exceptional is is_exceptional(flip(face))
            assert after.target == target


def test_luck_flip_turns_73_into_37():
    r = judge(73, 40)
    assert not r.success and r.can_flip
    flipped = flip_check(r)
    assert flipped.roll == 37 and flipped.success and flipped.original == 73


def test_can_flip_only_when_the_flip_would_succeed():
    for target in range(-10, 121, 3):
        for face in FACES:
            r = judge(face, target)
            assert r.can_flip is (not r.success and expected_success(flip(face), target))


def test_can_flip_counts_are_exact():
    # Skill 40: a failure 41..99 flips to a success when its units digit is 0..3
    # (41 → 14, 90 → 09); 4x with x ≥ 4 flips to ≥ 44 and still fails.
    flippable = [f for f in FACES if judge(f, 40).can_flip]
    assert flippable == [10 * tens + units for tens in range(4, 10) for units in range(4)
                         if 10 * tens + units > 40]
    assert len(flippable) == 23
    assert 73 in flippable and 74 not in flippable
    assert 100 not in flippable  # 00 flips to 00 and still fails


def test_a_flipped_roll_cannot_be_flipped_again():
    r = flip_check(judge(73, 40))
    assert not r.can_flip
    with pytest.raises(ValueError, match="already flipped"):
        flip_check(r)


def test_an_automatic_success_cannot_be_flipped():
    with pytest.raises(ValueError):
        flip_check(roll_check(new_rng(1), 50, routine=True))


def test_flip_check_keeps_to_dict_flag():
    assert flip_check(judge(73, 40)).to_dict()["flipped"] is True


# -- opposed rolls -----------------------------------------------------------

def expected_winner(ra: int, ta: int, rb: int, tb: int, defender: str) -> str | None:
    """docs/rules.md §4 restated: highest successful roll wins; equal successes → defender; none → nobody."""
    sa, sb = expected_success(ra, ta), expected_success(rb, tb)
    if not sa and not sb:
        return None
    if sa and not sb:
        return "a"
    if sb and not sa:
        return "b"
    if ra == rb:
        return defender
    return "a" if ra > rb else "b"


@pytest.mark.parametrize("ta, tb", [(65, 50), (50, 50), (30, 80), (0, 40), (100, 100), (120, 10), (-5, -5)])
@pytest.mark.parametrize("defender", ["a", "b"])
def test_resolve_opposed_on_all_10000_pairs(ta, tb, defender):
    for ra in FACES:
        a = judge(ra, ta)
        for rb in FACES:
            result = resolve_opposed(a, judge(rb, tb), defender=defender)
            want = expected_winner(ra, ta, rb, tb, defender)
            assert result.winner == want
            assert result.tie is (a.success and ra == rb and expected_success(rb, tb))
            assert result.loser_may_escalate is (want is not None)
            if want is None:
                assert result.loser is None
            else:
                assert result.loser == ("b" if want == "a" else "a")


def exact_opposed_odds(ta: int, tb: int, defender: str = "b") -> dict:
    counts = {"a": 0, "b": 0, None: 0, "tie": 0}
    for ra in FACES:
        a = judge(ra, ta)
        for rb in FACES:
            r = resolve_opposed(a, judge(rb, tb), defender=defender)
            counts[r.winner] += 1
            counts["tie"] += r.tie
    return {k: Fraction(v, 10000) for k, v in counts.items()}


def closed_form(ta: int, tb: int) -> dict:
    """Independent formula for skills in 0..99: ties happen on the same successful face."""
    pa, pb = min(max(ta, 0), 99), min(max(tb, 0), 99)
    # a wins outright: a succeeds with face x, and b fails or rolls a smaller success.
    a_win = sum((100 - pb) + min(x - 1, pb) for x in range(1, pa + 1))
    b_win = sum((100 - pa) + min(y - 1, pa) for y in range(1, pb + 1))
    tie = min(pa, pb)
    none = (100 - pa) * (100 - pb)
    return {"a": Fraction(a_win, 10000), "b": Fraction(b_win, 10000),
            "tie": Fraction(tie, 10000), None: Fraction(none, 10000)}


@pytest.mark.parametrize("ta, tb", [(65, 50), (50, 50), (30, 80), (0, 40), (99, 99), (85, 42), (5, 95)])
def test_opposed_odds_are_exact(ta, tb):
    got = exact_opposed_odds(ta, tb, defender="b")
    want = closed_form(ta, tb)
    assert got[None] == want[None]
    assert got["tie"] == want["tie"]
    assert got["a"] == want["a"]  # ties go to b, the defender
    assert got["b"] == want["b"] + want["tie"]
    assert got["a"] + got["b"] + got[None] == 1


def test_opposed_50_50_exact_numbers():
    odds = exact_opposed_odds(50, 50, defender="b")
    assert odds["tie"] == Fraction(50, 10000)
    assert odds[None] == Fraction(2500, 10000)
    # a: 50·50 (b fails) + sum_{x=1..50} (x-1) = 2500 + 1225
    assert odds["a"] == Fraction(3725, 10000)
    assert odds["b"] == Fraction(3775, 10000)


def test_defender_gets_the_ties():
    for defender in ("a", "b"):
        odds = exact_opposed_odds(60, 60, defender=defender)
        other = "b" if defender == "a" else "a"
        assert odds[defender] - odds[other] == odds["tie"]


def test_tie_goes_to_defender():
    a, b = judge(42, 60), judge(42, 70)
    r = resolve_opposed(a, b)
    assert r.tie and r.winner == "b" and r.defender == "b"
    r = resolve_opposed(a, b, defender="a")
    assert r.tie and r.winner == "a"


def test_equal_failures_are_no_tie():
    r = resolve_opposed(judge(80, 50), judge(80, 50))
    assert r.winner is None and not r.tie
    assert not r.loser_may_escalate


def test_both_fail_nobody_wins():
    r = resolve_opposed(judge(90, 50), judge(70, 40))
    assert r.winner is None and r.loser is None
    assert not r.loser_may_escalate


def test_highest_success_wins():
    r = resolve_opposed(judge(60, 65), judge(30, 80))
    assert r.winner == "a" and r.loser == "b" and r.loser_may_escalate
    r = resolve_opposed(judge(10, 65), judge(30, 80))
    assert r.winner == "b"


def test_any_success_beats_a_failure():
    r = resolve_opposed(judge(1, 5), judge(99, 50))
    assert r.winner == "a"


def test_00_never_wins():
    r = resolve_opposed(judge(100, 200), judge(1, 1))
    assert r.winner == "b"


def test_flip_decides_the_opposed_roll():
    a = judge(73, 40)
    b = judge(20, 50)
    assert resolve_opposed(a, b).winner == "b"
    assert resolve_opposed(flip_check(a), b).winner == "a"  # 37 beats 20
    # a flip that lands on the opponent's number is a tie after flips → defender
    r = resolve_opposed(flip_check(judge(2, 25)), judge(20, 50))  # 02 → 20
    assert r.tie and r.winner == "b"


def test_automatic_success_beats_any_roll_and_ties_with_another():
    auto = CheckResult(target=50, roll=None, success=True, exceptional=False, automatic=True)
    assert resolve_opposed(auto, judge(99, 100)).winner == "a"
    r = resolve_opposed(auto, auto, defender="a")
    assert r.tie and r.winner == "a"


def test_resolve_opposed_rejects_a_bad_defender():
    with pytest.raises(ValueError):
        resolve_opposed(judge(1, 50), judge(2, 50), defender="c")


def test_roll_opposed_rolls_a_then_b():
    rng, twin = new_rng(17), new_rng(17)
    for _ in range(200):
        r = roll_opposed(rng, 55, 45)
        ra, rb = twin.randint(1, 100), twin.randint(1, 100)
        assert (r.a.roll, r.b.roll) == (ra, rb)
        assert r.winner == expected_winner(ra, 55, rb, 45, "b")
        assert isinstance(r, OpposedResult)


def test_roll_opposed_defender_option():
    rng = new_rng(1)
    assert roll_opposed(rng, 50, 50, defender="a").defender == "a"


def test_opposed_to_dict():
    data = resolve_opposed(judge(30, 50), judge(30, 50)).to_dict()
    assert data["winner"] == "b" and data["tie"] is True and data["defender"] == "b"
    assert data["loser_may_escalate"] is True
    assert data["a"]["roll"] == 30


def test_flip_that_helps_only_when_it_changes_who_wins():
    from solo.rules.rolls import flip_that_helps, judge

    assert flip_that_helps(judge(73, 50)).roll == 37  # a failed skill roll made good
    assert flip_that_helps(judge(96, 50)) is None  # 69 fails too
    assert flip_that_helps(judge(100, 150)) is None  # 00 stays 00 and always fails
    assert flip_that_helps(judge(12, 50)) is None  # already a success
    assert flip_that_helps(judge(73, 50), best_other=40) is None  # 37 still loses to 40
    assert flip_that_helps(judge(73, 50), best_other=30).roll == 37  # 37 beats 30
    assert flip_that_helps(judge(73, 50), best_other=37).roll == 37  # a tie stalls the round
    assert flip_that_helps(judge(73, 50), best_other=37, tie_loses=True) is None  # the defender takes ties
    assert flip_that_helps(judge(73, 50), best_other=30, best_ally=35) is None  # a friend already wins


def test_a_misspelt_difficulty_is_told_the_word_it_most_likely_means(tmp_path):
    """A new GM's run: `difficulty = "hrad"` was told only the list of words, where every other misspelling they
    tried got a 'did you mean'; so is an obstacle's."""
    with pytest.raises(KeyError) as told:
        difficulty_modifier("hrad")
    assert "unknown difficulty 'hrad' (did you mean 'hard'?)" in told.value.args[0]
    from solo.sim.lint import check_adventure

    source = tmp_path / "lock.toml"
    source.write_text('[adventure]\ntitle = "Lock"\nstart = "door"\n\n[scenes.door]\ntext = "A door."\n\n'
                      '[[scenes.door.choices]]\ntext = "Pick it"\nconflict = { type = "lockpicking", obstacle = '
                      '{ name = "the lock", difficulty = "nomral" }, won = "in", lost = "in" }\n\n'
                      '[scenes.in]\ntext = "In."\nending = true\n', encoding="utf-8")
    (problem,) = check_adventure(source).problems
    assert problem.code == "E005" and problem.message.endswith("(did you mean 'normal'?)")

"""One home per adventure verb: the registries, the documentation and the scene flow agree.

docs/adventures.md is what authors read; the registries in solo.story.play.effects
and solo.story.play.actions are what the loader checks and the engine does. These
tests keep the two equal, verb by verb and field by field.
"""

from __future__ import annotations

import gc
import random
import re
import weakref
from pathlib import Path

import pytest

from solo.minds.bots import RandomDecider
from solo.minds.memory import DEEDS
from solo.rules.creation import pregenerated
from solo.story.format.adventure import FALLBACK, Action, Where
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure, read_adventure
from solo.story.format.verbs import REQUIRED
from solo.story.play.actions import ACTIONS, ActionVerb
from solo.story.play.effects import EFFECTS, MEMORY_EVENTS, EffectVerb
from solo.story.play.engine import Game
from solo.story.play.party import set_up_party

DOC = (Path(__file__).resolve().parent.parent / "docs" / "adventures.md").read_text("utf-8")
NAME = re.compile(r"`([a-z_]+)`")  # a field or outcome name; quoted values such as `"all"` are not names


def _section(heading: str, level: str = "## ") -> str:
    start = DOC.index(f"\n{heading}\n") + len(heading) + 2
    end = DOC.find(f"\n{level}", start)
    return DOC[start:end if end >= 0 else None]


def _rows(text: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("| ") and not line.startswith("|---")][1:]


def _effect_rows() -> dict[str, list[str]]:
    rows = {}
    for cells in _rows(_section("## Effects")):
        verb = re.match(r"`\{ ([a-z_]+) =", cells[0])
        assert verb, cells
        rows[verb.group(1)] = cells
    return rows


def _action_sections() -> dict[str, str]:
    actions = _section("## Actions")
    parts = re.split(r"\n### `([a-z_]+)`[^\n]*\n", actions)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_documented_effects_are_the_registry_in_order():
    assert list(_effect_rows()) == list(EFFECTS)


@pytest.mark.parametrize("verb", list(EFFECTS))
def test_each_effect_documents_its_own_fields(verb):
    cells = _effect_rows()[verb]
    documented = set(NAME.findall(cells[1])) | {verb}
    assert documented == set(EFFECTS[verb].fields)


def test_the_documented_memory_events_are_the_ones_the_loader_accepts_and_minds_weigh():
    assert tuple(re.findall(r'`"([a-z_]+)"`', _effect_rows()["memory"][1])) == MEMORY_EVENTS
    assert set(MEMORY_EVENTS) == set(DEEDS)


def test_the_documented_actions_are_the_registry_in_order():
    assert list(_action_sections()) == list(ACTIONS)
    choice_row = next(cells for cells in _rows(_section("## Choices")) if "[action]" in cells[1])
    assert NAME.findall(choice_row[0]) == list(ACTIONS)


@pytest.mark.parametrize("verb", list(ACTIONS))
def test_each_action_documents_its_fields_and_outcomes(verb):
    text = _action_sections()[verb]
    documented = {name for cells in _rows(text) for name in NAME.findall(cells[0])}
    outcomes = re.search(r"Outcomes[^\n]*(?:\n[^\n]+)*", text)  # to the end of its paragraph
    if outcomes:
        documented |= set(NAME.findall(outcomes.group(0)))
    action = ACTIONS[verb]
    assert documented == set(action.fields) | set(action.outcomes) | set(action.optional)


def test_the_documented_fallbacks_are_the_engines():
    documented = {}
    for cells in _rows(_section("## Actions").split("\n### ")[0]):
        (fallback,) = NAME.findall(cells[1])
        documented.update(dict.fromkeys(NAME.findall(cells[0]), fallback))
    assert documented == FALLBACK
    outcomes = {o for a in ACTIONS.values() for o in a.outcomes + a.optional}
    assert set(FALLBACK) <= outcomes and set(FALLBACK.values()) <= outcomes


def test_every_verb_does_its_own_work():
    assert all(type(verb).apply is not EffectVerb.apply for verb in EFFECTS.values())
    assert all(type(verb).resolve is not ActionVerb.resolve for verb in ACTIONS.values())
    assert all(name == verb.name for name, verb in [*EFFECTS.items(), *ACTIONS.items()])


def test_games_leave_nothing_behind_in_the_flow_machine():
    """Each game moves through its adventure's machine without joining it, so a finished game is freed."""
    adventure = load_adventure(find_adventure("tutorial"))
    refs = []
    for seed in range(20):
        game = Game(adventure, seed=seed, decider=RandomDecider(random.Random(seed)), party=[pregenerated("espen")])
        game.play()
        refs.append(weakref.ref(game))
    del game
    gc.collect()
    assert all(ref() is None for ref in refs)
    assert adventure.flow.models == []
    assert adventure.flow is adventure.flow  # built once per adventure


@pytest.mark.parametrize("verb", [*EFFECTS.values(), *ACTIONS.values()], ids=lambda v: v.name)
def test_a_field_left_out_reads_as_its_declared_default(verb):
    for name, field in verb.fields.items():
        if field.default is REQUIRED:
            with pytest.raises(KeyError):
                verb.arg({}, name)
        else:
            assert verb.arg({}, name) == field.default
            assert verb.arg({name: "given"}, name) == "given"


def _game(seed: int = 3) -> Game:
    adventure = load_adventure(find_adventure("tutorial"))
    game = Game(adventure, seed=seed, decider=RandomDecider(random.Random(seed)))
    set_up_party(game, [pregenerated("espen")])
    game.state.active = 0
    return game


def _defaults(verb, given: dict) -> dict:
    """``given`` with every optional field written out as its declared default (None means 'absent')."""
    return {**{n: f.default for n, f in verb.fields.items() if f.default not in (REQUIRED, None)}, **given}


def _outcome(game: Game) -> dict:
    pc = game.state.pcs[0]
    return {"counters": dict(game.state.counters), "luck": pc.luck,
            "pools": {name: pool.current for name, pool in pc.pools.items()}}


@pytest.mark.parametrize("given", [{"add": "c"}, {"damage": "BODY"}, {"heal": "BODY"}, {"luck": -1},
                                   {"rest": "days"}], ids=lambda g: next(iter(g)))
def test_an_effect_does_the_same_with_its_defaults_left_out_or_written(given):
    verb = next(EFFECTS[k] for k in given if k in EFFECTS)
    written = _defaults(verb, given)
    assert written != given  # the case leaves out at least one field
    games = []
    for args in (given, written):
        game = _game()
        game.state.pcs[0].pools["BODY"].current -= 3  # room to heal and rest
        verb.apply(game, args)
        games.append(_outcome(game))
    assert games[0] == games[1]
    if verb.name == "add":
        assert games[0]["counters"] == {"c": 1}  # add without by adds 1


def test_a_heal_tells_the_player_only_what_it_changed():
    """Before: a night's heal for the whole party printed "Alma Berg: BODY 12 -> 12." for those already whole."""
    verb = EFFECTS["heal"]
    game = _game()
    events: list = []
    game.sink = events.append
    pool = game.state.pcs[0].pools["BODY"]
    verb.apply(game, {"heal": "BODY", "amount": 2})  # already whole: nothing to tell
    assert pool.current == pool.maximum and [e for e in events if e.kind == "pool_change"] == []
    pool.current -= 3
    verb.apply(game, {"heal": "BODY", "amount": 2})
    (told,) = [e for e in events if e.kind == "pool_change"]
    assert (told["before"], told["after"]) == (pool.maximum - 3, pool.maximum - 1) == (told["before"], pool.current)


@pytest.mark.parametrize("spec", [{"skill": "Social"}, {"question": "Is it raining?"}], ids=["roll", "oracle"])
def test_an_action_does_the_same_with_its_defaults_left_out_or_written(spec):
    kind = "roll" if "skill" in spec else "oracle"
    verb = ACTIONS[kind]
    results = []
    for given in (spec, _defaults(verb, spec)):
        game = _game()
        events = []
        game.sink = events.append
        action = Action(kind, given, {}, Where("test", "test"))
        verb.resolve(game, action)
        results.append(events)
    assert results[0] == results[1] and results[0]


def test_the_lint_sees_a_name_set_by_any_verb_that_says_it_sets_one(tmp_path, monkeypatch):
    """A new verb that writes a name (or gives an item) is seen by W102/W103/W104 from its attributes alone."""

    class Mark(EffectVerb):  # no name in its body: it does not register itself for every other test
        fields = {"mark": EFFECTS["set"].fields["set"]}
        writes = "flag"
        sets_name = True

        def check(self, b, file, path, a):
            pass

        def apply(self, game, a):
            game.state.flags[a["mark"]] = True

    class Hand(EffectVerb):
        fields = {"hand": EFFECTS["give"].fields["give"]}
        gives_item = True

        def apply(self, game, a):
            pass

    Mark.name, Hand.name = "mark", "hand"
    monkeypatch.setitem(EFFECTS, "mark", Mark())
    monkeypatch.setitem(EFFECTS, "hand", Hand())
    source = tmp_path / "marks.toml"
    source.write_text("""
[adventure]
title = "Marks"
start = "a"

[scenes.a]
text = "A door."
on_enter = [ { mark = "seen" }, { mark = "unread" }, { hand = "key" } ]
choices = [ { text = "Open it", if = "seen and has('key')", goto = "b" }, { text = "Leave", goto = "b" } ]

[scenes.b]
text = "The end."
ending = true
""", encoding="utf-8")
    _, problems = read_adventure(source)
    warnings = [(p.code, p.message) for p in problems]
    assert warnings == [("W103", "'unread' is set but never read")], warnings
    monkeypatch.setattr(Mark, "writes", None)
    monkeypatch.setattr(Mark, "sets_name", False)
    monkeypatch.setattr(Hand, "gives_item", False)
    _, problems = read_adventure(source)
    assert sorted(p.code for p in problems) == ["W102", "W104"], problems


def test_a_verb_that_sets_a_name_writes_it():
    assert all(v.writes in ("flag", "counter") for v in EFFECTS.values() if v.sets_name)
    assert {n for n, v in EFFECTS.items() if v.writes} == {"set", "clear", "add", "counter"}
    assert {n for n, v in EFFECTS.items() if v.sets_name} == {"set", "add", "counter"}
    assert {n for n, v in EFFECTS.items() if v.gives_item} == {"give"}

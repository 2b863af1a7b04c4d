"""The explorer bot (``solo simulate --policy explorer``) and the W191 warning that share one reading of the graph."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.decisions import LENS, Question
from solo.events import Event
from solo.rules.creation import pregenerated
from solo.sim.ending_choices import early_endings, story_shape
from solo.sim.explorer import ExplorerBot
from solo.sim.lint import check_adventure
from solo.sim.one_run import play_one
from solo.sim.policies import POLICIES, make_policy
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game

DATA = Path(__file__).parent / "data" / "sim"
HUB = DATA / "explorer_hub.toml"
GATED = DATA / "explorer_gated.toml"
DUEL = DATA / "explorer_duel.toml"
FOG = DATA / "explorer_fog.toml"
TUTORIAL = Path(__file__).resolve().parent.parent / "scenes" / "tutorial.toml"
EXITS = ("flee", "surrender")


def _choices(adventure_path: Path, seed: int, policy: str) -> list[tuple[str, str]]:
    """(scene, choice key) of every scene choice one simulated game took, in order."""
    adventure = load_adventure(adventure_path)
    taken: list[tuple[str, str]] = []

    def sink(event: Event) -> None:
        if event.kind == "choice":
            taken.append((event["scene"], event["key"]))

    result = play_one(adventure, [pregenerated("espen")], seed, policy, sink=sink)
    assert result.error is None, result.error
    return taken


def _staying_choices(adventure_path: Path) -> set[tuple[str, str]]:
    """Every choice of the adventure that does not end the game."""
    adventure = load_adventure(adventure_path)
    shape = story_shape(adventure)
    return {(sid, c.key) for sid, scene in adventure.scenes.items() for c in scene.choices
            if not scene.ending and not shape.ends_game(sid, c.key)}


# -- the graph reading both share -----------------------------------------------------------
def test_the_graph_tells_a_way_out_for_good_from_a_way_on():
    shape = story_shape(load_adventure(GATED))
    assert shape.ends_game("gate", "c1")  # walk home
    assert not shape.ends_game("gate", "c2")  # back to the square
    assert not shape.ends_game("square", "c5")  # to the gate, which can go back
    assert shape.ends_game("tower", "c1") and not shape.ends_game("tower", "c2")
    assert shape.bound == {"home", "rung"}
    assert shape.on_a_loop("square") and shape.on_a_loop("gate")
    hub = story_shape(load_adventure(HUB))
    assert hub.ends_game("square", "c5") and hub.story_ahead("square", "c5") == 0


# -- the explorer --------------------------------------------------------------------------
@pytest.mark.parametrize("path", [HUB, GATED], ids=["hub", "gated"])
def test_the_explorer_tries_every_option_that_keeps_the_story_open_before_it_ends(path):
    wanted = _staying_choices(path)
    for seed in range(30):
        taken = _choices(path, seed, "explorer")
        *before, last = taken
        assert taken[0] != ("square", "c3")  # a place not yet seen before the well here
        assert last in {("square", "c5"), ("gate", "c1"), ("tower", "c1")}, taken
        assert wanted <= set(before), (seed, sorted(wanted - set(before)))


def test_the_random_bot_often_leaves_the_hub_early_which_is_what_the_explorer_fixes():
    wanted = _staying_choices(HUB)
    early = sum(not wanted <= set(_choices(HUB, seed, "random")[:-1]) for seed in range(30))
    assert early >= 20  # walking home is one option in five, from the first move


def test_the_explorer_is_the_same_game_for_the_same_seed():
    adventure = load_adventure(HUB)
    party = [pregenerated("espen")]
    runs = [[play_one(adventure, party, seed, "explorer") for seed in (3, 4)] for _ in range(2)]
    for first, second in zip(*runs):
        assert first.answers == second.answers and first.ending == second.ending
    assert runs[0][0].answers != runs[0][1].answers  # the seed does decide something


def test_a_choice_straight_back_into_the_scene_is_no_ending_and_no_progress():
    """The fog's only ways out end the game, so the fog is ending-bound; treading water there leads back into it
    with nothing changed: it ends nothing (before, it was an ending with the fog itself as its story ahead)."""
    adventure = load_adventure(FOG)
    shape = story_shape(adventure)
    lantern, sink, tread, swim = (c.key for c in adventure.scenes["fog"].choices)
    assert shape.bound == {"fog", "shore"}
    assert shape.ends_game("fog", lantern) and not shape.ends_game("fog", tread)
    assert not shape.ends_game("fog", swim)  # its failure stays: a way on
    assert shape.idle == {"fog": {tread}}  # not the swim (a roll), nor letting the lantern sink (an effect)
    knock = story_shape(load_adventure(Path(__file__).parent / "data" / "prove" / "loop.toml"))
    assert not knock.ends_game("door", "c1") and not knock.idle  # a knock counts: the door opens on the third


def test_the_explorer_swims_again_rather_than_tread_water_for_ever():
    """A hard swim whose failure stays, once the lantern has sunk: the explorer treads water once (it had not
    tried it) and then swims until it lands. It used to tread water until the turn cap (the GM's ferry.toml)."""
    runner = CliRunner()
    result = runner.invoke(cli, ["simulate", str(FOG), "--policy", "explorer", "--runs", "40", "--seed", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert not report["errors"] and report["endings"]["shore"]["count"] == 40
    tread = load_adventure(FOG).scenes["fog"].choices[2].key
    for seed in range(10):
        taken = _choices(FOG, seed, "explorer")
        assert taken.count(("fog", tread)) <= 1, taken


@pytest.mark.parametrize("path", [Path(__file__).parent / "data" / "format" / "cloak.toml",
                                  Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "cloak.toml"])
def test_the_explorer_does_not_hang_the_cloak_up_and_put_it_back_on_for_ever(path, tmp_path):
    """Hanging the cloak up and putting it back on undo each other: back in a state it has already been in,
    nothing new is found. The explorer tries each once, and once it has seen the pair come full circle it
    leaves with the cloak on the hook instead of putting it on again, and reads the message in the bar. It
    used to alternate the two (each as little taken as the way out) until the turn cap, on every run. It
    loses: a thorough player gropes about in the dark bar before it has found the way to see there."""
    runner = CliRunner()
    result = runner.invoke(cli, ["simulate", str(path), "--policy", "explorer", "--runs", "20", "--seed", "1",
                                 "--json", "--errors", str(tmp_path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert not report["errors"]
    assert sum(e["count"] for e in report["endings"].values()) == 20
    assert report["endings"]["lost"]["count"] == 20


class _Watching:
    """Passes every question to the explorer and keeps what its Lens menus showed beside its answers."""

    def __init__(self) -> None:
        self.bot = ExplorerBot(random.Random(5))
        self.lens_menus: list[tuple[Question, str]] = []

    def decide(self, question: Question) -> str:
        answer = self.bot.decide(question)
        if question.kind == LENS:
            self.lens_menus.append((question, answer))
        return answer


def test_the_explorer_takes_the_lens_the_player_is_shown_as_best_and_never_runs_while_it_can_win():
    adventure = load_adventure(DUEL)
    marked = 0
    for seed in range(3):
        watcher = _Watching()
        Game(adventure, seed=seed, decider=watcher, party=[pregenerated("espen")], advise=True).play()
        assert watcher.lens_menus
        for question, answer in watcher.lens_menus:
            best = [o.key for o in question.options if o.detail.endswith("· best")]
            if best:
                marked += 1
                assert answer == best[0], [(o.key, o.detail) for o in question.options]
            shown = [o.detail for o in question.options if o.key not in EXITS]
            if any("to win" in d and " 0 % to win" not in d for d in shown):
                assert answer not in EXITS
    assert marked >= 5


def test_the_explorer_sits_out_a_last_round_sure_to_end_undecided_rather_than_walk_out():
    """A new GM's argument read "fled 70 %" in solo simulate: at a round limit's last round nothing can win outright,
    so the shown odds said 0 % to win and the explorer walked out, into the branch for walking out (here 43 of 100
    games), where a player would sit out the stalemate the author wrote a branch for. It now leaves only where a
    loss is likelier than not."""
    result = CliRunner().invoke(cli, ["simulate", str(DATA / "explorer_stalemate.toml"), "--policy", "explorer",
                                      "--runs", "100", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    endings = {name: e["count"] for name, e in json.loads(result.output)["endings"].items()}
    assert endings["walked_out"] <= 2 and endings["unsettled"] >= 60, endings


def test_the_explorer_answers_the_other_questions_sensibly():
    bot = ExplorerBot(random.Random(1))
    yes_no = (("yes", "yes"), ("no", "no"))
    from solo.decisions import Option

    def ask(kind, options=yes_no, **context):
        return bot.decide(Question(kind, "?", tuple(Option(k, label) for k, label in options), context=context))

    assert ask("luck_flip") == "yes"  # the engine asks only when the flip turns the roll
    assert ask("luck_reduce", damage=4) == "yes"
    assert ask("luck_reduce", damage=2) == "no"
    assert ask("escalate") == "yes"
    assert ask("improve", (("improve:Combat", "Combat"), ("keep", "keep"))) == "improve:Combat"
    assert bot.decide(Question("name", "Name?", default="Ada")) == "Ada"
    assert ask("pc_source", (("pregen", "Play Espen"), ("new", "new"), ("random", "random"))) == "pregen"
    assert ask("pc_source", (("new", "new"), ("random", "random"))) == "random"


def test_the_explorer_is_one_of_the_policies_and_the_command_offers_it():
    assert "explorer" in POLICIES and isinstance(make_policy("explorer", random.Random(1)), ExplorerBot)
    runner = CliRunner()
    help_text = runner.invoke(cli, ["simulate", "--help"]).output
    assert "explorer" in help_text
    result = runner.invoke(cli, ["simulate", str(HUB), "--policy", "explorer", "--runs", "20", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["policy"] == "explorer" and report["endings"]["home"]["count"] == 20
    assert report["unreached"] == ["rung"]  # it rings no bell it can walk home past: both end the day


# -- W191 ------------------------------------------------------------------------------------
def test_w191_warns_about_a_way_home_offered_in_the_hub():
    report = check_adventure(HUB)
    found = [p for p in report.problems if p.code == "W191"]
    assert len(found) == 1, [str(p) for p in report.problems]
    (p,) = found
    assert p.severity == "warning" and p.line == 29 and p.path == "scenes.square.choices[4]"
    assert "'bakery', 'smithy', 'tower'" in p.message and "random" in p.message
    assert report.errors == 0


@pytest.mark.parametrize("path", [GATED, DUEL, TUTORIAL], ids=["gated", "duel", "tutorial"])
def test_w191_is_silent_where_no_hub_offers_an_ending(path):
    assert not [p for p in check_adventure(path).problems if p.code == "W191"]
    assert not early_endings(load_adventure(path))


def test_w191_only_where_every_way_on_ends_the_game(tmp_path):
    """An oracle's "yes" that ends the game, its "no" staying in the square: a way on, not an ending (issue 29)."""
    text = HUB.read_text(encoding="utf-8") + '''
[[scenes.square.choices]]
text = "Ask the sky whether a cart will take you home"
oracle = { question = "Does a cart come?", odds = "impossible", yes = "home", no = { text = "No cart comes." } }
'''
    path = tmp_path / "hub.toml"
    path.write_text(text, encoding="utf-8")
    found = [p for p in check_adventure(path).problems if p.code == "W191"]
    assert [p.path for p in found] == ["scenes.square.choices[4]"]  # "Walk home", not the oracle (choices[5])
    shape = story_shape(load_adventure(path))
    asked = load_adventure(path).scenes["square"].choices[5].key
    assert not shape.ends_game("square", asked) and shape.targets["square"][asked] <= shape.bound


def test_explorers_solve_a_match_up_once_and_fight_it_the_same_again(monkeypatch):
    """The same fight played again (prove plays each one 200 times) finds its Lens chains solved: one solve for
    many conflicts of one match-up, and the same Lenses chosen as an explorer solving alone would choose."""
    from solo.minds.foresight import SharedChains
    from solo.rules.lens_chain import LensChain
    from solo.sim import explorer

    adventure = load_adventure(DUEL)
    solves = []
    real = LensChain._solve

    def counting(self, *args, **kwargs):
        solves.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(LensChain, "_solve", counting)

    def lenses(seed):
        watcher = _Watching()
        Game(adventure, seed=seed, decider=watcher, party=[pregenerated("espen")]).play()
        return [answer for _, answer in watcher.lens_menus]

    monkeypatch.setattr(explorer, "_KEPT", [SharedChains()])
    kept = [lenses(seed) for seed in range(4)]
    solved_kept = len(solves)
    del solves[:]
    alone = []
    for seed in range(4):
        monkeypatch.setattr(explorer, "_KEPT", [SharedChains()])  # a fresh store: every fight solved anew
        alone.append(lenses(seed))
    assert kept == alone and any(kept)
    assert 0 < solved_kept < len(solves)


def test_a_spent_explorer_pushes_on_into_a_lock_once_it_has_nothing_new_to_look_for():
    """A new GM's heist: 67 of 1,000 explorer runs 'failed' at the turn cap, circling street and alley, for with its
    INT spent it stayed out of the padlock every time ('Stay out of it'), where solo prove rightly found no
    soft-lock: pushing on leaves the loop. Once it has stopped looking for anything new, it pushes on."""
    adventure = load_adventure(DATA / "spent_alley.toml")
    runs = [play_one(adventure, [pregenerated("espen")], seed, "explorer", max_turns=300) for seed in range(40)]
    assert not [r for r in runs if r.error is not None]
    assert {r.ending for r in runs} >= {"inside"}
    pushed = [r for r in runs if any(q.kind == "push" and a == "push" for q, a in r.asked)]
    stayed_out_first = [r for r in pushed if next(a for q, a in r.asked if q.kind == "push") == "out"]
    assert pushed and stayed_out_first  # it looked round first (staying out), then went in
    assert max(r.turns for r in runs) < 100
    # the review: a scene's damage asks "push on" too (with the game, without a conflict); pushing on there only
    # spends the Pool further, so the explorer leaves that question as it was
    from solo.decisions import Option

    bot = ExplorerBot(random.Random(1))
    bot.idle = 10_000
    game = Game(adventure, seed=1, decider=bot, party=[pregenerated("espen")])
    options = (Option("push", "Push on at -3"), Option("out", "Stop at 0"))
    in_scene = Question("push", "your INT would fall to -3: what now?", options, context={"game": game})
    assert bot.on_push(in_scene) is None
    at_start = Question("push", "Picking a lock is about to begin …", options,
                        context={"game": game, "conflict": object()})
    assert bot.on_push(at_start) == "push"


def test_an_ending_not_yet_seen_is_no_road_to_explore():
    """A GM's run: the finale fight (won and lost end the game, its stalemate back to the quay) was taken before the
    leads, since its endings, never seen, read as the newest roads of all; the rope was tied in 7 % of runs. Every
    lead now comes before the fight."""
    finale = DATA / "explorer_finale.toml"
    leads = {("quay", "c1"), ("quay", "c2"), ("quay", "c3")}
    for seed in range(20):
        taken = _choices(finale, seed, "explorer")
        fight = taken.index(("warehouse", "c1"))
        assert leads <= set(taken[:fight]), (seed, taken)

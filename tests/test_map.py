"""``solo map``: every scene on the map, marks for the start, endings, unreachable scenes, dead ends, traps."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.sampling import wilson
from solo.sim.drawing import can_end, edge_list, render, scene_classes
from solo.story.format.adventure import Adventure, Branch, Choice, Scene, Where
from solo.story.format.loader import load_adventure

TUTORIAL = Path(__file__).resolve().parent.parent / "scenes" / "tutorial.toml"
BROKEN = Path(__file__).parent / "data" / "broken"


def _scene(sid, *targets, ending=False):
    w = Where("t.toml", f"scenes.{sid}")
    choices = [Choice(f"to {t}", w, goto=Branch(t), key=str(i + 1)) for i, t in enumerate(targets)]
    return Scene(sid, sid.title(), "", w, choices=choices, ending=ending)


@pytest.fixture
def odd():
    """start -> a -> end; start -> pit (no way out); start -> maze <-> maze2; lost (unreachable) -> end."""
    scenes = [_scene("start", "a", "pit", "maze"), _scene("a", "end"), _scene("pit"), _scene("maze", "maze2"),
              _scene("maze2", "maze"), _scene("lost", "end"), _scene("end", ending=True)]
    return Adventure("odd", "Odd", "start", {s.id: s for s in scenes}, {})


def test_marks(odd):
    marks = scene_classes(odd)
    assert "start" in marks["start"]
    assert "ending" in marks["end"]
    assert "deadend" in marks["pit"]
    assert "trap" in marks["maze"] and "trap" in marks["maze2"]
    assert "unreachable" in marks["lost"]
    assert marks["a"] == []
    assert can_end(odd) == {"start", "a", "lost", "end"}


@pytest.mark.parametrize("fmt", ["mermaid", "dot"])
def test_every_scene_and_edge_is_drawn_with_its_marks(odd, fmt):
    text = render(odd, fmt)
    for sid in odd.scenes:
        assert sid in text
    for cls in ("deadend", "trap", "unreachable", "ending"):
        if fmt == "mermaid":
            assert re.search(rf"^    classDef {cls} ", text, re.M)
            assert re.search(rf"^    class .*\b{cls}$", text, re.M)
    if fmt == "dot":
        lines = {line.split(" [")[0].strip().strip('"'): line for line in text.splitlines() if " [label=" in line
                 and "->" not in line}
        assert "#f8d7da" in lines["pit"] and "deadend" in lines["pit"]
        assert "#ffe0b2" in lines["maze"] and "dashed" in lines["lost"] and "#d9f2d9" in lines["end"]
    assert len(edge_list(odd)) == 7


def test_mermaid_of_the_tutorial_has_every_scene_and_outcome_labels():
    adv = load_adventure(TUTORIAL)
    text = render(adv, "mermaid")
    assert text.startswith("flowchart TD\n%% drawn by solo map from the adventure tutorial\n")
    for sid in adv.scenes:
        assert re.search(rf"^    s_{sid}[\[(]", text, re.M), sid
    assert "#91;won" in text  # outcomes in the labels, brackets escaped for Mermaid
    assert "class s_quay start" in text


def test_dot_is_a_digraph_with_quoted_labels():
    adv = load_adventure(TUTORIAL)
    text = render(adv, "dot")
    assert text.startswith('digraph "tutorial" {') and text.rstrip().endswith("}")
    assert text.count("->") == len(edge_list(adv))
    assert '"stranger" -> "defeat"' in text


def test_stats_show_visit_rates_and_unvisited_scenes(odd):
    stats = {"runs": 10, "scenes": {"start": {"runs": 10, "rate": 1.0}, "a": {"runs": 0, "rate": 0.0},
                                    "end": {"runs": 4, "rate": 0.4}}}
    text = render(odd, "mermaid", stats)
    assert "visited 100.0%" in text and "visited 40.0%" in text
    # a share of sampled runs with its 95 % interval (a GM's run: "visited 49.0%" of 200 runs, bare)
    low, high = wilson(4, 10)
    assert f"visited 40.0% ({low:.0%}–{high:.0%})" in text and "visited 40.0% (17%–69%)" in text
    # a report of today gives each scene its interval, which the map draws as given
    stats["scenes"]["end"].update(low=0.2, high=0.6)
    assert "visited 40.0% (20%–60%)" in render(odd, "mermaid", stats)
    assert "unvisited" in scene_classes(odd, stats)["a"]
    assert "unvisited" not in scene_classes(odd, stats)["lost"]  # unreachable says it already


@pytest.fixture
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args))


def test_command_with_stats_from_simulate(run, tmp_path):
    sim = run("simulate", "tutorial", "--runs", "30", "--json")
    assert sim.exit_code == 0
    stats = tmp_path / "sim.json"
    stats.write_text(sim.stdout)
    data = json.loads(sim.stdout)
    result = run("map", "tutorial", "--stats", str(stats))
    assert result.exit_code == 0, result.output
    assert f"visited {data['scenes']['quay']['rate']:.1%}" in result.stdout
    assert "another version" not in result.output
    # a report simulated before the adventure changed: drawn, and said (a GM's run: an edited adventure, no word)
    stats.write_text(json.dumps({**data, "adventure_hash": "0123456789abcdef"}))
    result = run("map", "tutorial", "--stats", str(stats))
    assert result.exit_code == 0 and "was simulated on another version of 'tutorial'" in result.stderr


def test_command_dot_to_a_file(run, tmp_path):
    out = tmp_path / "t.dot"
    result = run("map", "tutorial", "--format", "dot", "-o", str(out))
    assert result.exit_code == 0 and out.read_text().startswith("digraph")


def test_map_marks_the_unreachable_scene_of_a_broken_adventure(run):
    result = run("map", str(BROKEN / "unreachable.toml"))
    assert result.exit_code == 0, result.output
    assert re.search(r"^    class .*s_garden.* unreachable$", result.stdout, re.M)


@pytest.mark.parametrize("content, words", [
    ("not json", "not a JSON report"),
    ('{"runs": 1}', "no 'scenes'"),
    ('{"runs": 1, "adventure": "other", "scenes": {}}', "not of 'tutorial'"),
])
def test_bad_stats_are_one_line_errors(run, tmp_path, content, words):
    stats = tmp_path / "s.json"
    stats.write_text(content)
    result = run("map", "tutorial", "--stats", str(stats))
    assert result.exit_code == 2 and words in result.output


def test_an_adventure_with_errors_points_to_solo_check(run):
    result = run("map", str(BROKEN / "dead_end.toml"))
    assert result.exit_code == 2 and "solo check" in result.output


def test_map_prove_marks_the_soft_lock_and_the_scene_no_state_enters():
    """The pit has a way out on the graph (a rope nobody gives): only the search sees the trap (issue 29)."""
    trap = Path(__file__).parent / "data" / "prove" / "trap.toml"
    plain = CliRunner().invoke(cli, ["map", str(trap), "--format", "dot"])
    proven = CliRunner().invoke(cli, ["map", str(trap), "--format", "dot", "--prove"])
    assert plain.exit_code == 0 and proven.exit_code == 0, proven.output
    tooltips = dict(re.findall(r'"(\w+)" \[label=.*tooltip="([^"]*)"', proven.output))
    assert tooltips["pit"] == "softlock" and tooltips["vault"] == "ending, never"
    assert "softlock" not in plain.output and "never" not in plain.output
    mermaid = CliRunner().invoke(cli, ["map", str(trap), "--prove"]).output
    assert "class s_pit softlock" in mermaid and "class s_vault never" in mermaid


def test_map_prove_says_when_its_search_stopped_at_the_state_limit(monkeypatch):
    """New-user run: 'solo map vellan --prove' drew soft-lock marks from a search that stopped at its limit and
    said nothing of it (stderr empty), while 'solo prove vellan' exits 3 and heads its list 'Not offered in the
    states searched'. The map is still drawn and exits 0; a line on stderr says its marks are partial."""
    from solo.sim.prove import limits

    example = Path(__file__).parent / "data" / "example_adventure.toml"
    whole = CliRunner().invoke(cli, ["map", str(example), "--prove"])
    assert whole.exit_code == 0 and whole.stderr == "", whole.output  # complete at the default limit: nothing said
    monkeypatch.setattr(limits, "DEFAULT_MAX_STATES", 5)
    cut = CliRunner().invoke(cli, ["map", str(example), "--prove"])
    assert cut.exit_code == 0, cut.output
    assert cut.stdout.startswith("flowchart TD") and "class " in cut.stdout
    assert "stopped at its limit of 5 states before it was complete" in cut.stderr
    assert "soft-lock marks cover only the states it searched" in cut.stderr
    # and the map takes the limit itself: the advice was 'solo prove --max-states', which no map could be given (a
    # GM's run: an adventure of twelve scenes that needs 13,189 states)
    assert "(--max-states searches further)" in cut.stderr
    further = CliRunner().invoke(cli, ["map", str(example), "--prove", "--max-states", "100000"])
    assert further.exit_code == 0 and further.stderr == "" and further.stdout == whole.stdout
    alone = CliRunner().invoke(cli, ["map", str(example), "--max-states", "9"])
    assert alone.exit_code == 2 and "--max-states goes with --prove" in alone.stderr


def test_an_ending_the_author_left_to_its_fallback_is_marked_on_the_edge_it_takes(tmp_path):
    """New-user run: a ten-round fight with only won and lost written was drawn 'Fight him [lost]', and 93 % of
    the bold bot's fights ended in a stalemate that went to the defeat scene. The map now says so: 'stalemate*'
    (and flight, giving up) beside lost; the opponent's flight or surrender beside won; an exceptional success
    stays unmarked (a success is what it is). A fight with no `rounds` written still stops at the engine's default
    limit, so its stalemate is marked too (new-user run: a lock no pick could open drawn '[lost, fled*,
    surrendered*]' while solo simulate showed every run a stalemate)."""
    text = (
        '[adventure]\ntitle = "Cove"\nstart = "yard"\n\n'
        '[npcs.rune]\nname = "Rune"\nlevel = "skilled"\n\n'
        '[scenes.yard]\ntext = "A yard."\n\n'
        '[[scenes.yard.choices]]\ntext = "Fight him"\n'
        'conflict = { type = "combat", npcs = ["rune"], rounds = 10, won = "rich", lost = "beaten" }\n\n'
        '[[scenes.yard.choices]]\ntext = "Climb the wall"\n'
        'roll = { skill = "Move", success = "rich", failure = "beaten" }\n\n'
        '[[scenes.yard.choices]]\ntext = "Wrestle him, no clock"\n'
        'conflict = { type = "combat", npcs = ["rune"], won = "rich", lost = "beaten" }\n\n'
        '[[scenes.yard.choices]]\ntext = "Run him down"\n'
        'conflict = { type = "foot_chase", npcs = ["rune"], rounds = 6, won = "rich", lost = "beaten" }\n\n'
        '[scenes.rich]\ntext = "Rich."\nending = true\n\n[scenes.beaten]\ntext = "Beaten."\nending = true\n')
    path = tmp_path / "cove.toml"
    path.write_text(text, encoding="utf-8")
    labels = {(e.target, e.label) for e in edge_list(load_adventure(path))}
    assert ("beaten", "Fight him [lost, fled*, surrendered*, stalemate*]") in labels
    assert ("rich", "Fight him [won, opponent_fled*, opponent_surrendered*]") in labels
    assert ("rich", "Climb the wall [success]") in labels and ("beaten", "Climb the wall [failure]") in labels
    assert ("beaten", "Wrestle him, no clock [lost, fled*, surrendered*, stalemate*]") in labels
    assert ("beaten", "Run him down [lost, surrendered*, stalemate*]") in labels  # a chase has no flight
    # nor for the one chased (a new GM's map marked it): the engine offers no side a way to run from a chase
    assert ("rich", "Run him down [won, opponent_surrendered*]") in labels
    # nor where the foe is mindless: it never yields nor runs (a GM's map marked a winch automaton's flight)
    mindless = text.replace('level = "skilled"\n', 'level = "skilled"\nmindless = true\n')
    path.write_text(mindless, encoding="utf-8")
    labels = {(e.target, e.label) for e in edge_list(load_adventure(path))}
    assert ("rich", "Fight him [won]") in labels and ("rich", "Run him down [won]") in labels
    assert ("beaten", "Fight him [lost, fled*, stalemate*]") in labels  # nor can it take a surrender


def test_a_once_only_choice_is_labelled_once_not_by_the_condition_it_loads_as(tmp_path):
    """GM-tools review: the map labelled a `once = true` choice '[if chosen("road/1") == 0]', the condition it
    becomes when loaded; it reads '[once]', with the choice's own condition beside it where it has one."""
    source = tmp_path / "once.toml"
    source.write_text(
        '[adventure]\ntitle = "Once"\nstart = "road"\n\n[scenes.road]\ntext = "A road."\n\n'
        '[[scenes.road.choices]]\ntext = "Rest"\nonce = true\ngoto = "road"\n\n'
        '[[scenes.road.choices]]\ntext = "Pray"\nonce = true\nif = "not tired"\ngoto = "road"\n\n'
        '[[scenes.road.choices]]\ntext = "Go"\ngoto = "end"\n\n[scenes.end]\ntext = "End."\nending = true\n',
        encoding="utf-8")
    drawn = CliRunner().invoke(cli, ["map", str(source)]).output
    assert "Rest #91;once#93;" in drawn and "Pray #91;once#93; #91;if not tired#93;" in drawn, drawn  # [ ] escaped
    assert "chosen(" not in drawn


def test_a_scene_with_several_marks_is_drawn_in_the_most_telling_one_alone(odd):
    """A new GM's map (--stats): an ending no run reached, which no state enters, stood in the classes ending, never
    and unvisited at once, and Mermaid drew whichever came last. Both formats draw the first of COLOURS."""
    rates = {sid: {"rate": 0.0 if sid in ("end", "lost") else 0.5} for sid in odd.scenes}
    stats = {"adventure": "odd", "scenes": rates}
    proven = {"softlock": set(), "never": {"end"}}
    assert set(scene_classes(odd, stats, proven)["end"]) == {"ending", "unvisited", "never"}
    mermaid = render(odd, "mermaid", stats, proven)
    members = {cls: set(m.split(",")) for m, cls in re.findall(r"^    class (\S+) (\w+)$", mermaid, re.M)}
    end = re.search(r'^    (\w+)\(\["End', mermaid, re.M).group(1)  # the ending's node
    assert {cls for cls, ids in members.items() if end in ids} == {"never"}, members
    dot = render(odd, "dot", stats, proven).splitlines()
    dot_end = next(line for line in dot if line.strip().startswith('"end" ['))
    assert "#424242" in dot_end and "#d9f2d9" not in dot_end  # "never" drawn, the three marks in the tooltip
    assert 'tooltip="ending, unvisited, never"' in dot_end


def test_a_map_is_not_written_into_the_adventure_it_maps_as_toml(tmp_path):
    """A new GM's run: 'solo map hollin -o hollin/map.toml' wrote a file the next 'solo check' read as part of the
    adventure, which no command could load after."""
    folder = tmp_path / "adv"
    folder.mkdir()
    (folder / "main.toml").write_text('[adventure]\ntitle = "T"\nstart = "a"\n[scenes.a]\ntext = "A"\nending = true\n')
    refused = CliRunner().invoke(cli, ["map", str(folder), "-o", str(folder / "map.toml")])
    assert refused.exit_code == 2 and "would be read as one more file of the adventure" in refused.output
    assert not (folder / "map.toml").exists()
    (folder / ".maps").mkdir()  # a hidden folder is never read
    assert CliRunner().invoke(cli, ["map", str(folder), "-o", str(folder / ".maps" / "map.toml")]).exit_code == 0
    drawn = CliRunner().invoke(cli, ["map", str(folder), "-o", str(folder / "map.mmd")])
    assert drawn.exit_code == 0 and (folder / "map.mmd").exists()
    assert CliRunner().invoke(cli, ["check", str(folder)]).exit_code == 0


def test_a_rolls_escalation_marks_the_ends_its_author_left_to_fallbacks(tmp_path):
    """A GM's evening: a tavern talk that escalates into an argument was drawn '[win, lose, escalated: won,
    escalated: lost, escalated: stalemate]', while solo simulate had that argument end fled in half its runs and
    surrendered in a third, both falling back on lost. The escalated conflict's unwritten ends are marked as a
    conflict's own are."""
    text = (
        '[adventure]\ntitle = "Tavern"\nstart = "bar"\n\n'
        '[npcs.mags]\nname = "Mags"\nlevel = "skilled"\n\n'
        '[scenes.bar]\ntext = "A bar."\n\n'
        '[[scenes.bar.choices]]\ntext = "Lean on her"\n'
        '[scenes.bar.choices.opposed]\nskill = "Social"\nnpc = "mags"\n'
        'win = "quay"\nlose = "quay"\nfail = "quay"\n'
        '[scenes.bar.choices.opposed.escalate]\ntype = "social"\nnpcs = ["mags"]\nrounds = 6\n'
        'won = "quay"\nlost = "quay"\n\n'
        '[scenes.quay]\ntext = "Quay."\nending = true\n')
    path = tmp_path / "tavern.toml"
    path.write_text(text, encoding="utf-8")
    [label] = [e.label for e in edge_list(load_adventure(path)) if e.source == "bar"]
    for marked in ("escalated: stalemate*", "escalated: fled*", "escalated: surrendered*",
                   "escalated: opponent_fled*", "escalated: opponent_surrendered*"):
        assert marked in label, label


def test_a_choice_that_names_an_npc_is_drawn_and_reported_with_the_name_every_game_shows(run, tmp_path):
    """A GM's run: the map's edge read "Ask {npc.miller} what he rememb…" and simulate's JSON the same, where every
    game shows "Ask Aldo Brand …" once the party knows him. The map and the report are the GM's: the name written in
    the NPC's file is filled in; every other slot stays as written."""
    path = tmp_path / "mill.toml"
    path.write_text(
        '[adventure]\nid = "mill"\ntitle = "The mill"\nstart = "yard"\npc = "espen"\n\n'
        '[npcs.miller]\nname = "Aldo Brand"\nlevel = "common"\npronoun = "he"\n\n'
        '[scenes.yard]\ntitle = "{npc.miller}\'s yard"\ntext = "A mill yard."\nnpcs = ["miller"]\n\n'
        '[[scenes.yard.choices]]\ntext = "Ask {npc.miller} what he remembers (Awareness)"\n'
        'roll = { skill = "Awareness", difficulty = "normal", success = "end", failure = "end" }\n\n'
        '[[scenes.yard.choices]]\ntext = "Nod to {pc}\'s friend and leave"\ngoto = "end"\n\n'
        '[scenes.end]\ntitle = "Home with {npc.miller}"\ntext = "Home."\nending = true\n', encoding="utf-8")
    drawn = run("map", str(path))
    assert drawn.exit_code == 0, drawn.output
    assert "Ask Aldo Brand what he" in drawn.output and "{npc.miller}" not in drawn.output
    assert "Nod to {pc}'s friend" in drawn.output
    sim = run("simulate", str(path), "--runs", "20", "--json")
    assert sim.exit_code == 0, sim.output
    [check] = json.loads(sim.stdout)["checks"]
    assert check["text"] == "Ask Aldo Brand what he remembers (Awareness)"
    # and every other place a title or a choice is listed outside a game (a review): the map's scenes, the report's
    # endings, prove's report
    assert "Aldo Brand's yard" in drawn.output
    assert json.loads(sim.stdout)["endings"]["end"]["title"] == "Home with Aldo Brand"
    proved = run("prove", str(path), "--seeds", "0")
    assert "end (Home with Aldo Brand)" in proved.output and "{npc." not in proved.output, proved.output

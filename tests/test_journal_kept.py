"""The journal every game keeps beside its save, ``solo journal``, and ``recap``.

What the journal must say is taken from the game's own events (``--events``), never
written out here: each note, roll (with its modifiers), conflict and ending appears,
in the order it happened.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from conftest import recap_blocks
from markdown_it import MarkdownIt

from solo.events import Event
from solo.rules.creation import pregenerated
from solo.rules.dice import two_digits
from solo.story.play.engine import Game
from solo.ui import describe as d
from solo.ui import story_commands as sc
from solo.ui.journal import Journal, front_matter, inline, split_front_matter

SCRIPT = Path(__file__).parent / "data" / "scripts" / "tutorial_seed5.txt"
NOTE = "the guard has a scar # over --- one eye"
QUESTION = "Is the ferry late?"


def answers() -> list[str]:
    return [ln for ln in SCRIPT.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]


def events_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def play(cli_run, tmp_path: Path, lines: list[str], *extra: str, name: str = "s.txt"):
    script = tmp_path / name
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cli_run("play", *extra, "--script", str(script), "--saves", str(tmp_path / "saves"),
                   "--events", str(tmp_path / "events.jsonl"))


def parse_front_matter(text: str) -> dict:
    """The front matter read as YAML: with PyYAML where it is installed, and always by a strict reader of
    the subset solo writes (``key: JSON value`` or ``key: YYYY-MM-DD``), which refuses anything else."""
    assert text.startswith("---\n")
    block, sep, _ = text[4:].partition("\n---\n")
    assert sep, "the front matter is not closed by a line '---'"
    meta: dict = {}
    for line in block.splitlines():
        key, colon, value = line.partition(": ")
        assert colon and re.fullmatch(r"[a-z_]+", key), line
        meta[key] = value if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else json.loads(value)
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        return meta
    loaded = yaml.safe_load(block)
    assert {k: (v.isoformat() if isinstance(v, date) else v) for k, v in loaded.items()} == meta
    return meta


def in_order(text: str, pieces: list[list[str]]) -> None:
    """Each group of pieces is found on one line, and the lines come in the order of the groups."""
    lines = text.splitlines()
    at = 0
    for group in pieces:
        for i in range(at, len(lines)):
            if all(p in lines[i] for p in group):
                at = i + 1
                break
        else:
            raise AssertionError(f"no line after line {at} holds {group}")


def expected_pieces(events: list[dict]) -> list[list[str]]:
    """What each note, roll, conflict, oracle answer and ending must leave in the journal, from its event."""
    pieces: list[list[str]] = []
    rolled = 0  # the rounds of the conflict under way that were rolled (a round's result told)
    for e in events:
        k = e["kind"]
        rolled = 0 if k == "conflict_start" else rolled + (k == "round_result")
        if k == "note":
            pieces.append(["Note:", e["text"].replace("#", "\\#")])
        elif k in ("skill_roll", "roll") and e.get("roll") is not None:
            mods = [f"{name} {value:+d}" for name, value in e.get("modifiers") or ()]
            pieces.append([f"{two_digits(e['roll'])} against {e['target']}", *mods])
        elif k == "opposed_roll":
            mods = [f"{name} {value:+d}" for name, value in e.get("modifiers") or ()]
            pieces.append([f"{two_digits(e['roll'])} against {e['target']}",
                           f"{two_digits(e['opponent_roll'])} against {e['opponent_target']}", *mods])
        elif k == "conflict_end":
            lost = [f"{who} {n}" for who, n in e["pool_lost"].items() if n]
            said = f"after {rolled} round{'s' if rolled != 1 else ''}" if rolled else "over,"  # none rolled: no count
            if rolled and e["rounds"] == rolled + 1:  # ended at the declarations of a round never rolled
                said = f"at the start of round {e['rounds']}"
            pieces.append([said, d.OUTCOME_WORDS[e["outcome"]], *lost])
        elif k == "oracle":
            # a reading that opens with its answer says it ("rolled 13. Yes: …"); the line holds the reading either way
            reading = (e.get("reading") or {}).get("text")
            pieces.append(["Oracle", e["question"], f"{two_digits(e['roll'])}", reading or e["answer"]])
        elif k == "ending":
            pieces.append(["The end", e["title"], e["outcome"]])
    return pieces


@pytest.fixture
def finished(cli_run, tmp_path):
    lines = answers()
    lines.insert(1, f"note {NOTE}")
    lines.insert(-1, f"? {QUESTION} (likely)")  # the oracle rolls dice: asked last, the script still fits
    result = play(cli_run, tmp_path, lines, "tutorial", "--seed", "5")
    assert result.exit_code == 0, result.output
    return tmp_path, events_of(tmp_path / "events.jsonl")


def test_a_scripted_game_keeps_its_journal_beside_the_save(finished):
    folder, events = finished
    kept = folder / "saves" / "tutorial.md"
    text = kept.read_text(encoding="utf-8")
    pieces = expected_pieces(events)
    kinds = {e["kind"] for e in events}
    assert {"note", "oracle", "opposed_roll", "roll", "conflict_end", "ending"} <= kinds  # the game had them all
    assert len(pieces) >= 10
    in_order(text, pieces)
    party = next(e for e in events if e["kind"] == "party")
    meta = parse_front_matter(text)
    assert meta["adventure"] == "tutorial" and meta["seed"] == 5
    assert meta["characters"] == [m["name"] for m in party["members"]]
    assert meta["date"] == date.today().isoformat()
    ending = next(e for e in events if e["kind"] == "ending")
    assert ending["title"] in meta["ending"] and ending["outcome"] in meta["ending"]
    assert (folder / "saves" / "tutorial.json").exists()


def test_loading_and_playing_on_appends_to_the_journal(cli_run, tmp_path):
    lines = answers()
    first = play(cli_run, tmp_path, lines[:5], "tutorial", "--seed", "5", "--partial", name="a.txt")
    assert first.exit_code == 0, first.output
    kept = tmp_path / "saves" / "tutorial.md"
    before_meta, before = split_front_matter(kept.read_text(encoding="utf-8"))
    assert "ending" not in before_meta
    save = json.loads((tmp_path / "saves" / "tutorial.json").read_text(encoding="utf-8"))
    save["options"]["started"] = "2001-02-03"  # a first session on another day: resuming keeps its date
    (tmp_path / "saves" / "tutorial.json").write_text(json.dumps(save), encoding="utf-8")

    second = play(cli_run, tmp_path, [f"note {NOTE}", *lines[5:]], "--load", str(tmp_path / "saves" / "tutorial.json"),
                  name="b.txt")
    assert second.exit_code == 0, second.output
    after_text = kept.read_text(encoding="utf-8")
    after_meta, after = split_front_matter(after_text)
    assert after.startswith(before.rstrip("\n") + "\n")  # what was there stays, the new part follows
    assert len(after) > len(before) + 500
    assert parse_front_matter(after_text)["date"] == "2001-02-03"
    assert "ending" in after_meta
    notes = [e for e in events_of(tmp_path / "events.jsonl") if e["kind"] == "note"]
    assert [e["text"] for e in notes] == [NOTE]
    assert after.count("**Note:**") == 1 and after.index("**Note:**") > len(before)


def test_solo_journal_prints_it_and_out_writes_it(finished, cli_run):
    folder, _ = finished
    kept = (folder / "saves" / "tutorial.md").read_text(encoding="utf-8")
    shown = cli_run("journal", "tutorial", "--saves", str(folder / "saves"))
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == kept  # piped: the Markdown as it is
    out = folder / "export" / "game.md"
    written = cli_run("journal", "tutorial", "--saves", str(folder / "saves"), "--out", str(out))
    assert written.exit_code == 0, written.output
    assert out.read_text(encoding="utf-8") == kept and str(out) in written.stdout


def test_an_old_save_without_a_journal_gets_it_rebuilt(finished, cli_run):
    folder, _ = finished
    saves = folder / "saves"
    kept = saves / "tutorial.md"
    _, body = split_front_matter(kept.read_text(encoding="utf-8"))
    kept.unlink()
    save = json.loads((saves / "tutorial.json").read_text(encoding="utf-8"))
    del save["options"]["started"]  # as solo wrote saves before it kept journals
    (saves / "tutorial.json").write_text(json.dumps(save), encoding="utf-8")
    listing = {p.name for p in saves.iterdir()}

    result = cli_run("journal", "tutorial", "--saves", str(saves))
    assert result.exit_code == 0, result.output
    assert "rebuilt" in result.stderr and str(kept) in result.stderr
    meta, rebuilt = split_front_matter(result.stdout)
    assert rebuilt == body
    assert parse_front_matter(result.stdout)["seed"] == 5
    assert kept.read_text(encoding="utf-8") == result.stdout
    assert {p.name for p in saves.iterdir()} == listing | {"tutorial.md"}  # the save itself is not rewritten


def test_a_save_name_stays_inside_the_saves_folder(cli_run, tmp_path):
    (tmp_path / "saves").mkdir()
    for name in ("../outside", "a/b", ".hidden"):
        result = cli_run("journal", name, "--saves", str(tmp_path / "saves"))
        assert result.exit_code == 2, result.output
    assert cli_run("journal", "nothing", "--saves", str(tmp_path / "saves")).exit_code == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saves"]


def test_recap_says_what_happened_not_which_line_was_picked(cli_run, tmp_path):
    lines = answers()
    lines.insert(7, "recap")
    result = play(cli_run, tmp_path, lines, "tutorial", "--seed", "5")
    assert result.exit_code == 0, result.output
    events = events_of(tmp_path / "events.jsonl")
    screen = result.stdout.splitlines()
    start = next(i for i, line in enumerate(screen) if line.endswith("> recap")) + 1
    recap = screen[start:screen.index("", start)]
    seen_before = events[:next(i for i, e in enumerate(events) if e["kind"] == "round_start")]
    titles = [e["title"] for e in seen_before if e["kind"] == "scene_entered"]
    blocks = recap_blocks(recap)
    assert [header for header, _ in blocks] == titles  # each scene once, under its title, in order
    opposed = next(e for e in seen_before if e["kind"] == "opposed_outcome")
    assert any(d.opposed_outcome(opposed).rstrip(".") in entry for entry in blocks[0][1])
    thread = next(e for e in seen_before if e["kind"] == "thread")
    assert any(thread["text"] in entry for entry in blocks[1][1])
    choices = [e["text"] for e in seen_before if e["kind"] == "choice"]
    assert not any(c in line for c in choices for line in recap)
    assert not any("**" in line for line in recap)


def test_hostile_notes_and_names_cannot_reshape_the_journal():
    journal = Journal()
    evil = "x\n---\n# Injected\n<script>alert(1)</script> **bold [[link]]"
    journal.render(Event("title", {"title": "A title\n# Two"}))
    journal.render(Event("party", {"members": [{"name": "- # Eve\n---", "career": None}]}))
    journal.render(Event("scene_entered", {"title": "Scene", "text": "Hello {pc}.\n\n---\n\n# not mine",
                                           "slots": {"pc": "Bob\n# Boss"}}))
    journal.render(Event("note", {"text": evil}))
    journal.render(Event("oracle", {"question": evil, "answer": "yes", "roll": 7, "chance": 50}))
    doc = journal.document({"adventure": "t", "title": "---\nx: 1", "characters": [evil], "date": "2020-01-02",
                            "seed": 3})
    meta, body = split_front_matter(doc)
    assert set(meta) == {"adventure", "title", "characters", "date", "seed"}
    assert parse_front_matter(doc)["characters"] == [evil]
    md = MarkdownIt("commonmark")
    tokens = md.parse(body)
    assert re.findall(r"<h\d>(.*?)</h\d>", md.render(body)) == ["A title # Two", "Scene"]  # ours, only ours
    assert not [t for t in tokens if t.type in ("html_block", "html_inline", "hr")]
    assert sum(t.type == "blockquote_open" for t in tokens) == 2  # the note and the oracle, one each
    assert "**bold" not in body and "\\*\\*bold \\[\\[link\\]\\]" in body


def test_the_help_says_where_notes_go():
    from solo.ui.session import _help

    note = next(line for line in _help(True).splitlines() if line.lstrip().startswith("note"))
    assert "journal" in note and "beside the save" in note and "solo journal" in note


def test_a_line_that_would_start_a_list_or_quote_reads_as_written():
    md = MarkdownIt("commonmark")
    for text in ("- Eve", "1. First", "12) Twelfth", "> quoted", "+ plus", "=== under"):
        html = md.render(f"{inline(text)}\n")
        assert html == f"<p>{text.replace('>', '&gt;')}</p>\n", (text, html)


def test_front_matter_writes_text_yaml_can_hold():
    odd = "a\x85b\u2028c\x9fd\"e\\f"
    meta = parse_front_matter(front_matter({"title": odd, "characters": ["A", "B"], "seed": 1,
                                            "date": "2024-05-06", "ending": None}))
    assert meta == {"title": odd, "characters": ["A", "B"], "seed": 1, "date": "2024-05-06"}


def test_clues_has_a_help_line_and_a_list_of_its_own():
    """``clues`` was once another word for ``items``; it now lists what the story marked as learned."""
    from solo.ui.session import _help
    from solo.ui.table_commands import commands

    lines = [line.strip() for line in _help(True).splitlines()]
    assert any(line.startswith("items") and "carries" in line and "clues" not in line for line in lines)
    assert any(line.startswith("clues") and "learned" in line for line in lines)
    assert commands()["clues"].run is not commands()["items"].run


# -- recap keeps every conflict (issue 31, point 6) -----------------------------------------------


def test_recap_keeps_the_harbour_office_and_the_registry_however_long_the_day(vellan):
    """Every errand of Vellan's first day comes back to the quay; a recap of the latest twelve entries lost the
    morning's conflicts among the walks across it. A scene only passed through now has no line."""
    errands = ["Call at the harbour office", "Search the shipping registry"] + ["Step into the Anchor"] * 3
    plan = {"arrival": ["Get off"], "harbour_office": ["Argue your way", "Leave her"],
            "registry": ["Dig through", "Leave the ledgers"], "harbour_log": ["Thank her"],
            "registry_found": ["Copy out"], "tavern": ["Go back out"], "alley": ["Hold out your camera"],
            "knut_warning": ["Climb"], "boarding_house": ["Climb the stairs"], "brekke_office": ["Walk out"]}

    class Errands:
        def decide(self, question):
            if question.kind != "choice":
                return "none" if question.kind == "lens" else question.default or question.options[-1].key
            scene = question.context["scene"]
            wanted = (errands[:1] if errands else []) + ["Call it a day", "Climb the dark lane"] \
                if scene == "quayside" else plan[scene]
            for want in wanted:
                for o in question.options:
                    if o.label.startswith(want):
                        if scene == "quayside" and errands and want == errands[0]:
                            errands.pop(0)
                        return o.key
            raise AssertionError(f"nothing to choose in {scene}: {[o.label for o in question.options]}")

    journal = Journal()
    game = Game(vellan, seed=2, decider=Errands(), sink=journal.render, party=[pregenerated("espen")])
    game.state.flags["theorised"] = True
    game.play()
    assert not errands
    recap = journal.recap()
    blocks = dict(recap_blocks(recap))
    assert any(e.startswith("Social conflict against Ingrid Solberg: ") for e in blocks["The harbour office"])
    assert any(e.startswith("Library use against the registry: ") for e in blocks["The shipping registry"])
    assert "The quay" not in blocks and recap[-1].startswith("The end: ")
    headers = [header for header, _ in recap_blocks(recap)]
    assert all(headers.count(h) == 1 for h in ("The harbour office", "The shipping registry"))  # once a scene
    # the argument with the harbourmaster showed her mood on every roll: her card says it now
    assert f"  Ingrid Solberg (harbourmaster, {game.state.npcs['ingrid'].code_block.disposition.lower()})" \
        in sc.npcs_text(game).splitlines()


def test_recap_shows_the_scene_under_way_even_when_nothing_came_of_it_yet():
    journal = Journal()
    for title in ("Quay", "Office", "Quay"):
        journal.render(Event("scene_entered", {"title": title, "text": ".", "slots": {}}))
    assert journal.recap() == ["Quay"]
    journal.render(Event("note", {"text": "the clerk lied"}))
    assert journal.recap() == ["Quay", "  Note: the clerk lied"]  # the note, under the scene it was made in


def test_recap_names_a_scene_once_where_the_scene_between_is_left_out():
    """A group's run at Kaldskard: the recap read "The inn at Nedre Bru", its entries, then "The inn at Nedre Bru"
    again, old Sigvald's fire between them left out (nothing came of it). One title, the entries under it in order."""
    journal = Journal()
    journal.render(Event("scene_entered", {"title": "The inn", "text": ".", "slots": {}}))
    journal.render(Event("note", {"text": "an axe taken"}))
    journal.render(Event("scene_entered", {"title": "The fire", "text": ".", "slots": {}}))
    journal.render(Event("scene_entered", {"title": "The inn", "text": ".", "slots": {}}))
    journal.render(Event("note", {"text": "no traveller"}))
    assert journal.recap() == ["The inn", "  Note: an axe taken", "  Note: no traveller"]
    journal.render(Event("scene_entered", {"title": "The fire", "text": ".", "slots": {}}))
    journal.render(Event("note", {"text": "a tale"}))
    journal.render(Event("scene_entered", {"title": "The inn", "text": ".", "slots": {}}))
    assert journal.recap() == ["The inn", "  Note: an axe taken", "  Note: no traveller", "The fire", "  Note: a tale",
                               "The inn"]  # a scene shown between keeps the two apart


def test_pushing_on_at_zero_says_the_penalty_waits_for_below_zero():
    """A new player pushed on at 0 and read "pushes on below zero (every skill -20 %)", then saw a plain
    Combat 30 roll: the −20 % counts only while the Pool is below zero (docs/rules.md), and the line says so."""
    from solo.ui import describe

    assert describe.pushes_on(0) == "pushes on at 0 (every skill -20 % once below zero)"
    assert describe.pushes_on(-3) == "pushes on below zero (every skill -20 %)"
    # a reading of fights: the bars stop at 0 and the next blow said "now at -3 of 12", nothing between to add up
    assert describe.pushes_on(-1, "BODY") == "pushes on below zero: BODY -1 (every skill -20 %)"


def test_the_luck_line_names_a_party_member_only_in_a_party():
    """The help showed 'luck ada find rope' in a game of one, where there is no Ada and no one else to name."""
    from solo.ui.session import _help

    def luck_find(party):
        return next(line for line in _help(True, party).splitlines() if line.lstrip().startswith("luck find"))

    assert luck_find(["Espen Lind"]).endswith("you find a small useful item")
    assert luck_find(["Espen Lind", "Signe Falk"]).endswith("(put a name first to say who: luck signe find rope)")
    assert "ada" not in _help(True, ["Espen Lind"]).lower()
    # the name shown is one the lookup (first name that starts so) finds that PC by
    assert luck_find(["Signe Falk", "Sig Berg"]).endswith("luck sig berg find rope)")
    assert luck_find(["Espen Lind", "Espen Moe"]).endswith("luck espen moe find rope)")


def test_a_conflict_given_up_at_its_declarations_counts_the_rounds_rolled(finished):
    """A new player's recap: 'Social conflict against Ingrid Solberg: the opponent gave up after 3 rounds', of two
    rounds rolled (she gave up at the third round's declarations, which the conflict counts as its third). The
    journal counts the rounds whose result was told, and says where it ended: here Signe gives up at the fourth
    round's declarations, "at the start of round 4" (not "after 3 rounds" under the screen's "Round 4")."""
    folder, events = finished
    end = next(e for e in events if e["kind"] == "conflict_end")
    rolled = sum(e["kind"] == "round_result" for e in events[:events.index(end)])
    assert end["outcome"] == "opponent_surrendered" and (end["rounds"], rolled) == (4, 3)
    text = (folder / "saves" / "tutorial.md").read_text(encoding="utf-8")
    assert "over at the start of round 4, the opponent gave up" in text and "after 4 rounds" not in text
    assert "after 3 rounds" not in text
    from solo.ui.journal import _rounds

    assert (_rounds(3, 3), _rounds(3, 4), _rounds(0, 1), _rounds(1, None)) == (
        " after 3 rounds", " at the start of round 4", "", " after 1 round")


def test_a_conflicts_last_rounds_are_told_before_its_summary_as_on_the_screen():
    """A seeded Vellan run: "It goes on like that for five more rounds, with nothing to show for it." came after
    the line "over after 8 rounds, a stalemate" in the journal, where the terminal tells it first."""
    from solo.ui.journal import Journal

    journal = Journal()
    journal.render(Event("conflict_start", {"type_name": "Chase on foot", "pool_name": "BODY", "participants": []}))
    journal.render(Event("conflict_end", {"outcome": "stalemate", "rounds": 8, "pool_lost": {}}),
                   ["It goes on like that for five more rounds, with nothing to show for it."])
    text = journal.text()
    assert text.index("It goes on like that") < text.index("a stalemate"), text

"""The Markdown journal of a game: the story and the dice in order, and a short record for ``recap``.

The body holds no clock and no paths, so the same adventure, seed and answers give a
byte-identical body: that is what ``--transcript`` writes, and what a replayed save rebuilds.
The journal kept beside a save adds front matter (:func:`front_matter`) for note vaults.

Names, notes, questions and item names come from players and from content files, and the
journal is Markdown that other programs index: :func:`inline` and :func:`prose` escape what
could open a heading, close the front matter, start raw HTML or unbalance the journal's own
emphasis, so a note reads as typed and cannot reshape the page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..events import Event
from ..paths import FileKind
from ..story.format.text import fill
from ..terminal_text import CONTROL
from . import describe as d

#: The first line of a transcript, and how a journal beside a save opens: solo knows both for its own.
TRANSCRIPT_HEAD = "<!-- a transcript written by solo play -->\n"
JOURNAL_FILE = FileKind("a journal", starts=(b"---\nadventure: ", TRANSCRIPT_HEAD.encode()))

_BREAKS = re.compile(r"[\r\n\t\v\f\x1c-\x1e\x85\u2028\u2029]+")
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<#|])")
# what turns the start of a line into something else: a list, a quote, an ordered list, a setext underline
_LEADING = re.compile(r"^(\s*)(\d{0,9})([-+>=.)])")
# a line of prose that would restructure the page: a heading, a rule or setext underline, a fence, raw HTML
_PROSE_LINE = re.compile(r"^(\s{0,3})(#|<|`{3}|~{3}|(?=[-=*_](?:\s*[-=*_]){2,}\s*$))")


def sentence(text: str) -> str:
    """``text`` closed with a full stop, unless it already ends as a sentence does ("Who wants it?")."""
    bare = text.rstrip()
    return bare if bare.endswith(_ENDS_SENTENCE) else bare + "."


_ENDS_SENTENCE = (".", "?", "!", "\u2026", ".\u201d", "?\u201d", "!\u201d", ".\"", "?\"", "!\"")


def inline(text: object) -> str:
    """``text`` as one line of Markdown that shows exactly what it says wherever it is put."""
    line = CONTROL.sub("", _BREAKS.sub(" ", str(text)))  # (what a terminal acts on: solo.terminal_text's one set)
    line = _INLINE_SPECIAL.sub(r"\\\1", line)
    return _LEADING.sub(_escape_leading, line)


def _escape_leading(m: re.Match[str]) -> str:
    """A backslash before the mark itself (``\\-``, ``1\\.``): before a digit it would show, not escape."""
    space, digits, mark = m.groups()
    if (mark in ".)") != bool(digits):  # "1." and "-" start a list; ".x" and "1-2" do not
        return m.group()
    return f"{space}{digits}\\{mark}"


def prose(text: str) -> str:
    """An author's Markdown paragraph, kept as Markdown, with nothing that restructures the page:
    no heading, rule, fence or HTML starts one of its lines (a name filled in cannot start one either)."""
    lines = CONTROL.sub("", text).splitlines()
    return "\n".join(_PROSE_LINE.sub(r"\1\\\2", line) for line in lines)


def _yaml_value(value: object) -> str:
    """A YAML flow value: JSON numbers, and JSON strings with whatever YAML may not hold raw escaped."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    text = json.dumps(str(value), ensure_ascii=False)
    return re.sub(r"[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def front_matter(meta: Mapping[str, object]) -> str:
    """YAML between ``---`` lines, one ``key: value`` a line; a ``date`` (YYYY-MM-DD) stays a bare date
    so vaults read it as one. Values that are None are left out."""
    lines = ["---"]
    for key, value in meta.items():
        if value is None:
            continue
        if key == "date" and isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            lines.append(f"{key}: {value}")
        else:
            lines.append(f"{key}: {_yaml_value(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """A journal's front matter as raw ``key -> value`` text, and the body after it."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---\n", 3)
    if end < 0:
        return {}, text
    meta: dict[str, str] = {}
    for line in text[4:end].splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            meta[key] = value
    return meta, text[end + 5:].lstrip("\n")


class Journal:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[str, str] = {}
        self.plural: frozenset[str] = frozenset()  # named in the plural: "the parish records win"
        self.obstacles: frozenset[str] = frozenset()  # static obstacles: they give way, they lose no Pool
        # the conflict under way, for its summary: its type, its Pool and who is on each side
        self.conflict_type, self.conflict_pool = "The conflict", "Pool"
        self.static = False  # against a static obstacle: one who leaves walks away (describe.exit_words)
        self.ways_out = d.WaysOut()  # a nerve failing, one who leaves, the answer: as the screen says them
        # a round is under way: whatever is told in it is one of its items, whichever event carried the words (the
        # moves told before a plea came with the plea, and read as paragraphs of the story between the rounds)
        self.in_round = False
        self.sides: dict[str, list[str]] = {}
        # its rounds rolled so far: one that ended as someone gave up or ran at its declarations was never rolled
        # (the conflict's own count, which starts a round at its declarations, said "gave up after 3 rounds" of a
        # surrender before the third round's dice)
        self.rounds_rolled = 0
        # what happened, plain text for ``recap``: (header, entries, True) per visit to a scene, its entries
        # in the order they happened (what came of its rolls, conflicts and choices, the notes, the oracle's
        # answers); (a line, [], False) for the end
        self.happened: list[tuple[str, list[str], bool]] = []
        self._rolled: tuple[list[str], int] | None = None  # where the recap has the last story roll

    def text(self) -> str:
        return "\n".join(self.lines).rstrip() + "\n"

    def document(self, meta: Mapping[str, object]) -> str:
        """The journal as it is kept beside a save: front matter, then the body."""
        return front_matter(meta) + "\n" + self.text()

    def transcript(self) -> str:
        """The journal as ``solo play --transcript`` writes it: the story alone, under a line (a comment no
        Markdown viewer shows) that tells a later ``--transcript`` the file is one solo wrote."""
        return TRANSCRIPT_HEAD + self.text()

    def write(self, path: Path, meta: Mapping[str, object] | None = None) -> None:
        """Replace ``path`` with the journal so far, all at once (an ``OSError`` says why not);
        with ``meta``, front matter first (the journal beside a save), else as a transcript."""
        from ..paths import write_atomic

        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, self.document(meta) if meta is not None else self.transcript())

    def recap(self) -> list[str]:
        """The story so far, briefly, in order: each scene under its title, once, and under it what came of its
        rolls, conflicts and choices (an item, a thread, a clue …), the notes made and the oracle's answers
        given while it was under way; last the scene under way, and the end. In open play a scene's title
        says what the players expected of it. A scene the story only passed through (a quay it comes back to
        between errands) is left out: however long the game, nothing that happened is crowded out by the
        walking between."""
        lines: list[str] = []
        last_scene = max((i for i, (_, _, scene) in enumerate(self.happened) if scene), default=-1)
        shown = None  # the title last written: a scene left and come back to, with only a passing between, is one
        for i, (header, entries, scene) in enumerate(self.happened):
            if scene and not entries and i != last_scene:
                continue
            if header != shown:  # (a group's run read "The inn at Nedre Bru" twice in a row, the fire between left out)
                lines.append(header)
                shown = header
            lines += [f"  {entry if entry.startswith(_AS_GIVEN) else sentence(d.upper_first(entry))}"
                      for entry in entries]
        return lines

    def _para(self, text: str) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")
        self.lines.append(text)
        self.lines.append("")

    def _item(self, text: str) -> None:
        self.lines.append(f"- {text}")

    def _outcome(self, text: str) -> None:
        """What happened in the scene under way (before the first scene or after the end, under a heading
        of its own)."""
        if not self.happened or not self.happened[-1][2]:
            self.happened.append(("After the end" if self.happened else "Before the first scene", [], True))
        self.happened[-1][1].append(text)

    def render(self, e: Event, narration: Sequence[str] = ()) -> None:
        k = e.kind
        self._remember(e)
        way_out = self.ways_out.line(k, e)
        if k == "title":
            self.lines += [f"# {inline(e['title'])}", ""]
            if e.get("introduction"):
                self._para(prose(e["introduction"].strip()))
        elif k == "party":
            names = ", ".join(m["name"] + (f" ({m['career']})" if m.get("career") else "") for m in e["members"])
            self._para(f"*The party: {inline(names)}.*")
        elif k == "scene_entered":
            self._para(f"## {inline(e['title'])}")
            for para in fill(e["text"], e["slots"], escape=inline).strip().split("\n\n"):  # a name is words
                if para.strip():
                    self._para(prose(para.strip()))
        elif k == "situation":
            self._para(f"*{inline(e['text'])}*")
        elif k == "scene_setup":
            said = d.scene_setup(e)
            if said:
                self._para(f"*{inline(said)}*")
        elif k == "npc_met":
            self._para(inline(d.npc_met(e)))
        elif k == "choice":
            hint = f" \u2014 *{inline(e['hint'])}*" if e.get("hint") else ""
            self._para(f"> **{inline(e['text'])}**{hint}")
        elif k == "conflict_roles":
            self._para(f"*{inline(d.conflict_roles(e))}*")
        elif k == "new_character":
            pc = e["character"]
            self._para(f"*A new character: {inline(pc.get('name', ''))}"
                       f"{', ' + inline(pc['career']) if pc.get('career') else ''}.*")
        elif k == "cast" and e.get("added") and e.get("weight", 1) > 1:
            self._para(f"*{inline(d.list_weight('NPCs', e))}*")
        elif k == "cast":
            what = "joins the story" if e.get("added") else "leaves the oracle's list"
            self._para(f"*{inline(e.get('name', ''))} {what}.*")
        elif k == "branch_text":
            told = fill(e["text"], e["slots"], escape=inline).strip()
            if told:  # a text all of whose {if} sides are false here says nothing: no empty paragraph
                self._para(prose(told))
        elif k == "skill_roll":
            self._para(f"*{inline(d.skill_roll(e))}*")
        elif k == "opposed_roll":
            self._para(f"*{inline(d.opposed_roll(e))}*")
        elif k == "opposed_outcome":
            self._para(f"*{inline(d.opposed_outcome(e))}*")
        elif k == "luck":  # in a round, one of its dice lines
            self._item(inline(d.luck(e))) if self.in_round else self._para(f"*{inline(d.luck(e))}*")
        elif k == "conflict_stakes" and e.get("stakes"):
            self._para(f"*At stake: {inline(e['stakes'])}*")
        elif k == "conflict_start":
            facts = self.ways_out.facts  # (read from this event already: one reading of who is who)
            self.names, self.plural, self.obstacles, self.static = (facts.names, facts.plural, facts.obstacles,
                                                                    facts.static)
            self.in_round = False
            sides: dict[str, list[str]] = {"a": [], "b": []}
            for p in e["participants"]:
                blow = f", {p.get('strikes_with') or 'damage'} {p['damage']}" if p.get("damage") else ""
                chance = d.percent_of(p["target"])
                pool = d.pool_heading(e["pool_name"], obstacle=bool(p.get("obstacle")))
                sides[p["side"]].append(f"{p['name']} ({chance}, {pool} {p['pool']}{blow})")
            self._para(f"### {inline(e['type_name'])}: {inline(', '.join(sides['a']))} against "
                       f"{inline(', '.join(sides['b']))}")
        elif k == "round_start":
            self.in_round = True
            of = f" of {e['round_limit']}" if e.get("round_limit") else ""
            self._para(f"**Round {e['round']}{of}**")
        elif k == "next_round":
            self._item(inline(d.upper_first(d.next_round(e, self.names))))
        elif k == "chance" and e.get("changed"):
            changed = inline(d.upper_first(d.changed_chance(e, self.names)))
            self._item(changed) if self.in_round else self._para(f"*{changed}*")
        elif k == "roll":
            self._item(inline(d.conflict_roll(e, self.names)))
        elif k == "round_result":
            self._item(inline(d.upper_first(d.round_result(e, self.names, self.plural))))
        elif k == "damage":
            self._item(inline(d.upper_first(d.damage(e, self.names, self.plural, self.obstacles))))
        elif k in ("push", "out", "comae"):
            who = d.upper_first(self.names.get(e["actor"], e["actor"]))  # it opens the sentence
            text = {"push": f"{who} pushes on ({e.get('pool')} {e.get('value')}).",
                    "out": f"{who} {d.goes_out(e['actor'], self.plural, self.obstacles)}.",
                    "comae": f"{who} {d.FALLS_INTO_COMAE}."}[k]
            self._item(inline(text))
        elif k in ("exit", "exit_answer") and way_out:  # (an exit its broken nerve's clue said: none, as on screen)
            self._item(inline(way_out))
        elif k == "leave_attempt":
            self._item(inline(d.leave_attempt_line(e, self.names)))
        elif k in ("npc_break", "npc_morale") and way_out:
            self._item(f"*{inline(way_out)}*")
        elif k == "conflict_end":
            # the last rounds' telling first, then the summary, as the terminal shows them: "It goes on like that for
            # five more rounds" came after "over after 8 rounds, a stalemate" (a seeded Vellan party run)
            for line in narration:
                self._para(inline(line))
            narration, self.in_round = (), False
            self._para(f"*{inline(self._conflict_summary(e))}*")
            for line in d.pools_settled(e):
                self._para(f"*{inline(line)}*")
        elif k == "spent_at_start":
            self._para(f"*{inline(d.spent_at_start(e))}*")
        elif k == "no_contest":
            self._para(f"*{inline(d.no_contest(e))}*")
        elif k == "assist_idle":
            self._para(f"*{inline(d.assist_idle(e))}*")
        elif k == "oracle":
            self._para(f"> {inline(d.oracle(e, commands=False))}")
        elif k == "table":
            self._para(f"*{inline(e.get('text', ''))}*")
        elif k == "thread" and e.get("opened") and e.get("weight", 1) > 1:
            self._para(f"*{inline(d.list_weight('threads', e))}*")
        elif k == "thread_progress":
            self._para(f"*{inline(d.thread_progress(e))}*")
        elif k == "discovery":
            self._para(f"> {inline(d.discovery(e))}")
        elif k == "thread":
            opened = "opened" if e.get("opened") else "closed"
            what = e.get("text", "")
            self._para(f"*{inline(sentence(f'Thread {opened}: {what}'))}*")
        elif k == "note" and str(e.get("text", "")).strip():  # an empty note is no note
            self._para(f"> **Note:** {inline(e['text'])}")
        elif k == "tension":  # as the screen says it (a GM-less table's journal kept no scene's end at all)
            self._para(f"*{inline(d.tension_line(e))}*")
        elif k == "item":
            gained = "Gained" if e["gained"] else "Lost"
            item = e["item"]
            self._para(f"*{inline(sentence(f'{gained}: {item}'))}*")
        elif k == "wield":
            self._para(f"*{inline(d.wield_line(e))}*")
        elif k == "pool_change":
            self._para(f"*{inline(d.pool_change_line(e))}*")
        elif k == "disposition":
            self._para(f"*{inline(d.upper_first(str(e['name'])))} is now {inline(e['after'])} towards you.*")
        elif k == "clue":
            self._para(f"> **Clue:** {inline(e['text'])}")
        elif k == "pc_removed":
            self._para(f"*{inline(e['actor'])} is {'dead' if e['fate'] == 'death' else 'out of the story'}.*")
        elif k == "ending":
            title, outcome = str(e.get("title") or ""), str(e.get("outcome") or "")
            words = d.outcome_beside(title, outcome)
            if words:
                self._para(f"**The end: {inline(title)}** ({inline(words)}).")
            else:  # open play's ending is its own outcome: said once
                self._para(f"**The end: {inline(title)}**{sentence(title)[len(title):]}")
            for line in d.fallen_at_end(e):
                self._para(f"*{inline(line)}*")
        elif k == "session_end":
            self._para(f"*{inline(d.session_end(e))}*")
        elif k == "improvement":
            self._item(inline(d.improvement(e)))
        elif k == "request":
            self._para(f"*{inline(d.request(e))}*")
        elif k == "treatment":
            self._para(f"*{inline(d.treatment(e))}*")
        elif k == "dead_end":
            self._para("*The story stops here: no way on.*")
        for line in narration:
            self._item(f"*{inline(line)}*") if self.in_round else self._para(inline(line))

    def _conflict_summary(self, e: Event) -> str:
        """A finished conflict in one sentence: who against whom, how many rounds, how it ended, what it cost."""
        us, them = ", ".join(self.sides.get("a", [])), ", ".join(self.sides.get("b", []))
        head = f"{self.conflict_type}, {us} against {them}" if us and them else "The conflict"
        lost = [(self.names.get(who, who), n) for who, n in (e.get("pool_lost") or {}).items() if n]
        pool = self.conflict_pool
        cost = (f" {pool} lost: " + ", ".join(f"{who} {n}" for who, n in lost) + ".") if lost else \
            f" No {pool} lost."
        over = _rounds(self.rounds_rolled, e.get("rounds"))
        return f"{head}: over{over}, {d.ended_words(e, self.static)}.{cost}"

    def _remember(self, e: Event) -> None:
        """Keep what ``recap`` shows: scenes, and what came of each roll, conflict and choice in them."""
        k = e.kind
        if k == "scene_entered":
            header = str(e.get("title") or "A scene")
            expected = " ".join(str(e.get("expected") or "").split())
            if expected:  # open play: what the players said the scene would be, briefly
                header += f" (expected: {expected if len(expected) <= EXPECTED_SHOWN else _cut(expected)})"
            self.happened.append((header, [], True))
        elif k == "conflict_start":
            self.sides, self.rounds_rolled = {}, 0
            for p in e["participants"]:
                self.sides.setdefault(p["side"], []).append(p["name"])
            self.conflict_type = str(e.get("type_name") or "The conflict")
            self.conflict_pool = str(e.get("pool_name") or "Pool")
        elif k == "skill_roll":
            verdict = d.verdict(e["success"], e["exceptional"], bool(e.get("automatic")))
            self._outcome(f"{e['actor']} {e['skill']}: {verdict}")
            outcomes = self.happened[-1][1]
            self._rolled = (outcomes, len(outcomes) - 1)
        elif k == "roll_outcome" and self._rolled is not None:  # after a Luck flip the verdict may differ
            outcomes, at = self._rolled
            who_skill = outcomes[at].rpartition(": ")[0]
            outcomes[at] = f"{who_skill}: {e['outcome'].replace('_', ' ')}"
            self._rolled = None
        elif k == "opposed_outcome":
            self._outcome(d.opposed_outcome(e).rstrip("."))
        elif k == "round_result":
            self.rounds_rolled += 1
        elif k == "conflict_end":
            them = ", ".join(self.sides.get("b", []))
            what = f"{self.conflict_type}{f' against {them}' if them else ''}"
            self._outcome(f"{what}: {d.ended_words(e, self.static)}"
                          f"{_rounds(self.rounds_rolled, e.get('rounds'))}")
        elif k == "no_contest":
            self._outcome(f"no contest, {d.ended_words(e)}")
        elif k == "item":
            self._outcome(f"{'gained' if e['gained'] else 'lost'} {e['item']}")
        elif k == "wield" and not e.get("kept"):  # the recap keeps what changed
            self._outcome(f"{e['actor']} took up {d.a_weapon(e['weapon'])}")
        elif k == "clue":
            self._outcome(f"learned: {str(e['text']).rstrip('.')}")
        elif k == "thread" and not (e.get("opened") and e.get("weight", 1) > 1):
            self._outcome(f"thread {'opened' if e.get('opened') else 'closed'}: {e.get('text', '')}")
        elif k == "thread_progress":
            self._outcome(f"progress on {e['thread']}: {e['after']} of {e.get('track', 10)}")
        elif k == "discovery":
            step = e.get("progress") or {}
            self._outcome(f"discovery check on {e['thread']}: {e['answer']}, progress {step.get('after', 0)} of "
                          f"{step.get('track', 10)}")
        elif k == "npc_met":
            self._outcome(f"met {e.get('name')}")
        elif k == "pc_removed":
            self._outcome(f"{e['actor']} {'died' if e['fate'] == 'death' else 'left the story'}")
        elif k == "luck" and e.get("use") in ("timely_appearance", "look_what_i_found"):
            self._outcome(d.luck(e).rstrip("."))
        elif k == "note" and str(e.get("text", "")).strip():
            self._outcome(f"Note: {e['text']}")
        elif k == "oracle":
            q = f"\u201c{e['question']}\u201d " if e.get("question") else ""
            self._outcome(f"Oracle: {q}{e['answer']}")
        elif k == "ending":
            said = d.ending_said(str(e.get("title") or ""), str(e.get("outcome") or ""))
            self.happened.append((f"The end: {said}", [], False))


_AS_GIVEN = ("Note: ", "Oracle: ")  # a note as typed, an oracle's answer as given ("no, and"): no full stop added
EXPECTED_SHOWN = 60  # characters of an open-play scene's expectation a recap shows


def _cut(text: str) -> str:
    """``text`` cut at a word to about EXPECTED_SHOWN characters, with an ellipsis."""
    cut = text[:EXPECTED_SHOWN].rsplit(" ", 1)[0] if " " in text[:EXPECTED_SHOWN] else text[:EXPECTED_SHOWN]
    return cut.rstrip(" ,;:.") + "\u2026"


def _rounds(rolled: int, reached: object = None) -> str:
    """" after 4 rounds", the rounds a conflict rolled (nothing if it never got to a roll); " at the start of round
    4" where it ended at the declarations of a round it reached (``reached``, the conflict's own count) and never
    rolled: "over after 3 rounds" read wrong under the screen's "Round 4" heading."""
    if isinstance(reached, int) and rolled and reached == rolled + 1:
        return f" at the start of round {reached}"
    return f" after {rolled} round{'s' if rolled != 1 else ''}" if rolled else ""

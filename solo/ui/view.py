"""The terminal view: scene text in panels, dice as they fall, conflict rounds as compact tables.

It reads events and never changes the game. While a saved game is replayed
it stays quiet, keeping the events since the last scene so the player sees
where they are when play resumes.

Nothing from a player or from content is ever read as rich markup: whatever
carries such text (a title, a name, a table cell, a line) is built as a rich
``Text`` here, through :func:`plain` and :func:`say`. Only the program's own
fixed strings may carry markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..events import Event
from ..rules.dice import target_text, two_digits
from ..rules.lenses import LENS_NAMES
from ..story.format.text import fill
from . import describe as d
from .journal import inline, sentence
from .prompt import GridColumn, grid_lines, joined
from .sheet import pool_bar

Part = object | tuple[object, str]


def plain(*parts: Part, style: str = "") -> Text:
    """Text that rich shows exactly as written: no markup, no emoji codes, no highlighting.

    A part is a value (shown as ``str`` shows it) or a ``(value, style)`` pair; ``style`` applies to the whole.
    """
    text = Text(style=style)
    for part in parts:
        if isinstance(part, tuple):
            text.append(str(part[0]), style=part[1])
        else:
            text.append(str(part))
    return text


def say(console: Console, *parts: Part, style: str = "", soft_wrap: bool = False) -> None:
    """Print one line of plain text (see :func:`plain`); ``soft_wrap``: as one line, for the terminal to fold
    (a command to copy stays one line)."""
    console.print(plain(*parts, style=style), soft_wrap=soft_wrap)


def tell(console: Console, *parts: Part, style: str = "") -> None:
    """Print prose (a recap, a message): broken between words at the console's width, a word longer than a
    line (a path, a long name) kept whole for the terminal to fold, never cut by a line break of solo's."""
    console.print(between_words(plain(*parts, style=style), console.width), soft_wrap=True)


def say_copyable(console: Console, lead: str, copy: str, after: str = "", *, style: str = "") -> None:
    """A hint that ends in something to copy (a command, a path): ``lead`` as prose, then ``copy`` on a line of
    its own, indented, never broken by solo (a longer one is folded whole by the terminal, which copies it as
    one line); ``after`` follows on the next line."""
    tell(console, lead, style=style)
    console.print(plain("  ", (copy, "bold"), style=style), soft_wrap=True)
    if after:
        tell(console, after, style=style)


_WORD = re.compile(r"\S+")


def between_words(text: Text, width: int) -> Text:
    """``text`` with its lines broken between words to fit ``width``; a word longer than that stays whole."""
    plain_text = text.plain
    cuts: list[int] = []
    line_start = 0
    for match in _WORD.finditer(plain_text):
        start, end = match.span()
        newline = plain_text.rfind("\n", line_start, start)
        if newline >= 0:
            line_start = newline + 1
        if start > line_start and end - line_start > width:
            cuts.append(start)
            line_start = start
    if not cuts:
        return text
    lines = text.divide(cuts)
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def steady_size(console: Console) -> None:
    """Keep a console whose width is fixed (``Console(width=…)``, or COLUMNS in the environment) at the height it
    has now, so that its size is no longer looked up at every print.

    Rich returns a size it was given at once only when both the width and the height were given; with the width
    alone it asks the operating system for the terminal's size (three streams tried) and reads the environment
    again at every print, and more than once a print (``Console.size``: a fifth of printing a short line), only
    to keep the width it was given. Nothing solo prints reads the height (no pager, no live display), so keeping
    it changes no output, and a console that follows the terminal's width (none given) is left to follow it.
    Rich's dumb-terminal size and its legacy-Windows width take another way through ``Console.size``: those
    consoles are left alone too.
    """
    # rich keeps no public note of whether the width was given: read softly, so that a rich that renames its
    # private fields leaves the console as it is (slower, the same output) rather than failing
    fixed, height = getattr(console, "_width", None), getattr(console, "_height", 0)
    if not isinstance(fixed, int) or height is not None or console.legacy_windows or console.is_dumb_terminal:
        return
    console.size = (fixed, console.size.height)


#: A round table's columns as :func:`solo.ui.prompt.grid_lines` lays them out: :func:`round_table`'s.
ROUND_COLUMNS = [*[GridColumn(left=1, right=1)] * 5, GridColumn(left=1, right=1, overflow="fold")]


def round_table(rows: list[list[Text]]) -> Table:
    """A conflict round's rolls (who, Lens, roll / target, verdict, blow, the target's parts) as a table. The
    view prints it as :func:`solo.ui.prompt.grid_lines` lays it out (ROUND_COLUMNS), the same bytes made without
    rich's measuring; the table itself where that declines."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    for _ in range(5):
        table.add_column()
    table.add_column(overflow="fold")  # the target's parts: the longest, and the one to wrap
    for row in rows:
        table.add_row(*row)
    return table


def _between_questions(e: Event) -> bool:
    """Whether an event is only the chances a menu is about to show (emitted before each menu, shown by it), or the
    answer just given (``choice``: the prompt showed it): it does not move the game on, so the question that follows
    is still part of the same decision ("Who tries it?" after the party's choice had the status line twice)."""
    return (e.kind == "chance" and not e.get("changed")) or e.kind == "choice"


class TerminalView:
    def __init__(self, console: Console, *, explain: bool = False) -> None:
        steady_size(console)
        self.console = console
        self.explain = explain
        self.muted = False
        self.buffer: list[tuple[Event, list[str]]] = []
        self.names: dict[str, str] = {}
        self.plural: frozenset[str] = frozenset()  # named in the plural: "the parish records win"
        self.obstacles: frozenset[str] = frozenset()  # static obstacles: they give way, they lose no Pool
        self.pools: dict[str, tuple[int, int]] = {}
        self.sides: dict[str, str | None] = {}  # each participant's side, by id (its part in a pursuit names its exit)
        #: who went out of the conflict (or into comae) by a blow to another Pool than the one its bar shows: the bar
        #: says so beside its value (a group's run: Torgny, out at CHA 0, stood on the bars at BODY 6/8 as if fighting)
        self.down: dict[str, str] = {}
        self.pool_name: str | None = None  # the conflict's Pool, whose bars show
        self.round_rows: list[list[Text]] = []  # who, Lens, roll / target, verdict, blow, the target's parts
        self.round_notes: list[str] = []
        self.round_limit: int | None = None
        self.static = False  # the conflict is against a static obstacle (conflict_start frame)
        self.frame: dict[str, Any] = {}
        self.rolled = False  # every roll of this round is made
        self.table_shown = False  # this round's rolls are on screen (before any Luck flip is offered)
        self.ways_out = d.WaysOut()  # a nerve failing, one who leaves, the answer: the journal and a told duel say
        self.way_out: str | None = None  # them from it too; this event's line, if it gives one
        self.status_line: Callable[[], str] | None = None  # 'status' turns it on: a line before each decision
        self.status_due = True  # the game has moved since the status line was shown: the next question shows it
        self.status_shown: str | None = None  # the status line last shown: one that changed is shown again

    # -- muting during replay ---------------------------------------------------------
    def mute(self) -> None:
        self.muted = True
        self.buffer = []

    def unmute(self, banner: str | None = None) -> None:
        self.muted = False
        if banner:
            self.console.print(Text(banner, style="bold green"))
        for event, lines in self.buffer:
            self.render(event, lines)
        self.buffer = []

    # -- rendering ------------------------------------------------------------------
    def render(self, e: Event, narration: Sequence[str] = ()) -> None:
        if self.muted:
            if e.kind in ("scene_entered", "title"):
                self.buffer = []
            self.buffer.append((e, list(narration)))
            return
        self.way_out = self.ways_out.line(e.kind, e)
        handler = getattr(self, f"_on_{e.kind}", None)
        if handler is not None:
            handler(e, list(narration))
        elif narration:
            self._narrate(narration)
        if not _between_questions(e):
            self.status_due = True

    def _narrate(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.console.print(Text(line, style="italic"))

    def _dice(self, text: str, style: str = "cyan") -> None:
        self.console.print(Text("  \u2684 " + text, style=style))

    def _on_title(self, e: Event, n: list[str]) -> None:
        # Markdown, as a scene's text is: "Type `status` to watch the days" showed its backticks (a new player's run)
        from rich.markdown import Markdown

        # a link shows where it leads (hyperlinks=False), as the journal shows it: an address hidden behind words
        # is not something an adventure file may put on a player's screen (an architecture audit)
        body: RenderableType = (Markdown(e["introduction"].strip(), hyperlinks=False) if e.get("introduction")
                                else Text(""))
        by = plain(f"by {e['author']}") if e.get("author") else None
        self.console.print(Panel(body, title=plain(e["title"], style="bold"), subtitle=by, border_style="magenta"))

    def _on_party(self, e: Event, n: list[str]) -> None:
        names = ", ".join(m["name"] for m in e["members"])
        self.console.print(Text(f"The party: {names}. Type 'sheet' at any prompt to see a character.", style="dim"))

    def _on_scene_entered(self, e: Event, n: list[str]) -> None:
        from rich.markdown import Markdown

        text = fill(e["text"], e["slots"], escape=inline).strip()  # a name is words, never markup
        style = "yellow" if e.get("ending") else "blue"
        self.console.print()
        if not text:  # open play: the oracle sets the scene
            self.console.rule(plain(e["title"], style="bold"), style=style)
            return
        self.console.print(Panel(Markdown(text, hyperlinks=False), title=plain(e["title"], style="bold"),
                                 border_style=style,
                                 padding=(1, 2)))
        self._narrate(n)

    def _on_choice(self, e: Event, n: list[str]) -> None:
        pass  # the prompt already showed what was chosen

    def _on_branch_text(self, e: Event, n: list[str]) -> None:
        from rich.markdown import Markdown

        self.console.print(Markdown(fill(e["text"], e["slots"], escape=inline).strip(), hyperlinks=False))
        self._narrate(n)

    def _on_skill_roll(self, e: Event, n: list[str]) -> None:
        style = "green" if e["success"] else "red"
        self._dice(d.skill_roll(e), style)
        self._narrate(n)

    def _on_opposed_roll(self, e: Event, n: list[str]) -> None:
        self._dice(d.opposed_roll(e))
        self._narrate(n)

    def _on_opposed_outcome(self, e: Event, n: list[str]) -> None:
        self._dice(d.opposed_outcome(e), "bold")
        self._narrate(n)

    def _on_luck(self, e: Event, n: list[str]) -> None:
        if self.round_rows and not self.table_shown and e.get("use") == "flip":
            # a flip inside a conflict round: correct the round's row before the table is shown
            name = e.get("actor")
            for row in self.round_rows:
                if row[0].plain == self.names.get(name, name):
                    target = row[2].plain.split(" / ")[1]
                    row[2] = plain(f"{two_digits(e['before'])}\u2192{two_digits(e['after'])} / {target}")
                    row[3] = Text("success (Luck)", style="green")
            self.round_notes += n
            return
        if self.round_rows and not self.table_shown and e.get("use") == "pay_back":
            # borrowed Luck took this round's success: the row must not still say "success"
            name = e.get("actor")
            for row in self.round_rows:
                if row[0].plain == self.names.get(name, name):
                    row[3] = Text("failure (Luck repaid)", style="red")
        self.console.print(Text("  \u2618 " + d.luck(e), style="magenta"))
        known = self.pools.get(e.get("actor"))
        if e.get("use") == "refreshed" and known is not None and e.get("after") is not None:
            self.pools[e["actor"]] = (e["after"], known[1])  # back to 1: the bars showed 0 for the rest of the fight
        self._narrate(n)

    def _on_conflict_stakes(self, e: Event, n: list[str]) -> None:
        if e.get("stakes"):
            self.console.print(Text(f"At stake: {e['stakes']}", style="bold"))

    def _on_conflict_start(self, e: Event, n: list[str]) -> None:
        facts = self.ways_out.facts  # (read from this event already: one reading of who is who)
        self.names, self.plural, self.obstacles, self.static = facts.names, facts.plural, facts.obstacles, facts.static
        self.frame = e.get("frame") or {}  # what kind of conflict: how its ways out are named
        self.round_limit = e.get("round_limit")
        self.pools = {p["id"]: (p["pool"], p["pool_max"]) for p in e["participants"]}
        self.sides = {p["id"]: p.get("side") for p in e["participants"]}  # a hunter's way out is named by its part
        self.down = {}
        self.pool_name = e.get("pool_name")  # the bars are this Pool's: a blow to another is said, not barred
        # a Text title keeps its own style (rich applies title_style to string titles only)
        table = Table(title=plain(e["type_name"], style="bold red"), show_edge=False, box=None, padding=(0, 2))
        table.add_column("side")
        table.add_column("who", style="bold")
        table.add_column("skill", justify="right")
        table.add_column(plain(d.pool_heading(e["pool_name"])))
        table.add_column("blow")
        table.add_column("gear", style="dim")
        for p in e["participants"]:
            gear = ", ".join(g for g in (p.get("armour"), p.get("shield")) if g)
            table.add_row("you" if p["side"] == "a" else "against", plain(p["name"]), plain(d.percent_of(p['target'])),
                          pool_bar(p["pool"], p["pool_max"], 10), plain(d.weapon_text(p)), plain(gear))
        self.console.print()
        self.console.print(table)
        if self.round_limit:
            self.console.print(Text(f"At most {self.round_limit} rounds; a conflict still going then is a "
                                    "stalemate.", style="dim"))
        self._narrate(n)

    def _on_round_start(self, e: Event, n: list[str]) -> None:
        self.round_rows = []
        self.round_notes = list(n)
        self.rolled = self.table_shown = False
        limit = e.get("round_limit", self.round_limit)
        of = f" of {limit}" if limit else ""
        self.console.print()
        self.console.print(Text(f"Round {e['round']}{of}", style="bold"))

    def _on_declare(self, e: Event, n: list[str]) -> None:
        self.round_notes += n

    def _on_roll(self, e: Event, n: list[str]) -> None:
        lens = e.get("lens", "none")
        lens_name = LENS_NAMES.get(lens, "") if lens != "none" else ""
        verdict = d.verdict(e["success"], e["exceptional"])
        style = "green" if e["success"] else "red"
        parts = d.formula(e["skill"], e["base"], e.get("modifiers") or ()) if e.get("base") is not None else ""
        self.round_rows.append([plain(self.names.get(e["actor"], e["actor"])), plain(lens_name),
                                plain(f"{two_digits(e['roll'])} / {target_text(e['target'])}"),
                                plain(verdict, style=style),
                                plain(d.weapon_text(e)), plain(parts, style="dim")])
        self.round_notes += n

    def _on_round_rolled(self, e: Event, n: list[str]) -> None:
        """Every roll of the round is made: the table waits for the round's result, or for a question."""
        self.rolled = True
        self.round_notes += n

    def before_question(self) -> None:
        """A question is about to be asked: a round's rolls still waiting for its result go up first,
        so a Luck flip is decided with the round table in view; then the status line, when it is on, once per
        decision: a question that follows another with nothing shown between (the skill Flamboyant shows off
        with, after its Lens; who tries a roll, after the choice) is part of the same decision, and the line
        above it is still true. A table-side command makes it due again (Session._table_side)."""
        if not self.muted and self.rolled and not self.table_shown and self.round_rows:
            self._round_table()
        if not self.muted and self.status_line is not None:
            line = self.status_line()
            # due, or changed with nothing shown (a choice of effects alone moved a clock: a docs audit saw
            # "hours" go from 0 to 1 with the line kept back, as if the same decision were asked again)
            if not (self.status_due or line != self.status_shown):
                return
            self.status_due = False
            self.status_shown = line
            if line:  # wrapped at words by rich, not cut mid-word at the terminal's edge, nor inside "POW 10/10"
                # (in a Group: a bare Text is joined to the line before it as a plain Text, and wrapped as one)
                self.console.print(Group(joined(plain(line, style="dim"), shown=" ")))

    def _round_table(self) -> None:
        laid = grid_lines(self.round_rows, ROUND_COLUMNS, self.console.width, self.console)
        if laid is None:
            self.console.print(round_table(self.round_rows))
        else:  # print joins the Text anew, without its no_wrap: said again, its lines are not divided again
            self.console.print(laid, no_wrap=True)
        self.table_shown = True

    def _on_chance(self, e: Event, n: list[str]) -> None:
        if e.get("changed"):  # a chance on a menu is shown by the menu; this one moved after the choice
            self.console.print(Text("  " + d.upper_first(d.changed_chance(e, self.names)), style="yellow"))

    def _on_next_round(self, e: Event, n: list[str]) -> None:
        self.console.print(Text("  " + d.upper_first(d.next_round(e, self.names)), style="yellow"))
        self._narrate(n)

    def _on_round_result(self, e: Event, n: list[str]) -> None:
        if not self.table_shown:  # a log from before the table went up at the rolls
            self._round_table()
        self.console.print(Text("  " + d.upper_first(d.round_result(e, self.names, self.plural)), style="bold"))
        self._narrate(self.round_notes + n)
        self.round_notes = []
        self.round_rows = []
        self.rolled = self.table_shown = False

    def _on_damage(self, e: Event, n: list[str]) -> None:
        said = d.damage(e, self.names, self.plural, self.obstacles)
        self.console.print(Text("  " + d.upper_first(said), style="red"))
        conflict_pool = e.get("pool") in (None, self.pool_name)
        if conflict_pool:
            self.pools[e["target"]] = (e["after"], e["maximum"])
        self._narrate(n)
        if conflict_pool:
            self._bars()

    def _opening(self, pid: str) -> str:
        """A participant's name opening a sentence: "The old lock is out of the conflict", not "the old lock"."""
        return d.upper_first(self.names.get(pid, pid))

    def _bars(self) -> None:
        for pid, (cur, mx) in self.pools.items():
            name = self.names.get(pid, pid)
            name = name if len(name) <= 22 else name[:21] + "\u2026"
            line = Text(f"  {name:<23}") + pool_bar(cur, mx, 12)
            if pid in self.down and cur > 0:
                line += Text(f"  {self.down[pid]}", style="bold")
            self.console.print(line)

    def _on_push(self, e: Event, n: list[str]) -> None:
        pool = e.get("pool") or self.pool_name
        self.console.print(Text(f"  {self._opening(e['actor'])} {d.pushes_on(e.get('value'), pool)}.",
                                style="bold yellow"))
        # the blow's line stopped the Pool at 0 (unpushed); pushing on carries its overflow, which the bars show
        # from now on as `status` does ("Push on at -1", then a bar at 0/14 beside "BODY -1/14")
        known = self.pools.get(e["actor"])
        if known is not None and e.get("value") is not None and e.get("pool") in (None, self.pool_name):
            self.pools[e["actor"]] = (e["value"], known[1])
        self._narrate(n)

    def _on_out(self, e: Event, n: list[str]) -> None:
        self.down[e["actor"]] = "out"
        self.console.print(Text(f"  {self._opening(e['actor'])} {d.goes_out(e['actor'], self.plural, self.obstacles)}.",
                                style="bold"))
        self._narrate(n)

    def _on_comae(self, e: Event, n: list[str]) -> None:
        self.down[e["actor"]] = "in comae"
        self.console.print(Text(f"  {self._opening(e['actor'])} {d.FALLS_INTO_COMAE}.", style="bold red"))
        self._narrate(n)

    def _on_exit(self, e: Event, n: list[str]) -> None:
        if self.way_out:  # (none where its body language already said so)
            self.console.print(Text(f"  {self.way_out}", style="bold"))
        self.pools.pop(e["actor"], None)  # out of the conflict and out of the fight: its bar goes with it
        self._narrate(n)

    def _on_exit_answer(self, e: Event, n: list[str]) -> None:
        self.console.print(Text(f"  {self.way_out}", style="bold"))
        self._narrate(n)

    def _on_leave_attempt(self, e: Event, n: list[str]) -> None:
        self._dice(d.leave_attempt_line(e, self.names))
        self._narrate(n)

    def _on_npc_decision(self, e: Event, n: list[str]) -> None:
        if self.explain:
            who = self.names.get(e["actor"], e["actor"])
            choice = d.decision_words(e, self.frame, self.sides.get(e["actor"]))
            self.console.print(Text(f"    ({who}, {d.question_words(e['question'])}: {choice} — {e['reason']})",
                                    style="dim"))

    def _on_npc_morale(self, e: Event, n: list[str]) -> None:
        if self.way_out:
            self.console.print(Text(f"  {self.way_out}", style="italic yellow"))

    def _on_npc_break(self, e: Event, n: list[str]) -> None:
        self.console.print(Text(f"  {self.way_out}", style="bold yellow"))

    def _on_conflict_end(self, e: Event, n: list[str]) -> None:
        self._narrate(n)
        walked = bool(e.get("social")) or self.static
        self.console.print(Text(d.conflict_outcome(e["outcome"], walked), style="bold magenta"))
        for line in d.pools_settled(e):
            self.console.print(plain(line, style="bold"))

    def _on_spent_at_start(self, e: Event, n: list[str]) -> None:
        self.console.print(Text("  " + d.spent_at_start(e), style="bold"))

    def _on_assist_idle(self, e: Event, n: list[str]) -> None:
        self.console.print(Text("  " + d.assist_idle(e), style="bold"))

    def _on_no_contest(self, e: Event, n: list[str]) -> None:
        self.console.print(Text(d.no_contest(e), style="bold magenta"))

    def _on_oracle(self, e: Event, n: list[str]) -> None:
        self.console.print(Panel(Text(d.oracle(e, named=False)), title="Oracle", border_style="magenta", expand=False))
        self._narrate(n)

    def _on_table(self, e: Event, n: list[str]) -> None:
        self.console.print(Text(e.get("text", ""), style="italic"))

    def _on_scene_setup(self, e: Event, n: list[str]) -> None:
        said = d.scene_setup(e)
        if said:
            self.console.print(Text(said, style="magenta"))

    def _on_situation(self, e: Event, n: list[str]) -> None:
        self.console.print(Panel(Text(e["text"]), title="The situation", border_style="magenta"))

    def _on_conflict_roles(self, e: Event, n: list[str]) -> None:
        self.console.print(plain(d.conflict_roles(e), style="cyan"))

    def _on_new_character(self, e: Event, n: list[str]) -> None:
        from ..rules.character import Character
        from .sheet import character_card

        self.console.print(character_card(Character.from_dict(e["character"])))

    def _on_npc_met(self, e: Event, n: list[str]) -> None:
        self.console.print(Text(d.npc_met(e), style="cyan"))

    def _on_item(self, e: Event, n: list[str]) -> None:
        text = f"  You now have: {e['item']}." if e["gained"] else f"  You no longer have: {e['item']}."
        self.console.print(Text(text, style="green" if e["gained"] else "red"))

    def _on_wield(self, e: Event, n: list[str]) -> None:
        self.console.print(plain("  " + d.wield_line(e), style="green"))

    def _on_pool_change(self, e: Event, n: list[str]) -> None:
        self.console.print(Text(f"  {e['actor']}: {e['pool']} ", style="bold")
                           + pool_bar(e["after"], e["maximum"], 12))

    def _on_disposition(self, e: Event, n: list[str]) -> None:
        self.console.print(plain(f"  {d.upper_first(str(e['name']))} is now {e['after']} towards you.", style="cyan"))

    def _on_clue(self, e: Event, n: list[str]) -> None:
        self.console.print(plain(f"  A clue for your notes: {e['text']}", style="cyan"))

    def _on_tension(self, e: Event, n: list[str]) -> None:
        self.console.print(Text("  " + d.tension_line(e), style="dim"))

    def _on_thread(self, e: Event, n: list[str]) -> None:
        if e.get("opened") and e.get("weight", 1) > 1:
            self.console.print(plain("  " + d.list_weight("threads", e), style="dim"))
        else:
            what = "A thread opens" if e.get("opened") else "A thread is closed"
            self.console.print(plain(f"  {what}: {e.get('text', '')}", style="dim"))
        self._narrate(n)

    def _on_cast(self, e: Event, n: list[str]) -> None:
        if e.get("added") and e.get("weight", 1) > 1:
            self.console.print(plain("  " + d.list_weight("NPCs", e), style="dim"))
            return
        what = "is now in the story" if e.get("added") else "has left the oracle's list"
        self.console.print(plain(f"  {e.get('name', '')} {what}.", style="dim"))

    def _on_thread_progress(self, e: Event, n: list[str]) -> None:
        import textwrap

        lines = textwrap.fill(d.thread_progress(e), self.console.width, initial_indent="  ", subsequent_indent="  ",
                              break_long_words=False, break_on_hyphens=False)  # wrapped under itself
        self.console.print(plain(lines, style="magenta"), soft_wrap=True)

    def _on_discovery(self, e: Event, n: list[str]) -> None:
        self.console.print(Panel(plain(d.discovery(e)), title="Discovery", border_style="magenta", expand=False))

    def _on_note(self, e: Event, n: list[str]) -> None:
        text = str(e.get("text") or "").strip()
        self.console.print(Text(f"  Noted: {text}" if text else "  Nothing noted.", style="dim"))

    def _on_pc_removed(self, e: Event, n: list[str]) -> None:
        fate = "dies" if e["fate"] == "death" else "leaves the story"
        self.console.print(Text(f"{e['actor']} {fate}.", style="bold red"))

    def _on_ending(self, e: Event, n: list[str]) -> None:
        said = d.ending_said(str(e["title"]), str(e.get("outcome") or ""))  # the outcome tells two titles apart
        self.console.print(Text(f"\nThe end: {sentence(said)}", style="bold yellow"))
        for line in d.fallen_at_end(e):
            self.console.print(Text(line, style="yellow"))

    def _on_session_end(self, e: Event, n: list[str]) -> None:
        self.console.print(Text(d.session_end(e), style="bold green"))

    def _on_improvement(self, e: Event, n: list[str]) -> None:
        self.console.print(Text("  " + d.improvement(e), style="green"))

    def _on_request(self, e: Event, n: list[str]) -> None:
        self._dice(d.request(e), "green" if e["granted"] else "red")

    def _on_treatment(self, e: Event, n: list[str]) -> None:
        self.console.print(Text("  " + d.treatment(e), style="green"))

    def _on_dead_end(self, e: Event, n: list[str]) -> None:
        self.console.print(Text("The story has no way on from here (the adventure has a dead end).", style="red"))

"""Random tables as typed data: weighted rows, references to other tables, slots.

Tables come from TOML (see docs/tables.md) but this module never reads files:
it validates plain data handed to it, so tests and the loader share one set
of rules. A row's text is a small template: ``{table:NAME}`` rolls another
table in place, ``{npc}``, ``{thread}`` and ``{pc}`` are filled from lists
the game keeps, and ``{{``/``}}`` are literal braces. Nothing is evaluated.
"""

from __future__ import annotations

import bisect
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..errors import ContentError, SoloError, did_you_mean
from ..terminal_text import CONTROL_PROBLEM, controlled, may_hold_control

__all__ = [
    "SLOTS",
    "RESERVED_NAMES",
    "Row",
    "Table",
    "TableResult",
    "TableSet",
    "UnknownTable",
    "parse_template",
    "tables_from_data",
]

#: Slot name -> what it reads as when the game gives no list for it.
SLOTS: dict[str, str] = {
    "npc": "someone already in the story",
    # every row names it after a colon ("A thread moves towards its end: …"): "an open thread" there read as a slot
    # left empty (a group's evening), where this asks the table to choose
    "thread": "the one that matters most to you now",
    "pc": "one of the PCs",
}

#: Names a table may not take, because ``solo table NAME`` would shadow them.
RESERVED_NAMES = frozenset({"list"})

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
_MAX_DEPTH = 32
#: The most rolls one roll may lead to (itself and every table its row refers to, and theirs …), and the
#: most characters of row text it may put together, counted for the worst row at every step. A set of
#: tables that could go past either is refused when it is loaded, and a roll stops there regardless.
MAX_ROLLS = 1000
MAX_TEXT = 100_000
_TABLE_KEYS = ("title", "description", "rows")
_ROW_KEYS = ("text", "weight", "key", "learn")
#: The longest ``learn`` line a row may hold (a clue a story keeps, docs/tables.md).
LEARN_MAX = 300
#: Rows of one table, and the weight of one row: a table is read whole at every roll and its odds are shown as
#: "1 in N", so neither is without end (a file of three million rows took 44 s and 735 MB to read).
MAX_ROWS = 10_000
MAX_WEIGHT = 1_000_000


class UnknownTable(SoloError, KeyError):
    """A table name nobody defined; the message suggests a close one."""

    def __str__(self) -> str:
        return str(self.args[0])


# A parsed template is a tuple of pieces: plain text, ("table", name) or ("slot", name).
Piece = str | tuple[str, str]


def parse_template(text: str) -> tuple[Piece, ...]:
    """Split row text into literal text and placeholders; ValueError names the bad one."""
    pieces: list[Piece] = []
    literal = ""
    pos = 0
    for match in _TOKEN.finditer(text):
        between = text[pos:match.start()]
        if "{" in between or "}" in between:
            raise ValueError(f"unbalanced brace in {text!r} (write {{{{ or }}}} for a literal brace)")
        literal += between
        token = match.group(0)
        if token == "{{":
            literal += "{"
        elif token == "}}":
            literal += "}"
        else:
            inner = match.group(1).strip()
            if inner.startswith("table:"):
                name = inner[len("table:"):].strip()
                if not name:
                    raise ValueError(f"{{table:}} needs a table name in {text!r}")
                piece: Piece = ("table", name)
            elif inner in SLOTS:
                piece = ("slot", inner)
            else:
                known = ", ".join(["{table:NAME}"] + [f"{{{s}}}" for s in SLOTS])
                raise ValueError(f"unknown placeholder {{{inner}}}{did_you_mean(inner, SLOTS)}; known: {known}")
            if literal:
                pieces.append(literal)
                literal = ""
            pieces.append(piece)
        pos = match.end()
    rest = text[pos:]
    if "{" in rest or "}" in rest:
        raise ValueError(f"unbalanced brace in {text!r} (write {{{{ or }}}} for a literal brace)")
    literal += rest
    if literal:
        pieces.append(literal)
    return tuple(pieces)


@dataclass(frozen=True)
class Row:
    """One entry. ``weight`` is how many faces of the table's die it covers."""

    text: str
    weight: int = 1
    key: str | None = None
    line: int | None = None
    pieces: tuple[Piece, ...] = field(default=(), compare=False, repr=False)
    learn: str | None = None  # a clue a story keeps when it rolls this row (docs/tables.md)

    def __post_init__(self) -> None:
        # A row built by hand still needs its template read, or it would render empty.
        if not self.pieces:
            object.__setattr__(self, "pieces", parse_template(self.text))

    @property
    def refs(self) -> tuple[str, ...]:
        return tuple(p[1] for p in self.pieces if isinstance(p, tuple) and p[0] == "table")

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(p[1] for p in self.pieces if isinstance(p, tuple) and p[0] == "slot")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "weight": self.weight}
        if self.key:
            out["key"] = self.key
        if self.learn:
            out["learn"] = self.learn
        return out


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    rows: tuple[Row, ...]
    description: str = ""
    file: str | None = None
    line: int | None = None

    @property
    def total_weight(self) -> int:
        return sum(r.weight for r in self.rows)

    @cached_property
    def _drawn_from(self) -> tuple[frozenset[str], list[int]]:
        """The slots any row fills, and the rows' running weights: a roll where no slot rules a row out (most of
        them: the meaning tables, a table of plain rows) draws its row by bisection from these, not by weighing
        every row again (the same row for the same die)."""
        running, total = [], 0
        for row in self.rows:
            total += row.weight
            running.append(total)
        return frozenset(s for row in self.rows for s in row.slots), running

    @property
    def refs(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for row in self.rows:
            for ref in row.refs:
                seen.setdefault(ref)
        return tuple(seen)

    def odds(self, slots: Slots | None = None) -> list[tuple[Row, float]]:
        """Each row with its exact chance of being drawn (weight / total weight); with ``slots`` (a session's
        lists), as :meth:`TableSet.roll` draws with them: a row that needs a slot left empty has none, and the
        rest share the die (every row, where none is left)."""
        eligible = {i for i, _ in self.eligible(slots or {})}
        total = sum(row.weight for i, row in enumerate(self.rows) if i in eligible)
        return [(row, row.weight / total if i in eligible else 0.0) for i, row in enumerate(self.rows)]

    def unfilled(self, slots: Slots) -> tuple[str, ...]:
        """The slots ``slots`` leaves empty that rows of this table need, in :data:`SLOTS`' order: what a smaller
        die left out (none where every row would be left out, and so every row is drawn)."""
        if len(self.eligible(slots)) == len(self.rows):
            return ()
        needed = {s for row in self.rows for s in row.slots}
        return tuple(s for s in SLOTS if s in needed and s in slots and not slots[s])

    def eligible(self, slots: Slots, where: Callable[[Row], bool] | None = None) -> list[tuple[int, Row]]:
        """The rows a roll may land on, with their places: not one that needs a slot ``slots`` leaves empty, nor one
        ``where`` turns down; every row where none is left. The roll and its odds both ask here."""
        rows = [(i, row) for i, row in enumerate(self.rows)
                if _slots_available(row, slots) and (where is None or where(row))]
        return rows or list(enumerate(self.rows))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "file": self.file,
            "rows": [r.to_dict() for r in self.rows],
        }


@dataclass(frozen=True)
class TableResult:
    """A roll on a table: the die, the row it picked, and the finished text.

    ``roll`` is a face of a die with ``out_of`` faces (the total weight of
    the rows that could be drawn); ``row`` is the 1-based row number;
    ``parts`` holds the rolls on tables this row referenced, in order.
    """

    table: str
    roll: int
    out_of: int
    row: int
    text: str
    key: str | None = None
    slots: dict[str, str] = field(default_factory=dict)  # slot -> the value drawn for it
    parts: tuple[TableResult, ...] = ()
    learn: str | None = None  # the row's clue, for a story that keeps it
    unfilled: tuple[str, ...] = ()  # the slots left empty whose rows the die left out (Table.unfilled)

    def line(self, title: str, full: int) -> str:
        """The roll as solo prints it: "Random event: focus (31 on 1-100): …". A die smaller than the table's
        (``full``, its whole weight) says why: "31 on 1-71" could not be matched against the table `--show`
        lists, where 31 is another row (a new player's run)."""
        left_out = (f", {needing(self.unfilled)} left out: there is none to name"
                    if self.out_of < full and self.unfilled else "")
        return f"{title} ({self.roll} on 1-{self.out_of}{left_out}): {self.text}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "roll": self.roll,
            "out_of": self.out_of,
            "row": self.row,
            "text": self.text,
            "key": self.key,
            "slots": dict(self.slots),
            "parts": [p.to_dict() for p in self.parts],
            **({"learn": self.learn} if self.learn else {}),
        }


Slots = Mapping[str, Sequence[str]]
RowFilter = Callable[[Row], bool]


def spoken_key(text: str) -> str:
    """A table's name or title as compared with what someone typed: lower case, words only, one space apart
    ("Reading: yes, but", "reading yes but" and "read_yes_but"'s "read yes but" compare by their words)."""
    return " ".join(re.findall(r"[^\W_]+", text.casefold()))


#: The parts of an NPC's Code Block, which ``solo npc`` rolls (not tables of their own), by the words a table
#: would be asked for.
_CODE_BLOCK_PARTS = {"personality": "a personality", "personalities": "a personality", "motivation": "a motivation",
                     "motivations": "a motivation", "disposition": "a disposition",
                     "social_disposition": "a disposition", "recent_event": "a recent event",
                     "code_block": "the Code Block", "codeblock": "the Code Block",
                     "dark_triad": "a Dark Triad personality"}


class TableSet:
    """The tables of one game, merged from every folder, with references checked.

    Construction fails with :class:`ContentError` on a reference to a table
    that does not exist or on a reference cycle, so a roll never loops.
    """

    def __init__(self, tables: Mapping[str, Table]) -> None:
        self._tables = dict(tables)
        #: Files of the user's folders read as holding no table (no ``[tables]`` section): said with a name not found.
        self.skipped: tuple[Path, ...] = ()
        self._check_refs()
        self._check_expansion(self._check_cycles())

    @classmethod
    def from_layers(cls, layers: Sequence[Mapping[str, Table]]) -> TableSet:
        """Merge layers, the first one winning: user folders come before the bundled one."""
        merged: dict[str, Table] = {}
        for layer in layers:
            for name, table in layer.items():
                merged.setdefault(name, table)
        return cls(merged)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], *, file: str | None = None, source: str | None = None) -> TableSet:
        return cls(tables_from_data(data, file=file, source=source))

    def __contains__(self, name: str) -> bool:
        return name in self._tables

    def __len__(self) -> int:
        return len(self._tables)

    def names(self) -> list[str]:
        return sorted(self._tables)

    def tables(self) -> list[Table]:
        return [self._tables[n] for n in self.names()]

    def get(self, name: str) -> Table:
        try:
            return self._tables[name]
        except KeyError:
            unread = ""
            if self.skipped:
                files = ", ".join(str(p) for p in self.skipped[:3]) + (" …" if len(self.skipped) > 3 else "")
                unread = f" ({files}: no [tables] section, so no table was read there; a table is [tables.NAME])"
            part = _CODE_BLOCK_PARTS.get(name.lower().replace(" ", "_").replace("-", "_"))
            if part:  # "did you mean 'location'?" for motivation (a GM-less table's run): say where it is rolled
                what = "an NPC's Code Block is no table;" if part == "the Code Block" else \
                    f"{part} is part of an NPC's Code Block;"
                raise UnknownTable(f"no table named {name!r}: {what} solo npc rolls a whole one (--name for an NPC "
                                   f"you have named already){unread}") from None
            # 'lst', 'lists': the command before any table near it ("did you mean 'twist'?" for "lists": a review)
            meant = (" (did you mean solo table list?)" if did_you_mean(name.lower(), ["list"])
                     else did_you_mean(name, self._tables))
            raise UnknownTable(f"no table named {name!r}{meant}; see 'solo table list'{unread}") from None

    def find(self, typed: str) -> Table:
        """The table a person means by ``typed``: its name, or its title as a listing shows it, in any case and
        with or without the title's punctuation ("starting situation", "Reading: yes, but", "read yes but").

        The lists a player reads show titles ("Reading: yes, but"), not names made for files ("read_yes_but"),
        so what they read must be what they can type; names still work. A title two tables share is refused
        with both their names. Anything else is :meth:`get`'s error, with its suggestion.
        """
        if typed in self._tables:
            return self._tables[typed]
        wanted = spoken_key(typed)
        if wanted:
            by_name = [t for t in self.tables() if spoken_key(t.name) == wanted]
            if by_name:
                return by_name[0]
            by_title = [t for t in self.tables() if spoken_key(t.title) == wanted]
            if len(by_title) == 1:
                return by_title[0]
            if by_title:
                raise UnknownTable(f"{typed!r} is the title of {len(by_title)} tables: "
                                   f"{', '.join(t.name for t in by_title)}; type one of those names")
        return self.get(typed.strip().lower())

    def roll(
        self, name: str, rng: random.Random, *, slots: Slots | None = None, where: RowFilter | None = None
    ) -> TableResult:
        """Draw a row and fill in its placeholders.

        ``slots`` gives the game's lists: a slot that is given but empty makes
        the rows that use it ineligible (no "an NPC acts" without NPCs); a slot
        not given at all reads as its default phrase. ``where`` narrows the
        eligible rows further. If nothing is eligible, every row is.
        """
        return self._roll(self.get(name), rng, slots or {}, where, 0, [MAX_ROLLS])

    def _roll(self, table: Table, rng: random.Random, slots: Slots, where: RowFilter | None, depth: int,
              budget: list[int]) -> TableResult:
        if depth > _MAX_DEPTH:
            raise ContentError("tables nest too deeply", file=table.file, path=f"tables.{table.name}")
        budget[0] -= 1
        if budget[0] < 0:
            raise ContentError(f"a roll that leads to more than {MAX_ROLLS:,} rolls on tables was stopped",
                               file=table.file, path=f"tables.{table.name}", line=table.line)
        used, running = table._drawn_from
        if where is None and not any(s in slots and not slots[s] for s in used):  # every row is eligible
            total = running[-1]
            die = rng.randint(1, total)
            index = bisect.bisect_left(running, die)
            row = table.rows[index]
        else:
            eligible = table.eligible(slots, where)
            total = sum(row.weight for _, row in eligible)
            die = rng.randint(1, total)
            index, row = _pick(eligible, die)
        text = ""
        chosen: dict[str, str] = {}
        parts: list[TableResult] = []
        for piece in row.pieces:
            if isinstance(piece, str):
                text += piece
            elif piece[0] == "slot":
                value = _fill_slot(piece[1], slots, rng)
                chosen.setdefault(piece[1], value)
                text += value
            else:
                sub = self._roll(self.get(piece[1]), rng, slots, None, depth + 1, budget)
                parts.append(sub)
                text += sub.text
        return TableResult(table.name, die, total, index + 1, text, row.key, chosen, tuple(parts), learn=row.learn,
                           unfilled=() if total == running[-1] else table.unfilled(slots))

    def _check_refs(self) -> None:
        for table in self._tables.values():
            for i, row in enumerate(table.rows):
                for ref in row.refs:
                    if ref not in self._tables:
                        raise ContentError(
                            f"{{table:{ref}}} refers to a table that does not exist{did_you_mean(ref, self._tables)}",
                            file=table.file, path=f"tables.{table.name}.rows[{i}]", line=row.line or table.line,
                        )

    def _check_cycles(self) -> list[str]:
        """Refuse a reference cycle; returns the names with every table after the tables it refers to."""
        done: set[str] = set()
        order: list[str] = []
        for start in sorted(self._tables):
            if start in done:
                continue
            # Iterative depth-first search; ``trail`` is the current path.
            trail: list[str] = [start]
            on_trail = {start}
            stack = [iter(self._tables[start].refs)]
            while stack:
                nxt = next(stack[-1], None)
                if nxt is None:
                    stack.pop()
                    finished = trail.pop()
                    on_trail.discard(finished)
                    done.add(finished)
                    order.append(finished)
                    continue
                if nxt in on_trail:
                    loop = trail[trail.index(nxt):] + [nxt]
                    first = self._tables[loop[0]]
                    raise ContentError(
                        "reference cycle: " + " -> ".join(loop), file=first.file, path=f"tables.{first.name}",
                        line=first.line,
                    )
                if nxt in done:
                    continue
                trail.append(nxt)
                on_trail.add(nxt)
                stack.append(iter(self._tables[nxt].refs))
        return order

    def _check_expansion(self, order: list[str]) -> None:
        """Refuse tables whose worst roll nests too deeply, leads to too many rolls or too much text.

        Without a cycle a table can still fan out: twenty references to a table of twenty
        references, eight deep, is billions of rolls. ``order`` puts each table after the
        tables it refers to, so each worst case is worked out once, from those already known.
        """
        depth: dict[str, int] = {}
        rolls: dict[str, int] = {}
        text: dict[str, int] = {}
        for name in order:
            table = self._tables[name]
            row_depth = [1 + max((depth[r] for r in row.refs), default=0) for row in table.rows]
            # Capped as they go, so the numbers stay small whatever the tables do.
            row_rolls = [min(1 + sum(rolls[r] for r in row.refs), MAX_ROLLS + 1) for row in table.rows]
            row_text = [min(sum(text[r] for r in row.refs) + sum(len(p) for p in row.pieces if isinstance(p, str))
                            + sum(len(SLOTS[s]) for s in row.slots), MAX_TEXT + 1) for row in table.rows]
            depth[name], rolls[name], text[name] = max(row_depth), max(row_rolls), max(row_text)
            for worst, limit, problem in (
                (row_depth, _MAX_DEPTH + 1, f"its references nest more than {_MAX_DEPTH + 1} tables deep"),
                (row_rolls, MAX_ROLLS, f"one roll on it can lead to more than {MAX_ROLLS:,} rolls on tables"),
                (row_text, MAX_TEXT, f"one roll on it can put together more than {MAX_TEXT:,} characters"),
            ):
                if max(worst) > limit:
                    i = worst.index(max(worst))
                    raise ContentError(f"{problem}; use fewer {{table:…}} references (each one rolls again)",
                                       file=table.file, path=f"tables.{name}.rows[{i}]",
                                       line=table.rows[i].line or table.line)


#: A slot as the rows that need it are named: "the rows that need an NPC or a thread".
SLOT_NEEDS = {"npc": "an NPC", "thread": "a thread", "pc": "a PC"}


def needing(unfilled: Sequence[str]) -> str:
    """"the rows that need a thread", of the slots left empty, as the roll and ``--show`` both say it (a GM-less
    group's run: "need an NPC or a thread" where only the thread rows were left out)."""
    return "the rows that need " + " or ".join(SLOT_NEEDS.get(s, s) for s in unfilled)


def _slots_available(row: Row, slots: Slots) -> bool:
    return all(not (s in slots and not slots[s]) for s in row.slots)


def _fill_slot(name: str, slots: Slots, rng: random.Random) -> str:
    values = slots.get(name)
    if not values:
        return SLOTS[name]
    return str(rng.choice(list(values)))


def _pick(eligible: list[tuple[int, Row]], die: int) -> tuple[int, Row]:
    running = 0
    for index, row in eligible:
        running += row.weight
        if die <= running:
            return index, row
    raise AssertionError("die beyond the total weight")  # unreachable: die <= total


# ---------------------------------------------------------------------------
# Validation of plain data (what a TOML file parses to)


def tables_from_data(
    data: Mapping[str, Any], *, file: str | None = None, source: str | None = None
) -> dict[str, Table]:
    """Check one file's parsed TOML and build its tables.

    ``source`` is the file's text, used only to point errors at a line.
    References are checked later, once every folder is merged.
    """
    where = _Where(file, source)
    raw = data.get("tables")
    if not isinstance(raw, Mapping):
        raise ContentError("expected a [tables.NAME] section", file=file, path="tables", line=where.table_line(None))
    if source is None or may_hold_control(source):
        for path in controlled(raw, "tables", limit=1):
            name = path.split(".")[1].split("[")[0] if "." in path else None
            raise where.error(CONTROL_PROBLEM, path, where.table_line(name))
    out: dict[str, Table] = {}
    for name, body in raw.items():
        out[name] = _table(name, body, where)
    return out


def _table(name: str, body: object, where: _Where) -> Table:
    path = f"tables.{name}"
    line = where.table_line(name)
    if not _NAME.match(name):
        raise where.error(f"table name {name!r} must be lower-case letters, digits, '_' or '-', starting with a letter",
                          path, line)
    if name in RESERVED_NAMES:
        raise where.error(f"{name!r} is reserved for 'solo table {name}'; choose another name", path, line)
    if not isinstance(body, Mapping):
        raise where.error("a table must be a TOML table with a 'rows' array", path, line)
    for key in body:
        if key not in _TABLE_KEYS:
            raise where.error(
                f"unknown key {key!r}{did_you_mean(key, _TABLE_KEYS)}; a table has {', '.join(_TABLE_KEYS)}",
                f"{path}.{key}", line)
    title = body.get("title", name.replace("_", " ").capitalize())
    description = body.get("description", "")
    for key, value in (("title", title), ("description", description)):
        if not isinstance(value, str):
            raise where.error(f"{key} must be text", f"{path}.{key}", line)
    rows_raw = body.get("rows")
    if not isinstance(rows_raw, list) or not rows_raw:
        raise where.error("needs a non-empty 'rows' array", f"{path}.rows", line)
    if len(rows_raw) > MAX_ROWS:
        raise where.error(f"has {len(rows_raw):,} rows; a table has at most {MAX_ROWS:,}", f"{path}.rows", line)
    rows = tuple(_row(name, i, item, where) for i, item in enumerate(rows_raw))
    return Table(name, title, rows, description, where.file, line)


def _row(table: str, index: int, item: object, where: _Where) -> Row:
    path = f"tables.{table}.rows[{index}]"
    text: object
    weight: object
    key: object
    learn: object = None
    if isinstance(item, str):
        text, weight, key = item, 1, None
    elif isinstance(item, Mapping):
        for k in item:
            if k not in _ROW_KEYS:
                line = where.row_line(table, index, item)
                raise where.error(f"unknown key {k!r}{did_you_mean(k, _ROW_KEYS)}; a row has {', '.join(_ROW_KEYS)}",
                                  f"{path}.{k}", line)
        text = item.get("text")
        weight = item.get("weight", 1)
        key = item.get("key")
        learn = item.get("learn")
    else:
        raise where.error("a row is a string or a table with 'text' (and optional 'weight', 'key', 'learn')", path,
                          where.row_line(table, index, item))
    line = where.row_line(table, index, item)
    if not isinstance(text, str) or not text.strip():
        raise where.error("a row needs non-empty 'text'", f"{path}.text", line)
    if isinstance(weight, bool) or not isinstance(weight, int) or not 1 <= weight <= MAX_WEIGHT:
        shown = f"{weight!r:.40}" if not isinstance(weight, int) or weight < 10 ** 40 else "a number that long"
        raise where.error(f"weight must be a whole number from 1 to {MAX_WEIGHT:,}, not {shown}", f"{path}.weight",
                          line)
    if key is not None and not isinstance(key, str):
        raise where.error("key must be text", f"{path}.key", line)
    if learn is not None and (not isinstance(learn, str) or not learn.strip() or len(learn) > LEARN_MAX
                              or any(ord(ch) < 32 for ch in learn)):
        raise where.error(f"learn must be one line of text, at most {LEARN_MAX} characters: the clue a story "
                          "keeps when it rolls this row", f"{path}.learn", line)
    try:
        pieces = parse_template(text)
    except ValueError as exc:
        raise where.error(str(exc), f"{path}.text", line) from None
    return Row(text, weight, key, line, pieces, learn=learn)


_ANY_HEADER = re.compile(r"^\s*\[\[?\s*tables\b")
_HEADER_NAME = re.compile(r"""^\s*(\[\[?)\s*tables\s*\.\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*"""
                          r"""(\.\s*rows\s*\]\]|[\].])""")
#: A string on one line, as TOML writes it: basic ("…", with escapes) or literal ('…').
_STRING = re.compile(r"""(?<!")"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'""")
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[btnfre\"\\])")
_ESCAPED = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "e": "\x1b", '"': '"', "\\": "\\"}


def _unescape(body: str) -> str | None:
    """A basic string's text as TOML reads it, or None if it holds an escape TOML refuses."""
    if "\\" not in body:
        return body

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] in "uU":
            value = int(code[1:], 16)
            return chr(value) if value < 0x110000 and not 0xD800 <= value < 0xE000 else "\ufffd"
        return _ESCAPED[code]

    text = _ESCAPE.sub(one, body)
    return None if "\\" in _ESCAPE.sub("", body) else text


class _Where:
    """Finds the line of a table or row in the source text, where that can be told.

    The text is indexed once: each table's first header, each ``[[tables.NAME.rows]]``
    header and, when a row of an inline array is first looked for, every string written on
    one line with the lines it is on. A row is then found by its text, from the previous
    row's line on: the work stays in proportion to the file, however many rows it has.
    """

    def __init__(self, file: str | None, source: str | None) -> None:
        self.file = file
        self.lines = source.splitlines() if source else []
        self.first: int | None = None
        self.tables: dict[str, int] = {}
        self.row_headers: dict[str, list[int]] = {}
        self.cursor: dict[str, int] = {}
        self._strings: dict[str, list[int]] | None = None
        for number, text in enumerate(self.lines, 1):
            if "[" not in text or not _ANY_HEADER.match(text):
                continue
            if self.first is None:
                self.first = number
            m = _HEADER_NAME.match(text)
            if m:
                name = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
                self.tables.setdefault(name, number)
                if m.group(1) == "[[" and m.group(5).startswith("."):
                    self.row_headers.setdefault(name, []).append(number)

    def error(self, message: str, path: str, line: int | None) -> ContentError:
        return ContentError(message, file=self.file, path=path, line=line)

    def table_line(self, name: str | None) -> int | None:
        return self.first if name is None else self.tables.get(name)

    def strings(self) -> dict[str, list[int]]:
        """Each one-line string of the text -> the lines it is written on, in order."""
        if self._strings is None:
            self._strings = {}
            for number, line in enumerate(self.lines, 1):
                if '"' not in line and "'" not in line:
                    continue
                for m in _STRING.finditer(line):
                    text = _unescape(m.group(1)) if m.group(1) is not None else m.group(2)
                    if text is not None:
                        self._strings.setdefault(text, []).append(number)
        return self._strings

    def row_line(self, table: str, index: int, item: object) -> int | None:
        start = self.table_line(table)
        if start is None:
            return None
        headers = self.row_headers.get(table, ())
        if len(headers) > index:
            return headers[index]
        begin = max(start, self.cursor.get(table, start))
        needle = item if isinstance(item, str) else item.get("text") if isinstance(item, Mapping) else None
        if isinstance(needle, str) and needle:
            lines = self.strings().get(needle, [])
            at = bisect.bisect_left(lines, begin)
            if at < len(lines):
                self.cursor[table] = lines[at]
                return lines[at]
        return begin

"""The NPC: a :class:`Character` with a level, a Code Block and a few NPC-only facts.

Being a Character means every rule that works for PCs (skill targets, armour,
Pools, pushing) works for NPCs unchanged. The file format is the character
format plus ``role``, ``description``, ``mindless``, ``recurring`` and
``[code_block]``, with shortcuts for authors: skills may be a ranked list and
Pools may be left out, both filled in from the level (docs/npcs.md).
"""

from __future__ import annotations

import marshal
import random
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, NoReturn, Self, TypeVar

from ..errors import ContentError, did_you_mean
from ..rules.character import Character, shallow
from ..rules.fiction import FICTION_FIELDS, Fiction, check_fiction
from ..rules.rulebook import SKILLS, RulesTables, rules
from ..terminal_text import overlong
from .codeblock import CodeBlock
from .leanings import Leanings, leanings
from .levels import NPCError, level_named, level_pools, level_skills
from .tables import CodeBlockTables

_T = TypeVar("_T")

NPC_FIELDS = ("role", "description", "mindless", "recurring", "code_block") + tuple(FICTION_FIELDS)
NPC_LUCK = 0  # Luck Points are a PC resource (docs/rules.md §2.8); files may still give some


@dataclass
class NPC(Character):
    code_block: CodeBlock | None = None  # None only for mindless creatures
    mindless: bool = False
    recurring: bool = False
    role: str | None = None
    description: str = ""
    body: str | None = None  # what it is made of, when its file says so (solo.rules.fiction)
    speaks: bool | None = None  # whether it can speak, when its file says so
    weapon_called: str | None = None  # what the text calls its weapon ("iron hands"), when its file says so
    called: str | None = None  # the name the narration calls it by ("Brekke"), when its file says so

    def fiction_body(self) -> str | None:
        """What it is made of: its file's word, else its role's (``[roles.draugr] body = "undead"``)."""
        if self.body:
            return self.body
        if not self.role:
            return None
        from .roles import find_role

        role = find_role(self.role)
        return role.body if role is not None else None

    @property
    def uses_lenses(self) -> bool:
        """Common NPCs make plain rolls; Skilled, Master and recurring ones pick Lenses (§6)."""
        return self.recurring or level_named(self.level or "common").uses_lenses

    def leanings(self, tables: CodeBlockTables | None = None) -> Leanings:
        return leanings(self.code_block, mindless=self.mindless, tables=tables)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.luck == NPC_LUCK:
            out.pop("luck", None)
        extra: dict[str, Any] = {}
        for key in ("role", "description", "body", "weapon_called", "called"):
            if getattr(self, key):
                extra[key] = getattr(self, key)
        for key in ("mindless", "recurring"):
            if getattr(self, key):
                extra[key] = True
        if self.speaks is not None:
            extra["speaks"] = self.speaks
        head = {k: out.pop(k) for k in list(out) if k in ("name", "level")}
        tail = {"code_block": self.code_block.to_dict()} if self.code_block else {}
        return {**head, **extra, **out, **tail}

    @classmethod
    def from_dict(
        cls, data: object, *, file: str | Path | None = None, rng: random.Random | None = None,
        tables: RulesTables | None = None, codeblock_tables: CodeBlockTables | None = None,
        also: tuple[str, ...] = (),
    ) -> NPC:
        """Build an NPC from a file's data, checking every field.

        Code Block fields written as ``"random"`` (or left out) are rolled with
        ``rng``; without one they are an error, so a fixed file never depends
        on chance. ``also``: fields the caller reads itself (an adventure's ``secret``, ``seen`` …), offered where
        an unknown field is near one and listed where none is.
        """
        return _NPCReader(data, file, rng, tables or rules(), codeblock_tables, also).build()

    def copy(self) -> NPC:
        """A new NPC just as reading this one's file form again would make it (``from_dict(to_dict())``).

        That reading is checked once per form: the NPC it made is kept, and each copy after is a duplicate of it
        (its containers and Code Block new, nothing shared). A conflict copies its NPCs each time it is priced
        or fought again (solo prove plays one a thousand times), and checking every field each time was a
        tenth of that.
        """
        return NPC.from_form(self.to_dict())

    @classmethod
    def from_form(cls, data: dict) -> NPC:
        """``from_dict(data)`` for a fixed file form (no die to roll), checked once per form and duplicated after:
        a save's NPCs read back (solo prove reads a waiting state back for every step it takes from it), an NPC
        copied. A form that fails raises as ``from_dict`` does, every time.

        The form is told by its :mod:`marshal` bytes (version 2: no back-references, so equal forms are equal
        bytes), which tell apart all that JSON's text would (and more: ``1`` from ``1.0``, a tuple from a list,
        an int key from a string), five times quicker: solo prove reads every NPC of a waiting state back with
        it, and writing the JSON key was half of reading the state back."""
        key = marshal.dumps(data, 2)
        made = _READ.get(key)
        if made is None:
            made = NPC.from_dict(data)
            if len(_READ) >= 512:
                _READ.clear()
            _READ[key] = made
        return made.duplicate()

    def duplicate(self) -> Self:
        """This NPC with every container and its Code Block made new (tests/test_npc_copy.py checks none is
        shared): an NPC read from a fixed file form, met again in another game, or a state copied."""
        new = super().duplicate()
        if self.code_block is not None:
            new.code_block = shallow(self.code_block)
        return new


#: NPCs read from their file form, by that form (see :meth:`NPC.copy`).
_READ: dict[bytes, NPC] = {}




_CHARACTER_FIELDS = tuple(f.name for f in fields(Character))
#: A character's fields that play keeps (debts, requests, rolls banked) or a player's file has: an NPC may carry
#: them, but an author does not write them, so a message listing what an NPC is written with leaves them out.
_KEPT_BY_PLAY = frozenset({"owed_failures", "improvement_rolls", "requests", "medicine_tried", "tag_notes",
                           "player", "career", "willpower"})
#: The fields an author writes for an NPC, the only ones an unknown field's message offers (no "did you mean 'career'?":
#: a review) or lists where none is near.
_AUTHORED = tuple(k for k in _CHARACTER_FIELDS + NPC_FIELDS if k not in _KEPT_BY_PLAY)
_AUTHORED_LISTED = f" (an NPC is written with: {', '.join(_AUTHORED)})"


class _NPCReader:
    def __init__(self, data: Any, file: str | Path | None, rng: random.Random | None, tables: RulesTables,
                 cb_tables: CodeBlockTables | None, also: tuple[str, ...] = ()) -> None:
        self.data = data
        self.also = also
        self.file = file
        self.rng = rng
        self.t = tables
        self.cb = cb_tables

    def fail(self, path: str, message: str) -> NoReturn:
        raise ContentError(message, file=self.file, path=path)

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            self.fail(key, "expected true or false")
        return value

    def build(self) -> NPC:
        """The NPC, or one ContentError holding every problem found (:meth:`ContentError.every`): a GM who misspelt
        a skill, a weapon and a personality entry was told of one a run (a new GM's test adventure). The fields are
        read one by one, a bad one set aside (or given its level's default) so that those after it are read too."""
        d = self.data
        if not isinstance(d, dict):
            self.fail("", "an NPC must be a table of fields")
        problems: list[ContentError] = []

        def read(step: Callable[[], _T], default: _T) -> _T:
            try:
                return step()
            except ContentError as exc:
                problems.extend(exc.every())
                return default

        def problem(path: str, message: str) -> None:
            problems.append(ContentError(message, file=self.file, path=path))

        known = _CHARACTER_FIELDS + NPC_FIELDS
        for key in d:
            if key not in known:
                # the fields it may have, where no near spelling is the answer (a GM's run: "npcs.dog.file: unknown
                # field" and nothing more)
                listed = _AUTHORED_LISTED[:-1] + (f"; in an adventure also: {', '.join(self.also)})" if self.also
                                                  else ")")
                problem(key, f"unknown field{did_you_mean(key, _AUTHORED + self.also) or listed}")
        # a level that cannot be read stands in as the largest, so that nothing resting on it (how many skills a
        # ranked list may name) is called wrong on its account
        level = read(self.level, "master")
        base = {k: v for k, v in d.items() if k not in NPC_FIELDS and k in known}
        base["level"] = level
        if "pronoun" not in base and isinstance(d.get("role"), str):  # its role's, as `solo npc --role` gives it (a
            from .roles import find_role  # reading: a file's sentry automaton was told "their resolve")

            role = find_role(d["role"])
            if role is not None and role.pronoun:
                base["pronoun"] = role.pronoun
        base.setdefault("luck", NPC_LUCK)
        ranked = read(lambda: self.ranked_skills(level), None)
        if ranked is None:  # the skills as written cannot be read: the level's own, so the rest is read
            ranked = []
            base["skills"] = []
        if isinstance(base.get("skills"), list):
            base["skills"] = {s: v for s, v in level_skills(level, ranked, self.t.untrained).items()
                              if v != self.t.untrained}
        if "pools" not in d:
            base["pools"] = level_pools(level, ranked)
        char = None
        for _ in range(len(base)):  # each problem of the character's fields, each field set aside once it fails
            try:
                char = Character.from_dict(base, file=self.file, tables=self.t)
                break
            except ContentError as exc:
                problems.extend(exc.every())
                field = (exc.path or "").split(".")[0].split("[")[0]
                if field == "pools":
                    base["pools"] = level_pools(level, ranked)
                elif field == "skills":
                    base["skills"] = {}
                elif field == "luck":
                    base["luck"] = NPC_LUCK
                elif field == "name":
                    base["name"] = "NPC"  # a stand-in, so the fields after it are read too
                elif field in base and field != "level":
                    del base[field]
                else:
                    break
        mindless = read(lambda: self.flag("mindless"), False)
        recurring = read(lambda: self.flag("recurring"), False)
        for key in ("role", "description"):
            if key in d and not isinstance(d[key], str):
                problem(key, "expected text")
        long = overlong({k: v for k, v in d.items() if k in ("role", "description", "code_block", "secret")})
        if long is not None:  # (its character fields are bounded where a character's are read)
            problem(*long)
        before = len(problems)
        check_fiction(d, problem)
        fiction = Fiction.from_table(d) if len(problems) == before else None
        code_block = None
        if "code_block" in d or not mindless:
            code_block = read(lambda: CodeBlock.from_dict(d.get("code_block", "random"), file=self.file,
                                                          rng=self.rng, tables=self.cb), None)
        if problems:  # (each already flattened: a Code Block's others are in the list after it)
            first, *others = problems
            first.others = others
            raise first
        assert char is not None and fiction is not None
        return NPC(
            **{f: getattr(char, f) for f in _CHARACTER_FIELDS}, code_block=code_block,
            mindless=mindless, recurring=recurring,
            role=d.get("role") or None, description=d.get("description", ""),
            body=fiction.body, speaks=fiction.speaks, weapon_called=fiction.weapon_called, called=fiction.called,
        )

    def level(self) -> str:
        level = self.data.get("level", "common")
        if not isinstance(level, str):
            self.fail("level", "expected common, skilled or master")
        try:
            return level_named(level).key
        except NPCError as exc:
            self.fail("level", str(exc))

    def ranked_skills(self, level: str) -> list[str]:
        """The NPC's skills best first: the list as written, or the table sorted by value."""
        skills = self.data.get("skills", {})
        if isinstance(skills, list):
            cap = len(level_named(level).skills)
            if not 1 <= len(skills) <= cap:
                self.fail("skills", f"a ranked list names one to {cap} skills, main skill first")
            for i, skill in enumerate(skills):
                if skill not in SKILLS:
                    self.fail(f"skills[{i}]", f"unknown skill {skill!r}{did_you_mean(skill, SKILLS)}")
            if len(set(skills)) != len(skills):
                self.fail("skills", "a skill is listed twice")
            return list(skills)
        if not isinstance(skills, dict):
            self.fail("skills", "expected a table of skill = value, or a ranked list of skill names")
        valued = [(v, -SKILLS.index(s), s) for s, v in skills.items()
                  if s in SKILLS and isinstance(v, int) and not isinstance(v, bool)]
        return [s for _, _, s in sorted(valued, reverse=True)][:3]

"""What a decider may read of a conflict while it is being asked.

Minds, bots and the Lens advice get this view in ``Question.context["conflict"]``
instead of the live engine: they can see the fight (who is in, the round,
what others declared, Quick's choices) but not drive it or reach into its
bookkeeping. The engine builds one view per conflict, the first time it asks,
so a mind can also recognise "the same conflict" by the view's identity.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from .conflict_types import ConflictType
from .fiction import pursuit_parts
from .participants import Participant

if TYPE_CHECKING:
    from ..decisions import Option
    from .conflict import Conflict, Declaration


class ConflictView:
    """A read-only window on one :class:`~solo.rules.conflict.Conflict`."""

    __slots__ = ("_conflict", "_participants", "_by_id")

    def __init__(self, conflict: Conflict):
        self._conflict = conflict
        self._participants = tuple(conflict.participants)
        self._by_id = MappingProxyType(conflict.by_id)

    @property
    def ctype(self) -> ConflictType:
        return self._conflict.ctype

    @property
    def round(self) -> int:
        return self._conflict.round

    @property
    def round_limit(self) -> int | None:
        return self._conflict.round_limit

    @property
    def last_round(self) -> bool:
        """Whether this round is the limit's last: nothing carries into a next one (the rules' own test)."""
        return self._conflict._last_round()

    @property
    def participants(self) -> tuple[Participant, ...]:
        return self._participants

    @property
    def standing(self) -> Callable[[Sequence[Participant]], object] | None:
        """What the conflict works out again whenever someone leaves (the disposition that counts): a copy of the
        conflict played for its odds takes it too, so its NPCs' leaving moves the same numbers."""
        return self._conflict.standing

    @property
    def by_id(self) -> Mapping[str, Participant]:
        return self._by_id

    def part(self, p: Participant) -> str | None:
        """``p``'s part in a pursuit ("hider", "seeker", "pursuer", "quarry"), as ``conflict_start`` announces it;
        None in a conflict that is not one."""
        return pursuit_parts(self.ctype, self._conflict.fiction).get(p.side)

    def hunts(self, p: Participant) -> bool:
        """Whether ``p`` gives chase or keeps watch here (:func:`~solo.rules.fiction.hunts`, as the conflict asks)."""
        return self._conflict._hunts(p)

    def opponents(self, p: Participant) -> list[Participant]:
        """The participants still in on the other side."""
        return self._conflict.opponents(p)

    def active(self, side: str | None = None) -> list[Participant]:
        """The participants still in (on ``side`` only, if given)."""
        return self._conflict.active(side)

    def declared(self, pid: str) -> Declaration | None:
        """What ``pid`` declared this round, or None if it has not declared yet."""
        return self._conflict.decl.get(pid)

    def quick_options(self, p: Participant) -> list[Option]:
        """The extra actions the engine would offer ``p`` if it chose Quick now."""
        return self._conflict.quick_options(p)

    def leave_target(self, p: Participant) -> tuple[int, list[tuple[str, int]]]:
        """What ``p`` would roll against to get away with Quick's extra action (:meth:`Conflict.leave_target`)."""
        return self._conflict.leave_target(p)

    def lens_target(self, p: Participant, lens_key: str = "none", secondary: str | None = None,
                    extra: Sequence[tuple[str, int]] = (), *, parts: bool = True) -> tuple[int, list[tuple[str, int]]]:
        """What ``p`` would roll against this round with ``lens_key``, and the modifiers in it.

        The same function the roll uses (:meth:`Conflict.lens_target`), so advice built on it
        agrees with the dice. ``parts=False`` leaves the skill's own modifiers out of the list.
        """
        return self._conflict.lens_target(p, lens_key, secondary, extra, parts=parts)

    def lens_skill(self, p: Participant, lens_key: str = "none", secondary: str | None = None) -> str:
        """The skill :meth:`lens_target` starts from."""
        return self._conflict.lens_skill(p, lens_key, secondary)

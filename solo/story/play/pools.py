"""Spent Pools outside the conflict engine: a scene's damage, and who is fit to fight when a conflict begins.

docs/rules.md §2.8 and §5.5 say what Luck and pushing do when a Pool runs
out, and the conflict engine (:mod:`solo.rules.conflict`) applies them to its
own blows. The story applies the same rules, through the same questions
(``luck_reduce`` and ``push``) and the same rules functions
(:func:`solo.rules.luck.spend`, :func:`solo.rules.luck.refreshed`), in two
more places: the damage a scene deals (the ``damage`` effect), and a
character whose conflict Pool is already spent when the next conflict starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...decisions import LUCK_REDUCE, PUSH, Option, Question
from ...rules.character import Character, Pool, push_cost
from ...rules.conflict import Conflict
from ...rules.luck import NEGATIVE_LUCK_FLOOR, refreshed, spend
from ...rules.outcomes import COMAE, OUT
from ...rules.participants import combined_pool
from ...rules.rolls import luck_left

if TYPE_CHECKING:
    from ...rules.conflict_types import ConflictType
    from ...rules.participants import Participant
    from .engine import Game

PUSH_ON, REFRESH = "push", "refresh"  # the answers the conflict engine's push question uses too


def _luck_floor(game: Game) -> int:
    return NEGATIVE_LUCK_FLOOR if game.adventure.negative_luck else 0


# -- a scene's damage -----------------------------------------------------------------------
def hurt(game: Game, pc: Character, pool_name: str, amount: int) -> None:
    """A scene deals ``amount`` to one of the PC's Pools, with the choices a conflict's blow gives.

    Luck may turn a blow of 2 or more into 1 (§2.8). A Pool that would go
    below zero stops at 0 unless the PC pushes on (or spends Luck to be back
    at 1); as in a conflict, pushing is not offered when the part of the blow
    past zero would alone reach comae. A Pool already below zero is being
    pushed: it goes on down, and at minus its maximum the PC is in comae (§5.5).
    """
    pool = pc.pools[pool_name]
    amount = reduce_damage(game, pc, amount, pool_name)
    before = pool.current
    after = before - amount
    choice = None
    if after < 0 <= before:
        after, choice = _below_zero(game, pc, pool_name, pool, after)
    pool.current = max(-pool.maximum, after)
    game.emit("pool_change", actor=pc.name, pool=pool_name, before=before, after=pool.current,
              maximum=pool.maximum, cause="damage", **({"spent": choice} if choice else {}))
    if pool.current <= -pool.maximum:
        game.remove_pc(pc, COMAE)


def reduce_damage(game: Game, pc: Character, amount: int, pool_name: str) -> int:
    """Reduce damage (§2.8): a Luck Point takes 1 instead of a blow of 2 or more. Not offered where 1 would end it
    as surely (a Pool pushed to a point above comae: a hot-seat group was asked, and both answers killed), from
    play's edition 5: a save of an earlier one answered the question, and replays so."""
    if amount <= 1 or pc.luck <= _luck_floor(game):
        return amount
    pool = pc.pools[pool_name]
    if pool.current - 1 <= -pool.maximum and game.edition >= 5:
        return amount
    answer = game.ask(LUCK_REDUCE, f"{amount} {pool_name} damage. Spend a Luck Point to take only 1?",
                      [Option("yes", "Take 1 instead", f"leaves {luck_left(pc.luck)}"), Option("no", f"Take {amount}")],
                      actor=pc.name, damage=amount)
    if answer != "yes":
        return amount
    spend(pc, "reduce_damage", negative_luck=game.adventure.negative_luck)
    game.emit("luck", actor=pc.name, use="reduce_damage", before=amount, after=1, luck=pc.luck)
    return 1


def _below_zero(game: Game, pc: Character, pool_name: str, pool: Pool, after: int) -> tuple[int, str]:
    """Push on to ``after``, be Refreshed to 1, or stop at 0: the Pool's new value and the choice."""
    options = []
    if after > -pool.maximum:
        options.append(Option(PUSH_ON, f"Push on at {after}", push_cost(pool.maximum, death=game.adventure.deadly)))
    if pc.luck > _luck_floor(game):
        options.append(Option(REFRESH, "Spend a Luck Point: back to 1", f"leaves {luck_left(pc.luck)}"))
    if not options:
        return 0, OUT
    options.append(Option(OUT, "Stop at 0", "no lower, and no penalty"))
    answer = game.ask(PUSH, f"your {pool_name} would fall to {after}: what now?", options, actor=pc.name,
                      pool=after, maximum=pool.maximum)
    if answer == PUSH_ON:
        return after, PUSH_ON
    if answer == REFRESH:
        pool.current = min(pool.current, 0)
        refreshed(pc, pool, negative_luck=game.adventure.negative_luck)
        game.emit("luck", actor=pc.name, use="refreshed", before=after, after=1, luck=pc.luck)
        return 1, REFRESH
    return 0, OUT


# -- the start of a conflict -------------------------------------------------------------------
def line_up(game: Game, ctype: ConflictType, participants: list[Participant],
            in_comae: tuple[str, ...] = ()) -> list[Participant]:
    """Those who take part: a conflict Pool already at 0 or below keeps a character out unless they push on.

    Common and Skilled NPCs cannot push (§5.5, §7.1), so a spent one sits the
    conflict out. A PC or a Master NPC is asked the conflict's own push
    question, seeing the conflict it would join (built, not run): push on,
    spend Luck to be back at 1 (PCs), or stay out with the Pool as it is.
    Nobody is asked when a side has nobody fit to face them: then whoever could
    take part stands (docs/rulings.md, "A Pool spent before a conflict"), so a
    spent PC against an NPC talked down before wins it without a fight, as the
    menu's "no contest" promised, where both sides sat out and the stalemate
    offered the same argument again for ever (a GM's run).
    """
    for name in in_comae:
        game.emit("spent_at_start", actor=name, side="b", pool=ctype.pool_label, value=None, choice=COMAE)
    fit: list[Participant] = []
    spent: list[Participant] = []
    for p in participants:
        if p.pool.current > 0:
            fit.append(p)
        elif p.decider is not None and (p.can_push or _may_refresh(game, p)):
            spent.append(p)
        else:
            _sits_out(game, ctype, p)
    if not spent:
        return fit
    if not {p.side for p in fit + spent} >= {"a", "b"}:
        # no fight whatever they chose: nobody is asked, and whoever could push on or be Refreshed stands
        able = {id(p) for p in fit} | {id(p) for p in spent if _could_push(p) or _may_refresh(game, p)}
        for p in spent:
            if id(p) not in able:
                _sits_out(game, ctype, p)  # said, as every other one who sits it out is
        return [p for p in participants if id(p) in able]
    would_be = Conflict(ctype, fit + spent, game.rng, negative_luck=game.adventure.negative_luck)
    taking_part = {id(p) for p in fit} | {id(p) for p in spent if _push_at_start(game, ctype, p, would_be)}
    return [p for p in participants if id(p) in taking_part]  # in the order they were listed


def _could_push(p: Participant) -> bool:
    """Whether ``p`` may push on into the conflict: the question's own test (not once as deep as comae)."""
    return p.can_push and p.pool.current > -p.pool.maximum


def _may_refresh(game: Game, p: Participant) -> bool:
    return p.luck_allowed and p.character.luck > _luck_floor(game)


def _sits_out(game: Game, ctype: ConflictType, p: Participant) -> None:
    game.emit("spent_at_start", actor=p.name, side=p.side, pool=ctype.pool_label, value=p.pool.current, choice=OUT)


def _push_at_start(game: Game, ctype: ConflictType, p: Participant, would_be: Conflict) -> bool:
    """Ask a spent character whether they take part; True if they do."""
    pool = p.pool
    options = []
    if _could_push(p):
        options.append(Option(PUSH_ON, f"Push on at {pool.current}",
                              push_cost(pool.maximum, death=game.adventure.deadly)))
    if _may_refresh(game, p):
        options.append(Option(REFRESH, "Spend a Luck Point: back to 1", f"leaves {luck_left(p.character.luck)}"))
    options.append(Option(OUT, "Stay out of it", "take no part, the Pool as it is"))
    # "Picking a lock is about to begin", where "as the picking a lock begins" read awkwardly (a new GM's run)
    question = Question(PUSH, f"{ctype.name} is about to begin, and your {ctype.pool_label} is spent "
                              f"({pool.current}): what now?", tuple(options), actor=p.name,
                        context={"conflict": would_be.view, "participant": p, "pool": pool.current,
                                 "maximum": pool.maximum, "game": game})
    assert p.decider is not None  # line_up asks only those who can answer
    answer = question.resolve(p.decider.decide(question))
    if answer == PUSH_ON:
        p.pushing = True
        game.emit("spent_at_start", actor=p.name, side=p.side, pool=ctype.pool_label, value=pool.current,
                  choice=PUSH_ON)
        return True
    if answer == REFRESH:
        _refresh(game, p)
        return True
    _sits_out(game, ctype, p)
    return False


def _refresh(game: Game, p: Participant) -> None:
    """Refreshed (§2.8) before the first round: the conflict Pool back to 1, a combined one through its sources."""
    char = p.character
    before = p.pool.current
    refreshed(char, p.pool, negative_luck=game.adventure.negative_luck)
    if len(p.pool_sources) > 1:
        # the combined Pool comes from its sources: raise the lowest one a point at a time until the
        # combined Pool is back to 1, never a source above its maximum
        sources = [char.pools[name] for name in p.pool_sources]
        while combined_pool(char, p.pool_sources).current < 1:
            room = [s for s in sources if s.current < s.maximum]
            if not room:
                break
            min(room, key=lambda s: s.current).current += 1
        p.pool = combined_pool(char, p.pool_sources)
    p.invalidate()
    game.emit("luck", actor=p.name, use="refreshed", before=before, after=p.pool.current, luck=char.luck)

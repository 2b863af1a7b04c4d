"""``solo prove``'s fast paths give what the plain ways give, state by state, on the bundled adventures.

The liveness analysis compiles each scene's equations once per way its conditions are settled and solves them
with masks (:meth:`Liveness._compiled_flow`); :meth:`Reads.values` reads the plain atoms kind by kind. Each is
checked here against the plain way, kept in this file as the reference: the analysis as it walked every scene's
choices at every state, and every atom read through the condition language's context. So is a waiting state
written with marshal (``probe.raw_state``), against the save format's JSON.
"""

from __future__ import annotations

import hashlib
from array import array
from pathlib import Path

import pytest

from solo.sim.prove import reads as reads_module
from solo.sim.prove.liveness import Liveness, Op
from solo.sim.prove.reads import Reads
from solo.sim.prove.search import prove
from solo.story.format.loader import load_adventure

ROOT = Path(__file__).resolve().parent.parent
#: The bundled adventures and the states a search of each makes here: enough for many states, few conflicts to price
#: (those cost the time, and the fast paths are not about them).
ADVENTURES = [(ROOT / "tests" / "data" / "example_adventure.toml", 120), (ROOT / "scenes" / "tutorial.toml", 120),
              (ROOT / "scenes" / "kaldskard", 25), (ROOT / "scenes" / "vellan", 60)]
VELLAN = ROOT / "scenes" / "vellan"


def _reference_shape(liveness: Liveness, scene: str, dets: dict[int, int]) -> tuple:
    """The analysis as it was before its scenes were compiled: (scenes ahead, live atoms, NPCs, what the ident
    digests), by walking every offer and effect of every scene ahead at each round of the fixed point."""
    masks = liveness.residual_masks

    def rid(ci: int | None) -> int | None:
        if ci is None:
            return None
        r = dets.get(ci)
        return r if r is not None else liveness._intern(liveness.conditions[ci].tree)

    def ops_of(ops: list[Op]) -> tuple[tuple[int, int], ...]:
        out = []
        for op in reversed(ops):
            r = rid(op.cond)
            if r == 0:
                continue
            out.append((op.kills, 0) if r is None or r == 1 else (0, masks[r]))
        return tuple(out)

    flow: dict[str, tuple | None] = {}
    todo = [scene]
    order: list[str] = []
    while todo:
        t = todo.pop()
        if t in flow:
            continue
        place = liveness.places[t]
        if place.ending:
            flow[t] = None
            order.append(t)
            continue
        reads, offers = liveness.always, []
        for offer in place.offers:
            r = rid(offer.cond)
            if r == 0:
                continue
            if r is not None:
                reads |= masks[r]
            ways = []
            for way in offer.ways:
                went, route_reads, stays = [], 0, True
                for ci, target in way.routes:
                    rr = rid(ci)
                    if rr == 0:
                        continue
                    went.append(target)
                    if rr is None or rr == 1:
                        stays = False
                        break
                    route_reads |= masks[rr]
                ways.append((ops_of(way.ops), route_reads, tuple(went), stays))
                todo.extend(w for w in went if w not in flow)
            extra = offer.chosen_atom
            for ci in offer.retry_reads:
                rr = rid(ci)
                extra |= masks[rr] if rr is not None else 0
            offers.append((ops_of(offer.ops), tuple(ways), offer.stays, extra))
        flow[t] = (reads, tuple(offers), ops_of(place.entry))
        order.append(t)
    menu = dict.fromkeys(flow, 0)
    entry = dict.fromkeys(flow, 0)
    changed = True
    while changed:  # every scene again until nothing moves: slow, and plainly the least fixed point
        changed = False
        for t in reversed(order):
            f = flow[t]
            if f is None:
                continue
            reads, offers, entry_ops = f
            here, m = menu[t], reads
            for ops, ways, stays, extra in offers:
                out = here if stays else 0
                for way_ops, route_reads, went, way_stays in ways:
                    o = route_reads | (here if way_stays else 0)
                    for w in went:
                        o |= entry[w]
                    for kills, gen in way_ops:
                        o = (o & ~kills) | gen
                    out |= o
                for kills, gen in ops:
                    out = (out & ~kills) | gen
                m |= out | extra
            e = m
            for kills, gen in entry_ops:
                e = (e & ~kills) | gen
            if (m, e) != (menu[t], entry[t]):
                menu[t], entry[t], changed = m, e, True
    ahead = frozenset(flow)
    live = menu[scene] if flow[scene] is not None else liveness.always
    conds = sorted({c for t in ahead for c in liveness.scene_conds[t]})
    told = repr((scene, sorted(ahead))).encode() + array("I", (rid(c) or 0 for c in conds)).tobytes()
    npcs = frozenset(liveness.named_anywhere.union(*(liveness.named[t] for t in ahead)))
    return ahead, tuple(i for i in range(live.bit_length()) if live >> i & 1), npcs, told


def _reference_values(reads: Reads, game) -> tuple:
    """Every atom read through the condition language's context, capped: what the plain reads stand for."""
    ctx = game.context()
    out = []
    for atom in reads.atoms:
        try:
            value = reads_module.value_function(atom.tree)(ctx)
        except (ValueError, TypeError, KeyError):
            value = None
        if atom.cap is not None and isinstance(value, int) and not isinstance(value, bool) and value > atom.cap:
            value = atom.cap
        out.append(value)
    return tuple(out)


#: The games met by a capped search, per (adventure, state limit, reductions): each test reads them, none changes them.
_MET: dict[tuple, tuple[Reads, list]] = {}


def _games_met(source: Path, max_states: int, reduce=True) -> tuple[Reads, list]:
    """The games a search keys, each as it stood when keyed (a copy), and the search's :class:`Reads`."""
    memo = (source, max_states, repr(sorted(reduce)) if isinstance(reduce, set) else reduce)
    if memo not in _MET:
        met: list = []
        key = Reads.key

        def keeping(self, game):
            met.append(game.clone(game.state.copy(), decider=game.decider))
            return key(self, game)

        Reads.key = keeping  # type: ignore[method-assign]
        try:
            proof = prove(load_adventure(source), max_states=max_states, reduce=reduce)
        finally:
            Reads.key = key  # type: ignore[method-assign]
        _MET[memo] = (proof.reads, met)
    return _MET[memo]


def _every_so_often(games: list, most: int) -> list:
    return games[:: max(1, len(games) // most)]


@pytest.mark.parametrize(("source", "states"), ADVENTURES, ids=lambda p: getattr(p, "stem", ""))
def test_the_compiled_analysis_finds_each_states_shape_as_the_plain_walk_does(source, states):
    reads, games = _games_met(source, states)
    assert reads.liveness is not None and len(games) > 20
    fresh = Reads(reads.liveness.adventure)  # nothing cached: each shape worked out for this state alone
    liveness = fresh.liveness
    assert liveness is not None
    checked = set()
    for game in _every_so_often(games, 60):
        scene = game.state.scene
        if game.finished or scene not in liveness.ahead_conds:
            continue
        values = fresh.values(game)
        shape, dets = liveness.shape(scene, values)
        ahead, live, npcs, told = _reference_shape(liveness, scene, dict(zip(liveness.ahead_conds[scene], dets)))
        assert (shape.ahead, shape.live, shape.npcs) == (ahead, live, npcs), scene
        assert liveness._idents[hashlib.blake2b(told, digest_size=16).digest()] == shape.ident
        checked.add((scene, values))
    assert len(checked) > 15


def test_the_compiled_analysis_agrees_with_the_plain_walk_with_each_reduction_alone():
    for reduce in ({"ahead"}, {"ahead", "settled"}, {"ahead", "overwritten"}, {"settled", "overwritten"}):
        reads, games = _games_met(VELLAN, 60, reduce=reduce)
        liveness = reads.liveness
        assert liveness is not None
        for game in _every_so_often(games, 50):
            if game.finished or game.state.scene not in liveness.ahead_conds:
                continue
            scene = game.state.scene
            shape, dets = liveness.shape(scene, reads.values(game))
            ahead, live, npcs, _ = _reference_shape(liveness, scene, dict(zip(liveness.ahead_conds[scene], dets)))
            assert (shape.ahead, shape.live, shape.npcs) == (ahead, live, npcs), (reduce, scene)


@pytest.mark.parametrize(("source", "states"), ADVENTURES, ids=lambda p: getattr(p, "stem", ""))
def test_the_plain_reads_are_what_the_condition_language_reads(source, states):
    reads, games = _games_met(source, states)
    assert len(games) > 20
    for game in games:
        assert reads.values(game) == _reference_values(reads, game)
        assert [type(v) for v in reads.values(game)] == [type(v) for v in _reference_values(reads, game)]


def test_shapes_worked_out_with_warm_caches_are_those_worked_out_alone():
    """The caches (each condition's residual per scene and values read, each scene's equations per residuals)
    give every state the shape a fresh analysis gives it."""
    reads, games = _games_met(VELLAN, 60)
    warm = reads.liveness
    assert warm is not None
    for game in _every_so_often(games, 12):
        scene = game.state.scene
        if game.finished or scene not in warm.ahead_conds:
            continue
        alone = Reads(warm.adventure).liveness
        assert alone is not None
        values = reads.values(game)
        a, b = warm.shape(scene, values)[0], alone.shape(scene, values)[0]
        assert (a.ahead, a.live, a.npcs) == (b.ahead, b.live, b.npcs)


def _alike(a, b) -> bool:
    """Equal and of the same types all the way down (JSON has no tuples; 1 == 1.0 == True)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_alike(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_alike(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize(("source", "states"), ADVENTURES, ids=lambda p: getattr(p, "stem", ""))
def test_a_packed_state_reads_back_as_its_json_snapshot_would(source, states):
    """Waiting states are written with marshal (probe.raw_state): what it reads back is, type for type, what
    the save format's JSON would have given, and the game packed plays on from the same state."""
    import json
    import marshal

    from solo.sim.prove.probe import Packer, raw_state, state_of

    _, games = _games_met(source, states)
    packer = Packer(games[0])
    for game in games:
        snapshot = [game.state.to_dict(), game.state.went]
        assert _alike(marshal.loads(raw_state(game)), json.loads(json.dumps(snapshot)))
        assert state_of(raw_state(game)).to_dict() == snapshot[0]
        back = packer.unpack(packer.pack(game))
        assert [back.state.to_dict(), back.state.went, back.flow_state] == [*snapshot, game.flow_state]


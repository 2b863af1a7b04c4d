"""The game flow as a ``transitions`` machine: title -> party -> scenes -> ending.

Each adventure has one machine (:attr:`Adventure.flow`), built the first time
a game moves. Scenes are its states and every way out of a scene that the
adventure declares is a transition, so the machine itself refuses a move the
adventure does not allow. Games do not join it: each one is passed to the
transition it fires as the model, keeps its own ``flow_state``, and leaves
nothing behind in the machine when it is dropped. Rolls and Extended
Conflicts happen while a choice is resolved; the conflict machine hands its
outcome back, which picks the branch, which fires the transition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from transitions import Machine

from .graph import edges

if TYPE_CHECKING:
    from .adventure import Adventure


def scene_state(scene_id: str) -> str:
    return f"@{scene_id}"


def move_trigger(scene_id: str) -> str:
    return f"go@{scene_id}"


def flow_machine(adventure: Adventure) -> Machine:
    states = ["title", "party"] + [
        {"name": scene_state(sid), "final": scene.ending} for sid, scene in adventure.scenes.items()
    ]
    m = Machine(model=None, states=states, initial="title", auto_transitions=False, queued=True,
                send_event=False, model_attribute="flow_state", after_state_change="_after_move")
    m.add_transition("begin", "title", "party")
    m.add_transition(move_trigger(adventure.start), "party", scene_state(adventure.start))
    for sid, out in edges(adventure).items():
        for target in {t for _, t in out}:
            m.add_transition(move_trigger(target), scene_state(sid), scene_state(target))
    return m

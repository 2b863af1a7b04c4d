"""The game flow as a ``transitions`` machine: title -> party -> scenes -> ending.

Each adventure has one machine (:attr:`Adventure.flow`), built the first time
a game moves. Scenes are its states and every way out of a scene that the
adventure declares is a transition, so the machine itself refuses a move the
adventure does not allow. Games do not join it: each one is passed to the
transition it fires as the model, keeps its own ``flow_state``, and leaves
nothing behind in the machine when it is dropped. Rolls and Extended
Conflicts happen while a choice is resolved; the conflict machine hands its
outcome back, which picks the branch, which fires the transition.

A game moves through :func:`moves_of`, the machine's own transitions read once into a
table: every transition here is unconditional and has no callback of its own, so a
move is the table's next state and then the machine's ``after_state_change``
(``Game._after_move``). That is what the machine does, without its event objects,
queue and logging on every move, which were a fifth of a simple adventure's run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from transitions import Machine, MachineError

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
                send_event=False, model_attribute="flow_state", after_state_change=AFTER_MOVE)
    m.add_transition("begin", "title", "party")
    m.add_transition(move_trigger(adventure.start), "party", scene_state(adventure.start))
    for sid, out in edges(adventure).items():
        for target in {t for _, t in out}:
            m.add_transition(move_trigger(target), scene_state(sid), scene_state(target))
    return m


AFTER_MOVE = "_after_move"  # the model's method the machine calls after every move


def moves_of(machine: Machine) -> dict[tuple[str, str], str]:
    """(state, trigger) -> the state the machine moves to: each transition it declares.

    Refuses a machine with conditions or callbacks on a transition, or other hooks than
    ``after_state_change``, which this table could not honour.
    """
    table: dict[tuple[str, str], str] = {}
    for trigger, event in machine.events.items():
        for source, transitions in event.transitions.items():
            (transition,) = transitions  # one transition a source and trigger
            if transition.dest is None:
                raise ValueError(f"the flow machine's {trigger} from {source} goes nowhere")
            if transition.conditions or transition.before or transition.after or transition.prepare:
                raise ValueError(f"the flow machine's {trigger} from {source} has its own conditions or callbacks")
            table[source, trigger] = transition.dest
    if machine.after_state_change != [AFTER_MOVE] or machine.before_state_change or machine.prepare_event:
        raise ValueError("the flow machine has hooks the move table does not call")
    return table


def refused(state: str, trigger: str) -> MachineError:
    """The error of a move the adventure does not declare, as the machine words it."""
    return MachineError(f"Can't trigger event {trigger} from state {state}!")

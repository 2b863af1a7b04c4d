"""What a simulation is asked to do, as plain data every worker process can be handed."""

from __future__ import annotations

from dataclasses import asdict, dataclass

DEFAULT_MAX_TURNS = 1000
MAX_EXAMPLES = 10  # runtime errors kept with their answers (the rest are only counted)


class SimulationError(Exception):
    """Options that cannot be simulated (bad party, unknown policy …); the message says why."""


@dataclass(frozen=True)
class Options:
    """Everything a worker needs, as plain data."""

    adventure: str  # a path
    runs: int
    seed: int = 1
    policy: str = "random"
    party: tuple[str, ...] = ()  # character files or pregenerated names
    party_size: int | None = None
    max_turns: int = DEFAULT_MAX_TURNS
    max_examples: int = MAX_EXAMPLES
    coverage: bool = False  # note what each run showed, for the report's ``not_shown`` (solo.sim.coverage)

    def to_dict(self) -> dict:
        return asdict(self)

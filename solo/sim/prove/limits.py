"""The state limits of ``solo prove``, in a module of their own so that the command's help can name them
without loading the search (the CLI imports the engine only when a command runs)."""

#: States searched unless --max-states says otherwise: enough for the search to reach every ending of the
#: bundled adventures, with room to better the first ways found (the search heads for an ending not reached yet
#: every fourth state: Vellan's last, ending_escaped, is first reached at about 1,050 states; tests/test_prove.py
#: proves Vellan to 1,200 without the bots' ways of fighting and replays every ending: the search is the same at any
#: limit up to where it stops, so the default finds at least as much. With the bots' fights, as the command runs,
#: the default reaches every ending too: docs/proving.md).
DEFAULT_MAX_STATES = 6_000
#: The largest --max-states: each state costs about 3 KB (its node, moves and key; a state waiting to be
#: searched keeps its game packed in a few hundred bytes) beyond what the fights' odds hold (Vellan: 225 MB at
#: 6,000 states, 267 MB at 20,000, 2026-12-04), so this bounds a search of Vellan to about 800 MB (estimated from
#: those two). Stated in --help, the error and docs/proving.md.
MAX_STATES_LIMIT = 200_000

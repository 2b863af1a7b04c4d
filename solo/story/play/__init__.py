"""A game of an adventure: the engine and its one state, the verbs that act on it, rolls, Pools and Luck
outside the conflict engine, the party, the NPCs as a game sees them, open play, and the chances each
verb can turn out with (what the Lens advice, the thinker and ``solo prove`` read)."""

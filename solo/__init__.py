"""solo: a terminal Game Master for the Comae Engine.

Kept empty on purpose: ``solo --help`` must start fast, so nothing heavy is
imported until a command needs it.

One setting is made here, before anything can import numpy: OpenBLAS (the
linear algebra of numpy's wheels) runs on one thread unless the user chose
otherwise. The exact odds solve many small linear systems (a hundred or so
unknowns, :mod:`solo.rules.lens_arrays`), where more threads gain nothing, and
on a busy machine each threaded solve waits for its threads to be scheduled:
pricing a Lens menu against a mind at Pools 10 took 0.7 to 3.6 s of CPU on two
busy cores instead of 0.15 s. It must be set before numpy's first import, which
solo makes lazily from several layers; this is the one module all of them load.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"

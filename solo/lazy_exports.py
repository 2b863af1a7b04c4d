"""Package namespaces that import their submodules on first use.

``solo play`` must reach its first prompt quickly (issue 17), and a package
``__init__`` that re-exports everything makes ``import solo.oracle.tables``
pay for the whole oracle. A package lists which submodule holds each public
name; the name is imported the first time someone reads it (PEP 562), and
the same names stay importable as before (``from solo.oracle import ask``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: ``exports`` maps a public name to its submodule.

    A name may not be its own submodule's name (``likelihood`` in ``likelihood.py``): importing
    the submodule would bind the package attribute to the module, and the function would never
    be found. The package imports such a name eagerly instead.
    """
    shadowed = sorted(name for name, submodule in exports.items() if name == submodule)
    if shadowed:
        raise ValueError(f"{package}: import {', '.join(shadowed)} eagerly, not lazily")
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> object:
        submodule = exports.get(name)
        if submodule is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{submodule}"), name)
        namespace[name] = value  # later reads skip this function
        return value

    return __getattr__

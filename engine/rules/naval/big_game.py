"""Work on a whole big game at once (a 20,000-unit scenario, a 10,000-order period): without the cyclic
garbage collector walking it again and again, and with a scenario TOML read by a compiled parser.

Loading, resolving and reporting such a period allocates hundreds of thousands of small objects that
form no reference cycles; every few hundred allocations the collector would scan the young ones, and
now and then everything alive — the whole state — which measured about half of the time of a period.
`gc_paused` holds collections off for the call and lets them resume after it (reference counting
still frees everything at once); nested calls leave it to the outermost.

`read_toml` reads a scenario with rtoml (Rust, a dependency) when it is installed: the standard
library's `tomllib` is pure Python and took 0.42 s of a 1.5 MB, 20,000-unit scenario (rtoml 0.07 s)
for the same table. Whatever rtoml refuses is read again by `tomllib`, so a broken file gets
`tomllib`'s error, as before.
"""

from __future__ import annotations

import functools
import gc
import tomllib
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

try:
    import rtoml
except ImportError:  # pragma: no cover - the dependency is installed; tomllib alone is only slower
    rtoml = None

P = ParamSpec("P")
R = TypeVar("R")


def gc_paused(function: Callable[P, R]) -> Callable[P, R]:
    """`function` with the cyclic garbage collector held off while it runs."""

    @functools.wraps(function)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return paused


def read_toml(text: str) -> dict[str, Any]:
    """A TOML document as `tomllib.loads` reads it (raising its TOMLDecodeError), faster."""
    if rtoml is not None:
        try:
            return rtoml.loads(text)
        except Exception:
            pass
    return tomllib.loads(text)

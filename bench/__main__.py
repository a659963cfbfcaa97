"""Run the benchmarks: `python -m bench [NAME ...] [--OPTION ...]` (all of them when no name is given)."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    available = sorted(
        info.name.removeprefix("bench_")
        for info in pkgutil.iter_modules([str(here)])
        if info.name.startswith("bench_")
    )
    # `python -m bench dice --bcdice PATH`, `python -m bench scale 1000 --interval 10`: what follows
    # the bench names (from the first option, or the first word that names no bench) goes to each
    # bench's main.
    names = 0
    while names < len(argv) and argv[names] in available:
        names += 1
    options = argv[names:] if names else [arg for arg in argv if arg not in available]
    argv = argv[:names] if names else [arg for arg in argv if arg in available]
    wanted = argv or available
    unknown = [name for name in wanted if name not in available]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available)}")
        return 2
    for name in wanted:
        print(f"== bench {name}", flush=True)
        module = importlib.import_module(f"bench.bench_{name}")
        module.main(options) if options else module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

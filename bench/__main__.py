"""Run the benchmarks: `python -m bench [NAME ...] [--OPTION ...]` (all of them when no name is given);
`python -m bench --help` lists them, `python -m bench NAME --help` shows one bench's options."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

USAGE = "usage: python -m bench [NAME ...] [--OPTION ...]   (python -m bench NAME --help: its options)"


def available() -> list[str]:
    here = Path(__file__).parent
    return sorted(
        info.name.removeprefix("bench_")
        for info in pkgutil.iter_modules([str(here)])
        if info.name.startswith("bench_")
    )


def _takes_options(module: ModuleType) -> bool:
    return "argv" in inspect.signature(module.main).parameters


def _summary(module: ModuleType) -> str:
    doc = (module.__doc__ or "").strip()
    return doc.split("\n\n")[0].replace("\n", " ")


def _listing(names: list[str]) -> str:
    lines = [USAGE, "", "benchmarks:"]
    for name in names:
        lines.append(f"  {name:<14} {_summary(importlib.import_module(f'bench.bench_{name}'))}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    names = available()
    # `python -m bench dice --bcdice PATH`, `python -m bench scale 1000 --interval 10`: what follows
    # the bench names (from the first option, or the first word that names no bench) goes to each
    # bench's main.
    if argv and not argv[0].startswith("-") and argv[0] not in names:
        print(f"unknown benchmark(s): {argv[0]}; available: {', '.join(names)}")
        return 2
    count = 0
    while count < len(argv) and argv[count] in names:
        count += 1
    options = argv[count:] if count else [arg for arg in argv if arg not in names]
    wanted = argv[:count] if count else [arg for arg in argv if arg in names]
    helping = any(arg in ("-h", "--help") for arg in options)
    if helping and not wanted:
        print(_listing(names))
        return 0
    wanted = wanted or names
    modules = {name: importlib.import_module(f"bench.bench_{name}") for name in wanted}
    refusing = [name for name, module in modules.items() if options and not _takes_options(module)]
    if refusing and not helping:
        print(f"{', '.join(refusing)} take(s) no options (given: {' '.join(options)}); see python -m bench --help")
        return 2
    for name, module in modules.items():
        if helping and not _takes_options(module):
            print(f"python -m bench {name}: no options\n\n{(module.__doc__ or '').strip()}")
            continue
        if not helping:
            print(f"== bench {name}", flush=True)
        try:
            module.main(options) if _takes_options(module) else module.main()
        except SystemExit as exit_:  # argparse: --help printed, or options it refused
            if exit_.code not in (0, None):
                return int(exit_.code) if isinstance(exit_.code, int) else 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`python -m tests.mutation_score`: the kill ratio of the last `mutmut run` (`make mutate`), per module.

mutmut keeps each module's outcomes in `mutants/<path>.meta` as exit codes, which its own
`status_by_exit_code` names; a timeout counts as killed (the tests noticed), as mutmut's score does.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code


def score(root: Path) -> list[tuple[str, int, int, int]]:
    rows = []
    for meta in sorted(root.rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"].values()
        statuses = Counter(status_by_exit_code[code] for code in codes)
        killed = statuses["killed"] + statuses["timeout"]
        survived, uncovered = statuses["survived"], statuses["no tests"]
        if killed + survived + uncovered:  # a module without mutants (an empty __init__.py) has no ratio
            rows.append((str(meta.relative_to(root)).removesuffix(".meta"), killed, survived, uncovered))
    return rows


def main() -> int:
    rows = score(Path("mutants"))
    if not rows:
        print("no mutmut results: run `make mutate` first")
        return 1
    print(f"{'module':32} {'killed':>7} {'survived':>9} {'no test':>8} {'ratio':>7}")
    for name, killed, survived, uncovered in [*rows, ("total", *map(sum, zip(*[r[1:] for r in rows], strict=True)))]:
        total = killed + survived + uncovered
        print(f"{name:32} {killed:7} {survived:9} {uncovered:8} {killed / total:7.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Dice language speed: BCDice's whole test corpus through threadgm, and threadgm beside d20.

1. Every `[[test]]` of `../shared/bcdice/*.toml`, each with its recorded dice (`RecordedDice`), as
   commands per second.
2. The corpus commands both libraries understand alike, evaluated by threadgm (recorded dice) and by
   d20 (Avrae's library, its own random dice). Chosen mechanically: the BCDice sums (xDy) with no
   target, no division (BCDice rounds, d20 does not), no D66, no implicit sides and no secret `S`, that
   d20 parses once written its way (lower case, `KH`→`kh`, `KL`→`kl`, `DH`→`ph`, `DL`→`pl`).

Both libraries cache parses (threadgm its token lists and each line's parse, d20 its ASTs), so repeating one corpus would
measure the caches: figures are given warm (caches kept) and cold (caches emptied before every
command, as for a stream of posts that never repeat).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

from bench.timing import per_second
from engine.bcdice import evaluate
from engine.rng import RecordedDice
from parser.bcdice import clear_caches, parse_all
from parser.bcdice.add_dice import AddDice, DiceRoll
from parser.bcdice.arithmetic import DIVISIONS, Chain, Neg, Paren
from parser.bcdice.lexer import first_word

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "bcdice"

Case = tuple[str, list[tuple[int, int]]]


def load_corpus() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(CORPUS.glob("*.toml")):
        with path.open("rb") as file:
            for test in tomllib.load(file)["test"]:
                cases.append((test["input"], [(r["sides"], r["value"]) for r in test["rands"]]))
    return cases


def ours(cases: list[Case], *, cold: bool = False) -> Callable[[], None]:
    def run_once() -> None:
        for command, rands in cases:
            if cold:
                clear_caches()
            evaluate(command, RecordedDice(rands))

    return run_once


def as_d20(command: str) -> str | None:
    """The d20 spelling of a corpus command both libraries read alike, else None."""
    parsed = next(parse_all(command), None)
    if not isinstance(parsed, AddDice) or parsed.secret or parsed.cmp_op is not None:
        return None
    if not _comparable(parsed.lhs):
        return None
    word = first_word(command).lower()
    for bcdice, d20_spelling in (("kh", "kh"), ("kl", "kl"), ("dh", "ph"), ("dl", "pl")):
        word = word.replace(bcdice, d20_spelling)
    return word


def _comparable(node: object) -> bool:
    if isinstance(node, DiceRoll):
        return node.sides is not None and "66" not in repr(node.sides)
    if isinstance(node, Chain):
        return all(op not in DIVISIONS for op, _ in node.rest) and all(
            _comparable(part) for part in (node.first, *(operand for _, operand in node.rest))
        )
    if isinstance(node, Neg):
        return _comparable(node.body)
    if isinstance(node, Paren):
        return _comparable(node.inner)
    return True


def main() -> None:
    if not CORPUS.is_dir():
        print(f"{CORPUS} is absent: the BCDice corpus sits in ../shared beside the project")
        return
    cases = load_corpus()
    print(
        f"threadgm, whole BCDice corpus ({len(cases)} commands, recorded dice): "
        f"{per_second(ours(cases), len(cases)):,.0f} commands/s warm, "
        f"{per_second(ours(cases, cold=True), len(cases)):,.0f} cold"
    )

    import d20

    pairs = []
    for command, rands in cases:
        spelled = as_d20(command)
        if spelled is None:
            continue
        try:
            d20.parse(spelled)
        except d20.RollSyntaxError:
            continue
        pairs.append(((command, rands), spelled))
    shared = [case for case, _ in pairs]
    d20_commands = [spelled for _, spelled in pairs]

    roller = d20.Roller()

    def d20_warm() -> None:
        for spelled in d20_commands:
            roller.roll(spelled)

    def d20_cold() -> None:
        for spelled in d20_commands:
            roller._parse_cache.clear()  # d20 has no public way to empty its parse cache
            roller.roll(spelled)

    print(f"commands both understand: {len(pairs)} (e.g. {', '.join(d20_commands[:4])})")
    print(
        f"  threadgm: {per_second(ours(shared), len(shared)):,.0f} commands/s warm, "
        f"{per_second(ours(shared, cold=True), len(shared)):,.0f} cold"
    )
    print(
        f"  d20     : {per_second(d20_warm, len(d20_commands)):,.0f} commands/s warm, "
        f"{per_second(d20_cold, len(d20_commands)):,.0f} cold"
    )

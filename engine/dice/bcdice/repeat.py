"""Repeat `x5 1D6` (BCDice's Repeat): the rest of the line evaluated N times, sharing one dice budget.

BCDice refuses a repeat of a repeat only when written in lower case (`x2 rep3 1D6`); threadgm refuses
it in any case (`x2 X3 1D6` would otherwise nest without bound and multiply the work).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.dice.bcdice.result import Answer
from parser.bcdice.repeat import Repeat

REPEAT_LIMIT = 100  # BCDice's Repeat::REPEAT_LIMIT

Run = Callable[[str], "Answer | None"]


def evaluate(command: Repeat, run: Run) -> Answer:
    """`run` evaluates one command line with the caller's dice (and raises on refusal)."""
    if command.nested:
        return Answer("Repeatコマンドの重複はできません", secret=command.secret)
    if not 1 <= command.times <= REPEAT_LIMIT:
        return Answer(f"繰り返し回数は1以上、{REPEAT_LIMIT}以下としてください", secret=command.secret)
    results = [run(command.trailer) for _ in range(command.times)]
    if all(result is None for result in results):
        return Answer(
            f"繰り返し対象のコマンドが実行できませんでした ({command.trailer})", secret=command.secret
        )
    text = "\n\n".join(
        f"#{number}\n{result.text if result is not None else ''}"
        for number, result in enumerate(results, start=1)
    )
    secret = command.secret or any(result is not None and result.secret for result in results)
    return Answer(text, secret=secret)

"""BCDice's system-independent dice language, evaluated: `evaluate(command, dice)` answers one line
with BCDice's own text (`(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功`) and flags, or None when BCDice would not
answer at all.

One module per command family mirrors `parser.bcdice` (add_dice, barabara_dice, tally_dice, calc,
choice, d66_dice, repeat, reroll_dice, upper_dice); `roller` is BCDice's randomizer over our `Dice`,
`arithmetic` its integer arithmetic, `tree` the evaluated form of a sum and `stringify` the printing.
Full-width input is NFKC-normalised first (BCDice itself answers nothing to `１Ｄ６`); the raw text
stays in the result.

Limits — BCDice's where it has them, threadgm's own where Ruby would only grow or crash:

- dice per command: 10000 (BCDice's UPPER_LIMIT_RANDS; BCDice raises, we refuse with a reason);
  dice per single roll: over 200 gives no dice, as BCDice; sides outside 1..10000 show 0, as BCDice.
- repeat: 1..100 times (BCDice); a repeat inside a repeat is refused in any letter case (BCDice
  checks lower case only, which lets `X` nest without bound).
- choice: at most 100 items (BCDice), a range such as `1-99999` is counted, never listed.
- tally: at most 20 sides (BCDice). reroll: at most 10000 rounds (BCDice).
- command line: 2000 characters after NFKC; parentheses: 32 deep; numbers: 100 digits, and no value
  along the way may pass 10**100 (threadgm's; see `parser.bcdice.limits` and `arithmetic`).
- division by zero: 1 in a sum (BCDice); BCDice's zero-division message in the calculator, and a
  refusal with that message where Ruby would crash (counts of xBy, xRy, xUy, xTYy).

A refusal is a `BCDiceResult` with `refused=True` whose text is `<command> ＞ <reason>`; it is given
only when the line begins like a BCDice command, so a long chat line is still no command.

Each line's parses are turned once into steps (a sum is prepared: see `add_dice`) and kept with the
line, as the parses are; `clear_caches` forgets both.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

from engine.dice.bcdice import (
    add_dice,
    barabara_dice,
    calc,
    choice,
    d66_dice,
    repeat,
    reroll_dice,
    tally_dice,
    upper_dice,
)
from engine.dice.bcdice.result import Answer, BCDiceResult
from engine.dice.bcdice.roller import Refused, Roller
from engine.rng import Dice
from parser.bcdice import LimitExceeded, looks_like_command, outcomes
from parser.bcdice import add_dice as add_dice_grammar
from parser.bcdice import barabara_dice as barabara_grammar
from parser.bcdice import calc as calc_grammar
from parser.bcdice import choice as choice_grammar
from parser.bcdice import clear_caches as clear_parse_caches
from parser.bcdice import d66_dice as d66_grammar
from parser.bcdice import repeat as repeat_grammar
from parser.bcdice import reroll_dice as reroll_grammar
from parser.bcdice import tally_dice as tally_grammar
from parser.bcdice import upper_dice as upper_grammar
from parser.bcdice.lexer import first_word
from parser.bcdice.limits import MAX_COMMAND_CHARS

__all__ = ["BCDiceResult", "clear_caches", "evaluate", "normalize"]

_SHOWN_CHARS = 30  # how much of a refused command is echoed before its reason

Step = Callable[[Roller], "Answer | None"]


def normalize(command: str) -> str:
    """NFKC: what threadgm evaluates (full-width letters, digits and signs become ASCII)."""
    return unicodedata.normalize("NFKC", command)


def evaluate(command: str, dice: Dice) -> BCDiceResult | None:
    """BCDice's answer to one command line, or None exactly when BCDice gives no reply."""
    normalized = command if command.isascii() else normalize(command)  # ASCII is its own NFKC
    roller = Roller(dice)
    try:
        answer = _run(normalized, roller)
    except (LimitExceeded, Refused) as refusal:
        if not looks_like_command(normalized):
            return None
        answer = Answer(f"{_shown(normalized)} ＞ {refusal.reason}")
        refused = True
    else:
        if answer is None:
            return None
        refused = False
    return BCDiceResult(
        answer.text,
        answer.secret,
        answer.success,
        answer.failure,
        answer.critical,
        answer.fumble,
        tuple(roller.rolls),
        command,
        normalized,
        refused,
        answer.total,
    )


def clear_caches() -> None:
    """Forget every kept parse and step (benchmarks measure a stream of lines that never repeat)."""
    _kept_steps.cache_clear()
    clear_parse_caches()


def _run(line: str, roller: Roller) -> Answer | None:
    """The first family that answers the line, in BCDice's order; raises on a refusal."""
    # the steps are kept per line as the parses are; an overlong line is refused and not kept
    steps = _kept_steps(line) if len(line) <= MAX_COMMAND_CHARS else outcomes(line)
    for step in steps:
        if isinstance(step, LimitExceeded):
            raise step.with_traceback(None)
        answer = step(roller)
        if answer is not None:
            return answer
    return None


@lru_cache(maxsize=4096)
def _kept_steps(line: str) -> tuple[Step | LimitExceeded, ...]:
    """The line's parses as steps to run with a command's dice."""
    return tuple(
        outcome if isinstance(outcome, LimitExceeded) else _step(outcome) for outcome in outcomes(line)
    )


def _step(command: object) -> Step:
    if isinstance(command, add_dice_grammar.AddDice):
        return add_dice.prepare(command)
    if isinstance(command, barabara_grammar.BarabaraDice):
        return lambda roller: barabara_dice.evaluate(command, roller)
    if isinstance(command, tally_grammar.TallyDice):
        return lambda roller: tally_dice.evaluate(command, roller)
    if isinstance(command, calc_grammar.Calc):
        return _calc_step(command)
    if isinstance(command, choice_grammar.Choice):
        return lambda roller: choice.evaluate(command, roller)
    if isinstance(command, d66_grammar.D66Dice):
        return lambda roller: d66_dice.evaluate(command, roller)
    if isinstance(command, repeat_grammar.Repeat):
        return lambda roller: repeat.evaluate(command, lambda trailer: _run(trailer, roller))
    if isinstance(command, reroll_grammar.RerollDice):
        return lambda roller: reroll_dice.evaluate(command, roller)
    if isinstance(command, upper_grammar.UpperDice):
        return lambda roller: upper_dice.evaluate(command, roller)
    raise TypeError(f"no evaluator for {command!r}")


def _calc_step(command: calc_grammar.Calc) -> Step:
    """The calculator rolls nothing: its answer, or its refusal, is worked out once."""
    try:
        answer = calc.evaluate(command)
    except Refused as refusal:
        reason = refusal.reason

        def refused(roller: Roller) -> Answer:
            raise Refused(reason)

        return refused
    return lambda roller: answer


def _shown(line: str) -> str:
    word = first_word(line)
    return word if len(word) <= _SHOWN_CHARS else word[:_SHOWN_CHARS] + "…"

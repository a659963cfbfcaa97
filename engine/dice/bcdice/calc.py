"""The calculator `C(...)` (BCDice's Calc): the expression echoed as written, then its value."""

from __future__ import annotations

from engine.dice.bcdice import stringify
from engine.dice.bcdice.arithmetic import ZeroDivision, value
from engine.dice.bcdice.result import Answer
from parser.bcdice.arithmetic import Paren
from parser.bcdice.calc import Calc


def evaluate(command: Calc) -> Answer:
    try:
        answer = str(value(command.expr))
    except ZeroDivision as error:
        answer = error.reason
    echo = stringify.expression(command.expr, stringify.CALC_ROUNDING)
    if not isinstance(command.expr, Paren):
        echo = f"({echo})"
    return Answer(f"c{echo}{stringify.SEP}{answer}", secret=command.secret)

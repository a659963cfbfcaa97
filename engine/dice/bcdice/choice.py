"""Choice (BCDice's Choice): pick one item, or `choiceN` picks N different ones in the order drawn."""

from __future__ import annotations

from engine.dice.bcdice import stringify
from engine.dice.bcdice.result import Answer
from engine.dice.bcdice.roller import Roller
from parser.bcdice.choice import BRACKET, PAREN, SPACE, Choice, ItemRange

MAX_ITEMS = 100  # BCDice's limit, checked before a range like `1-1000` is ever listed


def evaluate(command: Choice, roller: Roller) -> Answer:
    if command.size > MAX_ITEMS:
        # BCDice builds this answer without the secret flag.
        return Answer(f"項目数は{MAX_ITEMS}以下としてください")
    items = list(command.items.items() if isinstance(command.items, ItemRange) else command.items)
    echo = _echo(command, items)
    chosen = [items.pop(roller.roll_index(len(items))) for _ in range(command.takes)]
    separator = " " if command.delimiter == SPACE else ", "
    return Answer(f"({echo}){stringify.SEP}{separator.join(chosen)}", secret=command.secret)


def _echo(command: Choice, items: list[str]) -> str:
    takes = "" if command.takes == 1 else str(command.takes)
    if command.delimiter == BRACKET:
        return f"choice{takes}[{','.join(items)}]"
    if command.delimiter == PAREN:
        return f"choice{takes}({','.join(items)})"
    return f"choice{takes} {' '.join(items)}"

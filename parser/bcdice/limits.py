"""What the BCDice grammar refuses to read, and the exception that says so.

BCDice (Ruby) has no limit on the length of a command, the depth of its parentheses or the size of
its numbers: Ruby's bignums and its parser simply grow. threadgm reads commands from any post on a
public board, so the parser stops early and says why instead:

- `MAX_COMMAND_CHARS` (2000): a whole command line, comment included, after NFKC. A 2ch post holds a
  few kilobytes; no dice command a player types comes near this.
- `MAX_NESTING` (32): parentheses inside parentheses. Each level costs a few Python stack frames in the
  recursive-descent parsers; 32 is far past any real formula and far below Python's recursion limit.
- `MAX_NUMBER_DIGITS` (100): the digits of one number. Keeps every integer small enough that sums and
  products stay cheap (the engine also caps every intermediate value, see `engine.dice.bcdice`).

Chains of `+ - * /` are parsed in loops (no recursion per operator) and runs of signs (`----1`) are
counted, not nested, so only parentheses deepen the stack.
"""

from __future__ import annotations

MAX_COMMAND_CHARS = 2000
MAX_NESTING = 32
MAX_NUMBER_DIGITS = 100


class LimitExceeded(Exception):
    """The command is too big to read; `reason` is the Japanese answer for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def too_long() -> LimitExceeded:
    return LimitExceeded(f"コマンドの行が長すぎます（{MAX_COMMAND_CHARS}文字まで）")


def too_deep() -> LimitExceeded:
    return LimitExceeded(f"カッコの入れ子が深すぎます（{MAX_NESTING}段まで）")


def too_many_digits() -> LimitExceeded:
    return LimitExceeded(f"数値が大きすぎます（{MAX_NUMBER_DIGITS}桁まで）")

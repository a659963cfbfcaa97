"""Which lines of a phase's 行動提出 count: one per character (and one for its 再行動).

Every accepted line reaches the rules (the ruleset gives each line a key of its own), and this module
decides, in posting order, with the scenario's option `second_line`:

- the same line again changes nothing (the first stands);
- a line with an anchor before the name (`>>12 赤星 D1移動`) is a correction: it replaces the
  character's line, whatever the option;
- another, different line for the same character is void (`void`, the default: seed-gaps.md reads a
  second line for one character as an illegal line that voids that line only), or replaces the earlier
  one (`last`).

`remark` and `resolve` both read the lines through `choose`, so the receipt and the report agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.rules.dh.grammar import Command
from engine.rules.dh.state import DHState
from engine.ruleset import Order

VOID, LAST = "void", "last"
SECOND_LINE = (VOID, LAST)
SECOND_LINE_TEXT = {
    VOID: "同じキャラクターの2行目（違う行動）は無効・直すときは >>番号 を付けて書く",
    LAST: "同じキャラクターは最後の行が有効",
}


def written(order: Order) -> str:
    """Where a line was written, as the thread names it: `>>12` (in an orders file, its line number)."""
    return f">>{order.post}"


@dataclass
class Chosen:
    """The lines that count, in posting order, and what became of the others."""

    kept: list[Order] = field(default_factory=list)
    void: dict[tuple[int, int], str] = field(default_factory=dict)  # (post, line) → why
    replaced: dict[tuple[int, int], Order] = field(default_factory=dict)  # (post, line) of the newer → older
    same: dict[tuple[int, int], Order] = field(default_factory=dict)  # a repeat → the line it repeats


def _bare(command: Command) -> str:
    """A line as the deed it orders, without the anchor that marks a correction."""
    return command.canonical.removeprefix(f">>{command.corrects} ") if command.corrects else command.canonical


def _short(command: Command) -> str:
    """The line as a player would write it again: `会長 C3移動` (a move's 待機 left unsaid)."""
    bare = _bare(command)
    return bare.removesuffix(" 待機") if command.square else bare


def choose(state: DHState, orders: Sequence[Order]) -> Chosen:
    """The lines that count among `orders` (in posting order), by `state.options.second_line`."""
    chosen = Chosen()
    current: dict[str, Order] = {}
    for order in orders:
        command = order.command
        if not isinstance(command, Command):
            continue
        where = (order.post, order.line)
        before = current.get(command.key)
        if before is None:
            current[command.key] = order
        elif _bare(before.command) == _bare(command):
            chosen.same[where] = before
        elif command.corrects is not None or state.options.second_line == LAST:
            current[command.key] = order
            chosen.replaced[where] = before
        else:
            chosen.void[where] = (
                f"{command.character}には{written(before)}の行があり、2行目の違う行動は無効です"
                f"（直すときは「>>{before.post} {_short(command)}」と番号を付けて）"
            )
    kept = {(o.post, o.line) for o in current.values()}
    chosen.kept = [o for o in orders if (o.post, o.line) in kept]
    return chosen


def receipt_word(chosen: Chosen, order: Order) -> str | None:
    """What the receipt says of `order` about the other lines of its character, or None."""
    where = (order.post, order.line)
    if where in chosen.void:
        return f"無効：{chosen.void[where]}"
    if where in chosen.replaced:
        older = chosen.replaced[where]
        return f"{written(older)}の「{_bare(older.command)}」を置き換え"
    if where in chosen.same:
        return f"{written(chosen.same[where])}と同じ行"
    return None

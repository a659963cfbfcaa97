"""When a naval game is over, and what its last report says.

The rule page is a combat procedure inside a longer game and names no end, so a thread's war ends
where the GM's scenario says (`[options] last_period`, 0: never) or when no two islands have units
left — then no order could ever be carried out against anyone, and periods would only repeat.
"""

from __future__ import annotations

from engine.report import Block, heading, line, section
from engine.rules.naval.state import NavalState


def islands_with_units(state: NavalState) -> list[str]:
    """The islands that still have a unit, in the scenario's order."""
    left = {unit.island for unit in state.units.values()}
    return [code for code in state.islands if code in left]


def finished(state: NavalState) -> bool:
    """`state` is the state after a period: is the war over?"""
    limit = state.options.last_period
    return (limit > 0 and state.period > limit) or len(islands_with_units(state)) < 2


def final_blocks(state: NavalState) -> list[Block]:
    """The end of the last report: why the war ended, and each island's remaining units."""
    standing = islands_with_units(state)
    if len(standing) < 2:
        why = (
            f"{standing[0]}島のほかにユニットの残る島がなくなりました"
            if standing
            else "ユニットがすべて失われました"
        )
    else:
        why = f"ピリオド{state.options.last_period}（シナリオで決めた最後のピリオド）で終わりました"
    rows: list[Block] = [line(why)]
    for code in state.islands:
        units = [unit.id for unit in state.units.values() if unit.island == code]
        rows.append(
            line(f"{code}島: 残り{len(units)}ユニット" + (f"（{'、'.join(units)}）" if units else ""))
        )
    if len(standing) == 1:
        rows.append(line(f"【勝利】{standing[0]}島"))
    return [section(heading("終戦"), *rows)]

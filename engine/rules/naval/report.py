"""What a naval period's Resolution looks like to players (a Report) and to programs (JSON data).

Both are made from the same `Resolution`: the random numbers of every island, then one line per order
in posting order (the order, the random number used as `[ABC]の乱数A` or why the battle was invalid,
and the result with the judgement shown), then what happened besides the orders.
"""

from __future__ import annotations

from typing import Any

from engine.report import Anchor, Block, Line, Report, Span, Strong, Text, heading, line, section, table
from engine.rules.naval.big_game import gc_paused
from engine.rules.naval.results import LETTERS, LOSS, MOVED, VOID, WIN, OrderResult, Resolution
from engine.rules.naval.state import state_to_dict


def random_label(island: str, letter: str) -> str:
    """The page's way of naming a random number: `[ABC]の乱数A`."""
    return f"[{island}]の乱数{letter}"


def order_label(result: OrderResult) -> str:
    prefix = f"{result.island}:" if result.island else ""
    return f"{result.index}.{prefix}{result.order}"


def outcome_text(result: OrderResult) -> str:
    """The result in the page's words: `ABC-DD-A-01勝利`, `ABC-DD-A-01敗戦・消滅`, or why it was void."""
    if result.result == VOID:
        return result.reason if "無効" in result.reason else f"無効：{result.reason}"
    if result.result == MOVED:
        return f"移動：{result.reason}"
    actor = result.winner if result.result == WIN else result.loser
    other = result.loser if result.result == WIN else result.winner
    if result.result == WIN:
        return f"{actor}勝利（{other}消滅）"
    assert result.result == LOSS
    return f"{actor}敗戦・消滅（{other}勝利）"


def _how(result: OrderResult) -> str | None:
    """How the battle was decided: the random number and the judgement, or why none was needed."""
    if result.random is not None:
        return f"{random_label(result.random.island, result.random.letter)}（{result.work}）"
    if result.result in (WIN, LOSS):
        return result.reason
    return None


_ARROW, _SPACE = Text(" → "), Text(" ")


def order_line(result: OrderResult) -> Line:
    return _order_line(result)[0]


def _order_line(result: OrderResult) -> tuple[Line, str]:
    """The order's line and the same as bare text (`Line.plain`), built together: a period may have
    ten thousand of them."""
    label, how, outcome = order_label(result), _how(result), outcome_text(result)
    text = f"{label} → {how} → {outcome}" if how else f"{label} → {outcome}"
    spans: tuple[Span, ...]
    if how:
        spans = (Text(label), _ARROW, Text(how), _ARROW, Strong(outcome))
    else:
        spans = (Text(label), _ARROW, Strong(outcome))
    if result.post is not None:
        return Line((Anchor(result.post), _SPACE, *spans)), f">>{result.post} {text}"
    return Line(spans), text


def randoms_table(resolution: Resolution, count: int) -> Block:
    letters = list(LETTERS[:count])
    rows = [
        [island, *map(str, values), *("-" * (count - len(values)))]
        for island, values in resolution.randoms.items()
    ]
    return table(rows, header=["島", *letters])


@gc_paused
def build_report(resolution: Resolution) -> Report:
    count = resolution.state.options.randoms_per_island
    # Order lines are separate blocks so a poster may split a long period between any two of them.
    blocks: list[Block] = [
        heading(f"海戦処理 第{resolution.period}ピリオド"),
        section(heading("乱数"), randoms_table(resolution, count)),
        heading("戦闘結果"),
    ]
    # The structured result takes each order line's text as it is built, and leaves out the next
    # state: whoever keeps or prints the state converts it once (the store, `threadgm adjudicate`).
    orders: list[dict[str, Any]] = []
    add_block, add_order = blocks.append, orders.append
    for result in resolution.results:
        shown, text = _order_line(result)
        add_block(shown)
        add_order(result_to_dict(result, text))
    if not orders:
        blocks.append(line("このピリオドの命令はありません"))
    if resolution.events:
        blocks.append(section(heading("艦載機"), *(line(event) for event in resolution.events)))
    posts = sorted({result.post for result in resolution.results if result.post is not None})
    data = _resolution_data(resolution, orders)
    return Report(tuple(blocks), tuple(posts), "naval-period", {"result": data})


def result_to_dict(result: OrderResult, shown: str | None = None) -> dict[str, Any]:
    """One order's result as JSON data; `shown` is its report line's text when already built."""
    random = None
    if result.random is not None:
        random = {
            "island": result.random.island,
            "letter": result.random.letter,
            "value": result.random.value,
        }
    return {
        "index": result.index,
        "island": result.island,
        "kind": result.kind,
        "order": result.order,
        "random": random,
        "result": result.result,
        "winner": result.winner,
        "loser": result.loser,
        "reason": result.reason,
        "forced": result.forced,
        "strengths": list(result.strengths) if result.strengths else None,
        "threshold": result.threshold,
        "work": result.work,
        "post": result.post,
        "line": shown if shown is not None else _order_line(result)[1],
    }


def resolution_to_dict(resolution: Resolution) -> dict[str, Any]:
    """The JSON form of a period: random numbers per island (by letter), results, events, next state."""
    data = _resolution_data(resolution, [result_to_dict(result) for result in resolution.results])
    data["state"] = state_to_dict(resolution.state)
    return data


def _resolution_data(resolution: Resolution, orders: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "ruleset": "naval",
        "period": resolution.period,
        "randoms": {
            island: dict(zip(LETTERS, values, strict=False)) for island, values in resolution.randoms.items()
        },
        "orders": orders,
        "events": list(resolution.events),
    }


__all__ = ["LOSS", "MOVED", "VOID", "WIN", "build_report", "resolution_to_dict", "result_to_dict"]

"""The receipt is a promise (issue 25): for a played game, what each receipt said a line would do as
things stood agrees with what the report says it did — a move through a wall, a target in another
square, a ZoC stop, a resting power, a dead target, a line that runs."""

from __future__ import annotations

import pytest
import regex

from engine.rng import SeededSource
from engine.rules.dh.forecast import STAYS
from engine.rules.dh.resolution import resolve_phase
from engine.rules.dh.ruleset import RULESET
from engine.rules.dh.scenario import _power
from engine.rules.dh.submission import choose
from engine.ruleset import Order
from tests.engine.rules.dh.helpers import EXAMPLE, arena

SEITOKAI, BANCHOU = "生徒会の人", "番長の人"

# Four phases of the packaged scenario, the lines posted one by one (vouched for, as an orders file of
# the GM's is: the template names placeholders for the submitters).
PLAYED = [
    [
        "会長 C4移動",  # a wall
        "書記 B3移動 攻撃 番長",  # 番長 is in C7
        "会計 D3移動",
        ">>1 会長 C3移動",  # the correction runs
        "書記 C2移動 能力",  # a field on its own square
    ],
    [
        "番長 C5移動 攻撃 会長",  # 会長 is in C3
        "舎弟 B5移動 能力 対象は書記",
        "スケバン D5移動",
        "スケバン D2移動",  # a second line: void
    ],
    [
        "会長 B3移動 攻撃 会計",  # an ally, in D3
        "会計 D4移動 攻撃 スケバン",  # スケバン is in D5
        "書記 A7移動",  # out of reach
        "書記 C3移動",  # void: 書記 has a line
    ],
    [
        "スケバン D3移動 攻撃 会計",  # through 会計's D4: ZoC stops it there, and it attacks 会計
        "番長 C4移動",  # a wall
        "舎弟 能力 対象は書記",  # resting since phase 2
        "新入り C6移動",  # came at turn 2: condition 3
    ],
]


def _cancelled(texts: list[str]) -> bool:
    body = "\n".join(texts[1:])
    return bool(regex.search(r"キャンセル|ため待機|（待機）|行動できない|（条件\d）", body))


def _zoc_end(texts: list[str]) -> str | None:
    found = regex.search(r"ZoCにより([A-Z]\d+)で停止", "\n".join(texts))
    return found[1] if found else None


def _play(lines_by_phase: list[list[str]], seed: bytes):
    state = RULESET.initial_state(RULESET.read_scenario(EXAMPLE.read_text("utf-8")))
    compared = []
    post = 0
    for texts in lines_by_phase:
        author = SEITOKAI if state.acting.name == "生徒会" else BANCHOU
        taken: list[Order] = []
        promises: dict[tuple[int, int], str | None] = {}
        for text in texts:
            post += 1
            parsed = RULESET.parse_line(text)
            order = Order(post, 0, author, parsed.player, parsed.command, parsed.canonical, gm=True)
            assert RULESET.check(state, order) is None, text
            promises[(post, 0)] = RULESET.remark(state, order, taken)
            taken.append(order)
        kept = choose(state, taken).kept
        after, phase, _ = resolve_phase(state, [(None, o.command) for o in kept], SeededSource(seed))
        by_key = dict(phase.actions)
        for order in kept:
            promise = promises[(order.post, order.line)] or ""
            did = by_key[order.command.key]
            compared.append((order.canonical, promise, did))
        state = after
    return compared


@pytest.mark.parametrize("seed", [b"\x00" * 32, b"\x07" * 32, bytes(range(32))])
def test_every_receipt_agrees_with_the_report_over_a_played_game(seed: bytes) -> None:
    compared = _play(PLAYED, seed)
    assert len(compared) == 13
    for line, promise, did in compared:
        said_stays = STAYS in promise or "行動できません" in promise
        assert said_stays == _cancelled(did), (line, promise, did)
        said_zoc = regex.search(r"ZoCにより([A-Z]\d+)で止まります", promise)
        assert (said_zoc[1] if said_zoc else None) == _zoc_end(did), (line, promise, did)


def test_the_promises_of_the_played_game_in_words() -> None:
    words = {line: promise for line, promise, _ in _play(PLAYED, b"\x00" * 32)}
    assert words[">>1 会長 C3移動 待機"] == ">>1の「会長 C4移動 待機」を置き換え"
    assert words["書記 B3移動 攻撃 番長"] == "番長は同マスにいないため通常攻撃できません（このままなら待機）"
    assert words["番長 C5移動 攻撃 会長"] == "会長は同マスにいないため通常攻撃できません（このままなら待機）"
    assert words["書記 A7移動 待機"] == "A7へは移動力2では届かないため移動できません（このままなら待機）"
    assert words["新入り C6移動 待機"] == "2つ前のフェイズからMAP上にいないため行動できません（条件3）"
    assert "能力休み中" in words["舎弟 能力 対象は書記"]
    assert words["スケバン D3移動 攻撃 会計"] == "ZoCによりD4で止まります"


def test_a_move_through_a_wall_and_an_attack_in_another_square_are_answered_at_intake() -> None:
    """「移動不可能なマスを指定した場合、そのキャラクターのこのターンの行動はキャンセルされます」
    「同マスのキャラクター1人に攻撃を仕掛けます」: both were accepted with no word until the report."""
    state = arena()
    for text, word in (
        ("アリス C4移動", "壁のため移動できません（このままなら待機）"),
        ("アリス C2移動 攻撃 カイ", "カイは同マスにいないため通常攻撃できません（このままなら待機）"),
        ("アリス C7移動", "C7へは移動力2では届かないため移動できません（このままなら待機）"),
        ("アリス C3移動", None),
    ):
        parsed = RULESET.parse_line(text)
        order = Order(1, 0, "赤の人◆AKA0000000", parsed.player, parsed.command, parsed.canonical)
        assert RULESET.remark(state, order, []) == word, text


def test_the_promise_follows_the_moves_of_the_lines_before_it() -> None:
    state = arena()
    state.characters["カイ"].square = "C3"
    orders = []
    for number, text in enumerate(
        ("ボブ B1移動", "アリス C3移動 攻撃 カイ", "ハナ B3移動 攻撃 アリス"), start=1
    ):
        parsed = RULESET.parse_line(text)
        orders.append(Order(number, 0, "赤の人◆AKA0000000", parsed.player, parsed.command, parsed.canonical))
    assert RULESET.remark(state, orders[1], orders[:1]) is None  # カイ is in C3, where アリス goes
    assert RULESET.remark(state, orders[2], orders[:2]) == (
        "アリスは同マスにいないため通常攻撃できません（このままなら待機）"  # アリス will be in C3, not B3
    )


def test_the_first_phase_is_foretold_after_the_starters_sure_passives() -> None:
    """「パッシブはゲーム開始時、または初登場時にアクティブと同じ処理をします」: a starter's 移動力+1 that needs no
    die is counted before the first phase's lines, as the resolution counts it."""
    state = arena()
    assert not state.started
    state.characters["アリス"].powers.append(
        _power(
            {
                "name": "俊足",
                "style": "パッシブ",
                "target": "自分",
                "effects": [{"kind": "能力値増減", "stat": "移動力", "value": 1}],
            },
            "アリス",
        )
    )
    parsed = RULESET.parse_line("アリス B3移動")  # C1 → B3: three steps, one more than 移動力 2
    order = Order(1, 0, "赤の人◆AKA0000000", parsed.player, parsed.command, parsed.canonical)
    assert RULESET.remark(state, order, []) is None
    _, outcome = RULESET.resolve(state, [order], SeededSource(bytes(32)))
    assert outcome.meta["result"]["actions"]["アリス"]["to"] == "B3"

"""The receipt as the pure referee decides it: 取消 withdraws only its writer's own earlier accepted
orders of the period, the orders are stored with the receipt that took them, a ruleset that weighs an
order against the period's earlier ones (`AnnotatesReceipts`) refuses or remarks on it, and an order
whose check raises is that post's problem: answered with the internal error, logged, the rest taken."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from engine.referee import PostView
from engine.referee.isolation import INTERNAL_ERROR
from engine.rules import REGISTRY
from engine.ruleset import AnnotatesReceipts
from tests.referee_harness import THREAD, PureGame, posted

GUESS = type(REGISTRY.get("guess"))


class _Weighed(GUESS, AnnotatesReceipts):  # type: ignore[misc, valid-type]
    """The guess game where a number somebody already guessed this period is refused, and a guess
    next to an earlier one is remarked on."""

    def void(self, state, order, earlier):  # type: ignore[no-untyped-def]
        taken = [o.command for o in earlier if o.player != order.player]
        return f"{order.command} は他の人が予想済みです" if order.command in taken else None

    def remark(self, state, order, earlier):  # type: ignore[no-untyped-def]
        return "となりの数があります" if any(abs(o.command - order.command) == 1 for o in earlier) else None


class _Fragile(GUESS):  # type: ignore[misc, valid-type]
    """The guess game whose check raises on 13 (a bug in a game's rules)."""

    def check(self, state, order):  # type: ignore[no-untyped-def]
        if order.command == 13:
            raise RuntimeError("unlucky")
        return super().check(state, order)


def game_of(rules: object, players: str = '["アリス", "ボブ", "カレン"]') -> PureGame:
    game = PureGame("guess", f"players = {players}\nsides = 100\nrounds = 3\n")
    game.setup = replace(game.setup, dice=False, ruleset=rules)
    game.poll()
    return game


def test_cancel_withdraws_only_the_writers_own_accepted_orders_of_this_period() -> None:
    game = game_of(GUESS())
    game.poll([game.post("＜予想＞10", "アリス")], minutes=5)
    game.poll(minutes=65)  # period 1 resolved
    game.poll(
        [
            game.post("＜予想＞20", "アリス"),
            game.post("＜予想＞30", "ボブ"),
            game.post("＜予想＞0", "アリス"),
        ],
        minutes=5,
    )
    game.poll([game.post("取消", "アリス")], minutes=1)
    statuses = {(o.period, o.post, o.canonical): o.status for o in game.store.orders("guess")}
    assert statuses == {
        (1, 2, "＜予想＞10"): "accepted",  # the last period's: as resolved
        (2, 3, "＜予想＞20"): "cancelled",
        (2, 4, "＜予想＞30"): "accepted",  # someone else's
        (2, 5, "＜予想＞0"): "rejected",  # refused at its receipt: stays so
    }


def test_the_orders_are_stored_with_the_receipt_that_took_them() -> None:
    game = game_of(GUESS())
    decided = game.poll([game.post("＜予想＞40", "アリス")], minutes=5)
    (order,) = game.store.orders("guess")
    answer = next(c for c in decided.changes if getattr(c, "kind", "") == "answer")
    assert order.receipt == f"{answer.base}/0" == f"guess/{THREAD.key}/2-2//0"


def test_a_ruleset_that_weighs_orders_refuses_or_remarks_against_this_periods_earlier_ones() -> None:
    game = game_of(_Weighed())
    game.poll([game.post("＜予想＞40", "アリス")], minutes=5)
    game.poll(minutes=65)  # period 1: 40 is not period 2's
    game.poll([game.post("＜予想＞40", "ボブ")], minutes=5)
    receipt = posted(game.poll([game.post("＜予想＞40\n＜予想＞41", "カレン")], minutes=1))
    assert receipt == [
        "【受付 ピリオド2（締切 12/01 22:00）】\n>>4 ＜予想＞41（となりの数があります）\n受け付けられなかった命令:\n"
        ">>4 ＜予想＞40 → 40 は他の人が予想済みです"
    ]
    stored = {(o.post, o.canonical): (o.status, o.reason) for o in game.store.orders("guess")}
    assert stored[(4, "＜予想＞40")] == ("rejected", "40 は他の人が予想済みです")
    assert stored[(3, "＜予想＞40")] == ("accepted", "")


def test_an_order_whose_check_raises_is_its_posts_problem_and_the_others_are_taken(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = game_of(_Fragile())
    with caplog.at_level(logging.ERROR, logger="threadgm"):
        decided = game.poll([game.post("＜予想＞13", "アリス"), game.post("＜予想＞40", "ボブ")], minutes=5)
    assert posted(decided) == [
        f"【受付 ピリオド1（締切 12/01 21:00）】\n>>3 ＜予想＞40\n\n>>2\n{INTERNAL_ERROR}"
    ]
    assert "guess: orders of post 2 failed; answered as an internal error" in caplog.messages
    assert [(o.post, o.status) for o in game.store.orders("guess")] == [(3, "accepted")]
    alone = posted(game.poll([game.post("＜予想＞13", "カレン")], minutes=1))
    assert alone == [f">>4\n{INTERNAL_ERROR}"]  # nothing taken: no receipt at all


def test_a_refused_order_is_not_one_the_rules_weigh_later_orders_against() -> None:
    game = game_of(_Weighed(), '["アリス", "ボブ"]')
    game.poll([game.post("＜予想＞50", "デイブ")], minutes=5)  # no player: refused
    receipt = posted(game.poll([game.post("＜予想＞50", "ボブ")], minutes=1))
    assert receipt == ["【受付 ピリオド1（締切 12/01 21:00）】\n>>3 ＜予想＞50"]


def test_a_game_reading_with_its_own_names_answers_a_near_miss_and_refuses_a_second_line() -> None:
    """DH reads a line with the running state (ReadsWithState): a line that names a character in words
    the grammar does not take is answered with the nearest form, not taken for chat; and it weighs each
    line against the period's earlier ones (AnnotatesReceipts) with that state: a second, different
    line for one character is refused with how to correct it. A post the board gave no date is read."""
    game = PureGame("dh")
    game.poll()
    posts = [
        game.post("会長 C5へ向かう", "アリス"),
        game.post("会長 C2移動", "アリス"),
        game.post("会長 C3移動", "ボブ"),
    ]
    game.number += 1
    dateless = PostView(game.number, "カレン", None, None, "会計 D2移動")
    assert posted(game.poll([*posts, dateless], minutes=1)) == [
        "【受付 ピリオド1（締切 12/01 21:00）】\n>>3 会長 C2移動 待機\n>>5 会計 D2移動 待機\n受け付けられなかった命令:\n"
        ">>2 会長 C5へ向かう → 読めませんでした。もしかして: 会長 C5移動\n"
        ">>4 会長 C3移動 → 会長には>>3の行があり、2行目の違う行動は無効です（直すときは「>>3 会長 C3移動」と番号を付けて）"
    ]


def _one_round() -> PureGame:
    game = PureGame("guess", 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 1\n')
    game.setup = replace(game.setup, dice=False)
    game.poll()
    return game


def test_a_cancel_with_nothing_to_withdraw_and_a_strangers_ready_are_each_answered_as_such() -> None:
    game = _one_round()
    posts = [
        game.post("取消", "アリス"),
        game.post("準備完了", "カレン"),
        game.post("＜予想＞5\n準備完了", "ボブ"),
    ]
    assert posted(game.poll(posts, minutes=1)) == [
        "【受付 ピリオド1（締切 12/01 21:00）】\n>>2 取消: ピリオド1に取り消す命令はありません\n"
        ">>4 ＜予想＞5\n>>4 準備完了\n受け付けられなかった命令:\n"
        ">>3 準備完了 → 準備完了を数えるのは、このピリオドに命令を出すプレイヤーだけです（名前欄のトリップで見分けます）"
    ]
    assert [entry.args["player"] for entry in game.store.log_entries("guess", ["ready"])] == ["ボブ"]


def test_after_the_end_a_cancel_says_nothing_and_an_unreadable_line_keeps_its_own_reason() -> None:
    game = _one_round()
    game.poll(minutes=65)  # the one round resolved: the game is over
    posts = [game.post("取消\n＜予想＞abc", "アリス"), game.post("＜予想＞7", "ボブ")]
    assert posted(game.poll(posts, minutes=1)) == [
        "【受付（ゲームは終了しています）】\n受け付けられなかった命令:\n"
        ">>2 ＜予想＞abc → 予想「abc」は数字（0～9）で書いてください（例：＜予想＞42）\n"
        ">>3 ＜予想＞7 → ゲームは終了しているため、命令は実行されません"
    ]

"""A game that has ended takes no more orders, and says so (issue 25: a receipt is a promise): an
order posted after the end is refused with the reason, and one taken for a period that the end
leaves out — written after the last deadline, read in the same poll — is named void in the end post."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.clock.periods import GAME_OVER
from tests.referee_harness import PureGame, open_scenario, posted

_ONE_PERIOD = {
    "guess": ("rounds = 5", "rounds = 1", "＜予想＞5"),
    "naval": ("last_period = 10", "last_period = 1", "＜攻撃＞ABC-F-A-01、XYZ-DD-X-01"),
}


@pytest.mark.parametrize("game_id", sorted(_ONE_PERIOD))
def test_orders_after_the_last_period_are_answered_that_they_do_not_run(game_id: str) -> None:
    old, new, order = _ONE_PERIOD[game_id]
    game = PureGame(game_id, open_scenario(game_id).replace(old, new))
    game.poll()
    game.poll([game.post(order)])
    game.now += timedelta(minutes=61)  # after the deadline: written for period 2, which never comes
    end = "\n".join(posted(game.poll([game.post(order)], minutes=2)))  # read as period 1 resolves
    game.now += timedelta(minutes=60)
    (after,) = posted(game.poll([game.post(order + "\n準備完了")]))
    statuses = {o.post: o.status for o in game.store.orders(game_id)}
    game.close()
    assert f">>3 {order}（ピリオド2分）" in end  # what was known when it was read
    assert f"ゲーム終了のため実行されません:\n>>3 {order}" in end
    assert after.startswith("【受付（ゲームは終了しています）】\n受け付けられなかった命令:\n")
    assert f">>4 {order} → {GAME_OVER}" in after and "準備完了" not in after
    assert statuses == {2: "accepted", 3: "voided", 4: "rejected"}


def test_the_end_voids_only_the_later_orders_still_accepted_and_the_store_says_why() -> None:
    game = PureGame("guess", 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 1\n')
    game.poll()
    game.poll([game.post("＜予想＞5", "アリス")])
    game.now += timedelta(minutes=61)  # written for period 2, which never comes; アリス withdraws hers
    late = [game.post("＜予想＞6", "アリス"), game.post("取消", "アリス"), game.post("＜予想＞7", "ボブ")]
    end = posted(game.poll(late, minutes=2))[-1]
    assert end.endswith(
        "次のピリオド分として受け付けた命令は、ゲーム終了のため実行されません:\n>>5 ＜予想＞7"
    )
    assert [(o.post, o.status, o.reason) for o in game.store.orders("guess")] == [
        (2, "accepted", ""),
        (3, "cancelled", ">>4 取消"),  # withdrawn before the end: left as it was
        (5, "voided", GAME_OVER),
    ]

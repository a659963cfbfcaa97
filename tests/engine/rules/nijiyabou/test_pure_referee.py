"""にじ野望 through the pure referee: what the receipt says is what counts. A line written after the
deadline (read in the grace time before the season is resolved) counts for the next season, so its
receipt makes no promise drawn from the season still being settled; a stranger's 準備完了 is said not
to count."""

from __future__ import annotations

from datetime import timedelta

from tests.referee_harness import PureGame, posted

ALICE = ("みと", "MITOMITO01")


def test_a_line_after_the_deadline_is_the_next_seasons_and_its_receipt_promises_nothing_from_this_one() -> (
    None
):
    game = PureGame("nijiyabou")
    try:
        game.poll([])
        game.poll([game.post("参加 月ノ美兎", *ALICE)], minutes=1)
        game.now += timedelta(minutes=59, seconds=30)  # 21:00:30, the deadline 21:00 passed
        late = game.post("東京：内政", *ALICE)
        receipt = "\n".join(posted(game.poll([late], minutes=0.5)))
        assert f">>{late.number} 東京：内政（ピリオド2分）" in receipt
        assert "参加していません" not in receipt
        report = "\n".join(posted(game.poll([], minutes=2)))
        assert "月ノ美兎：みと◆MITOMITO01が参加" in report
        report = "\n".join(posted(game.poll([], minutes=60)))
        assert "東京 内政：国力+3 → 8" in report  # it ran in the season it was written for
    finally:
        game.close()


def test_a_strangers_ready_is_said_not_to_count_and_does_not_end_the_season() -> None:
    game = PureGame("nijiyabou")
    try:
        game.poll([])
        game.poll([game.post("参加 月ノ美兎", *ALICE)], minutes=1)
        game.poll([], minutes=63)  # 春 resolved (deadline 21:00, grace 2 minutes): Alice plays 月ノ美兎
        stranger = game.post("準備完了", "通りすがり", "STRANGER03")
        forged = game.post("準備完了", "みと◆MITOMITO01")  # the trip typed into the name
        receipt = "\n".join(posted(game.poll([stranger, forged], minutes=1)))
        for post in (stranger, forged):
            assert (
                f">>{post.number} 準備完了 → 準備完了を数えるのは、このピリオドに命令を出すプレイヤーだけです"
                in receipt
            )
        ready = game.post("準備完了", *ALICE)
        text = "\n".join(posted(game.poll([ready], minutes=1)))
        assert f">>{ready.number} 準備完了" in text and "数えるのは" not in text
    finally:
        game.close()


def test_a_cancel_with_nothing_to_cancel_says_so() -> None:
    """取消 withdraws the writer's own orders of the season; a writer with none (a stranger, or one whose
    orders are all refused) is told there was nothing, not that orders were withdrawn."""
    game = PureGame("nijiyabou")
    try:
        game.poll([])
        stranger = game.post("取消", "通りすがり", "STRANGER03")
        claim = game.post("参加 月ノ美兎", *ALICE)
        receipt = "\n".join(posted(game.poll([stranger, claim], minutes=1)))
        assert f">>{stranger.number} 取消: ピリオド1に取り消す命令はありません" in receipt
        cancel = game.post("取消", *ALICE)
        receipt = "\n".join(posted(game.poll([cancel], minutes=1)))
        assert f">>{cancel.number} 取消: ピリオド1の命令を取り消しました" in receipt
    finally:
        game.close()

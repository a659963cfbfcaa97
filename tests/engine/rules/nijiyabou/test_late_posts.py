"""にじ野望 through the pure referee: a line written after the deadline (read in the grace time before
the season is resolved) counts for the next season, so its receipt makes no promise drawn from the
season still being settled — a player who joined this season is not told he has not joined."""

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

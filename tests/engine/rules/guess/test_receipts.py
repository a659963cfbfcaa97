"""数当て's receipt is a promise: the last guess of a player counts, so a guess that replaces an earlier
one says so — in the same post or a later one — and the update scores only the last."""

from __future__ import annotations

from tests.referee_harness import PureGame, posted


def test_a_second_guess_says_it_replaces_the_first_and_only_the_last_is_scored() -> None:
    game = PureGame("guess")
    game.poll()
    (first,) = posted(game.poll([game.post("＜予想＞42\n＜予想＞43", "アリス", "AAAAAAAAAA")]))
    (second,) = posted(game.poll([game.post(">>2 ＜予想＞44", "アリス", "AAAAAAAAAA")]))
    (other,) = posted(game.poll([game.post("＜予想＞10", "ボブ", "BBBBBBBBBB")]))
    update = "\n".join(posted(game.poll(minutes=62)))
    game.close()
    assert (
        ">>2 ＜予想＞42\n>>2 ＜予想＞43（アリス◆AAAAAAAAAAの先の＜予想＞42は取り消し。最後の予想が有効です）"
        in first
    )
    assert second.endswith(
        ">>3 ＜予想＞44（アリス◆AAAAAAAAAAの先の＜予想＞43は取り消し。最後の予想が有効です）"
    )
    assert other.endswith(">>4 ＜予想＞10")
    assert "アリス◆AAAAAAAAAA: 44（差" in update and ": 42（" not in update and ": 43（" not in update

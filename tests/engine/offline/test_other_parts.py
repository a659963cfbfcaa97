"""A game that went on in its next thread: each part verified with the commitments and keys the other
parts published (`carried_post`), so that the part without the opening is still recomputed and a key
whose hash is in the earlier part is checked against it."""

from __future__ import annotations

from engine.offline.other_parts import carried_post
from poster.markup import render_body
from tests.engine.offline.test_verify import BOT, Rules, Thread, key, resolution


def parts() -> tuple[Thread, Thread]:
    first = Thread()  # the opening and period 1; the report of period 1 commits period 2's key
    first.bot_report(resolution(1))
    second = Thread(opening=False)  # the next part: 「…の続きです」, then periods 2 and 3
    second.bot("数当ての続きです\n前スレ: http://127.0.0.1:8380/test/read.cgi/demo/1796000000/")
    second.bot_report(resolution(2))
    second.bot_report(resolution(3))
    return first, second


def test_the_later_part_alone_cannot_be_vouched_for() -> None:
    _, second = parts()
    result = second.verify(Rules(), trips=[BOT])
    assert result.periods_checked == 0 and result.unverified  # no opening: no game; period 2 uncommitted


def test_with_the_earlier_part_the_later_one_is_recomputed_and_every_key_checked() -> None:
    first, second = parts()
    carried = carried_post([first.posts])
    assert carried is not None and carried.number == 0 and carried.trip == BOT
    second.posts.insert(0, carried)
    result = second.verify(Rules())
    assert result.bot_trips == (BOT,) and result.game is not None
    assert (result.periods_checked, result.periods_matched, result.keys_checked) == (2, 2, 2)
    assert result.unverified == [] and result.problems == []  # periods 1 is the other part's, not missing
    assert result.summary().endswith("結果: すべて一致しました")


def test_a_key_in_the_later_part_that_the_earlier_hash_does_not_match_is_a_problem() -> None:
    first, second = parts()
    second.posts[2] = second.posts[2].__class__(
        second.posts[2].number, BOT, None, render_body(resolution(2)).replace(key(2).hex(), "0" * 64)
    )
    second.posts.insert(0, carried_post([first.posts]))
    result = second.verify(Rules())
    assert "ピリオド2 (>>3) の鍵が 前後のスレ で公開したハッシュと一致しません" in result.problems


def test_the_earlier_part_takes_nothing_it_does_not_need_from_the_later() -> None:
    first, second = parts()
    carried = carried_post([second.posts], [BOT])  # the later part has no claim of its own
    first.posts.insert(0, carried)
    result = first.verify(Rules())
    assert (result.periods_checked, result.periods_matched) == (1, 1) and result.ok
    assert carried_post([[]]) is None

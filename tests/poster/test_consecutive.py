"""連投規制 as the board counts it: how many more posts the bot may write before someone else does."""

from __future__ import annotations

from poster.consecutive import ConsecutiveLimit, room


def test_a_board_that_allows_one_post_in_a_window_holds_the_bot_after_each_post() -> None:
    limit = ConsecutiveLimit.of(1, 3)  # at most one of the last three posts
    assert limit == ConsecutiveLimit(1, 3)
    assert room([False, False, False], limit) == 1
    assert room([True, False, False], limit) == 0  # its post is one of the last three
    assert room([False, False, True], limit) == 0
    assert room([True, False, False, False], limit) == 1  # its post left the window


def test_limits_that_hold_nobody_back_are_none() -> None:
    assert ConsecutiveLimit.of(0) is None
    assert ConsecutiveLimit.of(4, 3) is None  # more posts than the window: never reached
    assert ConsecutiveLimit.of(3) == ConsecutiveLimit(3, 3)  # no window given: the posts themselves
    assert room([True] * 9, None) is None


def test_the_board_counts_before_the_post_is_added() -> None:
    limit = ConsecutiveLimit.of(3, 5)
    assert room([], limit) == 3
    assert room([True, True, False, True, False], limit) == 0
    assert room([False] * 5, limit) == 3
    # two of the last five: one more post, after which the oldest of the two leaves the window
    assert room([True, False, False, False, True], limit) == 2

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


def test_the_room_left_under_a_consecutive_limit_counts_the_bots_share_of_the_last_posts() -> None:
    ex0ch = ConsecutiveLimit.of(5, 7)  # ex0ch's timeclose=5, timecount=7
    assert room([False], ex0ch) == 5  # a fresh thread: five posts, then the sixth would be refused
    assert room([False, True, True, True, True, True], ex0ch) == 0
    # one post of someone else does not free a writer who holds five of the last seven
    assert room([False, True, True, True, True, True, False], ex0ch) == 0
    # three posts of others: the five oldest of its posts slide out one by one
    assert room([True, True, True, True, True, False, False, False], ex0ch) == 5
    in_a_row = ConsecutiveLimit.of(5)  # five in a row (a configured limit without a window)
    assert in_a_row == ConsecutiveLimit(5, 5)
    assert room([True] * 5, in_a_row) == 0
    assert room([True] * 5 + [False], in_a_row) == 5  # anyone's post: five more in a row
    assert room([True, True, True, False, True], in_a_row) == 4
    assert room([], None) is None
    assert ConsecutiveLimit.of(0, 7) is None and ConsecutiveLimit.of(8, 7) is None  # holds nobody

"""連投規制: how many more posts the bot may write in a thread before the board holds it until
someone else writes.

ex0ch refuses a writer who already holds `timeclose` of the last `timecount` posts (501 連続投稿
ですか？？), checked before the new post is added; other boards publish nothing and the GM configures
the same two numbers (`[bot] consecutive_limit`, `consecutive_window`). The bot counts its own posts
among the thread's last ones as it has read them, plus what it has sent since, and never asks past
the limit: the last post it may write says once that the game waits (`HOLD_NOTICE`), and the next
post of anyone lets it go on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

HOLD_NOTICE = "連投規制のため、次の書き込みがあるまで進行を止めます"


@dataclass(frozen=True)
class ConsecutiveLimit:
    posts: int  # timeclose: at most this many …
    within: int  # timecount: … of the thread's last this many posts

    @classmethod
    def of(cls, posts: int, within: int = 0) -> ConsecutiveLimit | None:
        """The limit, or None where it holds nobody back (0, or more posts than the window)."""
        within = within or posts
        if posts <= 0 or posts > within:
            return None
        return cls(posts, within)


def room(own: Sequence[bool], limit: ConsecutiveLimit | None) -> int | None:
    """Posts the bot may still write before anyone else does; `own` is the thread's posts, oldest
    first, True for the bot's (those it sent but has not read yet at the end). None: no limit."""
    if limit is None:
        return None
    window = list(own[-limit.within :])
    allowed = 0
    while sum(window[-limit.within :]) < limit.posts:  # the board counts before the post is added
        window.append(True)
        allowed += 1
    return allowed

"""What a game's other threads lend the verification of one of them. A game that rolled over plays on
in its next part: the hash of a period's key may be in one thread and the key in the next, a day's key
is published in whichever thread is current when the day ends, and the opening — which names the game
— is in the first part only. The bot's commitments and published keys in the other parts (the
opening's name and period hashes, each day's key hash and key, the rules secret's hash) are gathered
into one post, numbered `CARRIED`, that stands before the thread's own posts; nothing else of the
other parts (their answers, their reports) is taken, since each thread is verified with its own key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.dice.disclosure import HEADING
from engine.offline.thread_posts import (
    CARRIED,
    DAY_HASH,
    DAY_KEY,
    PERIOD_HASH,
    RULES_HASH,
    ThreadPost,
    openings,
)
from engine.offline.verify import bot_trips


def carried_post(others: Iterable[Sequence[ThreadPost]], trips: Sequence[str] = ()) -> ThreadPost | None:
    """The commitments and keys the bot (`trips`, else each thread's first to speak as the bot)
    published in the `others` threads, as one post numbered CARRIED; None when they hold none."""
    names: list[str] = []
    periods: list[str] = []
    days: list[str] = []
    trip: str | None = None
    for posts in others:
        bot = tuple(trips) or bot_trips(posts)
        mine = [post for post in posts if post.trip in bot]
        names += [name for name in openings(mine).values() if name not in names]
        for post in mine:
            trip = trip or post.trip
            for text in post.body.split("\n"):
                if PERIOD_HASH.match(text) or RULES_HASH.match(text):
                    periods.append(text)
                elif DAY_HASH.match(text) or DAY_KEY.match(text):
                    days.append(text)
    if trip is None or not (periods or days):
        return None
    chunks = []
    if periods:
        chunks.append("\n".join([f"【{names[0]} 開始】" if names else "【他のスレ】", *periods]))
    if days:
        chunks.append("\n".join([f"【{HEADING}】", *days]))
    return ThreadPost(CARRIED, trip, None, "\n\n".join(chunks))

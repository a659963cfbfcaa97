"""The day keys of plain dice, as the pure referee publishes them when the bot reads posts late (it was
down for days): each post is answered with its own day's dice — what it would have had on time — and
each day answered without an earlier commitment is committed in the same post as its answers; once a
day's key is revealed it is never published again, and its record keeps the commitment."""

from __future__ import annotations

from datetime import timedelta

from engine import keys
from engine.referee import PostView
from tests.referee_harness import START, THREAD, PureGame, posted

DAY1, DAY2, DAY3, DAY4 = (f"2026-12-0{n}" for n in (1, 2, 3, 4))
LATE = [
    PostView(2, "a", None, START + timedelta(hours=1), "1D100"),  # day 1, 21:00
    PostView(3, "b", None, START + timedelta(days=1), "1D100"),  # day 2, 20:00
]


def day_hash(day: str) -> str:
    return keys.commitment(keys.period_key(bytes(32), "dice", day))


def on_time() -> list[str]:
    """The answers to LATE when each post is read within the minute it was written."""
    game = PureGame("dice")
    game.number = 3
    first = posted(game.poll(LATE[:1], minutes=60))[0].split("\n\n")[-1]
    second = posted(game.poll(LATE[1:], minutes=24 * 60))[0].split("\n\n")[-1]
    return [first, second]


def test_posts_read_days_late_get_their_own_days_dice_and_those_days_are_committed_with_them() -> None:
    game = PureGame("dice")
    game.number = 3
    (text,) = posted(game.poll(LATE, minutes=2 * 24 * 60))  # first read on day 3
    disclosure, *answers = text.split("\n\n")
    assert answers == on_time()
    assert disclosure == "\n".join(
        [
            "【ダイス検証】",
            *(f"鍵のハッシュ(SHA-256) {day}: {day_hash(day)}" for day in (DAY1, DAY2, DAY3, DAY4)),
        ]
    )
    first = f"dice/{THREAD.key}/2-3/{DAY1}+{DAY2}+{DAY3}+{DAY4}/0"
    assert {p.period: p.committed_in for p in game.store.periods("dice")} == dict.fromkeys(
        (DAY1, DAY2, DAY3, DAY4), first
    )
    # the next poll reveals the two days that are over, each with the key its hash was made from
    (revealed,) = posted(game.poll(minutes=1))
    day1, day2 = (keys.period_key(bytes(32), "dice", day).hex() for day in (DAY1, DAY2))
    assert revealed.startswith(f"【ダイス検証】\n鍵 {DAY1}: {day1}\n鍵 {DAY2}: {day2}\n")


def test_a_revealed_days_key_is_published_once_and_its_record_keeps_the_commitment() -> None:
    game = PureGame("dice")
    game.number = 3
    game.poll(LATE, minutes=2 * 24 * 60)
    game.poll(minutes=1)  # DAY1 and DAY2 revealed
    assert posted(game.poll(minutes=1)) == []  # nothing new to publish: nothing posted
    answered = posted(game.poll([game.post("1D6", "c")], minutes=1))[0]
    assert "鍵 " not in answered.split("\n\n")[0]  # a post answered: still no key again
    periods = {p.period: (p.commitment, p.revealed_in is not None) for p in game.store.periods("dice")}
    assert periods[DAY1] == (day_hash(DAY1), True) and periods[DAY2] == (day_hash(DAY2), True)
    assert periods[DAY3] == (day_hash(DAY3), False)
    # the next day: DAY3's key, once, and DAY5's hash
    (next_day,) = posted(game.poll(minutes=24 * 60))
    assert [row.split(":")[0] for row in next_day.split("\n")[1:3]] == [
        f"鍵 {DAY3}",
        "鍵のハッシュ(SHA-256) 2026-12-05",
    ]

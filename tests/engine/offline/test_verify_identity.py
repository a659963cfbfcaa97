"""Verify knows who the bot is: the trip given, else the first to speak as the bot; anyone else who
posts 【ダイス検証】 is an impostor, noted and never trusted — neither a frame nor a forgery works."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine.dice import answers
from engine.dice.disclosure import Disclosure, disclosure_report
from engine.keys import commitment, period_key
from engine.offline.verify import ThreadPost, verify_thread
from poster.markup import render_body

JST = timezone(timedelta(hours=9))
THREAD = "1795954933"
DAY, NEXT = "2026-12-01", "2026-12-02"
WHEN = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
BOT, EVIL = "BOTTRIP", "EVILTRIP"


def key(seed: bytes, day: str) -> bytes:
    return period_key(seed, "g", day)


def disclosure(seed: bytes, *, commit: tuple[str, ...] = (), reveal: tuple[str, ...] = ()) -> str:
    days = (*commit, *reveal)
    keys = {day: key(seed, day) for day in days}
    return render_body(
        disclosure_report(Disclosure(commit, reveal), keys, {d: commitment(k) for d, k in keys.items()})
    )


def answer(seed: bytes, number: int, body: str) -> str:
    found = answers.answer(THREAD, number, body, key(seed, DAY))
    assert found is not None
    return render_body(found)


def thread(*posts: tuple[str | None, str]) -> list[ThreadPost]:
    return [ThreadPost(n, trip, WHEN + timedelta(minutes=n), body) for n, (trip, body) in enumerate(posts, 1)]


HONEST, FORGER = b"h" * 32, b"f" * 32


def test_a_fake_commitment_before_the_bot_cannot_frame_it() -> None:
    posts = thread(
        (None, "ダイススレ"),
        (EVIL, disclosure(FORGER, commit=(DAY, NEXT))),  # a fake 【ダイス検証】 before the bot's
        (BOT, disclosure(HONEST, commit=(DAY, NEXT))),
        (None, "dice1d6="),
        (BOT, answer(HONEST, 4, "dice1d6=")),
        (BOT, disclosure(HONEST, reveal=(DAY,))),
    )
    guessed = verify_thread(THREAD, posts, render_body)
    assert not guessed.problems  # the honest bot is never called a cheat
    named = verify_thread(THREAD, posts, render_body, [BOT])
    assert named.ok and (named.checked, named.matched) == (1, 1)
    assert any("◆EVILTRIP" in note and "なりすまし" in note for note in named.notes)


def test_a_forged_answer_and_key_from_another_trip_count_for_nothing() -> None:
    body = "dice1d6="
    forged = ">>4\n" + "dice1d6=6 (6)"
    posts = thread(
        (None, "ダイススレ"),
        (BOT, disclosure(HONEST, commit=(DAY, NEXT))),
        (EVIL, disclosure(FORGER, commit=(DAY,))),  # the forger commits first to a key of his own
        (None, body),
        (BOT, answer(HONEST, 4, body)),
        (EVIL, forged),  # a forged answer after the bot's
        (EVIL, disclosure(FORGER, reveal=(DAY,))),  # and his key before the bot's
        (BOT, disclosure(HONEST, reveal=(DAY,))),
    )
    result = verify_thread(THREAD, posts, render_body)
    assert result.bot_trips == (BOT,)
    assert result.ok and (result.checked, result.matched) == (1, 1)  # the bot's own answer, by its key
    assert (
        sum("なりすまし" in note for note in result.notes) == 2
    )  # each of the forger's 【ダイス検証】 posts

"""When the page may show a period's key: only once the post that publishes it has been sent. A
period resolved while the board holds the bot back (its pace) has its report still in the outbox,
and until that report is in the thread its key is as secret as an open period's."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import requests

from tests.web import played


def shown(game: played.Played, value: str) -> list[str]:
    page = game.page or game.serve()
    paths = ["/", "/games/guess/", "/games/guess/live", "/games/guess/summary.json"]
    return [path for path in paths if value in requests.get(page.url + path, timeout=10).text]


def test_a_resolved_periods_key_waits_for_its_report_to_be_sent(tmp_path: Path) -> None:
    game = played.guess(tmp_path)
    game.post("＜予想＞37", name=played.HOSTILE)
    game.tick(minutes=1)
    key = game.bot.setup.period_key(1).hex()
    game.clock.now = game.clock.now.replace(hour=21, minute=1)
    # The board's pace holds every post for ten minutes: period 1 is resolved, its report queued.
    game.bot.pacer.refused(game.bot.ref.origin, 600, "593 held", game.clock.now)
    game.tick()
    assert game.store.last_resolution("guess").period == 1
    assert [row.kind for row in game.store.outbox(game.bot.thread_id, ["pending"])].count("resolution") >= 1
    assert shown(game, key) == []
    game.clock.advance(minutes=11)
    game.tick()  # the report goes out, and with it the key
    assert game.store.outbox(game.bot.thread_id, ["pending"]) == []
    assert any(key in post.body for post in game.board.posts())
    assert "/games/guess/" in shown(game, key)
    game.close()


def test_the_next_periods_key_is_never_shown_before_its_period_ends(tmp_path: Path) -> None:
    game = played.guess(tmp_path)
    game.tick(minutes=1)
    game.clock.now = game.clock.now.replace(hour=21, minute=1)
    game.tick()
    assert shown(game, game.bot.setup.period_key(2).hex()) == []
    game.clock.now += timedelta(hours=1)
    game.tick()
    assert shown(game, game.bot.setup.period_key(3).hex()) == []
    game.close()

"""State is a fold of the log: every stored period snapshot computed again from the scenario, the
orders, the GM's log and the posts — the check that the snapshots are only a cache.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from engine import keys
from engine.referee.clocked import resolve
from engine.referee.game import Game, PostView
from engine.referee.posts import OPENING, apply_step, open_steps
from engine.ruleset import ImmediateRuleset


def refold(game: Game) -> dict[int, str]:
    """The state JSON of every resolved period (or step), folded from the start; the snapshots in the
    store are not read. Raises LookupError when a step's post is no longer in the thread's log."""
    last = game.book.last_resolution()
    stored = {period: game.book.resolution(period) for period in range(1, (last.period if last else 0) + 1)}
    for period in stored:
        game.book.delete_resolution(period)  # hidden from the fold; nothing is written
    ruleset = game.ruleset
    for period, row in stored.items():
        if isinstance(ruleset, ImmediateRuleset) and row.outbox_id == OPENING:
            open_steps(game, keys.day_of(datetime.fromisoformat(row.resolved_at)))
        elif isinstance(ruleset, ImmediateRuleset):
            post = _step_post(game, row.outbox_id)
            apply_step(game, ruleset, post, keys.day_of(post.date or game.now))
        else:
            resolve(game, period)
    return {period: game.book.resolution(period).state for period in stored}


def _step_post(game: Game, outbox_id: str) -> PostView:
    number = int(outbox_id.removeprefix("post/"))
    record = game.book.post(game.thread.id, number)
    if record is None:
        raise LookupError(f"the post of step {outbox_id} is not in thread {game.thread.id}")
    date = record.date
    if date is not None and date + timedelta(seconds=1) <= game.setup.joined:
        raise LookupError(f"post {number} predates the game")
    return PostView(record.number, record.name, record.trip, date, record.body)

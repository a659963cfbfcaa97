"""What an immediate game's step is handed by the pure referee: the post as every rule gets an order —
its number, line 0, the author as the player, the command and its canonical form, the post's own
date, whether the trip is a configured GM's and the board's ID — the same when the state is folded
again from the log (refold), so a rule that reads any of them folds to what the thread was told."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from engine.referee import Game, Ledger, PostView, refold
from engine.report import Report, line, report
from engine.rng import RandomSource
from engine.ruleset import ImmediateRuleset, Order, OrderText, Rejection
from tests.referee_harness import GM_TRIP, START, THREAD, PureGame, posted


class Ledgered(ImmediateRuleset):
    """帳簿: each 記帳 post is a step that writes down what the rules were handed."""

    ID = "ledgered"
    NAME = "帳簿"
    HELP = "記帳 内容"

    def parse_post(self, body: str) -> OrderText | Rejection | None:
        if not body.startswith("記帳"):
            return None
        words = body.removeprefix("記帳").split()
        return OrderText(tuple(words), "記帳 " + " ".join(words))

    def initial_state(self, scenario: Any) -> list[str]:
        return []

    def state_to_dict(self, state: list[str]) -> dict[str, Any]:
        return {"rows": state}

    def state_from_dict(self, data: dict[str, Any]) -> list[str]:
        return data["rows"]

    def apply(self, state: list[str], order: Order, source: RandomSource) -> tuple[list[str], Report]:
        written = order.written_at.isoformat() if order.written_at else None
        row = (
            f"{order.post}/{order.line} {order.author}→{order.player} {list(order.command)} "
            f"「{order.canonical}」 {written} gm={order.gm} id={order.author_id}"
        )
        return [*state, row], report(line(row))


def test_a_step_gets_the_post_as_an_order_and_the_fold_of_the_log_gets_the_same() -> None:
    game = PureGame("ledgered", "", ruleset=Ledgered())
    written = START + timedelta(seconds=30)
    posts = [
        PostView(2, "アリス", None, written, "記帳　りんご  ２", poster_id="Ab12Cd"),
        PostView(3, "GM", GM_TRIP, written, "記帳 締め"),
    ]
    game.number = 3
    decided = game.poll(posts, minutes=1)
    rows = [
        f"2/0 アリス→アリス ['りんご', '２'] 「記帳 りんご ２」 {written.isoformat()} gm=False id=Ab12Cd",
        f"3/0 GM◆{GM_TRIP}→GM◆{GM_TRIP} ['締め'] 「記帳 締め」 {written.isoformat()} gm=True id=None",
    ]
    (answer,) = posted(decided)
    assert answer.endswith(f"\n{rows[0]}\n\n>>3\n{rows[1]}")
    stored = {period: game.store.resolution("ledgered", period).state for period in (1, 2)}
    assert stored[2].endswith(f'{rows[0]}", "{rows[1]}"]}}')  # readable: the names as written
    # the fold, the next day, from the posts the store kept
    again = refold(Game(game.setup, THREAD, Ledger(game.store, "ledgered"), game.now + timedelta(days=1)))
    assert again == stored

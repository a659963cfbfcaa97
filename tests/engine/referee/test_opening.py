"""A game's opening post as the pure referee decides it. An immediate game's opening is posted before
any post is answered, with the dice of post 0 of the thread on today's key and the hash of the secret
dice's key, and is stored as step 1 (no orders, its state readable); a GM's 設定 written before a game
can open is in its opening. A game on the clock shows in its opening the table as the GM set it in
the same poll (DH: the map and the characters)."""

from __future__ import annotations

from typing import Any

from engine import keys
from engine.report import Report, heading, line, report
from engine.rng import RandomSource, SeededSource
from engine.ruleset import ImmediateRuleset, Order, OrderText, Rejection, Settable, Setting
from tests.referee_harness import GM_TRIP, START, THREAD, PureGame, posted

TODAY = keys.day_of(START)


class Draw(ImmediateRuleset, Settable):
    """くじ: opens (once a name is set) by drawing a public d100 and a secret d6 for that name;
    引く answers with the running count."""

    ID = "draw"
    NAME = "くじ"
    HELP = "引く"
    settings = (Setting("name", "くじを引く人"),)

    def parse_post(self, body: str) -> OrderText | Rejection | None:
        return OrderText("引く", "引く") if body == "引く" else None

    def read_scenario(self, text: str) -> dict[str, Any]:
        return {"name": text.strip()}

    def initial_state(self, scenario: Any) -> dict[str, Any]:
        return {"name": scenario.get("name", ""), "count": 0}

    def state_to_dict(self, state: dict[str, Any]) -> dict[str, Any]:
        return state

    def state_from_dict(self, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def set_value(self, state: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
        return {**state, path: value}

    def opening(self, state: dict[str, Any], source: RandomSource) -> tuple[dict[str, Any], Report] | None:
        if not state["name"]:
            return None  # nobody to draw for yet
        public, secret = source.stream("die").roll(100), source.stream("secret/die").roll(6)
        drawn = {**state, "public": public, "secret": secret}
        return drawn, report(heading("くじ 開始"), line(f"{state['name']}の出目 {public}"), kind="opening")

    def apply(
        self, state: dict[str, Any], order: Order, source: RandomSource
    ) -> tuple[dict[str, Any], Report]:
        count = state["count"] + 1
        return {**state, "count": count}, report(line(f"{count}回目"))


def drawn(name: str = "アリス") -> PureGame:
    return PureGame("draw", name, ruleset=Draw())


def opening_dice(day: str = TODAY) -> tuple[int, int]:
    """What post 0 of the thread rolls (what `threadgm verify` recomputes): the public d100 on the day's
    key, the secret d6 on the rules' secret key."""
    prefix = keys.purpose_prefix(THREAD.key, 0) + "rules/"
    public = SeededSource(keys.period_key(bytes(32), "draw", day)).stream(prefix + "die").roll(100)
    secret = SeededSource(keys.rules_secret(bytes(32), "draw")).stream(prefix + "secret/die").roll(6)
    return public, secret


def test_an_immediate_games_opening_goes_first_with_the_dice_of_post_0_and_the_secret_keys_hash() -> None:
    game = drawn()
    public, secret = opening_dice()
    commitment = keys.commitment(keys.rules_secret(bytes(32), "draw"))
    (text,) = posted(game.poll([game.post("引く", "ボブ")]))
    disclosure, opening, answer = text.split("\n\n")
    assert disclosure.startswith("【ダイス検証】")
    assert (
        opening == f"【くじ 開始】\nアリスの出目 {public}\n秘密のダイスの鍵のハッシュ(SHA-256): {commitment}"
    )
    assert answer.startswith(">>2\n1回目")  # the post is answered after the opening, as step 2
    first = game.store.resolution("draw", 1)
    assert (first.outbox_id, first.orders) == ("opening", 0)  # the opening is no one's order
    assert first.state == f'{{"name": "アリス", "count": 0, "public": {public}, "secret": {secret}}}'
    assert game.store.resolution("draw", 2).outbox_id == "post/2"
    assert posted(game.poll([game.post("引く", "ボブ")], minutes=1)) == [">>3\n2回目"]  # opened once


def test_a_gms_setting_before_the_game_could_open_is_in_its_opening() -> None:
    game = drawn("")
    first = game.poll([game.post("設定 name=ボブ", "GM", GM_TRIP)])
    assert not any("くじ 開始" in text for text in posted(first))  # nobody to draw for: no opening yet
    assert game.store.resolution("draw", 1) is None
    public, _ = opening_dice()
    (opening,) = posted(game.poll(minutes=1))
    assert opening.startswith(f"【くじ 開始】\nボブの出目 {public}\n")


def test_a_clocked_games_opening_shows_the_table_as_the_gm_set_it_in_the_same_poll() -> None:
    game = PureGame("dh")
    answers = posted(game.poll([game.post("設定 characters.会長.square=C5", "GM", GM_TRIP)]))
    (opening,) = [text for text in answers if text.startswith("【ダンゲロス・ハルマゲドン 開始】")]
    assert "\nC　□　□　□　■　会長　□　番長\n" in opening  # the map, 会長 where the GM put it
    assert "\n会長　生徒会　C5　10　7　5　3　-\n" in opening  # and the table of every character


def test_the_opening_folded_again_days_later_rolls_the_dice_of_the_day_it_opened() -> None:
    from datetime import timedelta

    from engine.referee import Game, Ledger, refold

    game = drawn()
    game.poll()
    stored = game.store.resolution("draw", 1).state
    for later in (timedelta(days=1), timedelta(days=40)):  # the refold check, verify's replay
        again = refold(Game(game.setup, THREAD, Ledger(game.store, "draw"), game.now + later))
        assert again == {1: stored}

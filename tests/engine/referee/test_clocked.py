"""A game on the clock, as the pure referee decides it (posts + log + time → decisions): the opening on
the first poll, reminders naming the late, a period closed early when every player is ready, each period
resolved once after its grace with its key and the next deadline, the players who sent nothing playing
the ruleset's default, and the end with the secret dice's key. The guess game (数当て) is the ruleset;
the texts are what the thread would read."""

from __future__ import annotations

from dataclasses import replace

from engine import referee
from engine.clock.schedule import parse_schedule
from engine.referee.ledger import Outgoing
from engine.report import Report, heading, report
from engine.rules import REGISTRY
from engine.ruleset import AssumesOrders, ClockedRuleset, OrderText
from store.changes import Log
from tests.referee_harness import GM_TRIP, SCHEDULE, START, THREAD, PureGame, posted

SCENARIO = 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 2\n'
ORDERS = "＜予想＞42 のように1～100の数をひとつ（最後の予想が有効）。取消 で取り消し。"
OPENING = f"""【数当て 開始】
更新: 1時間ごと（2026-12-01 21:00 から）
設定: 全2回で終了／1～100
参加: アリス、ボブ
{ORDERS}
ヘルプ と書くと命令の書き方を、ヘルプ全文 と書くとルール全文を返します
ピリオド1 締切 12/01 21:00 鍵のハッシュ(SHA-256): d6538dbdcdfcf7e1106eb3e620959a3748baee16a05d6b67fc77d44253fe4825
秘密のダイスの鍵のハッシュ(SHA-256): 10d39e5085e910831383f2ebc8301b3b814ebc514721b557b008ba0de5da616d"""
KEY_1 = "鍵 ピリオド1: 4e3ffa851ce19a39780da610455c281636e8b82727b247536a072886b89fa0be"
NEXT_2 = "次 ピリオド2 締切 12/01 22:00 鍵のハッシュ(SHA-256): 41dc68ad551702c7ce8fb9d98e8a9e1db09d79d2f044155c57a811af7992ac5e"


def guess(scenario: str = SCENARIO, **schedule: object) -> PureGame:
    game = PureGame("guess", scenario)
    game.setup = replace(game.setup, dice=False, schedule=parse_schedule(SCHEDULE | schedule))
    return game


def kinds(decided: referee.Decisions) -> list[str]:
    return [change.kind for change in decided.changes if isinstance(change, Outgoing)]


def logged(decided: referee.Decisions, kind: str) -> list[Log]:
    return [change for change in decided.changes if isinstance(change, Log) and change.kind == kind]


def test_the_first_poll_opens_the_game_once_and_the_clock_asks_for_the_deadline() -> None:
    game = guess()
    assert referee.next_event(game.setup, THREAD, game.store, START) == START  # not begun: at once
    opened = game.poll()
    assert posted(opened) == [OPENING] and kinds(opened) == ["opening"]
    assert [o.base for o in opened.changes if isinstance(o, Outgoing)] == ["guess/opening"]
    assert game.store.game_started("guess") == START
    # the grace (2 minutes) after the 21:00 deadline is when the period is due
    assert referee.next_event(game.setup, THREAD, game.store, game.now) == START.replace(hour=21, minute=2)
    assert posted(game.poll(minutes=1)) == []  # opened once


def test_the_late_are_reminded_by_name_once_per_reminder() -> None:
    game = guess(reminders=["30m", "10m"])
    game.poll()
    assert referee.next_event(game.setup, THREAD, game.store, game.now) == START.replace(minute=30)
    first = game.poll([game.post("＜予想＞40", "アリス")], minutes=31)
    reminder = "【締切のお知らせ ピリオド1】\n締切は 12/01 21:00 です\nまだ命令がない人: ボブ"
    assert posted(first)[1:] == [reminder] and kinds(first)[1:] == ["reminder"]
    assert [o.base for o in first.changes if isinstance(o, Outgoing)][1:] == [
        "guess/P1/remind/2026-12-01T20:30:00+09:00"
    ]
    assert [entry.args for entry in logged(first, "reminder")] == [{"at": "2026-12-01T20:30:00+09:00"}]
    assert logged(first, "reminder")[0].period == 1
    assert posted(game.poll(minutes=1)) == []  # the same reminder is not sent twice
    assert posted(game.poll(minutes=20)) == [reminder]  # 10 minutes before: the second one


def test_a_reminder_when_everyone_has_sent_is_logged_and_not_posted() -> None:
    game = guess(reminders=["30m"])
    game.poll()
    game.poll([game.post("＜予想＞40", "アリス"), game.post("＜予想＞41", "ボブ")], minutes=10)
    quiet = game.poll(minutes=21)
    assert posted(quiet) == [] and len(logged(quiet, "reminder")) == 1
    assert posted(game.poll(minutes=1)) == []


def test_a_period_resolves_once_after_its_grace_with_its_key_and_the_next_deadline() -> None:
    game = guess()
    game.poll()
    game.poll([game.post("＜予想＞40", "アリス")], minutes=30)
    assert posted(game.poll(minutes=31)) == []  # 21:01: in the grace, not yet
    resolved = game.poll(minutes=11)
    assert posted(resolved) == [
        "\n".join(
            [
                "【ピリオド1 更新】",
                "【数当て 第1回】",
                "目標の数: 86（1D100）",
                "アリス: 40（差 46）",
                "当たり: アリス",
                KEY_1,
                NEXT_2,
            ]
        )
    ]
    assert [o.base for o in resolved.changes if isinstance(o, Outgoing)] == ["guess/P1/0"]
    row = game.store.resolution("guess", 1)
    assert (row.outbox_id, row.orders, row.resolved_at) == ("guess/P1/0/0", 1, game.now.isoformat())
    assert posted(game.poll(minutes=5)) == []  # resolved once
    # the clock now asks for period 2's close (22:00 and its grace), not period 1's again
    assert referee.next_event(game.setup, THREAD, game.store, game.now) == START.replace(hour=22, minute=2)
    assert game.store.last_resolution("guess").period == 1


def test_every_player_ready_closes_the_period_at_once_and_the_last_period_ends_the_game() -> None:
    game = guess('players = ["アリス", "ボブ"]\nsides = 100\nrounds = 1\n')
    game.poll()
    alone = game.poll([game.post("＜予想＞40\n準備完了", "アリス")], minutes=50)
    assert logged(alone, "early") == [] and kinds(alone) == ["answer"]
    ended = game.poll([game.post("＜予想＞41\n準備完了", "ボブ")], minutes=1)
    assert [entry.args for entry in logged(ended, "early")] == [{"at": game.now.isoformat(), "why": "ready"}]
    assert kinds(ended) == ["answer", "resolution", "finish"]
    texts = posted(ended)
    assert texts[1].endswith("当たり: ボブ\n【優勝】ボブ（1点）\n" + KEY_1)  # no next period after the end
    assert texts[2] == (
        "【ゲーム終了】\n秘密のダイスの鍵: 6a4b613ee9c24805fec98fe7eb421a84319b39a836e85b9f11555632c20d3c55"
        "（最初に公開したハッシュと照合できます）"
    )
    assert [o.base for o in ended.changes if isinstance(o, Outgoing)][1:] == ["guess/P1/0", "guess/finished"]
    assert [o.reports[0].kind for o in ended.changes if isinstance(o, Outgoing)][1:] == [
        "resolution",
        "finish",
    ]
    assert game.store.game_status("guess") == "finished"
    assert kinds(game.poll(minutes=120)) == []  # nothing more is resolved, reminded or ended
    after = posted(game.poll([game.post("状態", "GM", GM_TRIP)], minutes=1))
    assert after == [
        ">>4\n【GM】数当て・ゲーム終了（ピリオド1まで）\n【数当て 第1回まで（全1回）】\n名前　点数\nボブ　1点\n【優勝】ボブ（1点）"
    ]


def test_ready_without_every_player_or_on_a_schedule_without_early_close_waits_for_the_deadline() -> None:
    late = guess(early=False)
    late.poll()
    both = [late.post("＜予想＞40\n準備完了", "アリス"), late.post("＜予想＞41\n準備完了", "ボブ")]
    assert kinds(late.poll(both, minutes=10)) == ["answer"]
    # a game without listed players has nobody whose readiness could close it
    anyone = guess("players = []\nsides = 100\nrounds = 1\n")
    anyone.poll()
    assert kinds(anyone.poll([anyone.post("＜予想＞40\n準備完了", "アリス")], minutes=10)) == ["answer"]


def test_a_ready_period_is_closed_early_once() -> None:
    game = guess()
    game.poll()
    both = [game.post("＜予想＞40\n準備完了", "アリス"), game.post("＜予想＞41\n準備完了", "ボブ")]
    assert len(logged(game.poll(both, minutes=10), "early")) == 1
    # period 2: nobody is ready yet, and period 1's readiness does not carry over
    assert logged(game.poll(minutes=1), "early") == []


class _Lazy(type(REGISTRY.get("guess")), AssumesOrders):  # type: ignore[misc]
    """The guess game with a default order: a player who sends nothing guesses 50."""

    def missing(self, state: object, player: str) -> OrderText | None:
        parsed = self.parse_line("＜予想＞50")
        assert isinstance(parsed, OrderText)
        return parsed


def test_a_player_who_sent_nothing_plays_the_rulesets_default_named_in_the_report() -> None:
    game = guess()
    game.setup = replace(game.setup, ruleset=_Lazy())
    game.poll()
    game.poll([game.post("＜予想＞40", "アリス")], minutes=30)
    text = posted(game.poll(minutes=45))[0]
    assert "ボブ: 50（差 36）" in text
    assert "命令がなかった人: ボブ（＜予想＞50）" in text
    assert game.store.resolution("guess", 1).orders == 2


def test_orders_cancelled_refused_and_ready_refused_are_each_said_in_the_receipt() -> None:
    game = guess()
    game.poll()
    game.poll([game.post("＜予想＞40", "アリス")], minutes=5)
    receipt = game.poll(
        [
            game.post("取消", "アリス"),
            game.post("＜予想＞abc", "ボブ"),
            game.post("＜予想＞30\n準備完了\n＜予想＞xx", "ボブ"),
        ],
        minutes=1,
    )
    assert posted(receipt) == [
        "【受付 ピリオド1（締切 12/01 21:00）】\n"
        ">>3 取消: ピリオド1の命令を取り消しました\n"
        ">>5 ＜予想＞30\n"
        "受け付けられなかった命令:\n"
        ">>4 ＜予想＞abc → 予想「abc」は数字（0～9）で書いてください（例：＜予想＞42）\n"
        ">>5 ＜予想＞xx → 予想「xx」は数字（0～9）で書いてください（例：＜予想＞42）\n"
        ">>5 準備完了 → 受け付けられなかった行があるため準備完了にしていません（直してからもう一度 準備完了 と書いてください）"
    ]
    statuses = {(o.post, o.canonical): (o.status, o.reason) for o in game.store.orders("guess")}
    assert statuses[(2, "＜予想＞40")] == ("cancelled", ">>3 取消")
    assert statuses[(5, "＜予想＞30")] == ("accepted", "")
    assert logged(receipt, "ready") == []  # 準備完了 with a refused line would close the period unfixed


def test_a_strangers_order_is_refused_at_the_receipt_by_the_rulesets_check() -> None:
    game = guess()
    game.poll()
    receipt = posted(
        game.poll([game.post("＜予想＞40", "アリス"), game.post("＜予想＞40", "カレン")], minutes=5)
    )
    assert receipt == [
        "【受付 ピリオド1（締切 12/01 21:00）】\n>>2 ＜予想＞40\n受け付けられなかった命令:\n"
        ">>3 ＜予想＞40 → カレンさんは参加者ではありません（参加者: アリス、ボブ）"
    ]
    stored = {o.player: (o.status, o.reason) for o in game.store.orders("guess")}
    assert stored["カレン"] == ("rejected", "カレンさんは参加者ではありません（参加者: アリス、ボブ）")
    assert stored["アリス"] == ("accepted", "")


class _Broken(type(REGISTRY.get("guess"))):  # type: ignore[misc]
    """The guess game whose resolution raises: a bug in a game's rules."""

    def resolve_timed(self, *args: object, **options: object) -> object:
        raise RuntimeError("boom")


HELD = (
    "【GM】ピリオド1の処理中に内部エラーが起きたため、更新を止めています。"
    "GMが 設定・巻き戻し・無効 のどれかをすると、もう一度処理します"
)


def test_a_failing_resolution_holds_its_period_tells_the_gm_once_and_is_retried_after_the_gms_change() -> (
    None
):
    game = guess()
    game.setup = replace(game.setup, ruleset=_Broken())
    game.poll()
    failed = game.poll([game.post("＜予想＞40", "アリス")], minutes=65)
    assert posted(failed)[1:] == [HELD]
    (held,) = logged(failed, "held")
    assert (held.args, held.period) == (
        {"what": "the resolution of period 1", "error": "RuntimeError: boom"},
        1,
    )
    told = [c for c in failed.changes if isinstance(c, Outgoing)][1]
    assert (told.base, told.kind, told.reports[0].kind) == ("guess/P1/held/0", "gm", "gm")
    assert game.store.resolution("guess", 1) is None
    assert kinds(game.poll(minutes=5)) == []  # held: not tried on every poll
    again = game.poll([game.post("設定 scores.アリス=1", "GM", GM_TRIP)], minutes=5)
    assert posted(again)[1:] == [HELD]  # tried once more after the GM's 設定, and told again
    assert [c.base for c in again.changes if isinstance(c, Outgoing)][1:] == ["guess/P1/held/1"]


def test_a_paused_game_resolves_reminds_and_closes_nothing_until_resumed() -> None:
    game = guess(reminders=["30m"])
    game.poll()
    game.poll([game.post("停止", "GM", GM_TRIP)], minutes=1)
    both = [game.post("＜予想＞40\n準備完了", "アリス"), game.post("＜予想＞41\n準備完了", "ボブ")]
    quiet = game.poll(both, minutes=40)  # past the reminder, everyone ready
    assert kinds(quiet) == ["answer"] and logged(quiet, "reminder") == [] and logged(quiet, "early") == []
    assert kinds(game.poll(minutes=120)) == []  # past the deadline: nothing resolved
    resumed = game.poll([game.post("再開", "GM", GM_TRIP)], minutes=1)
    # resumed: the deadline moved by the pause, and the players' readiness closes the period at once
    assert posted(resumed)[0] == ">>5\n【GM】再開しました（ピリオド1の締切 12/01 23:41）"
    assert kinds(resumed) == ["answer", "resolution"] and len(logged(resumed, "early")) == 1


class _BrokenOpening(type(REGISTRY.get("guess"))):  # type: ignore[misc]
    """The guess game whose opening cannot be written (a bug in a game's rules)."""

    def rules_in_force(self, state: object) -> object:
        raise RuntimeError("no rules")


def test_a_failing_opening_holds_period_one_and_a_players_post_does_not_lift_the_hold() -> None:
    game = guess()
    game.setup = replace(game.setup, ruleset=_BrokenOpening())
    opened = game.poll()
    (held,) = logged(opened, "held")
    assert (held.args["what"], held.args["error"], held.period) == (
        "the clock of period 1",
        "RuntimeError: no rules",
        1,
    )
    assert posted(opened) == [HELD]
    assert game.store.game_started("guess") is None  # the failed opening left nothing behind
    later = game.poll([game.post("ヘルプ", "アリス"), game.post("停止", "ボブ")], minutes=5)
    assert logged(later, "held") == [] and HELD not in posted(later)  # logged entries of others lift nothing


class _Coin(ClockedRuleset):
    """コイン: a game on the clock with nothing to show beyond its order forms (not ShowsOpening)."""

    ID = "coin"
    NAME = "コイン"
    HELP = "＜コイン＞表 か ＜コイン＞裏"

    def initial_state(self, scenario: object) -> dict:
        return {"flips": 0}

    def state_to_dict(self, state: dict) -> dict:
        return state

    def state_from_dict(self, data: dict) -> dict:
        return data

    def parse_line(self, text: str) -> OrderText | None:
        return OrderText(text[5:], text) if text in ("＜コイン＞表", "＜コイン＞裏") else None

    def resolve(self, state: dict, orders: object, source: object) -> tuple[dict, Report]:
        return {"flips": state["flips"] + 1}, report(heading("コイン"), kind="resolution")


def test_a_game_on_the_clock_with_nothing_more_to_show_opens_with_its_order_forms() -> None:
    game = PureGame("coin", "", ruleset=_Coin())
    game.setup = replace(game.setup, dice=False)
    (opening,) = posted(game.poll())
    assert opening.split("\n")[:4] == [
        "【コイン 開始】",
        "更新: 1時間ごと（2026-12-01 21:00 から）",
        "＜コイン＞表 か ＜コイン＞裏",
        "ヘルプ と書くと命令の書き方を、ヘルプ全文 と書くとルール全文を返します",
    ]
    assert game.store.game_started("coin") == START

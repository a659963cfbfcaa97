"""Periods on the clock, with the tiny 数当て ruleset on the local board; time is injected into
both the board (post dates) and the bot, so deadlines, grace, reminders and early ends are walked
through without sleeping."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from engine.keys import JST
from engine.rules import REGISTRY
from scheduler import BotConfig, GameConfig, ThreadBot
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard

GM = "GM#threadgm-test-key"
GM_TRIP = "SyRJNUqZWYMT"
START = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
SCHEDULE = {
    "interval": "1h",
    "anchor": "2026-12-01 21:00",
    "grace": "2m",
    "reminders": ["30m"],
    "early": True,
}


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def at(self, hhmmss: str, day: int = 1) -> None:
        hour, minute, second = (int(x) for x in hhmmss.split(":"))
        moment = datetime(2026, 12, day, hour, minute, second, tzinfo=JST)
        assert moment >= self.now, "time only moves forward"
        self.now = moment


class Game:
    def __init__(self, tmp_path: Path, **options: object) -> None:
        self.clock = Clock()
        self.board = LocalBoard.start(tmp_path / "board", clock=self.clock, title="数当てスレ")
        scenario = tmp_path / "guess.toml"
        scenario.write_text('players = ["アリス", "ボブ"]\n', "utf-8")
        self.config = GameConfig(
            "guess",
            "guess",
            self.board.url(),
            scenario=scenario,
            schedule=options.pop("schedule", SCHEDULE),
            gm_trips=(GM_TRIP,),
            dice=False,
            **options,
        )
        self.store = Store(tmp_path / "bot.sqlite")
        self.bot_config = BotConfig(name=BOT_NAME)
        self.bot = ThreadBot(
            self.config, self.bot_config, self.store, make_session(), self.clock, registry=REGISTRY
        )

    def post(self, text: str, name: str = "アリス") -> int:
        return self.board.post(text, name=name)

    def tick(self, at: str | None = None, day: int = 1):
        if at is not None:
            self.clock.at(at, day)
        return self.bot.tick()

    def bot_posts(self) -> list[str]:
        return [p.body for p in self.board.posts() if p.trip == BOT_TRIP]

    def last(self) -> str:
        return self.bot_posts()[-1]

    def close(self) -> None:
        self.board.close()
        self.store.close()


@pytest.fixture
def game(tmp_path: Path):
    running = Game(tmp_path)
    yield running
    running.close()


def test_a_period_walked_through_deadline_grace_reminder_and_late_orders(game: Game) -> None:
    game.tick()
    opening = game.last()
    assert opening.startswith("【数当て 開始】") and "ピリオド1 締切 12/01 21:00" in opening
    assert re.search(r"鍵のハッシュ\(SHA-256\): [0-9a-f]{64}", opening)

    game.clock.at("20:10:00")
    first = game.post("＜予想＞42")
    second = game.post("気が変わった\n＜予想＞50")
    bad = game.post("＜予想＞たくさん", name="ボブ")
    game.tick()
    receipt = game.last()
    assert receipt.startswith("【受付 ピリオド1（締切 12/01 21:00）】")
    assert f">>{first} ＜予想＞42" in receipt and f">>{second} ＜予想＞50" in receipt
    assert f">>{bad} ＜予想＞たくさん → 予想「たくさん」は数字（0～9）で書いてください（例：＜予想＞42）" in receipt

    game.tick("20:31:00")
    assert game.last().startswith("【締切のお知らせ ピリオド1】") and "まだ命令がない人: ボブ" in game.last()
    game.tick("20:40:00")
    assert sum("締切のお知らせ" in body for body in game.bot_posts()) == 1  # never repeated

    game.clock.at("20:59:59")
    in_time = game.post("＜予想＞7", name="ボブ")  # written before the deadline...
    game.clock.at("21:00:30")
    late = game.post("＜予想＞99", name="ボブ")  # ...and one after it
    game.tick("21:01:00")  # both read within the grace: only the first is for period 1
    receipt = game.last()
    assert f">>{in_time} ＜予想＞7\n" in receipt + "\n" and f">>{late} ＜予想＞99（ピリオド2分）" in receipt
    assert not any("ピリオド1 更新" in body for body in game.bot_posts())  # the grace is not over

    game.tick("21:02:00")
    report = game.last()
    assert report.startswith("【ピリオド1 更新】\n【数当て 第1回】")
    target = int(re.search(r"目標の数: (\d+)（1D100）", report)[1])
    guesses = [line for line in report.split("\n") if re.match(r"^(アリス|ボブ): \d+（差", line)]
    assert [g.split("（")[0] for g in guesses] == ["アリス: 50", "ボブ: 7"]  # the last guess of each, in time
    assert re.search(r"鍵 ピリオド1: [0-9a-f]{64}", report)
    assert "次 ピリオド2 締切 12/01 22:00 鍵のハッシュ(SHA-256):" in report
    winner = (
        "アリス"
        if abs(50 - target) < abs(7 - target)
        else "ボブ"
        if abs(7 - target) < abs(50 - target)
        else "アリス、ボブ"
    )
    assert f"当たり: {winner}" in report


def test_the_period_key_is_committed_before_and_revealed_after(game: Game) -> None:
    import hashlib

    game.tick()
    committed = re.search(r"鍵のハッシュ\(SHA-256\): ([0-9a-f]{64})", game.last())[1]
    game.clock.at("20:30:00")
    game.post("＜予想＞10")
    game.tick("21:03:00")
    report = game.bot_posts()[-1]
    key = re.search(r"鍵 ピリオド1: ([0-9a-f]{64})", report)[1]
    assert hashlib.sha256(bytes.fromhex(key)).hexdigest() == committed
    # the target is the first d100 of the stream "guess/target" under that key
    from engine.rng import SeededDice

    target = SeededDice(bytes.fromhex(key), "guess/target").roll(100)
    assert f"目標の数: {target}（1D100）" in report


def test_cancel_and_early_resolution_when_everyone_is_ready(game: Game) -> None:
    game.tick()
    game.clock.at("20:05:00")
    game.post("＜予想＞30")
    cancel = game.post("取消")
    game.post("＜予想＞60", name="ボブ")
    game.tick()
    assert f">>{cancel} 取消: ピリオド1の命令を取り消しました" in game.last()
    game.clock.at("20:06:00")
    game.post("準備完了")
    game.tick()
    assert not any("ピリオド1 更新" in body for body in game.bot_posts())  # ボブ is not ready yet
    game.clock.at("20:07:00")
    game.post("準備完了", name="ボブ")
    game.tick()
    report = game.last()
    assert report.startswith("【ピリオド1 更新】") and "ボブ: 60" in report and "アリス:" not in report
    assert "ピリオド2 締切 12/01 21:00" in report  # the next period runs to the next regular boundary


def test_missing_orders_follow_the_rulesets_policy(game: Game) -> None:
    game.tick()
    game.tick("21:02:00")
    report = game.last()
    assert report.startswith("【ピリオド1 更新】") and "予想はありませんでした" in report
    assert "命令がなかった人" not in report  # 数当て assumes nothing for a player who sent nothing


def test_catch_up_after_downtime_resolves_each_period_once(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    game.post("＜予想＞5")
    game.tick("23:30:00")  # down across three deadlines
    reports = [body for body in game.bot_posts() if "更新】" in body]
    assert [re.match(r"【ピリオド(\d+) 更新】", r)[1] for r in reports] == ["1", "2", "3"]
    game.tick("23:31:00")
    assert len([body for body in game.bot_posts() if "更新】" in body]) == 3


def gm_echo(game: Game) -> str:
    return next(body for body in reversed(game.bot_posts()) if "【GM】" in body)


def test_gm_pause_resume_extend_and_resolve_now(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    game.post("停止", name=GM)
    game.tick()
    assert "【GM】停止しました" in gm_echo(game)
    game.tick("21:10:00")
    assert not any("更新】" in body for body in game.bot_posts())  # the clock is stopped
    game.clock.at("21:20:00")
    game.post("再開", name=GM)
    game.tick()
    assert "【GM】再開しました（ピリオド1の締切 12/01 22:10）" in gm_echo(game)  # 70 minutes paused
    game.clock.at("21:30:00")
    game.post("延長 30分", name=GM)
    game.tick()
    assert "延長しました（ピリオド1の締切 12/01 22:40）" in gm_echo(game)
    game.tick("22:20:00")
    assert not any("更新】" in body for body in game.bot_posts())
    game.clock.at("22:21:00")
    game.post("即時更新", name=GM)
    game.tick()
    (update,) = [body for body in game.bot_posts() if body.startswith("【ピリオド1 更新】")]
    assert "次 ピリオド2 締切 12/01 23:00" in update  # back on the hourly schedule after the pause
    audit = [entry.kind for entry in game.store.log_entries("guess")]
    assert audit.count("gm") == 4 and {"pause", "resume", "extend", "early"} <= set(audit)


def test_void_rollback_and_redo_give_the_recorded_result_when_nothing_changed(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    game.post("＜予想＞40")
    spoiler = game.post("＜予想＞41", name="ボブ")
    game.tick("21:02:00")
    original = game.last()
    game.clock.at("21:05:00")
    game.post("巻き戻し", name=GM)
    game.tick()
    again = game.last()
    assert again.startswith("【ピリオド1 更新（再処理）】")
    assert again.split("\n", 1)[1] == original.split("\n", 1)[1]  # the same dice, the same result
    game.clock.at("21:06:00")
    game.post(f"無効 >>{spoiler}\n巻き戻し 保留", name=GM)
    game.tick()
    echo = gm_echo(game)
    assert (
        f"無効にしました: >>{spoiler}（命令 1 件）。ピリオド1は処理済みです" in echo and "停止中です" in echo
    )
    game.clock.at("21:07:00")
    game.post("再開", name=GM)
    game.tick()
    redone = game.last()
    assert redone.startswith("【ピリオド1 更新（再処理）】") and "ボブ" not in redone.split("\n鍵")[0]


def test_gm_set_and_status(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    game.post("設定 scores.アリス=5\n状態", name=GM)
    game.tick()
    echo = gm_echo(game)
    assert "【GM】設定しました: scores.アリス=5（ピリオド1から）" in echo
    assert "【GM】ピリオド1・締切 12/01 21:00・未提出: アリス、ボブ" in echo
    game.clock.at("20:11:00")
    game.post("設定 level=9", name=GM)
    game.tick()
    assert "設定できません: level" in gm_echo(game)
    game.tick("21:02:00")
    game.clock.at("21:03:00")
    game.post("状態", name=GM)
    game.tick()
    assert "アリス　5点" in gm_echo(game)


def test_a_players_orders_count_although_the_post_also_holds_gm_looking_lines(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    number = game.post("停止\n＜予想＞40", name="アリス")  # not a GM: the 停止 is refused, the order taken
    game.tick()
    receipt = next(body for body in game.bot_posts() if body.startswith("【受付"))
    assert f">>{number} ＜予想＞40" in receipt
    assert any("GMのトリップではないため" in body for body in game.bot_posts())
    assert [o.canonical for o in game.store.orders("guess", 1, ["accepted"])] == ["＜予想＞40"]


def test_spoofed_gm_posts_are_refused_once_per_poster_per_period(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    typed = game.post("停止", name="GM◆SyRJNUqZWYMT")  # a typed ◆ becomes ◇: no trip
    game.post("停止", name="GM#wrong-key")
    game.post("即時更新", name="GM◆SyRJNUqZWYMT")  # the same poster again: no second answer
    game.post(">停止\n>>1 停止して", name="ボブ")  # quoted: not a command at all
    game.tick()
    refusals = [body for body in game.bot_posts() if "GMのトリップではないため" in body]
    assert len(refusals) == 1 and refusals[0].count("GMのトリップではないため") == 2
    assert f">>{typed}\n" in refusals[0] + "\n"
    assert game.store.game_status("guess") == "running"
    game.tick("21:02:00")
    assert any(body.startswith("【ピリオド1 更新】") for body in game.bot_posts())


def test_the_opening_teaches_the_game_and_help_answers_in_the_thread(game: Game) -> None:
    game.tick()
    opening = game.bot_posts()[0]
    assert "参加: アリス、ボブ" in opening and "＜予想＞42 のように" in opening
    assert "ヘルプ と書くと命令の書き方を" in opening
    game.clock.at("20:10:00")
    first = game.post("ヘルプ")
    game.post("ヘルプ")  # the same poster again in the period: no second answer
    full = game.post("ヘルプ全文", name="ボブ")
    game.tick()
    answers = "\n".join(game.bot_posts()[1:])
    assert f">>{first}\n【数当て ヘルプ】\n＜予想＞42 のように" in answers
    assert answers.count("【数当て ヘルプ】") == 1
    assert f">>{full}\n【数当て】\n各ピリオドに" in answers  # the whole HELP


def test_a_flood_of_names_gets_a_few_refusals_a_period_not_one_each(game: Game) -> None:
    game.tick()
    game.clock.at("20:10:00")
    for n in range(8):
        game.post("停止", name=f"名無し{n}#key{n}")  # eight writers with eight trips
    game.tick()
    refusals = sum(body.count("GMのトリップではないため") for body in game.bot_posts())
    assert refusals == 3  # MAX_REFUSALS a period, whoever asks


def test_resolve_now_read_in_the_poll_that_opens_the_game(game: Game) -> None:
    game.clock.at("20:10:00")
    game.post("即時更新", name=GM)  # before the bot has opened the game
    game.tick()
    posts = "\n".join(game.bot_posts())
    assert "更新時刻がありません" not in posts
    assert "【GM】ピリオド1を即時更新します" in posts
    assert any(body.startswith("【ピリオド1 更新】") for body in game.bot_posts())

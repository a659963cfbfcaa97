"""The naval game of seed 002 played by the bot on the local board through the periods machinery:
orders posted in the forms players type, the receipt with its rejections, the update at the boundary
with every island's random numbers, a carrier's fighters evacuated the period after it was lost, and
`threadgm verify` recomputing the published numbers from the published keys. Time is injected into
both the board (post dates) and the bot."""

from __future__ import annotations

import hashlib
import re
import shutil
import tomllib
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from board.tripcode import name_and_trip
from engine.keys import JST
from engine.rng import SeededDice
from engine.rules import REGISTRY
from engine.rules.naval.resolution import attacker_wins
from scheduler import BotConfig, GameConfig, ThreadBot, main
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.conftest import FIXTURES

SCENARIO = FIXTURES / "naval" / "bot_game.toml"
ALICE = "アリス#alice-key"  # ABC's player (name and trip in the scenario)
BOB = "ボブ#bob-key"  # XYZ's player (trip only in the scenario)
GM = "GM#threadgm-test-key"
GM_TRIP = "SyRJNUqZWYMT"
NAME = "海戦ルール（TRPG戦闘処理）"
ISLANDS = ("ABC", "XYZ", "DEF", "GHI")
SCHEDULE = {"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "2m", "reminders": ["30m"]}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 20, 0, tzinfo=JST)

    def __call__(self) -> datetime:
        return self.now

    def at(self, hhmmss: str) -> None:
        hour, minute, second = (int(x) for x in hhmmss.split(":"))
        moment = datetime(2026, 12, 1, hour, minute, second, tzinfo=JST)
        assert moment >= self.now, "time only moves forward"
        self.now = moment


class Game:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.clock = Clock()
        self.board = LocalBoard.start(tmp_path / "board", clock=self.clock, title="海戦スレ")
        config = GameConfig(
            "naval",
            "naval",
            self.board.url(),
            scenario=SCENARIO,
            schedule=SCHEDULE,
            gm_trips=(GM_TRIP,),
            dice=False,
            seed="naval-e2e",
        )
        self.store = Store(tmp_path / "bot.sqlite")
        self.bot = ThreadBot(config, BotConfig(name=BOT_NAME), self.store, make_session(), self.clock, registry=REGISTRY)

    def post(self, at: str, text: str, name: str) -> int:
        self.clock.at(at)
        return self.board.post(text, name=name)

    def tick(self, at: str | None = None) -> None:
        if at is not None:
            self.clock.at(at)
        self.bot.tick()

    def bot_posts(self) -> list[str]:
        return [p.body for p in self.board.posts() if p.trip == BOT_TRIP]

    def last(self) -> str:
        return self.bot_posts()[-1]

    def saved_dat(self) -> Path:
        copy = self.tmp_path / f"{self.board.key}.dat"
        shutil.copy(self.board.data / "test" / "dat" / f"{self.board.key}.dat", copy)
        return copy

    def close(self) -> None:
        self.board.close()
        self.store.close()


def published_randoms(report: str) -> dict[str, list[int]]:
    lines = report.split("\n")
    start = lines.index("【乱数】")
    assert lines[start + 1].split("　") == ["島", "A", "B", "C", "D", "E", "F"]
    rows = {}
    for row in lines[start + 2 :]:
        if row.startswith("【"):
            break
        island, *values = row.split("　")
        rows[island] = [int(value) for value in values]
    return rows


def faces(key: bytes, island: str, count: int = 6) -> list[int]:
    dice = SeededDice(key, f"naval/{island}")
    return [dice.roll(100) for _ in range(count)]


def order_line(report: str, number: int) -> str:
    return next(line for line in report.split("\n") if re.match(rf"^>>\d+ {number}\.", line))


def verify(*args: str):
    return CliRunner().invoke(main, ["verify", *args])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """Two periods of the game; the posts' numbers, the bot's posts after each step."""
    game = Game(tmp_path_factory.mktemp("naval"))
    seen: dict[str, object] = {}
    game.tick()
    seen["opening"] = game.last()

    seen["duel"] = game.post("20:10:00", "撃ちます\n＜攻撃＞ABC-DD-A-01，XYZ-DD-X-02", ALICE)
    seen["bad"] = game.post("20:13:00", "＜攻撃＞ABC-DD-A-01\n＜攻撃＞ABC-DD-A-09、XYZ-DD-X-02", ALICE)
    seen["foreign"] = game.post("20:14:00", "＜移動＞ABC-DD-A-01、(4,3)", BOB)
    game.tick("20:15:00")
    seen["receipt1"] = game.last()
    game.tick("20:31:00")
    seen["reminder"] = game.last()
    seen["sink"] = game.post("20:40:00", "<攻撃>XYZ-DD-X-01、ABC-CV-A-01", "ボブ改名#bob-key")
    seen["flee"] = game.post("20:41:00", "逃げる\n＜移動＞ ＡＢＣ－ＣＶ－Ａ－０１ (8,4)", ALICE)
    game.tick("20:42:00")
    seen["receipt2"] = game.last()
    seen["late"] = game.post("21:00:30", "＜移動＞XYZ-DD-X-01 (8,4)", BOB)
    game.tick("21:01:00")
    seen["receipt_late"] = game.last()
    game.tick("21:02:00")
    seen["report1"] = game.last()

    seen["evacuate"] = game.post(
        "21:10:00",
        "＜移動＞ABC-F-A-01、ABC-CV-A-02\n＜移動＞ABC-F-A-02 DEF\n＜移動＞ABC-F-A-03、ABC-CV-A-02",
        ALICE,
    )
    seen["intercept"] = game.post("21:11:00", "＜インターセプト＞XYZ-F-X-01、ABC-F-A-01", BOB)
    seen["status"] = game.post("21:12:00", "状態", GM)
    game.tick("21:13:00")
    seen["status_echo"] = next(body for body in reversed(game.bot_posts()) if "【GM】" in body)
    game.tick("22:02:00")
    seen["report2"] = game.last()
    seen["too_late"] = game.post("22:10:00", "＜移動＞ABC-F-A-03、ABC-CV-A-02", ALICE)
    game.tick("22:11:00")
    seen["receipt3"] = game.last()
    yield game, seen
    game.close()


def test_the_scenario_names_the_players_by_the_trips_of_their_keys() -> None:
    islands = {i["code"]: i.get("players", []) for i in tomllib.loads(SCENARIO.read_text("utf-8"))["islands"]}
    assert islands["ABC"] == ["アリス◆" + name_and_trip(ALICE)[1]]
    assert islands["XYZ"] == ["◆" + name_and_trip(BOB)[1]]


def test_the_opening_commits_to_the_first_period_key(played) -> None:
    _, seen = played
    opening = seen["opening"]
    assert opening.startswith(f"【{NAME} 開始】") and "ピリオド1 締切 12/01 21:00" in opening
    assert "設定: 乱数 島ごとに6個／" in opening and "1ユニットの命令は1ピリオド1回まで（無効は数えない）" in opening
    assert re.search(r"鍵のハッシュ\(SHA-256\): [0-9a-f]{64}", opening)


def test_the_receipt_takes_the_forms_players_type_and_says_why_it_refuses(played) -> None:
    _, seen = played
    receipt = seen["receipt1"]
    assert receipt.startswith("【受付 ピリオド1（締切 12/01 21:00）】")
    assert f">>{seen['duel']} ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02" in receipt  # full-width comma
    rejected = receipt.split("受け付けられなかった命令:")[1]
    bad = seen["bad"]
    assert (
        f">>{bad} ＜攻撃＞ABC-DD-A-01 → 攻撃命令を与えるユニットと攻撃目標ユニットを「、」で区切って2つ"
        in rejected
    )
    assert f">>{bad} ＜攻撃＞ABC-DD-A-09、XYZ-DD-X-02 → ユニットABC-DD-A-09は存在しません" in rejected
    bob = "ボブ◆" + name_and_trip(BOB)[1]
    assert (
        f">>{seen['foreign']} ＜移動＞ABC-DD-A-01、(4,3) → {bob}はABC島のプレイヤーではないため、"
        "ABC島のユニットには命令できません" in rejected
    )
    assert "＜移動＞ABC-DD-A-01、(4,3)" not in receipt.split("受け付けられなかった命令:")[0]


def test_the_reminder_names_the_islands_without_orders(played) -> None:
    _, seen = played
    assert seen["reminder"].startswith("【締切のお知らせ ピリオド1】")
    assert "まだ命令がない人: XYZ" in seen["reminder"]


def test_an_islands_player_is_known_by_the_trip_whatever_the_name(played) -> None:
    _, seen = played
    assert f">>{seen['sink']} ＜攻撃＞XYZ-DD-X-01、ABC-CV-A-01" in seen["receipt2"]  # half-width brackets
    assert f">>{seen['flee']} ＜移動＞ABC-CV-A-01、(8,4)" in seen["receipt2"]  # full-width id, spaces
    assert "受け付けられなかった" not in seen["receipt2"]


def test_an_order_after_the_deadline_is_for_the_next_period(played) -> None:
    _, seen = played
    assert f">>{seen['late']} ＜移動＞XYZ-DD-X-01、(8,4)（ピリオド2分）" in seen["receipt_late"]
    assert "＜移動＞XYZ-DD-X-01" not in seen["report1"]


def test_the_update_publishes_every_islands_numbers_drawn_from_the_period_key(played) -> None:
    _, seen = played
    report = seen["report1"]
    assert report.startswith("【ピリオド1 更新】\n【海戦処理 第1ピリオド】")
    key = bytes.fromhex(re.search(r"^鍵 ピリオド1: ([0-9a-f]{64})$", report, re.MULTILINE)[1])
    committed = re.search(r"鍵のハッシュ\(SHA-256\): ([0-9a-f]{64})", seen["opening"])[1]
    assert hashlib.sha256(key).hexdigest() == committed
    assert published_randoms(report) == {island: faces(key, island) for island in ISLANDS}
    assert "次 ピリオド2 締切 12/01 22:00 鍵のハッシュ(SHA-256):" in report


def test_one_line_per_order_with_its_number_or_why_and_the_result(played) -> None:
    _, seen = played
    report = seen["report1"]
    key = bytes.fromhex(re.search(r"^鍵 ピリオド1: ([0-9a-f]{64})$", report, re.MULTILINE)[1])
    a = faces(key, "ABC")[0]
    duel = order_line(report, 1)
    assert duel.startswith(f">>{seen['duel']} 1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02 → [ABC]の乱数A（")
    assert f"乱数{a}" in duel
    won = attacker_wins(10, 5, a)
    assert duel.endswith(
        "ABC-DD-A-01勝利（XYZ-DD-X-02消滅）" if won else "ABC-DD-A-01敗戦・消滅（XYZ-DD-X-02勝利）"
    )
    sink = order_line(report, 2)
    assert sink == (
        f">>{seen['sink']} 2.XYZ:＜攻撃＞XYZ-DD-X-01、ABC-CV-A-01 → "
        "強制敗戦A：攻撃対象のABC-CV-A-01が3番目で＜移動＞を入力したためABC-CV-A-01の敗戦 → "
        "XYZ-DD-X-01勝利（ABC-CV-A-01消滅）"
    )
    flee = order_line(report, 3)
    assert flee == (
        f">>{seen['flee']} 3.ABC:＜移動＞ABC-CV-A-01、(8,4) → "
        "強制敗戦A：2番目の＜攻撃＞の攻撃対象となっていたため＜移動＞は無効"
    )
    assert "【艦載機】\n空母ABC-CV-A-01喪失（2番目）：艦載機4機" in report
    assert not re.search(r"^>>\d+ 4\.", report, re.MULTILINE)  # rejected orders never reach the update


def test_the_gm_status_shows_the_stranded_fighters(played) -> None:
    _, seen = played
    echo = seen["status_echo"]
    assert "【GM】ピリオド2・締切 12/01 22:00" in echo
    assert "ABC-F-A-01　戦闘機　取り残し(7,4)" in echo
    assert (
        "退避待ち: 空母ABC-CV-A-01の艦載機ABC-F-A-01、ABC-F-A-02、ABC-F-A-03、ABC-F-A-04（ピリオド2に2機まで）"
        in echo
    )


def test_the_next_period_evacuates_half_the_fighters_of_the_lost_carrier(played) -> None:
    _, seen = played
    report = seen["report2"]
    assert report.startswith("【ピリオド2 更新】\n【海戦処理 第2ピリオド】")
    key = bytes.fromhex(re.search(r"^鍵 ピリオド2: ([0-9a-f]{64})$", report, re.MULTILINE)[1])
    assert published_randoms(report) == {island: faces(key, island) for island in ISLANDS}
    assert (
        order_line(report, 1)
        == f">>{seen['late']} 1.XYZ:＜移動＞XYZ-DD-X-01、(8,4) → 移動：XYZ-DD-X-01は(8,4)へ移動"
    )
    evacuate = seen["evacuate"]
    assert order_line(report, 2) == (
        f">>{evacuate} 2.ABC:＜移動＞ABC-F-A-01、ABC-CV-A-02 → "
        "移動：ABC-F-A-01はABC-CV-A-02へ退避（1/2機目）、5番目の＜インターセプト＞を受ける"
    )
    assert (
        order_line(report, 3)
        == f">>{evacuate} 3.ABC:＜移動＞ABC-F-A-02、DEF → 移動：ABC-F-A-02はDEFへ退避（2/2機目）"
    )
    assert order_line(report, 4).endswith("無効：ABC-CV-A-01の艦載機が退避できるのは半数の2機までです")
    x = faces(key, "XYZ")[0]
    intercept = order_line(report, 5)
    assert intercept.startswith(
        f">>{seen['intercept']} 5.XYZ:＜インターセプト＞XYZ-F-X-01、ABC-F-A-01 → [XYZ]の乱数A（"
    )
    assert f"乱数{x}" in intercept
    won = attacker_wins(7, 6, x)
    assert intercept.endswith(
        "XYZ-F-X-01勝利（ABC-F-A-01消滅）" if won else "XYZ-F-X-01敗戦・消滅（ABC-F-A-01勝利）"
    )
    assert "空母ABC-CV-A-01の艦載機ABC-F-A-03、ABC-F-A-04は退避できず喪失" in report


def test_fighters_left_behind_are_gone_after_the_period_that_allowed_their_evacuation(played) -> None:
    _, seen = played
    receipt = seen["receipt3"]
    assert receipt.startswith("【受付 ピリオド3")
    assert (
        f">>{seen['too_late']} ＜移動＞ABC-F-A-03、ABC-CV-A-02 → ユニットABC-F-A-03は存在しません" in receipt
    )


def test_verify_recomputes_every_period_from_the_url_and_a_saved_dat(played) -> None:
    game, _ = played
    for source in (game.board.url(), str(game.saved_dat())):
        result = verify(source)
        assert result.exit_code == 0, result.output
        assert f"ボット: ◆{BOT_TRIP}" in result.output and f"ゲーム: {NAME}" in result.output
        assert "ピリオド 2 件の結果を再計算: 一致 2 件、不一致 0 件" in result.output
        assert "結果: すべて一致しました" in result.output
    explicit = verify(game.board.url(), "--rules", "naval")
    assert explicit.exit_code == 0 and "一致 2 件" in explicit.output


def test_verify_catches_a_changed_number_and_a_changed_key(played) -> None:
    game, _ = played
    dat = game.saved_dat()
    text = dat.read_bytes().decode("cp932")
    row = re.search(r"<br>XYZ　((?:\d+　){5})(\d+)<br>", text)
    forged = f"<br>XYZ　{row[1]}{int(row[2]) % 100 + 1}<br>"
    dat.write_bytes(text.replace(row[0], forged, 1).encode("cp932"))
    result = verify(str(dat))
    assert result.exit_code == 1
    assert re.search(
        rf"問題: ピリオド1 \(>>\d+\): \[XYZ\]の乱数Fが再計算と一致しません（投稿: {int(row[2]) % 100 + 1} ／ 再計算: {row[2]}）",
        result.output,
    )
    assert "ピリオド 2 件の結果を再計算: 一致 1 件、不一致 1 件" in result.output

    dat = game.saved_dat()
    text = dat.read_bytes().decode("cp932")
    key = re.search(r"鍵 ピリオド2: ([0-9a-f]{64})", text)[1]
    dat.write_bytes(text.replace(key, "0" * 64).encode("cp932"))
    result = verify(str(dat))
    assert result.exit_code == 1
    assert re.search(r"ピリオド2 \(>>\d+\) の鍵が >>\d+ で公開したハッシュと一致しません", result.output)


def test_the_period_ends_early_when_every_islands_player_is_ready(tmp_path: Path) -> None:
    game = Game(tmp_path)
    try:
        schedule = game.bot.setup.schedule
        early = type(schedule)(**{**schedule.__dict__, "early": True})
        game.bot.setup = replace(game.bot.setup, schedule=early)
        game.tick()
        game.post("20:05:00", "準備完了", ALICE)  # ABC is ready: XYZ is not yet
        game.tick()
        assert not any(body.startswith("【ピリオド1 更新】") for body in game.bot_posts())
        game.post("20:06:00", "準備完了", BOB)  # Bob plays XYZ: every island with players is ready
        game.tick()
        assert any(body.startswith("【ピリオド1 更新】") for body in game.bot_posts())
    finally:
        game.close()


def test_the_receipt_says_when_a_later_order_of_the_same_unit_will_not_count(tmp_path: Path) -> None:
    game = Game(tmp_path)
    try:
        game.tick()
        first = game.post("20:10:00", "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02", ALICE)
        second = game.post("20:11:00", "＜移動＞ABC-DD-A-01、(4,3)\n＜移動＞ABC-CV-A-01、(8,4)", ALICE)
        game.tick("20:12:00")
        receipt = game.last()
        assert f">>{first} ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-02\n" in receipt + "\n"  # the first: no word
        assert (
            f">>{second} ＜移動＞ABC-DD-A-01、(4,3)（ABC-DD-A-01の先の命令が1回実行されれば、この命令は無効です）"
            in receipt
        )
        assert f">>{second} ＜移動＞ABC-CV-A-01、(8,4)\n" in receipt + "\n"  # another unit: no word
    finally:
        game.close()

"""The 都道府県バトロワ (seed 000) played end to end on the local board through the bot, in both modes,
with time injected into the board and the bot and the game's secret fixed (`GameConfig(seed=...)`), so
each game is the same every run. What the bot posted (bodies only, one `-----` line between posts) is
compared with a golden transcript in tests/fixtures/battle_royale/.

Regenerate the golden files only on purpose, then read the diff before keeping it:

    THREADGM_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_scheduler_battle_royale.py

A regenerated file must come out byte-identical on a second run (the games are deterministic).
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from board.admin import ADMIN_CLIENT
from board.posting import PostingService, WriteForm, Written
from board.server import make_app
from board.storage import BoardStore
from engine.keys import JST
from engine.rng import SeededDice
from engine.rules import REGISTRY
from engine.rules.battle_royale.ruleset import NEXT_TEMPLATE
from scheduler import BotConfig, GameConfig, ThreadBot, main
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.conftest import FIXTURES
from tests.scripted import scripted_server

GOLDEN = FIXTURES / "battle_royale"
REGENERATE = os.environ.get("THREADGM_REGEN_GOLDEN") == "1"
SEPARATOR = "-----"
GM = "GM#threadgm-test-key"
GM_TRIP = "SyRJNUqZWYMT"
START = datetime(2026, 12, 1, 20, 0, tzinfo=JST)
ROSTER = ("北海道", "青森", "岩手", "宮城", "秋田", "山形", "福島", "茨城")
ENDINGS = ("【優勝】", "【黒幕の勝利】", "【和解エンド】")
SECRETS = ("（GM）", "黒幕は『", "協力者に", "黒幕決定ダイス", "黒幕陣営人数ダイス", "協力者決定ダイス")


def scenario_text(mastermind: bool) -> str:
    lines = ['title = "東日本バトロワ"', "", "[options]", "summary_every = 3"]
    if mastermind:
        lines += ["", "[mastermind]", "enabled = true", "lives = 4"]
    for name in ROSTER:
        lines += ["", "[[prefectures]]", f'name = "{name}"']
    return "\n".join(lines) + "\n"


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def open_board(data: Path, clock: Clock) -> LocalBoard:
    """The local board with the game's thread opened at a fixed moment: the thread key (part of every
    assisted die's stream) is then the same on every run."""
    app = make_app(data, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""}, clock=clock)
    store = BoardStore(data)
    store.open("test", create=True)
    opened = PostingService(store, clock=lambda: START - timedelta(hours=1)).write(
        WriteForm("test", None, "", "", "都道府県バトロワ会場です", "都道府県バトロワ Part1"), ADMIN_CLIENT
    )
    assert isinstance(opened, Written)
    server, script = scripted_server(app)
    return LocalBoard(data, server, script, opened.key)


class Game:
    def __init__(
        self, tmp_path: Path, rules: str, seed: str, *, mastermind: bool = False, **options: object
    ) -> None:
        self.clock = Clock()
        self.board = open_board(tmp_path / "board", self.clock)
        scenario = tmp_path / "battle_royale.toml"
        scenario.write_text(scenario_text(mastermind), "utf-8")
        config = GameConfig(
            "br",
            rules,
            self.board.url(),
            scenario=scenario,
            gm_trips=(GM_TRIP,),
            seed=seed,
            **options,
        )
        self.store = Store(tmp_path / "bot.sqlite")
        self.bot = ThreadBot(
            config, BotConfig(name=BOT_NAME), self.store, make_session(), self.clock, registry=REGISTRY
        )

    def post(self, text: str, name: str = "名無しのダイス民") -> int:
        return self.board.post(text, name=name)

    def tick(self) -> None:
        self.bot.tick()

    def bot_posts(self) -> list[str]:
        return [p.body for p in self.board.posts() if p.trip == BOT_TRIP]

    def transcript(self) -> str:
        return f"\n{SEPARATOR}\n".join(self.bot_posts()) + "\n"

    def ended(self) -> bool:
        return any(ending in body for body in self.bot_posts() for ending in ENDINGS)

    def close(self) -> None:
        self.board.close()
        self.store.close()


@pytest.fixture
def make_game(tmp_path: Path):
    games: list[Game] = []

    def make(rules: str, seed: str, **options: object) -> Game:
        games.append(Game(tmp_path, rules, seed, **options))
        return games[-1]

    yield make
    for game in games:
        game.close()


def check_golden(name: str, transcript: str) -> None:
    path = GOLDEN / name
    if REGENERATE:
        path.write_text(transcript, encoding="utf-8")
    assert transcript == path.read_text(encoding="utf-8"), f"{name} differs (see the module docstring)"


def secrets_kept(bodies: list[str]) -> None:
    """Nothing GM-only in any post, and the mastermind never named as such before the reveal."""
    joined = "\n".join(bodies)
    assert not any(word in joined for word in SECRETS)
    before = joined.split("【黒幕判明】")[0]
    assert not re.search(r"黒幕『[^』]+』", before)


# --- automatic ------------------------------------------------------------------------------------------


def test_automatic_game_runs_on_the_schedule_and_on_the_gms_command(make_game) -> None:
    game = make_game(
        "battle-royale",
        "seed000|battle-royale|39",  # chosen for a full story: groups, faked deaths, the unknown, a winner
        mastermind=True,
        schedule={"interval": "10m", "anchor": "2026-12-01 20:10", "grace": "0m"},
        dice=False,
    )
    game.tick()
    assert game.bot_posts()[0].startswith("【都道府県バトロワ 開始】\n更新: 10分ごと")
    periods = 0
    while not game.ended():
        periods += 1
        assert periods < 60, "the game did not end"
        if periods == 3:
            game.clock.advance(minutes=4)  # between deadlines: the GM runs the next battle at once
            game.post("進行", name=GM)
            game.tick()
            echo = next(body for body in game.bot_posts() if "【GM】" in body)
            assert "【GM】ピリオド3を即時更新します" in echo
            assert any(body.startswith("【ピリオド3 更新】") for body in game.bot_posts())
            continue
        if periods == 5:
            game.clock.advance(minutes=1)
            game.post("設定 options.battles_per_period=2\n状態", name=GM)
            game.tick()
            echo = game.bot_posts()[-1]
            assert "【GM】設定しました: options.battles_per_period=2（ピリオド5から）" in echo
            assert "【東日本バトロワ 状況（第" in echo and "【生き残り表】" in echo
        game.clock.advance(minutes=10)
        game.tick()
    bodies = game.bot_posts()
    transcript = game.transcript()
    numbers = [int(n) for n in re.findall(r"^【ピリオド(\d+) 更新】", transcript, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 4
    assert "【生き残り表】" in transcript and "【戦況まとめ（第3戦終了時点）】" in transcript
    assert sum(transcript.count(ending) for ending in ENDINGS) == 1
    assert "黒幕陣営は非公開のダイスで決定しました" in transcript and "【黒幕判明】" in transcript
    secrets_kept(bodies)
    # anyone can check the first die with the key the first update published
    key = bytes.fromhex(re.search(r"鍵 ピリオド1: ([0-9a-f]{64})", transcript)[1])
    stream = SeededDice(key, "br/1/0")
    first, second = stream.roll(8), stream.roll(8)
    assert f"【都道府県選択ダイス】\ndice2d8={first} {second} ({first + second})\n" in transcript
    # the mastermind's dice came from a key of their own, published only now that the game is over
    assert transcript.rstrip().endswith("（最初に公開したハッシュと照合できます）")
    checked = CliRunner().invoke(main, ["verify", game.board.url()])
    assert checked.exit_code == 0, checked.output
    assert "秘密のダイスの鍵は最初に公開したハッシュと一致しました" in checked.output
    assert f"鍵 ピリオド{numbers[-1]}" in transcript and "結果: すべて一致しました" in checked.output
    check_golden("bot_automatic.txt", transcript)
    stays_ended(game, numbers[-1])


def stays_ended(game: Game, last_period: int) -> None:
    """After the end: no next period was announced, 進行 says the game is over, 状態 shows the result,
    and no period is resolved again."""
    last = next(
        body for body in reversed(game.bot_posts()) if body.startswith(f"【ピリオド{last_period} 更新】")
    )
    assert f"次 ピリオド{last_period + 1}" not in last
    game.clock.advance(minutes=1)
    game.post("進行\n状態", name=GM)
    game.tick()
    echo = game.bot_posts()[-1]
    assert "【GM】即時更新: ゲームは終了しています" in echo and "・ゲーム終了（ピリオド" in echo
    game.clock.advance(minutes=30)
    game.tick()
    assert not any(f"【ピリオド{last_period + 1} 更新" in body for body in game.bot_posts())


# --- assisted -------------------------------------------------------------------------------------------


def due_template(answer: str) -> str:
    """What the scripted player copies from the bot's answer: the lines after 次に貼るテンプレ↓."""
    lines = answer.split("\n")
    start = len(lines) - 1 - lines[::-1].index(NEXT_TEMPLATE)
    return "\n".join(line for line in lines[start + 1 :] if not line.startswith("理由："))


def test_assisted_game_follows_the_templates_players_post(make_game) -> None:
    game = make_game("battle-royale-assist", "seed000|battle-royale-assist")
    game.tick()
    (opening,) = game.bot_posts()  # nothing to answer yet: only the commitment to today's dice key
    assert opening.startswith("【ダイス検証】\n鍵のハッシュ(SHA-256) 2026-12-01: ")
    template = "【都道府県選択ダイス】\ndice2d8="
    wrong_once = False
    for _ in range(300):
        if game.ended():
            break
        game.clock.advance(minutes=1)
        if not wrong_once and template.startswith("【戦闘方針ダイス】"):
            wrong_once = True
            base = re.search(r"基準『[^』]+』", template)[0]
            number = game.post(f"通常戦闘でいくぞ\n【通常戦闘ダイス】\n{base}\ndice1d5=")
            game.tick()
            (answer,) = game.board.replies_to(number)
            assert "今振るのは【通常戦闘ダイス】ではなく【戦闘方針ダイス】（dice1d3=）です。理由：" in answer
            assert due_template(answer) == template  # the same die is still due: nothing moved
            game.clock.advance(minutes=1)
        number = game.post(template)
        game.tick()
        answers = game.board.replies_to(number)
        assert len(answers) == 1, (number, answers)
        if not game.ended():
            template = due_template(answers[0])
    else:
        raise AssertionError("the game did not end")
    assert wrong_once
    transcript = game.transcript()
    assert (
        "【東日本バトロワ】\n脱落済みが3回続けて出たら都道府県表を作り直し\n番号　都道府県　団体"
        in transcript
    )
    assert "【生き残り表】" in transcript and sum(transcript.count(ending) for ending in ENDINGS) == 1
    secrets_kept(game.bot_posts())
    check_golden("bot_assisted.txt", transcript)


def test_golden_transcripts_are_kept_with_one_separator_line_between_posts() -> None:
    for name in ("bot_automatic.txt", "bot_assisted.txt"):
        text = (GOLDEN / name).read_text(encoding="utf-8")
        posts = text.rstrip("\n").split(f"\n{SEPARATOR}\n")
        assert len(posts) > 5 and all(post and SEPARATOR not in post.split("\n") for post in posts)
        assert not re.search(r"\d{4}/\d\d/\d\d|ID:", text)  # bodies only: no dates, no IDs


def test_both_modes_are_registered_and_only_the_automatic_one_needs_a_schedule(tmp_path: Path) -> None:
    from engine.config import ConfigError
    from scheduler import load_config

    assert REGISTRY.get("battle-royale").ID == "battle-royale"
    assert REGISTRY.get("battle-royale-assist").ID == "battle-royale-assist"
    (tmp_path / "br.toml").write_text(scenario_text(mastermind=False), "utf-8")

    def config(rules: str, schedule: str = "") -> Path:
        path = tmp_path / f"{rules}.toml"
        path.write_text(
            f'[[game]]\nid = "br"\nrules = "{rules}"\nthread = "http://127.0.0.1:8080/test/read.cgi/test/1764590400/"\n'
            f'scenario = "br.toml"\n{schedule}',
            "utf-8",
        )
        return path

    _, (assisted,) = load_config(config("battle-royale-assist"))
    assert assisted.rules == "battle-royale-assist" and assisted.schedule is None
    with pytest.raises(ConfigError, match=r"\[game.schedule\]（更新時刻）が必要です"):
        load_config(config("battle-royale"))
    _, (automatic,) = load_config(config("battle-royale", '[game.schedule]\ntimes = ["21:00"]\n'))
    assert automatic.schedule == {"times": ["21:00"]}

"""The games that wait for their players, played to their end from the files `threadgm new` wrote, as the
README tells a GM: the GM's trip (from `threadgm trip`) in `gm_trips`, the players' trips in the scenario
where the game names its players there, and nothing else changed — except, for にじ野望, the one line
the README's "plays in minutes" example changes (`max_seasons`). The players post the order forms of
each game's HELP over the local board's own form handler, the GM moves the periods with 進行, the board
refuses nothing, every order is taken, the game ends once, and `threadgm verify --config` passes."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from board.admin import open_thread
from board.server import make_app
from board.settings import LOCAL_PLAY
from engine.rules import REGISTRY
from scheduler import ThreadBot, load_config, main
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import LocalBoard
from tests.scripted import scripted_server

GM = "GM#gm-key-for-the-readme"
ALICE = "アリス#alice-key-for-the-readme"
BOB = "ボブ#bob-key-for-the-readme"


def trip(name: str) -> str:
    """The trip a name's #key gives, as `threadgm trip` prints it (◆ included)."""
    printed = CliRunner().invoke(main, ["trip", name[name.index("#") :]])
    assert printed.exit_code == 0, printed.output
    return printed.output.strip()


@dataclass
class Table:
    """One machine's game: the local board (as `threadgm board` makes it), the written files, the bot."""

    tmp_path: Path
    board: LocalBoard
    bot: ThreadBot
    store: Store

    def post(self, text: str, name: str) -> None:
        self.board.post(text, name=name)  # asserts the board answered 書きこみました

    def tick(self, times: int = 2) -> None:
        for _ in range(times):
            self.bot.tick()

    def bot_bodies(self) -> list[str]:
        return [p.body for p in self.board.posts() if p.trip and p.name.startswith("ダイス係")]

    def advance(self) -> None:
        """The GM closes the period at once (即時更新 · 進行), as the README says."""
        self.tick(1)  # the players' orders are read (and receipted) first
        self.post("進行", GM)
        self.tick()

    def ended(self) -> bool:
        return any("【ゲーム終了】" in body for body in self.bot_bodies())

    def verify(self) -> str:
        dat = self.board.data / "test" / "dat" / f"{self.board.key}.dat"
        checked = CliRunner().invoke(main, ["verify", str(dat), "--config", "mine/threadgm.toml"])
        assert checked.exit_code == 0, checked.output
        assert "結果: すべて一致しました" in checked.output
        return checked.output


@pytest.fixture
def table_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Table]]:
    made: list[Table] = []

    def make(game: str, edit: Callable[[str, str], tuple[str, str]] | None = None) -> Table:
        monkeypatch.chdir(tmp_path)  # the config's database path is relative to where the bot runs
        data = tmp_path / "board"
        server, script = scripted_server(make_app(data, ["test"], defaults=LOCAL_PLAY))
        args = ["new", game, "mine", "--data", "board", "--board", "test", "--origin", server.url]
        written = CliRunner().invoke(main, args)
        assert written.exit_code == 0, written.output
        config_path, scenario_path = Path("mine/threadgm.toml"), Path("mine/scenario.toml")
        config = config_path.read_text("utf-8")
        assert config.count("gm_trips = []") == 1
        config = config.replace("gm_trips = []", f'gm_trips = ["{trip(GM)}"]')
        scenario = scenario_path.read_text("utf-8")
        if edit is not None:
            config, scenario = edit(config, scenario)
        config_path.write_text(config, "utf-8")
        scenario_path.write_text(scenario, "utf-8")
        bot_config, (game_config,) = load_config(config_path)
        key = game_config.thread.rstrip("/").rsplit("/", 1)[1]
        os.makedirs(bot_config.database.parent, exist_ok=True)
        store = Store(bot_config.database)
        board = LocalBoard(data, server, script, key)
        table = Table(
            tmp_path,
            board,
            ThreadBot(game_config, bot_config, store, make_session(), registry=REGISTRY),
            store,
        )
        made.append(table)
        table.tick()  # the dice keys and the game's opening
        return table

    yield make
    for table in made:
        table.store.close()
        table.board.close()


def _the_game_ended_cleanly(table: Table, periods: int) -> list[str]:
    bodies = table.bot_bodies()
    assert sum("【ゲーム終了】" in body for body in bodies) == 1
    for period in range(1, periods + 1):
        assert sum(body.startswith(f"【ピリオド{period} 更新】") for body in bodies) == 1, period
    assert not any(body.startswith(f"【ピリオド{periods + 1} 更新】") for body in bodies)
    assert not any("受け付けられなかった" in body for body in bodies)  # every order was taken
    assert not any("GMのトリップではない" in body for body in bodies)
    return bodies


def test_guess_from_the_written_files(table_for) -> None:
    table = table_for("guess")  # the template lets anyone guess: the players need no scenario line
    played = 0
    while not table.ended():
        played += 1
        assert played <= 5, "数当て's template plays 5 rounds"
        table.post(f"＜予想＞{played * 17 % 100 + 1}", ALICE)
        table.post(f"＜予想＞{played * 31 % 100 + 1}", BOB)
        table.advance()
    bodies = _the_game_ended_cleanly(table, 5)
    last = next(body for body in bodies if body.startswith("【ピリオド5 更新】"))
    assert "【優勝】" in last
    output = table.verify()
    assert "公開された鍵 6 件を事前のハッシュと照合" in output  # 5 periods and the rules secret
    assert "ピリオド 5 件の結果を再計算: 一致 5 件、不一致 0 件" in output


def _naval_players(config: str, scenario: str) -> tuple[str, str]:
    """The README: edit the scenario's players first (ABC is Alice's, XYZ is Bob's)."""
    alice, bob = '"アリス◆ここにアリスのトリップ"', '"◆ここにもう一人のトリップ"'
    assert scenario.count(alice) == 1 and scenario.count(bob) == 1
    return config, scenario.replace(alice, f'"アリス{trip(ALICE)}"').replace(bob, f'"{trip(BOB)}"')


_LOST = re.compile(r"([A-Z]+-[A-Z]+-[A-Z]+-\d+)(?:は|も)?消滅")


def test_naval_from_the_written_files(table_for) -> None:
    table = table_for("naval", _naval_players)
    alive = {"ABC-DD-A-01", "ABC-CV-A-01", "ABC-F-A-01", "XYZ-DD-X-01", "XYZ-CV-X-01", "XYZ-F-X-01"}
    period = 0
    while not table.ended():
        period += 1
        assert period <= 10, "the template's war ends with period 10"
        alice, bob = _naval_orders(alive, period)
        if alice:
            table.post("\n".join(alice), ALICE)
        if bob:
            table.post("\n".join(bob), BOB)
        table.advance()
        for body in table.bot_bodies():
            alive -= set(_LOST.findall(body))
    bodies = _the_game_ended_cleanly(table, period)
    last = next(body for body in bodies if body.startswith(f"【ピリオド{period} 更新】"))
    assert "【終戦】" in last and "島: 残り" in last  # why the war ended, and what each island has left
    output = table.verify()
    recomputed = re.search(r"ピリオド (\d+) 件の結果を再計算: 一致 (\d+) 件", output)
    assert recomputed and recomputed[1] == recomputed[2] == str(period), output


def _naval_orders(alive: set[str], period: int) -> tuple[list[str], list[str]]:
    """What each island's player posts: the fighter strikes the nearest enemy ship, the destroyers
    close in and fight (an order the rules void — out of range, target gone — is still an order)."""
    alice, bob = [], []
    targets = [unit for unit in ("XYZ-DD-X-01", "XYZ-CV-X-01") if unit in alive]
    if {"ABC-F-A-01", "ABC-CV-A-01"} <= alive and targets:
        alice.append(f"＜攻撃＞ABC-F-A-01、{targets[0]}")
    if "ABC-DD-A-01" in alive and "XYZ-DD-X-01" in alive:
        alice.append("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01")
    if "XYZ-DD-X-01" in alive:
        if period == 1:
            bob.append("＜移動＞XYZ-DD-X-01、(5,3)")
        elif enemies := [unit for unit in ("ABC-DD-A-01", "ABC-CV-A-01") if unit in alive]:
            bob.append(f"＜攻撃＞XYZ-DD-X-01、{enemies[0]}")
    if "XYZ-CV-X-01" in alive and period <= 4:
        bob.append(f"＜移動＞XYZ-CV-X-01、({11 - period},4)")
    return alice, bob


def _nijiyabou_short(config: str, scenario: str) -> tuple[str, str]:
    """The README's game of minutes: a year of four seasons (`max_seasons = 4`), the one line changed."""
    line = re.search(r"^max_seasons = 0\b.*$", scenario, flags=re.M)
    assert line is not None
    return config, scenario.replace(line[0], "max_seasons = 4", 1)


def test_nijiyabou_from_the_written_files(table_for) -> None:
    table = table_for("nijiyabou", _nijiyabou_short)
    table.post("参加 東京", ALICE)  # the first area's name stands for its liver
    table.post("参加 神奈川", BOB)
    seasons = [
        (["東京：内政", "東京：外交 同盟 神奈川"], ["神奈川：内政", "神奈川：外交 同盟 東京"]),
        (["東京：徴兵 足軽2000"], ["神奈川：配信"]),
        (["東京：配信 統率"], ["神奈川：徴兵 鉄砲500"]),
        (["東京：内政"], ["神奈川：内政"]),
    ]
    for alice, bob in seasons:
        assert not table.ended()
        table.post("\n".join(alice), ALICE)
        table.post("\n".join(bob), BOB)
        table.advance()
    assert table.ended()
    bodies = _the_game_ended_cleanly(table, 4)
    assert any("同盟" in body and body.startswith("【ピリオド1 更新】") for body in bodies)
    output = table.verify()
    recomputed = re.search(r"ピリオド (\d+) 件の結果を再計算: 一致 (\d+) 件", output)
    assert recomputed and recomputed[1] == recomputed[2] == "4", output


def test_the_helpers_open_threads_where_the_bot_reads(tmp_path: Path) -> None:
    """The board `new` writes to is the one the harness reads: a post lands in the thread the config names."""
    data = tmp_path / "board"
    server, script = scripted_server(make_app(data, ["test"], defaults=LOCAL_PLAY))
    try:
        key = open_thread(data, "test", "試し", "一レス目")
        board = LocalBoard(data, server, script, key)
        board.post("＜予想＞3", name=ALICE)
        assert board.posts()[-1].body == "＜予想＞3" and board.posts()[-1].trip == trip(ALICE)[1:]
    finally:
        server.close()

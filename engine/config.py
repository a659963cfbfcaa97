"""The configuration file as data: the bot (name, mail, database) and one game per `[[game]]` table,
each checked on load — the game exists, the thread is a thread, a game on the clock has a schedule,
every value is of its kind, a GM trip is a trip (never a key) — with a message that says where and
why (and what was meant, for a misspelt key or game). Read as a GM's editor saves it (`read_text`).
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from pathlib import Path

from engine.clock.schedule import ScheduleError, parse_schedule
from engine.gm_files import ConfigError
from engine.gm_files import read_text as read_text  # the readers of a GM's files import it from here too
from engine.ruleset import ANYONE, Registry, Ruleset, close_to, seats_of
from parser.gm_words import CANCEL_WORDS, READY_WORDS

ThreadCheck = Callable[[str], "str | None"]


@dataclass(frozen=True)
class WebConfig:
    """[web]: the game page `threadgm run` serves beside the bot. Off unless the table is there (a
    bot must not open a port its GM did not ask for); loopback unless `host` says otherwise."""

    host: str = "127.0.0.1"  # "0.0.0.0" shows the page to the LAN (behind a proxy for the internet)
    port: int = 8381
    enabled: bool = True


@dataclass(frozen=True)
class BotConfig:
    name: str = "ダイス係"  # may carry #tripkey: the bot then knows its posts by the trip
    mail: str = "sage"
    database: Path = Path("var/threadgm.sqlite")
    user_agent: str = ""  # "" for the scraper's own
    pace_seconds: float = 10.0  # between posts to a host that publishes no BBS_SAMBATIME
    pace_margin: float = 1.0  # added to the board's own number (its clock counts whole seconds)
    workers: int = 8  # polls running at once
    per_host: int = 4  # of which at most this many on one board host
    # 連投規制 for boards that publish none: at most this many of a thread's last
    # `consecutive_window` posts (0: as many as consecutive_limit, i.e. in a row); 0 = no limit
    consecutive_limit: int = 0
    consecutive_window: int = 0
    web: WebConfig | None = None  # from [web]; None: no game page


@dataclass(frozen=True)
class GameConfig:
    id: str
    rules: str
    thread: str
    poll_seconds: float = 5.0  # while the thread is active
    idle_seconds: float = 30.0  # once nobody has written for `idle_after` seconds
    idle_after: float = 600.0
    read: str = "raw"  # raw (dat / rawmode) or html (read.cgi, for boards without raw access)
    dice: bool = True  # answer dice commands in posts (besides the ruleset's orders)
    gm_trips: tuple[str, ...] = ()  # ◆TRIP of each GM (the server-made trip, checked exactly)
    open_table: bool = False  # a game with no GM starts only when its configuration says so
    scenario: Path | None = None  # the ruleset's scenario TOML, relative to the configuration file
    schedule: dict | None = None  # [game.schedule]: when periods end (rulesets that resolve periods)
    cancel_words: tuple[str, ...] = CANCEL_WORDS
    ready_words: tuple[str, ...] = READY_WORDS
    rollover_at: int = 20  # open the next thread when this many posts are left (0: only when full)
    title: str = ""  # title of threads the bot opens (default: the thread's own, with the next part number)
    seed: str | None = (
        None  # fixes the game's secret (tests, replays): anyone knowing it can predict the dice
    )


def _close(word: str, choices: Iterable[str]) -> str:
    """「…」のことですか？ for a misspelt key or name, or "" when nothing is close."""
    close = close_to(word, choices)
    return f"（「{close}」のことですか？）" if close else ""


# What each [[game]] item holds, for the message when a value is of the wrong kind.
_GAME_STRINGS = ("id", "rules", "thread", "read", "title", "seed", "scenario")
_GAME_FLAGS = ("dice", "open_table")
_GAME_WORD_LISTS = ("cancel_words", "ready_words")
# a poll every 0 seconds would hammer a real board; idle_after and rollover_at may be 0
_GAME_NUMBERS = {"poll_seconds": False, "idle_seconds": False, "idle_after": True}
# A trip as boards show it after ◆: 10 characters of crypt(3), 12 of base64(SHA-1) (8 on old boards).
_TRIP = re.compile(r"[./0-9A-Za-z]{8,12}")
THREAD_SHAPES = (
    "スレッドのURLは https://サーバー.5ch.net/test/read.cgi/板/1234567890/ や "
    "https://jbbs.shitaraba.net/bbs/read.cgi/カテゴリ/番号/1234567890/ の形です"
    "（板のトップページではなく、スレッドを開いたときのURL）"
)


def _check_values(table: dict, where: str) -> None:
    """Each item's value is of its kind (a typo such as poll_seconds = "5" or gm_trips = "◆…" would
    otherwise run a different game than the GM wrote)."""
    for key in _GAME_STRINGS:
        if key in table and (not isinstance(table[key], str) or not table[key].strip()):
            raise ConfigError(f'{where}: {key} は文字列で書いてください（例: {key} = "…"）')
    for key in _GAME_FLAGS:
        if key in table and not isinstance(table[key], bool):
            raise ConfigError(f"{where}: {key} は true か false です")
    for key, zero_ok in _GAME_NUMBERS.items():
        value = table.get(key, 1)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or value < 0
            or (value == 0 and not zero_ok)
        ):
            least = " 0 以上の" if zero_ok else " 0 より大きい"
            raise ConfigError(f"{where}: {key} は{least}秒数です（例: {key} = 5）")
    rollover = table.get("rollover_at", 0)
    if isinstance(rollover, bool) or not isinstance(rollover, int) or rollover < 0:
        raise ConfigError(f"{where}: rollover_at は 0 以上の整数です（残りレス数。0 なら満杯になってから）")
    for key in (*_GAME_WORD_LISTS, "gm_trips"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            example = '["◆SyRJNUqZWYMT"]' if key == "gm_trips" else '["…", "…"]'
            raise ConfigError(f"{where}: {key} は文字列のリストで書いてください（例: {key} = {example}）")
    for trip in table.get("gm_trips", []):
        _check_trip(trip, where)


def _trip_of(written: str) -> str:
    """The trip of a gm_trips entry: `◆TRIP`, `TRIP`, or `名前◆TRIP` as `threadgm trip` prints it."""
    text = unicodedata.normalize("NFKC", written).strip()
    return text.rpartition("◆")[2].strip() if "◆" in text else text


def _check_trip(written: str, where: str) -> None:
    """A gm_trips entry is a trip the board shows, never a key (a key in the file is a secret on disk,
    and no post's trip would ever equal it: the GM could not steer the game)."""
    trip = _trip_of(written)
    if "#" in trip:
        key = trip[trip.index("#") :]
        raise ConfigError(
            f"{where}: gm_trips の「{written}」はトリップではなくキーです。キーは設定に書かず、"
            f"threadgm trip '{key}' が出すトリップを書いてください（例: gm_trips = [\"◆…\"]）"
        )
    if not _TRIP.fullmatch(trip):
        raise ConfigError(
            f"{where}: gm_trips の「{written}」はトリップではありません"
            "（◆のあとの10文字か12文字。threadgm trip 'GM#キー' で出ます）"
        )


def _check_game_table(table: dict, where: str, registry: Registry, thread_problem: ThreadCheck) -> None:
    missing = {"id", "rules", "thread"} - set(table)
    if missing:
        raise ConfigError(f"{where}: {', '.join(sorted(missing))} がありません")
    known = [f.name for f in fields(GameConfig)]
    unknown = sorted(set(table) - set(known))
    if unknown:
        hints = "、".join(f"{key}{_close(key, known)}" for key in unknown)
        raise ConfigError(f"{where}: 知らない項目があります: {hints}")
    _check_values(table, where)
    if table["rules"] not in registry:
        raise ConfigError(
            f"{where}: rules = {table['rules']!r} はありません{_close(table['rules'], registry.ids())}"
            f"（使えるもの: {', '.join(registry.ids())}）"
        )
    problem = thread_problem(str(table["thread"]))
    if problem:
        raise ConfigError(f"{where}: {problem}。{THREAD_SHAPES}")
    if table.get("read", "raw") not in ("raw", "html"):
        raise ConfigError(f"{where}: read は raw か html です")


def _game_config(
    table: dict, where: str, base: Path, registry: Registry, thread_problem: ThreadCheck
) -> GameConfig:
    _check_game_table(table, where, registry, thread_problem)
    values = dict(table)
    for key in ("gm_trips", "cancel_words", "ready_words"):
        if key in values:
            values[key] = tuple(values[key])
    values["gm_trips"] = tuple(_trip_of(trip) for trip in values.get("gm_trips", ()))
    if "scenario" in values:
        values["scenario"] = (base / values["scenario"]).resolve()
        if not values["scenario"].is_file():
            raise ConfigError(f"{where}: scenario のファイルがありません: {values['scenario']}")
    if not registry.get(table["rules"]).immediate:
        if "schedule" not in values:
            raise ConfigError(
                f"{where}: rules = {table['rules']!r} には [game.schedule]（更新時刻）が必要です"
            )
        try:
            parse_schedule(values["schedule"])
        except ScheduleError as error:
            raise ConfigError(f"{where}: {error}") from error
    return GameConfig(**values)


def _check_pace(table: dict, path: Path) -> None:
    """[bot]'s numbers for the pace of posts and the poll loop."""
    for key in ("pace_seconds", "pace_margin"):
        value = table.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ConfigError(f"{path}: [bot] {key} は 0 以上の秒数です（例: {key} = 10）")
    for key in ("workers", "per_host"):
        value = table.get(key, 1)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 256:
            raise ConfigError(f"{path}: [bot] {key} は 1～256 の整数です")
    for key in ("consecutive_limit", "consecutive_window"):
        value = table.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
            raise ConfigError(
                f"{path}: [bot] {key} は 0～1000 の整数です（例: consecutive_limit = 5 で5連投まで）"
            )
    limit, window = table.get("consecutive_limit", 0), table.get("consecutive_window", 0)
    if limit and window and window < limit:
        raise ConfigError(
            f"{path}: [bot] consecutive_window（{window}）は consecutive_limit（{limit}）以上にしてください"
        )


def _web_config(table: object, path: Path) -> WebConfig | None:
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [web] は表にしてください（例: [web] の下に port = 8381）")
    unknown = set(table) - {f.name for f in fields(WebConfig)}
    if unknown:
        raise ConfigError(f"{path}: [web] に知らない項目があります: {', '.join(sorted(unknown))}")
    web = WebConfig(**table)
    if not isinstance(web.host, str) or not web.host.strip():
        raise ConfigError(f'{path}: [web] host はアドレスの文字列です（例: "127.0.0.1"）')
    if isinstance(web.port, bool) or not isinstance(web.port, int) or not 0 <= web.port <= 65535:
        raise ConfigError(f"{path}: [web] port は 0～65535 の整数です")
    if not isinstance(web.enabled, bool):
        raise ConfigError(f"{path}: [web] enabled は true か false です")
    return web if web.enabled else None


def load_config(
    path: Path, registry: Registry, thread_problem: ThreadCheck
) -> tuple[BotConfig, list[GameConfig]]:
    """The configuration file: the bot, and one game per [[game]] table, checked against `registry`;
    `thread_problem(url)` says why a URL is not a thread."""
    try:
        data = tomllib.loads(read_text(path))  # UTF-8 with or without BOM, or Shift_JIS, as editors save
    except OSError as error:
        raise ConfigError(f"{path}: 読めません ({error})") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: TOML の書き方が正しくありません ({error})") from error
    bot_table = data.get("bot", {})
    if not isinstance(bot_table, dict):
        raise ConfigError(f'{path}: [bot] は表にしてください（例: [bot] の下に name = "ダイス係#キー"）')
    known = [f.name for f in fields(BotConfig) if f.name != "web"]
    unknown = sorted(set(bot_table) - set(known))
    if unknown:
        hints = "、".join(f"{key}{_close(key, known)}" for key in unknown)
        raise ConfigError(f"{path}: [bot] に知らない項目があります: {hints}")
    for key in ("name", "mail", "database", "user_agent"):
        if key in bot_table and not isinstance(bot_table[key], str):
            raise ConfigError(f'{path}: [bot] {key} は文字列で書いてください（例: {key} = "…"）')
    _check_pace(bot_table, path)
    bot = BotConfig(
        **{**bot_table, "database": Path(bot_table.get("database", BotConfig.database))},
        web=_web_config(data.get("web"), path),
    )
    tables = data.get("game", [])
    if not isinstance(tables, list) or not all(isinstance(table, dict) for table in tables):
        raise ConfigError(f"{path}: ゲームは [[game]]（角かっこ二重）の表で書いてください")
    games = [
        _game_config(table, f"{path}: [[game]] {index} 番目", path.parent, registry, thread_problem)
        for index, table in enumerate(tables, start=1)
    ]
    if not games:
        raise ConfigError(f"{path}: [[game]] がひとつもありません")
    if len({game.id for game in games}) != len(games):
        raise ConfigError(f"{path}: [[game]] の id が重複しています")
    return bot, games


PLACEHOLDER_BOT_NAMES = ("ダイス係#ここを自分だけのキーに",)  # what older `threadgm new`s wrote: public keys


def config_template(
    game_id: str,
    rules: str,
    thread: str,
    *,
    bot_name: str,
    scenario: str | None,
    clocked: bool,
    anchor: str = "",
    gm_trips: tuple[str, ...] = (),
    database: str = "",
) -> str:
    """A ready-to-run configuration for one game (`threadgm new`), every item with its meaning;
    `bot_name` carries the bot's own fresh key (never one another install has); `database` is this
    table's own (default `var/GAME_ID.sqlite`)."""
    lines = [
        "# threadgm の設定（threadgm new が書いたもの）。threadgm run このファイル で動きます。",
        "# ゲームを増やすには threadgm new ゲーム --config このファイル（一つのボットが全部を進行します）",
        "[bot]",
        f'name = "{bot_name}"   # #キー はこの設定だけの乱数：人に見せない（トリップでボットの書き込みを見分けます）',
        'mail = "sage"',
        f'database = "{database or f"var/{game_id}.sqlite"}"      # ゲームの記録と秘密の種（threadgm run する場所から。消すとダイスが変わります）',
        "",
        "# [web]                                # ゲームのページを出すなら、この2行の先頭の # を消す",
        "# port = 8381                          # http://127.0.0.1:8381/ に全部のゲームが並びます",
        "",
    ]
    text = game_template(
        game_id, rules, thread, scenario=scenario, clocked=clocked, anchor=anchor, gm_trips=gm_trips
    )
    return "\n".join(lines) + "\n" + text


def game_template(
    game_id: str,
    rules: str,
    thread: str,
    *,
    scenario: str | None,
    clocked: bool,
    anchor: str = "",
    gm_trips: tuple[str, ...] = (),
) -> str:
    """One `[[game]]` table with every item's meaning: the end of a new configuration, or a game
    added to one (`threadgm new GAME --config FILE`). Without a GM trip the game does not start
    until the GM writes one (or says open_table = true)."""
    trips = ", ".join(f'"◆{trip}"' for trip in gm_trips)
    lines = [
        "[[game]]",
        f'id = "{game_id}"                         # このゲームの名前（変えるとダイスが変わります）',
        f'rules = "{rules}"                        # ルール（threadgm help {rules} で説明）',
        f'thread = "{thread}"',
        f"gm_trips = [{trips}]"
        + ("                          " if not trips else "  ")
        + "# GMのトリップ（threadgm trip 'GM#キー' で出ます）。GMコマンドはこの人だけ",
    ]
    if not gm_trips:
        lines.append(
            "# GMのトリップを書くまでボットはこのゲームを始めません。GMなしで遊ぶなら次の行の # を消す"
        )
        lines.append("# open_table = true                   # GMなし：GMコマンドは誰も使えません")
    lines += [
        "dice = true                            # 命令のほかにダイスコマンドにも答える",
        "poll_seconds = 5                       # 書き込みがある間、何秒ごとにスレを読むか",
    ]
    if scenario is not None:
        lines.append(f'scenario = "{scenario}"                # このファイルからの相対パス')
    if clocked:
        lines += [
            "",
            "[game.schedule]                        # 更新時刻（どれか一つ）",
            'interval = "10m"                       # 10分ごと：数十分で遊べる（1日なら times = ["12:00", "21:00"]）',
            f'anchor = "{anchor}"              # 最初の締切',
            'grace = "1m"                           # 締切の直前に書かれた命令を読み込む猶予',
            'reminders = ["3m"]                     # 締切の前に命令のない人を呼ぶ',
            "early = true                           # 全員が 準備完了 と書いたら締切を待たずに更新",
        ]
    return "\n".join(lines) + "\n"


def bot_warning(bot: BotConfig) -> str | None:
    """A bot name whose key is public (an older template's placeholder): anyone can post as the bot."""
    if bot.name in PLACEHOLDER_BOT_NAMES:
        return (
            f"[bot] name の #キー（{bot.name}）は誰でも知っているキーです：だれでもボットのトリップで書き込めます。"
            "自分だけの #キー に変えてください"
        )
    return None


def start_problem(game: GameConfig) -> str | None:
    """Why the bot will not start this game: it has no GM and its configuration does not say that
    it is played without one."""
    if game.gm_trips or game.open_table:
        return None
    return (
        f"{game.id}: gm_trips が空のため始めません（GMのいないゲームでは、止める・直す・無効にする人がいません）。"
        "GMのトリップを gm_trips に書くか（threadgm trip 'GM#キー' で出ます）、"
        "GMなしで遊ぶなら open_table = true と書いてください"
    )


def untripped_seats(ruleset: Ruleset, state: object) -> list[str]:
    """What a writer without a trip may act for in this game as it starts (Japanese, for the log's
    warning at start): seats open to everyone, and seats listed by a bare name anyone can type."""
    found = []
    for thing in seats_of(ruleset, state) or [""]:  # "": what anyone's order acts for, where none is named
        owners = ruleset.owners(state, thing)
        what = f"「{thing}」" if thing else "命令"
        if owners is ANYONE:
            found.append(f"{what}は誰でも（トリップなしでも）出せます")
        else:
            bare = [owner for owner in owners if "◆" not in owner]
            if bare:
                found.append(f"{what}は名前だけで出せます（トリップなし: {'、'.join(bare)}）")
    return found


def unplayable_seats(ruleset: Ruleset, state: object) -> list[str]:
    """The owners written with a trip no board makes — the template's 「◆ここに…」 left as it was, a
    key where the trip belongs — by seat (Japanese, for the refusal at start): nobody can ever act
    as them, so a seat of theirs alone could never be played."""
    seat_of: dict[str, str] = {}  # each such owner once, by its own seat where it is one (a player list)
    for thing in seats_of(ruleset, state):
        owners = ruleset.owners(state, thing)
        if owners is ANYONE:
            continue
        for owner in owners:
            written = unicodedata.normalize("NFKC", owner)
            _, mark, trip = written.partition("◆")
            # a #key: the board shows no name with a # in it (it makes the key a trip)
            if ("#" in written or (mark and not _TRIP.fullmatch(trip.strip()))) and (
                owner not in seat_of or thing == owner
            ):
                seat_of[owner] = thing
    return [owner if thing == owner else f"「{thing}」の {owner}" for owner, thing in seat_of.items()]

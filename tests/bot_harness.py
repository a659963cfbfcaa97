"""Shared pieces of the bot's end-to-end tests: a local board behind a scripted server, players
who post over HTTP, and readers of what ended up in the dat."""

from __future__ import annotations

import re
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import requests

from board.admin import open_thread
from board.server import BoardServer, make_app
from scraper.dat import parse_dat
from scraper.post import Post
from tests.scripted import ScriptedApp, scripted_server

ROOT = Path(__file__).resolve().parent.parent

BOT_NAME = "ダイス係#threadgm-test-bot"
BOT_TRIP = (
    "q8PUApyXY4dY"  # trip of the key above (checked by test_the_bot_trip_is_the_one_the_board_computes)
)
DICE_REPLY = re.compile(r"^dice(\d+)d(\d+)=((?:\d+ )+)\((\d+)\)$")


@dataclass
class LocalBoard:
    data: Path
    server: BoardServer
    script: ScriptedApp
    key: str
    apart: bool = False  # each player name writes from an address of its own (as on a real board)

    @classmethod
    def start(
        cls, data: Path, clock=None, title: str = "ダイススレ", *, apart: bool = False, **settings: str
    ) -> LocalBoard:
        """`apart`: players are told apart from the bot (127.0.0.1) by address, so that the board's
        samba and 連投 count the bot alone, as a real board does."""
        defaults = {"BBS_SAMBATIME": "0", "timeclose": ""} | settings
        app = make_app(data, ["test"], defaults=defaults, clock=clock)
        key = open_thread(data, "test", title, "ダイスはこちら")
        server, script = scripted_server(app, trust_proxy=apart)
        return cls(data, server, script, key, apart)

    def url(self, dialect: str = "2ch") -> str:
        if dialect == "2ch":
            return f"{self.server.url}/test/read.cgi/test/{self.key}/"
        return f"{self.server.url}/bbs/read.cgi/local/test/{self.key}/"

    def posts(self) -> list[Post]:
        return parse_dat((self.data / "test" / "dat" / f"{self.key}.dat").read_bytes().decode("cp932"))

    def post(self, message: str, name: str = "プレイヤー", dialect: str = "2ch") -> int:
        """Post as a player through the board's own form handler; returns the new post's number."""
        session = requests.Session()
        if dialect == "2ch":
            fields = {"bbs": "test", "key": self.key, "FROM": name, "mail": "", "MESSAGE": message}
            url, encoding = f"{self.server.url}/test/bbs.cgi", "cp932"
            session.cookies.set("NAME", "")
            session.cookies.set("MAIL", "")
        else:
            fields = {
                "DIR": "local",
                "BBS": "test",
                "KEY": self.key,
                "NAME": name,
                "MAIL": "",
                "MESSAGE": message,
            }
            url, encoding = f"{self.server.url}/bbs/write.cgi/local/test/{self.key}/", "euc_jp"
        body = "&".join(f"{k}={requests.utils.quote(v.encode(encoding))}" for k, v in fields.items())
        before = len(self.posts())
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if self.apart:
            spot = zlib.crc32(name.encode())
            headers["X-Forwarded-For"] = f"10.{spot >> 16 & 255}.{spot >> 8 & 255}.{spot & 255}"
        page = session.post(url, data=body, headers=headers)
        assert "書きこみました" in page.content.decode(encoding, errors="replace"), page.text
        return before + 1

    def replies_to(self, number: int) -> list[str]:
        """The bot's answers to post `number`: each starts `>>N`; one bot post may hold several."""
        found: list[str] = []
        for post in self.posts():
            if post.trip != BOT_TRIP:
                continue
            for chunk in post.body.split("\n\n"):
                head, _, rest = chunk.partition("\n")
                if head == f">>{number}":
                    found.append(chunk)
                elif head == f">>{number}（続き）" and found:
                    found[-1] += "\n" + rest
        return found

    def wait_for(self, predicate, timeout: float = 10.0, step: float = 0.05) -> float:
        """Seconds until `predicate()` held; fails after `timeout`."""
        start = time.monotonic()
        while not predicate():
            if time.monotonic() - start > timeout:
                raise AssertionError(f"not within {timeout}s")
            time.sleep(step)
        return time.monotonic() - start

    def reads(self) -> int:
        """How many times the thread has been read (dat or rawmode), by anyone."""
        return self.script.count("GET", "/test/dat/") + self.script.count("GET", "/bbs/rawmode.cgi/")

    def wait_polls(self, count: int = 3, timeout: float = 60.0) -> None:
        """Wait until the thread has been read `count` more times: what a bot would still do, it has
        done by then (an event to wait for, not a time to sleep)."""
        start = self.reads()
        self.wait_for(lambda: self.reads() >= start + count, timeout=timeout)

    def close(self) -> None:
        self.server.close()


def check_dice_line(line: str, count: int, sides: int) -> list[int]:
    match = DICE_REPLY.match(line)
    assert match, line
    assert (int(match[1]), int(match[2])) == (count, sides)
    faces = [int(face) for face in match[3].split()]
    assert len(faces) == count and all(1 <= face <= sides for face in faces)
    assert int(match[4]) == sum(faces)
    return faces


def write_config(
    path: Path, database: Path, thread_url: str, game_id: str = "test", **game: object
) -> Path:
    """A configuration of one game; without `gm_trips` it is an open table (the bot starts no game
    without a GM unless the configuration says so)."""
    if "gm_trips" not in game:
        game = {"open_table": True, **game}
    options = "\n".join(
        f"{key} = {value!r}" if isinstance(value, str) else f"{key} = {str(value).lower()}"
        for key, value in game.items()
    )
    path.write_text(
        f"""[bot]
name = "{BOT_NAME}"
mail = "sage"
database = "{database}"

[[game]]
id = "{game_id}"
rules = "dice"
thread = "{thread_url}"
{options}
""",
        "utf-8",
    )
    return path

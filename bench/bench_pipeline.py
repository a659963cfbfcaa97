"""The bot's cost to a board and its speed to answer, on the local board over HTTP.

- bytes per poll of a 1000-post thread: idle (nothing new: headers only) and growing (one new post
  per poll: headers plus that post and one byte);
- delay from a player's post to the bot's answer appearing in the dat, p50 and p95, with the bot
  polling every second (so the expected mean is about half a second plus the work).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from board.admin import open_thread
from board.posting import Client, WriteForm
from board.server import BoardServer, make_app
from engine.rules import REGISTRY
from scheduler import BotConfig, GameConfig, Runner
from scraper.fetch import FetchState, fetch, make_session
from scraper.refs import ThreadRef

FILLER = "名無しさん<><>2026/11/29(日) 21:22:13 ID:abcdefgh<>{n}番目 雑談です<>\n"
PLAYER = Client("192.0.2.50", {"NAME": "", "MAIL": ""})


def header_bytes(response) -> int:
    head = f"HTTP/1.1 {response.status_code} {response.reason}\r\n"
    return len(head) + sum(len(k) + len(v) + 4 for k, v in response.headers.items()) + 2


def polls(data: Path, app, server: BoardServer) -> None:
    key = open_thread(data, "bench", "千レス近いスレ", "1")
    dat = data / "bench" / "dat" / f"{key}.dat"
    with dat.open("ab") as handle:
        handle.write("".join(FILLER.format(n=n) for n in range(2, 980)).encode("cp932"))
    ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/bench/{key}/")
    session = make_session()
    sizes: list[int] = []
    session.hooks["response"].append(lambda response, *a, **k: sizes.append(header_bytes(response)))
    time.sleep(1.2)  # let Last-Modified fall a whole second behind, so If-Modified-Since is usable
    state = fetch(session, ref, FetchState()).state
    print(f"first read of a 979-post thread: {state.size} bytes of dat (then 20 more posts: 999)")
    idle = []
    for _ in range(20):
        sizes.clear()
        result = fetch(session, ref, state)
        assert result.outcome == "unchanged"
        idle.append(result.transferred + sizes[-1])
    print(
        f"idle poll:    {statistics.mean(idle):6.0f} bytes (body {result.transferred} + headers), status 304"
    )
    growing, bodies = [], []
    for n in range(20):
        app.posting.write(WriteForm("bench", key, "", "", f"新しいレス{n}"), PLAYER)
        sizes.clear()
        result = fetch(session, ref, state)
        assert result.outcome == "new" and len(result.new_posts) == 1, (
            result.outcome,
            result.note,
            result.new_posts,
            state,
        )
        state = result.state
        growing.append(result.transferred + sizes[-1])
        bodies.append(result.transferred)
    print(
        f"growing poll: {statistics.mean(growing):6.0f} bytes per poll with one new post "
        f"(body {statistics.mean(bodies):.0f}: the post and one byte), status 206"
    )


def delays(data: Path, app, server: BoardServer) -> None:
    key = open_thread(data, "bench", "応答速度", "ダイスどうぞ")
    url = f"{server.url}/test/read.cgi/bench/{key}/"
    bot = BotConfig(name="ベンチ#bench-bot", database=data / "bot.sqlite")
    runner = Runner(bot, [GameConfig("bench", "dice", url, poll_seconds=1.0, idle_seconds=1.0)], REGISTRY)
    dat = data / "bench" / "dat" / f"{key}.dat"
    runner.start()
    measured = []
    try:
        while dat.read_bytes().count(b"\n") < 2:  # the commitment post
            time.sleep(0.05)
        rng = random.Random(7)
        for n in range(30):
            time.sleep(rng.uniform(0.2, 1.3))
            outcome = app.posting.write(WriteForm("bench", key, "", "", f"dice2d6= {n}"), PLAYER)
            posted = time.monotonic()
            anchor = f"&gt;&gt;{outcome.number}<br>".encode("cp932")
            while anchor not in dat.read_bytes():
                time.sleep(0.01)
            measured.append(time.monotonic() - posted)
    finally:
        runner.stop()
    quantiles = statistics.quantiles(measured, n=20)
    print(
        f"post → answer, polling every 1 s, {len(measured)} posts: p50 {statistics.median(measured):.2f} s, p95 {quantiles[18]:.2f} s"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        app = make_app(data, ["bench"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
        with BoardServer(app) as server:
            polls(data, app, server)
            delays(data, app, server)


if __name__ == "__main__":
    main()

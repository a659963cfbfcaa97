"""The demo of `make demo`: a local board without the real boards' brakes, and its one thread of dice."""

from __future__ import annotations

from pathlib import Path

from board import admin

BOARD = "demo"
TITLE = "threadgm ダイス体験スレ"
OPENING = """ここは threadgm の体験スレです。ダイスを書き込むとボットが答えます。
書き方の例（1行に1つ、いくつでも）:
dice2d47=
2D6>=7
choice[北海道,沖縄]
出目の表も振れます:
【通常戦闘ダイス】
dice1d5=
1.勝利
2.敗北
3.逃走
4.手を組む
5.相打ち"""


def demo_thread(data: Path, name: str) -> str:
    """The demo thread's key: the one made before if it is still on the board, else a new one opened
    under `name` (the bot's name field, so that the first post carries its trip)."""
    saved = data.parent / "demo-thread.txt"
    if saved.exists():
        key = saved.read_text().strip()
        if (data / BOARD / "dat" / f"{key}.dat").is_file():
            return key
    key = admin.open_thread(data, BOARD, TITLE, OPENING, name)
    saved.write_text(key)
    return key

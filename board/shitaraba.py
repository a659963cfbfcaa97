"""The したらば (JBBS) dialect of a board: the same threads, shown the way jbbs.shitaraba.net does.

- subject.txt: `KEY.cgi,TITLE(COUNT)` lines, the first line repeated at the end (clients drop it);
- rawmode.cgi: `N<>NAME<>MAIL<>DATE<>BODY<>TITLE<>ID`, the title on post 1 only, the ID without
  `ID:`, deleted posts simply absent (gaps in N), no 1001 line (したらば just stops the thread);
- everything in EUC-JP; a character EUC-JP lacks (`～` U+FF5E, for one) goes out as a numeric
  reference, as したらば does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from board.dat import DatPost
from board.errors import SAMBA, PostError
from board.settings import Settings
from board.storage import ThreadEntry

ENCODING = "euc_jp"


def encode(text: str) -> bytes:
    return text.encode(ENCODING, errors="xmlcharrefreplace")


def is_post(number: int, post: DatPost, delete_name: str, res_max: int) -> bool:
    """Deleted posts and the server's 1001 line are not posts in したらば's eyes."""
    deleted = post.name == post.mail == post.date_id == post.body == delete_name
    over = number > res_max and post.date_id.startswith("Over ")
    return not deleted and not over


def raw_lines(posts: Sequence[DatPost], numbers: Iterable[int], settings: Settings) -> str:
    delete_name = settings.get("BBS_DELETE_NAME", "あぼーん")
    out = []
    for number in numbers:
        post = posts[number - 1]
        if is_post(number, post, delete_name, settings.res_max):
            title = post.title if number == 1 else ""
            out.append(f"{number}<>{post.name}<>{post.mail}<>{post.date}<>{post.body}<>{title}<>{post.id}\n")
    return "".join(out)


def subject_lines(entries: Sequence[ThreadEntry], res_max: int) -> str:
    lines = [f"{e.key}.cgi,{e.title}({min(e.count, res_max)})\n" for e in entries]
    return "".join(lines + lines[:1])


def setting_lines(board: str, settings: Settings, top: str) -> str:
    values = {
        "TOP": top,
        "DIR": "local",
        "BBS": board,
        "CATEGORY": "ローカル",
        "BBS_ADULT": "0",
        "BBS_THREAD_STOP": str(settings.res_max),
        "BBS_NONAME_NAME": settings.get("BBS_NONAME_NAME"),
        "BBS_DELETE_NAME": settings.get("BBS_DELETE_NAME"),
        "BBS_TITLE": settings.get("BBS_TITLE"),
        "BBS_COMMENT": settings.get("BBS_SUBTITLE"),
        # Not in したらば's own answer: the local board says how it paces writers, so that a client
        # needs no guess for it (a real したらば leaves the client to its default).
        "BBS_SAMBATIME": settings.get("BBS_SAMBATIME"),
    }
    return "".join(f"{key}={value}\n" for key, value in values.items())


def error_text(error: PostError) -> str:
    """したらば's wording where clients match it (rate limit, stopped thread), ex0ch's otherwise."""
    if error.code == SAMBA:
        return f"多重書き込みです。あと {error.retry_after} 秒お待ちください。"
    if error.code in (200, 201):
        return "スレッドストップです。このスレッドにはもう書き込めません。"
    return error.plain

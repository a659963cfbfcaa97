"""Thread addresses: any URL a player pastes becomes a `ThreadRef` that knows every other URL.

Accepted forms (http or https):
- 2ch/5ch-compatible (5ch, open2ch, ex0ch, this project's board): `/test/read.cgi/BOARD/KEY/...`,
  `/BOARD/dat/KEY.dat`, 5ch's `/BOARD/oyster/KKKK/KEY.dat` — each also under folders
  (`/bbs/test/read.cgi/BOARD/KEY/`: a board installed in a subdirectory, kept in every URL);
  5ch's smartphone links `itest.5ch.net/SERVER/test/read.cgi/BOARD/KEY` (also 5ch.io, bbspink.com) name
  `SERVER.5ch.net`'s thread (itest serves no dat; a link without its server is refused);
- したらば: `/bbs/read.cgi/CATEGORY/NUMBER/KEY/...`, `/bbs/rawmode.cgi/CATEGORY/NUMBER/KEY/...`,
  `/bbs/read_archive.cgi/...`, with the old hosts `jbbs.livedoor.jp` and `jbbs.shitaraba.com`
  moved to `jbbs.shitaraba.net`; the local board's したらば dialect lives under category `local`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

import regex

_OLD_JBBS_HOSTS = {"jbbs.livedoor.jp", "jbbs.shitaraba.com", "jbbs.livedoor.com"}
# Keys and board names are ASCII: `\d` would take １２３… (and every other script's digits) too.
_KEY = r"(?P<key>[0-9]{9,12})"
_BOARD = r"(?P<board>[A-Za-z0-9_]+)"
# The folders a 2ch-compatible board is installed under: plain names only (no `.`, `..`, `//`).
_ROOT = r"(?P<root>(?:/(?!\.\.?/)[A-Za-z0-9._~-]+)*?)"
_2CH_READ = regex.compile(rf"^{_ROOT}/test/read\.cgi/{_BOARD}/{_KEY}(?:/|$)")
_2CH_DAT = regex.compile(rf"^{_ROOT}/{_BOARD}/(?:dat|oyster/[0-9]{{4}})/{_KEY}\.dat$")
_JBBS = regex.compile(
    rf"^/bbs/(?:read|rawmode|read_archive)\.cgi/(?P<category>[A-Za-z0-9_]+)/{_BOARD}/{_KEY}(?:/|$)"
)
# 5ch's (and BBSPINK's) smartphone site: the thread's server is the first folder of the path.
_SMARTPHONE_HOSTS = {
    "itest.5ch.net": "5ch.net",
    "itest.5ch.io": "5ch.io",  # 5ch's newer domain, the same layout
    "itest.2ch.net": "5ch.net",
    "itest.bbspink.com": "bbspink.com",
}
_SERVER = regex.compile(r"/([a-z0-9]+)")


class Dialect(StrEnum):
    TWOCH = "2ch"
    SHITARABA = "shitaraba"


class NotAThreadURL(ValueError):
    """The text is not the address of a thread on a board threadgm can read."""


@dataclass(frozen=True)
class ThreadRef:
    dialect: Dialect
    origin: str  # scheme://host[:port]
    board: str  # 2ch: the board name; したらば: "CATEGORY/NUMBER"
    key: str
    root: str = ""  # 2ch: the folders the board is installed under ("/bbs"), "" at the host's top

    @property
    def base(self) -> str:
        """Where the board's files start: the origin and the folders it is installed under."""
        return f"{self.origin}{self.root}"

    @classmethod
    def from_url(cls, url: str) -> ThreadRef:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise NotAThreadURL(f"スレッドのURLではありません: {url!r}")
        host = parts.netloc.lower()
        if host in _OLD_JBBS_HOSTS:
            host = "jbbs.shitaraba.net"
        origin = f"{parts.scheme}://{host}"
        path = parts.path
        if match := _JBBS.match(path):
            return cls(Dialect.SHITARABA, origin, f"{match['category']}/{match['board']}", match["key"])
        if match := _2CH_READ.match(path) or _2CH_DAT.match(path):
            root = match["root"]
            if domain := _SMARTPHONE_HOSTS.get(host):
                server = _SERVER.fullmatch(root.lower())
                if not server:
                    raise NotAThreadURL(
                        f"スマートフォン版のURLからはスレッドのサーバーがわかりません: {url!r}。"
                        f"スレッドのPC版のURL（https://サーバー名.{domain}/test/read.cgi/板/キー/）を書いてください"
                    )
                origin, root = f"{parts.scheme}://{server[1]}.{domain}", ""
            return cls(Dialect.TWOCH, origin, match["board"], match["key"], root)
        raise NotAThreadURL(f"スレッドのURLではありません: {url!r}")

    @property
    def id(self) -> str:
        """A stable name for the thread: its canonical read URL."""
        return self.read_url

    @property
    def read_url(self) -> str:
        if self.dialect is Dialect.SHITARABA:
            return f"{self.origin}/bbs/read.cgi/{self.board}/{self.key}/"
        return f"{self.base}/test/read.cgi/{self.board}/{self.key}/"

    @property
    def dat_url(self) -> str:
        return f"{self.base}/{self.board}/dat/{self.key}.dat"

    def rawmode_url(self, start: int = 1) -> str:
        return f"{self.origin}/bbs/rawmode.cgi/{self.board}/{self.key}/{start}-"

    @property
    def board_url(self) -> str:
        """`/BOARD/` on 2ch, `/CATEGORY/NUMBER/` on したらば: the same shape."""
        return f"{self.base}/{self.board}/"

    @property
    def subject_url(self) -> str:
        return f"{self.board_url}subject.txt"

    @property
    def setting_url(self) -> str:
        if self.dialect is Dialect.SHITARABA:
            return f"{self.origin}/bbs/api/setting.cgi/{self.board}/"
        return f"{self.board_url}SETTING.TXT"

    @property
    def write_url(self) -> str:
        if self.dialect is Dialect.SHITARABA:
            return f"{self.origin}/bbs/write.cgi/{self.board}/{self.key}/"
        return f"{self.base}/test/bbs.cgi"

    @property
    def new_thread_url(self) -> str:
        if self.dialect is Dialect.SHITARABA:
            return f"{self.origin}/bbs/write.cgi/{self.board}/new/"
        return f"{self.base}/test/bbs.cgi"

    @property
    def encoding(self) -> str:
        return "euc_jp" if self.dialect is Dialect.SHITARABA else "cp932"

    def with_key(self, key: str) -> ThreadRef:
        """Another thread of the same board (the next part of a game)."""
        return ThreadRef(self.dialect, self.origin, self.board, key, self.root)

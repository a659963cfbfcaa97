"""A board's SETTING.TXT: the defaults a new board gets, and reading and writing the file (CP932).

The keys and defaults follow ex0ch (`test/module/setting.pl`) and what clients read (JDim's
settingloader). Lines without `=` (such as a leading `board@xxxx`) are ignored, as clients do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

DEFAULTS: dict[str, str] = {
    "BBS_TITLE": "threadgm ローカル板",
    "BBS_TITLE_ORIG": "threadgm ローカル板",
    "BBS_SUBTITLE": "スレッド進行GMボットの遊び場",
    "BBS_NONAME_NAME": "名無しさん",
    "BBS_DELETE_NAME": "あぼーん",
    "BBS_NAME_COUNT": "128",
    "BBS_MAIL_COUNT": "64",
    "BBS_MESSAGE_COUNT": "2048",
    "BBS_SUBJECT_COUNT": "48",
    "BBS_LINE_NUMBER": "12",
    "BBS_COLUMN_NUMBER": "256",
    "BBS_UNICODE": "pass",
    "BBS_NAMECOOKIE_CHECK": "checked",
    "BBS_MAILCOOKIE_CHECK": "checked",
    "SUBBBS_CGI_ON": "1",
    "BBS_FORCE_ID": "checked",
    "BBS_NO_ID": "",
    "BBS_HIDENUSI": "",
    "BBS_YMD_WEEKS": "日/月/火/水/木/金/土",
    "BBS_SAMBATIME": "10",
    "timecount": "7",
    "timeclose": "5",
    "BBS_READONLY": "none",
    "BBS_THREAD_TATESUGI": "5",
    "BBS_TATESUGI_COUNT2": "1",
    "BBS_TATESUGI_HOUR": "0",
    "BBS_TATESUGI_COUNT": "5",
    "BBS_RES_MAX": "",
    "BBS_THREAD_STOP": "1000",
    "BBS_DATMAX": "512",
}


@dataclass(frozen=True)
class Settings:
    """SETTING.TXT values with typed accessors for the ones the server enforces."""

    values: Mapping[str, str]
    # Numbers as read, by (key, default): a post asks for a dozen, and the values never change.
    _numbers: dict[tuple[str, int], int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def get(self, key: str, default: str = "") -> str:
        return self.values.get(key, default)

    def number(self, key: str, default: int = 0) -> int:
        """An integer setting; empty or malformed values count as `default` (0 = the check is off)."""
        known = self._numbers.get((key, default))
        if known is None:
            raw = self.values.get(key, "").strip()
            known = self._numbers[key, default] = int(raw) if raw.isdigit() else default
        return known

    def checked(self, key: str) -> bool:
        return self.values.get(key, "").strip() == "checked"

    # Asked at every post, of values that never change: worked out once.
    @cached_property
    def res_max(self) -> int:
        """Posts a thread may hold: 5ch's BBS_THREAD_STOP, else ex0ch's BBS_RES_MAX, else 1000."""
        return self.number("BBS_THREAD_STOP") or self.number("BBS_RES_MAX") or 1000

    @cached_property
    def weekdays(self) -> tuple[str, ...]:
        names = self.get("BBS_YMD_WEEKS").split("/")
        return tuple(names if len(names) == 7 else DEFAULTS["BBS_YMD_WEEKS"].split("/"))


def parse(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    # `\n` (or CRLF, from an editor) ends a setting; a BBS_TITLE holding `\x1c` stays one setting.
    for raw in text.split("\n"):
        key, sep, value = raw.partition("=")
        if sep and key.strip():
            values[key.strip()] = value.rstrip("\r")
    return values


def render(values: Mapping[str, str]) -> str:
    return "".join(f"{key}={value}\n" for key, value in values.items())


def load(path: Path) -> Settings:
    return Settings(parse(path.read_bytes().decode("cp932", errors="replace")))


def save(path: Path, values: Mapping[str, str]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(render(values).encode("cp932", errors="xmlcharrefreplace"))
    tmp.replace(path)


# SETTING.TXT of boards made for play on one machine (`threadgm board`, `new`, `demo`, `board-admin`):
# no samba, no 連投規制, no スレッド立てすぎ. A real board tells writers apart by their address; on one
# machine the bot, the GM and every player are 127.0.0.1, and the brakes would hold them back as one
# writer.
LOCAL_PLAY = {"BBS_SAMBATIME": "0", "timeclose": "", "BBS_THREAD_TATESUGI": "0"}


def new_board_settings(brakes: bool = False, samba: int | None = None) -> dict[str, str]:
    """SETTING.TXT values (over DEFAULTS) for a board made on this machine now: for play on one machine
    unless `brakes` (then a real ex0ch's: samba 10 s, 連投規制, スレッド立てすぎ), with `samba` seconds
    where given. Every command that creates a board uses this; a board made before keeps its file."""
    settings = {} if brakes else dict(LOCAL_PLAY)
    if samba is not None:
        settings["BBS_SAMBATIME"] = str(samba)
    return settings

"""Opening the next part of a thread: its title and what its first post says."""

from __future__ import annotations

import regex

_DIGITS = r"([0-9０-９]+)"
_PART = regex.compile(
    rf"(?:(?:[Pp][Aa][Rr][Tt]|Ｐ[ａＡ][ｒＲ][ｔＴ]|その|其の|パート)\s*{_DIGITS}|{_DIGITS}(?:スレ目|本目))"
)
_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def next_title(title: str) -> str:
    """The next part's title: the last part number counted up (`Part3` → `Part4`, `その2` → `その3`,
    `5スレ目` → `6スレ目`), or ` Part2` added to a first thread."""
    matches = list(_PART.finditer(title))
    if not matches:
        return f"{title} Part2"
    match = matches[-1]
    group = 1 if match[1] else 2
    written = match[group]
    number = str(int(written) + 1)  # int() reads full-width digits too; the width is kept
    if not written.isascii():
        number = number.translate(_FULL_WIDTH)
    return title[: match.start(group)] + number + title[match.end(group) :]


def first_post(game_name: str, previous_url: str) -> str:
    return f"{game_name}の続きです\n前スレ: {previous_url}"


def moved_notice(next_url: str) -> str:
    return f"次スレを立てました: {next_url}"


def open_failed_notice(reason: str) -> str:
    return (
        f"次スレを立てられませんでした（{reason}）。しばらくして立て直します。"
        "GMさんが立てた場合は、このスレに「次スレ URL」と書き込んでください"
    )

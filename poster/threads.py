"""Opening the next part of a thread: its title, what its first post says, and how an answer moved
there points back at the post it answers; and what is said for an answer the board refused."""

from __future__ import annotations

import regex

_DIGITS = r"([0-9０-９]+)"
_PART = regex.compile(
    rf"(?:(?:[Pp][Aa][Rr][Tt]|Ｐ[ａＡ][ｒＲ][ｔＴ]|その|其の|パート)\s*{_DIGITS}|{_DIGITS}(?:スレ目|本目))"
)
_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
_LEADING_ANCHORS = regex.compile(r"^>>\d+(?:-\d+)?(?:\s*>>\d+(?:-\d+)?)*")
_ANCHOR = regex.compile(r">>(\d+(?:-\d+)?)")


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


def refused_notice(reason: str) -> str:
    """Said in place of an answer the board would not take (its text, not the game, was refused)."""
    return f"この返答は掲示板に書き込みを断られました（{reason}）"


def leading_anchors(body: str) -> str:
    """The anchors an answer opens with (`>>12 >>15`), "" when it opens with none."""
    match = _LEADING_ANCHORS.match(body)
    return match[0] if match else ""


def point_back(body: str, old_read_url: str, *, short: bool = False) -> str:
    """An answer moved to the next part: the anchors opening its lines name the old thread's posts
    by their full address (`>>17` in the new thread would be post 17 of the new one). `short`: where
    the addresses would not fit the post, the posts are named in words instead (`前スレ17番`)."""

    def anchors(match: regex.Match) -> str:
        if short:
            return "前スレ" + "・".join(f"{number}番" for number in _ANCHOR.findall(match[0]))
        return "前スレ " + _ANCHOR.sub(lambda anchor: old_read_url + anchor[1], match[0])

    return "\n".join(_LEADING_ANCHORS.sub(anchors, line) for line in body.split("\n"))

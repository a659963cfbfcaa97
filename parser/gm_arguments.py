"""What follows a GM command's keyword: one reader per command that takes an argument (the length
or time of 延長, the anchors of 無効 and 公開, the option of 巻き戻し, the `項目=値` of 設定, the URL of
次スレ), the limits they enforce, and the rule that what is left after a complete command must be
nothing or a remark. `parser.gm` finds the keyword and hands the rest of the line to these readers.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import regex

from parser.bbs_dice import normalize
from parser.gm_commands import Extend, GmCommand, GmError, NextThread, Reveal, Rollback, SetValue, Void
from parser.gm_time import TimeProblem, read_clock_time, read_duration

MAX_VOID_POSTS = 1000  # posts one 無効 may name: a thread holds about 1000
MAX_POST_NUMBER = 999_999
MAX_URL_LENGTH = 2048
MAX_PATH_LENGTH = 200
_SNIPPET = 20  # characters of unreadable text quoted back to the GM

REMARK_MARKS = "。、,.!("  # after NFKC: 。、，．！（ are these
_PARAM_START = regex.compile(r"[0-9A-Za-z>≫+=:~\-/]")
_ANCHOR = r"(?:>>?|≫)"
_DASH = r"[-~〜ー―‐−–—]"
_ITEM = regex.compile(rf"{_ANCHOR}?([0-9]{{1,7}})(?:\s*+{_DASH}\s*+{_ANCHOR}?([0-9]{{1,7}}))?(?![0-9])")
_ITEM_SEP = regex.compile(r"[\s,、・]*")
_ROLLBACK_OPTION = regex.compile(
    r"\s*+(?:[(\[【]\s*+)?(?P<opt>再処理|再実行|保留|停止|redo|hold)(?![A-Za-z])(?:\s*+[)\]】])?",
    regex.IGNORECASE,
)
_REDO_WORDS = {"再処理", "再実行", "redo"}
_SET = regex.compile(r"(?P<path>[^\s=:]++)\s*+(?P<sep>[=:])(?P<value>.*)$")
_PATH = regex.compile(r"[\w-]+(?:\.[\w-]+)*")
_URL = regex.compile(r"(?P<h>h?)ttps?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+", regex.IGNORECASE)
_URL_START = regex.compile(r"h?ttps?://", regex.IGNORECASE)
_HOST = regex.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*")
NEXT_LEAD = regex.compile(r"(?:[\s:。、,→⇒]|->)*")


@dataclass(frozen=True)
class Context:
    """What a command's argument reader needs besides the text after its keyword."""

    raw: str  # the line as written
    text: str  # the line after NFKC, trimmed
    start: int  # where the argument text starts in `text`
    name: str  # the command's name for GmError.command: its canonical keyword, or `!gm VERB`
    after_bracket: bool  # the keyword stood in 【】/[] or was followed by a colon


def snippet(text: str) -> str:
    """Unreadable text as quoted back to the GM: trimmed, and cut short so the answer stays one line."""
    text = text.strip()
    return text if len(text) <= _SNIPPET else text[:_SNIPPET] + "…"


def _unread(rest: str, *, strict: bool, after_bracket: bool = False) -> str | None:
    """The part of `rest` (after a complete command) that cannot be read; None when it is empty or a remark.

    `strict` (after an argument) also refuses what looks like one more argument after a list
    separator, so `無効 >>12, >>abc` is not half-read.
    """
    if not rest.strip():
        return None
    head = rest.lstrip()
    if strict:
        continued = rest.lstrip(" \t,、")
        if _PARAM_START.match(continued):
            return continued
    if rest[0] in REMARK_MARKS:
        return None
    if (rest[0].isspace() or after_bracket) and not _PARAM_START.match(head):
        return None
    return head


def error(context: Context, reason: str) -> GmError:
    """The line refused, under the command it was taken for."""
    return GmError(context.raw.strip(), context.name, reason)


def finish(
    command: GmCommand, rest: str, context: Context, *, strict: bool = True, after_bracket: bool = False
) -> GmCommand | GmError:
    """The command read, or an error when more than a remark follows it on the line."""
    unread = _unread(rest, strict=strict, after_bracket=after_bracket)
    if unread is None:
        return command
    return error(context, f"「{snippet(unread)}」が読めません")


def no_arguments(command: GmCommand) -> Callable[[str, Context], GmCommand | GmError]:
    """The reader of a command that takes nothing after its keyword but a remark."""

    def read(rest: str, context: Context) -> GmCommand | GmError:
        return finish(command, rest, context, strict=False, after_bracket=context.after_bracket)

    return read


def read_extend(rest: str, context: Context) -> GmCommand | GmError:
    args = rest.lstrip().removeprefix("+").lstrip()
    if not args:
        return error(context, "延長する長さ（例：30分、2時間）か時刻（例：22:00）を書いてください")
    duration = read_duration(args)
    if isinstance(duration, tuple) and _unread(duration[1], strict=True) is None:
        return Extend(duration=duration[0])
    clock = read_clock_time(args)
    if isinstance(clock, tuple) and _unread(clock[1], strict=True) is None:
        return Extend(at=clock[0])
    for problem in (clock, duration):
        if isinstance(problem, TimeProblem):
            return error(context, problem.reason)
    for partial in (duration, clock):
        if isinstance(partial, tuple):
            unread = _unread(partial[1], strict=True) or partial[1]
            return error(context, f"「{snippet(unread)}」が読めません")
    return error(
        context,
        f"「{snippet(args)}」は延長の長さ・時刻として読めません（例：30分、1時間30分、22:00、11/30 22:00）",
    )


def _read_items(args: str) -> tuple[list[tuple[int, int]], str]:
    """Anchors and ranges at the start of `args` (`>>12 >>15-17`, `12,15`) and the text after them."""
    items: list[tuple[int, int]] = []
    position, count = 0, 0
    while True:
        item = _ITEM.match(args, _ITEM_SEP.match(args, position).end())
        if item is None:
            break
        first = int(item[1])
        last = int(item[2]) if item[2] else first
        items.append((first, last))
        position = item.end()
        count += max(last - first + 1, 1)
        if count > MAX_VOID_POSTS:
            break  # the caller refuses the list; reading on would only cost time
    return items, args[position:]


def _item_problem(items: list[tuple[int, int]]) -> str | None:
    total = 0
    for first, last in items:
        if first < 1 or last > MAX_POST_NUMBER:
            return f"レス番号は1～{MAX_POST_NUMBER}で書いてください"
        if last < first:
            return f"範囲 >>{first}-{last} が逆です"
        total += last - first + 1
    if total > MAX_VOID_POSTS:
        return f"一度に指定できるのは{MAX_VOID_POSTS}レスまでです"
    return None


def read_void(rest: str, context: Context) -> GmCommand | GmError:
    args = rest.lstrip()
    items, after = _read_items(args)
    if not items:
        if not args:
            return error(context, "無効にする投稿を >>12 のようにアンカーで書いてください（範囲は >>12-15）")
        return error(context, f"「{snippet(args)}」はアンカーとして読めません（例：無効 >>12 >>15-17）")
    problem = _item_problem(items)
    if problem:
        return error(context, problem)
    posts = sorted({post for first, last in items for post in range(first, last + 1)})
    return finish(Void(tuple(posts)), after, context)


def read_reveal(rest: str, context: Context) -> GmCommand | GmError:
    args = rest.lstrip()
    items, after = _read_items(args)
    if not items:
        if not args:
            return error(context, "公開する投稿を >>12 のように書いてください")
        return error(context, f"「{snippet(args)}」はアンカーとして読めません（例：公開 >>12）")
    problem = _item_problem(items)
    if problem:
        return error(context, problem)
    if len(items) > 1 or items[0][0] != items[0][1]:
        return error(context, "公開できるのは一度に1つの投稿です")
    return finish(Reveal(items[0][0]), after, context)


def read_rollback(rest: str, context: Context) -> GmCommand | GmError:
    option = _ROLLBACK_OPTION.match(rest)
    if option is not None:
        redo = option["opt"].lower() in _REDO_WORDS
        return finish(Rollback(redo), rest[option.end() :], context, strict=False, after_bracket=True)
    # Stricter than the other commands: a word after a space may be a mistyped option, and a
    # rollback cannot be taken back.
    if rest[:1].isspace() and rest.strip() and rest.lstrip()[0] not in "(":
        unread: str | None = rest.strip()
    else:
        unread = _unread(rest, strict=False, after_bracket=context.after_bracket)
    if unread is None:
        return Rollback()
    return error(
        context, f"巻き戻しの後には「再処理」か「保留」だけが書けます（「{snippet(unread)}」は読めません）"
    )


def _raw_value(context: Context, separator_at: int) -> str | None:
    """The value exactly as written: what follows, in the raw line, the separator at `separator_at` of `text`."""
    wanted = sum(1 for char in context.text[: separator_at + 1] if char in "=:")
    seen = 0
    for index, char in enumerate(context.raw):
        if unicodedata.normalize("NFKC", char) in ("=", ":"):
            seen += 1
            if seen == wanted:
                return context.raw[index + 1 :].strip()
    return None


def read_set(rest: str, context: Context) -> GmCommand | GmError:
    args = rest.lstrip()
    usage = "（例：設定 teams.A.name=赤軍）"
    match = _SET.match(args)
    if match is None:
        if not args:
            return error(context, f"設定する項目と値を「項目=値」の形で書いてください{usage}")
        return error(context, f"「{snippet(args)}」は「項目=値」の形になっていません{usage}")
    path = match["path"]
    if len(path) > MAX_PATH_LENGTH or not _PATH.fullmatch(path):
        return error(context, f"項目名「{snippet(path)}」が読めません（ドットで区切ります{usage}）")
    value = match["value"].strip()
    if not value:
        return error(context, f"「{path}」に設定する値がありません（{path}=値 の形で書いてください）")
    separator_at = context.start + (len(rest) - len(args)) + match.start("sep")
    raw_value = _raw_value(context, separator_at)
    if raw_value is not None and normalize(raw_value).strip() == value:
        value = raw_value
    return SetValue(path, value)


def read_url(args: str) -> tuple[str, str] | str | None:
    """An http(s) URL at the start of `args`: (url, rest), a Japanese problem, or None when there is none."""
    match = _URL.match(args)
    if match is None:
        return None
    url = match[0].rstrip(".,;:!?")
    while url.endswith(")") and url.count(")") > url.count("("):
        url = url[:-1]
    rest = args[len(url) :]
    if not match["h"]:
        url = "h" + url
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises ValueError for a port that is not a number
    except ValueError:
        return f"「{snippet(url)}」はURLとして読めません"
    if len(url) > MAX_URL_LENGTH or not _HOST.fullmatch((parts.hostname or "").lower()):
        return f"「{snippet(url)}」はURLとして読めません"
    return url, rest


def read_next(rest: str, context: Context) -> GmCommand | GmError:
    args = rest[NEXT_LEAD.match(rest).end() :]
    if not args.strip():
        return error(context, "次スレのURLを書いてください（例：次スレ https://…）")
    read = read_url(args)
    if read is None:
        kind = "URLとして読めません" if _URL_START.match(args) else "http(s)のURLではありません"
        return error(context, f"「{snippet(args)}」は{kind}")
    if isinstance(read, str):
        return error(context, read)
    return finish(NextThread(read[0]), read[1], context)

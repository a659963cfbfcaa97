"""The GM's override posts: lines that steer the bot (pause, extend, void, rollback, 設定 ...).

Each command is one line of a post; a post may hold several. A line is read after NFKC (full- and
half-width alike, any ASCII case), from its start (after spaces); quoted lines (`>`, `＞`, but not a
`>>N` anchor) never are commands. Checking that the post is signed by a GM trip is the caller's job.

Accepted forms (the Japanese keyword may also stand in 【】 or [], e.g. `【停止】`, `【延長】30分`):

| command | Japanese | ASCII |
|---|---|---|
| `Pause` | 停止 · 一時停止 · 更新停止 | `!gm pause` |
| `Resume` | 再開 · 更新再開 | `!gm resume` |
| `ResolveNow` | 即時更新 · ピリオド更新 · 進行 | `!gm now` |
| `Extend` | 延長 · 締切延長 · 締め切り延長 · 期限延長 + 長さ/時刻; also `30分延長`, `22時まで延長` | `!gm extend 30m` |
| `Void` | 無効 · 無効化 `>>12 >>15-17` | `!gm void 12 15-17` |
| `Rollback` | 巻き戻し · 巻戻し · 巻き戻す · ロールバック [再処理/再実行 · 保留/停止] | `!gm rollback [redo/hold]` |
| `SetValue` | 設定 · 設定変更 `teams.A.name=赤軍` (`=`, `:`, spaces around) | `!gm set PATH=VALUE` |
| `Reveal` | 公開 `>>12` | `!gm reveal 12` |
| `NextThread` | 次スレ · 次スレッド [は · です · はこちら · 立てました] + URL (`次スレ: URL`, `次スレ→URL`, or the URL alone on the next line) | `!gm next URL` |
| `Status` | 状態 · 状態表示 · ステータス | `!gm status` |

Verb-like keywords may end politely: `停止します`, `再開しました`, `即時更新をお願いします`, `巻き戻します`.

What makes ordinary chat not a command: the keyword must be followed by the end of the line, a space,
a colon, its argument (`延長30分`, `無効>>12`), or, for the commands without arguments, a sentence mark
(`停止。`, `停止！`, `停止（メンテ）`). So `停止線で止まった`, `状態異常`, `再開は明日`, `延長戦`, `無効です`,
`次スレは？` and `この設定いいね` are chat (None). Once a line is a command, what follows it must be
nothing or a remark: text after a sentence mark or a parenthesis, or after a space when it does not
look like a parameter (a digit, an ASCII letter, `>`...). `再開 21時` is an error, not a resume now:
the bot would otherwise silently ignore the time. 巻き戻し is stricter still (a rollback cannot be taken
back): a word after a space must be one of its options. Malformed commands (`延長 あとで`, `無効` without
an anchor, `設定 なにか`) are `GmError`s with a short Japanese reason for the bot's answer.

`find_gm_commands` numbers lines from 0 (as `parser.bbs_dice` does) and lets a lone 次スレ line take
the URL standing alone on the next line.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import regex

from parser.bbs_dice import is_quote, normalize
from parser.gm_time import (
    ClockTime,
    TimeProblem,
    duration_ascii,
    duration_ja,
    read_clock_time,
    read_duration,
)

MAX_VOID_POSTS = 1000  # posts one 無効 may name: a thread holds about 1000
MAX_POST_NUMBER = 999_999
MAX_URL_LENGTH = 2048
MAX_PATH_LENGTH = 200
_SNIPPET = 20  # characters of unreadable text quoted back to the GM


@dataclass(frozen=True)
class Pause:
    """停止: stop the game clock (no deadline passes while paused)."""

    @property
    def canonical(self) -> str:
        return "停止"

    @property
    def ascii(self) -> str:
        return "!gm pause"


@dataclass(frozen=True)
class Resume:
    """再開: start the game clock again."""

    @property
    def canonical(self) -> str:
        return "再開"

    @property
    def ascii(self) -> str:
        return "!gm resume"


@dataclass(frozen=True)
class ResolveNow:
    """即時更新: resolve the current period now."""

    @property
    def canonical(self) -> str:
        return "即時更新"

    @property
    def ascii(self) -> str:
        return "!gm now"


@dataclass(frozen=True)
class Extend:
    """延長: move the deadline, by a `duration` or to a JST clock time `at` (exactly one is set)."""

    duration: timedelta | None = None
    at: ClockTime | None = None

    def __post_init__(self) -> None:
        if (self.duration is None) == (self.at is None):
            raise ValueError("Extend takes exactly one of duration and at")

    @property
    def canonical(self) -> str:
        if self.duration is not None:
            return f"延長 {duration_ja(self.duration)}"
        assert self.at is not None
        return f"延長 {self.at.canonical}"

    @property
    def ascii(self) -> str:
        if self.duration is not None:
            return f"!gm extend {duration_ascii(self.duration)}"
        assert self.at is not None
        return f"!gm extend {self.at.ascii}"


@dataclass(frozen=True)
class Void:
    """無効: the orders of these posts do not count (sorted, each once)."""

    posts: tuple[int, ...]

    def _ranges(self) -> list[str]:
        spans: list[list[int]] = []
        for post in self.posts:
            if spans and post == spans[-1][1] + 1:
                spans[-1][1] = post
            else:
                spans.append([post, post])
        return [f"{first}-{last}" if last > first else f"{first}" for first, last in spans]

    @property
    def canonical(self) -> str:
        return "無効 " + " ".join(f">>{span}" for span in self._ranges())

    @property
    def ascii(self) -> str:
        return "!gm void " + " ".join(self._ranges())


@dataclass(frozen=True)
class Rollback:
    """巻き戻し: undo the last period; `redo` resolves it again at once, else the game stays paused."""

    redo: bool = True

    @property
    def canonical(self) -> str:
        return "巻き戻し " + ("再処理" if self.redo else "保留")

    @property
    def ascii(self) -> str:
        return "!gm rollback " + ("redo" if self.redo else "hold")


@dataclass(frozen=True)
class SetValue:
    """設定: set a state path (`teams.A.name`) to a value, the raw text as written (trimmed)."""

    path: str
    value: str

    @property
    def canonical(self) -> str:
        return f"設定 {self.path}={self.value}"

    @property
    def ascii(self) -> str:
        return f"!gm set {self.path}={self.value}"


@dataclass(frozen=True)
class Reveal:
    """公開: reveal the secret roll of a post."""

    post: int

    @property
    def canonical(self) -> str:
        return f"公開 >>{self.post}"

    @property
    def ascii(self) -> str:
        return f"!gm reveal {self.post}"


@dataclass(frozen=True)
class NextThread:
    """次スレ: follow the next thread at this http(s) URL (as written; a 2ch-style `ttp://` gets its h)."""

    url: str

    @property
    def canonical(self) -> str:
        return f"次スレ {self.url}"

    @property
    def ascii(self) -> str:
        return f"!gm next {self.url}"


@dataclass(frozen=True)
class Status:
    """状態: post the game's status."""

    @property
    def canonical(self) -> str:
        return "状態"

    @property
    def ascii(self) -> str:
        return "!gm status"


GmCommand = Pause | Resume | ResolveNow | Extend | Void | Rollback | SetValue | Reveal | NextThread | Status


@dataclass(frozen=True)
class GmError:
    """A line that is a GM command but cannot be carried out; `reason` is Japanese, for the bot's answer."""

    text: str  # the line as written, trimmed
    command: str  # what it was taken for: the canonical keyword (`延長` for `締切延長` too), `!gm extend`,
    # or `!gm` for an unknown ASCII verb
    reason: str


@dataclass(frozen=True)
class GmLine:
    """A command (or a malformed one) found in a post; `line` is 0-based, `raw` the line as written."""

    line: int
    raw: str
    result: GmCommand | GmError


HELP = """GMコマンド（GMのトリップ付きの書き込みで、行の頭に書きます。全角・半角どちらでも可）
停止 ／ 再開 ／ 即時更新（進行）／ 状態
延長 30分 ・ 延長 1時間30分 ・ 延長 22:00 ・ 延長 11/30 22:00（「30分延長します」も可）
無効 >>12 >>15-17 ／ 公開 >>12
巻き戻し（すぐ再処理）・ 巻き戻し 保留（停止したまま）
設定 teams.A.name=赤軍
次スレ https://…
英字でも書けます：!gm pause / resume / now / status / extend 30m / void 12 / reveal 12 /
rollback [redo|hold] / set PATH=VALUE / next URL"""


# --- the grammar -------------------------------------------------------------------------------

_TAIL = (
    r"(?:を?(?:お願い(?:します|いたします|致します)|行います|実行します)"
    r"|いたします|致します|しました|します|する)"
)
_TAIL_RE = regex.compile(_TAIL)
_REMARK_MARKS = "。、,.!("  # after NFKC: 。、，．！（ are these
_PARAM_START = regex.compile(r"[0-9A-Za-z>≫+=:~\-/]")
_ANCHOR = r"(?:>>?|≫)"
_DASH = r"[-~〜ー―‐−–—]"
_ITEM = regex.compile(rf"{_ANCHOR}?(\d{{1,7}})(?:\s*+{_DASH}\s*+{_ANCHOR}?(\d{{1,7}}))?(?!\d)")
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
_NEXT_FILLER = regex.compile(r"(?:\s*+(?:はこちら|こちら|です|を?立てました|立てた|は))*")
_NEXT_LEAD = regex.compile(r"(?:[\s:。、,→⇒]|->)*")
_POSTFIX_EXTEND = regex.compile(rf"\s*+(?:(?:を|だけ)\s*+)?延長{_TAIL}?")
_POSTFIX_PROBLEM = regex.compile(rf".{{1,40}}?延長{_TAIL}?(?:$|[\s。、,.!(])")
_ASCII = regex.compile(r"!gm(?=\s|$)\s*(?P<verb>[A-Za-z]*)", regex.IGNORECASE)


@dataclass(frozen=True)
class _Context:
    """What a command's argument reader needs besides the text after its keyword."""

    raw: str  # the line as written
    text: str  # the line after NFKC, trimmed
    start: int  # where the argument text starts in `text`
    name: str  # the command's name for GmError.command: its canonical keyword, or `!gm VERB`
    after_bracket: bool  # the keyword stood in 【】/[] or was followed by a colon


def _snippet(text: str) -> str:
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
    if rest[0] in _REMARK_MARKS:
        return None
    if (rest[0].isspace() or after_bracket) and not _PARAM_START.match(head):
        return None
    return head


def _error(context: _Context, reason: str) -> GmError:
    return GmError(context.raw.strip(), context.name, reason)


def _finish(
    command: GmCommand, rest: str, context: _Context, *, strict: bool = True, after_bracket: bool = False
) -> GmCommand | GmError:
    unread = _unread(rest, strict=strict, after_bracket=after_bracket)
    if unread is None:
        return command
    return _error(context, f"「{_snippet(unread)}」が読めません")


def _no_arguments(command: GmCommand) -> Callable[[str, _Context], GmCommand | GmError]:
    def read(rest: str, context: _Context) -> GmCommand | GmError:
        return _finish(command, rest, context, strict=False, after_bracket=context.after_bracket)

    return read


def _read_extend(rest: str, context: _Context) -> GmCommand | GmError:
    args = rest.lstrip().removeprefix("+").lstrip()
    if not args:
        return _error(context, "延長する長さ（例：30分、2時間）か時刻（例：22:00）を書いてください")
    duration = read_duration(args)
    if isinstance(duration, tuple) and _unread(duration[1], strict=True) is None:
        return Extend(duration=duration[0])
    clock = read_clock_time(args)
    if isinstance(clock, tuple) and _unread(clock[1], strict=True) is None:
        return Extend(at=clock[0])
    for problem in (clock, duration):
        if isinstance(problem, TimeProblem):
            return _error(context, problem.reason)
    for partial in (duration, clock):
        if isinstance(partial, tuple):
            unread = _unread(partial[1], strict=True) or partial[1]
            return _error(context, f"「{_snippet(unread)}」が読めません")
    return _error(
        context,
        f"「{_snippet(args)}」は延長の長さ・時刻として読めません（例：30分、1時間30分、22:00、11/30 22:00）",
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


def _read_void(rest: str, context: _Context) -> GmCommand | GmError:
    args = rest.lstrip()
    items, after = _read_items(args)
    if not items:
        if not args:
            return _error(context, "無効にする投稿を >>12 のようにアンカーで書いてください（範囲は >>12-15）")
        return _error(context, f"「{_snippet(args)}」はアンカーとして読めません（例：無効 >>12 >>15-17）")
    problem = _item_problem(items)
    if problem:
        return _error(context, problem)
    posts = sorted({post for first, last in items for post in range(first, last + 1)})
    return _finish(Void(tuple(posts)), after, context)


def _read_reveal(rest: str, context: _Context) -> GmCommand | GmError:
    args = rest.lstrip()
    items, after = _read_items(args)
    if not items:
        if not args:
            return _error(context, "公開する投稿を >>12 のように書いてください")
        return _error(context, f"「{_snippet(args)}」はアンカーとして読めません（例：公開 >>12）")
    problem = _item_problem(items)
    if problem:
        return _error(context, problem)
    if len(items) > 1 or items[0][0] != items[0][1]:
        return _error(context, "公開できるのは一度に1つの投稿です")
    return _finish(Reveal(items[0][0]), after, context)


def _read_rollback(rest: str, context: _Context) -> GmCommand | GmError:
    option = _ROLLBACK_OPTION.match(rest)
    if option is not None:
        redo = option["opt"].lower() in _REDO_WORDS
        return _finish(Rollback(redo), rest[option.end() :], context, strict=False, after_bracket=True)
    # Stricter than the other commands: a word after a space may be a mistyped option, and a
    # rollback cannot be taken back.
    if rest[:1].isspace() and rest.strip() and rest.lstrip()[0] not in "(":
        unread: str | None = rest.strip()
    else:
        unread = _unread(rest, strict=False, after_bracket=context.after_bracket)
    if unread is None:
        return Rollback()
    return _error(
        context, f"巻き戻しの後には「再処理」か「保留」だけが書けます（「{_snippet(unread)}」は読めません）"
    )


def _raw_value(context: _Context, separator_at: int) -> str | None:
    """The value exactly as written: what follows, in the raw line, the separator at `separator_at` of `text`."""
    wanted = sum(1 for char in context.text[: separator_at + 1] if char in "=:")
    seen = 0
    for index, char in enumerate(context.raw):
        if unicodedata.normalize("NFKC", char) in ("=", ":"):
            seen += 1
            if seen == wanted:
                return context.raw[index + 1 :].strip()
    return None


def _read_set(rest: str, context: _Context) -> GmCommand | GmError:
    args = rest.lstrip()
    usage = "（例：設定 teams.A.name=赤軍）"
    match = _SET.match(args)
    if match is None:
        if not args:
            return _error(context, f"設定する項目と値を「項目=値」の形で書いてください{usage}")
        return _error(context, f"「{_snippet(args)}」は「項目=値」の形になっていません{usage}")
    path = match["path"]
    if len(path) > MAX_PATH_LENGTH or not _PATH.fullmatch(path):
        return _error(context, f"項目名「{_snippet(path)}」が読めません（ドットで区切ります{usage}）")
    value = match["value"].strip()
    if not value:
        return _error(context, f"「{path}」に設定する値がありません{usage}")
    separator_at = context.start + (len(rest) - len(args)) + match.start("sep")
    raw_value = _raw_value(context, separator_at)
    if raw_value is not None and normalize(raw_value).strip() == value:
        value = raw_value
    return SetValue(path, value)


def _read_url(args: str) -> tuple[str, str] | str | None:
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
        return f"「{_snippet(url)}」はURLとして読めません"
    if len(url) > MAX_URL_LENGTH or not _HOST.fullmatch((parts.hostname or "").lower()):
        return f"「{_snippet(url)}」はURLとして読めません"
    return url, rest


def _read_next(rest: str, context: _Context) -> GmCommand | GmError:
    args = rest[_NEXT_LEAD.match(rest).end() :]
    if not args.strip():
        return _error(context, "次スレのURLを書いてください（例：次スレ https://…）")
    read = _read_url(args)
    if read is None:
        kind = "URLとして読めません" if _URL_START.match(args) else "http(s)のURLではありません"
        return _error(context, f"「{_snippet(args)}」は{kind}")
    if isinstance(read, str):
        return _error(context, read)
    return _finish(NextThread(read[0]), read[1], context)


@dataclass(frozen=True)
class _Kind:
    canonical: str  # the Japanese keyword, for GmError.command
    read: Callable[[str, _Context], GmCommand | GmError]
    verbal: bool  # takes a polite verb ending (します)
    sentence: bool  # no (required) argument: a sentence mark may follow the keyword directly
    attach: regex.Pattern[str] | None = None  # an argument that may follow the keyword directly


_KINDS: dict[str, _Kind] = {
    "pause": _Kind("停止", _no_arguments(Pause()), verbal=True, sentence=True),
    "resume": _Kind("再開", _no_arguments(Resume()), verbal=True, sentence=True),
    "now": _Kind("即時更新", _no_arguments(ResolveNow()), verbal=True, sentence=True),
    "status": _Kind("状態", _no_arguments(Status()), verbal=False, sentence=True),
    "rollback": _Kind(
        "巻き戻し",
        _read_rollback,
        verbal=True,
        sentence=True,
        attach=regex.compile(r"[(\[【]|再処理|再実行|保留|停止"),
    ),
    "extend": _Kind("延長", _read_extend, verbal=True, sentence=False, attach=regex.compile(r"[+\d]")),
    "void": _Kind("無効", _read_void, verbal=False, sentence=False, attach=regex.compile(r">|≫")),
    "reveal": _Kind("公開", _read_reveal, verbal=True, sentence=False, attach=regex.compile(r">|≫")),
    "set": _Kind(
        "設定", _read_set, verbal=False, sentence=False, attach=regex.compile(r"[A-Za-z_][\w.-]*+\s*+[=:]")
    ),
    "next": _Kind(
        "次スレ",
        _read_next,
        verbal=False,
        sentence=False,
        attach=regex.compile(r"[。、→⇒]|->|h?ttps?://", regex.IGNORECASE),
    ),
}

_JAPANESE: dict[str, str] = {
    "停止": "pause",
    "一時停止": "pause",
    "更新停止": "pause",
    "再開": "resume",
    "更新再開": "resume",
    "即時更新": "now",
    "ピリオド更新": "now",
    "進行": "now",  # the battle royale's word: run the next battle now
    "状態": "status",
    "状態表示": "status",
    "ステータス": "status",
    "巻き戻し": "rollback",
    "巻戻し": "rollback",
    "巻き戻す": "rollback",
    "巻戻す": "rollback",
    "巻き戻します": "rollback",
    "巻き戻しました": "rollback",
    "ロールバック": "rollback",
    "延長": "extend",
    "締切延長": "extend",
    "締め切り延長": "extend",
    "期限延長": "extend",
    "無効": "void",
    "無効化": "void",
    "公開": "reveal",
    "設定": "set",
    "設定変更": "set",
    "次スレ": "next",
    "次スレッド": "next",
}
_ASCII_VERBS: dict[str, str] = {
    "pause": "pause",
    "resume": "resume",
    "now": "now",
    "status": "status",
    "rollback": "rollback",
    "extend": "extend",
    "void": "void",
    "reveal": "reveal",
    "set": "set",
    "next": "next",
}

_KEYWORD = "|".join(regex.escape(word) for word in sorted(_JAPANESE, key=len, reverse=True))
_JAPANESE_START = regex.compile(
    rf"【\s*+(?P<b>{_KEYWORD})\s*+】|\[\s*+(?P<s>{_KEYWORD})\s*+\]|(?P<k>{_KEYWORD})"
)


def _japanese(raw: str, text: str) -> GmCommand | GmError | None:
    match = _JAPANESE_START.match(text)
    if match is None:
        return None
    keyword = match["b"] or match["s"] or match["k"]
    kind = _KINDS[_JAPANESE[keyword]]
    bracketed = match["k"] is None
    position = match.end()
    if kind.verbal and (tail := _TAIL_RE.match(text, position)) is not None:
        position = tail.end()
    if kind is _KINDS["next"]:
        position = _NEXT_FILLER.match(text, position).end()
    rest = text[position:]
    if rest and not (
        bracketed
        or rest[0].isspace()
        or rest[0] == ":"
        or (kind.sentence and rest[0] in _REMARK_MARKS)
        or (kind.attach is not None and kind.attach.match(rest))
    ):
        return None  # the keyword is the start of a longer word or sentence: chat
    after_bracket = bracketed
    if rest.startswith(":"):
        rest, position, after_bracket = rest[1:], position + 1, True
    return kind.read(rest, _Context(raw, text, position, kind.canonical, after_bracket))


def _ascii(raw: str, text: str) -> GmCommand | GmError | None:
    match = _ASCII.match(text)
    if match is None:
        return None
    verb = match["verb"].lower()
    rest = text[match.end() :]
    known = ", ".join(_ASCII_VERBS)
    if not verb and not rest:
        return GmError(raw.strip(), "!gm", f"コマンドがありません（{known}）")
    if verb not in _ASCII_VERBS or (rest and not (rest[0].isspace() or rest[0] in ":" + _REMARK_MARKS)):
        attempted = _snippet((match["verb"] + rest).split(maxsplit=1)[0])
        return GmError(raw.strip(), "!gm", f"「!gm {attempted}」というコマンドはありません（{known}）")
    kind = _KINDS[_ASCII_VERBS[verb]]
    after_bracket = False
    position = match.end()
    if rest.startswith(":"):
        rest, position, after_bracket = rest[1:], position + 1, True
    return kind.read(rest, _Context(raw, text, position, f"!gm {verb}", after_bracket))


def _postfix_extend(raw: str, text: str) -> GmCommand | GmError | None:
    """`30分延長します`, `22時まで延長`: the value before the keyword."""
    context = _Context(raw, text, 0, "延長", False)
    problems: list[TimeProblem] = []
    for reader in (read_duration, read_clock_time):
        read = reader(text)
        if isinstance(read, TimeProblem):
            problems.append(read)
            continue
        if read is None:
            continue
        value, rest = read
        keyword = _POSTFIX_EXTEND.match(rest)
        if keyword is None:
            continue
        after = rest[keyword.end() :]
        if after and not (after[0].isspace() or after[0] in _REMARK_MARKS):
            return None  # `30分延長してほしい`: talk about an extension
        command = Extend(duration=value) if isinstance(value, timedelta) else Extend(at=value)
        return _finish(command, after, context, strict=False)
    if problems and _POSTFIX_PROBLEM.match(text):
        return _error(context, problems[-1].reason)
    return None


def parse_gm_line(line: str) -> GmCommand | GmError | None:
    """One line: a GM command, a malformed one (`GmError`), or None when it is not a command."""
    raw = line.rstrip("\r\n")
    if is_quote(raw):
        return None
    text = normalize(raw).strip()
    if not text:
        return None
    if text[0] == "!":
        return _ascii(raw, text)
    if text[0].isdigit() or text[0] in "今本明あ午tT":
        found = _postfix_extend(raw, text)
        if found is not None:
            return found
    return _japanese(raw, text)


def _is_next_heading(text: str) -> bool:
    """`次スレ`, `次スレ立てました`, `【次スレ】`, `次スレ:` alone: the URL may be on the next line."""
    match = _JAPANESE_START.match(text)
    if match is None or _JAPANESE[match["b"] or match["s"] or match["k"]] != "next":
        return False
    position = _NEXT_FILLER.match(text, match.end()).end()
    return not text[_NEXT_LEAD.match(text, position).end() :]


def find_gm_commands(body: str) -> list[GmLine]:
    """Every GM command of a post body in reading order (a 次スレ line may take the URL of the next line)."""
    lines = body.split("\n")
    found: list[GmLine] = []
    skip_next = False
    for number, raw in enumerate(lines):
        if skip_next:
            skip_next = False
            continue
        result = parse_gm_line(raw)
        if result is None:
            continue
        if isinstance(result, GmError) and number + 1 < len(lines) and not is_quote(raw):
            text = normalize(raw).strip()
            if _is_next_heading(text):
                following = normalize(lines[number + 1]).strip()
                read = _read_url(following)
                if isinstance(read, tuple) and not read[1].strip():
                    result, skip_next = NextThread(read[0]), True
        found.append(GmLine(number, raw.rstrip("\r"), result))
    return found

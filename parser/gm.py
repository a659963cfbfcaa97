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

The command types live in `parser.gm_commands` and the readers of each command's argument in
`parser.gm_arguments`; this module recognises the keywords, finds the commands of a post and
re-exports the public names of both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import regex

from parser.bbs_dice import is_quote, normalize
from parser.gm_arguments import (
    MAX_PATH_LENGTH,
    MAX_POST_NUMBER,
    MAX_URL_LENGTH,
    MAX_VOID_POSTS,
    NEXT_LEAD,
    REMARK_MARKS,
    Context,
    error,
    finish,
    no_arguments,
    read_extend,
    read_next,
    read_reveal,
    read_rollback,
    read_set,
    read_url,
    read_void,
    snippet,
)
from parser.gm_commands import (
    Extend,
    GmCommand,
    GmError,
    GmLine,
    NextThread,
    Pause,
    ResolveNow,
    Resume,
    Reveal,
    Rollback,
    SetValue,
    Status,
    Void,
)
from parser.gm_time import TimeProblem, read_clock_time, read_duration

__all__ = [
    "HELP",
    "MAX_PATH_LENGTH",
    "MAX_POST_NUMBER",
    "MAX_URL_LENGTH",
    "MAX_VOID_POSTS",
    "Extend",
    "GmCommand",
    "GmError",
    "GmLine",
    "NextThread",
    "Pause",
    "ResolveNow",
    "Resume",
    "Reveal",
    "Rollback",
    "SetValue",
    "Status",
    "Void",
    "find_gm_commands",
    "parse_gm_line",
]

HELP = """GMコマンド（GMのトリップ付きの書き込みで、行の頭に書きます。全角・半角どちらでも可）
停止 ／ 再開 ／ 即時更新（進行）／ 状態
延長 30分 ・ 延長 1時間30分 ・ 延長 22:00 ・ 延長 11/30 22:00（「30分延長します」も可）
無効 >>12 >>15-17 ／ 公開 >>12
巻き戻し（すぐ再処理）・ 巻き戻し 保留（停止したまま）
設定 teams.A.name=赤軍
次スレ https://…
英字でも書けます：!gm pause / resume / now / status / extend 30m / void 12 / reveal 12 /
rollback [redo|hold] / set PATH=VALUE / next URL"""


# --- the keywords ------------------------------------------------------------------------------

_TAIL = (
    r"(?:を?(?:お願い(?:します|いたします|致します)|行います|実行します)"
    r"|いたします|致します|しました|します|する)"
)
_TAIL_RE = regex.compile(_TAIL)
_NEXT_FILLER = regex.compile(r"(?:\s*+(?:はこちら|こちら|です|を?立てました|立てた|は))*")
_POSTFIX_EXTEND = regex.compile(rf"\s*+(?:(?:を|だけ)\s*+)?延長{_TAIL}?")
_POSTFIX_PROBLEM = regex.compile(rf".{{1,40}}?延長{_TAIL}?(?:$|[\s。、,.!(])")
_ASCII = regex.compile(r"!gm(?=\s|$)\s*(?P<verb>[A-Za-z]*)", regex.IGNORECASE)


@dataclass(frozen=True)
class _Kind:
    canonical: str  # the Japanese keyword, for GmError.command
    read: Callable[[str, Context], GmCommand | GmError]
    verbal: bool  # takes a polite verb ending (します)
    sentence: bool  # no (required) argument: a sentence mark may follow the keyword directly
    attach: regex.Pattern[str] | None = None  # an argument that may follow the keyword directly


_KINDS: dict[str, _Kind] = {
    "pause": _Kind("停止", no_arguments(Pause()), verbal=True, sentence=True),
    "resume": _Kind("再開", no_arguments(Resume()), verbal=True, sentence=True),
    "now": _Kind("即時更新", no_arguments(ResolveNow()), verbal=True, sentence=True),
    "status": _Kind("状態", no_arguments(Status()), verbal=False, sentence=True),
    "rollback": _Kind(
        "巻き戻し",
        read_rollback,
        verbal=True,
        sentence=True,
        attach=regex.compile(r"[(\[【]|再処理|再実行|保留|停止"),
    ),
    "extend": _Kind("延長", read_extend, verbal=True, sentence=False, attach=regex.compile(r"[+0-9]")),
    "void": _Kind("無効", read_void, verbal=False, sentence=False, attach=regex.compile(r">|≫")),
    "reveal": _Kind("公開", read_reveal, verbal=True, sentence=False, attach=regex.compile(r">|≫")),
    "set": _Kind(
        "設定", read_set, verbal=False, sentence=False, attach=regex.compile(r"[A-Za-z_][\w.-]*+\s*+[=:]")
    ),
    "next": _Kind(
        "次スレ",
        read_next,
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
        or (kind.sentence and rest[0] in REMARK_MARKS)
        or (kind.attach is not None and kind.attach.match(rest))
    ):
        return None  # the keyword is the start of a longer word or sentence: chat
    after_bracket = bracketed
    if rest.startswith(":"):
        rest, position, after_bracket = rest[1:], position + 1, True
    return kind.read(rest, Context(raw, text, position, kind.canonical, after_bracket))


def _ascii(raw: str, text: str) -> GmCommand | GmError | None:
    match = _ASCII.match(text)
    if match is None:
        return None
    verb = match["verb"].lower()
    rest = text[match.end() :]
    known = ", ".join(_ASCII_VERBS)
    if not verb and not rest:
        return GmError(raw.strip(), "!gm", f"コマンドがありません（{known}）")
    if verb not in _ASCII_VERBS or (rest and not (rest[0].isspace() or rest[0] in ":" + REMARK_MARKS)):
        attempted = snippet((match["verb"] + rest).split(maxsplit=1)[0])
        return GmError(raw.strip(), "!gm", f"「!gm {attempted}」というコマンドはありません（{known}）")
    kind = _KINDS[_ASCII_VERBS[verb]]
    after_bracket = False
    position = match.end()
    if rest.startswith(":"):
        rest, position, after_bracket = rest[1:], position + 1, True
    return kind.read(rest, Context(raw, text, position, f"!gm {verb}", after_bracket))


def _postfix_extend(raw: str, text: str) -> GmCommand | GmError | None:
    """`30分延長します`, `22時まで延長`: the value before the keyword."""
    context = Context(raw, text, 0, "延長", False)
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
        if after and not (after[0].isspace() or after[0] in REMARK_MARKS):
            return None  # `30分延長してほしい`: talk about an extension
        command = Extend(duration=value) if isinstance(value, timedelta) else Extend(at=value)
        return finish(command, after, context, strict=False)
    if problems and _POSTFIX_PROBLEM.match(text):
        return error(context, problems[-1].reason)
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
    return not text[NEXT_LEAD.match(text, position).end() :]


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
                read = read_url(following)
                if isinstance(read, tuple) and not read[1].strip():
                    result, skip_next = NextThread(read[0]), True
        found.append(GmLine(number, raw.rstrip("\r"), result))
    return found

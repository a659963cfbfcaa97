"""The commands players and the GM type, one per line (after NFKC: full and half width alike). A line
may start with `名前:` (or `名前` and a space, when the rest is a whole command) to act for that
character (NPCs, several PCs); without it the author's own PC acts. A list marker (`1.` `・`), brackets
round the line (`【状況】`), a mark or a polite ending after it (`状況？` `絶対回避します`) are read past.
Lines that match no command are chat. A line that starts like a command but cannot be one, or whose
first word is a command word written another way (`裏ハンドアウト ユイ`, `ユイ 調査`, `肉体はんてい`), is an
error with its reason and the form meant (`Rejection` when the post holds nothing else).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from engine.rules.dystopia.checks import CHANGES, FIXED, SETS, Check
from engine.rules.dystopia.sheets import EXTRA_STATS, nfkc
from engine.rules.dystopia.state import BASE_STATS, DystopiaError

STATS = (*BASE_STATS, *EXTRA_STATS)
BP_USES = {"チャンスメイク": 1, "不屈の闘志": 2, "起死回生": 3, "不撓不屈": 4, "絶対回避": 5}
GM_WORDS = (
    "戦闘開始",
    "戦闘終了",
    "シーン",
    "感情ロール許可",
    "感情ロール終了",
    "リザルトフェイズ",
    "却下",
    "効果",
    "効果解除",
    "セッション開始",
)
MAX_LINES = 8  # commands answered in one post

_STAT = "|".join(STATS)
_ACTOR = re.compile(r"^(?P<actor>[^:\s]{1,24}):\s*(?P<rest>.+)$")
_BRACKET = re.compile(r"^[〈<](?P<stat>[^〉>\s]{1,8})[〉>](?:判定)?(?P<tail>.*)$")
_NAMED = re.compile(rf"^(?P<stat>{_STAT})判定(?P<tail>.*)$")
_PLAIN = re.compile(r"^判定\s+(?P<stat>\S+?)(?=$|[\s+\-\[<>≧目CF])(?P<tail>.*)$")
_OPPOSED = re.compile(
    rf"^対決(?:判定)?\s+(?P<target>\S+)\s+(?P<stat>{_STAT})(?:\s+(?P<pstat>{_STAT}))?(?P<tail>.*)$"
)
# Digits are ASCII only (after NFKC): other scripts' digits are not numbers here.
_TOKEN = re.compile(
    r"\s*(?:(?P<mod>[+-][0-9]{1,3})|(?:>=|≧)(?P<t1>[0-9]{1,3})|目標値?(?P<t2>[0-9]{1,3})"
    r"|\[(?P<label>[^\]]{1,12})\]|(?P<cf>[CF])値?(?P<fix>固定)?(?P<value>[+-]?[0-9]{1,2}))"
)
_AMOUNT_WORDS = "ダメージ|回復|HP回復|MP消費|MP回復"
_AMOUNT = re.compile(
    rf"^(?P<word>{_AMOUNT_WORDS})(?:\s+(?P<target>[^0-9\s]\S*))?\s*(?P<amount>[0-9]{{1,4}})(?:点|ポイント)?$"
)
_AMOUNT_START = re.compile(rf"^(?:{_AMOUNT_WORDS})(?:\s|$)")
_BP = re.compile(rf"^(?P<use>{'|'.join(BP_USES)}|BP消費\s*(?P<cost>[0-9]{{1,2}}))(?P<rest>(?:\s+\S+)*)\s*$")
_ANCHORS = re.compile(r"^(?:>>[0-9]{1,5}(?:-[0-9]{1,5})?\s*)+")
# A list marker or brackets round a command (`1. 肉体判定`, `・調査 ユイ`, `【状況】`).
_MARKER = re.compile(r"^(?:[0-9]{1,2}[.)]|[・*\-])\s*(?=\D)")
_BRACKETED = re.compile(r"^【(?P<inner>[^【】]+)】$")
# `状況お願いします` `サブ移動します`: a word that takes nothing, said politely.
_POLITE = re.compile(r"(?:を?お願いします|します|でお願いします)$")
_WORDS = re.compile(r"^(?P<word>\S+)(?P<rest>(?:\s+\S+)*)\s*$")


@dataclass(frozen=True)
class Opposed:
    actor: str | None
    target: str
    check: Check
    passive_stat: str


@dataclass(frozen=True)
class Amount:
    actor: str | None
    word: str  # ダメージ, 回復, MP消費, MP回復
    target: str | None
    amount: int


@dataclass(frozen=True)
class BpUse:
    actor: str | None
    use: str  # a name of the BP table, or BP消費 (a skill's BP cost)
    cost: int
    emotion: str | None  # the connection whose emotion is cut (None: the smallest that suffices)


@dataclass(frozen=True)
class Words:
    """Every other command: a keyword and its words (とどめ, 感情ロール, handouts, GM commands…)."""

    actor: str | None
    word: str
    args: tuple[str, ...] = ()


Command = Check | Opposed | Amount | BpUse | Words
PLAYER_WORDS: dict[str, tuple[int, ...]] = {  # a word and how many words may follow it
    "とどめ": (1,),
    "感情ロール": (1,),
    "感情上昇": (2,),
    "裏ハンドアウト公開": (1,),
    "調査": (1,),
    "伝達": (2,),
    "同意": (1,),
    "拒否": (1,),
    "シート確認": (0, 1),
    "状況": (0,),
    "サブ移動": (0,),
    "メイン移動": (0,),
    "行動放棄": (0,),
    "行動": (1, 2),
    "移動コスト": (2,),
}


EXAMPLES = {  # the form each word takes, for the answer to a line that uses it wrongly
    "とどめ": "とどめ ユイ",
    "感情ロール": "感情ロール ユイ",
    "感情上昇": "感情上昇 ユイ 3",
    "裏ハンドアウト公開": "裏ハンドアウト公開 ユイ",
    "調査": "調査 ユイ",
    "伝達": "伝達 ユイ ケン",
    "同意": "同意 ケン",
    "拒否": "拒否 ケン",
    "シート確認": "シート確認 ユイ",
    "状況": "状況",
    "サブ移動": "サブ移動",
    "メイン移動": "メイン移動",
    "行動放棄": "行動放棄",
    "行動": "行動 5 スラッシュ",
    "移動コスト": "移動コスト ユイ -1",
}

# The seed's own wording for a command, read as the command.
ALIASES = {
    "とどめを刺す": "とどめ",
    "サブアクションで移動": "サブ移動",
    "サブアクション移動": "サブ移動",
    "メインアクションで移動": "メイン移動",
    "メインアクション移動": "メイン移動",
    "調べる": "調査",
}


def _tail(check: Check, tail: str) -> Check:
    position, modifier, c_mods, f_mods = 0, check.modifier, list(check.c_mods), list(check.f_mods)
    target, label = check.target, check.label
    while position < len(tail):
        match = _TOKEN.match(tail, position)
        if match is None or match.end() == position:
            raise DystopiaError(f"判定の「{tail[position:].strip()}」が読めません（例：肉体判定+2 目標12）")
        position = match.end()
        if match["mod"]:
            modifier += int(match["mod"])
        elif match["t1"] or match["t2"]:
            target = int(match["t1"] or match["t2"])
        elif match["label"]:
            label = match["label"].strip()
        else:
            value = match["value"]
            kind = FIXED if match["fix"] else CHANGES if value[0] in "+-" else SETS
            (c_mods if match["cf"] == "C" else f_mods).append((kind, int(value)))
    return replace(
        check, modifier=modifier, target=target, label=label, c_mods=tuple(c_mods), f_mods=tuple(f_mods)
    )


def _check(text: str, actor: str | None) -> Check | None:
    for pattern in (_BRACKET, _NAMED, _PLAIN):
        match = pattern.match(text)
        if match:
            if match["stat"] not in STATS:
                raise DystopiaError(f"「{match['stat']}」は能力値ではありません（{'・'.join(STATS)}）")
            return _tail(Check(actor, match["stat"]), match["tail"])
    return None


def _opposed(text: str, actor: str | None) -> Opposed | None:
    match = _OPPOSED.match(text)
    if match is None:
        if text.startswith("対決"):
            raise DystopiaError("対決は「対決 相手 能力値」で書いてください（例：対決 ユイ 反射）")
        return None
    check = _tail(Check(actor, match["stat"]), match["tail"])
    return Opposed(actor, match["target"], check, match["pstat"] or match["stat"])


def _bp(text: str, actor: str | None) -> BpUse | None:
    match = _BP.match(text)
    if match is None:
        return None
    cost = int(match["cost"]) if match["cost"] is not None else BP_USES[match["use"]]
    use = "BP消費" if match["cost"] is not None else match["use"]
    emotions = match["rest"].split()
    if len(emotions) > 1:
        raise DystopiaError("BPの用途は感情を1つ切って使います（2つ以上の感情を同時に切ることはできません）")
    return BpUse(actor, use, cost, emotions[0] if emotions else None)


def _words(text: str, actor: str | None) -> Words | None:
    match = _WORDS.match(text)
    if match is None:
        return None
    written, args = match["word"], tuple(match["rest"].split())
    word = ALIASES.get(written, written)
    if word in PLAYER_WORDS:
        if len(args) in PLAYER_WORDS[word]:
            return Words(actor, word, args)
        raise DystopiaError(f"{written}の書き方が違います。もしかして: {EXAMPLES[word]}")
    if word in GM_WORDS:
        return Words(actor, word, args)
    return None


def parse_command(line: str) -> Command | None:
    """One line as a command (None: chat); DystopiaError when it starts like one but cannot be."""
    text = _ANCHORS.sub("", nfkc(line).strip())
    text = _MARKER.sub("", text, count=1)
    if (bracketed := _BRACKETED.match(text)) is not None:
        text = bracketed["inner"].strip()
    return _parse(text, named=True, polite=True)


def _parse(text: str, *, named: bool, polite: bool) -> Command | None:
    """`text` as a command. A name before it (`名前:` or `名前 `) is read once and a polite ending once
    (`named`, `polite`), so that a line of many names or endings is read in a few steps, never one
    step a word."""
    if (head := _ACTOR.match(text)) is not None and head["actor"] in _COMMAND_HEADS:
        text = f"{head['actor']} {head['rest'].strip()}"  # `判定：肉体` `シーン：ドラマ`: a colon for a space
    elif named and head is not None and not text.startswith(("http", ">")):
        found = _parse(head["rest"].strip(), named=False, polite=polite)
        if found is not None:
            return replace(found, actor=head["actor"])
    text = text.rstrip("。.!?")  # `チャンスメイク！` `状況？`
    if (call := _CALLED.match(text)) is not None and call["word"] in _COMMAND_HEADS:
        text = f"{call['word']} {call['args']}".strip()  # `チャンスメイク(ユイ)`
    for reader in (_check, _opposed, _bp, _amount, _words):
        found = reader(text, None)
        if found is not None:
            return found
    if named and (spaced := _named_by_space(text, polite)) is not None:
        return spaced
    if polite and (plain := _said_politely(text, named)) is not None:
        return plain
    _near(text)
    return None


def _said_politely(text: str, named: bool) -> Command | None:
    """`状況お願いします` `絶対回避します`: a whole command, said politely (one that needs more words,
    `同意します`, stays chat)."""
    plain = _POLITE.sub("", text)
    if plain == text or not plain:
        return None
    try:
        return _parse(plain, named=named, polite=False)
    except DystopiaError:
        return None


_NAME_MARKS = frozenset(" 、→=|;/>・-〜~")  # where a colon goes: `アキラ 肉体判定` `アキラ、肉体判定`
_PARTICLES = frozenset("はでが")  # `アキラは肉体判定`


def _named_by_space(text: str, polite: bool) -> Command | None:
    """`アキラ 肉体判定` `アキラ、肉体判定` `アキラは肉体判定`: a name and a space (or a mark, or a
    particle) where the colon goes, when the rest is a whole command (the name is checked when it
    runs: a character that is not there is answered). Names are up to 24 characters, so a line is
    tried at most 24 ways."""
    if text.startswith(("http", ">")):
        return None
    for at in range(1, min(len(text) - 1, 25)):
        mark, name = text[at], text[:at]
        if (mark not in _NAME_MARKS and mark not in _PARTICLES) or " " in name or ":" in name:
            continue
        rest = text[at + 1 :].strip()
        if not _COMMAND_START.match(rest):
            continue  # only a command is tried: a line of chat costs a scan, not 24 readings
        try:
            found = _parse(rest, named=False, polite=polite)
        except DystopiaError:
            continue
        if found is not None:
            return replace(found, actor=name)
    return None


# Ways of writing a handout command that name none of its words.
_HANDOUT_NEAR = {
    "裏ハンドアウト": ("裏ハンドアウト公開", "調査"),
    "ハンドアウト": ("裏ハンドアウト公開", "調査"),
    "RH": ("裏ハンドアウト公開", "調査"),
    "ハンドアウト公開": ("裏ハンドアウト公開",),
    "RH公開": ("裏ハンドアウト公開",),
    "裏ハンドアウト確認": ("調査",),
    "裏ハンドアウト調査": ("調査",),
    "RH調査": ("調査",),
}
_SPELT_CHECK = re.compile(rf"^(?P<stat>{_STAT})(?:はんてい|ハンテイ|の判定|判定する)$")
_KNOWN = (*PLAYER_WORDS, *ALIASES, *BP_USES, *GM_WORDS, *(f"{stat}判定" for stat in BASE_STATS))
_COMMAND_HEADS = frozenset(
    (
        *PLAYER_WORDS,
        *ALIASES,
        *BP_USES,
        *GM_WORDS,
        "判定",
        "対決",
        "対決判定",
        "BP消費",
        *_AMOUNT_WORDS.split("|"),
    )
)
_COMMAND_START = re.compile(
    "^(?:[〈<]|" + "|".join(map(re.escape, sorted({*_COMMAND_HEADS, *STATS}, key=len, reverse=True))) + ")"
)
_CALLED = re.compile(r"^(?P<word>[^\s(]+)\((?P<args>[^()]*)\)$")


def _form(word: str, args: list[str]) -> str:
    if word in EXAMPLES:
        head, *shown = EXAMPLES[word].split()
        return " ".join([head, *(args or shown)])
    return " ".join([word, *args])


def _near(text: str) -> None:
    """A line whose first word is a command word written another way (`裏ハンドアウト ユイ`,
    `RH公開 ユイ`, `肉体はんてい`, `チャンスメーク`) is answered with the form meant, not taken for
    chat. Only a whole first word of about the length of a command word counts, so that chat which
    merely contains one (`チャンスメイクしたい`) stays chat."""
    if not text.split():
        return
    first, *args = text.split()
    if (match := _SPELT_CHECK.match(first)) is not None and not args:
        raise DystopiaError(f"「{first}」は読めませんでした。もしかして: {match['stat']}判定")
    meant = _HANDOUT_NEAR.get(first.upper() if first.isascii() else first)
    if len(args) == 1 and PLAYER_WORDS.get(args[0]) == (1,):  # `ユイ 調査`
        raise DystopiaError(f"読めませんでした。もしかして: {args[0]} {first}")
    if meant is None and len(first) >= 3:
        close = [
            word
            for word in difflib.get_close_matches(first, _KNOWN, n=3, cutoff=0.75)
            if abs(len(word) - len(first)) <= 1 and len(word) >= 3  # `効果音` is not `効果`
        ]
        meant = tuple(ALIASES.get(word, word) for word in close[:1])
    if meant:
        forms = " ／ ".join(_form(word, args) for word in meant)
        raise DystopiaError(f"「{first}」は読めませんでした。もしかして: {forms}")


def _amount(text: str, actor: str | None) -> Amount | None:
    match = _AMOUNT.match(text)
    if match is None:
        if _AMOUNT_START.match(text):
            raise DystopiaError(
                f"「{text.split()[0]} [名前] 数」と書いてください（数は4桁まで。例：ダメージ ユイ 8）"
            )
        return None
    word = "回復" if match["word"] == "HP回復" else match["word"]
    return Amount(actor, word, match["target"], int(match["amount"]))


def parse_lines(body: str) -> list[tuple[str, Command | str]]:
    """Each command line of a post with its command, or the reason it cannot be one."""
    found: list[tuple[str, Command | str]] = []
    for raw in body.split("\n"):
        if raw.lstrip().startswith((">", "＞")) and not raw.lstrip().startswith((">>", "＞＞")):
            continue  # a quote
        try:
            command = parse_command(raw)
        except DystopiaError as error:
            found.append((raw.strip(), str(error)))
            continue
        if command is not None:
            found.append((raw.strip(), command))
    if len(found) > MAX_LINES:
        rest = f"ここから先の{len(found) - MAX_LINES}行は読みません（1つの書き込みに{MAX_LINES}行まで。次の書き込みで）"
        return [*found[:MAX_LINES], (found[MAX_LINES][0], rest)]
    return found
